// Account → Organisations over HTTP: creating one, its members added, changed and removed, leaving; and the
// API's rules shown on the page with their status (no access, role too weak, last owner, limits, bad input,
// forged forms), nothing stored changing on a refusal. The API, through a key of the same person, is the witness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { csrfOf, FormClient } from './form-client.js';

const ORGANISATIONS = '/account/organisations';

interface Person {
  account: Account;
  client: FormClient;
}

/** Someone signed up, with an API key (the witness) and a browser signed in with the same session. */
async function personOn(app: TestApp['app']): Promise<Person> {
  const account = await signUpWithKey(app);
  const client = new FormClient(app);
  const separator = account.cookie.indexOf('=');
  client.cookies.set(account.cookie.slice(0, separator), account.cookie.slice(separator + 1));
  return { account, client };
}

interface MemberEntry {
  email: string;
  role: string;
}

describe.each(storageKinds)('the Organisations pages on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const person = () => personOn(t.app);

  /** Creates an organisation on the page; its id, from where the page leads. */
  async function createOnPage(owner: Person, name: string): Promise<string> {
    const created = await owner.client.submit(ORGANISATIONS, ORGANISATIONS, { name });
    expect(created.status).toBe(303);
    const id = new RegExp(`^${ORGANISATIONS}/([A-Za-z0-9_-]+)$`).exec(created.location ?? '')?.[1];
    expect(id).toBeDefined();
    return id!;
  }

  /** Opens the organisation's page and posts one of its forms. */
  const postOn = (who: Person, id: string, action: string, fields: Record<string, string>) =>
    who.client.submit(`${ORGANISATIONS}/${id}`, `${ORGANISATIONS}/${id}${action}`, fields);

  /** The members as the API lists them to `who`. */
  async function membersSeenBy(who: Person, id: string): Promise<MemberEntry[]> {
    const response = await call(t.app, who.account.key, 'GET', `/api/organisations/${id}/members`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: MemberEntry[] };
    return data.map(({ email, role }) => ({ email, role }));
  }

  async function organisationsOf(who: Person): Promise<Array<{ id: string; name: string; role: string }>> {
    const response = await call(t.app, who.account.key, 'GET', '/api/organisations?limit=200');
    return ((await response.json()) as { data: Array<{ id: string; name: string; role: string }> }).data.map(({ id, name, role }) => ({
      id,
      name,
      role,
    }));
  }

  it('is linked from the Account page, and lists the organisations one is in with one’s role', async () => {
    const owner = await person();
    const account = await owner.client.get('/account');
    expect(account.html).toContain(`href="${ORGANISATIONS}"`);
    const empty = await owner.client.get(ORGANISATIONS);
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('You are not a member of any organisation yet.');

    const id = await createOnPage(owner, 'Akkerbouw Advies BV');
    expect(await organisationsOf(owner)).toEqual([{ id, name: 'Akkerbouw Advies BV', role: 'owner' }]);
    const list = await owner.client.get(ORGANISATIONS);
    expect(list.html).toContain(`<a href="${ORGANISATIONS}/${id}">Akkerbouw Advies BV</a></td><td>owner</td>`);
    const page = await owner.client.get(`${ORGANISATIONS}/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Akkerbouw Advies BV</h1>');
    expect(page.html).toContain('Your role: owner.');
    expect(page.html).toContain(`<td class="name">${owner.account.email}</td>`);
  });

  it('adds a member with an account and an address without one, changes a role and removes a member, as the API does', async () => {
    const owner = await person();
    const colleague = await person();
    const id = await createOnPage(owner, 'Coöperatie');
    const waiting = `nobody-yet-${Date.now()}@example.org`;

    expect((await postOn(owner, id, '/members', { email: colleague.account.email, role: 'member' })).location).toBe(
      `${ORGANISATIONS}/${id}?changed=1`,
    );
    expect((await postOn(owner, id, '/members', { email: waiting, role: 'admin' })).status).toBe(303);
    expect(await membersSeenBy(owner, id)).toEqual([
      { email: owner.account.email, role: 'owner' },
      { email: colleague.account.email, role: 'member' },
      { email: waiting, role: 'admin' },
    ]);
    const page = await owner.client.get(`${ORGANISATIONS}/${id}?changed=1`);
    expect(page.html).toContain('The members were changed.');
    expect(page.html).toContain(`<td class="name">${waiting}</td>`);

    // The colleague sees it in their list, with their role.
    expect(await organisationsOf(colleague)).toEqual([{ id, name: 'Coöperatie', role: 'member' }]);
    expect((await colleague.client.get(ORGANISATIONS)).html).toContain('Coöperatie</a></td><td>member</td>');

    expect((await postOn(owner, id, '/members', { email: colleague.account.email, role: 'admin' })).status).toBe(303);
    expect((await postOn(owner, id, '/members/remove', { email: waiting })).status).toBe(303);
    expect(await membersSeenBy(owner, id)).toEqual([
      { email: owner.account.email, role: 'owner' },
      { email: colleague.account.email, role: 'admin' },
    ]);

    const left = await postOn(colleague, id, '/leave', {});
    expect(left.status).toBe(303);
    expect(left.location).toBe(`${ORGANISATIONS}?left=1`);
    expect(await organisationsOf(colleague)).toEqual([]);
    expect((await colleague.client.get(left.location!)).html).toContain('You left the organisation.');
  });

  it('answers another person’s organisation with 404 and none of its data, for the page and every form', async () => {
    const owner = await person();
    const stranger = await person();
    const id = await createOnPage(owner, 'Geheim Adviesbureau');
    await postOn(owner, id, '/members', { email: 'confidant@example.org', role: 'member' });
    const before = await membersSeenBy(owner, id);

    const page = await stranger.client.get(`${ORGANISATIONS}/${id}`);
    expect(page.status).toBe(404);
    expect(page.html).toContain('The organisation does not exist.');
    const csrf = csrfOf((await stranger.client.get(ORGANISATIONS)).html);
    for (const [action, fields] of [
      ['/members', { email: stranger.account.email, role: 'owner' }],
      ['/members/remove', { email: 'confidant@example.org' }],
      ['/leave', {}],
    ] as const) {
      const answer = await stranger.client.post(`${ORGANISATIONS}/${id}${action}`, { _csrf: csrf, ...fields });
      expect(answer.status).toBe(404);
      for (const secret of ['Geheim', 'confidant@example.org', owner.account.email]) expect(answer.html).not.toContain(secret);
    }
    for (const secret of ['Geheim', 'confidant@example.org', owner.account.email]) expect(page.html).not.toContain(secret);
    expect(await membersSeenBy(owner, id)).toEqual(before);
    expect(await organisationsOf(stranger)).toEqual([]);
  });

  it('tells a member that their role does not let them add or remove members (403), and changes nothing', async () => {
    const owner = await person();
    const member = await person();
    const id = await createOnPage(owner, 'Onderzoeksgroep');
    await postOn(owner, id, '/members', { email: member.account.email, role: 'member' });
    const before = await membersSeenBy(owner, id);

    const page = await member.client.get(`${ORGANISATIONS}/${id}`);
    expect(page.html).toContain('Your role: member.');
    expect(page.html).toContain('Owners and admins add and remove members.');
    expect(page.html).not.toContain('Add member');

    const added = await postOn(member, id, '/members', { email: 'friend@example.org', role: 'member' });
    expect(added.status).toBe(403);
    expect(added.html).toContain('Your role in this organisation (member) does not allow you to manage its members.');
    const removed = await postOn(member, id, '/members/remove', { email: owner.account.email });
    expect(removed.status).toBe(403);
    expect(removed.html).toContain('does not allow you to manage its members.');
    expect(await membersSeenBy(owner, id)).toEqual(before);
  });

  it('keeps the last owner: leaving or stepping down is refused with the reason (409), and nothing changes', async () => {
    const owner = await person();
    const id = await createOnPage(owner, 'Eenmanszaak');
    await postOn(owner, id, '/members', { email: 'admin-to-be@example.org', role: 'admin' });
    const before = await membersSeenBy(owner, id);
    const reason = 'An organisation keeps at least one owner: make someone else owner first.';

    const left = await postOn(owner, id, '/leave', {});
    expect(left.status).toBe(409);
    expect(left.html).toContain(reason);
    const demoted = await postOn(owner, id, '/members', { email: owner.account.email, role: 'admin' });
    expect(demoted.status).toBe(409);
    expect(demoted.html).toContain(reason);
    const removed = await postOn(owner, id, '/members/remove', { email: owner.account.email });
    expect(removed.status).toBe(409);
    expect(removed.html).toContain(reason);
    expect(await membersSeenBy(owner, id)).toEqual(before);
    expect(await organisationsOf(owner)).toEqual([{ id, name: 'Eenmanszaak', role: 'owner' }]);
  });

  it('refuses a form without its CSRF token, with another’s, or from another origin (403), and stores nothing', async () => {
    const owner = await person();
    const other = await person();
    const id = await createOnPage(owner, 'Beschermd');
    const before = await membersSeenBy(owner, id);
    const othersToken = csrfOf((await other.client.get(ORGANISATIONS)).html);
    const ownToken = csrfOf((await owner.client.get(ORGANISATIONS)).html);

    for (const [path, fields] of [
      [ORGANISATIONS, { name: 'Vervalst' }],
      [`${ORGANISATIONS}/${id}/members`, { email: 'intruder@example.org', role: 'owner' }],
      [`${ORGANISATIONS}/${id}/members/remove`, { email: owner.account.email }],
      [`${ORGANISATIONS}/${id}/leave`, {}],
    ] as const) {
      for (const token of [undefined, 'not-a-token', othersToken]) {
        const answer = await owner.client.post(path, token === undefined ? fields : { _csrf: token, ...fields });
        expect(answer.status).toBe(403);
        expect(answer.html).toContain('Form refused');
      }
      const crossOrigin = await owner.client.post(path, { _csrf: ownToken, ...fields }, { origin: 'https://elsewhere.test' });
      expect(crossOrigin.status).toBe(403);
    }
    expect(await membersSeenBy(owner, id)).toEqual(before);
    expect(await organisationsOf(owner)).toEqual([{ id, name: 'Beschermd', role: 'owner' }]);
  });

  it('refuses a 10 KB name, an empty name, a malformed or 10 KB e-mail address and an unknown role (400) with a clear message', async () => {
    const owner = await person();
    const long = await owner.client.submit(ORGANISATIONS, ORGANISATIONS, { name: 'x'.repeat(10_240) });
    expect(long.status).toBe(400);
    expect(long.html).toContain('The name must be at most 200 characters.');
    const blank = await owner.client.submit(ORGANISATIONS, ORGANISATIONS, { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.html).toContain('The name must not be empty.');
    expect(await organisationsOf(owner)).toEqual([]);

    const id = await createOnPage(owner, 'Strikt');
    const before = await membersSeenBy(owner, id);
    for (const [fields, message] of [
      [{ email: 'not an address', role: 'member' }, 'The e-mail address must be an e-mail address.'],
      [{ email: `${'a'.repeat(10_240)}@example.org`, role: 'member' }, 'The e-mail address must be at most 254 characters.'],
      [{ email: 'fine@example.org', role: 'boss' }, 'The role must be owner, admin or member.'],
    ] as const) {
      const answer = await postOn(owner, id, '/members', fields);
      expect(answer.status).toBe(400);
      expect(answer.html).toContain(message);
      // A refused form is answered small: never the 10 KB sent back twice over.
      expect(answer.html.length).toBeLessThan(40_000);
    }
    const removal = await postOn(owner, id, '/members/remove', { email: 'not an address' });
    expect(removal.status).toBe(400);
    expect(removal.html).toContain('The e-mail address must be an e-mail address.');
    expect(await membersSeenBy(owner, id)).toEqual(before);
  });

  it('says when the most organisations one may be in is reached (409), and creates none', async () => {
    const owner = await person();
    for (let n = 0; n < 100; n++) {
      expect((await call(t.app, owner.account.key, 'POST', '/api/organisations', { name: `Organisatie ${n}` })).status).toBe(201);
    }
    const refused = await owner.client.submit(ORGANISATIONS, ORGANISATIONS, { name: 'De honderdeerste' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('You are a member of 100 organisations, the most one user may be in.');
    expect(refused.html).toContain('value="De honderdeerste"');
    const listed = await organisationsOf(owner);
    expect(listed).toHaveLength(100);
    expect(listed.map((organisation) => organisation.name)).not.toContain('De honderdeerste');
  });
});

describe('the Organisations pages and the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMIT_WRITE: '2' });
  });
  afterAll(() => t.close());

  it('counts each form as the API write it stands for: past the limit 429 with Retry-After, and nothing stored', async () => {
    const owner = await personOn(t.app);
    for (const name of ['Eerste', 'Tweede']) expect((await owner.client.submit(ORGANISATIONS, ORGANISATIONS, { name })).status).toBe(303);
    const refused = await owner.client.submit(ORGANISATIONS, ORGANISATIONS, { name: 'Derde' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.html).toContain('You made more requests in the last minute than this server allows.');
    const listed = await call(t.app, owner.account.key, 'GET', '/api/organisations');
    expect(((await listed.json()) as { data: Array<{ name: string }> }).data.map((organisation) => organisation.name)).toEqual([
      'Eerste',
      'Tweede',
    ]);
  });
});
