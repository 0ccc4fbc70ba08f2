// Organic certification queries.
import { eq } from 'drizzle-orm';
import { newId } from '../../core/secrets.js';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { selectPage, type PageQuery, type PageGate } from '../../db/paging.js';
import { organicCertifications } from '../../db/schema.js';
import { recordColumns } from '../../db/records.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { OrganicCertification, OrganicCertificationCreate } from './schemas.js';

const columns = recordColumns(organicCertifications);

export async function createOrganicCertification(tx: Database, farmId: string, input: OrganicCertificationCreate) {
  const rows = await tx
    .insert(organicCertifications)
    .values({ ...input, b_id_organic: newId(), b_id_farm: farmId })
    .returning(columns);
  return firstRow(rows, 'insert into organic_certifications');
}

export async function getOrganicCertification(db: Database, certificationId: string): Promise<OrganicCertification | undefined> {
  const [row] = await db.select(columns).from(organicCertifications).where(eq(organicCertifications.b_id_organic, certificationId));
  return row;
}

export function listOrganicCertifications(db: Database, farmId: string, page: PageQuery, gate?: PageGate) {
  const where = eq(organicCertifications.b_id_farm, farmId);
  return selectPage(
    db,
    organicCertifications,
    columns,
    where,
    [organicCertifications.created_at, organicCertifications.b_id_organic],
    page,
    undefined,
    gate,
  );
}

export async function deleteOrganicCertification(tx: Database, certificationId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('organic certification', precondition, () => getOrganicCertification(tx, certificationId));
  await tx.delete(organicCertifications).where(eq(organicCertifications.b_id_organic, certificationId));
}
