// Issue figures for the field data model: creating a field with a 10,000-coordinate geometry, and listing
// 200 fields of a farm with 100 and with 5,000 fields (the list must not grow with the farm).
import { sql } from 'drizzle-orm';
import { describeTimes, percentile, send, startInProcess, time } from './in-process.js';

/** A closed ring of `positions` positions around (5.0, 52.0). */
function circle(positions: number): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i < positions - 1; i++) {
    const angle = (2 * Math.PI * i) / (positions - 1);
    ring.push([5 + 0.01 * Math.cos(angle), 52 + 0.006 * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return ring;
}

const bench = await startInProcess();

/** `count` fields in one statement, in creation order; only the listing is measured. */
async function seedFields(farmId: string, count: number) {
  const geometry = JSON.stringify({ type: 'Polygon', coordinates: [circle(5)] });
  await bench.database.db.execute(sql`
    insert into fields (b_id, b_id_farm, b_name, b_geometry, b_area, b_centroid, b_start, b_acquiring_method, b_bufferstrip, created_at)
    select md5(${farmId} || i), ${farmId}, 'Field ' || i, ${geometry}::jsonb, 2.5, '[5, 52]'::jsonb, date '2020-01-01', 'nl_01', false,
           now() + i * interval '1 millisecond'
    from generate_series(1, ${count}) as i`);
  // What the server's periodic ANALYZE would have done by now (src/db/client.ts).
  await bench.database.db.execute(sql`analyze`);
}

try {
  const farm = (await send(bench, 'POST', '/api/farms', { b_name_farm: 'Bench' })).b_id_farm as string;
  const geometry = { type: 'Polygon', coordinates: [circle(10_000)] };
  const creates = await time(
    () => send(bench, 'POST', `/api/farms/${farm}/fields`, { b_name: 'Large', b_geometry: geometry, b_start: '2020-01-01' }),
    30,
  );
  console.log(`create a field with a 10,000-coordinate geometry: ${describeTimes(creates)}`);

  const lists: Record<number, number[]> = {};
  for (const count of [100, 200, 5000]) {
    const target = (await send(bench, 'POST', '/api/farms', { b_name_farm: `Farm of ${count}` })).b_id_farm as string;
    await seedFields(target, count);
    lists[count] = await time(() => send(bench, 'GET', `/api/farms/${target}/fields?limit=200`), 50);
    console.log(`list 200 fields of a farm with ${count} fields: ${describeTimes(lists[count]!)}`);
  }
  // A farm of 100 fields fills half a page; 200 fills it, so 5,000 against 200 is the growth with the farm alone.
  for (const base of [100, 200])
    console.log(`p50 ratio, 5,000 / ${base} fields: ${(percentile(lists[5000]!, 50) / percentile(lists[base]!, 50)).toFixed(2)}`);
} finally {
  await bench.close();
}
