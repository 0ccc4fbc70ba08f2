// The embedded database on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: a
// statement runs as synchronous WASM, 100–300 µs for a farm read, during which a PGlite on the main
// thread would hold up every other request. On its own thread the statement runs while the main
// thread parses, checks and answers other requests, so the two cores share the work.
//
// Protocol: the main thread posts requests, each with an id; the worker runs them one at a time, in
// the order they arrived, and answers each with its id on the same port, so answers arrive in the
// order the statements ran. Statements are pipelined (posted without waiting for the one before); a
// transaction is BEGIN … COMMIT posted by the main thread, and while one is open, statements from
// outside it wait here, as they would inside PGlite itself. BEGIN goes with the transaction's first
// statement (`begin`: the thread runs BEGIN, then the statement only if BEGIN succeeded): every other
// statement waits while a transaction is open, so each of its round trips through the main thread's
// event loop counts, and this saves one.
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, RowMode } from '@electric-sql/pglite';
import { isPlannedOnce } from './planned-once.js';

export interface PgliteThreadOptions {
  /** The folder of the data; in memory when absent. */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start a new database from. */
  loadDataDir?: Blob;
}

export type ThreadRequest = { id: number } & (
  | {
      kind: 'query';
      text: string;
      params: unknown[];
      rowMode: RowMode;
      textTypes: number[];
      paramTypes?: number[];
      begin: boolean;
      /** Marked by db/planned-once.ts: run as a prepared statement, planned once. */
      plannedOnce: boolean;
    }
  | { kind: 'exec'; text: string; begin: boolean }
  | { kind: 'close' }
);

export type ThreadReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { message: string; fields: Record<string, unknown> } };

/** What drizzle and Akker use of a PGlite client: a PGlite itself, or a PgliteThread. */
export interface EmbeddedClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  transaction<T>(work: (tx: Pick<EmbeddedClient, 'query' | 'exec'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const READY = 0;

// Plain JavaScript (see its header), run with none of the main thread's flags: it needs no loader
// (`--import tsx`), and a thread given a file refuses some of them (`--input-type`).
const WORKER_SCRIPT = new URL('./pglite-thread-worker.js', import.meta.url);

const failure = (error: { message: string; fields: Record<string, unknown> }) => Object.assign(new Error(error.message), error.fields);

/** Applies parsers the main thread was given (functions cannot cross threads) to the text the worker left. */
function parseColumns<T>(result: Results<T>, parsers: NonNullable<QueryOptions['parsers']>, rowMode: RowMode): Results<T> {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    const key = rowMode === 'array' ? index : field.name;
    for (const row of result.rows as Array<Record<string | number, unknown>>) {
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = parse(value as string);
    }
  });
  return result;
}

export class PgliteThread implements EmbeddedClient {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = READY + 1;
  #stopped: Error | null = null;
  #closing = false;
  /** Settles once every transaction begun so far has ended. */
  #transactions: Promise<void> = Promise.resolve();
  /** The transaction in progress, if any: statements from outside it wait for it to end. */
  #openTransaction: Promise<void> | null = null;
  /** The statement posted last: the thread runs them in order, so all have settled once it has. */
  #lastPosted: Promise<unknown> = Promise.resolve();

  private constructor(options: PgliteThreadOptions) {
    this.#worker = new Worker(WORKER_SCRIPT, { workerData: options, execArgv: [] });
    this.#worker.on('message', (reply: ThreadReply) => this.#settle(reply));
    this.#worker.on('error', (error) => this.#stop(new Error(`The embedded database failed: ${error.message}`, { cause: error })));
    this.#worker.on('exit', (code) => {
      if (!this.#closing) this.#stop(new Error(`The embedded database's thread ended unexpectedly (exit code ${code}).`));
    });
  }

  /** Starts the thread and opens the database in it. */
  static async start(options: PgliteThreadOptions = {}): Promise<PgliteThread> {
    const thread = new PgliteThread(options);
    const opened = new Promise((resolve, reject) => thread.#waiting.set(READY, { resolve, reject }));
    try {
      await opened;
    } catch (error) {
      await thread.#worker.terminate();
      throw new Error(`The embedded database could not be opened: ${(error as Error).message}`, { cause: error });
    }
    thread.#worker.unref();
    return thread;
  }

  query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.#outsideTransactions(() => this.#query<T>(text, params, options));
  }

  exec(text: string): Promise<Results[]> {
    return this.#outsideTransactions(() => this.#exec(text));
  }

  /** Sends a statement from outside any transaction: at once, or once the open transaction (and any begun after it) has ended. */
  #outsideTransactions<R>(send: () => Promise<R>): Promise<R> {
    return this.#openTransaction ? this.#openTransaction.then(() => this.#outsideTransactions(send)) : send();
  }

  /** BEGIN, `work`, then COMMIT, or ROLLBACK when `work` throws. Transactions run one at a time. */
  async transaction<T>(work: (tx: Pick<EmbeddedClient, 'query' | 'exec'>) => Promise<T>): Promise<T> {
    const before = this.#transactions;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.#transactions = before.then(() => ended);
    await before;
    this.#openTransaction = ended;
    try {
      let begun = false;
      /** Whether the statement about to be sent is the transaction's first, which begins it. */
      const first = () => !begun && (begun = true);
      let result: T;
      try {
        result = await work({
          query: (text, params, options) => this.#query(text, params, options, first()),
          exec: (text) => this.#exec(text, first()),
        });
      } catch (error) {
        if (begun) await this.#exec('ROLLBACK').catch(() => {});
        throw error;
      }
      if (begun) await this.#exec('COMMIT');
      return result;
    } finally {
      this.#openTransaction = null;
      end();
    }
  }

  /** Waits for the statements and transactions begun so far, closes the database (flushing it to disk) and ends the thread. */
  async close(): Promise<void> {
    await this.#transactions;
    await this.#lastPosted.catch(() => {});
    if (this.#stopped) return;
    try {
      await this.#send({ kind: 'close' });
    } finally {
      this.#closing = true;
      this.#stop(new Error('The embedded database is closed.'));
      await this.#worker.terminate();
    }
  }

  #query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}, begin = false): Promise<Results<T>> {
    const { rowMode = 'object', parsers, paramTypes, serializers, blob, onNotice } = options;
    if (serializers || blob || onNotice) {
      return Promise.reject(new Error('The embedded database thread takes no serializers, blob or onNotice in a query.'));
    }
    const textTypes = parsers ? Object.keys(parsers).map(Number) : [];
    const plannedOnce = isPlannedOnce(text);
    const sent = this.#send({ kind: 'query', text, params, rowMode, textTypes, paramTypes, begin, plannedOnce }) as Promise<Results<T>>;
    return parsers ? sent.then((result) => parseColumns(result, parsers, rowMode)) : sent;
  }

  #exec(text: string, begin = false): Promise<Results[]> {
    return this.#send({ kind: 'exec', text, begin }) as Promise<Results[]>;
  }

  #send(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const message = { ...request, id: this.#nextId++ } as ThreadRequest;
    this.#lastPosted = new Promise((resolve, reject) => {
      // While statements are out, the thread keeps the process alive (a script awaiting one must not exit).
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(message.id, { resolve, reject });
      this.#worker.postMessage(message);
    });
    return this.#lastPosted;
  }

  #settle(reply: ThreadReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(failure(reply.error));
  }

  /** The thread is gone: every statement still out, and every later one, fails with `error`. */
  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(this.#stopped);
    this.#waiting.clear();
  }
}

type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
