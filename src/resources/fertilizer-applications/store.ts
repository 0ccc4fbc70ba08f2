// Fertilizer applications: the product must be one of the farm's, and its unit converts the amount.
import { and, eq } from 'drizzle-orm';
import { amountInKgPerHa, storedFertilizer, type AmountUnit } from '../../catalogues/fertilizers.js';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { selectPage, type PageGate } from '../../db/paging.js';
import { dateWithin } from '../../db/periods.js';
import { farmFertilizers, fertilizerApplications, fields } from '../../db/schema.js';
import { recordColumns, type SelectedRow } from '../../db/records.js';
import { newId } from '../../core/secrets.js';
import type { DateRange } from '../../db/periods.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { ApplicationCreate, ApplicationUpdate } from './schemas.js';

const columns = { ...recordColumns(fertilizerApplications), p_id_catalogue: farmFertilizers.p_id_catalogue };

/** The application as the API returns it: with its product's name, its times last. */
const withName = ({ created_at, updated_at, ...row }: SelectedRow<typeof columns>) => ({
  ...row,
  p_name_nl: storedFertilizer(row.p_id_catalogue).p_name_nl,
  created_at,
  updated_at,
});

/** The farm's product an application spreads, whose catalogue code gives its name. */
const product = { table: farmFertilizers, on: eq(farmFertilizers.p_id, fertilizerApplications.p_id) };

const select = (db: Database) => db.select(columns).from(fertilizerApplications).innerJoin(product.table, product.on);

/** The product of `fertilizerId` if it belongs to the farm of `fieldId`, and the amount in kg/ha. */
async function convertAmount(tx: Database, fieldId: string, fertilizerId: string, amount: number, unit: AmountUnit | undefined) {
  const [owned] = await tx
    .select({ p_id_catalogue: farmFertilizers.p_id_catalogue })
    .from(farmFertilizers)
    .innerJoin(fields, eq(fields.b_id_farm, farmFertilizers.b_id_farm))
    .where(and(eq(fields.b_id, fieldId), eq(farmFertilizers.p_id, fertilizerId)));
  if (!owned)
    throw new DomainError(
      'unprocessable-entity',
      `p_id ${fertilizerId} is not a fertilizer of this field's farm (POST /api/farms/{b_id_farm}/fertilizers first).`,
    );
  const product = storedFertilizer(owned.p_id_catalogue);
  if (unit !== undefined && unit !== product.p_app_amount_unit) {
    throw new DomainError('unprocessable-entity', `${product.p_name_nl} is applied in ${product.p_app_amount_unit}, not ${unit}.`);
  }
  const kgPerHa = amountInKgPerHa(amount, product.p_app_amount_unit, product.p_density);
  if (kgPerHa === undefined) {
    throw new DomainError(
      'unprocessable-entity',
      `${product.p_name_nl} has no density, so an amount in ${product.p_app_amount_unit} cannot be converted to kg/ha.`,
    );
  }
  return { p_app_amount: kgPerHa, p_app_amount_display: amount, p_app_amount_unit: product.p_app_amount_unit };
}

export async function createApplication(tx: Database, fieldId: string, input: ApplicationCreate) {
  const amount = await convertAmount(tx, fieldId, input.p_id, input.p_app_amount_display, input.p_app_amount_unit);
  const p_app_id = newId();
  await tx.insert(fertilizerApplications).values({
    p_app_id,
    b_id: fieldId,
    p_id: input.p_id,
    p_app_method: input.p_app_method ?? null,
    p_app_date: input.p_app_date,
    ...amount,
  });
  return withName(firstRow(await select(tx).where(eq(fertilizerApplications.p_app_id, p_app_id)), 'insert into fertilizer_applications'));
}

export async function getApplication(db: Database, applicationId: string) {
  const [row] = await select(db).where(eq(fertilizerApplications.p_app_id, applicationId));
  return row && withName(row);
}

async function readApplication(tx: Database, applicationId: string) {
  const application = await getApplication(tx, applicationId);
  if (!application) throw notFound('The fertilizer application does not exist.');
  return application;
}

export async function listApplications(db: Database, fieldId: string, page: PageQuery & DateRange, gate?: PageGate) {
  const where = and(eq(fertilizerApplications.b_id, fieldId), dateWithin(fertilizerApplications.p_app_date, page));
  const order = [fertilizerApplications.created_at, fertilizerApplications.p_app_id];
  const { data, total } = await selectPage(db, fertilizerApplications, columns, where, order, page, product, gate);
  return { data: data.map(withName), total };
}

export async function updateApplication(tx: Database, applicationId: string, changes: ApplicationUpdate, precondition?: Precondition) {
  const stored = await readApplication(tx, applicationId);
  await assertUnchanged('fertilizer application', precondition, async () => stored);
  const { p_app_amount_unit, p_app_amount_display, ...rest } = changes;
  const amountChanged = p_app_amount_display !== undefined || changes.p_id !== undefined || p_app_amount_unit !== undefined;
  const amount = amountChanged
    ? await convertAmount(
        tx,
        stored.b_id,
        changes.p_id ?? stored.p_id,
        p_app_amount_display ?? stored.p_app_amount_display,
        p_app_amount_unit,
      )
    : {};
  const values = { ...rest, ...amount };
  if (Object.keys(values).length > 0)
    await tx.update(fertilizerApplications).set(values).where(eq(fertilizerApplications.p_app_id, applicationId));
  return readApplication(tx, applicationId);
}

export async function deleteApplication(tx: Database, applicationId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('fertilizer application', precondition, () => getApplication(tx, applicationId));
  await tx.delete(fertilizerApplications).where(eq(fertilizerApplications.p_app_id, applicationId));
}
