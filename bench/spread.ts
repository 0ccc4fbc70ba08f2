// Figures of several rounds: their median and their range.

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  if (values.length === 0) throw new Error('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

/** "median (min–max)", each written by `format`; the median alone when all values are alike. */
export function describeSpread(values: number[], format: (n: number) => string): string {
  const { median, min, max } = spread(values);
  return min === max ? format(median) : `${format(median)} (${format(min)}–${format(max)})`;
}
