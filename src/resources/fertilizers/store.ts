// Fertilizers a farm has acquired from the catalogues.
import { count, eq } from 'drizzle-orm';
import { findFertilizer } from '../../catalogues/fertilizers.js';
import type { Database } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { selectPage } from '../../db/paging.js';
import { farmFertilizers, fertilizerApplications } from '../../db/schema.js';
import { recordTimes } from '../../db/timestamps.js';
import { newId } from '../../core/secrets.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError } from '../../core/domain-errors.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import { documentedFields, type FarmFertilizerCreate } from './schemas.js';

const columns = {
  p_id: farmFertilizers.p_id,
  b_id_farm: farmFertilizers.b_id_farm,
  p_id_catalogue: farmFertilizers.p_id_catalogue,
  ...recordTimes(farmFertilizers),
};
type Row = { p_id: string; b_id_farm: string; p_id_catalogue: string; created_at: string; updated_at: string };

const withCatalogue = (row: Row) => ({ ...documentedFields(findFertilizer(row.p_id_catalogue)!), ...row });

export async function acquireFertilizer(tx: Database, farmId: string, input: FarmFertilizerCreate) {
  const product = findFertilizer(input.p_id_catalogue);
  if (!product || (input.p_source !== undefined && input.p_source !== product.p_source)) {
    throw new DomainError(
      'unprocessable-entity',
      `p_id_catalogue ${input.p_id_catalogue} is not in the ${input.p_source ?? 'SRM or BAAT'} fertilizer catalogue.`,
    );
  }
  const [row] = await tx
    .insert(farmFertilizers)
    .values({ p_id: newId(), b_id_farm: farmId, p_source: product.p_source, p_id_catalogue: product.p_id_catalogue })
    .returning(columns);
  return withCatalogue(row!);
}

export async function getFarmFertilizer(db: Database, fertilizerId: string) {
  const [row] = await db.select(columns).from(farmFertilizers).where(eq(farmFertilizers.p_id, fertilizerId));
  return row && withCatalogue(row);
}

export async function listFarmFertilizers(db: Database, farmId: string, page: PageQuery) {
  const { data, total } = await selectPage<Row>(
    db,
    farmFertilizers,
    columns,
    eq(farmFertilizers.b_id_farm, farmId),
    [farmFertilizers.created_at, farmFertilizers.p_id],
    page,
  );
  return { data: data.map(withCatalogue), total };
}

/** A fertilizer that applications still use cannot go (409): the applications would lose their product. */
export async function deleteFarmFertilizer(tx: Database, fertilizerId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('fertilizer', precondition, () => getFarmFertilizer(tx, fertilizerId));
  const [used] = await tx.select({ n: count() }).from(fertilizerApplications).where(eq(fertilizerApplications.p_id, fertilizerId));
  const inUse = () => new DomainError('conflict', `The fertilizer is used by fertilizer applications (${used!.n}); delete those first.`);
  if (used!.n > 0) throw inUse();
  try {
    await tx.delete(farmFertilizers).where(eq(farmFertilizers.p_id, fertilizerId));
  } catch (error) {
    // An application was added by another request in the meantime.
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}
