// The description endpoints: OpenAPI 3.1 from the runtime schemas, and a docs page that renders offline.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCodes, type ErrorCode } from '../../src/http/problem.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
}
interface MediaType {
  schema: Schema;
  examples?: Record<string, { value: { type: string; title: string; status: number } }>;
}
interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; description?: string; schema: Schema }>;
  responses: Record<string, { content?: Record<string, MediaType> }>;
  requestBody?: { content: Record<string, MediaType> };
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, Schema & { required?: string[] }> };
};

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await startTestApp('pglite');
  const response = await t.app.request('/api/openapi.json');
  expect(response.status).toBe(200);
  doc = (await response.json()) as Document;
});
afterAll(() => t.close());

const isDescription = (path: string) => path === '/api/openapi.json' || path === '/api/docs';

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

describe('/api/openapi.json', () => {
  it('is OpenAPI 3.1 and needs no key', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('declares both key schemes: X-API-Key and Authorization Bearer', () => {
    expect(doc.components.securitySchemes.ApiKeyHeader).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every /api operation but the description itself with both key schemes and its 401', () => {
    const described = operations().filter((o) => o.path.startsWith('/api/') && !isDescription(o.path));
    expect(described.length).toBeGreaterThan(40);
    for (const { path, op } of described) {
      expect(op.security, path).toEqual(expect.arrayContaining([{ ApiKeyHeader: [] }, { BearerAuth: [] }]));
      expect(op.responses['401'], path).toBeDefined();
    }
  });

  it('documents the error responses of every operation as problem+json', () => {
    for (const { path, method, op } of operations()) {
      for (const status of ['405', '500']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400)
          expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toEqual(['application/problem+json']);
      }
      if (op.requestBody) for (const s of ['400', '413', '415']) expect(op.responses[s], `${method} ${path} ${s}`).toBeDefined();
    }
  });

  it('describes the body of every error response with the Problem schema, the idempotency refusals of a POST too', () => {
    const other: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/problem+json']?.schema;
        if (Number(status) >= 400 && schema?.$ref !== '#/components/schemas/Problem') other.push(`${method} ${path} ${status}`);
      }
    }
    expect(other).toEqual([]);
  });

  it('describes the farm creation body from the validating schema: b_name_farm required, no other property allowed', () => {
    const body = doc.components.schemas.FarmCreate as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    expect(body.required).toEqual(['b_name_farm']);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties).sort()).toEqual(['b_address_farm', 'b_businessid_farm', 'b_name_farm', 'b_postalcode_farm']);
  });

  it('describes every output field of the calculations (each with its unit)', () => {
    const schemas = doc.components.schemas as Record<string, Schema>;
    const resolve = (schema: Schema): Schema => (schema.$ref ? schemas[schema.$ref.split('/').pop()!]! : schema);
    const isLeaf = (schema: Schema) => !schema.properties && !schema.items && !schema.anyOf;
    /** The paths of the leaf fields below `schema` that have no description. */
    const undescribed = (schema: Schema, path: string, seen: Set<Schema>): string[] => {
      const resolved = resolve(schema);
      if (seen.has(resolved)) return [];
      const inside = new Set([...seen, resolved]);
      if (resolved.anyOf) return resolved.anyOf.flatMap((option) => undescribed(option, path, inside));
      if (resolved.items) return undescribed(resolved.items, `${path}[]`, inside);
      return Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => {
        const leaf = isLeaf(resolve(property));
        const missing = leaf && !property.description && !resolve(property).description ? [`${path}.${name}`] : [];
        return [...missing, ...(leaf ? [] : undescribed(property, `${path}.${name}`, inside))];
      });
    };
    const calculations = operations().filter((o) => o.path.includes('/calculations/'));
    expect(calculations).toHaveLength(10);
    for (const { path, op } of calculations) {
      const schema = (op.responses['200']!.content!['application/json'] as { schema: Schema }).schema;
      expect(undescribed(schema, path, new Set())).toEqual([]);
    }
  });

  it('names every operation with a stable, unique camelCase operationId', () => {
    const ids = operations().map(({ path, method, op }) => {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/farms/{b_id_farm}']!.get!.operationId).toBe('getFarm');
    expect(doc.paths['/api/farms/{b_id_farm}/fields']!.get!.operationId).toBe('listFieldsOfFarm');
  });

  it('lists the description endpoints themselves, which need no key', () => {
    for (const path of ['/api/openapi.json', '/api/docs']) {
      const get = doc.paths[path]?.get;
      expect(get, path).toBeDefined();
      expect(get!.security, path).toEqual([]);
      expect(get!.responses['200'], path).toBeDefined();
    }
  });

  it('describes every member of every schema, and every parameter', () => {
    const schemas = doc.components.schemas;
    const resolve = (schema: Schema): Schema => (schema.$ref ? schemas[schema.$ref.split('/').pop()!]! : schema);
    const hasDescription = (schema: Schema): boolean =>
      Boolean(schema.description || resolve(schema).description || schema.allOf?.some(hasDescription));
    const undescribed: string[] = [];
    const seen = new Set<Schema>();
    const visit = (schema: Schema, where: string): void => {
      const resolved = resolve(schema);
      if (seen.has(resolved)) return;
      seen.add(resolved);
      for (const [name, member] of Object.entries(resolved.properties ?? {})) {
        if (!hasDescription(member)) undescribed.push(`${where}.${name}`);
        visit(member, `${where}.${name}`);
      }
      for (const inner of [
        ...(resolved.anyOf ?? []),
        ...(resolved.oneOf ?? []),
        ...(resolved.allOf ?? []),
        ...(resolved.prefixItems ?? []),
      ])
        visit(inner, where);
      if (resolved.items) visit(resolved.items, `${where}[]`);
      if (typeof resolved.additionalProperties === 'object') visit(resolved.additionalProperties, `${where}{}`);
    };
    for (const [name, schema] of Object.entries(schemas)) visit(schema, name);
    for (const { path, method, op } of operations()) {
      for (const parameter of op.parameters ?? []) {
        if (!parameter.description && !hasDescription(parameter.schema)) undescribed.push(`${method} ${path} ${parameter.name}`);
      }
      const media = [
        ...Object.values(op.requestBody?.content ?? {}),
        ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {})),
      ];
      for (const { schema } of media) if (schema) visit(schema, `${method} ${path}`);
    }
    expect(undescribed).toEqual([]);
  });

  it('shows for every error status an example of each of its codes, and only of those', () => {
    const statusOf = (code: string) => errorCodes[code as ErrorCode]?.status;
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const examples = Object.entries(response.content!['application/problem+json']!.examples ?? {});
        expect(examples.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        for (const [code, { value }] of examples) {
          const where = `${method} ${path} ${status} ${code}`;
          expect(statusOf(code), where).toBe(Number(status));
          expect(value.status, where).toBe(Number(status));
          expect(value.type, where).toMatch(new RegExp(`/errors/${code}$`));
          expect(value.title, where).toBe(errorCodes[code as ErrorCode].title);
        }
      }
    }
  });

  it('is built once, not for every request (it takes a second or more on a loaded machine)', async () => {
    const build = vi.spyOn(t.app, 'getOpenAPI31Document');
    for (let i = 0; i < 3; i++) expect(await (await t.app.request('/api/openapi.json')).json()).toEqual(doc);
    expect(build).not.toHaveBeenCalled();
    build.mockRestore();
  });

  it('lists the five farm endpoints and the key management endpoints', () => {
    expect(Object.keys(doc.paths['/api/farms']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/farms/{b_id_farm}']!).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(doc.paths['/api/keys']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/keys/{id}']!)).toEqual(['delete']);
  });
});

describe('/api/docs', () => {
  it('is an HTML page whose scripts and styles all come from this server', async () => {
    const response = await t.app.request('/api/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) {
      expect(reference.startsWith('/api/docs/'), reference).toBe(true);
      const asset = await t.app.request(reference);
      expect(asset.status, reference).toBe(200);
      const text = await asset.text();
      expect(text.length).toBeGreaterThan(10);
    }
  });
});
