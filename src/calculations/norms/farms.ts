// The usage norms of farms: their inputs read once for all of them in one snapshot, then each farm's answer as
// its farm endpoint gives it (calculations/farms.ts).
import type { Database } from '../../db/client.js';
import { inOneSnapshot } from '../../db/paging.js';
import { eachFarm, type Keep } from '../farms.js';
import { farmNorms, type FarmNorms } from './farm.js';
import { fieldNorms } from './field.js';
import { NO_NORMS_INPUTS, readNormsInputs } from './load-inputs.js';
import { fieldNormsResponse, type FieldNormsResponse } from './response.js';
import type { NormYear } from './tables.js';

/** A farm's answer of POST /api/farms/{b_id_farm}/calculations/norms. */
export type FarmNormsAnswer = { year: NormYear } & FarmNorms & { fields: FieldNormsResponse[] };

/** Each farm's answer (what `keep` takes of it) of POST /api/farms/{b_id_farm}/calculations/norms, by farm id. */
export async function farmNormsAnswers<K>(db: Database, farmIds: readonly string[], year: NormYear, keep: Keep<FarmNormsAnswer, K>) {
  const inputsOf = await inOneSnapshot(db, (tx) => readNormsInputs(tx, { b_id_farms: farmIds }, year));
  return eachFarm(
    farmIds,
    (farmId) => {
      const { farm, fields } = inputsOf.get(farmId)?.() ?? NO_NORMS_INPUTS;
      const results = fields.map((field) => fieldNorms(field, farm, year)).sort((a, b) => b.b_area - a.b_area);
      return { year, ...farmNorms(results, year), fields: results.map(fieldNormsResponse) };
    },
    keep,
  );
}
