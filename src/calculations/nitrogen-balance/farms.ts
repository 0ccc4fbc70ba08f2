// The nitrogen balance of farms: their inputs read once for all of them, then each farm's answer as its farm
// endpoint gives it (calculations/farms.ts).
import type { Database } from '../../db/client.js';
import type { Timeframe } from '../dates.js';
import { eachFarm, type Keep } from '../farms.js';
import { fieldResult } from '../field-result.js';
import { loadBalanceFields } from '../inputs.js';
import { farmBalance, type FarmBalance, type FieldResult } from './farm.js';
import { fieldBalance } from './field.js';
import type { BalanceField } from './inputs.js';

/** A field's balance, or why it has none. */
export const nitrogenResult = (field: BalanceField, timeframe: Timeframe, deposition: number): FieldResult =>
  fieldResult(field, () => fieldBalance(field, timeframe, deposition));

/** A farm's answer of POST /api/farms/{b_id_farm}/calculations/nitrogen-balance. */
export type FarmNitrogenAnswer = FarmBalance & { timeframe: Timeframe };

/** Each farm's answer (what `keep` takes of it) of POST /api/farms/{b_id_farm}/calculations/nitrogen-balance, by farm id. */
export async function farmNitrogenBalances<K>(
  db: Database,
  farmIds: readonly string[],
  timeframe: Timeframe,
  deposition: number,
  keep: Keep<FarmNitrogenAnswer, K>,
) {
  const fieldsOf = await loadBalanceFields(db, { b_id_farms: farmIds }, timeframe);
  return eachFarm(
    farmIds,
    (farmId) => {
      const fields = fieldsOf.get(farmId)?.() ?? [];
      return { ...farmBalance(fields.map((field) => nitrogenResult(field, timeframe, deposition))), timeframe };
    },
    keep,
  );
}
