// The process's log goes to stdout synchronously: a line is in the file when the call that logged it
// returns (docs/performance.md: an asynchronous destination cost the hot path more, its write
// completions waking the event loop), so nothing is lost when the process ends, however it ends.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'akker-log-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('writes each line to stdout before the logging call returns', () => {
  const output = join(folder, 'stdout');
  const fd = openSync(output, 'w');
  // The child logs one line and reports, before any turn of its event loop, how much of stdout it wrote.
  const program = `
    import { fstatSync } from 'node:fs';
    import { createLogger } from './src/core/logger.ts';
    createLogger('info').info({ n: 1 }, 'written');
    process.stderr.write(String(fstatSync(1).size));
    process.kill(process.pid, 'SIGKILL');`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', fd, 'pipe'],
    encoding: 'utf8',
  });
  closeSync(fd);
  const written = readFileSync(output, 'utf8');
  expect(Number(child.stderr)).toBe(Buffer.byteLength(written));
  expect(JSON.parse(written)).toMatchObject({ level: 'info', n: 1, msg: 'written' });
});
