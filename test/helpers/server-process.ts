// Akker as a real process, for the tests that kill, stop and restart it: `node server.js` of the run's
// build (process-build.ts), or, where a test says so, `node --import tsx src/server.ts` as `npm start` runs it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compiled } from './process-build.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<Exit>;
}

const running = new Set<ServerProcess>();

/** Kills every server a test left running (call from afterAll). */
export function killLeftoverServers(): void {
  for (const server of running) server.kill('SIGKILL');
}

/** The address in the server's "Akker is listening" log line; undefined for any other line. */
function listeningUrl(line: string): string | undefined {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return entry.msg === 'Akker is listening' && typeof entry.url === 'string' ? entry.url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the server with `env` on top of a neutral environment (a free port, no PostgreSQL, no Redis,
 * rate limits out of the way) and resolves once it logs that it is listening. `fromSource`: run
 * src/server.ts through tsx, as `npm start` does, instead of the compiled server.
 */
export function startServerProcess(env: Record<string, string>, { fromSource = false } = {}): Promise<ServerProcess> {
  const args = fromSource ? ['--import', 'tsx', 'src/server.ts'] : [compiled('src/server.ts')];
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      RATE_LIMIT_GENERAL: '1000000',
      RATE_LIMIT_WRITE: '1000000',
      RATE_LIMIT_CALCULATION: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s:\n${text}`));
    }, START_TIMEOUT_MS);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${exit.code ?? exit.signal}) before listening:\n${text}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      text += `${line}\n`;
      const url = listeningUrl(line);
      if (url === undefined) return;
      clearTimeout(timer);
      const server: ServerProcess = { url, pid: child.pid!, output: () => text, kill: (signal) => child.kill(signal), exited };
      running.add(server);
      void exited.then(() => running.delete(server));
      resolve(server);
    });
  });
}

/** A new user with an API key, through the JSON account endpoints. */
export async function signUpOver(url: string, email: string): Promise<string> {
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
  const signUp = await fetch(`${url}/auth/sign-up`, json({ email, password: 'crash test password', name: 'Crash' }));
  if (signUp.status !== 201) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
  const created = await fetch(`${url}/api/keys`, json({ name: 'crash' }, { cookie }));
  if (created.status !== 201) throw new Error(`key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { key: string }).key;
}
