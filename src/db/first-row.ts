// The one row a statement cannot fail to return: an insert's `returning`, an aggregate, the row of a
// record known to exist (the caller holds its farm's lock). None is a fault of the server, not a 404.

/** The first of `rows`; `what` names the statement in the error when there is none. */
export function firstRow<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`${what} returned no row`);
  return row;
}
