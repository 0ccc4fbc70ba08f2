// The embedded database's own thread: PGlite runs here, and its statements run one after another
// in the order the main thread sent them (see pglite-thread.ts for the protocol and the why).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import type { PgliteThreadOptions, ThreadReply, ThreadRequest } from './pglite-thread.js';

const port = parentPort!;
const keepText = (value: string) => value;

/** An error as plain data: its message and its own fields (`code`, `detail`, `constraint`…), which a clone would drop. */
function describe(error: unknown): { message: string; fields: Record<string, unknown> } {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || name === 'queryOptions') continue;
    fields[name] = value;
  }
  return { message: error.message, fields };
}

async function run(database: PGlite, request: ThreadRequest): Promise<unknown> {
  switch (request.kind) {
    case 'query': {
      const { text, params, rowMode, textTypes, paramTypes } = request;
      if (rowMode === 'object' && textTypes.length === 0 && paramTypes === undefined) return database.query(text, params);
      // Types the main thread parses itself, with parsers that cannot cross threads: left as text here.
      const parsers = Object.fromEntries(textTypes.map((type) => [type, keepText]));
      return database.query(text, params, { rowMode, parsers, paramTypes } satisfies QueryOptions);
    }
    case 'exec':
      return database.exec(request.text);
    case 'close':
      return database.close();
  }
}

// PostgreSQL's default of 128 MB of shared buffers is resident from the start (PGlite touches it all).
// The data's pages are also in the OS cache, so a smaller pool costs little: 32 MB keeps the thread at
// about 130 MB instead of 230 MB.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

const { dataDir, loadDataDir } = workerData as PgliteThreadOptions;

try {
  const database = await PGlite.create({ dataDir, loadDataDir, startParams });
  // No queue of our own: PGlite runs its statements one at a time, in the order they were called.
  port.on('message', (request: ThreadRequest) => {
    run(database, request).then(
      (result) => {
        try {
          port.postMessage({ id: request.id, ok: true, result } satisfies ThreadReply);
        } catch (error) {
          // A result the structured clone cannot carry: the statement still gets its answer.
          port.postMessage({ id: request.id, ok: false, error: describe(error) } satisfies ThreadReply);
        }
      },
      (error: unknown) => port.postMessage({ id: request.id, ok: false, error: describe(error) }),
    );
  });
  port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies ThreadReply);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: describe(error) } satisfies ThreadReply);
}
