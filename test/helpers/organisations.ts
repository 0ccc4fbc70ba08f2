// Organisations for the tests of what is shared with them.
import { sql } from 'drizzle-orm';
import { newId } from '../../src/core/secrets.js';
import type { Account, TestApp } from './app.js';

/** An organisation with `account` as its owner; its id. */
export async function createOrganisation(t: TestApp, account: Account, name: string): Promise<string> {
  const id = newId();
  await t.database.db.execute(sql`insert into organisations (organisation_id, name) values (${id}, ${name})`);
  await t.database.db.execute(
    sql`insert into organisation_members (organisation_id, user_id, role) values (${id}, ${account.userId}, 'owner')`,
  );
  return id;
}

/** Shares the farm of `owner` with the organisation in `role`. */
export async function shareWithOrganisation(t: TestApp, _owner: Account, farmId: string, orgId: string, role: 'advisor' | 'researcher') {
  await t.database.db.execute(sql`
    insert into organisation_farm_access (b_id_farm, organisation_id, role, farm_created_at)
    select b_id_farm, ${orgId}, ${role}, created_at from farms where b_id_farm = ${farmId}`);
}
