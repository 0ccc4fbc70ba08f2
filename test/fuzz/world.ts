// The records the fuzzer's requests point at: a user with a key, a farm with one of everything, other users
// to share with. Built through the API, as a client would, and rebuilt when a request deleted part of it.
import { farmWithEverything, organicCertificationBody, type Client, type FarmFixture } from '../helpers/fixtures.js';
import { edgeGeometry } from './geometries.js';
import type { Random } from './random.js';

export type { Client };
export type Fixture = FarmFixture;

const jsonInit = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

async function expectStatus(response: Response, status: number, what: string): Promise<Response> {
  if (response.status !== status) throw new Error(`fuzz set-up: ${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

const PASSWORD = 'fuzzing password';
const GEOMETRY = {
  type: 'Polygon',
  coordinates: [
    [
      [5, 52],
      [5.003, 52],
      [5.003, 52.002],
      [5, 52.002],
      [5, 52],
    ],
  ],
};

async function signUp(client: Client, email: string): Promise<string> {
  const response = await expectStatus(
    await client('/auth/sign-up', jsonInit('POST', { email, password: PASSWORD, name: 'Fuzz' })),
    201,
    'sign-up',
  );
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

// Codes that the catalogues have, so that valid bodies get past the catalogue check.
const CROP_CODES = ['nl_265', 'nl_233', 'nl_259', 'nl_2014'];
const FERTILIZER_CODES = ['BAAT028', 'BAAT050', 'BAAT001'];

export class World {
  private fixture!: Fixture;
  private spareKeyIds: string[] = [];
  /** The organisation the fixture farm is shared with; path values of `org_id` point at it. */
  private organisationId = '';
  /** An organisation for a DELETE to remove or unshare: made again once a DELETE removed it. */
  private spareOrganisationId: string | undefined;
  private sessions = 0;

  private constructor(
    private readonly client: Client,
    private readonly runId: string,
    readonly key: string,
    private readonly cookie: string,
    readonly grantees: string[],
  ) {}

  /**
   * The cookie of a new user's session, for an operation that needs one and may end it or change the
   * password (/auth/change-password, /auth/sign-out-everywhere): a user of its own each time, so that
   * nothing the run relies on is signed out, and the sign-in throttle's count for one e-mail stays low.
   */
  session(): Promise<string> {
    return signUp(this.client, `session${++this.sessions}-${this.runId}@fuzz.example.org`);
  }

  static async create(client: Client, runId: string): Promise<World> {
    const email = (name: string) => `${name}-${runId}@fuzz.example.org`;
    const cookie = await signUp(client, email('owner'));
    const created = await expectStatus(await client('/api/keys', jsonInit('POST', { name: 'fuzz' }, { cookie })), 201, 'key creation');
    const { key } = (await created.json()) as { key: string };
    const grantees = [email('advisor'), email('researcher')];
    for (const grantee of grantees) await signUp(client, grantee);
    const world = new World(client, runId, key, cookie, grantees);
    world.organisationId = (await world.create<{ id: string }>('/api/organisations', { name: 'Fuzz firm' })).id;
    await world.rebuild();
    return world;
  }

  private async create<T>(path: string, body: unknown): Promise<T> {
    const response = await expectStatus(await this.client(path, jsonInit('POST', body, { 'x-api-key': this.key })), 201, `POST ${path}`);
    return (await response.json()) as T;
  }

  /** A new farm with one record of every kind, shared with the first grantee. */
  async rebuild(): Promise<void> {
    this.fixture = await farmWithEverything(this.client, this.key, [{ email: this.grantees[0]!, role: 'advisor' }]);
    await this.shareWith(this.organisationId);
  }

  /** Shares the fixture farm with the organisation: its answer's status (404 once the organisation is gone). */
  private async shareWith(organisationId: string): Promise<number> {
    const share = jsonInit('PUT', { organisation: organisationId, role: 'researcher' }, { 'x-api-key': this.key });
    const response = await this.client(`/api/farms/${this.fixture.b_id_farm}/access`, share);
    if (response.status !== 404) await expectStatus(response, 200, 'share with an organisation');
    return response.status;
  }

  /** The spare organisation, shared with the fixture farm, so that either DELETE under `org_id` finds something to remove. */
  private async spareOrganisation(): Promise<string> {
    if (this.spareOrganisationId === undefined || (await this.shareWith(this.spareOrganisationId)) === 404) {
      this.spareOrganisationId = (await this.create<{ id: string }>('/api/organisations', { name: 'To delete' })).id;
      await this.shareWith(this.spareOrganisationId);
    }
    return this.spareOrganisationId;
  }

  /**
   * A record made for a DELETE to remove, so that deletes leave the fixture whole: of the kind `parameter`
   * names, below the fixture's records (a role on the fixture farm, for an e-mail address).
   */
  async deletable(parameter: string): Promise<string> {
    try {
      return await this.makeDeletable(parameter);
    } catch {
      // An earlier PATCH may have changed the fixture so that the record no longer fits (a field that ended).
      await this.rebuild();
      return this.makeDeletable(parameter);
    }
  }

  private async makeDeletable(parameter: string): Promise<string> {
    const f = this.fixture;
    switch (parameter) {
      case 'b_id_farm':
        return (await this.create<{ b_id_farm: string }>('/api/farms', { b_name_farm: 'To delete' })).b_id_farm;
      case 'b_id':
        return (
          await this.create<{ b_id: string }>(`/api/farms/${f.b_id_farm}/fields`, {
            b_name: 'To delete',
            b_geometry: GEOMETRY,
            b_start: '2020-01-01',
          })
        ).b_id;
      case 'b_lu':
        return (
          await this.create<{ b_lu: string }>(`/api/fields/${f.b_id}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-02-01' })
        ).b_lu;
      case 'b_id_harvesting':
        return (
          await this.create<{ b_id_harvesting: string }>(`/api/cultivations/${f.b_lu}/harvests`, {
            b_lu_harvest_date: '2025-08-01',
            b_lu_yield: 2000,
            b_lu_cp: 150,
          })
        ).b_id_harvesting;
      case 'a_id':
        return (await this.create<{ a_id: string }>(`/api/fields/${f.b_id}/soil-analyses`, { a_som_loi: 2 })).a_id;
      case 'p_id':
        return (await this.create<{ p_id: string }>(`/api/farms/${f.b_id_farm}/fertilizers`, { p_id_catalogue: 'BAAT001' })).p_id;
      case 'p_app_id':
        return (
          await this.create<{ p_app_id: string }>(`/api/fields/${f.b_id}/fertilizer-applications`, {
            p_id: f.usedFertilizer,
            p_app_amount_display: 5,
            p_app_date: '2025-05-01',
          })
        ).p_app_id;
      case 'year': {
        // Another year than the fixture's, which stays held; held already (201 or 200) when an earlier delete was refused.
        const year = '2010';
        const held = await this.client(`/api/farms/${f.b_id_farm}/derogations/${year}`, {
          method: 'PUT',
          headers: { 'x-api-key': this.key },
        });
        if (held.status !== 201) await expectStatus(held, 200, 'derogation');
        return year;
      }
      case 'b_id_organic':
        return (await this.create<{ b_id_organic: string }>(`/api/farms/${f.b_id_farm}/organic-certifications`, organicCertificationBody))
          .b_id_organic;
      case 'email': {
        const grant = jsonInit('PUT', { email: this.grantees[1], role: 'researcher' }, { 'x-api-key': this.key });
        await expectStatus(await this.client(`/api/farms/${f.b_id_farm}/access`, grant), 200, 'grant');
        return this.grantees[1]!;
      }
      case 'id':
        return this.spareKeyId();
      case 'org_id':
        return this.spareOrganisation();
      default:
        throw new Error(`no deletable record for ${parameter}`);
    }
  }

  /** A key of the owner that a DELETE /api/keys/{id} may revoke (never the key the fuzzer uses). */
  private async spareKeyId(): Promise<string> {
    if (this.spareKeyIds.length === 0) {
      const response = await expectStatus(
        await this.client('/api/keys', jsonInit('POST', { name: 'spare' }, { cookie: this.cookie })),
        201,
        'spare key',
      );
      this.spareKeyIds.push(((await response.json()) as { id: string }).id);
    }
    return this.spareKeyIds[0]!;
  }

  /** The key `id` was revoked: the next DELETE needs another. */
  keyRevoked(id: string): void {
    this.spareKeyIds = this.spareKeyIds.filter((spare) => spare !== id);
  }

  /** An identifier of the fixture, for a path parameter; undefined for a parameter the fixture has no record for. */
  pathValue(parameter: string): string | undefined {
    if (parameter === 'org_id') return this.organisationId;
    return (this.fixture as unknown as Record<string, string>)[parameter];
  }

  /** Identifiers of the fixture, to use one kind's id where another kind is expected. */
  ids(): string[] {
    return Object.values(this.fixture);
  }

  /** Whether the record at the end of the path `url` is one of the fixture's own. */
  isFixtureRecord(url: string): boolean {
    const last = decodeURIComponent(url.split('?')[0]!.split('/').pop()!);
    return this.ids().includes(last);
  }

  /** A realistic value for a body property of this name, if the world has one. */
  hint(property: string, random: Random): unknown {
    switch (property) {
      case 'p_id':
        return this.fixture.usedFertilizer;
      case 'email':
        return random.pick(this.grantees);
      case 'organisation':
        return this.organisationId;
      case 'b_lu_catalogue':
        return random.pick(CROP_CODES);
      case 'p_id_catalogue':
        return random.pick(FERTILIZER_CODES);
      case 'b_geometry':
        return edgeGeometry(random);
      case 'b_organic_traces':
      case 'b_organic_skal':
        return organicCertificationBody[property];
      case 'password':
      case 'current_password':
        return PASSWORD;
      default:
        return undefined;
    }
  }
}
