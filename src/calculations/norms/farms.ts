// The usage norms of farms: their inputs read once for all of them in one snapshot, then each farm's answer as
// its farm endpoint gives it (calculations/farms.ts).
import type { Database } from '../../db/client.js';
import { inOneSnapshot } from '../../db/paging.js';
import { eachFarm } from '../farms.js';
import { farmNorms } from './farm.js';
import { fieldNorms } from './field.js';
import { NO_NORMS_INPUTS, readNormsInputs } from './load-inputs.js';
import { fieldNormsResponse } from './response.js';
import type { NormYear } from './tables.js';

/** Each farm's answer of POST /api/farms/{b_id_farm}/calculations/norms, by farm id. */
export async function farmNormsAnswers(db: Database, farmIds: readonly string[], year: NormYear) {
  const inputsOf = await inOneSnapshot(db, (tx) => readNormsInputs(tx, { b_id_farms: farmIds }, year));
  return eachFarm(farmIds, (farmId) => {
    const { farm, fields } = inputsOf.get(farmId)?.() ?? NO_NORMS_INPUTS;
    const results = fields.map((field) => fieldNorms(field, farm, year)).sort((a, b) => b.b_area - a.b_area);
    return { year, ...farmNorms(results, year), fields: results.map(fieldNormsResponse) };
  });
}
