// The change feed while writes to its farm overlap, over real sockets: a client that follows the feed while
// they commit misses no entry, because within a farm the entries are numbered in commit order.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFarm, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField, organicCertificationBody } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;

interface ChangePage {
  data: Array<{ action: string; type: string; id: string; updated_at: string }>;
  next: string;
  has_more: boolean;
}

describe.each(storageKinds)('change feed races (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await server.send(owner.key, method, path, body);
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };

  test(`a client following the feed while writes commit misses no entry (${ROUNDS} rounds)`, async () => {
    const farmId = (await createFarm(server.app, owner.key)).b_id_farm;
    const fields = [await createField(server.app, owner.key, farmId), await createField(server.app, owner.key, farmId)];
    const seen: ChangePage['data'] = [];
    let cursor: string | undefined;
    const poll = async () => {
      for (;;) {
        const after = cursor === undefined ? '' : `&after=${cursor}`;
        const page = (await (await send('GET', `/api/farms/${farmId}/changes?limit=200${after}`)).json()) as ChangePage;
        seen.push(...page.data);
        cursor = page.next;
        if (!page.has_more) return;
      }
    };

    for (let round = 0; round < ROUNDS; round++) {
      let writing = true;
      const writes = Promise.all([
        send('PATCH', `/api/farms/${farmId}`, { b_name_farm: `Hoeve ${round}` }),
        ...fields.map((field, i) => send('PATCH', `/api/fields/${field.b_id}`, { b_name: `Perceel ${round}.${i}` })),
        ...fields.map((field) => send('POST', `/api/fields/${field.b_id}/soil-analyses`, { a_som_loi: 3, b_sampling_date: '2025-01-15' })),
        send('POST', `/api/farms/${farmId}/fertilizers`, { p_id_catalogue: 'BAAT028' }),
        // A create in the first round, an update in every other: the intention changes each time.
        send('PUT', `/api/farms/${farmId}/grazing-intentions/2025`, { b_grazing_intention: round % 2 === 0 }),
        send('POST', `/api/farms/${farmId}/organic-certifications`, organicCertificationBody),
      ]).finally(() => {
        writing = false;
      });
      while (writing) await poll();
      await writes;
      await poll();
    }

    const all: ChangePage['data'] = [];
    for (let after = ''; ;) {
      const page = (await (await send('GET', `/api/farms/${farmId}/changes?limit=200${after}`)).json()) as ChangePage;
      all.push(...page.data);
      after = `&after=${page.next}`;
      if (!page.has_more) break;
    }
    expect(all).toHaveLength(2 + 2 + ROUNDS * 8);
    expect(seen).toEqual(all);
  }, 120_000);
});
