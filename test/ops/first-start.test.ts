// The first start on an empty DATA_DIR creates the embedded database, which takes seconds (initdb):
// the log says so before it begins, and how long it took; a start on an existing one says nothing of it.
import { Writable } from 'node:stream';
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { openPglite } from '../../src/db/client.js';
import { tempDir } from '../helpers/temp.js';

function recordingLog() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger('info', destination), lines };
}

it('says that it creates the embedded database, where, and how long it took; only the first time', async () => {
  const dataDir = tempDir('akker-first-start-');
  try {
    const first = recordingLog();
    await (await openPglite(dataDir, first.log)).close();
    expect(first.lines.map((line) => line.msg)).toEqual([`creating the embedded database in ${dataDir} …`, 'embedded database created']);
    expect(first.lines[1]).toMatchObject({ level: 'info', data_dir: dataDir, seconds: expect.any(Number) as number });

    const again = recordingLog();
    await (await openPglite(dataDir, again.log)).close();
    expect(again.lines.map((line) => line.msg)).not.toContain('embedded database created');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
