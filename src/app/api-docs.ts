// /api/docs: Swagger UI from the installed swagger-ui-dist package, served by us,
// so the page renders with no request leaving the server (no CDN, no fonts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const assets: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Akker API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>`;

// validatorUrl: null — otherwise Swagger UI asks an outside validator service for a badge.
const start = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true, validatorUrl: null });`;

/**
 * The page's Content-Security-Policy: scripts, styles and the description only from this server (the
 * page has no inline script; Swagger UI sets inline style attributes and draws some icons as data:
 * images), calls from "Try it out" to this server or the described public address, and never inside
 * another site's frame.
 */
export function docsPolicy(publicUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `publicUrl`: the address of the API the page describes. */
export function docsRoutes(publicUrl: string) {
  const pageHeaders = { 'content-security-policy': docsPolicy(publicUrl), 'x-frame-options': 'DENY' };
  const app = new Hono();
  // Read once, lazily: the bundle is 1.5 MB and most processes never serve it.
  const cache = new Map<string, Buffer>();
  app.get('/api/docs', (c) => c.html(page, 200, pageHeaders));
  app.get('/api/docs/start.js', (c) => c.body(start, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  // One literal route per asset: a pattern with alternatives would push the whole app off Hono's
  // RegExpRouter onto the slower TrieRouter.
  for (const [name, asset] of Object.entries(assets)) {
    app.get(`/api/docs/${name}`, (c) => {
      let content = cache.get(asset.file);
      if (!content) cache.set(asset.file, (content = readFileSync(join(distDir, asset.file))));
      return c.body(new Uint8Array(content), 200, { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' });
    });
  }
  return app;
}
