// A kind of record as the API names it. Its words ('soil analysis', 'soil analyses') give the names of
// the OpenAPI document by one rule: the type name SoilAnalysis, the tag 'Soil analyses', the paths
// /api/soil-analyses/{a_id} and /api/fields/{b_id}/soil-analyses, the page schema SoilAnalysisPage.
import type { z } from '@hono/zod-openapi';
import type { ResourceKind } from '../access/roles.js';
import { idParams } from '../http/route-helpers.js';

const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** 'soil analysis' → 'SoilAnalysis': a schema's or an operation's name. */
const typeName = (words: string) => words.split(' ').map(capitalized).join('');

/** A path parameter that names a record, with its schema. */
export interface PathId<K extends string> {
  name: K;
  params: ReturnType<typeof idParams<K>>;
}

export const pathId = <K extends string>(name: K, description: string): PathId<K> => ({ name, params: idParams(name, description) });

/** What a kind of record is called. */
interface Words {
  /** One: 'soil analysis'. */
  kind: string;
  /** Several: 'soil analyses'. */
  plural: string;
  /** The tag of its operations; by default its plural, capitalized. */
  tags?: string[];
  /** How the responses call one and several, where not by kind and plural: ['application', 'applications']. */
  said?: [string, string];
  /** The page schema's name; by default the type name and Page. */
  page?: string;
}

/** The names a kind of record gives the document. */
export interface Names {
  tags: string[];
  /** SoilAnalysis, as in getSoilAnalysis. */
  type: string;
  /** SoilAnalyses, as in listSoilAnalysesOfField. */
  types: string;
  /** 'soil analysis' and 'soil analyses', as in 'The soil analysis.' and 'One page of soil analyses.' */
  one: string;
  many: string;
  page: string;
}

/** A record that others are listed and created under (a farm, a field, a cultivation). */
export interface Parent<P extends string> {
  kind: ResourceKind;
  id: PathId<P>;
  path: string;
  names: Names;
}

/** Records of one kind under a parent: what their list (and creation) needs. */
export interface Listed<P extends string, T> {
  names: Names;
  parent: Parent<P>;
  /** Where they are listed and created: the parent's path and the plural, /api/fields/{b_id}/soil-analyses. */
  listPath: string;
  schema: z.ZodType<T>;
}

/** A record that has a path of its own, where it is read, changed and deleted. */
export interface RecordResource<K extends string, T extends Record<K, string>> {
  kind: ResourceKind;
  names: Names;
  id: PathId<K>;
  /** The record's path, ending in its identifier: /api/soil-analyses/{a_id}. */
  path: string;
  /** Where records of this kind are listed and created: /api/farms, or under its parent. */
  listPath: string;
  schema: z.ZodType<T>;
}

const segment = (words: string) => words.replaceAll(' ', '-');

function names({ kind, plural, tags, said = [kind, plural], page }: Words): Names {
  const type = typeName(kind);
  return { tags: tags ?? [capitalized(plural)], type, types: typeName(plural), one: said[0], many: said[1], page: page ?? `${type}Page` };
}

/** Records listed under a parent that have no path of their own (a farm's derogations, by year). */
export function recordList<P extends string, T, N extends string>(
  spec: Words & { kind: N; parent: Parent<P>; schema: z.ZodType<T> },
): Listed<P, T> & { kind: N } {
  const { kind, parent, schema } = spec;
  return { kind, names: names(spec), parent, listPath: `${parent.path}/${segment(spec.plural)}`, schema };
}

interface ResourceSpec<K extends string, T> extends Words {
  kind: ResourceKind;
  /** The identifier's name, described as '<Kind> identifier.', or a PathId that says otherwise. */
  id: K | PathId<K>;
  schema: z.ZodType<T>;
}

/** A kind of record with a path of its own, listed and created under its parent where it has one. */
export function recordResource<K extends string, T extends Record<K, string>, P extends string>(
  spec: ResourceSpec<K, T> & { parent: Parent<P> },
): RecordResource<K, T> & Listed<P, T>;
export function recordResource<K extends string, T extends Record<K, string>>(spec: ResourceSpec<K, T>): RecordResource<K, T>;
export function recordResource<K extends string, T extends Record<K, string>, P extends string>(
  spec: ResourceSpec<K, T> & { parent?: Parent<P> },
): RecordResource<K, T> | (RecordResource<K, T> & Listed<P, T>) {
  const resource = { kind: spec.kind, names: names(spec), schema: spec.schema };
  const id = typeof spec.id === 'string' ? pathId(spec.id, `${capitalized(resource.names.one)} identifier.`) : spec.id;
  const { parent } = spec;
  const listPath = `${parent ? parent.path : '/api'}/${segment(spec.plural)}`;
  const own = { ...resource, id, path: `/api/${segment(spec.plural)}/{${id.name}}`, listPath };
  return parent ? { ...own, parent } : own;
}
