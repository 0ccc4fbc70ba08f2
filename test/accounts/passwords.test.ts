// Sign-up refuses passwords that protect nothing: only whitespace, or one of the most common ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startTestApp, type TestApp } from '../helpers/app.js';
import { FormClient } from './form-client.js';

const weak = [
  { password: '        ', message: 'must not be only spaces' },
  { password: ' \t\u00a0\u2003  \n ', message: 'must not be only spaces' },
  { password: 'password', message: 'is one of the most common passwords' },
  { password: '12345678', message: 'is one of the most common passwords' },
  { password: 'PassWord1', message: 'is one of the most common passwords' },
  { password: 'QWERTYUIOP', message: 'is one of the most common passwords' },
];

describe('passwords at sign-up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  const signUp = (email: string, password: string) =>
    t.app.request('/auth/sign-up', {
      method: 'POST',
      body: JSON.stringify({ email, password, name: 'N' }),
      headers: { 'content-type': 'application/json' },
    });

  it.each(weak.map((entry, index) => ({ ...entry, index })))(
    'refuses "$password" with 400 and says why (JSON)',
    async ({ password, message, index }) => {
      const body = await expectProblem(await signUp(`weak-${index}@example.org`, password), 400, 'validation-failed');
      expect(body.errors).toEqual([{ field: 'password', message: expect.stringContaining(message) }]);
    },
  );

  it('refuses the same passwords on the sign-up page, with a message for people, and stores no account', async () => {
    for (const [index, { password }] of weak.entries()) {
      const email = `weak-page-${index}@example.org`;
      const page = await new FormClient(t.app).submit('/signup', '/signup', { name: 'N', email, password });
      expect(page.status).toBe(400);
      expect(page.html).toMatch(/only spaces|one of the most common passwords/);
      // Not signed up: the address is still free.
      expect((await signUp(email, 'a good long passphrase')).status).toBe(201);
    }
  });

  it('accepts a password with spaces in it, and one that merely contains a common one', async () => {
    expect((await signUp('spaces@example.org', ' long enough ')).status).toBe(201);
    expect((await signUp('contains@example.org', 'password for akker')).status).toBe(201);
  });
});
