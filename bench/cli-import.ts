// Issue figures for `akker fields import`: 500 fields of an RVO-style shapefile (RD New, with crops) read and
// reprojected, then imported whole against an in-process server on a socket with raised write limits.
// Targets: parsing and reprojection ≤ 2 s, the whole import ≤ 60 s.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../clients/cli/src/main.js';
import { parcelsOf } from '../clients/cli/src/parcels.js';
import { silentProgress } from '../clients/cli/src/progress.js';
import { readImportFile } from '../clients/cli/src/read/read-file.js';
import { createAppServer } from '../src/app/node-server.js';
import { loadConfig } from '../src/core/config.js';
import { rvoParcels, writeRvoZip } from '../test/cli/fixtures.js';
import { send, startInProcess } from './in-process.js';

const FIELDS = 500;
const folder = await mkdtemp(join(tmpdir(), 'akker-bench-cli-'));
const bench = await startInProcess({ LOG_REQUESTS: 'false' });
const server = createAppServer(bench.app.fetch, {
  errorsUrl: 'http://127.0.0.1/errors',
  hostname: '127.0.0.1',
  sendTimeoutSeconds: loadConfig({}).sendTimeoutSeconds,
  heldAnswersBytes: loadConfig({}).heldAnswersBytes,
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const zip = await writeRvoZip(join(folder, 'percelen.zip'), rvoParcels(FIELDS));

  const parseStart = performance.now();
  const parcels = parcelsOf(await readImportFile(zip), { nameFrom: undefined, start: undefined, crs: undefined });
  const parseMs = performance.now() - parseStart;
  console.log(`parse and reproject ${parcels.length} fields (with the local checks): ${(parseMs / 1000).toFixed(2)} s (target ≤ 2 s)`);

  const farm = (await send(bench, 'POST', '/api/farms', { b_name_farm: 'Bench' })).b_id_farm as string;
  let out = '';
  const io = { out: (text: string) => void (out += text), err: (text: string) => void (out += text), env: {}, progress: silentProgress };
  const importStart = performance.now();
  const code = await run(['fields', 'import', zip, '--farm', farm, '--year', '2025', '--url', url, '--key', bench.key], io);
  const importMs = performance.now() - importStart;
  if (code !== 0) throw new Error(`the import ended with ${code}:\n${out}`);
  console.log(out.split('\n').find((line) => line.startsWith('created')));
  console.log(`import ${FIELDS} fields with their cultivations (${2 * FIELDS} writes): ${(importMs / 1000).toFixed(1)} s (target ≤ 60 s)`);
} finally {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await bench.close();
  await rm(folder, { recursive: true, force: true });
}
