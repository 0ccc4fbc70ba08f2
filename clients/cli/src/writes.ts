// Carrying out a review: new fields created, changed ones PATCHed with If-Match (with --update), fields only in
// Akker deleted (with --delete-missing), and the year's cultivation added where planned. Every write carries an
// Idempotency-Key from idempotency.ts; what Akker refuses is written down with its reason, and the run goes on.
import type { components } from '@akker/client';
import type { FieldFeature } from './akker-reads.js';
import type { Connection } from './connection.js';
import type { CropPlan } from './crop-plan.js';
import { idempotencyKey } from './idempotency.js';
import { runPooled } from './pool.js';
import type { Progress } from './progress.js';
import type { Review, Reviewed } from './review.js';

type FieldCreate = components['schemas']['FieldCreate'];
type FieldUpdate = components['schemas']['FieldUpdate'];

export interface WriteOptions {
  farmId: string;
  contentHash: string;
  update: boolean;
  deleteMissing: boolean;
}

export interface Outcomes {
  created: number;
  updated: number;
  deleted: number;
  cultivationsAdded: number;
  /** Per feature (or field only in Akker), what Akker refused and why. */
  refused: Array<{ what: string; reason: string }>;
}

/** Requests in flight at once. */
const CONCURRENCY = 4;

interface Answer {
  error?: unknown;
  response: Response;
}

const reasonOf = ({ error, response }: Answer): string => {
  const problem = error as components['schemas']['Problem'] | undefined;
  return `${response.status} ${problem?.detail ?? response.statusText}`;
};

/** The part of a parcel a field stores, as the API takes it; the API judges the acquiring method the file gives. */
function fieldBody(entry: Reviewed & { status: 'new' | 'changed' | 'unchanged' }): FieldCreate {
  const { parcel } = entry;
  return {
    b_name: parcel.name,
    b_id_source: parcel.sourceId,
    b_start: parcel.start,
    ...(parcel.end === undefined ? {} : { b_end: parcel.end }),
    ...(parcel.acquiringMethod === undefined ? {} : { b_acquiring_method: parcel.acquiringMethod as FieldCreate['b_acquiring_method'] }),
    b_geometry: parcel.outline,
  };
}

export async function carryOut(
  connection: Connection,
  review: Review,
  crops: CropPlan[],
  options: WriteOptions,
  progress: Progress,
): Promise<Outcomes> {
  const outcomes: Outcomes = { created: 0, updated: 0, deleted: 0, cultivationsAdded: 0, refused: [] };
  const { json } = connection;
  const headers = (feature: number | string, action: string, body?: unknown) => ({
    'Idempotency-Key': idempotencyKey({ contentHash: options.contentHash, farmId: options.farmId, feature, action, body }),
  });

  /** The field's ETag, for If-Match; undefined (and refused) when it cannot be read. */
  async function etagOf(fieldId: string, what: string): Promise<string | undefined> {
    const answer = await json.GET('/api/fields/{b_id}', { signal: connection.signal, params: { path: { b_id: fieldId } } });
    const etag = answer.response.headers.get('etag');
    if (answer.error !== undefined || etag === null) outcomes.refused.push({ what, reason: reasonOf(answer) });
    return answer.error === undefined && etag !== null ? etag : undefined;
  }

  async function createField(entry: Reviewed & { status: 'new' }, what: string): Promise<string | undefined> {
    const body = fieldBody(entry);
    const answer = await json.POST('/api/farms/{b_id_farm}/fields', {
      signal: connection.signal,
      params: { path: { b_id_farm: options.farmId } },
      body,
      headers: headers(entry.parcel.feature, 'create field', body),
    });
    if (!answer.data) return void outcomes.refused.push({ what, reason: reasonOf(answer) });
    if (answer.response.headers.get('idempotent-replayed') === 'true') {
      const still = await json.GET('/api/fields/{b_id}', { signal: connection.signal, params: { path: { b_id: answer.data.b_id } } });
      if (still.response.status === 404) {
        const reason =
          'a run of this same file created this field in the last 24 hours and it was deleted since; Akker answers that creation again, so import it once that day has passed';
        return void outcomes.refused.push({ what, reason });
      }
    }
    outcomes.created++;
    return answer.data.b_id;
  }

  async function updateField(entry: Extract<Reviewed, { status: 'changed' | 'unchanged' }>, what: string) {
    const etag = await etagOf(entry.field.id, what);
    if (etag === undefined) return;
    const all = fieldBody(entry);
    const body: FieldUpdate = Object.fromEntries(entry.differences.map((member) => [member, all[member]]));
    const answer = await json.PATCH('/api/fields/{b_id}', {
      signal: connection.signal,
      params: { path: { b_id: entry.field.id } },
      body,
      headers: { ...headers(entry.parcel.feature, 'update field', body), 'If-Match': etag },
    });
    if (answer.data) outcomes.updated++;
    else outcomes.refused.push({ what, reason: reasonOf(answer) });
  }

  async function addCultivation(fieldId: string, feature: number, crop: CropPlan & { state: 'add' }, what: string) {
    const body = { b_lu_catalogue: crop.code, b_lu_start: crop.start };
    const answer = await json.POST('/api/fields/{b_id}/cultivations', {
      signal: connection.signal,
      params: { path: { b_id: fieldId } },
      body,
      headers: headers(feature, `add cultivation ${crop.start}`, body),
    });
    if (answer.data) outcomes.cultivationsAdded++;
    else outcomes.refused.push({ what: `${what}, its cultivation ${crop.code}`, reason: reasonOf(answer) });
  }

  async function deleteField(field: FieldFeature) {
    const what = `field ${field.properties.b_name} (${field.id}), only in Akker`;
    const etag = await etagOf(field.id, what);
    if (etag === undefined) return;
    const answer = await json.DELETE('/api/fields/{b_id}', {
      signal: connection.signal,
      params: { path: { b_id: field.id } },
      headers: { ...headers(field.id, 'delete field'), 'If-Match': etag },
    });
    if (answer.response.ok) outcomes.deleted++;
    else outcomes.refused.push({ what, reason: reasonOf(answer) });
  }

  async function apply(index: number) {
    const entry = review.parcels[index]!;
    const crop = crops[index]!;
    const what = `feature ${entry.parcel.feature} (${entry.parcel.name})`;
    let fieldId: string | undefined;
    if (entry.status === 'new') fieldId = await createField(entry, what);
    else if (entry.status !== 'refused') {
      fieldId = entry.field.id;
      if (entry.status === 'changed' && options.update) await updateField(entry, what);
    }
    if (fieldId !== undefined && crop.state === 'add') await addCultivation(fieldId, entry.parcel.feature, crop, what);
  }

  const writes = review.parcels
    .map((entry, index) => ({ entry, index }))
    .filter(
      ({ entry, index }) => entry.status === 'new' || crops[index]!.state === 'add' || (entry.status === 'changed' && options.update),
    );
  const deletions = options.deleteMissing ? review.onlyInAkker : [];
  progress.start(writes.length + deletions.length);
  try {
    await runPooled(writes, CONCURRENCY, async ({ index }) => {
      await apply(index);
      progress.advance();
    });
    await runPooled(deletions, CONCURRENCY, async (field) => {
      await deleteField(field);
      progress.advance();
    });
  } finally {
    progress.stop();
  }
  return outcomes;
}
