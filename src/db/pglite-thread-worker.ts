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
      const options: QueryOptions = { rowMode: request.rowMode };
      // Types the main thread parses itself, with parsers that cannot cross threads: left as text here.
      if (request.textTypes.length > 0) options.parsers = Object.fromEntries(request.textTypes.map((type) => [type, keepText]));
      return database.query(request.text, request.params, options);
    }
    case 'exec':
      return database.exec(request.text);
    case 'close':
      return database.close();
  }
}

const { dataDir, loadDataDir } = workerData as PgliteThreadOptions;
try {
  const database = await PGlite.create({ dataDir, loadDataDir });
  let queue = Promise.resolve();
  port.on('message', (request: ThreadRequest) => {
    queue = queue.then(async () => {
      let reply: ThreadReply;
      try {
        reply = { id: request.id, ok: true, result: await run(database, request) };
      } catch (error) {
        reply = { id: request.id, ok: false, error: describe(error) };
      }
      try {
        port.postMessage(reply);
      } catch (error) {
        // A result the structured clone cannot carry: the statement still gets its answer.
        port.postMessage({ id: request.id, ok: false, error: describe(error) } satisfies ThreadReply);
      }
      if (request.kind === 'close' && reply.ok) port.close();
    });
  });
  port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies ThreadReply);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: describe(error) } satisfies ThreadReply);
  port.close();
}
