// Cultivation queries: catalogue check, date rules against stored harvests, the automatic harvest.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { findCrop, storedCrop, type CropEntry } from '../../catalogues/crops.js';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { selectPage, type PageGate } from '../../db/paging.js';
import { periodOverlaps } from '../../db/periods.js';
import { cultivations, harvests } from '../../db/schema.js';
import { fieldIdsOfFarm } from '../fields/store.js';
import { recordColumns, type SelectedRow } from '../../db/records.js';
import { newId } from '../../core/secrets.js';
import type { DateRange } from '../../db/periods.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError } from '../../core/domain-errors.js';
import { deleteCultivations } from '../cascade.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import { defaultHarvestInputs } from '../harvests/conversion.js';
import { addHarvest, readCultivation } from '../harvests/store.js';
import type { Cultivation, CultivationCreate, CultivationUpdate } from './schemas.js';

const columns = recordColumns(cultivations);
type CultivationRecord = SelectedRow<typeof columns>;

function knownCrop(code: string): CropEntry {
  const crop = findCrop(code);
  if (!crop)
    throw new DomainError(
      'unprocessable-entity',
      `b_lu_catalogue ${code} is not in the crop catalogue (GET /api/catalogues/cultivations).`,
    );
  return crop;
}

/** The record with its crop's catalogue columns, as the API returns it. */
export const withCatalogue = (record: CultivationRecord): Cultivation => ({ ...storedCrop(record.b_lu_catalogue), ...record });

export async function createCultivation(tx: Database, fieldId: string, input: CultivationCreate) {
  const crop = knownCrop(input.b_lu_catalogue);
  const record = firstRow(
    await tx
      .insert(cultivations)
      .values({ ...input, b_lu: newId(), b_id: fieldId })
      .returning(columns),
    'insert into cultivations',
  );
  if (crop.b_lu_harvestable === 'once' && record.b_lu_end !== null) {
    await addHarvest(tx, record, { b_lu_harvest_date: record.b_lu_end, ...defaultHarvestInputs(crop) });
  }
  return withCatalogue(record);
}

export async function getCultivation(db: Database, cultivationId: string) {
  const [record] = await db.select(columns).from(cultivations).where(eq(cultivations.b_lu, cultivationId));
  return record && withCatalogue(record);
}

/** One page of the cultivations on the fields `onFields` selects (a condition on cultivations.b_id). */
async function listCultivationsOn(db: Database, onFields: SQL, page: PageQuery & DateRange, gate?: PageGate) {
  const where = and(onFields, periodOverlaps(cultivations.b_lu_start, cultivations.b_lu_end, page));
  const { data, total } = await selectPage(
    db,
    cultivations,
    columns,
    where,
    [cultivations.created_at, cultivations.b_lu],
    page,
    undefined,
    gate,
  );
  return { data: data.map(withCatalogue), total };
}

export const listCultivations = (db: Database, fieldId: string, page: PageQuery & DateRange, gate?: PageGate) =>
  listCultivationsOn(db, eq(cultivations.b_id, fieldId), page, gate);

/** The cultivations of every field of the farm, in one list. */
export const listFarmCultivations = (db: Database, farmId: string, page: PageQuery & DateRange, gate?: PageGate) =>
  listCultivationsOn(db, inArray(cultivations.b_id, fieldIdsOfFarm(db, farmId)), page, gate);

/** The harvests a cultivation has must still fit its crop and its period (409 otherwise). */
function checkAgainstHarvests(crop: CropEntry, start: string, end: string | null, harvestDates: string[]): void {
  if (harvestDates.length === 0) return;
  const conflict = (detail: string) => new DomainError('conflict', `The cultivation has ${harvestDates.length} harvest(s): ${detail}`);
  if (crop.b_lu_harvestable === 'none') throw conflict(`${crop.b_lu_name} (${crop.b_lu_catalogue}) is not a crop that is harvested.`);
  if (crop.b_lu_harvestable === 'once' && harvestDates.length > 1) throw conflict(`${crop.b_lu_name} is harvested once.`);
  const early = harvestDates.find((date) => date < start);
  if (early) throw conflict(`one on ${early}, before the start ${start}.`);
  if (crop.b_lu_harvestable === 'once') {
    // A crop harvested once ends on its harvest date.
    if (end !== harvestDates[0])
      throw conflict(`${crop.b_lu_name} is harvested once and ends on its harvest date ${harvestDates[0]}, not ${end ?? 'never'}.`);
  } else {
    const late = end === null ? undefined : harvestDates.find((date) => date > end);
    if (late) throw conflict(`one on ${late}, after the end ${end}.`);
  }
}

/**
 * New dates must agree with what is stored: the end not before the start, and the
 * cultivation's harvests inside its period (409 otherwise). A crop harvested once that
 * gets an end date and has no harvest yet gets its harvest on that date, as on creation.
 */
export async function updateCultivation(tx: Database, cultivationId: string, changes: CultivationUpdate, precondition?: Precondition) {
  await assertUnchanged('cultivation', precondition, () => getCultivation(tx, cultivationId));
  const stored = await readCultivation(tx, cultivationId);
  const crop = knownCrop(changes.b_lu_catalogue ?? stored.b_lu_catalogue);
  const start = changes.b_lu_start ?? stored.b_lu_start;
  const end = changes.b_lu_end === undefined ? stored.b_lu_end : changes.b_lu_end;
  if (end !== null && end < start) throw new DomainError('conflict', `b_lu_end (${end}) would be before b_lu_start (${start}).`);

  const harvestDates = (await tx.select({ date: harvests.b_lu_harvest_date }).from(harvests).where(eq(harvests.b_lu, cultivationId))).map(
    (h) => h.date,
  );
  checkAgainstHarvests(crop, start, end, harvestDates);

  const record = firstRow(
    Object.keys(changes).length
      ? await tx.update(cultivations).set(changes).where(eq(cultivations.b_lu, cultivationId)).returning(columns)
      : await tx.select(columns).from(cultivations).where(eq(cultivations.b_lu, cultivationId)),
    'update of cultivations',
  );
  if (crop.b_lu_harvestable === 'once' && end !== null && harvestDates.length === 0) {
    await addHarvest(tx, record, { b_lu_harvest_date: end, ...defaultHarvestInputs(crop) });
  }
  return withCatalogue(record);
}

export async function deleteCultivation(tx: Database, cultivationId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('cultivation', precondition, () => getCultivation(tx, cultivationId));
  await deleteCultivations(tx, sql`select ${cultivationId}::text`);
}
