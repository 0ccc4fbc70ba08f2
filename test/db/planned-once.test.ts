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

  it('are planned once, not again at each execution with its values', async () => {
    const database = await openTestDatabase(kind);
    try {
      await database.db.transaction(async (tx) => {
        const statement = (id: string) => plannedOnce(sql`select b_id_farm from farm_access where b_id_farm = ${id} and user_id = ${id}`);
        for (let run = 0; run < 12; run++) await queryRows(tx, statement(`farm ${run}`));
        const [plans] = await queryRows<{ generic: number; custom: number }>(
          tx,
          sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
              where statement like '/* planned once */ select b_id_farm from farm_access%'`,
        );
        expect(plans).toEqual({ generic: 12, custom: 0 });
      });
    } finally {
      await database.close();
    }
  });
});
