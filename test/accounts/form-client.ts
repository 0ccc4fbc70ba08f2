// A browser stand-in for the page tests: keeps cookies, reads CSRF tokens, posts forms.
import type { App } from '../../src/app/app.js';

export const ORIGIN = 'https://akker.test';

/** The server environment of a request from a client address (see src/accounts/client-address.ts). */
export const fromAddress = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

/** The value of the hidden CSRF field of the (first) form of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('the page has no CSRF field');
  return match[1]!;
}

export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: App,
    /** Stands in for the socket address (see src/accounts/client-address.ts). */
    private readonly address?: string,
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.#send(path, { method: 'GET', headers });
  }

  /** Posts fields as a browser would from one of our pages: with our Origin and the given CSRF token. */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }): Promise<Page> {
    return this.#send(path, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** Opens `formPage` and submits its form with `fields`. */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<Page> {
    const page = await this.get(formPage);
    return this.post(action, { _csrf: csrfOf(page.html), ...fields });
  }

  async #send(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Page> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = { ...init.headers, ...(cookie ? { cookie } : {}) };
    const env = this.address === undefined ? undefined : fromAddress(this.address);
    const response = await this.app.request(path, { ...init, headers }, env);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (value === '' || attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location') };
  }
}

let people = 0;

/** A new person signed up through the sign-up page. */
export async function signedUpClient(app: App, name = 'Grower'): Promise<{ client: FormClient; email: string; password: string }> {
  const client = new FormClient(app);
  const email = `person${++people}-${Date.now()}@example.org`;
  const password = 'correct horse battery';
  const page = await client.submit('/signup', '/signup', { name, email, password });
  if (page.status !== 303) throw new Error(`sign-up failed: ${page.status}`);
  return { client, email, password };
}
