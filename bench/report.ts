// The tables printed to stdout.
import type { Durations, Measurement } from './load.js';
import { describeBuilds, type Build } from './settings.js';
import { describeSpread, spread } from './spread.js';

/** One build's farm reads at one connection count, over all rounds. */
export interface BuildReads {
  label: string;
  akker: Measurement;
  /** The one-query server that took turns with this build. */
  oneQuery: Measurement;
  /** Akker's requests/s ÷ the one-query server's, one per round. */
  ratios: number[];
}

export interface ReadRow {
  connections: number;
  builds: BuildReads[];
  constant: Measurement;
}

export interface ListRow {
  farms: number;
  result: Measurement;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const ratio = (a: number, b: number) => (a / b).toFixed(2);
/** Issue 2's target: Akker serves at least this share of the one-query route's requests/s. */
const ONE_QUERY_TARGET = 0.8;

const LABEL_WIDTH = 30;
const row = (label: string, cells: string[]) => label.padEnd(LABEL_WIDTH) + cells.map((cell) => cell.padStart(9)).join('');
const heading = (label: string) => row(label, ['req/s', 'p50 ms', 'p99 ms', 'non-200']);
const line = (label: string, m: Measurement) => row(label, [count(m.requestsPerSecond), ms(m.p50), ms(m.p99), String(m.non200)]);

/** Progress goes to stderr, so that stdout holds only the results. */
export const progress = (message: string) => console.error(`… ${message}`);

/** How the farm reads were measured (bench/farm-read.ts). */
export interface Turns {
  rounds: number;
  slices: number;
  seconds: number;
  leadInSeconds: number;
}

export function printHeader(durations: Durations, turns: Turns, builds: Build[], cpus: number): void {
  console.log(
    `Akker farm-read benchmark: autocannon over 127.0.0.1; node ${process.version}, ${cpus} CPUs shared by load generator, servers and database. ` +
      `Farm reads: ${turns.rounds} rounds${builds.length > 1 ? ' of each build, the builds taking turns round by round' : ''}, each with a fresh Akker and a fresh one-query server running side by side; at each connection count ` +
      `a ${durations.warmupSeconds} s warm-up each, then ${turns.slices} slices of ${turns.seconds} s each, taking turns ` +
      `(the first ${turns.leadInSeconds} s of a slice, as its connections open, not counted). ` +
      'Shown: requests/s over all slices together, p50/p99 over all their responses. ' +
      `Constant route and lists: ${durations.warmupSeconds} s warm-up + ${durations.seconds} s measured; ` +
      'the constant route uses no database: it is measured once and shown in both tables. ' +
      'Ratios: median (min–max) over the rounds, each round taken over its own slices.',
  );
  console.log(describeBuilds(builds));
}

export function printReads(title: string, rows: ReadRow[]): void {
  console.log(`\n${title}: GET /api/farms/{id} with X-API-Key`);
  console.log(heading('conns  server'));
  for (const { connections, builds, constant } of rows) {
    const c = String(connections).padStart(5);
    for (const { label, akker, oneQuery } of builds) {
      console.log(line(`${c}  ${label}`, akker));
      console.log(line(`${c}  Hono + one query`, oneQuery));
    }
    console.log(line(`${c}  Hono, constant JSON`, constant));
    for (const { label, akker, ratios } of builds) {
      // Three decimals: rounded to two, 0.799 would read as a target met.
      const { median } = spread(ratios);
      console.log(
        `       ${label} req/s ÷ one query: ${describeSpread(ratios, (n) => n.toFixed(3))} ` +
          `(target ≥ ${ONE_QUERY_TARGET}: ${median >= ONE_QUERY_TARGET ? 'met' : 'NOT met'})` +
          `   ÷ constant: ${ratio(akker.requestsPerSecond, constant.requestsPerSecond)}`,
      );
    }
    if (builds.length === 2) {
      // Round by round, each build against the one-query server it took turns with.
      const [before, after] = builds as [BuildReads, BuildReads];
      const change = after.ratios.map((r, round) => r / before.ratios[round]!);
      console.log(`       ${after.label} ÷ ${before.label} (their ratios, round by round): ${describeSpread(change, (n) => n.toFixed(3))}`);
    }
  }
}

/** Prints the list timings; returns whether the large list's p50 stays within `maxRatio` of the small one's. */
export function printLists(label: string, connections: number, small: ListRow, large: ListRow, maxRatio: number): boolean {
  console.log(`\n${label} GET /api/farms?limit=50 at ${connections} connections`);
  console.log(heading('farms of the user'));
  for (const { farms, result } of [small, large]) console.log(line(count(farms).padStart(17), result));
  const p50Ratio = large.result.p50 / small.result.p50;
  const ok = p50Ratio <= maxRatio;
  console.log(
    `       p50 ${count(large.farms)} ÷ ${count(small.farms)} farms: ${p50Ratio.toFixed(2)} (must be ≤ ${maxRatio}) ${ok ? 'ok' : 'FAIL'}`,
  );
  return ok;
}
