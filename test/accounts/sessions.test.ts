// Ending sessions as JSON: a password change ends every other session, "sign out everywhere" ends them
// all, and a session's last use is kept to the minute. The stolen-cookie case throughout: a cookie
// someone else holds (another session of the same account) stops working at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { sweepExpiredSessions } from '../../src/accounts/session-sweeper.js';
import { sha256 } from '../../src/core/secrets.js';
import { expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { fromAddress, ORIGIN } from './form-client.js';

const PASSWORD = 'correct horse'; // the password of signUpWithKey

describe.each(storageKinds)('sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** A JSON post from a client address (the sign-in throttle counts per address). */
  const post = (path: string, body: unknown, headers: Record<string, string>, address = '192.0.2.1') =>
    t.app.request(
      path,
      {
        method: 'POST',
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers },
      },
      fromAddress(address),
    );

  /** Another session of the account, as a thief holding its cookie would have. */
  async function secondSession(account: Account, password = PASSWORD): Promise<string> {
    const response = await post('/auth/sign-in', { email: account.email, password }, {});
    expect(response.status).toBe(200);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  }

  const keysWith = (cookie: string) => t.app.request('/api/keys', { headers: { cookie } });
  const changePassword = (cookie: string, current: string, replacement: string, headers: Record<string, string> = {}, address?: string) =>
    post('/auth/change-password', { current_password: current, new_password: replacement }, { cookie, ...headers }, address);

  it('changes the password and ends every other session: the stolen cookie gets 401 at once', async () => {
    const account = await signUpWithKey(t.app);
    const stolen = await secondSession(account);
    expect((await keysWith(stolen)).status).toBe(200);

    const changed = await changePassword(account.cookie, PASSWORD, 'a new passphrase');
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ other_sessions_ended: 1 });
    const renewed = changed.headers.get('set-cookie')!.split(';')[0]!;
    expect(renewed).toMatch(/^akker_session=[A-Za-z0-9_-]{43}$/);

    await expectProblem(await keysWith(stolen), 401, 'unauthorized');
    // The cookie of the asking session is replaced too, in case it is the one stolen.
    await expectProblem(await keysWith(account.cookie), 401, 'unauthorized');
    expect((await keysWith(renewed)).status).toBe(200);
    await expectProblem(await post('/auth/sign-in', { email: account.email, password: PASSWORD }, {}), 401, 'unauthorized');
    expect((await post('/auth/sign-in', { email: account.email, password: 'a new passphrase' }, {})).status).toBe(200);
  });

  it('refuses a wrong current password with 403 and changes nothing; guesses count with the sign-in throttle', async () => {
    const account = await signUpWithKey(t.app);
    const other = await secondSession(account);
    const address = '198.51.100.33';
    for (let i = 0; i < 10; i++) {
      await expectProblem(await changePassword(account.cookie, `guess ${i}`, 'a new passphrase', {}, address), 403, 'forbidden');
    }
    // The 11th, right or wrong, is refused before the password is looked at; sign-in from there too.
    const throttled = await changePassword(account.cookie, PASSWORD, 'a new passphrase', {}, address);
    await expectProblem(throttled, 429, 'rate-limit-exceeded');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(800);
    await expectProblem(await post('/auth/sign-in', { email: account.email, password: PASSWORD }, {}, address), 429, 'rate-limit-exceeded');
    expect((await keysWith(other)).status).toBe(200);
    expect((await post('/auth/sign-in', { email: account.email, password: PASSWORD }, {})).status).toBe(200);
  });

  it('holds the new password to the sign-up rules', async () => {
    const account = await signUpWithKey(t.app);
    const body = await expectProblem(await changePassword(account.cookie, PASSWORD, 'password1'), 400, 'validation-failed');
    expect(body.errors).toEqual([expect.objectContaining({ field: 'new_password' })]);
    await expectProblem(await changePassword(account.cookie, PASSWORD, 'short'), 400, 'validation-failed');
    const unknown = await post(
      '/auth/change-password',
      { current_password: PASSWORD, new_password: 'long enough', admin: true },
      {
        cookie: account.cookie,
      },
    );
    await expectProblem(unknown, 400, 'validation-failed');
  });

  it('needs a live session (401) and our origin (403) for either change', async () => {
    const account = await signUpWithKey(t.app);
    const stolen = await secondSession(account);
    for (const [path, body] of [
      ['/auth/change-password', { current_password: PASSWORD, new_password: 'a new passphrase' }],
      ['/auth/sign-out-everywhere', undefined],
    ] as const) {
      await expectProblem(await post(path, body, {}), 401, 'unauthorized');
      await expectProblem(await post(path, body, { cookie: 'akker_session=forged' }), 401, 'unauthorized');
      await expectProblem(await post(path, body, { 'x-api-key': account.key }), 401, 'unauthorized');
      await expectProblem(await post(path, body, { cookie: account.cookie, origin: 'https://evil.example' }), 403, 'forbidden');
    }
    expect((await keysWith(stolen)).status).toBe(200);
    expect((await post('/auth/sign-in', { email: account.email, password: PASSWORD }, {})).status).toBe(200);
    expect((await changePassword(account.cookie, PASSWORD, 'a new passphrase', { origin: ORIGIN })).status).toBe(200);
  });

  it('signs out everywhere: every session of the account ends, the stolen one included; API keys stay', async () => {
    const account = await signUpWithKey(t.app);
    const stolen = await secondSession(account);
    const bystander = await signUpWithKey(t.app);
    const response = await post('/auth/sign-out-everywhere', undefined, { cookie: account.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sessions_ended: 2 });
    expect(response.headers.get('set-cookie')).toMatch(/^akker_session=;/);
    await expectProblem(await keysWith(stolen), 401, 'unauthorized');
    await expectProblem(await keysWith(account.cookie), 401, 'unauthorized');
    expect((await keysWith(bystander.cookie)).status).toBe(200);
    expect((await t.app.request('/api/farms', { headers: { 'x-api-key': account.key } })).status).toBe(200);
  });

  it('keeps the last use of a session to the minute: written when a minute old, not on every request', async () => {
    const account = await signUpWithKey(t.app);
    const lastUse = async () => {
      const [row] = await queryRows<{ last_used_at: Date | string }>(
        t.database.db,
        sql`select last_used_at from sessions s join users u using (user_id) where u.email = ${account.email}`,
      );
      return new Date(row!.last_used_at).getTime();
    };
    await t.database.db.execute(
      sql`update sessions set last_used_at = now() - interval '59 seconds' where user_id = (select user_id from users where email = ${account.email})`,
    );
    const recent = await lastUse();
    await keysWith(account.cookie);
    expect(await lastUse()).toBe(recent);

    await t.database.db.execute(
      sql`update sessions set last_used_at = now() - interval '2 hours' where user_id = (select user_id from users where email = ${account.email})`,
    );
    await keysWith(account.cookie);
    const noted = await lastUse();
    expect(Date.now() - noted).toBeLessThan(60_000);
    await keysWith(account.cookie);
    expect(await lastUse()).toBe(noted);
  });

  it('sweeps expired sessions from the database, and only those', async () => {
    const account = await signUpWithKey(t.app);
    const expired = await secondSession(account);
    const sessionsOf = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from sessions where user_id = (select user_id from users where email = ${account.email})`,
        )
      )[0]!.n;
    expect(await sessionsOf()).toBe(2);
    await t.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where session_hash = ${sha256(decodeURIComponent(expired.slice(expired.indexOf('=') + 1)))}`,
    );
    expect(await sweepExpiredSessions(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await sessionsOf()).toBe(1);
    expect((await keysWith(account.cookie)).status).toBe(200);
    expect((await keysWith(expired)).status).toBe(401);
    expect(await sweepExpiredSessions(t.database.db)).toBe(0);
  });
});
