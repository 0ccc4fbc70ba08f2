// The parts of an OpenAPI 3.1 document the fuzzer reads: operations, their parameters, bodies and responses.

/** A JSON Schema (2020-12) as OpenAPI 3.1 embeds it; only the keywords the fuzzer acts on are named. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  default?: unknown;
  example?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}

export interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  /** Empty for an operation that needs no key. */
  security?: unknown[];
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  method: string;
  /** The path template, e.g. /api/farms/{b_id_farm}. */
  path: string;
  /** Where the operation sits in the document, as a JSON pointer (for the response checker). */
  pointer: string;
  spec: OperationObject;
  /** Every method the path serves, to pick one it does not. */
  pathMethods: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The operations that take an API key: the public description pages and documents are not fuzzed. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => {
    const methods = Object.keys(item).filter((key) => HTTP_METHODS.includes(key));
    return methods
      .filter((method) => item[method]!.security?.length !== 0)
      .map((method) => ({
        method: method.toUpperCase(),
        path,
        pointer: `#/paths/${escapePointer(path)}/${method}`,
        spec: item[method]!,
        pathMethods: methods.map((m) => m.toUpperCase()),
      }));
  });
}

/** The schema a local `$ref` points to (refs to other documents do not occur in Akker's). */
export function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    if (hops > 32 || !current.$ref.startsWith('#/')) throw new Error(`cannot resolve ${current.$ref}`);
    let target: unknown = doc;
    for (const segment of current.$ref.slice(2).split('/')) {
      target = (target as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (target === undefined) throw new Error(`dangling ${current.$ref}`);
    current = target as Schema;
  }
  return current;
}

/** The JSON schema of an operation's request body, if it takes one. */
export function bodySchema(operation: Operation): Schema | undefined {
  return operation.spec.requestBody?.content['application/json']?.schema;
}
