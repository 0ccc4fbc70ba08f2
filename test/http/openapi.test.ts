// SPEC.md Description endpoints: OpenAPI 3.1 from the runtime schemas, and a docs page that renders offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { required?: string[] }> };
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

  it('documents every /api operation with both key schemes and its 401', () => {
    for (const { path, op } of operations().filter((o) => o.path.startsWith('/api/'))) {
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

  it('describes every output field of the calculations (CALCULATIONS.md: each with its unit)', () => {
    type Schema = {
      $ref?: string;
      type?: string;
      description?: string;
      properties?: Record<string, Schema>;
      items?: Schema;
      anyOf?: Schema[];
    };
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
    expect(calculations).toHaveLength(3);
    for (const { path, op } of calculations) {
      const schema = (op.responses['200']!.content!['application/json'] as { schema: Schema }).schema;
      expect(undescribed(schema, path, new Set())).toEqual([]);
    }
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
