// Bulk farms, written as createFarm (src/resources/farms/store.ts) writes them: a farm, and an owner row in
// farm_access whose farm_created_at equals the farm's created_at.
import { sql } from 'drizzle-orm';
import { newId } from '../src/core/secrets.js';
import type { DatabaseHandle } from '../src/db/client.js';

export async function insertFarms(database: DatabaseHandle, userId: string, count: number): Promise<void> {
  const ids = JSON.stringify(Array.from({ length: count }, newId));
  // One microsecond apart, so that the list order (farm_created_at, b_id_farm) is the creation order.
  await database.db.execute(sql`
    with created as (
      insert into farms (b_id_farm, b_name_farm, b_businessid_farm, b_address_farm, b_postalcode_farm, created_at)
      select id, 'Bench Farm', '12345678', 'Dorpsstraat 1, Wageningen', '6708 PB', now() - (${count} - n) * interval '1 microsecond'
      from json_array_elements_text(${ids}::json) with ordinality as ids(id, n)
      returning b_id_farm, created_at
    )
    insert into farm_access (b_id_farm, user_id, role, farm_created_at)
    select b_id_farm, ${userId}, 'owner', created_at from created`);
}

/** Fresh planner statistics, as autovacuum (PostgreSQL) or Akker's own start (PGlite) would give them. */
export async function analyze(database: DatabaseHandle): Promise<void> {
  await database.db.execute(sql`analyze`);
}
