// A statement marked planned-once is prepared on the connection that runs it (a named statement the
// server plans once), on both databases, and answers as the same statement unmarked does.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { plannedOnce } from '../../src/db/planned-once.js';
import { openTestDatabase, storageKinds } from '../helpers/databases.js';

describe.each(storageKinds)('planned-once statements (%s)', (kind) => {
  it('are prepared statements of the connection, with the rows of the unmarked statement', async () => {
    const database = await openTestDatabase(kind);
    try {
      const statement = (id: string) => sql`select ${id}::text as id, length(${id}::text) as size`;
      await database.db.transaction(async (tx) => {
        for (const id of ['a', 'bb', 'ccc']) {
          expect(await queryRows(tx, plannedOnce(statement(id)))).toEqual(await queryRows(tx, statement(id)));
        }
        const prepared = await queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`);
        const marked = prepared.filter(({ statement: text }) => text.startsWith('/* planned once */'));
        expect(marked).toHaveLength(1);
      });
    } finally {
      await database.close();
    }
  });
});
