// Fields of 10,000 positions (some 380 KB of JSON each) written straight into the store, faster than
// through the API, for the tests of pages bounded by size.
import type { Database } from '../../src/db/client.js';
import { createField } from '../../src/resources/fields/store.js';
import { circle } from './fixtures.js';

/** `count` such fields on the farm, side by side; their ids in the order made. */
export async function storeLargeFields(db: Database, farmId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const field = await createField(db, farmId, {
      b_name: `Groot ${i}`,
      b_geometry: circle(10_000, 5 + i * 0.03),
      b_start: '2020-01-01',
      b_id_source: null,
      b_acquiring_method: 'owner',
      b_soil_region: null,
      b_in_nv_area: false,
      b_in_gwbg: false,
      b_in_natura2000: false,
      b_in_derogation_free_zone: false,
    });
    ids.push(field.b_id);
  }
  return ids;
}
