// Statements PostgreSQL plans once per connection. drizzle sends every statement unnamed, so the server
// parses and plans it anew each time; for the access check that is ten times the cost of running it
// (docs/performance.md). A statement wrapped in `plannedOnce` carries a marker comment, and the pool's
// clients send a statement with the marker under a name made from its text: the server keeps its plan.
// The embedded database's thread does the same with PGlite (pglite-thread-worker.js).
// Only statements whose text takes a fixed set of shapes may be marked (their values are parameters):
// each shape is one prepared statement on each connection, for the connection's life.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';

const MARK = '/* planned once */';

/**
 * `query`, sent under a name of its own: by the pool's clients on PostgreSQL, by the thread on PGlite. A
 * part of a statement may carry the mark (a column of a query drizzle's builder makes): it marks the whole.
 */
export const plannedOnce = (query: SQL): SQL => sql`${sql.raw(MARK)} ${query}`;

/**
 * The setting that makes "planned once" true of every session Akker opens: a named statement is planned at
 * each execution when its plan with the values in looks cheaper than the generic one (PostgreSQL's default
 * after five executions), which for Akker's short look-ups by key it nearly always does, so the access
 * check was planned at every bind (0.5 ms of a PostgreSQL server, more in WebAssembly). Its plans go by
 * indexes whatever the values, so one generic plan serves them all.
 */
export const GENERIC_PLANS = { name: 'plan_cache_mode', value: 'force_generic_plan' } as const;

/** Whether a statement's text carries the mark of `plannedOnce`. */
export const isPlannedOnce = (text: string): boolean => text.includes(MARK);

/** How many names a connection takes at most: a guard against a marked statement of unbounded shapes. */
const NAMES_PER_CONNECTION = 200;

type QueryConfig = { text?: unknown; name?: string };

/** A node-postgres client that sends marked statements under their names. */
export class PlanningClient extends pg.Client {
  readonly #names = new Map<string, string>();

  override query(...args: unknown[]): never {
    const [config] = args;
    if (typeof config === 'object' && config !== null) {
      const { text, name } = config as QueryConfig;
      if (name === undefined && typeof text === 'string' && isPlannedOnce(text)) {
        const named = this.#nameOf(text);
        if (named !== undefined) args[0] = { ...config, name: named };
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  #nameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined || this.#names.size >= NAMES_PER_CONNECTION) return known;
    const name = `planned_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.#names.set(text, name);
    return name;
  }
}
