// Where a command writes, and what it reads from its environment: the process's own, or a test's.
import type { Progress } from './progress.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** The progress display of the writes. */
  progress: Progress;
}
