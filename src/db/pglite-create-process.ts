// The short-lived process of pglite-create.ts: creates the database (in the folder given, or in memory,
// then sent back as a tarball) and exits.
import { PGlite } from '@electric-sql/pglite';
import type { CreationMessage } from './pglite-create.js';

const send = (message: CreationMessage) =>
  new Promise<void>((resolve, reject) => {
    // There is a channel only when pglite-create.ts forked this process.
    if (process.send === undefined) reject(new Error('pglite-create-process runs only as the child of pglite-create.ts'));
    else process.send(message, () => resolve());
  });

const [pgdata] = process.argv.slice(2);
try {
  const database = await PGlite.create(pgdata === undefined ? {} : { dataDir: pgdata });
  if (pgdata === undefined) {
    const image = await database.dumpDataDir('none');
    await send({ image: new Uint8Array(await image.arrayBuffer()) });
  }
  await database.close();
} catch (error) {
  await send({ error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
}
process.disconnect();
