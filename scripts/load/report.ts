// The load test's tables: per build, its rounds' throughput and each category's share, p50 and p99 as
// median (min–max); with two builds, the after build's figures ÷ the before build's, round by round.
import { percentile } from '../../bench/load.js';
import type { Build } from '../../bench/settings.js';
import { describeSpread } from '../../bench/spread.js';
import type { LoadResult } from './driver.js';
import type { Category } from './workload.js';

export interface LoadSetting {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  users: number;
  keysPerUser: number;
}

export interface LoadRound {
  result: LoadResult;
  memory: { peakMiB: number; highWaterMiB: number };
  /** CPU milliseconds over the measured seconds: the server's (its threads included), and PostgreSQL's (null on the embedded database). */
  cpu: { serverMs: number; databaseMs: number | null };
}

/** What one round measured, by category and in all. */
interface RoundFigures {
  throughput: number;
  /** CPU microseconds per answered request. */
  serverCpu: number;
  databaseCpu: number | null;
  byCategory: Record<Category, { perSecond: number; p50: number; p99: number }>;
}

const CATEGORIES = ['read', 'write', 'calculation'] as const;

function figures({ result, cpu }: LoadRound): RoundFigures {
  const byCategory = {} as RoundFigures['byCategory'];
  let total = 0;
  for (const category of CATEGORIES) {
    const sorted = [...result[category].latencies].sort((a, b) => a - b);
    total += sorted.length;
    byCategory[category] = { perSecond: sorted.length / result.seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  }
  const perRequest = (ms: number) => (ms * 1000) / total;
  return {
    throughput: total / result.seconds,
    serverCpu: perRequest(cpu.serverMs),
    databaseCpu: cpu.databaseMs === null ? null : perRequest(cpu.databaseMs),
    byCategory,
  };
}

const whole = (n: number) => n.toFixed(0);
const tenth = (n: number) => n.toFixed(1);
const three = (n: number) => n.toFixed(3);
const cells = (label: string, values: string[], widths: number[]) =>
  `  ${label.padEnd(24)}${values.map((value, i) => value.padStart(widths[i]!)).join('')}`;

export function printLoad(title: string, setting: LoadSetting, sides: { build: Build; rounds: LoadRound[] }[]): void {
  console.log(
    `\n${title}: ${setting.connections} connections, ${setting.rounds} rounds of ${setting.seconds} s, ` +
      `${setting.users} users with ${setting.keysPerUser} keys each; median (min–max) over the rounds`,
  );
  const measured = sides.map(({ build, rounds }) => ({ build, rounds, figures: rounds.map(figures) }));
  const widths = [20, 26, 26, 18];
  console.log(cells('build, category', ['req/s', 'p50 ms', 'p99 ms', 'peak RSS MiB'], widths));
  for (const { build, rounds, figures: all } of measured) {
    const rss = describeSpread(
      rounds.map(({ memory }) => memory.peakMiB),
      whole,
    );
    console.log(
      cells(
        build.label,
        [
          describeSpread(
            all.map((f) => f.throughput),
            whole,
          ),
          '',
          '',
          rss,
        ],
        widths,
      ),
    );
    for (const category of CATEGORIES) {
      const of = all.map((f) => f.byCategory[category]);
      console.log(
        cells(
          `  ${category}`,
          [
            describeSpread(
              of.map((c) => c.perSecond),
              whole,
            ),
            describeSpread(
              of.map((c) => c.p50),
              tenth,
            ),
            describeSpread(
              of.map((c) => c.p99),
              tenth,
            ),
          ],
          widths,
        ),
      );
    }
    const failures = new Map<string, number>();
    for (const { result } of rounds) {
      for (const category of CATEGORIES) {
        for (const [what, count] of result[category].failures) failures.set(what, (failures.get(what) ?? 0) + count);
      }
    }
    const databaseCpu = all.flatMap((f) => (f.databaseCpu === null ? [] : [f.databaseCpu]));
    console.log(
      `    CPU µs per request: server ${describeSpread(
        all.map((f) => f.serverCpu),
        whole,
      )}` + (databaseCpu.length > 0 ? `, PostgreSQL ${describeSpread(databaseCpu, whole)}` : ''),
    );
    console.log(`    failed: ${[...failures.values()].reduce((a, b) => a + b, 0)}`);
    for (const [what, count] of failures) console.log(`      ${count} × ${what}`);
  }
  if (measured.length !== 2) return;
  const [before, after] = measured as [(typeof measured)[0], (typeof measured)[0]];
  const change = (pick: (f: RoundFigures) => number) => after.figures.map((f, round) => pick(f) / pick(before.figures[round]!));
  console.log(`  ${after.build.label} ÷ ${before.build.label}, round by round:`);
  console.log(
    `    throughput ${describeSpread(
      change((f) => f.throughput),
      three,
    )}`,
  );
  const databaseCpuChange = after.figures.every((f) => f.databaseCpu !== null)
    ? `, PostgreSQL ${describeSpread(
        change((f) => f.databaseCpu!),
        three,
      )}`
    : '';
  console.log(
    `    CPU per request: server ${describeSpread(
      change((f) => f.serverCpu),
      three,
    )}${databaseCpuChange}`,
  );
  for (const category of CATEGORIES) {
    console.log(
      `    ${category.padEnd(12)} p50 ${describeSpread(
        change((f) => f.byCategory[category].p50),
        three,
      )}` +
        `   p99 ${describeSpread(
          change((f) => f.byCategory[category].p99),
          three,
        )}`,
    );
  }
}
