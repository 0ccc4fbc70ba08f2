// One generated request for an operation: valid, or broken in one way (body, query, path, key, media type, method).
import { bodyBudgetOf, type BodyBudget } from '../../src/http/body-budget.js';
import { bodySchema, type Operation, type Schema } from './openapi.js';
import type { Random } from './random.js';
import {
  anyJson,
  BAD_DATES,
  brokenValue,
  EDGE_DATES,
  flatten,
  nestedArrays,
  ODD_STRINGS,
  toJsonText,
  validValue,
  type ValueContext,
} from './values.js';
import type { World } from './world.js';

export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** What was generated or broken, for the failure report. */
  label: string;
  /** The status this kind of request must get, when its breakage decides it. */
  expectStatus?: number;
  /** A status this request must not get (an accepted media type must not be 415). */
  forbidStatus?: number;
}

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** /api needs a key (the OpenAPI document itself is not one of its operations); /auth does not. */
const needsKey = (path: string) => path.startsWith('/api/');
/** The /auth operations that act on the session of the cookie sent. */
const needsSession = (path: string) => path === '/auth/change-password' || path === '/auth/sign-out-everywhere';

const BAD_IDS = [
  'x'.repeat(10_000),
  '%2F',
  'a%2Fb',
  '%2Fapi%2Ffarms',
  '%00',
  '%',
  '%ZZ',
  '%C3%28',
  '%FF%FE',
  encodeURIComponent('🌾'),
  encodeURIComponent("' or '1'='1"),
  encodeURIComponent('<script>'),
  '%20',
  'null',
  'undefined',
  '0',
  '-1',
  '1e9',
  ';',
  '*',
  '~',
];

// Limits and offsets at and past their edges, and numbers written as JavaScript would read them.
const LIMIT_EDGES = ['0', '201', '-1', '1.5', 'abc', '', '1e3', '0x10', ' 5', '٣', '99999999999999999999', 'NaN', 'Infinity', '200', '1'];
const OFFSET_EDGES = ['-1', '1e9', '1000000000', '2147483647', '2147483648', '9007199254740993', '0.5', '', 'x', '-0'];
const REFUSED_MEDIA_TYPES = [
  'text/plain',
  'application/json ; charset=utf-8',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  'json',
  'text/json',
];
const ACCEPTED_MEDIA_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset="utf-8"',
  'application/merge-patch+json',
  'Application/JSON;Charset=UTF-8',
];

/** encodeURIComponent, but a lone surrogate (which it refuses) is sent as the bytes of its WTF-8 form: invalid UTF-8. */
function percentEncode(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (unit) =>
    unit.length === 1 && unit >= '\ud800' && unit <= '\udfff' ? '%ED%A0%80' : encodeURIComponent(unit),
  );
}

type Mutation = 'valid' | 'body' | 'query' | 'path' | 'key' | 'media-type' | 'method';

export class RequestFactory {
  private readonly values: ValueContext;

  constructor(
    private readonly ctx: Omit<ValueContext, 'hint'>,
    private readonly world: World,
  ) {
    this.values = { ...ctx, hint: (property) => world.hint(property, ctx.random) };
  }

  private get random(): Random {
    return this.ctx.random;
  }

  private chooseMutation(operation: Operation, hasBody: boolean): Mutation {
    const params = operation.spec.parameters ?? [];
    const weights: Array<[Mutation, number]> = [
      ['valid', 30],
      ['body', hasBody ? 30 : 0],
      ['query', params.some((p) => p.in === 'query') ? 12 : 0],
      ['path', params.some((p) => p.in === 'path') ? 12 : 0],
      ['key', needsKey(operation.path) ? 8 : 0],
      ['media-type', WRITE_METHODS.includes(operation.method) ? 6 : 0],
      ['method', 4],
    ];
    const total = weights.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.random.next() * total;
    for (const [mutation, weight] of weights) {
      if ((roll -= weight) < 0) return mutation;
    }
    return 'valid';
  }

  async build(operation: Operation): Promise<FuzzRequest> {
    const schema = bodySchema(operation);
    const sendsBody = schema !== undefined && (operation.spec.requestBody?.required || this.random.chance(0.7));
    const mutation = this.chooseMutation(operation, sendsBody);
    const request: FuzzRequest = {
      method: operation.method,
      url: '',
      headers: needsKey(operation.path)
        ? { 'x-api-key': this.world.key }
        : needsSession(operation.path)
          ? { cookie: await this.world.session() }
          : {},
      label: mutation,
    };
    const path = await this.path(operation, mutation === 'path' ? request : undefined);
    const query = this.query(operation, mutation === 'query' ? request : undefined);
    request.url = query ? `${path}?${query}` : path;
    if (sendsBody) {
      request.headers['content-type'] = 'application/json';
      request.body =
        mutation === 'body' ? this.brokenBody(schema!, request, budgetOf(operation)) : toJsonText(validValue(this.values, schema!));
    }
    if (mutation === 'key') this.breakKey(request);
    if (mutation === 'media-type') this.breakMediaType(request);
    if (mutation === 'method') this.breakMethod(operation, request);
    return request;
  }

  /** The path with real identifiers, or (when `broken` is given) one bad identifier. */
  private async path(operation: Operation, broken?: FuzzRequest): Promise<string> {
    const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const badOne = broken ? this.random.pick(names) : undefined;
    let path = operation.path;
    for (const name of names) {
      let value: string;
      if (name === badOne) {
        value = this.random.chance(0.2) ? this.random.pick(this.world.ids()) : this.random.pick(BAD_IDS);
        broken!.label = `path ${name}=${value.slice(0, 40)}${value.length > 40 ? `… (${value.length} chars)` : ''}`;
      } else if (operation.method === 'DELETE' && name === names[names.length - 1]) {
        value = encodeURIComponent(await this.world.deletable(name));
      } else {
        value = encodeURIComponent(this.world.pathValue(name) ?? 'unknown');
      }
      path = path.replace(`{${name}}`, value);
    }
    return path;
  }

  /** Query parameters from their schemas, some left out; with `broken`, one of them bad. */
  private query(operation: Operation, broken?: FuzzRequest): string {
    const params = (operation.spec.parameters ?? []).filter((p) => p.in === 'query');
    const pairs: Array<[string, string]> = [];
    for (const param of params) {
      if (param.required || this.random.chance(0.4))
        pairs.push([param.name, String(validValue(this.values, param.schema ?? {}, param.name))]);
    }
    if (broken) {
      const bad = this.badQueryPairs(params.map((p) => ({ name: p.name, schema: p.schema ?? {} })));
      const badNames = new Set(bad.map(([name]) => name));
      const kept = pairs.filter(([name]) => !badNames.has(name));
      pairs.length = 0;
      pairs.push(...kept, ...bad);
      broken.label = `query ${bad.map(([name, value]) => `${name}=${value.slice(0, 40)}`).join('&')}`;
    }
    return pairs.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join('&');
  }

  private badQueryPairs(params: Array<{ name: string; schema: Schema }>): Array<[string, string]> {
    const { random } = this;
    const names = new Set(params.map((p) => p.name));
    if (names.has('start') && names.has('end') && random.chance(0.1))
      return [
        ['start', '2025-06-01'],
        ['end', '2025-01-01'],
      ];
    if (random.chance(0.1)) return [['unknown_param', random.pick(ODD_STRINGS)]];
    const { name, schema } = random.pick(params);
    if (random.chance(0.1))
      return [
        [name, String(validValue(this.values, schema))],
        [name, random.pick(LIMIT_EDGES)],
      ];
    if (name === 'limit') return [[name, random.pick(LIMIT_EDGES)]];
    if (name === 'offset') return [[name, random.pick(OFFSET_EDGES)]];
    if (schema.format === 'date') return [[name, random.pick([...BAD_DATES, ...EDGE_DATES])]];
    const broken = brokenValue(this.values, schema).value;
    return [[name, typeof broken === 'string' ? broken : random.pick([...ODD_STRINGS, 'q'.repeat(10_000)])]];
  }

  /** A body broken in one way: a property, the object's shape, the JSON text itself, or its size or shape past the operation's budget. */
  private brokenBody(schema: Schema, request: FuzzRequest, budget: BodyBudget): string | Uint8Array {
    const { random } = this;
    const flat = flatten(this.values, schema);
    const valid = validValue(this.values, schema);
    const body = typeof valid === 'object' && valid !== null && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
    const text = toJsonText(body);
    const properties = Object.entries(flat.properties ?? {});
    const kinds: Array<[string, () => string | Uint8Array]> = [
      [
        'property',
        () => {
          const [name, property] = properties.length ? random.pick(properties) : ['anything', {}];
          const { label, value } = brokenValue(this.values, property);
          request.label = `body.${name}: ${label}`;
          return toJsonText({ ...body, [name]: value });
        },
      ],
      [
        'missing required property',
        () => {
          const required = flat.required ?? [];
          const copy = { ...body };
          if (required.length) delete copy[random.pick(required)];
          return toJsonText(copy);
        },
      ],
      [
        'unknown property',
        () => toJsonText({ ...body, [random.pick(['unknown', 'b_id_farm', '__proto__', 'constructor', ''])]: anyJson(random) }),
      ],
      [
        'duplicate keys',
        () => {
          const [name] = properties.length ? random.pick(properties) : ['x'];
          // JSON.parse keeps the last of duplicate keys: sometimes that is the broken one, sometimes the valid one.
          const property = flat.properties?.[name] ?? {};
          const again = `${JSON.stringify(name)}:${toJsonText(random.chance(0.5) ? brokenValue(this.values, property).value : validValue(this.values, property, name))}`;
          return text === '{}' ? `{${again},${again}}` : `${text.slice(0, -1)},${again}}`;
        },
      ],
      ['not an object', () => random.pick(['[]', 'null', '"text"', '42', 'true', '[{}]', '{}'.repeat(2)])],
      ['truncated JSON', () => text.slice(0, random.int(0, Math.max(0, text.length - 1)))],
      [
        'invalid UTF-8',
        () => {
          const bytes = Buffer.from(text.length > 2 ? text : '{"a":"b"}');
          const at = random.int(1, bytes.length - 1);
          return Buffer.concat([
            bytes.subarray(0, at),
            Buffer.from(random.pick([[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]])),
            bytes.subarray(at),
          ]);
        },
      ],
      ['byte order mark', () => `\ufeff${text}`],
      ['empty body', () => random.pick(['', ' ', '\n'])],
      [
        'not JSON',
        () =>
          random.pick(['{a:1}', "{'a':1}", '{"a":1,}', '{"a":01}', '{"a":NaN}', '{"a":undefined}', '/* c */{}', '<xml/>', 'b_name_farm=x']),
      ],
      ['deeply nested body', () => toJsonText(nestedArrays(random.pick([1000, 100_000])))],
      ['many properties', () => toJsonText(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, i])))],
      [
        'arrays nested one deeper than the budget',
        () => {
          request.expectStatus = 400;
          return `{"p":${'['.repeat(budget.maxDepth)}${']'.repeat(budget.maxDepth)}}`;
        },
      ],
      [
        'one array element more than the budget',
        () => {
          request.expectStatus = 400;
          return `{"p":[${'0,'.repeat(budget.maxElements)}0]}`;
        },
      ],
      [
        'one object member more than the budget (one key, repeated)',
        () => {
          request.expectStatus = 400;
          return `{${'"p":0,'.repeat(budget.maxElements)}"p":0}`;
        },
      ],
      [
        'body of exactly the size limit',
        () => {
          request.forbidStatus = 413;
          const head = '{"padding":"';
          return `${head}${'p'.repeat(budget.maxBytes - head.length - 2)}"}`;
        },
      ],
      [
        'arrays nested as deep as the size limit allows',
        () => {
          request.forbidStatus = 413;
          request.expectStatus = 400;
          const depth = Math.floor((budget.maxBytes - 6) / 2);
          return `{"p":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        },
      ],
      [
        'body of the size limit + 1 byte',
        () => {
          request.expectStatus = 413;
          const head = '{"padding":"';
          return `${head}${'p'.repeat(budget.maxBytes + 1 - head.length - 2)}"}`;
        },
      ],
    ];
    // Most breakage is in one property; the large bodies are rare (they cost time, not coverage).
    const roll = random.next();
    const [kind, make] = roll < 0.5 ? kinds[0]! : roll < 0.98 ? random.pick(kinds.slice(1, -3)) : random.pick(kinds.slice(-3));
    request.label = `body: ${kind}`;
    return make();
  }

  private breakKey(request: FuzzRequest): void {
    const { random } = this;
    const key = request.headers['x-api-key']!;
    delete request.headers['x-api-key'];
    const variants: Array<[string, Record<string, string>, number | undefined]> = [
      ['no key', {}, 401],
      ['unknown key', { 'x-api-key': `akk_${random.string(43, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_')}` }, 401],
      ['malformed key', { 'x-api-key': random.pick(['', 'x', 'akk_', key.slice(0, -1), `${key}x`, 'k'.repeat(10_000)]) }, 401],
      ['both key headers', { 'x-api-key': key, authorization: `Bearer ${key}` }, 400],
      ['Bearer without a key', { authorization: random.pick(['Bearer', 'Bearer ', 'Basic YTpi', key]) }, 401],
      ['lower-case bearer', { authorization: `bearer ${key}` }, undefined],
      ['Bearer with spaces', { authorization: `Bearer   ${key}  ` }, undefined],
    ];
    const [label, headers, status] = random.pick(variants);
    Object.assign(request.headers, headers);
    request.label = `key: ${label}`;
    request.expectStatus = status;
  }

  private breakMediaType(request: FuzzRequest): void {
    const { random } = this;
    request.body ??= '{}';
    if (random.chance(0.35)) {
      request.headers['content-type'] = random.pick(ACCEPTED_MEDIA_TYPES);
      request.label = `media type ${request.headers['content-type']} (accepted)`;
      request.forbidStatus = 415;
      return;
    }
    if (random.chance(0.25)) delete request.headers['content-type'];
    else request.headers['content-type'] = random.pick(REFUSED_MEDIA_TYPES);
    request.label = `media type ${request.headers['content-type'] ?? 'missing'}`;
    request.expectStatus = 415;
  }

  private breakMethod(operation: Operation, request: FuzzRequest): void {
    const served = new Set(operation.pathMethods);
    if (served.has('GET')) served.add('HEAD');
    const others = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !served.has(m));
    if (others.length === 0) return;
    request.method = this.random.pick(others);
    delete request.body;
    delete request.headers['content-type'];
    request.label = `method ${request.method}`;
    request.expectStatus = 405;
  }
}

/** The body budget of `operation` (its path written as the router's, `{id}` as `:id`). */
const budgetOf = (operation: Operation) => bodyBudgetOf(operation.method, operation.path.replace(/\{(\w+)\}/g, ':$1'));
