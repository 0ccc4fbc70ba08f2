// Load through autocannon: a warm-up, then a measured run in which every response must be 200.
import autocannon from 'autocannon';

export interface Target {
  url: string;
  headers?: Record<string, string>;
}

export interface Durations {
  warmupSeconds: number;
  seconds: number;
}

export interface Measurement {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Responses other than 200, plus socket errors and timeouts: always 0 once `measure` returns. */
  non200: number;
}

// autocannon's own histogram has whole-millisecond buckets, too coarse for sub-millisecond medians,
// so latencies are collected from its per-response events instead.
export async function measure(name: string, target: Target, connections: number, durations: Durations): Promise<Measurement> {
  if (durations.warmupSeconds > 0) await autocannon({ ...target, connections, duration: durations.warmupSeconds });
  const latencies: number[] = [];
  const run = autocannon({ ...target, connections, duration: durations.seconds });
  run.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await run;

  const ok = result.statusCodeStats['200']?.count ?? 0;
  const non200 = latencies.length - ok + result.errors;
  if (non200 > 0 || latencies.length === 0) {
    throw new Error(
      `${name} at ${connections} connections: ${non200} of ${latencies.length} requests did not answer 200 ` +
        `(statuses ${JSON.stringify(result.statusCodeStats)}, ${result.errors} socket errors, ${result.timeouts} timeouts)`,
    );
  }
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    non200,
  };
}

const percentile = (sorted: number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
