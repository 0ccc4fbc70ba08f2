// The fuzz run: `count` requests spread over every operation of the OpenAPI document, from one seed.
import { ResponseChecker } from './checker.js';
import { operationsOf, type OpenApiDocument, type Operation } from './openapi.js';
import { Random } from './random.js';
import { RequestFactory, type FuzzRequest } from './requests.js';
import { World, type Client } from './world.js';

export interface FuzzOptions {
  client: Client;
  seed: number;
  count: number;
  /** Called every `progressEvery` requests. */
  onProgress?: (done: number, failures: number) => void;
  progressEvery?: number;
}

export interface Failure {
  operation: string;
  request: string;
  label: string;
  status: number;
  problems: string[];
}

export interface FuzzReport {
  requests: number;
  /** Requests whose response broke the contract. */
  failed: number;
  /** The first of them, in detail. */
  failures: Failure[];
  /** `METHOD /path` → status → count. */
  statuses: Map<string, Map<number, number>>;
}

const MAX_FAILURES_KEPT = 200;

function describe(request: FuzzRequest): string {
  const url = request.url.length > 160 ? `${request.url.slice(0, 160)}… (${request.url.length} chars)` : request.url;
  const body = request.body === undefined ? '' : ` body ${request.body.length} bytes`;
  return `${request.method} ${url}${body}`;
}

function send(client: Client, request: FuzzRequest): Promise<Response> {
  return client(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/** Keeps the world usable: a fixture record a request deleted is rebuilt, a revoked key is not offered again. */
async function afterResponse(world: World, operation: Operation, request: FuzzRequest, status: number): Promise<void> {
  if (request.method !== 'DELETE' || status >= 300) return;
  if (operation.path === '/api/keys/{id}') world.keyRevoked(decodeURIComponent(request.url.split('/').pop()!));
  else if (world.isFixtureRecord(request.url)) await world.rebuild();
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { client, seed, count } = options;
  const doc = (await (await client('/api/openapi.json')).json()) as OpenApiDocument;
  const operations = operationsOf(doc);
  const random = new Random(seed);
  const world = await World.create(client, `${seed}-${Date.now().toString(36)}`);
  const factory = new RequestFactory({ doc, random }, world);
  const checker = new ResponseChecker(doc);
  const report: FuzzReport = { requests: 0, failed: 0, failures: [], statuses: new Map() };

  for (let i = 0; i < count; i++) {
    const operation = operations[i % operations.length]!;
    const request = await factory.build(operation);
    const response = await send(client, request);
    const problems = await checker.check(operation, request, response);
    report.requests++;
    const name = `${operation.method} ${operation.path}`;
    const byStatus = report.statuses.get(name) ?? new Map<number, number>();
    byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
    report.statuses.set(name, byStatus);
    if (problems.length) report.failed++;
    if (problems.length && report.failures.length < MAX_FAILURES_KEPT) {
      report.failures.push({ operation: name, request: describe(request), label: request.label, status: response.status, problems });
    }
    await afterResponse(world, operation, request, response.status);
    if (options.onProgress && (i + 1) % (options.progressEvery ?? 1000) === 0) options.onProgress(i + 1, report.failed);
  }
  return report;
}
