// Loads exactly the records a timeframe needs (docs/calculations.md) for one field or all fields of some farms,
// in a fixed number of statements however many fields and farms there are, inside one read-only snapshot. The
// records are selected by a subquery over the same fields, never by a list of their ids: a statement
// with one parameter per field fails beyond PostgreSQL's 65,535 parameters (a farm of 70,000 fields).
import { and, desc, eq, gte, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import { storedCrop } from '../catalogues/crops.js';
import { storedFertilizer, type FertilizerEntry } from '../catalogues/fertilizers.js';
import type { Database } from '../db/client.js';
import { periodOverlaps } from '../db/periods.js';
import { cultivations, farmFertilizers, fertilizerApplications, fields, harvests, soilAnalyses } from '../db/schema.js';
import type { Timeframe } from './dates.js';
import type { DoseApplication } from './dose/dose.js';
import type { BalanceApplication, BalanceField } from './nitrogen-balance/inputs.js';

/**
 * Which fields: one field whatever its dates, or the fields of the farms `b_id_farms` (a page of them: one
 * parameter each) that overlap the timeframe.
 */
export type FieldSelection = { b_id: string } | { b_id_farms: readonly string[] };

export const fieldFilter = (selection: FieldSelection, timeframe: Timeframe): SQL | undefined =>
  'b_id' in selection
    ? eq(fields.b_id, selection.b_id)
    : and(inArray(fields.b_id_farm, [...selection.b_id_farms]), periodOverlaps(fields.b_start, fields.b_end, timeframe));

/**
 * The selected fields by farm (only farms with a selected field), each farm's list built when asked for: a
 * record whose stored catalogue code is no longer in the catalogue throws then, for that farm only.
 */
export type FieldsByFarm<F> = Map<string, () => F[]>;

/** Each farm's rows of `fieldRows`, made into fields by `assemble` when the farm's fields are asked for. */
export function byFarm<R extends { b_id_farm: string }, F>(fieldRows: R[], assemble: (row: R) => F): FieldsByFarm<F> {
  return new Map([...groupBy(fieldRows, (f) => f.b_id_farm)].map(([farmId, rows]) => [farmId, () => rows.map(assemble)]));
}

/** The one field a `{ b_id }` selection read, or undefined when it read none. */
export const theField = <F>(farms: FieldsByFarm<F>): F | undefined => [...farms.values()][0]?.()[0];

/** The ids of the selected fields, a subquery: in the snapshot the fields were read in, it selects the same ones. */
export const selectedFieldIds = (db: Database, selection: FieldSelection, timeframe: Timeframe) =>
  db.select({ b_id: fields.b_id }).from(fields).where(fieldFilter(selection, timeframe));

/** The cultivations of the fields `fieldIds` selects that overlap the timeframe. */
export const overlappingCultivations = (fieldIds: ReturnType<typeof selectedFieldIds>, timeframe: Timeframe): SQL | undefined =>
  and(inArray(cultivations.b_id, fieldIds), periodOverlaps(cultivations.b_lu_start, cultivations.b_lu_end, timeframe));

/** The columns of a cultivation that every calculation reads. */
export const cultivationColumns = {
  b_id: cultivations.b_id,
  b_lu: cultivations.b_lu,
  b_lu_catalogue: cultivations.b_lu_catalogue,
  b_lu_start: cultivations.b_lu_start,
  b_lu_end: cultivations.b_lu_end,
};

/**
 * Soil analyses the most recently recorded first: of two sampled on the same day, the later-recorded one
 * gives the newest values (soil-values.ts newestValues).
 */
export const recordedLatestFirst = [desc(soilAnalyses.created_at), desc(soilAnalyses.a_id)];

/** `onFields`: which fields' applications, a condition on fertilizer_applications.b_id. */
export function applicationsQuery(db: Database, onFields: SQL, timeframe: Timeframe) {
  return db
    .select({
      b_id: fertilizerApplications.b_id,
      p_app_id: fertilizerApplications.p_app_id,
      p_id: fertilizerApplications.p_id,
      p_app_amount: fertilizerApplications.p_app_amount,
      p_app_method: fertilizerApplications.p_app_method,
      p_app_date: fertilizerApplications.p_app_date,
      p_id_catalogue: farmFertilizers.p_id_catalogue,
    })
    .from(fertilizerApplications)
    .innerJoin(farmFertilizers, eq(farmFertilizers.p_id, fertilizerApplications.p_id))
    .where(and(onFields, gte(fertilizerApplications.p_app_date, timeframe.start), lte(fertilizerApplications.p_app_date, timeframe.end)));
}

/**
 * The row, given its catalogue fertilizer. The row itself takes it: a copy `{ ...row, fertilizer }` gets a
 * hidden class of its own in V8 (a spread's result is outside every transition tree, so the property added
 * after it makes a new one each time), one per application, which outlives the young generation.
 */
export const withFertilizer = <T extends { p_id_catalogue: string }>(row: T): T & { fertilizer: FertilizerEntry } =>
  Object.assign(row, { fertilizer: storedFertilizer(row.p_id_catalogue) });

/** The rows of each key, in their order. */
export function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** The fields with their records for the nitrogen balance, by farm. */
export function loadBalanceFields(db: Database, selection: FieldSelection, timeframe: Timeframe): Promise<FieldsByFarm<BalanceField>> {
  return db.transaction(
    async (tx) => {
      const fieldRows = await tx
        .select({
          b_id: fields.b_id,
          b_id_farm: fields.b_id_farm,
          b_area: fields.b_area,
          b_start: fields.b_start,
          b_end: fields.b_end,
          b_bufferstrip: fields.b_bufferstrip,
        })
        .from(fields)
        .where(fieldFilter(selection, timeframe));
      if (fieldRows.length === 0) return new Map();
      const selectedIds = selectedFieldIds(tx, selection, timeframe);
      const overlapping = overlappingCultivations(selectedIds, timeframe);
      // One after the other: a transaction is one connection, which runs one statement at a time anyway
      // (node-postgres deprecates queueing several on one client).
      const cultivationRows = await tx
        .select({ ...cultivationColumns, m_cropresidue: cultivations.m_cropresidue })
        .from(cultivations)
        .where(overlapping);
      const harvestRows = await tx
        .select({
          b_id: cultivations.b_id,
          b_id_harvesting: harvests.b_id_harvesting,
          b_lu: harvests.b_lu,
          b_lu_harvest_date: harvests.b_lu_harvest_date,
          b_lu_yield: harvests.b_lu_yield,
          b_lu_n_harvestable: harvests.b_lu_n_harvestable,
        })
        .from(harvests)
        .innerJoin(cultivations, eq(cultivations.b_lu, harvests.b_lu))
        .where(and(overlapping, gte(harvests.b_lu_harvest_date, timeframe.start), lte(harvests.b_lu_harvest_date, timeframe.end)));
      const analysisRows = await tx
        .select({ b_id: soilAnalyses.b_id, b_sampling_date: soilAnalyses.b_sampling_date, parameters: soilAnalyses.parameters })
        .from(soilAnalyses)
        .where(
          and(
            inArray(soilAnalyses.b_id, selectedIds),
            or(
              isNull(soilAnalyses.b_sampling_date),
              and(gte(soilAnalyses.b_sampling_date, timeframe.start), lte(soilAnalyses.b_sampling_date, timeframe.end)),
            ),
          ),
        )
        .orderBy(...recordedLatestFirst);
      const applicationRows = await applicationsQuery(tx, inArray(fertilizerApplications.b_id, selectedIds), timeframe);
      const cultivationsOf = groupBy(cultivationRows, (c) => c.b_id);
      const harvestsOf = groupBy(harvestRows, (h) => h.b_id);
      const analysesOf = groupBy(analysisRows, (a) => a.b_id);
      const applicationsOf = groupBy(applicationRows, (a) => a.b_id);
      // Each field a literal and each record given its catalogue entry in place, never `{ ...row, more }` (see withFertilizer).
      return byFarm(fieldRows, ({ b_id, b_area, b_start, b_end, b_bufferstrip }) => ({
        b_id,
        b_area,
        b_start,
        b_end,
        b_bufferstrip,
        cultivations: (cultivationsOf.get(b_id) ?? []).map((c) => Object.assign(c, { crop: storedCrop(c.b_lu_catalogue) })),
        harvests: harvestsOf.get(b_id) ?? [],
        soilAnalyses: analysesOf.get(b_id) ?? [],
        applications: (applicationsOf.get(b_id) ?? []).map(withFertilizer) as BalanceApplication[],
      }));
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The applications of a field dated within the timeframe, for the dose. */
export async function loadDoseApplications(db: Database, fieldId: string, timeframe: Timeframe): Promise<DoseApplication[]> {
  const rows = await applicationsQuery(db, eq(fertilizerApplications.b_id, fieldId), timeframe);
  return rows.map(withFertilizer);
}
