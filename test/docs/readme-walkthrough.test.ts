// The README's walk-through, run command by command with bash and curl against a fresh server: every
// answer must be the one the README shows (identifiers, keys and times may differ, `…` stands for parts
// left out).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { README_ORIGIN, Shell, stepDifferences, walkthroughSteps } from './walkthrough.js';
import { tempDir } from '../helpers/temp.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const apiGuide = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
// The README's walk-through, and its continuation in docs/api.md, in one shell against one server.
const steps = [...walkthroughSteps(readme, '## Walk-through'), ...walkthroughSteps(apiGuide, '## Walk-through: an advisory firm')];

function hasCurl(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const curl = hasCurl();
if (!curl) console.log('[akker tests] curl is not installed: the README walk-through test is skipped.');

describe.skipIf(!curl)('the README walk-through', () => {
  let server: ListeningApp;
  let shell: Shell;
  let dir: string;

  beforeAll(async () => {
    // As `npm start` serves it: the default rate limits, problem types under the README's address.
    server = await startListeningApp('pglite', {
      PUBLIC_URL: README_ORIGIN,
      RATE_LIMIT_GENERAL: '120',
      RATE_LIMIT_WRITE: '30',
      RATE_LIMIT_CALCULATION: '10',
    });
    dir = tempDir('akker-walkthrough-');
    shell = new Shell(dir);
  });

  afterAll(async () => {
    shell?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has steps that show their answers', () => {
    expect(steps.length).toBeGreaterThan(10);
    expect(steps.filter((step) => step.shown !== undefined).length).toBeGreaterThan(8);
  });

  it('gives, command by command, the answers it shows', async () => {
    for (const [index, step] of steps.entries()) {
      const { stdout, stderr } = await shell.run(step.commands.replaceAll(README_ORIGIN, server.url));
      const differences = stepDifferences(step, stdout.replaceAll(server.url, README_ORIGIN));
      expect(differences, `step ${index + 1}:\n${step.commands}\n${stderr}`).toEqual([]);
    }
  });
});
