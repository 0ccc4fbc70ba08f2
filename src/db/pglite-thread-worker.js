// @ts-check
// The embedded database's own thread: PGlite runs here, and its statements run one after another
// in the order the main thread sent them (see pglite-thread.ts for the protocol and the why).
//
// JavaScript, not TypeScript: Node 20 starts a thread without the main thread's module hooks, so a
// TypeScript file would need a loader of its own in every thread (tsx: its own hooks thread, and every
// module of PGlite passed through it), which made each start of the database cost twice the CPU.
// tsc still checks this file, through the JSDoc types below.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * @typedef {import('./pglite-thread.js').PgliteThreadOptions} PgliteThreadOptions
 * @typedef {import('./pglite-thread.js').ThreadRequest} ThreadRequest
 * @typedef {import('./pglite-thread.js').ThreadReply} ThreadReply
 * @typedef {import('@electric-sql/pglite').QueryOptions} QueryOptions
 */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
/** @param {string} value */
const keepText = (value) => value;

/**
 * An error as plain data: its message and its own fields (`code`, `detail`, `constraint`…), which a clone would drop.
 * @param {unknown} error
 * @returns {{ message: string; fields: Record<string, unknown> }}
 */
function describe(error) {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [name, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || name === 'queryOptions') continue;
    fields[name] = value;
  }
  return { message: error.message, fields };
}

/**
 * @param {PGlite} database
 * @param {ThreadRequest} request
 * @returns {Promise<unknown>}
 */
async function run(database, request) {
  if (request.kind !== 'close' && request.begin) return afterBegin(database, () => run(database, { ...request, begin: false }));
  switch (request.kind) {
    case 'query': {
      const { text, params, rowMode, textTypes, paramTypes } = request;
      if (rowMode === 'object' && textTypes.length === 0 && paramTypes === undefined) return database.query(text, params);
      // Types the main thread parses itself, with parsers that cannot cross threads: left as text here.
      const parsers = Object.fromEntries(textTypes.map((type) => [type, keepText]));
      /** @type {QueryOptions} */
      const options = { rowMode, parsers, paramTypes };
      return database.query(text, params, options);
    }
    case 'exec':
      return database.exec(request.text);
    case 'close':
      return database.close();
  }
}

/**
 * A transaction's first statement, with its BEGIN: both handed to PGlite at once, since it runs its
 * statements in the order they are called, ahead of any message that comes after. BEGIN fails only with
 * the database itself (a BEGIN inside a transaction is a warning), and then so does the statement.
 * @param {PGlite} database
 * @param {() => Promise<unknown>} statement
 */
async function afterBegin(database, statement) {
  const begun = database.exec('BEGIN');
  const [begin, result] = await Promise.allSettled([begun, statement()]);
  if (begin.status === 'rejected') throw begin.reason;
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** @param {ThreadReply} reply */
const reply = (reply) => port.postMessage(reply);

// PostgreSQL's default of 128 MB of shared buffers is resident from the start (PGlite touches it all).
// The data's pages are also in the OS cache, so a smaller pool costs little: 32 MB keeps the thread at
// about 130 MB instead of 230 MB.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

const { dataDir, loadDataDir } = /** @type {PgliteThreadOptions} */ (workerData);

try {
  const database = await PGlite.create({ dataDir, loadDataDir, startParams });
  // No queue of our own: PGlite runs its statements one at a time, in the order they were called.
  port.on('message', (/** @type {ThreadRequest} */ request) => {
    run(database, request).then(
      (result) => {
        try {
          reply({ id: request.id, ok: true, result });
        } catch (error) {
          // A result the structured clone cannot carry: the statement still gets its answer.
          reply({ id: request.id, ok: false, error: describe(error) });
        }
      },
      (error) => reply({ id: request.id, ok: false, error: describe(error) }),
    );
  });
  reply({ id: 0, ok: true, result: 'ready' });
} catch (error) {
  reply({ id: 0, ok: false, error: describe(error) });
}
