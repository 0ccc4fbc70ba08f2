// The few Akker API calls the benchmark's set-up needs, over HTTP like any client.
import { randomBytes } from 'node:crypto';

export interface Farm {
  b_id_farm: string;
  b_name_farm: string;
}

export interface Account {
  userId: string;
  email: string;
  key: string;
}

async function request(url: string, init: RequestInit, expectedStatus: number): Promise<Response> {
  const response = await fetch(url, init);
  if (response.status !== expectedStatus) {
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}, expected ${expectedStatus}: ${await response.text()}`);
  }
  return response;
}

const jsonBody = (body: unknown, headers: Record<string, string> = {}) => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** Signs a new user up and creates an API key with the session cookie. */
export async function signUpWithKey(base: string, name: string): Promise<Account> {
  const email = `${name}-${randomBytes(4).toString('hex')}@bench.example.org`;
  const signUp = await request(`${base}/auth/sign-up`, { method: 'POST', ...jsonBody({ email, password: 'bench password', name }) }, 201);
  const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
  const { user_id } = (await signUp.json()) as { user_id: string };
  const created = await request(`${base}/api/keys`, { method: 'POST', ...jsonBody({ name: 'bench' }, { cookie }) }, 201);
  return { userId: user_id, email, key: ((await created.json()) as { key: string }).key };
}

/** Creates a farm through POST /api/farms. */
export async function createFarm(base: string, key: string): Promise<Farm> {
  const response = await request(
    `${base}/api/farms`,
    { method: 'POST', ...jsonBody({ b_name_farm: 'Bench Farm' }, { 'x-api-key': key }) },
    201,
  );
  return (await response.json()) as Farm;
}

/** How many farms the key's user has, as GET /api/farms reports it. */
export async function farmTotal(base: string, key: string): Promise<number> {
  const response = await request(`${base}/api/farms?limit=1`, { headers: { 'x-api-key': key } }, 200);
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

/** Fails unless GET url answers 200 with the farm `farmId` (checks a server before it is measured). */
export async function expectFarm(url: string, headers: Record<string, string>, farmId: string): Promise<void> {
  const farm = (await (await request(url, { headers }, 200)).json()) as Farm;
  if (farm.b_id_farm !== farmId) throw new Error(`GET ${url} answered farm ${farm.b_id_farm}, expected ${farmId}`);
}
