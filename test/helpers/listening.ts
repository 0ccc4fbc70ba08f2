// The real app behind a real HTTP server on a loopback port, for tests of requests that overlap:
// app.request() runs a request to its end on the caller's turn, a socket does not.
import type { AddressInfo } from 'node:net';
import { createAppServer } from '../../src/app/node-server.js';
import type { RateLimitWindows } from '../../src/rate-limit/windows.js';
import { startTestApp, type TestApp } from './app.js';
import type { StorageKind } from './databases.js';

export interface ListeningApp extends TestApp {
  url: string;
  /** A request over the socket, with an API key and, when given, a JSON body. */
  send(key: string, method: string, path: string, body?: unknown): Promise<Response>;
  /** Stops listening, the database left open (close() does both). */
  stopListening(): Promise<void>;
}

/** Starts the app on a fresh database of `kind` and listens on a free loopback port; `rateLimits`: a store of the test's. */
export async function startListeningApp(
  kind: StorageKind,
  env: Record<string, string> = {},
  rateLimits?: RateLimitWindows,
): Promise<ListeningApp> {
  return listenOn(await startTestApp(kind, env, rateLimits));
}

/** Listens with `test`'s app on a free loopback port (two processes on one database: one each). */
export async function listenOn(test: TestApp): Promise<ListeningApp> {
  // The server of src/server.ts, with its answers to requests Node or @hono/node-server refuse.
  const server = createAppServer(test.app.fetch, {
    errorsUrl: `${test.config.publicUrl}/errors`,
    hostname: '127.0.0.1',
    sendTimeoutSeconds: test.config.sendTimeoutSeconds,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const send = (key: string, method: string, path: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = { 'x-api-key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // Node's fetch opens as many connections to one origin as there are requests in flight.
    return fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    ...test,
    url,
    send,
    stopListening,
    close: async () => {
      await stopListening();
      await test.close();
    },
  };
}
