// @ts-check
// The embedded database's own thread: PGlite runs here, and its statements run one after another
// in the order the main thread sent them (see pglite-thread.ts for the protocol and the why).
//
// JavaScript, not TypeScript: Node 20 starts a thread without the main thread's module hooks, so a
// TypeScript file would need a loader of its own in every thread (tsx: its own hooks thread, and every
// module of PGlite passed through it), which made each start of the database cost twice the CPU.
// tsc still checks this file, through the JSDoc types below.
import { workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';

/**
 * @typedef {import('./pglite-thread.js').WorkerData} WorkerData
 * @typedef {import('./pglite-thread.js').ThreadRequest} ThreadRequest
 * @typedef {import('./pglite-thread.js').ThreadReply} ThreadReply
 * @typedef {import('@electric-sql/pglite').QueryOptions} QueryOptions
 */

const { dataDir, loadDataDir, port, answered, settings } = /** @type {WorkerData} */ (workerData);
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
      const { text, params, rowMode, textTypes, paramTypes, plannedOnce } = request;
      if (plannedOnce && paramTypes === undefined && (prepared.has(text) || prepared.size < PREPARED_LIMIT)) {
        return runPrepared(database, text, params, { rowMode, parsers: textParsers(textTypes) });
      }
      if (rowMode === 'object' && textTypes.length === 0 && paramTypes === undefined) return database.query(text, params);
      /** @type {QueryOptions} */
      const options = { rowMode, parsers: textParsers(textTypes), paramTypes };
      return database.query(text, params, options);
    }
    case 'exec':
      return database.exec(request.text);
    case 'close':
      return database.close();
  }
}

/**
 * Types the main thread parses itself, with parsers that cannot cross threads: left as text here.
 * @param {number[]} textTypes
 */
const textParsers = (textTypes) => Object.fromEntries(textTypes.map((type) => [type, keepText]));

/** The statements marked planned-once (db/planned-once.ts) prepared so far: their names and parameter types, by text. */
const prepared = new Map();
/** A guard against marked statements of unbounded shapes: past it, they are sent as any other. */
const PREPARED_LIMIT = 200;
const PROTOCOL = { syncToFs: false };

/**
 * Runs a statement under a name, prepared (parsed and planned) the first time its text is seen: the
 * protocol's Parse once, then Bind and Execute, as node-postgres does with a named statement. Planning
 * costs PGlite ten times what running an access check does (docs/performance.md).
 * @param {PGlite} database
 * @param {string} text
 * @param {unknown[]} params
 * @param {QueryOptions} options
 */
function runPrepared(database, text, params, options) {
  const { serialize } = protocol;
  return database.runExclusive(async () => {
    /** @type {Parameters<typeof parse.parseResults>[0]} */
    const messages = [];
    const send = async (/** @type {Uint8Array} */ message) => messages.push(...(await database.execProtocol(message, PROTOCOL)).messages);
    try {
      let statement = prepared.get(text);
      if (statement === undefined) {
        const name = `planned_${prepared.size + 1}`;
        await send(serialize.parse({ name, text }));
        await send(serialize.describe({ type: 'S', name }));
        const description = messages.find((message) => message.name === 'parameterDescription');
        statement = { name, types: /** @type {{ dataTypeIDs?: number[] }} */ (description)?.dataTypeIDs ?? [] };
        prepared.set(text, statement);
        messages.length = 0;
      }
      const { name, types } = statement;
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = database.serializers[types[index] ?? 0];
        return serializer ? serializer(value) : String(value);
      });
      await send(serialize.bind({ statement: name, values }));
      await send(serialize.describe({ type: 'P' }));
      await send(serialize.execute({}));
    } finally {
      await send(serialize.sync());
    }
    return parse.parseResults(messages, database.parsers, options)[0];
  });
}

/**
 * A transaction's first statement, after its BEGIN, which came with it to save the main thread a round
 * trip. BEGIN fails only with the database itself (a BEGIN inside a transaction is a warning), and then
 * the statement is not run.
 * @param {PGlite} database
 * @param {() => Promise<unknown>} statement
 */
async function afterBegin(database, statement) {
  await database.exec('BEGIN');
  return statement();
}

/**
 * Posts an answer, then counts it: a main thread waiting in a transaction wakes and takes it off the port.
 * @param {ThreadReply} reply
 */
function reply(reply) {
  port.postMessage(reply);
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
}

// PostgreSQL's default of 128 MB of shared buffers is resident from the start (PGlite touches it all).
// The data's pages are also in the OS cache, so a smaller pool costs little: 32 MB keeps the thread at
// about 130 MB instead of 230 MB.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', ...settings.flatMap((setting) => ['-c', setting])];

/**
 * Runs one request and answers it.
 * @param {PGlite} database
 * @param {ThreadRequest} request
 */
async function answer(database, request) {
  try {
    const result = await run(database, request);
    try {
      reply({ id: request.id, ok: true, result });
    } catch (error) {
      // A result the structured clone cannot carry: the statement still gets its answer.
      reply({ id: request.id, ok: false, error: describe(error) });
    }
  } catch (error) {
    reply({ id: request.id, ok: false, error: describe(error) });
  }
}

/**
 * The requests not yet run, run one at a time (a prepared statement is several protocol messages, which
 * nothing may come between). A transaction's statements go first: the main thread runs one transaction
 * at a time and every other statement waits while it is open, so a statement of it queued behind reads
 * would hold them all up. Statements from outside run in the order they came, never while one is open.
 * @param {PGlite} database
 */
function queue(database) {
  /** @type {ThreadRequest[]} */
  const inside = [];
  /** @type {ThreadRequest[]} */
  const outside = [];
  let open = false;
  let running = false;
  const next = () => inside.shift() ?? (open ? undefined : outside.shift());
  async function drain() {
    running = true;
    for (let request = next(); request; request = next()) {
      if (request.kind !== 'close' && request.begin) open = true;
      await answer(database, request);
      if (request.kind !== 'close' && request.ends) open = false;
    }
    running = false;
  }
  return (/** @type {ThreadRequest} */ request) => {
    (request.kind !== 'close' && request.inTransaction ? inside : outside).push(request);
    if (!running) void drain();
  };
}

try {
  const database = await PGlite.create({ dataDir, loadDataDir, startParams });
  port.on('message', queue(database));
  reply({ id: 0, ok: true, result: 'ready' });
} catch (error) {
  reply({ id: 0, ok: false, error: describe(error) });
}
