// Last-resort cleanup that also runs after Ctrl-C or an uncaught error: kill children, remove temp dirs.
const tasks = new Set<() => void>();

/** Registers a synchronous task for process exit; call the returned function once it is done by other means. */
export function atExit(task: () => void): () => void {
  tasks.add(task);
  return () => tasks.delete(task);
}

process.once('exit', () => {
  for (const task of tasks) task();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
