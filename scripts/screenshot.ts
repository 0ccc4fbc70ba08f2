// `npm run screenshot [-- <file.png>]`: the API Keys page with one key listed, as a person sees it.
// Serves Akker on an in-memory embedded database, signs a person up and creates the key "ci" through
// the pages in Debian's Chromium, reloads the page (the raw key is gone, the key is listed) and saves
// a screenshot, by default docs/api-keys.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp, createDeps, type App } from '../src/app/app.js';
import { loadConfig } from '../src/core/config.js';
import { openPglite } from '../src/db/client.js';
import { CHROMIUM, hasChromium, launchChromium } from './chromium.js';

const output = resolve(process.argv[2] ?? 'docs/api-keys.png');

if (!hasChromium()) {
  console.error(`${CHROMIUM} is missing; install Debian's package first: apt-get install chromium`);
  process.exit(1);
}

// The app needs its own address (PUBLIC_URL, for the Origin check of its forms): listen first, then build.
let app: App | undefined;
const server = serve({ fetch: (request, env) => app!.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server;
await new Promise((done) => server.once('listening', done));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const database = await openPglite('memory://');
await database.migrate();
app = createApp(createDeps(loadConfig({ DATA_DIR: 'memory://', PUBLIC_URL: base, REDIS_URL: '' }), database));

const profile = mkdtempSync(join(tmpdir(), 'akker-screenshot-'));
const browser = await launchChromium(profile);
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.setViewportSize({ width: 1100, height: 700 });
  await page.goto(`${base}/signup`);
  await page.getByLabel('Name').fill('Anna de Vries');
  await page.getByLabel('E-mail address').fill('anna@example.org');
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${base}/account`);
  await page.getByRole('link', { name: 'Developer Settings' }).click();
  await page.getByRole('link', { name: 'API Keys' }).click();
  await page.getByLabel('Name').fill('ci');
  await page.getByLabel('Expires').selectOption('90');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('#new-key').waitFor();
  await page.reload();
  await page.locator('tbody tr', { hasText: 'ci' }).waitFor();
  mkdirSync(dirname(output), { recursive: true });
  await page.screenshot({ path: output, fullPage: true });
  console.log(`saved ${output}`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  server.close();
  await database.close();
}
