// Loads what the usage norms of a year read (docs/calculations.md) for one field or all fields of some farms in
// the year, in a fixed number of statements however many fields and farms there are. Records are selected by a subquery over
// the same fields, never by a list of their ids: the statements must share one snapshot (db/paging.ts inOneSnapshot).
import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  cultivations,
  derogations,
  fertilizerApplications,
  fields,
  grazingIntentions,
  organicCertifications,
  soilAnalyses,
} from '../../db/schema.js';
import { calendarYear, dateIn, type Timeframe } from '../dates.js';
import {
  applicationsQuery,
  byFarm,
  cultivationColumns,
  fieldFilter,
  groupBy,
  overlappingCultivations,
  recordedLatestFirst,
  selectedFieldIds,
  withFertilizer,
  type FieldSelection,
} from '../inputs.js';
import type { NormsFarm, NormsField } from './inputs.js';
import type { NormYear } from './tables.js';

const soilValue = (name: 'a_p_cc' | 'a_p_al') => sql<number | null>`(${soilAnalyses.parameters} ->> ${name})::double precision`;

/** A farm's facts and its fields with their records, for the norms of a year. */
export interface NormsInputs {
  farm: NormsFarm;
  fields: NormsField[];
}

/** What a farm without fields in the year reads: no facts, since no field asks for them. */
export const NO_NORMS_INPUTS: NormsInputs = { farm: { derogationYears: [], grazingIntentions: [], organicCertifications: [] }, fields: [] };

/**
 * Each selected farm's inputs for the norms of `year`, by farm (only farms with a selected field), built when
 * asked for: a record whose stored catalogue code is gone throws then, for that farm only. `tx` is one
 * snapshot: a repeatable-read transaction.
 */
export async function readNormsInputs(tx: Database, selection: FieldSelection, year: NormYear): Promise<Map<string, () => NormsInputs>> {
  const yearFrame = calendarYear(year);
  // The norm values look back at the year before for crop history.
  const valueFrame: Timeframe = { start: dateIn(year - 1, '01-01'), end: yearFrame.end };
  const fieldRows = await tx
    .select({
      b_id: fields.b_id,
      b_id_farm: fields.b_id_farm,
      b_area: fields.b_area,
      b_start: fields.b_start,
      b_end: fields.b_end,
      b_bufferstrip: fields.b_bufferstrip,
      b_soil_region: fields.b_soil_region,
      b_in_nv_area: fields.b_in_nv_area,
      b_in_gwbg: fields.b_in_gwbg,
      b_in_natura2000: fields.b_in_natura2000,
      b_in_derogation_free_zone: fields.b_in_derogation_free_zone,
    })
    .from(fields)
    .where(fieldFilter(selection, yearFrame));
  if (fieldRows.length === 0) return new Map();
  // The farms with a selected field: at most one per farm of the selection.
  const farmIds = [...new Set(fieldRows.map((f) => f.b_id_farm))];
  const selectedIds = selectedFieldIds(tx, selection, yearFrame);
  const cultivationRows = await tx
    .select({ ...cultivationColumns, b_lu_variety: cultivations.b_lu_variety })
    .from(cultivations)
    .where(overlappingCultivations(selectedIds, valueFrame));
  const analysisRows = await tx
    .select({
      b_id: soilAnalyses.b_id,
      b_sampling_date: soilAnalyses.b_sampling_date,
      a_p_cc: soilValue('a_p_cc'),
      a_p_al: soilValue('a_p_al'),
    })
    .from(soilAnalyses)
    .where(
      and(
        inArray(soilAnalyses.b_id, selectedIds),
        or(isNull(soilAnalyses.b_sampling_date), lte(soilAnalyses.b_sampling_date, yearFrame.end)),
        or(isNotNull(soilValue('a_p_cc')), isNotNull(soilValue('a_p_al'))),
      ),
    )
    .orderBy(...recordedLatestFirst);
  const applicationRows = await applicationsQuery(tx, inArray(fertilizerApplications.b_id, selectedIds), yearFrame).orderBy(
    asc(fertilizerApplications.created_at),
    asc(fertilizerApplications.p_app_id),
  );
  const derogationRows = await tx
    .select({ b_id_farm: derogations.b_id_farm, year: derogations.b_derogation_year })
    .from(derogations)
    .where(and(inArray(derogations.b_id_farm, farmIds), eq(derogations.b_derogation_year, year)));
  const grazingRows = await tx
    .select({
      b_id_farm: grazingIntentions.b_id_farm,
      year: grazingIntentions.b_grazing_intention_year,
      b_grazing_intention: grazingIntentions.b_grazing_intention,
    })
    .from(grazingIntentions)
    .where(and(inArray(grazingIntentions.b_id_farm, farmIds), eq(grazingIntentions.b_grazing_intention_year, year)));
  const may15 = dateIn(year, '05-15');
  const certificationRows = await tx
    .select({
      b_id_farm: organicCertifications.b_id_farm,
      b_organic_issued: organicCertifications.b_organic_issued,
      b_organic_expires: organicCertifications.b_organic_expires,
    })
    .from(organicCertifications)
    .where(
      and(
        inArray(organicCertifications.b_id_farm, farmIds),
        lte(organicCertifications.b_organic_issued, may15),
        gte(organicCertifications.b_organic_expires, may15),
      ),
    );
  const cultivationsOf = groupBy(cultivationRows, (c) => c.b_id);
  const analysesOf = groupBy(analysisRows, (a) => a.b_id);
  const applicationsOf = groupBy(applicationRows, (a) => a.b_id);
  const derogationsOf = groupBy(derogationRows, (d) => d.b_id_farm);
  const grazingOf = groupBy(grazingRows, (g) => g.b_id_farm);
  const certificationsOf = groupBy(certificationRows, (c) => c.b_id_farm);
  // Each field a literal, never `{ ...row, more }` (see calculations/inputs.ts withFertilizer).
  const fieldsOf = byFarm(fieldRows, (row) => ({
    b_id: row.b_id,
    b_area: row.b_area,
    b_start: row.b_start,
    b_end: row.b_end,
    b_bufferstrip: row.b_bufferstrip,
    b_soil_region: row.b_soil_region,
    b_in_nv_area: row.b_in_nv_area,
    b_in_gwbg: row.b_in_gwbg,
    b_in_natura2000: row.b_in_natura2000,
    b_in_derogation_free_zone: row.b_in_derogation_free_zone,
    cultivations: cultivationsOf.get(row.b_id) ?? [],
    soilAnalyses: analysesOf.get(row.b_id) ?? [],
    applications: (applicationsOf.get(row.b_id) ?? []).map(withFertilizer),
  }));
  return new Map(
    [...fieldsOf].map(([farmId, fieldsOfFarm]) => [
      farmId,
      () => ({
        farm: {
          derogationYears: (derogationsOf.get(farmId) ?? []).map((d) => d.year),
          grazingIntentions: (grazingOf.get(farmId) ?? []).map(({ year, b_grazing_intention }) => ({ year, b_grazing_intention })),
          organicCertifications: (certificationsOf.get(farmId) ?? []).map(({ b_organic_issued, b_organic_expires }) => ({
            b_organic_issued,
            b_organic_expires,
          })),
        },
        fields: fieldsOfFarm(),
      }),
    ]),
  );
}

/** The inputs of the farm of the one field a `{ b_id }` selection read; no fields when it read none. */
export const theFieldsFarm = (inputs: Map<string, () => NormsInputs>): NormsInputs => [...inputs.values()][0]?.() ?? NO_NORMS_INPUTS;
