// The command as people install it: clients/typescript and clients/cli packed with `npm pack`, the two tarballs
// installed globally into an empty folder far from the repository (as docs/cli.md says), and the installed `akker`
// run: its help, and an import against a real listening server. Their dependencies come from npm's cache when
// it has them (--prefer-offline), else from the registry.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithKey, type Account } from '../helpers/app.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { tempDir } from '../helpers/temp.js';
import { rvoParcels, writeRvoZip } from './fixtures.js';

const run = promisify(execFile);
const repository = join(import.meta.dirname, '..', '..');
/** The environment without what `npm test` or `npx` put in it (npm_config_*), which would steer the install. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

describe('akker installed from its packed tarballs', () => {
  let server: ListeningApp;
  let user: Account;
  let akker: string;
  const folder = tempDir('cli-install-');

  beforeAll(async () => {
    server = await startListeningApp('pglite');
    user = await signUpWithKey(server.app);
    const packed = await run('npm', ['pack', './clients/typescript', './clients/cli', '--pack-destination', folder], {
      cwd: repository,
      env: cleanEnv,
    });
    const tarballs = packed.stdout
      .trim()
      .split('\n')
      .map((name) => join(folder, name.trim()));
    expect(tarballs.map((path) => path.slice(folder.length + 1))).toEqual(['akker-client-0.1.0.tgz', 'akker-cli-0.1.0.tgz']);
    const prefix = join(folder, 'global');
    await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], {
      cwd: folder,
      env: cleanEnv,
    });
    akker = join(prefix, 'bin', 'akker');
  }, 300_000);
  afterAll(() => server.close());

  it('depends on the client package by its version, not on a path into the repository', async () => {
    const installed = JSON.parse(await readFile(join(folder, 'global', 'lib', 'node_modules', '@akker', 'cli', 'package.json'), 'utf8'));
    expect(installed.dependencies['@akker/client']).toBe('0.1.0');
  });

  it('shows its help', async () => {
    const help = await run(akker, ['--help'], { cwd: folder, env: cleanEnv });
    expect(help.stdout).toContain('Usage: akker');
    expect(help.stdout).toContain('Examples:');
  }, 60_000);

  it('imports an RVO export into a farm of a running server', async () => {
    const farm = ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: 'De Hoeve' })).json()) as { b_id_farm: string })
      .b_id_farm;
    const zip = await writeRvoZip(join(folder, 'percelen.zip'), rvoParcels(2));
    const imported = await run(akker, ['fields', 'import', zip, '--farm', farm, '--year', '2025'], {
      cwd: folder,
      env: { ...cleanEnv, AKKER_URL: server.url, AKKER_API_KEY: user.key },
    });
    expect(imported.stdout).toContain('created 2, updated 0, deleted 0, unchanged 0, cultivations added 2');
    const fields = (await (await server.send(user.key, 'GET', `/api/farms/${farm}/fields`)).json()) as {
      data: Array<{ b_id_source: string }>;
    };
    expect(fields.data.map((f) => f.b_id_source)).toEqual(['S1000', 'S1001']);
  }, 60_000);
});
