// Harvest queries and the harvest rules of docs/calculations.md, checked against the stored cultivation.
import { and, eq, ne } from 'drizzle-orm';
import { storedCrop, type CropEntry } from '../../catalogues/crops.js';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { countRows, selectPage, type PageGate } from '../../db/paging.js';
import { dateWithin } from '../../db/periods.js';
import { cultivations, harvests } from '../../db/schema.js';
import { recordColumns } from '../../db/records.js';
import { newId } from '../../core/secrets.js';
import type { DateRange } from '../../db/periods.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import { convertHarvest, harvestInputNames, type HarvestInputs } from './conversion.js';
import type { Harvest, HarvestCreate, HarvestUpdate } from './schemas.js';

const columns = recordColumns(harvests);

/** What the harvest rules need of a cultivation. */
type CultivationState = Pick<typeof cultivations.$inferSelect, 'b_lu' | 'b_lu_catalogue' | 'b_lu_start' | 'b_lu_end'>;

/** The cultivation a harvest belongs to, with what its rules need. */
export async function readCultivation(tx: Database, cultivationId: string): Promise<CultivationState> {
  const [row] = await tx
    .select({
      b_lu: cultivations.b_lu,
      b_lu_catalogue: cultivations.b_lu_catalogue,
      b_lu_start: cultivations.b_lu_start,
      b_lu_end: cultivations.b_lu_end,
    })
    .from(cultivations)
    .where(eq(cultivations.b_lu, cultivationId));
  if (!row) throw notFound('The cultivation does not exist.');
  return row;
}

/** Checks a harvest on `date` against the rules of its crop; `otherHarvests` excludes the harvest being changed. */
function checkHarvestRules(crop: CropEntry, cultivation: CultivationState, date: string, otherHarvests: number): void {
  if (crop.b_lu_harvestable === 'none') {
    throw new DomainError('unprocessable-entity', `${crop.b_lu_name} (${crop.b_lu_catalogue}) is not a crop that is harvested.`);
  }
  if (date < cultivation.b_lu_start) {
    throw new DomainError('conflict', `The harvest date ${date} is before the cultivation started (${cultivation.b_lu_start}).`);
  }
  if (crop.b_lu_harvestable === 'once') {
    if (otherHarvests > 0)
      throw new DomainError('conflict', `${crop.b_lu_name} is harvested once and this cultivation has its harvest already.`);
    if (cultivation.b_lu_end !== null && date !== cultivation.b_lu_end) {
      throw new DomainError(
        'conflict',
        `${crop.b_lu_name} is harvested once, on the cultivation's end date ${cultivation.b_lu_end}; the harvest date ${date} differs.`,
      );
    }
  } else if (cultivation.b_lu_end !== null && date > cultivation.b_lu_end) {
    throw new DomainError('conflict', `The harvest date ${date} is after the cultivation ended (${cultivation.b_lu_end}).`);
  }
}

function derive(crop: CropEntry, inputs: HarvestInputs) {
  const converted = convertHarvest(crop.b_lu_harvestcat, inputs);
  if (!converted.ok) {
    throw new DomainError(
      'unprocessable-entity',
      `Missing required parameter for ${converted.category} (${crop.b_lu_name}): ${converted.missing.join(', ')}.`,
    );
  }
  return { b_lu_yield: converted.b_lu_yield, b_lu_n_harvestable: converted.b_lu_n_harvestable };
}

const measurementsOf = (inputs: HarvestInputs) =>
  Object.fromEntries(harvestInputNames.filter((n) => n !== 'b_lu_yield' && n !== 'b_lu_n_harvestable').map((n) => [n, inputs[n] ?? null]));

const countHarvests = (tx: Database, cultivationId: string, except?: string): Promise<number> =>
  countRows(tx, harvests, and(eq(harvests.b_lu, cultivationId), except ? ne(harvests.b_id_harvesting, except) : undefined));

/** Adds a harvest to a locked cultivation; a once-harvested crop then ends on the harvest date. */
export async function addHarvest(tx: Database, cultivation: CultivationState, input: HarvestCreate): Promise<Harvest> {
  const crop = storedCrop(cultivation.b_lu_catalogue);
  const { b_lu_harvest_date: date, ...inputs } = input;
  checkHarvestRules(crop, cultivation, date, await countHarvests(tx, cultivation.b_lu));
  const inserted = await tx
    .insert(harvests)
    .values({
      b_id_harvesting: newId(),
      b_lu: cultivation.b_lu,
      b_lu_harvest_date: date,
      ...measurementsOf(inputs),
      ...derive(crop, inputs),
    })
    .returning(columns);
  // Only a real change of the end: an update would move the cultivation's updated_at (and its ETag).
  if (crop.b_lu_harvestable === 'once' && cultivation.b_lu_end !== date)
    await tx.update(cultivations).set({ b_lu_end: date }).where(eq(cultivations.b_lu, cultivation.b_lu));
  return firstRow(inserted, 'insert into harvests');
}

export async function getHarvest(db: Database, harvestId: string): Promise<Harvest | undefined> {
  const [harvest] = await db.select(columns).from(harvests).where(eq(harvests.b_id_harvesting, harvestId));
  return harvest;
}

export function listHarvests(db: Database, cultivationId: string, page: PageQuery & DateRange, gate?: PageGate) {
  const where = and(eq(harvests.b_lu, cultivationId), dateWithin(harvests.b_lu_harvest_date, page));
  return selectPage(db, harvests, columns, where, [harvests.created_at, harvests.b_id_harvesting], page, undefined, gate);
}

export async function updateHarvest(
  tx: Database,
  harvestId: string,
  changes: HarvestUpdate,
  precondition?: Precondition,
): Promise<Harvest> {
  const stored = await getHarvest(tx, harvestId);
  if (!stored) throw notFound('The harvest does not exist.');
  await assertUnchanged('harvest', precondition, async () => stored);
  const cultivation = await readCultivation(tx, stored.b_lu);
  const crop = storedCrop(cultivation.b_lu_catalogue);
  const { b_lu_harvest_date: newDate, ...changedInputs } = changes;
  const date = newDate ?? stored.b_lu_harvest_date;
  // A once-harvested crop ends on its harvest: moving the harvest moves the end with it.
  const state = crop.b_lu_harvestable === 'once' ? { ...cultivation, b_lu_end: null } : cultivation;
  checkHarvestRules(crop, state, date, await countHarvests(tx, stored.b_lu, harvestId));
  const inputs: HarvestInputs = { ...Object.fromEntries(harvestInputNames.map((n) => [n, stored[n]])), ...changedInputs };
  const updated = await tx
    .update(harvests)
    .set({ b_lu_harvest_date: date, ...measurementsOf(inputs), ...derive(crop, inputs) })
    .where(eq(harvests.b_id_harvesting, harvestId))
    .returning(columns);
  if (crop.b_lu_harvestable === 'once' && cultivation.b_lu_end !== date)
    await tx.update(cultivations).set({ b_lu_end: date }).where(eq(cultivations.b_lu, stored.b_lu));
  return firstRow(updated, 'update of harvests');
}

export async function deleteHarvest(tx: Database, harvestId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('harvest', precondition, () => getHarvest(tx, harvestId));
  await tx.delete(harvests).where(eq(harvests.b_id_harvesting, harvestId));
}
