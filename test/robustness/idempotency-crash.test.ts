// An idempotent POST whose server is killed (SIGKILL) at any moment, round after round, on one data folder
// or database: whenever the write was committed, its stored response was committed with it, so the retry
// after the restart replays it and never makes a second record (docs/api.md, Idempotency-Key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { embeddedData, postgresData, type StoredData } from './stored-data.js';

// Rounds run until this much time has passed, a server start each: six or more on the embedded database
// (a start recovers it), fifteen or more on PostgreSQL.
const ROUNDS_FOR_MS = 20_000;
const MIN_ROUNDS = 6;
// A field answered with ~250 KB of geometry: storing its response takes a few milliseconds of its own.
const RING_POSITIONS = 8_000;

const storages: Array<StoredData['kind']> = ['pglite', 'postgres'];

afterAll(killLeftoverServers);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A closed ring of `positions` around (5, 52). */
function circle(positions: number) {
  const ring = Array.from({ length: positions - 1 }, (_, i) => {
    const angle = (2 * Math.PI * i) / (positions - 1);
    return [Number((5 + 0.002 * Math.cos(angle)).toFixed(7)), Number((52 + 0.0013 * Math.sin(angle)).toFixed(7))];
  });
  return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
}

interface Session {
  server: ServerProcess;
  key: string;
}

const send = (session: Session, method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${session.server.url}${path}`, {
    method,
    body,
    headers: { 'x-api-key': session.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
  });

async function fieldIdsNamed(session: Session, farm: string, name: string): Promise<string[]> {
  const response = await send(session, 'GET', `/api/farms/${farm}/fields`);
  const page = (await response.json()) as { data: Array<{ b_id: string; b_name: string }> };
  return page.data.filter((field) => field.b_name === name).map((field) => field.b_id);
}

/** A new farm, and the cursor of its change feed as it starts. */
async function newFarm(session: Session): Promise<{ farm: string; cursor: string }> {
  const response = await send(session, 'POST', '/api/farms', JSON.stringify({ b_name_farm: 'Crash' }));
  const farm = ((await response.json()) as { b_id_farm: string }).b_id_farm;
  const feed = (await (await send(session, 'GET', `/api/farms/${farm}/changes`)).json()) as { next: string };
  return { farm, cursor: feed.next };
}

/**
 * Resolves as soon as the farm has a field: the write has committed. PostgreSQL is asked directly; the
 * embedded database through the server's change feed after `cursor`, whose reads wait for the write's
 * transaction to end.
 */
async function untilCommitted(data: StoredData, session: Session, farm: string, cursor: string, gaveUp: () => boolean): Promise<void> {
  if (data.kind === 'postgres') {
    await data.withSql(async (query) => {
      while (!gaveUp() && (await query('select 1 from fields where b_id_farm = $1', [farm])).length === 0);
    });
    return;
  }
  while (!gaveUp()) {
    const response = await send(session, 'GET', `/api/farms/${farm}/changes?after=${cursor}`).catch(() => undefined);
    if (response === undefined) return;
    const page = (await response.json()) as { data: unknown[] };
    if (page.data.length > 0) return;
  }
}

describe.each(storages)('an idempotent POST killed at any point (%s)', (kind) => {
  const available = kind === 'pglite' || process.env.TEST_DATABASE_URL !== undefined;
  let data: StoredData;

  beforeAll(async () => {
    if (available) data = kind === 'pglite' ? await embeddedData() : await postgresData(process.env.TEST_DATABASE_URL!);
  });
  afterAll(async () => data?.dispose());

  it.skipIf(!available)(
    'never commits the write without its stored response: no retry makes a second record',
    { timeout: 120_000 },
    async () => {
      let session: Session = { server: await startServerProcess(data.env), key: '' };
      session.key = await signUpOver(session.server.url, `idempotency-crash-${kind}@example.org`);
      const geometry = circle(RING_POSITIONS);
      const outcomes = { replayed: 0, takenOver: 0, ranAgain: 0 };
      // The rounds whose key was left reserved without a response: run again after the takeover bound.
      const reserved: Array<{ farm: string; name: string; body: string; idempotencyKey: string }> = [];
      const started = Date.now();
      for (let round = 0; round < MIN_ROUNDS || Date.now() - started < ROUNDS_FOR_MS; round++) {
        const name = `Round ${round}`;
        const body = JSON.stringify({ b_name: name, b_start: '2020-01-01', b_geometry: geometry });
        const idempotencyKey = `crash-${kind}-${round}`;
        // A farm per round: its list of fields stays short.
        const { farm, cursor } = await newFarm(session);
        let answered = false;
        const posted = send(session, 'POST', `/api/farms/${farm}/fields`, body, { 'idempotency-key': idempotencyKey }).then(
          () => (answered = true),
          () => undefined,
        );
        // Most rounds are killed just after the write's commit, where a response stored after it would be
        // missing; the others at a moment of chance during the request.
        if (round % 3 !== 2) await untilCommitted(data, session, farm, cursor, () => answered);
        else await sleep(Math.random() * 150);
        session.server.kill('SIGKILL');
        await session.server.exited;
        await posted;

        session = { ...session, server: await startServerProcess(data.env) };
        const written = await fieldIdsNamed(session, farm, name);
        const retry = await send(session, 'POST', `/api/farms/${farm}/fields`, body, { 'idempotency-key': idempotencyKey });
        const retried = (await retry.json()) as { b_id?: string };
        if (written.length === 1) {
          // The write is there: so is its response, which the retry replays.
          expect({ round, status: retry.status, replayed: retry.headers.get('idempotent-replayed') }).toEqual({
            round,
            status: 201,
            replayed: 'true',
          });
          expect(retried.b_id).toBe(written[0]);
          outcomes.replayed++;
        } else {
          expect(written).toEqual([]);
          // Killed before the commit: the key is still reserved (409 until the takeover bound), or was never.
          expect([409, 201]).toContain(retry.status);
          if (retry.status === 201) outcomes.ranAgain++;
          else reserved.push({ farm, name, body, idempotencyKey });
        }
        expect(await fieldIdsNamed(session, farm, name)).toHaveLength(retry.status === 409 ? 0 : 1);
      }
      session.server.kill('SIGTERM');
      await session.server.exited;

      // Eleven minutes on, the reservations are taken over: each of those requests makes its record, once.
      await data.withSql((query) =>
        query(`update idempotency_keys set reserved_at = reserved_at - interval '11 minutes' where status is null`),
      );
      session = { ...session, server: await startServerProcess(data.env) };
      for (const { farm, name, body, idempotencyKey } of reserved) {
        const retry = await send(session, 'POST', `/api/farms/${farm}/fields`, body, { 'idempotency-key': idempotencyKey });
        expect({ status: retry.status, replayed: retry.headers.get('idempotent-replayed') }).toEqual({ status: 201, replayed: null });
        expect(await fieldIdsNamed(session, farm, name)).toHaveLength(1);
        outcomes.takenOver++;
      }
      console.log(`[idempotency crash, ${kind}] ${JSON.stringify(outcomes)}`);
      expect(outcomes.replayed).toBeGreaterThan(0);
      session.server.kill('SIGTERM');
      await session.server.exited;
    },
  );
});
