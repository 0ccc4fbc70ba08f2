// The farms of the portfolio benches: one farm of `fields` fields stored through the API as a client would (each
// field with a soil region, 2 cultivations, 4 fertilizer applications and 1 soil analysis, as in bench:norms,
// the analysis carrying what the balances read too), then copied in SQL into as many farms as asked: through
// the API, 100 farms would take some 16,000 requests. Every copy has the template's records under new ids.
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { newId } from '../src/core/secrets.js';
import type { DatabaseHandle } from '../src/db/client.js';
import {
  cultivations,
  farmAccess,
  farmFertilizers,
  farms,
  fertilizerApplications,
  fields,
  grazingIntentions,
  harvests,
  soilAnalyses,
} from '../src/db/schema.js';
import { normsFarm, seedBenchFarm } from './bench-farm.js';
import type { BenchApp } from './in-process.js';

/** The template farm's identifier, once every record is stored through the API. */
const seedTemplateFarm = (bench: BenchApp, fieldCount: number): Promise<string> =>
  seedBenchFarm(
    bench,
    normsFarm('Portfolio bench 0', fieldCount, {
      b_sampling_date: '2025-02-15',
      b_soiltype_agr: 'zeeklei',
      b_gwl_class: 'VI',
      a_som_loi: 3.5,
      a_n_rt: 1800,
      a_p_cc: 2.1,
      a_p_al: 38,
    }),
  );

// The identifiers a copy gets anew: the template's with the copy's number appended.
const IDENTIFIERS = new Set(['b_id_farm', 'b_id', 'b_lu', 'b_id_harvesting', 'a_id', 'p_id', 'p_app_id']);

/** Copies the rows of `table` that `ofTemplate` selects `copies` times, each copy's identifiers suffixed `-n`. */
async function copyRows(database: DatabaseHandle, table: PgTable, ofTemplate: ReturnType<typeof sql>, copies: number) {
  const name = getTableName(table);
  const columns = Object.values(getTableColumns(table)).map((column) => column.name);
  const values = columns.map((column) => {
    if (IDENTIFIERS.has(column)) return sql.raw(`"${column}" || '-' || n`);
    if (column === 'b_name_farm') return sql.raw(`'Portfolio bench ' || n`);
    return sql.raw(`"${column}"`);
  });
  await database.db.execute(sql`
    insert into ${sql.identifier(name)} (${sql.raw(columns.map((c) => `"${c}"`).join(', '))})
    select ${sql.join(values, sql`, `)} from ${sql.identifier(name)}, generate_series(1, ${copies}) as n
    where ${ofTemplate}`);
}

/** `farmCount` farms of `fieldCount` fields each, the first stored through the API; their ids in list order. */
export async function seedPortfolioFarms(bench: BenchApp, farmCount: number, fieldCount: number): Promise<string[]> {
  const started = performance.now();
  const template = await seedTemplateFarm(bench, fieldCount);
  const copies = farmCount - 1;
  const ofFarm = sql`b_id_farm = ${template}`;
  const ofFields = sql`b_id in (select b_id from fields where b_id_farm = ${template})`;
  if (copies > 0) {
    await copyRows(bench.database, farms, ofFarm, copies);
    await copyRows(bench.database, farmAccess, ofFarm, copies);
    await copyRows(bench.database, grazingIntentions, ofFarm, copies);
    await copyRows(bench.database, farmFertilizers, ofFarm, copies);
    await copyRows(bench.database, fields, ofFarm, copies);
    await copyRows(bench.database, cultivations, ofFields, copies);
    await copyRows(bench.database, harvests, sql`b_lu in (select b_lu from cultivations where ${ofFields})`, copies);
    await copyRows(bench.database, soilAnalyses, ofFields, copies);
    await copyRows(bench.database, fertilizerApplications, ofFields, copies);
  }
  await bench.database.db.execute(sql`analyze`);
  console.log(
    `stored ${farmCount} farms of ${fieldCount} fields (the first through the API) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return [template, ...Array.from({ length: copies }, (_, i) => `${template}-${i + 1}`)];
}

/** The farms, and an organisation of the bench's user that every farm is shared with (as advisor). */
export async function seedPortfolio(bench: BenchApp, farmCount: number, fieldCount: number) {
  const farmIds = await seedPortfolioFarms(bench, farmCount, fieldCount);
  const organisation = newId();
  await bench.database.db.execute(sql`insert into organisations (organisation_id, name) values (${organisation}, 'Bench advisers')`);
  await bench.database.db.execute(sql`
    insert into organisation_members (organisation_id, user_id, role)
    select ${organisation}, user_id, 'owner' from users where email = 'bench@example.org'`);
  await bench.database.db.execute(sql`
    insert into organisation_farm_access (b_id_farm, organisation_id, role, farm_created_at)
    select b_id_farm, ${organisation}, 'advisor', created_at from farms`);
  return { organisation, farmIds };
}
