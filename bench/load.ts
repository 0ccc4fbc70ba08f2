// Load through autocannon: runs in which every response must be 200, and their figures.
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
  /** Responses other than 200, plus socket errors and timeouts: always 0, or the run would have thrown. */
  non200: number;
}

/** What one run counted: the responses after its lead-in, over the seconds after its lead-in. */
export interface Sample {
  requests: number;
  seconds: number;
  /** Milliseconds, one per counted response. */
  latencies: number[];
}

/**
 * Loads `target` for `seconds` and counts the responses that arrive after the first `leadInSeconds`
 * (while the connections open). Throws unless every response, counted or not, is a 200.
 * autocannon's own histogram has whole-millisecond buckets, too coarse for sub-millisecond medians,
 * so latencies are collected from its per-response events instead.
 */
export async function sample(name: string, target: Target, connections: number, seconds: number, leadInSeconds = 0): Promise<Sample> {
  const latencies: number[] = [];
  const start = performance.now();
  const countFrom = start + leadInSeconds * 1000;
  let responses = 0;
  const run = autocannon({ ...target, connections, duration: seconds });
  run.on('response', (_client, _status, _bytes, responseTime) => {
    responses++;
    if (performance.now() >= countFrom) latencies.push(responseTime);
  });
  const result = await run;
  const end = performance.now();

  const ok = result.statusCodeStats['200']?.count ?? 0;
  const non200 = responses - ok + result.errors;
  if (non200 > 0 || latencies.length === 0) {
    throw new Error(
      `${name} at ${connections} connections: ${non200} of ${responses} requests did not answer 200 ` +
        `(statuses ${JSON.stringify(result.statusCodeStats)}, ${result.errors} socket errors, ${result.timeouts} timeouts)`,
    );
  }
  return { requests: latencies.length, seconds: (end - countFrom) / 1000, latencies };
}

/** Requests/s over all the samples' time together, and percentiles over all their latencies. */
export function summarize(samples: Sample[]): Measurement {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const requests = samples.reduce((sum, s) => sum + s.requests, 0);
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  return { requestsPerSecond: requests / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), non200: 0 };
}

/** A warm-up run, then one measured run. */
export async function measure(name: string, target: Target, connections: number, durations: Durations): Promise<Measurement> {
  if (durations.warmupSeconds > 0) await sample(name, target, connections, durations.warmupSeconds);
  return summarize([await sample(name, target, connections, durations.seconds)]);
}

/** The value below which a share `q` of the sorted values lie (NaN when there are none). */
export const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]! : Number.NaN;
