// The organic-matter balance of farms: their inputs read once for all of them, then each farm's answer as its
// farm endpoint gives it (calculations/farms.ts).
import type { Database } from '../../db/client.js';
import type { Timeframe } from '../dates.js';
import { eachFarm, type Keep } from '../farms.js';
import { fieldResult } from '../field-result.js';
import { farmOrganicMatterBalance, type FarmOrganicMatterBalance, type OrganicMatterFieldResult } from './farm.js';
import { organicMatterBalance } from './field.js';
import { readOrganicMatterFields, type OrganicMatterField } from './inputs.js';

/** A field's balance, or why it has none. */
export const organicMatterResult = (field: OrganicMatterField, timeframe: Timeframe): OrganicMatterFieldResult =>
  fieldResult(field, () => organicMatterBalance(field, timeframe));

/** A farm's answer of POST /api/farms/{b_id_farm}/calculations/organic-matter-balance. */
export type FarmOrganicMatterAnswer = FarmOrganicMatterBalance & { timeframe: Timeframe };

/** Each farm's answer (what `keep` takes of it) of POST /api/farms/{b_id_farm}/calculations/organic-matter-balance, by farm id. */
export async function farmOrganicMatterBalances<K>(
  db: Database,
  farmIds: readonly string[],
  timeframe: Timeframe,
  keep: Keep<FarmOrganicMatterAnswer, K>,
) {
  const fieldsOf = await readOrganicMatterFields(db, { b_id_farms: farmIds }, timeframe);
  return eachFarm(
    farmIds,
    (farmId) => {
      const fields = fieldsOf.get(farmId)?.() ?? [];
      return { ...farmOrganicMatterBalance(fields.map((field) => organicMatterResult(field, timeframe))), timeframe };
    },
    keep,
  );
}
