// Field queries. Area, centroid and (when not given) the buffer-strip guess are derived here, on every write.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { pageWithTotal, selectPage, type PageGate } from '../../db/paging.js';
import { periodOverlaps } from '../../db/periods.js';
import { fields, type FieldGeometry } from '../../db/schema.js';
import { recordColumns } from '../../db/records.js';
import { newId } from '../../core/secrets.js';
import type { DateRange } from '../../db/periods.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { deleteFields } from '../cascade.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import { areaInHectares, centroid, looksLikeBufferStrip } from './geometry.js';
import type { FieldWithGeometry } from './feature-collection.js';
import { featureBytes, featuresThatFit, INLINE_GEOMETRY_BYTES } from './page-bytes.js';
import type { FieldCreate, FieldUpdate } from './schemas.js';
import { simplifyGeometry, type GeometryVariant } from './simplify.js';

const summaryColumns = recordColumns(fields, 'b_geometry', 'b_geometry_simplified');
const fieldColumns = { ...summaryColumns, b_geometry: fields.b_geometry };

/** What is computed from a geometry when it is written: so that no read computes it. */
const derivedFromGeometry = (geometry: FieldGeometry) => ({
  b_area: areaInHectares(geometry),
  b_centroid: centroid(geometry),
  b_geometry_simplified: simplifyGeometry(geometry),
});

/**
 * The stored geometry that answers `variant`, and whether it is the answer as it stands: a simplified
 * outline is stored with every write, and only a row stored before that column existed (until
 * outline-backfill.ts reaches it) is simplified as it is read.
 */
function storedGeometry(variant: Exclude<GeometryVariant, 'none'>) {
  return variant === 'full'
    ? { geometry: fields.b_geometry, asStored: sql<boolean>`true` }
    : {
        geometry: sql<FieldGeometry>`coalesce(${fields.b_geometry_simplified}, ${fields.b_geometry})`.mapWith(fields.b_geometry),
        asStored: sql<boolean>`${fields.b_geometry_simplified} is not null`,
      };
}

const answered = (geometry: FieldGeometry, asStored: boolean) => (asStored ? geometry : simplifyGeometry(geometry));

export async function createField(tx: Database, farmId: string, input: FieldCreate) {
  const { b_geometry, ...rest } = input;
  const geometry = b_geometry as FieldGeometry;
  const derived = derivedFromGeometry(geometry);
  const field = await tx
    .insert(fields)
    .values({
      ...rest,
      b_id: newId(),
      b_id_farm: farmId,
      b_geometry: geometry,
      ...derived,
      b_bufferstrip: input.b_bufferstrip ?? looksLikeBufferStrip(input.b_name, geometry, derived.b_area),
    })
    .returning(fieldColumns);
  return firstRow(field, 'insert into fields');
}

/** The field with its geometry as `geometry` asks (as stored by default, as a write checks it); none is not read. */
export async function getField(db: Database, fieldId: string, geometry: GeometryVariant = 'full') {
  if (geometry === 'none') {
    const [field] = await db.select(summaryColumns).from(fields).where(eq(fields.b_id, fieldId));
    return field && { ...field, b_geometry: null };
  }
  const { geometry: column, asStored } = storedGeometry(geometry);
  const [row] = await db.select({ field: summaryColumns, geometry: column, asStored }).from(fields).where(eq(fields.b_id, fieldId));
  return row && { ...row.field, b_geometry: answered(row.geometry, row.asStored) };
}

const ofFarm = (farmId: string, range: DateRange) => and(eq(fields.b_id_farm, farmId), periodOverlaps(fields.b_start, fields.b_end, range));
const listOrder = [fields.created_at, fields.b_id];

/** The ids of the farm's fields, a subquery: a farm-wide list selects its records by it, never by a list of ids. */
export const fieldIdsOfFarm = (db: Database, farmId: string) =>
  db.select({ b_id: fields.b_id }).from(fields).where(eq(fields.b_id_farm, farmId));

export function listFields(db: Database, farmId: string, page: PageQuery & DateRange, gate?: PageGate) {
  return selectPage(db, fields, summaryColumns, ofFarm(farmId, page), listOrder, page, undefined, gate);
}

/**
 * The same page as listFields, each field with its geometry as `geometry` asks, cut short before the
 * field that would take the features past MAX_FEATURES_BYTES, each geometry counted as it is answered.
 * The sizes are read first: no geometry beyond the cut is loaded.
 */
export async function listFieldsWithGeometry(
  db: Database,
  farmId: string,
  page: PageQuery & DateRange,
  geometry: GeometryVariant,
): Promise<{ data: FieldWithGeometry[]; total: number }> {
  if (geometry === 'none') {
    const { data, total } = await listFields(db, farmId, page);
    const kept = data.slice(0, featuresThatFit(data.map((field) => featureBytes(field, 'null'.length))));
    return { data: kept.map((field) => ({ ...field, b_geometry: null })), total };
  }
  const where = ofFarm(farmId, page);
  const { geometry: column, asStored } = storedGeometry(geometry);
  return pageWithTotal(db, fields, where, async (tx) => {
    // Each geometry is turned into text once, to measure it, in a subquery that a limit keeps from being
    // merged into the query around it. One up to INLINE_GEOMETRY_BYTES comes with the sizes, in the
    // page's first query; a larger one is read once the page is cut.
    const sized = tx
      .select({ b_id: fields.b_id, bytes: sql<number>`octet_length(${column}::text)`.as('geometry_bytes') })
      .from(fields)
      .where(where)
      .orderBy(...listOrder)
      .limit(page.limit)
      .offset(page.offset)
      .as('sized');
    const rows = await tx
      .select({
        field: summaryColumns,
        geometryBytes: sql<number>`${sized.bytes}`.mapWith(Number),
        smallGeometry: sql<FieldGeometry | null>`case when ${sized.bytes} <= ${INLINE_GEOMETRY_BYTES} then ${column} end`.mapWith(
          fields.b_geometry,
        ),
        asStored,
      })
      .from(fields)
      .innerJoin(sized, eq(sized.b_id, fields.b_id))
      .orderBy(...listOrder);
    const kept = rows.slice(0, featuresThatFit(rows.map((row) => featureBytes(row.field, row.geometryBytes))));
    const large = kept.filter((row) => row.smallGeometry === null).map((row) => row.field.b_id);
    const largeGeometries =
      large.length === 0 ? [] : await tx.select({ b_id: fields.b_id, geometry: column }).from(fields).where(inArray(fields.b_id, large));
    const geometryOf = new Map(largeGeometries.map((row) => [row.b_id, row.geometry]));
    return kept.map(({ field, smallGeometry, asStored }) => {
      const stored = smallGeometry ?? geometryOf.get(field.b_id);
      if (!stored) throw new Error(`The geometry of field ${field.b_id} was not read back.`);
      return { ...field, b_geometry: answered(stored, asStored) };
    });
  });
}

/** Dates are checked against the stored ones: an end not after the start contradicts stored state (409). */
export async function updateField(tx: Database, fieldId: string, changes: FieldUpdate, precondition?: Precondition) {
  await assertUnchanged('field', precondition, () => getField(tx, fieldId));
  const [stored] = await tx.select({ b_start: fields.b_start, b_end: fields.b_end }).from(fields).where(eq(fields.b_id, fieldId));
  if (!stored) throw notFound('The field does not exist.');
  const start = changes.b_start ?? stored.b_start;
  const end = changes.b_end === undefined ? stored.b_end : changes.b_end;
  if (end !== null && end <= start) {
    throw new DomainError('conflict', `b_end (${end}) must be after b_start (${start}); one of them is stored already.`);
  }
  const { b_geometry, ...rest } = changes;
  const geometry = b_geometry as FieldGeometry | undefined;
  const values = { ...rest, ...(geometry ? { b_geometry: geometry, ...derivedFromGeometry(geometry) } : {}) };
  const field =
    Object.keys(values).length === 0
      ? await tx.select(fieldColumns).from(fields).where(eq(fields.b_id, fieldId))
      : await tx.update(fields).set(values).where(eq(fields.b_id, fieldId)).returning(fieldColumns);
  return firstRow(field, 'update of fields');
}

export async function deleteField(tx: Database, fieldId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('field', precondition, () => getField(tx, fieldId));
  await deleteFields(tx, sql`select ${fieldId}::text`);
}
