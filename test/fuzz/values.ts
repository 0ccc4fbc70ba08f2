// Values generated from a JSON Schema: ones that fit it, and ones that break it in the ways a schema allows.
import { resolve, type OpenApiDocument, type Schema } from './openapi.js';
import type { Random } from './random.js';

export interface ValueContext {
  doc: OpenApiDocument;
  random: Random;
  /** A realistic value for a property of this name (an id that exists, a catalogue code), if the world has one. */
  hint(property: string): unknown;
}

/**
 * Text put into the JSON text as it is: a number JSON.stringify cannot write (1e400, -0),
 * or nesting too deep for JSON.stringify to walk.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with every RawJson written as its text. */
export function toJsonText(value: unknown): string {
  const texts: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawJson ? `\u0001raw:${texts.push(v.text) - 1}` : v)) ?? '';
  if (texts.length === 0) return text;
  return text.replace(/"\\u0001raw:(\d+)"/g, (_, index: string) => texts[Number(index)]!);
}

const raw = (text: string) => new RawJson(text);
export const nestedArrays = (depth: number) => raw('['.repeat(depth) + ']'.repeat(depth));
export const nestedObjects = (depth: number) => raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** The one schema `allOf` stands for (Akker's documents only combine object schemas). */
function merged(ctx: ValueContext, schemas: Schema[]): Schema {
  const parts = schemas.map((s) => flatten(ctx, s));
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
}

/** The schema with its `$ref` followed and its `allOf` merged. */
export function flatten(ctx: ValueContext, schema: Schema): Schema {
  const resolved = resolve(ctx.doc, schema);
  return resolved.allOf ? merged(ctx, resolved.allOf) : resolved;
}

const typesOf = (schema: Schema): string[] => {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  return [];
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function randomDate(random: Random): string {
  return `${random.int(2015, 2030)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`;
}

function validString(ctx: ValueContext, schema: Schema): string {
  const { random } = ctx;
  if (schema.format === 'date') return randomDate(random);
  if (schema.format === 'date-time') return new Date(Date.now() + random.int(1, 3650) * 86_400_000).toISOString();
  if (schema.format === 'email') return `fuzz-${random.string(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}@example.org`;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? min + 40;
  // At the edges sometimes: the shortest and the longest string the schema allows.
  const length = random.chance(0.1) ? max : random.chance(0.1) ? min : random.int(min, Math.min(max, min + 30));
  return random.string(Math.max(length, min));
}

function validNumber(ctx: ValueContext, schema: Schema, integer: boolean): number {
  const { random } = ctx;
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
  if (random.chance(0.1)) return min;
  if (random.chance(0.1)) return max;
  const value = min + random.next() * (max - min);
  return integer ? Math.round(value) : Math.round(value * 1000) / 1000;
}

/** Any JSON value, for a schema that says nothing (`{}`). */
export function anyJson(random: Random, depth = 0): unknown {
  const kind = random.int(0, depth > 2 ? 3 : 5);
  if (kind === 0) return null;
  if (kind === 1) return random.chance(0.5);
  if (kind === 2) return random.int(-1000, 1000) / random.pick([1, 10, 1000]);
  if (kind === 3) return random.string(random.int(0, 8));
  if (kind === 4) return Array.from({ length: random.int(0, 4) }, () => anyJson(random, depth + 1));
  return Object.fromEntries(Array.from({ length: random.int(0, 3) }, () => [random.string(3), anyJson(random, depth + 1)]));
}

/** A value that fits `schema` (as far as a schema can say; cross-field rules are the server's to find). */
export function validValue(ctx: ValueContext, schema: Schema, property?: string): unknown {
  const { random } = ctx;
  const s = flatten(ctx, schema);
  if (property !== undefined) {
    const hinted = ctx.hint(property);
    if (hinted !== undefined && random.chance(0.8)) return hinted;
  }
  const choices = s.anyOf ?? s.oneOf;
  if (choices) return validValue(ctx, random.pick(choices), property);
  if ('const' in s) return s.const;
  if (s.enum) return random.pick(s.enum);
  if (s.example !== undefined && random.chance(0.3)) return structuredClone(s.example);
  const types = typesOf(s);
  if (types.length === 0) return anyJson(random);
  const nonNull = types.filter((t) => t !== 'null');
  const type = nonNull.length === 0 || (types.includes('null') && random.chance(0.15)) ? 'null' : random.pick(nonNull);
  switch (type) {
    case 'null':
      return null;
    case 'string':
      return validString(ctx, s);
    case 'number':
    case 'integer':
      return validNumber(ctx, s, type === 'integer');
    case 'boolean':
      return random.chance(0.5);
    case 'array': {
      if (s.prefixItems) return s.prefixItems.map((item) => validValue(ctx, item));
      const min = s.minItems ?? 0;
      const length = random.int(min, Math.min(s.maxItems ?? min + 3, min + 3));
      return Array.from({ length }, () => (s.items ? validValue(ctx, s.items) : anyJson(random)));
    }
    default:
      return validObject(ctx, s);
  }
}

function validObject(ctx: ValueContext, schema: Schema): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const object: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (required.has(name) || ctx.random.chance(0.5)) object[name] = validValue(ctx, property, name);
  }
  return object;
}

// Strings that are well-formed JSON but odd for a database or a parser.
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'nul\u0000in the middle',
  '\ud800',
  'lone \udfff surrogate',
  '🌾🚜🐄'.repeat(20),
  'e\u0301\u0301\u0301',
  '\u202eRTL override',
  '\u2028\u2029',
  '\ufeffbom',
  'ＡＫＫＥＲ',
  "'; drop table farms; --",
  '<script>alert(1)</script>',
  '%s%n%x',
  '../../etc/passwd',
  '\\',
  '%_',
  'null',
  'true',
  '1e999',
  '\t\r\n',
  'Ω'.repeat(250),
];

export const BAD_DATES = [
  '2025-02-30',
  '2025-02-29',
  '2025-13-01',
  '2025-00-10',
  '2025-04-31',
  '0000-01-01',
  '-0001-01-01',
  '10000-01-01',
  '99999-12-31',
  '2025-1-1',
  '25-01-01',
  '2025/01/01',
  '20250101',
  '2025-01-01T00:00:00Z',
  '2025-01-01 ',
  ' 2025-01-01',
  'yesterday',
  '',
  '２０２５-０１-０１',
];

/** Dates the calendar has, at the edges of what a database stores. */
export const EDGE_DATES = ['0001-01-01', '1970-01-01', '2000-02-29', '2024-02-29', '9999-12-31', '2025-12-31'];

const BEYOND_NUMBERS = ['1e400', '-1e400', '-0', '1e-400', '123456789012345678901234567890', '0.1e1', '1E2'];

/** A value of another JSON type than `schema` allows. */
function otherType(ctx: ValueContext, schema: Schema): unknown {
  const types = typesOf(schema);
  const candidates: unknown[] = [42, -1.5, 'text', true, false, [], [1, 'a'], {}, { nested: { deeper: 1 } }];
  const fits = (value: unknown) => {
    const t = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
    return types.includes(t) || (t === 'number' && types.includes('integer'));
  };
  const others = candidates.filter((value) => !fits(value));
  return others.length ? ctx.random.pick(others) : ctx.random.pick(candidates);
}

/** A value that `schema` refuses, or one at or past its limits. Returns a label for the failure report too. */
export function brokenValue(ctx: ValueContext, schema: Schema): { label: string; value: unknown } {
  const { random } = ctx;
  const s = flatten(ctx, schema);
  const types = typesOf(s);
  const options: Array<() => { label: string; value: unknown }> = [
    () => ({ label: 'wrong type', value: otherType(ctx, s) }),
    () => ({ label: 'null', value: null }),
    () => ({ label: 'odd string', value: random.pick(ODD_STRINGS) }),
    () => ({
      label: 'deep nesting',
      value: random.chance(0.5) ? nestedArrays(random.pick([64, 1000, 20_000])) : nestedObjects(random.pick([64, 1000, 20_000])),
    }),
  ];
  if (types.includes('string')) {
    const max = s.maxLength ?? 200;
    options.push(
      () => ({ label: 'string one past maxLength', value: 'x'.repeat(max + 1) }),
      () => ({ label: 'string at maxLength in emoji', value: '🌾'.repeat(Math.ceil(max / 2)) }),
      () => ({ label: 'huge string', value: 'h'.repeat(random.pick([100_000, 1_000_000])) }),
    );
    if (s.format === 'date') options.push(() => ({ label: 'bad date', value: random.pick([...BAD_DATES, ...EDGE_DATES]) }));
    if (s.format === 'date-time')
      options.push(() => ({
        label: 'bad date-time',
        value: random.pick(['2025-02-30T00:00:00Z', '2020-01-01T00:00:00Z', 'now', '2030-01-01', '+275760-09-13T00:00:00Z']),
      }));
    if (s.format === 'email')
      options.push(() => ({
        label: 'bad email',
        value: random.pick(['no-at-sign', '@example.org', 'a@', 'a@b', 'ü@ö.de', `${'a'.repeat(250)}@example.org`]),
      }));
  }
  if (types.includes('number') || types.includes('integer')) {
    options.push(
      () => ({ label: 'number at minimum', value: s.minimum ?? 0 }),
      () => ({ label: 'number at maximum', value: s.maximum ?? Number.MAX_SAFE_INTEGER }),
      () => ({ label: 'number below minimum', value: (s.minimum ?? 0) - random.pick([1, 1e-9]) }),
      () => ({ label: 'number above maximum', value: (s.maximum ?? Number.MAX_SAFE_INTEGER) + random.pick([1, 1e-9]) }),
      () => ({ label: 'extreme number', value: random.pick([1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2]) }),
      () => ({ label: 'number JSON.stringify cannot write', value: raw(random.pick(BEYOND_NUMBERS)) }),
      () => ({ label: 'number as string', value: String(s.minimum ?? 1) }),
    );
  }
  if (s.enum)
    options.push(() => ({
      label: 'value outside enum',
      value: random.pick([...s.enum!.filter((v) => typeof v === 'string').map((v) => (v as string).toUpperCase()), 'unknown-value', 0]),
    }));
  if (types.includes('array'))
    options.push(() => ({ label: 'huge array', value: Array.from({ length: random.pick([1000, 20_000]) }, (_, i) => i) }));
  return random.pick(options)();
}
