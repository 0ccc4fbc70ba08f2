// A prebuilt statement runs inside a transaction as the same text each time, its values in their
// places, and is planned once there like on the pool.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, statementRows } from '../../src/db/client.js';
import { Statement } from '../../src/db/statement.js';
import { openTestDatabase, storageKinds } from '../helpers/databases.js';

const echo = new Statement<{ id: string; farms: string[]; fixed: number }, { id: string; farms: string[] }>(
  'test_echo',
  sql`select ${sql.placeholder('id')}::text as id, ${sql.placeholder('farms')}::text[] as farms, ${7}::int as fixed`,
);

describe.each(storageKinds)('prebuilt statements in a transaction (%s)', (kind) => {
  it('answer with the values given, and are one prepared statement however often they run', async () => {
    const database = await openTestDatabase(kind);
    try {
      await database.db.transaction(async (tx) => {
        for (const id of ['a', "b'; drop table farms; --", 'c']) {
          expect(await statementRows(tx, echo, { id, farms: [id, 'x'] })).toEqual([{ id, farms: [id, 'x'], fixed: 7 }]);
        }
        const prepared = await queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`);
        expect(prepared.filter(({ statement }) => statement === echo.text)).toHaveLength(1);
      });
    } finally {
      await database.close();
    }
  });
});

it('refuses a query whose text holds a parameter mark of its own', () => {
  expect(() => new Statement('test_mark', sql`select '$1' as text, ${1} as n`)).toThrow(/parameters/);
});
