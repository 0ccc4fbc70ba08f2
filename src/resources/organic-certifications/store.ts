// Organic certification queries.
import { eq } from 'drizzle-orm';
import { newId } from '../../core/secrets.js';
import type { Database } from '../../db/client.js';
import { selectPage, type PageQuery } from '../../db/paging.js';
import { organicCertifications } from '../../db/schema.js';
import { recordTimes } from '../../db/timestamps.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { OrganicCertification, OrganicCertificationCreate } from './schemas.js';

const columns = {
  b_id_organic: organicCertifications.b_id_organic,
  b_id_farm: organicCertifications.b_id_farm,
  b_organic_traces: organicCertifications.b_organic_traces,
  b_organic_skal: organicCertifications.b_organic_skal,
  b_organic_issued: organicCertifications.b_organic_issued,
  b_organic_expires: organicCertifications.b_organic_expires,
  ...recordTimes(organicCertifications),
};

export async function createOrganicCertification(tx: Database, farmId: string, input: OrganicCertificationCreate) {
  const [row] = await tx
    .insert(organicCertifications)
    .values({ ...input, b_id_organic: newId(), b_id_farm: farmId })
    .returning(columns);
  return row!;
}

export async function getOrganicCertification(db: Database, certificationId: string): Promise<OrganicCertification | undefined> {
  const [row] = await db.select(columns).from(organicCertifications).where(eq(organicCertifications.b_id_organic, certificationId));
  return row;
}

export function listOrganicCertifications(db: Database, farmId: string, page: PageQuery) {
  return selectPage<OrganicCertification>(
    db,
    organicCertifications,
    columns,
    eq(organicCertifications.b_id_farm, farmId),
    [organicCertifications.created_at, organicCertifications.b_id_organic],
    page,
  );
}

export async function deleteOrganicCertification(tx: Database, certificationId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('organic certification', precondition, () => getOrganicCertification(tx, certificationId));
  await tx.delete(organicCertifications).where(eq(organicCertifications.b_id_organic, certificationId));
}
