// The embedded database on its own thread behaves as PGlite in this thread would: statements in the
// order they were sent, transactions that nothing from outside can slip into, errors with their
// SQLSTATE, parsers applied, and a thread that neither outlives its work nor lets a waiting script exit.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PgliteThread } from '../../src/db/pglite-thread.js';
import { pgliteTemplate } from '../helpers/databases.js';
import { compiledUrl } from '../helpers/process-build.js';

const TIMESTAMPTZ = 1184;
let thread: PgliteThread;

beforeAll(async () => {
  thread = await PgliteThread.start({ loadDataDir: pgliteTemplate() });
  await thread.exec('create table counters (name text primary key, value int not null)');
});
afterAll(() => thread.close());

const settledSoon = async (promise: Promise<unknown>) => {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  return settled;
};

describe('embedded database thread', () => {
  it('runs statements sent without waiting in the order they were sent', async () => {
    const insert = thread.query(`insert into counters values ('order', 1)`);
    const update = thread.query(`update counters set value = value + 1 where name = 'order'`);
    const read = thread.query<{ value: number }>(`select value from counters where name = 'order'`);
    await Promise.all([insert, update]);
    expect((await read).rows).toEqual([{ value: 2 }]);
  });

  it('keeps statements from outside out of an open transaction, and rolls it back when its work throws', async () => {
    let outside: Promise<{ rows: Array<{ count: number }> }> | undefined;
    let outsideSettledDuring: boolean | undefined;
    const transaction = thread.transaction(async (tx) => {
      await tx.query(`insert into counters values ('uncommitted', 1)`);
      outside = thread.query<{ count: number }>(`select count(*)::int as count from counters where name = 'uncommitted'`);
      outsideSettledDuring = await settledSoon(outside);
      throw new Error('changed my mind');
    });
    await expect(transaction).rejects.toThrow('changed my mind');
    expect(outsideSettledDuring).toBe(false);
    expect((await outside!).rows).toEqual([{ count: 0 }]);
  });

  it('runs transactions one at a time, each seeing what the one before committed', async () => {
    await thread.query(`insert into counters values ('serial', 0)`);
    const increment = () =>
      thread.transaction(async (tx) => {
        const { rows } = await tx.query<{ value: number }>(`select value from counters where name = 'serial'`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        await tx.query(`update counters set value = $1 where name = 'serial'`, [rows[0]!.value + 1]);
      });
    await Promise.all([increment(), increment(), increment()]);
    expect((await thread.query(`select value from counters where name = 'serial'`)).rows).toEqual([{ value: 3 }]);
  });

  it('rejects a failed statement with its SQLSTATE and message, and goes on serving', async () => {
    await thread.query(`insert into counters values ('unique', 1)`);
    const failure = await thread.query(`insert into counters values ('unique', 2)`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', message: expect.stringContaining('duplicate key') });
    expect((await thread.query(`select 1 as one`)).rows).toEqual([{ one: 1 }]);
  });

  it('applies the parsers it is given on this side, in object and in array rows; other types as PGlite parses them', async () => {
    const text = `select timestamptz '2026-01-02 03:04:05+00' as at, null::timestamptz as never, 7 as n`;
    const parsers = { [TIMESTAMPTZ]: (value: string) => `parsed ${value}` };
    const objects = await thread.query(text, [], { parsers });
    expect(objects.rows).toEqual([{ at: 'parsed 2026-01-02 03:04:05+00', never: null, n: 7 }]);
    const arrays = await thread.query(text, [], { parsers, rowMode: 'array' });
    expect(arrays.rows).toEqual([['parsed 2026-01-02 03:04:05+00', null, 7]]);
    const plain = await thread.query<{ at: Date }>(text);
    expect(plain.rows[0]!.at).toEqual(new Date('2026-01-02T03:04:05Z'));
  });

  it('refuses query options that cannot cross to its thread', async () => {
    await expect(thread.query('select 1', [], { onNotice: () => {} })).rejects.toThrow(/onNotice/);
  });

  it('fails to start, with the reason, on a dump that is not a database', async () => {
    await expect(PgliteThread.start({ loadDataDir: new Blob(['not a database']) })).rejects.toThrow(
      /^The embedded database could not be opened: PGlite failed/,
    );
  });

  it('answers the statements sent before it closes, and refuses later ones at once', async () => {
    const closed = await PgliteThread.start({ loadDataDir: pgliteTemplate() });
    const inFlight = closed.query<{ answer: number }>('select pg_sleep(0.2), 42 as answer');
    await closed.close();
    expect((await inFlight).rows[0]!.answer).toBe(42);
    await expect(closed.query('select 1')).rejects.toThrow('The embedded database is closed.');
  });

  it('keeps a script alive while a statement is out, and lets it exit once idle without closing', () => {
    // Top-level await on a statement: were the thread not holding the process, Node would exit with 13.
    const script = [
      `import { readFileSync } from 'node:fs';`,
      `import { PgliteThread } from '${compiledUrl('src/db/pglite-thread.ts')}';`,
      // The migrated template: a new database would first cost initdb (seconds of CPU).
      `const thread = await PgliteThread.start({ loadDataDir: new Blob([readFileSync(process.env.TEMPLATE)]) });`,
      `await new Promise((resolve) => setTimeout(resolve, 50));`,
      `const { rows } = await thread.query('select pg_sleep(0.3), 42 as answer');`,
      `console.log('answer', rows[0].answer);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, TEMPLATE: inject('pgliteTemplate') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('answer 42\n');
    expect(child.status).toBe(0);
  });

  it('runs a statement marked planned-once as a prepared statement: the same rows, values of every kind, errors with their SQLSTATE', async () => {
    const { isPlannedOnce } = await import('../../src/db/planned-once.js');
    const mark = '/* planned once */';
    expect(isPlannedOnce(mark)).toBe(true);
    const text = `${mark} select $1::text as name, $2::int as value, $3::boolean as flag, $4::timestamptz as at, $5::jsonb as doc`;
    const at = new Date('2026-01-02T03:04:05.678Z');
    for (let round = 0; round < 3; round++) {
      const { rows } = await thread.query(text, [`n${round}`, round, round === 1, at, JSON.stringify({ round })]);
      expect(rows).toEqual([{ name: `n${round}`, value: round, flag: round === 1, at, doc: { round } }]);
    }
    const statements = await thread.query<{ statement: string }>(`select statement from pg_prepared_statements`);
    expect(statements.rows.map(({ statement }) => statement)).toContain(text);
    const nulls = await thread.query(text, [null, null, null, null, null]);
    expect(nulls.rows).toEqual([{ name: null, value: null, flag: null, at: null, doc: null }]);
    const asText = await thread.query<{ at: string }>(`${mark} select $1::timestamptz as at`, [at], {
      parsers: { [TIMESTAMPTZ]: (v) => `text:${v}` },
    });
    expect(asText.rows[0]!.at).toMatch(/^text:2026-01-02/);
    const insert = `${mark} insert into counters values ($1, $2)`;
    await thread.query(insert, ['prepared', 1]);
    await expect(thread.query(insert, ['prepared', 2])).rejects.toMatchObject({ code: '23505' });
    await expect(thread.query(`${mark} select $1::int as value`, ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    // A failed prepared statement leaves the session usable, inside a transaction as outside.
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(insert, ['in transaction', 1]);
        await tx.query(insert, ['in transaction', 2]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await thread.query<{ value: number }>(`${mark} select value from counters where name = $1`, ['in transaction']);
    expect(rows).toEqual([]);
    expect((await thread.query<{ value: number }>(`${mark} select value from counters where name = $1`, ['prepared'])).rows).toEqual([
      { value: 1 },
    ]);
  });
});
