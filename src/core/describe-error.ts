// An error as the log records it: the stack, and the chain of causes (a database error arrives wrapped by
// drizzle, its reason in `cause`).

export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? (depth === 0 ? String(current.stack) : `caused by: ${current.message}`) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\n');
}
