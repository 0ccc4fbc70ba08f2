// The change feed's functions, which every write runs, keep one generic plan a connection: planning their
// statements on each call, for arrays the planner cannot size, cost most of a write's trigger time
// (docs/performance.md). Both databases, as migrated.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { openTestDatabase, storageKinds } from '../helpers/databases.js';

describe.each(storageKinds)('the change feed functions on %s', (kind) => {
  it('run with a generic plan', async () => {
    const database = await openTestDatabase(kind);
    try {
      const rows = await queryRows<{ name: string; settings: string[] | null }>(
        database.db,
        sql`select proname as name, proconfig as settings from pg_proc
            where proname in ('record_changes', 'record_removals') order by proname`,
      );
      expect(rows).toEqual([
        { name: 'record_changes', settings: ['plan_cache_mode=force_generic_plan'] },
        { name: 'record_removals', settings: ['plan_cache_mode=force_generic_plan'] },
      ]);
    } finally {
      await database.close();
    }
  });
});
