// Soil analysis queries. Sampling columns are columns; the measured parameters are one jsonb document.
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { selectPage, type PageGate } from '../../db/paging.js';
import { dateWithin } from '../../db/periods.js';
import { soilAnalyses } from '../../db/schema.js';
import { recordColumns, type SelectedRow } from '../../db/records.js';
import { fieldIdsOfFarm } from '../fields/store.js';
import { newId } from '../../core/secrets.js';
import type { DateRange } from '../../db/periods.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { SoilAnalysisCreate, SoilAnalysisUpdate } from './schemas.js';

const SAMPLING = ['a_date', 'a_source', 'a_depth_upper', 'a_depth_lower', 'b_sampling_date'] as const;

const columns = recordColumns(soilAnalyses);
type Row = SelectedRow<typeof columns>;

/** The analysis as the API returns it: parameters beside the sampling columns, its times last. */
const flatten = ({ parameters, created_at, updated_at, ...sampling }: Row) => ({ ...sampling, ...parameters, created_at, updated_at });

function split(input: Record<string, unknown>) {
  const sampling: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if ((SAMPLING as readonly string[]).includes(name)) sampling[name] = value;
    else parameters[name] = value;
  }
  return { sampling, parameters };
}

const withoutNulls = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)) as Record<string, number | string>;

export async function createSoilAnalysis(tx: Database, fieldId: string, input: SoilAnalysisCreate) {
  const { sampling, parameters } = split(input);
  const rows = await tx
    .insert(soilAnalyses)
    .values({
      ...(sampling as { a_source: string; a_depth_upper: number }),
      a_id: newId(),
      b_id: fieldId,
      parameters: withoutNulls(parameters),
    })
    .returning(columns);
  return flatten(firstRow(rows, 'insert into soil_analyses'));
}

export async function getSoilAnalysis(db: Database, analysisId: string) {
  const [row] = await db.select(columns).from(soilAnalyses).where(eq(soilAnalyses.a_id, analysisId));
  return row && flatten(row);
}

/** One page of the analyses of the fields `onFields` selects (a condition on soil_analyses.b_id). */
async function listSoilAnalysesOn(db: Database, onFields: SQL, page: PageQuery & DateRange, gate?: PageGate) {
  const where = and(onFields, dateWithin(soilAnalyses.b_sampling_date, page));
  const { data, total } = await selectPage(
    db,
    soilAnalyses,
    columns,
    where,
    [soilAnalyses.created_at, soilAnalyses.a_id],
    page,
    undefined,
    gate,
  );
  return { data: data.map(flatten), total };
}

export const listSoilAnalyses = (db: Database, fieldId: string, page: PageQuery & DateRange, gate?: PageGate) =>
  listSoilAnalysesOn(db, eq(soilAnalyses.b_id, fieldId), page, gate);

/** The analyses of every field of the farm, in one list. */
export const listFarmSoilAnalyses = (db: Database, farmId: string, page: PageQuery & DateRange, gate?: PageGate) =>
  listSoilAnalysesOn(db, inArray(soilAnalyses.b_id, fieldIdsOfFarm(db, farmId)), page, gate);

export async function updateSoilAnalysis(tx: Database, analysisId: string, changes: SoilAnalysisUpdate, precondition?: Precondition) {
  const [stored] = await tx.select(columns).from(soilAnalyses).where(eq(soilAnalyses.a_id, analysisId));
  if (!stored) throw notFound('The soil analysis does not exist.');
  await assertUnchanged('soil analysis', precondition, async () => flatten(stored));
  const { sampling, parameters } = split(changes);
  const upper = (sampling.a_depth_upper as number | undefined) ?? stored.a_depth_upper;
  const lower = sampling.a_depth_lower === undefined ? stored.a_depth_lower : (sampling.a_depth_lower as number | null);
  if (lower !== null && lower <= upper) {
    throw new DomainError(
      'conflict',
      `a_depth_lower (${lower} cm) must be below a_depth_upper (${upper} cm); one of them is stored already.`,
    );
  }
  const rows = await tx
    .update(soilAnalyses)
    .set({ ...sampling, parameters: withoutNulls({ ...stored.parameters, ...parameters }) })
    .where(eq(soilAnalyses.a_id, analysisId))
    .returning(columns);
  return flatten(firstRow(rows, 'update of soil_analyses'));
}

export async function deleteSoilAnalysis(tx: Database, analysisId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('soil analysis', precondition, () => getSoilAnalysis(tx, analysisId));
  // 1–2. the soil sampling record and the analysis (one row here)
  await tx.delete(soilAnalyses).where(eq(soilAnalyses.a_id, analysisId));
}
