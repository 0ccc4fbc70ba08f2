// The problem `type` URLs lead somewhere: /errors/<code> describes the code, as a page or as JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '../../src/http/problem.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('pglite');
});
afterAll(() => t.close());

const codes = Object.keys(errorCodes) as ErrorCode[];

describe('/errors/<code>', () => {
  it.each(codes)('%s: an HTML page by default, with no key', async (code) => {
    for (const accept of [undefined, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']) {
      const response = await t.app.request(`/errors/${code}`, { headers: accept ? { accept } : {} });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await response.text();
      expect(page).toMatch(/^<!doctype html>/i);
      expect(page).toContain(`<code>${code}</code>`);
      expect(page).toContain(`${errorCodes[code].status} ${errorCodes[code].title}`);
    }
  });

  it.each(codes)('%s: its members as JSON for Accept: application/json', async (code) => {
    const response = await t.app.request(`/errors/${code}`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ code, status: errorCodes[code].status, title: errorCodes[code].title, description: expect.any(String) });
    expect((body.description as string).length).toBeGreaterThan(40);
  });

  it('is where the type of an error answer leads', async () => {
    const problem = (await (await t.app.request('/api/farms')).json()) as { type: string };
    const path = new URL(problem.type).pathname;
    expect(path).toBe('/errors/unauthorized');
    const response = await t.app.request(path, { headers: { accept: 'application/json' } });
    expect(((await response.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('answers an unknown code with 404 problem+json', async () => {
    for (const code of ['no-such-code', 'constructor', '__proto__']) {
      const response = await t.app.request(`/errors/${code}`, { headers: { accept: 'application/json' } });
      expect(response.status, code).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({
        type: 'https://akker.test/errors/not-found',
        status: 404,
        instance: `/errors/${code}`,
      });
    }
  });

  it('answers another method than GET or HEAD with 405 and Allow', async () => {
    const response = await t.app.request('/errors/not-found', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await t.app.request('/errors/not-found', { method: 'HEAD' })).status).toBe(200);
  });
});
