// Fertilizers a farm has acquired from the catalogues.
import { eq } from 'drizzle-orm';
import { findFertilizer, storedFertilizer } from '../../catalogues/fertilizers.js';
import type { Database } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { firstRow } from '../../db/first-row.js';
import { countRows, selectPage, type PageGate } from '../../db/paging.js';
import { farmFertilizers, fertilizerApplications } from '../../db/schema.js';
import { recordColumns, type SelectedRow } from '../../db/records.js';
import { newId } from '../../core/secrets.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError } from '../../core/domain-errors.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import { documentedFields, type FarmFertilizerCreate } from './schemas.js';

// p_source comes with the catalogue's fields.
const columns = recordColumns(farmFertilizers, 'p_source');

const withCatalogue = (row: SelectedRow<typeof columns>) => ({ ...documentedFields(storedFertilizer(row.p_id_catalogue)), ...row });

export async function acquireFertilizer(tx: Database, farmId: string, input: FarmFertilizerCreate) {
  const product = findFertilizer(input.p_id_catalogue);
  if (!product || (input.p_source !== undefined && input.p_source !== product.p_source)) {
    throw new DomainError(
      'unprocessable-entity',
      `p_id_catalogue ${input.p_id_catalogue} is not in the ${input.p_source ?? 'SRM or BAAT'} fertilizer catalogue.`,
    );
  }
  const rows = await tx
    .insert(farmFertilizers)
    .values({ p_id: newId(), b_id_farm: farmId, p_source: product.p_source, p_id_catalogue: product.p_id_catalogue })
    .returning(columns);
  return withCatalogue(firstRow(rows, 'insert into farm_fertilizers'));
}

export async function getFarmFertilizer(db: Database, fertilizerId: string) {
  const [row] = await db.select(columns).from(farmFertilizers).where(eq(farmFertilizers.p_id, fertilizerId));
  return row && withCatalogue(row);
}

export async function listFarmFertilizers(db: Database, farmId: string, page: PageQuery, gate?: PageGate) {
  const where = eq(farmFertilizers.b_id_farm, farmId);
  const { data, total } = await selectPage(
    db,
    farmFertilizers,
    columns,
    where,
    [farmFertilizers.created_at, farmFertilizers.p_id],
    page,
    undefined,
    gate,
  );
  return { data: data.map(withCatalogue), total };
}

/** A fertilizer that applications still use cannot go (409): the applications would lose their product. */
export async function deleteFarmFertilizer(tx: Database, fertilizerId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('fertilizer', precondition, () => getFarmFertilizer(tx, fertilizerId));
  const used = await countRows(tx, fertilizerApplications, eq(fertilizerApplications.p_id, fertilizerId));
  const inUse = () => new DomainError('conflict', `The fertilizer is used by fertilizer applications (${used}); delete those first.`);
  if (used > 0) throw inUse();
  try {
    await tx.delete(farmFertilizers).where(eq(farmFertilizers.p_id, fertilizerId));
  } catch (error) {
    // An application was added by another request in the meantime.
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}
