// The one row a statement must return: an insert's or an update's `returning` of a row known to exist.
// None is a fault of the server (a bug or a broken database), not a client's 404.

export function firstRow<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`${what} returned no row`);
  return row;
}
