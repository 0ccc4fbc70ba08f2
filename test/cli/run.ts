// The akker command line run in the test's own process, its output kept: what a user would see, and its exit code.
import { run } from '../../clients/cli/src/main.js';
import { silentProgress } from '../../clients/cli/src/progress.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function akker(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await run(args, { out: (text) => void (out += text), err: (text) => void (err += text), env, progress: silentProgress });
  return { code, out, err };
}
