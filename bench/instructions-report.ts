// The tables of bench/instructions.ts.
import { describeSpread, spread } from './spread.js';

/** One server process's instructions per measured request. */
export interface Counted {
  main: number;
  /** All the other threads together. */
  others: number;
  /** How many other threads ran any instruction while measured. */
  busyThreads: number;
  /** The main thread's, by component (BENCH_COMPONENTS=1). */
  components: Map<string, number> | undefined;
}

/** A server measured in every round; the one-query route last. */
export interface Row {
  label: string;
  counts: Counted[];
}

const thousands = (n: number) => `${(n / 1000).toFixed(1)}k`;
const LABEL_WIDTH = 18;
const cell = (text: string, width = 34) => text.padEnd(width);

export function printCounts(title: string, rows: Row[]): void {
  const oneQuery = rows.at(-1)!;
  const akkers = rows.slice(0, -1);
  console.log(`\n${title}`);
  console.log(`${''.padEnd(LABEL_WIDTH)}${cell('main thread')}${cell('other threads (how many ran)')}main ÷ one query`);
  for (const { label, counts } of rows) {
    const ratios = counts.map(({ main }, round) => main / oneQuery.counts[round]!.main);
    const busy = describeSpread(
      counts.map(({ busyThreads }) => busyThreads),
      String,
    );
    console.log(
      label.padEnd(LABEL_WIDTH) +
        cell(
          describeSpread(
            counts.map(({ main }) => main),
            thousands,
          ),
        ) +
        cell(
          `${describeSpread(
            counts.map(({ others }) => others),
            thousands,
          )} (${busy})`,
        ) +
        (label === oneQuery.label ? '' : describeSpread(ratios, (n) => n.toFixed(3))),
    );
  }
  if (akkers.length === 2) {
    const [before, after] = akkers as [Row, Row];
    const change = after.counts.map(({ main }, round) => main / before.counts[round]!.main);
    console.log(`${after.label} ÷ ${before.label}, main thread, round by round: ${describeSpread(change, (n) => n.toFixed(3))}`);
  }
}

/** Main-thread instructions per request by component, the median over the rounds. */
export function printComponents(title: string, rows: Row[]): void {
  const names = new Set(rows.flatMap(({ counts }) => counts.flatMap(({ components }) => [...components!.keys()])));
  const median = (row: Row, name: string) => spread(row.counts.map(({ components }) => components!.get(name) ?? 0)).median;
  const sorted = [...names].sort((a, b) => median(rows[0]!, b) - median(rows[0]!, a));
  const labelWidth = Math.max(...sorted.map((name) => name.length)) + 2;
  const width = Math.max(...rows.map(({ label }) => label.length)) + 2;
  const line = (label: string, cells: number[]) =>
    label.padEnd(labelWidth) + cells.map((n) => Math.round(n).toLocaleString('en-US').padStart(width)).join('');
  console.log(`\n${title}, main thread by component (instructions per request, median over the rounds)`);
  console.log(''.padEnd(labelWidth) + rows.map(({ label }) => label.padStart(width)).join(''));
  for (const name of sorted)
    console.log(
      line(
        name,
        rows.map((row) => median(row, name)),
      ),
    );
  console.log(
    line(
      'main thread',
      rows.map(({ counts }) => spread(counts.map(({ main }) => main)).median),
    ),
  );
}
