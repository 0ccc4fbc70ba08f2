// The edges of a ring: each position with the one after it.

/** Calls `edge` with each position of `ring` and the next, in order. */
export function forEachEdge<P>(ring: readonly P[], edge: (from: P, to: P) => void): void {
  let from: P | undefined;
  for (const to of ring) {
    if (from !== undefined) edge(from, to);
    from = to;
  }
}
