// HTTP servers as child processes, so that the load generator and the server never share a JS thread.
// A server's stdout and stderr (its request log) go to a file: a pipe read here would cost the load
// generator's thread time on every request.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { atExit } from './cleanup.js';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

// A new embedded database runs initdb first: on a busy shared machine that alone can take a minute.
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 10_000;
/** How often the log file is read while a server starts. */
const TAIL_INTERVAL_MS = 20;

const logDir = mkdtempSync(join(tmpdir(), 'akker-bench-logs-'));
atExit(() => rmSync(logDir, { recursive: true, force: true }));
let started = 0;

export interface Server {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs `node --import tsx <script>` with `env` added, from the checkout that holds the script, and
 * waits for its first JSON log line carrying a `url` (Akker's "Akker is listening", or the bench
 * servers' "listening"). The log file is removed when the server stops.
 * `runUnder`: a command that runs node, such as valgrind with its options; the server keeps its pid.
 * `nodeArgs`: options for node itself, after those of BENCH_NODE_ARGS (space-separated; e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/profiles` profiles every server a bench starts, which NODE_OPTIONS refuses).
 */
export async function startServer(
  script: string,
  env: Record<string, string> = {},
  runUnder: string[] = [],
  nodeArgs: string[] = [],
): Promise<Server> {
  const path = resolve(projectRoot, script);
  const log = join(logDir, `${++started}-${basename(path, '.ts')}.log`);
  const out = openSync(log, 'w');
  const benchNodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const [command, ...args] = [...runUnder, process.execPath, ...benchNodeArgs, ...nodeArgs, '--import', 'tsx', path];
  const child = spawn(command!, args, { cwd: checkoutOf(path), env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  closeSync(out);
  const forget = atExit(() => child.kill('SIGKILL'));
  const stopAndRemove = () =>
    stop(child).finally(() => {
      forget();
      rmSync(log, { force: true });
    });
  try {
    const url = await listeningUrl(child, script, log);
    return { url, pid: child.pid!, stop: stopAndRemove };
  } catch (error) {
    await stopAndRemove();
    throw error;
  }
}

/** The nearest folder above `script` with a package.json: the checkout it belongs to. */
function checkoutOf(script: string): string {
  for (let dir = dirname(script); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return projectRoot;
}

/** Reads the log file until it holds the URL line; fails when the child exits first or takes too long. */
async function listeningUrl(child: ChildProcess, script: string, log: string): Promise<string> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    const text = readFileSync(log, 'utf8');
    const url = text
      .split('\n')
      .map(parseUrl)
      .find((found) => found !== undefined);
    if (url !== undefined) return url;
    const tail = () => `; its output ends:\n${text.split('\n').slice(-20).join('\n')}`;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${script} exited (code ${child.exitCode ?? child.signalCode}) before listening${tail()}`);
    }
    if (performance.now() > deadline) throw new Error(`${script} did not start listening within ${START_TIMEOUT_MS / 1000} s${tail()}`);
    await delay(TAIL_INTERVAL_MS);
  }
}

function parseUrl(line: string): string | undefined {
  if (!line.includes('"url"')) return undefined;
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
