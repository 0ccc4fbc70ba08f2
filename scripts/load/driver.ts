// Runs the workload on `connections` connections at once for a while and records every answer's latency.
import { Random } from '../../test/fuzz/random.js';
import type { HttpClient } from './http-client.js';
import type { Category, Workload } from './workload.js';

export interface CategoryResult {
  /** Milliseconds, one per answered request. */
  latencies: number[];
  /** Requests that failed, by `name: status` (or the socket error). */
  failures: Map<string, number>;
}

export type LoadResult = { seconds: number } & Record<Category, CategoryResult>;

const newResult = (): CategoryResult => ({ latencies: [], failures: new Map() });

export async function runLoad(
  client: HttpClient,
  workload: Workload,
  connections: number,
  seconds: number,
  seed: number,
): Promise<LoadResult> {
  const result: LoadResult = { seconds, read: newResult(), write: newResult(), calculation: newResult() };
  const deadline = performance.now() + seconds * 1000;
  const connection = async (index: number) => {
    const random = new Random(seed + index);
    while (performance.now() < deadline) {
      const request = workload.next(random, index);
      const headers = workload.headersFor(index, request.category);
      const category = result[request.category];
      const started = performance.now();
      let outcome: string | undefined;
      try {
        const answer = await client.send(request.method, request.path, headers, request.body);
        if (answer.status === request.expected)
          request.onSuccess?.(answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {});
        else outcome = `${request.name}: ${answer.status}`;
      } catch (error) {
        outcome = `${request.name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
      }
      category.latencies.push(performance.now() - started);
      if (outcome) category.failures.set(outcome, (category.failures.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => connection(i)));
  return result;
}
