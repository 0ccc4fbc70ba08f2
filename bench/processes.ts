// HTTP servers as child processes, so that the load generator and the server never share a JS thread.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { atExit } from './cleanup.js';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface Server {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs `node --import tsx <script>` with `env` added and waits for its first
 * JSON log line carrying a `url` (Akker's "Akker is listening", or the bench servers' "listening").
 * `runUnder`: a command that runs node, such as valgrind with its options; the server keeps its pid.
 */
export async function startServer(script: string, env: Record<string, string> = {}, runUnder: string[] = []): Promise<Server> {
  const [command, ...args] = [...runUnder, process.execPath, '--import', 'tsx', script];
  const child = spawn(command!, args, {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const forget = atExit(() => child.kill('SIGKILL'));
  try {
    const url = await listeningUrl(child, script);
    return { url, pid: child.pid!, stop: () => stop(child).finally(forget) };
  } catch (error) {
    await stop(child).finally(forget);
    throw error;
  }
}

function listeningUrl(child: ChildProcess, script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start listening within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    const onExit = (code: number | null) => reject(new Error(`${script} exited (code ${code}) before listening`));
    child.once('exit', onExit);
    // Keep reading stdout to the end: a full pipe would block the child.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = parseUrl(line);
      if (url === undefined) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(url);
    });
  });
}

function parseUrl(line: string): string | undefined {
  try {
    const url = (JSON.parse(line) as { url?: unknown }).url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM (graceful: closes the database and, for PGlite, its lock), SIGKILL if that takes too long. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
