// The stylesheet, script and icon of the pages, served by this process under
// names that carry a hash of their content, so browsers may keep them forever.
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { copyButtonScript } from './copy-button-script.js';
import { stylesheet } from './stylesheet.js';

const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f6b3f"/><path d="M8 24C8 14 14 8 25 8c0 11-6 17-16 17l-1-1z" fill="#dcefd6"/><path d="M9 23 19 13" stroke="#2f6b3f" stroke-width="2" stroke-linecap="round"/></svg>`;

interface Asset {
  path: string;
  body: string;
  type: string;
}

function asset(name: string, extension: string, body: string, type: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}-${hash}.${extension}`, body, type };
}

const assets = {
  stylesheet: asset('akker', 'css', stylesheet, 'text/css; charset=utf-8'),
  copyButton: asset('copy-button', 'js', copyButtonScript, 'text/javascript; charset=utf-8'),
  icon: asset('icon', 'svg', icon, 'image/svg+xml'),
};

export const assetPath = {
  stylesheet: assets.stylesheet.path,
  copyButton: assets.copyButton.path,
  icon: assets.icon.path,
};

export function assetRoutes() {
  const app = new Hono();
  for (const { path, body, type } of Object.values(assets)) {
    app.get(path, (c) =>
      c.body(body, 200, {
        'content-type': type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      }),
    );
  }
  return app;
}
