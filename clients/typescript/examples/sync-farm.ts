// Keeps a copy of a farm in step with Akker through its change feed: the first run reads the whole farm,
// every later run fetches only what changed since the last (and reads afresh when the feed no longer
// reaches back that far).
//
//   AKKER_URL=http://127.0.0.1:3000 AKKER_KEY=akk_… npx tsx clients/typescript/examples/sync-farm.ts <b_id_farm> [copy.json]
//
// The copy (default: farm-<b_id_farm>.json) holds every record of the farm as `GET` of that record
// answers it, by type and id, and the feed's cursor. Roles on the farm (`member` entries) are not copied.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AkkerError, createAkkerClient, eachItem, type AkkerClient, type components } from '../src/index.js';

type Change = components['schemas']['Change'];
/** The kinds of record the copy holds. */
export type RecordType = Exclude<Change['type'], 'member'>;
export const recordTypes: RecordType[] = [
  'farm',
  'field',
  'cultivation',
  'harvest',
  'soil_analysis',
  'fertilizer',
  'fertilizer_application',
  'derogation',
  'grazing_intention',
  'organic_certification',
];

export interface FarmCopy {
  farmId: string;
  /** The feed's `next` as of the copy. */
  cursor: string;
  records: Record<RecordType, Record<string, unknown>>;
}

/** The data of a call, or an AkkerError for its error answer. */
function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new AkkerError(result.response, result.error);
  return result.data;
}

/** One record as its GET answers it; undefined when it is gone (a tombstone later in the feed says so too). */
async function fetchRecord(akker: AkkerClient, farmId: string, type: RecordType, id: string): Promise<unknown> {
  // A farm's derogations and grazing intentions are named by their year and read from the farm's lists.
  if (type === 'derogation' || type === 'grazing_intention') return yearRecord(akker, farmId, type, id);
  const result = await (() => {
    switch (type) {
      case 'farm':
        return akker.GET('/api/farms/{b_id_farm}', { params: { path: { b_id_farm: id } } });
      case 'field':
        return akker.GET('/api/fields/{b_id}', { params: { path: { b_id: id } } });
      case 'cultivation':
        return akker.GET('/api/cultivations/{b_lu}', { params: { path: { b_lu: id } } });
      case 'harvest':
        return akker.GET('/api/harvests/{b_id_harvesting}', { params: { path: { b_id_harvesting: id } } });
      case 'soil_analysis':
        return akker.GET('/api/soil-analyses/{a_id}', { params: { path: { a_id: id } } });
      case 'fertilizer':
        return akker.GET('/api/fertilizers/{p_id}', { params: { path: { p_id: id } } });
      case 'fertilizer_application':
        return akker.GET('/api/fertilizer-applications/{p_app_id}', { params: { path: { p_app_id: id } } });
      case 'organic_certification':
        return akker.GET('/api/organic-certifications/{b_id_organic}', { params: { path: { b_id_organic: id } } });
    }
  })();
  if (result.response.status === 404) return undefined;
  return dataOf<unknown>(result);
}

/** The farm's derogation or grazing intention of a year (the feed's id), from the farm's list; undefined when gone. */
async function yearRecord(akker: AkkerClient, farmId: string, type: 'derogation' | 'grazing_intention', id: string): Promise<unknown> {
  const farm = (query: { limit: number; offset: number }) => ({ params: { path: { b_id_farm: farmId }, query } });
  if (type === 'derogation') {
    for await (const derogation of eachItem((query) => akker.GET('/api/farms/{b_id_farm}/derogations', farm(query))))
      if (String(derogation.b_derogation_year) === id) return derogation;
  } else {
    for await (const intention of eachItem((query) => akker.GET('/api/farms/{b_id_farm}/grazing-intentions', farm(query))))
      if (String(intention.b_grazing_intention_year) === id) return intention;
  }
  return undefined;
}

/** The cursor at the end of the feed now: entries after it are the changes still to come. */
async function endOfFeed(akker: AkkerClient, farmId: string): Promise<string> {
  let after: string | undefined;
  for (;;) {
    const page = dataOf(
      await akker.GET('/api/farms/{b_id_farm}/changes', { params: { path: { b_id_farm: farmId }, query: { after, limit: 200 } } }),
    );
    after = page.next;
    if (!page.has_more) return after;
  }
}

/**
 * The whole farm, read afresh: the feed's end is taken first, so whatever changes while the farm is
 * read is in the feed after it, and the next pull fetches it again.
 */
export async function readFarm(akker: AkkerClient, farmId: string): Promise<FarmCopy> {
  const cursor = await endOfFeed(akker, farmId);
  const ids: Record<RecordType, string[]> = {
    farm: [farmId],
    field: [],
    cultivation: [],
    harvest: [],
    soil_analysis: [],
    fertilizer: [],
    fertilizer_application: [],
    derogation: [],
    grazing_intention: [],
    organic_certification: [],
  };
  const farm = { params: { path: { b_id_farm: farmId } } };
  for await (const field of eachItem((query) => akker.GET('/api/farms/{b_id_farm}/fields', { params: { ...farm.params, query } }))) {
    ids.field.push(field.b_id);
    const ofField = (query: { limit: number; offset: number }) => ({ params: { path: { b_id: field.b_id }, query } });
    for await (const cultivation of eachItem((query) => akker.GET('/api/fields/{b_id}/cultivations', ofField(query)))) {
      ids.cultivation.push(cultivation.b_lu);
      const ofCultivation = { path: { b_lu: cultivation.b_lu } };
      for await (const harvest of eachItem((query) =>
        akker.GET('/api/cultivations/{b_lu}/harvests', { params: { ...ofCultivation, query } }),
      ))
        ids.harvest.push(harvest.b_id_harvesting);
    }
    for await (const analysis of eachItem((query) => akker.GET('/api/fields/{b_id}/soil-analyses', ofField(query))))
      ids.soil_analysis.push(analysis.a_id);
    for await (const application of eachItem((query) => akker.GET('/api/fields/{b_id}/fertilizer-applications', ofField(query))))
      ids.fertilizer_application.push(application.p_app_id);
  }
  for await (const fertilizer of eachItem((query) =>
    akker.GET('/api/farms/{b_id_farm}/fertilizers', { params: { ...farm.params, query } }),
  ))
    ids.fertilizer.push(fertilizer.p_id);
  const ofFarm = (query: { limit: number; offset: number }) => ({ params: { ...farm.params, query } });
  for await (const derogation of eachItem((query) => akker.GET('/api/farms/{b_id_farm}/derogations', ofFarm(query))))
    ids.derogation.push(String(derogation.b_derogation_year));
  for await (const intention of eachItem((query) => akker.GET('/api/farms/{b_id_farm}/grazing-intentions', ofFarm(query))))
    ids.grazing_intention.push(String(intention.b_grazing_intention_year));
  for await (const certification of eachItem((query) => akker.GET('/api/farms/{b_id_farm}/organic-certifications', ofFarm(query))))
    ids.organic_certification.push(certification.b_id_organic);

  const copy: FarmCopy = { farmId, cursor, records: emptyRecords() };
  for (const type of recordTypes) {
    for (const id of ids[type]) {
      const record = await fetchRecord(akker, farmId, type, id);
      if (record !== undefined) copy.records[type][id] = record;
    }
  }
  return copy;
}

const emptyRecords = (): FarmCopy['records'] => Object.fromEntries(recordTypes.map((type) => [type, {}])) as FarmCopy['records'];

const isCopied = (type: Change['type']): type is RecordType => type !== 'member';

/**
 * Applies the feed after `copy.cursor` to the copy, page by page, and moves the cursor on: a create or
 * update fetches the record as it is now, a delete drops every record its tombstone lists. Answers how
 * many entries it applied. A cursor the feed no longer reaches (410 cursor-expired) throws AkkerError.
 */
export async function pullChanges(akker: AkkerClient, copy: FarmCopy): Promise<number> {
  let applied = 0;
  for (;;) {
    const page = dataOf(
      await akker.GET('/api/farms/{b_id_farm}/changes', {
        params: { path: { b_id_farm: copy.farmId }, query: { after: copy.cursor, limit: 200 } },
      }),
    );
    for (const change of page.data) {
      if (change.action === 'delete') {
        for (const type of recordTypes) for (const id of change.removed?.[type] ?? []) delete copy.records[type][id];
      } else if (isCopied(change.type)) {
        const record = await fetchRecord(akker, copy.farmId, change.type, change.id);
        if (record === undefined) delete copy.records[change.type][change.id];
        else copy.records[change.type][change.id] = record;
      }
      applied++;
    }
    copy.cursor = page.next;
    if (!page.has_more) return applied;
  }
}

/** Brings `copy` up to date, or reads the farm afresh when there is none or its cursor has expired. */
export async function syncFarm(akker: AkkerClient, farmId: string, copy: FarmCopy | undefined): Promise<FarmCopy> {
  if (copy === undefined) return readFarm(akker, farmId);
  try {
    await pullChanges(akker, copy);
    return copy;
  } catch (error) {
    if (error instanceof AkkerError && error.status === 410) return readFarm(akker, farmId);
    throw error;
  }
}

async function main(): Promise<void> {
  const [farmId, file = `farm-${farmId}.json`] = process.argv.slice(2);
  const { AKKER_URL: baseUrl, AKKER_KEY: apiKey } = process.env;
  if (farmId === undefined || baseUrl === undefined || apiKey === undefined) {
    console.error('usage: AKKER_URL=… AKKER_KEY=… sync-farm.ts <b_id_farm> [copy.json]');
    process.exit(2);
  }
  const akker = createAkkerClient({ baseUrl, apiKey });
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FarmCopy) : undefined;
  const copy = await syncFarm(akker, farmId, before);
  writeFileSync(file, JSON.stringify(copy, null, 2));
  const counts = recordTypes.map((type) => `${Object.keys(copy.records[type]).length} ${type}`).join(', ');
  console.log(`${file}: ${counts}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
