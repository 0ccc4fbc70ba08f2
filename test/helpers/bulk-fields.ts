// A farm of many fields for the tests of work per page: one field stored through the API (made calculable), the
// others copies of it inserted in one statement, which is quicker by far than thousands of requests.
import { sql } from 'drizzle-orm';
import { createFarm, type TestApp } from './app.js';
import { createField, makeCalculable } from './fixtures.js';

/** A new farm of `key`'s user named `name`, with `count` fields on clay; its identifier. */
export async function farmOfFields(t: TestApp, key: string, name: string, count: number): Promise<string> {
  const farm = (await createFarm(t.app, key, { b_name_farm: name })).b_id_farm;
  const field = (await createField(t.app, key, farm, { b_soil_region: 'klei' })).b_id;
  await makeCalculable(t.app, key, field);
  await t.database.db.execute(sql`
    insert into fields (b_id, b_id_farm, b_name, b_geometry, b_area, b_centroid, b_start, b_end, b_acquiring_method, b_bufferstrip, b_soil_region)
    select b_id || '-' || n, b_id_farm, b_name || ' ' || n, b_geometry, b_area, b_centroid, b_start, b_end, b_acquiring_method, b_bufferstrip, b_soil_region
    from fields, generate_series(1, ${count - 1}) as n where b_id = ${field}`);
  return farm;
}
