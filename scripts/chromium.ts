// Debian's Chromium, driven by playwright-core: headless, in a fresh profile, with the background
// services off (no update checks, sync or first-run pages), for the browser test and the screenshot.
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const hasChromium = () => existsSync(CHROMIUM);

/** A browser with its profile in `profileDir` (a fresh, empty folder). */
export const launchChromium = (profileDir: string): Promise<BrowserContext> =>
  chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
