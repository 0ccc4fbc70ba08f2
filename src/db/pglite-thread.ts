// The embedded database on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: a
// statement runs as synchronous WASM, 100–300 µs for a farm read, during which a PGlite on the main
// thread would hold up every other request. On its own thread the statement runs while the main
// thread parses, checks and answers other requests, so the two cores share the work.
//
// Protocol: the main thread posts requests, each with an id, on one port; the worker runs them one at a
// time and answers each with its id on the same port, so answers arrive in the order the statements ran.
// Statements are pipelined (posted without waiting for the one before). A transaction is BEGIN … COMMIT
// posted by the main thread, one at a time; its statements are marked, and the worker runs them ahead of
// the statements from outside, which wait while it is open (in PGlite they would run inside it). Every
// other statement waits while a transaction is open, so each of its round trips through the main thread
// counts: BEGIN goes with the transaction's first statement (`begin`: the thread runs BEGIN, then the
// statement only if BEGIN succeeded), and the main thread waits for a transaction's answers itself, for a
// moment (TRANSACTION_WAIT_MS), woken through shared memory, rather than a turn of its busy event loop
// later (docs/performance.md has the figures); the answers are taken off the port in order, so none
// overtakes an earlier one. A statement that takes longer is awaited in the event
// loop like any other: a long cascade delete must not stop /health.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { QueryOptions, Results, RowMode } from '@electric-sql/pglite';
import { GENERIC_PLANS, isPlannedOnce } from './planned-once.js';

export interface PgliteThreadOptions {
  /** The folder of the data; in memory when absent. */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start a new database from. */
  loadDataDir?: Blob;
}

/** What the worker is started with: the options, the port of its requests and answers, and the count of answers. */
export interface WorkerData extends PgliteThreadOptions {
  port: MessagePort;
  /** Int32Array over a SharedArrayBuffer: [0] counts the answers posted. */
  answered: Int32Array;
  /** The session's settings, as `name=value`. */
  settings: string[];
}

/** Where a statement stands in a transaction: inside one, its first (with BEGIN), its last (COMMIT or ROLLBACK). */
interface TransactionMarks {
  inTransaction: boolean;
  begin: boolean;
  ends: boolean;
}

export type ThreadRequest = { id: number } & (
  | ({
      kind: 'query';
      text: string;
      params: unknown[];
      rowMode: RowMode;
      textTypes: number[];
      paramTypes?: number[];
      /** Marked by db/planned-once.ts: run as a prepared statement, planned once. */
      plannedOnce: boolean;
    } & TransactionMarks)
  | ({ kind: 'exec'; text: string } & TransactionMarks)
  | { kind: 'close' }
);

const OUTSIDE: TransactionMarks = { inTransaction: false, begin: false, ends: false };

/** How long the main thread waits, blocked, for an answer in a transaction before it awaits it in the event loop. */
const TRANSACTION_WAIT_MS = 2;

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
  readonly #port: MessagePort;
  readonly #answered = new Int32Array(new SharedArrayBuffer(4));
  readonly #waiting = new Map<number, Waiting>();
  #nextId = READY + 1;
  #stopped: Error | null = null;
  #closing = false;
  /** Settles once every transaction begun so far has ended. */
  #transactions: Promise<void> = Promise.resolve();
  /** The statement posted last: the thread runs them in order, so all have settled once it has. */
  #lastPosted: Promise<unknown> = Promise.resolve();

  private constructor(options: PgliteThreadOptions) {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const workerData: WorkerData = {
      ...options,
      port: port2,
      answered: this.#answered,
      settings: [`${GENERIC_PLANS.name}=${GENERIC_PLANS.value}`],
    };
    this.#worker = new Worker(WORKER_SCRIPT, { workerData, transferList: [port2], execArgv: [] });
    this.#port.on('message', (reply: ThreadReply) => this.#settle(reply));
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
    thread.#port.unref();
    return thread;
  }

  query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.#query<T>(text, params, options, OUTSIDE);
  }

  exec(text: string): Promise<Results[]> {
    return this.#exec(text, OUTSIDE);
  }

  /** BEGIN, `work`, then COMMIT, or ROLLBACK when `work` throws. Transactions run one at a time. */
  async transaction<T>(work: (tx: Pick<EmbeddedClient, 'query' | 'exec'>) => Promise<T>): Promise<T> {
    const before = this.#transactions;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.#transactions = before.then(() => ended);
    await before;
    try {
      let begun = false;
      /** The marks of the statement about to be sent: the first begins the transaction. */
      const marks = (ends = false): TransactionMarks => ({ inTransaction: true, begin: !begun && (begun = true), ends });
      let result: T;
      try {
        result = await work({
          query: (text, params = [], options = {}) => this.#waitBriefly(this.#query(text, params, options, marks())),
          exec: (text) => this.#waitBriefly(this.#exec(text, marks())),
        });
      } catch (error) {
        if (begun) await this.#waitBriefly(this.#exec('ROLLBACK', marks(true))).catch(() => {});
        throw error;
      }
      if (begun) await this.#waitBriefly(this.#exec('COMMIT', marks(true)));
      return result;
    } finally {
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
      this.#port.close();
      await this.#worker.terminate();
    }
  }

  #query<T>(text: string, params: unknown[], options: QueryOptions, marks: TransactionMarks): Promise<Results<T>> {
    const { rowMode = 'object', parsers, paramTypes, serializers, blob, onNotice } = options;
    if (serializers || blob || onNotice) {
      return Promise.reject(new Error('The embedded database thread takes no serializers, blob or onNotice in a query.'));
    }
    const textTypes = parsers ? Object.keys(parsers).map(Number) : [];
    const plannedOnce = isPlannedOnce(text);
    const sent = this.#send({ kind: 'query', text, params, rowMode, textTypes, paramTypes, plannedOnce, ...marks }) as Promise<Results<T>>;
    return parsers ? sent.then((result) => parseColumns(result, parsers, rowMode)) : sent;
  }

  #exec(text: string, marks: TransactionMarks): Promise<Results[]> {
    return this.#send({ kind: 'exec', text, ...marks }) as Promise<Results[]>;
  }

  #send(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const message = { ...request, id: this.#nextId++ } as ThreadRequest;
    this.#lastPosted = new Promise((resolve, reject) => {
      // While statements are out, the port keeps the process alive (a script awaiting one must not exit).
      if (this.#waiting.size === 0) this.#port.ref();
      this.#waiting.set(message.id, { resolve, reject });
      this.#port.postMessage(message);
    });
    return this.#lastPosted;
  }

  /**
   * The statement of a transaction just sent, waited for on this thread for up to TRANSACTION_WAIT_MS:
   * the answers that arrive meanwhile (its own and any before it) are settled in order, here rather than
   * in a later turn of the event loop. Returns `sent`; when its answer is late, it settles in the event loop.
   */
  #waitBriefly<R>(sent: Promise<R>): Promise<R> {
    const id = this.#nextId - 1;
    const deadline = performance.now() + TRANSACTION_WAIT_MS;
    for (;;) {
      const seen = Atomics.load(this.#answered, 0);
      for (let answer = receiveMessageOnPort(this.#port); answer; answer = receiveMessageOnPort(this.#port)) {
        this.#settle(answer.message as ThreadReply);
      }
      const left = deadline - performance.now();
      if (!this.#waiting.has(id) || left <= 0) return sent;
      Atomics.wait(this.#answered, 0, seen, left);
    }
  }

  #settle(reply: ThreadReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#port.unref();
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
