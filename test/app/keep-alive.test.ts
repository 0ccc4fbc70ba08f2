// A kept-alive connection stays usable after an answer that leaves the request body unread (413, 401,
// 415): the next request on it is answered even when its own body comes late. Before body-limit.ts,
// the server's drain of the unread body stalled and destroyed the socket 500 ms later, mid-request.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateDataDir } from '../helpers/databases.js';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const FIVE_MIB = 5 * 1024 * 1024;

let server: ServerProcess;
let key: string;

beforeAll(async () => {
  server = await startServerProcess({ DATA_DIR: await templateDataDir() });
  key = await signUpOver(server.url, 'keep-alive@example.org');
}, 60_000);
afterAll(() => killLeftoverServers());

interface Exchange {
  headers: Record<string, string>;
  body: Buffer;
  /** Sent in 1 MiB chunks without a Content-Length. */
  chunked?: boolean;
  /** The headers go out at once, the body this much later. */
  bodyDelayMs?: number;
}

/** POST /api/farms over `agent`; settles on the answer, or fails when the connection closes without one. */
function post(agent: Agent, exchange: Exchange): Promise<{ status: number; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const headers = { ...exchange.headers, ...(exchange.chunked ? {} : { 'content-length': String(exchange.body.length) }) };
    const call = request(`${server.url}/api/farms`, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      // Settled once the body is out too: Node's client keeps a connection only for a request sent in full.
      const answered = new Promise((ended) => response.on('end', ended));
      const sent = new Promise((finished) => (call.writableFinished ? finished(undefined) : call.on('finish', finished)));
      void Promise.all([answered, sent]).then(() => resolve({ status: response.statusCode!, reusedSocket: call.reusedSocket }));
      response.on('aborted', () => reject(new Error('the answer was cut off')));
    });
    // The server may answer before it has read the body; the body still goes out in full.
    call.on('error', (error) => reject(new Error(`the connection failed before an answer: ${error.message}`)));
    const sendBody = () => {
      if (!exchange.chunked) return call.end(exchange.body);
      for (let offset = 0; offset < exchange.body.length; offset += 1024 * 1024)
        call.write(exchange.body.subarray(offset, offset + 1024 * 1024));
      call.end();
    };
    if (exchange.bodyDelayMs === undefined) return sendBody();
    call.flushHeaders();
    setTimeout(sendBody, exchange.bodyDelayMs);
  });
}

const farmBody = (size: number) => {
  const head = '{"b_name_farm":"';
  return Buffer.from(head + 'a'.repeat(size - head.length - 2) + '"}');
};

describe('a kept-alive connection after a body left unread', () => {
  const json = () => ({ 'content-type': 'application/json', 'x-api-key': key });
  // Functions: the key exists only once beforeAll has run.
  const unread: [string, number, () => Exchange][] = [
    ['413, declared length', 413, () => ({ headers: json(), body: farmBody(FIVE_MIB + 1) })],
    // Refused at 5 MiB, with 3 MiB still to come.
    ['413, chunked', 413, () => ({ headers: json(), body: farmBody(FIVE_MIB + 3 * 1024 * 1024), chunked: true })],
    // Within the 64 KiB a farm's body may have, so that it gets past the size check.
    ['401 with a body', 401, () => ({ headers: { ...json(), 'x-api-key': 'akk_unknown' }, body: farmBody(60 * 1024) })],
    ['415 with a body', 415, () => ({ headers: { ...json(), 'content-type': 'text/plain' }, body: farmBody(60 * 1024) })],
  ];

  it.each(unread)('carries the next request after a %s', async (_, status, first) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await post(agent, first())).status).toBe(status);
      // Longer than the 500 ms after which the server used to give up on the unread body.
      const next = await post(agent, { headers: json(), body: farmBody(100), bodyDelayMs: 1000 });
      expect(next).toEqual({ status: 201, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  });
});
