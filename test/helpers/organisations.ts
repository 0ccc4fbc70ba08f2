// Organisations for the tests of what is shared with them, made through the API.
import type { App } from '../../src/app/app.js';
import { call, type Account } from './app.js';

/** An organisation with `account` as its owner; its id. */
export async function createOrganisation(t: { app: App }, account: Account, name: string): Promise<string> {
  const response = await call(t.app, account.key, 'POST', '/api/organisations', { name });
  if (response.status !== 201) throw new Error(`organisation creation failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Shares the farm of `owner` with the organisation in `role`. */
export async function shareWithOrganisation(
  t: { app: App },
  owner: Account,
  farmId: string,
  organisation: string,
  role: 'advisor' | 'researcher',
): Promise<void> {
  const response = await call(t.app, owner.key, 'PUT', `/api/farms/${farmId}/access`, { organisation, role });
  if (response.status !== 200) throw new Error(`sharing with the organisation failed: ${response.status} ${await response.text()}`);
}
