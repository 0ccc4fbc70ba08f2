// The mixed workload: many users, each with several keys and a small farm; 70 % reads, 25 % writes,
// 5 % calculations. A user's requests take turns over its keys, so each key stays within its limits.
import { Random } from '../../test/fuzz/random.js';
import type { HttpClient } from './http-client.js';

export type Category = 'read' | 'write' | 'calculation';

export interface Request {
  category: Category;
  /** A short name for the report of failed requests. */
  name: string;
  method: string;
  path: string;
  body?: unknown;
  /** The status that counts as success. */
  expected: number;
  /** Called with the parsed answer when it succeeded (to remember created records). */
  onSuccess?: (body: Record<string, unknown>) => void;
}

interface Tenant {
  keys: string[];
  /** Which key the user's next request of each category sends: each category takes turns on its own. */
  nextKey: Record<Category, number>;
  farm: string;
  field: string;
  cultivation: string;
  /** Fields this run created, which the run's deletes remove again (oldest first). */
  createdFields: string[];
}

const geometry = (random: Random) => {
  const lon = 4 + random.next() * 2;
  const lat = 51.5 + random.next();
  return {
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + 0.004, lat],
        [lon + 0.004, lat + 0.002],
        [lon, lat + 0.002],
        [lon, lat],
      ],
    ],
  };
};

async function expectJson(client: HttpClient, what: string, status: number, ...args: Parameters<HttpClient['send']>) {
  const answer = await client.send(...args);
  if (answer.status !== status) throw new Error(`load set-up: ${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return { json: JSON.parse(answer.body) as Record<string, string>, answer };
}

async function createTenant(client: HttpClient, index: number, runId: string, random: Random, keysPerUser: number): Promise<Tenant> {
  const email = `load-${runId}-${index}@example.org`;
  const signUp = await expectJson(
    client,
    'sign-up',
    201,
    'POST',
    '/auth/sign-up',
    {},
    { email, password: 'load test password', name: `Load ${index}` },
  );
  const cookie = signUp.answer.headers['set-cookie']![0]!.split(';')[0]!;
  const keys: string[] = [];
  for (let k = 0; k < keysPerUser; k++)
    keys.push((await expectJson(client, 'key', 201, 'POST', '/api/keys', { cookie }, { name: `load ${k}` })).json.key!);
  const headers = { 'x-api-key': keys[0]! };
  const farm = (await expectJson(client, 'farm', 201, 'POST', '/api/farms', headers, { b_name_farm: `Load farm ${index}` })).json
    .b_id_farm!;
  const field = (
    await expectJson(client, 'field', 201, 'POST', `/api/farms/${farm}/fields`, headers, {
      b_name: 'Perceel',
      b_geometry: geometry(random),
      b_start: '2020-01-01',
    })
  ).json.b_id!;
  const cultivation = (
    await expectJson(client, 'cultivation', 201, 'POST', `/api/fields/${field}/cultivations`, headers, {
      b_lu_catalogue: 'nl_265',
      b_lu_start: '2025-01-01',
    })
  ).json.b_lu!;
  await expectJson(client, 'harvest', 201, 'POST', `/api/cultivations/${cultivation}/harvests`, headers, {
    b_lu_harvest_date: '2025-06-01',
    b_lu_yield: 3000,
    b_lu_cp: 170,
  });
  await expectJson(client, 'soil analysis', 201, 'POST', `/api/fields/${field}/soil-analyses`, headers, {
    a_som_loi: 3,
    a_clay_mi: 20,
    b_sampling_date: '2025-01-15',
  });
  const fertilizer = (
    await expectJson(client, 'fertilizer', 201, 'POST', `/api/farms/${farm}/fertilizers`, headers, { p_id_catalogue: 'BAAT028' })
  ).json.p_id!;
  await expectJson(client, 'application', 201, 'POST', `/api/fields/${field}/fertilizer-applications`, headers, {
    p_id: fertilizer,
    p_app_amount_display: 100,
    p_app_method: 'injection',
    p_app_date: '2025-03-01',
  });
  return { keys, nextKey: { read: 0, write: 0, calculation: 0 }, farm, field, cultivation, createdFields: [] };
}

/** Users set up side by side. */
const SET_UP_AT_ONCE = 8;

export class Workload {
  private constructor(private readonly tenants: Tenant[]) {}

  static async create(client: HttpClient, users: number, keysPerUser: number, runId: string): Promise<Workload> {
    // A few users at a time: a sign-up waits for its password hash, a user's own requests for each other.
    const tenants: Tenant[] = [];
    for (let first = 0; first < users; first += SET_UP_AT_ONCE) {
      const indexes = Array.from({ length: Math.min(SET_UP_AT_ONCE, users - first) }, (_, i) => first + i);
      tenants.push(...(await Promise.all(indexes.map((i) => createTenant(client, i, runId, new Random(i + 1), keysPerUser)))));
    }
    return new Workload(tenants);
  }

  /** The next request of connection `connection`; a connection keeps to one user (so to one key). */
  next(random: Random, connection: number): Request {
    const tenant = this.tenants[connection % this.tenants.length]!;
    const roll = random.next();
    const category: Category = roll < 0.7 ? 'read' : roll < 0.95 ? 'write' : 'calculation';
    const request =
      category === 'read'
        ? this.read(random, tenant)
        : category === 'write'
          ? this.write(random, tenant)
          : this.calculation(random, tenant);
    return { ...request, category };
  }

  /**
   * The key header of a request of connection `connection`: its user's keys in turn, per category, so
   * that a key gets exactly its share of each limit (chance alone would now and then give one key
   * more calculations in a minute than its limit of 10).
   */
  headersFor(connection: number, category: Category): Record<string, string> {
    const tenant = this.tenants[connection % this.tenants.length]!;
    return { 'x-api-key': tenant.keys[tenant.nextKey[category]++ % tenant.keys.length]! };
  }

  private read(random: Random, t: Tenant): Omit<Request, 'category'> {
    const reads: Array<[string, string]> = [
      ['farm list', '/api/farms'],
      ['farm', `/api/farms/${t.farm}`],
      ['field list', `/api/farms/${t.farm}/fields?limit=20`],
      ['field', `/api/fields/${t.field}`],
      ['cultivation list', `/api/fields/${t.field}/cultivations`],
      ['harvest list', `/api/cultivations/${t.cultivation}/harvests`],
      ['soil analysis list', `/api/fields/${t.field}/soil-analyses`],
      ['application list', `/api/fields/${t.field}/fertilizer-applications`],
      ['crop catalogue search', '/api/catalogues/cultivations?q=gras&limit=10'],
    ];
    const [name, path] = random.pick(reads);
    return { name, method: 'GET', path, expected: 200 };
  }

  private write(random: Random, t: Tenant): Omit<Request, 'category'> {
    const roll = random.next();
    if (roll < 0.3 || (roll >= 0.85 && t.createdFields.length === 0)) {
      return {
        name: 'create field',
        method: 'POST',
        path: `/api/farms/${t.farm}/fields`,
        body: { b_name: 'Load field', b_geometry: geometry(random), b_start: '2024-01-01' },
        expected: 201,
        onSuccess: (body) => void t.createdFields.push(body.b_id as string),
      };
    }
    if (roll < 0.5)
      return {
        name: 'update farm',
        method: 'PATCH',
        path: `/api/farms/${t.farm}`,
        body: { b_address_farm: `Dorpsstraat ${random.int(1, 999)}` },
        expected: 200,
      };
    if (roll < 0.7) {
      return {
        name: 'add soil analysis',
        method: 'POST',
        path: `/api/fields/${t.field}/soil-analyses`,
        body: { a_som_loi: random.int(10, 80) / 10, b_sampling_date: '2025-02-01' },
        expected: 201,
      };
    }
    if (roll < 0.85) {
      return {
        name: 'add cultivation',
        method: 'POST',
        path: `/api/fields/${t.field}/cultivations`,
        body: { b_lu_catalogue: 'nl_265', b_lu_start: '2025-04-01' },
        expected: 201,
      };
    }
    return { name: 'delete field', method: 'DELETE', path: `/api/fields/${t.createdFields.shift()!}`, expected: 204 };
  }

  private calculation(random: Random, t: Tenant): Omit<Request, 'category'> {
    const options = { start: '2025-01-01', end: '2025-12-31' };
    const [name, path] = random.pick([
      ['field nitrogen balance', `/api/fields/${t.field}/calculations/nitrogen-balance`],
      ['field dose', `/api/fields/${t.field}/calculations/dose`],
      ['farm nitrogen balance', `/api/farms/${t.farm}/calculations/nitrogen-balance`],
    ] as const);
    return { name, method: 'POST', path, body: options, expected: 200 };
  }
}
