// What the benchmarks share: their numeric settings, the builds of Akker they compare, and how Akker is
// started to be measured.

/** A number from the environment variable `name` (0 or more), or `fallback` when it is unset. */
export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, 0 or more`);
  return value;
}

/** Akker's request log in every measured Akker: LOG_REQUESTS as set for the bench, on by default. */
export const LOG_REQUESTS = process.env.LOG_REQUESTS ?? 'true';
if (LOG_REQUESTS !== 'true' && LOG_REQUESTS !== 'false') throw new Error('LOG_REQUESTS must be true or false');

export interface Build {
  /** As the tables name it. */
  label: string;
  /** The server script, relative to this checkout or absolute. */
  script: string;
}

/**
 * The Akker builds to measure: BENCH_AKKER (default this checkout's server), and before it
 * BENCH_BEFORE when set (another checkout's src/server.ts), so that both are measured in one run.
 */
export function akkerBuilds(): Build[] {
  const current = process.env.BENCH_AKKER ?? 'src/server.ts';
  const before = process.env.BENCH_BEFORE;
  if (!before) return [{ label: 'Akker', script: current }];
  return [
    { label: 'Akker before', script: before },
    { label: 'Akker after', script: current },
  ];
}

/** One line naming the builds and the request log setting, for a bench's header. */
export const describeBuilds = (builds: Build[]) =>
  `${builds.map(({ label, script }) => `${label}: ${script}`).join('; ')}; request log LOG_REQUESTS=${LOG_REQUESTS} in every Akker (to a file)`;

/**
 * Akker's environment for a measured run on `database` (DATA_DIR or DATABASE_URL): a free port on
 * loopback, the request log as LOG_REQUESTS says, and the rate limits at their ceiling (a benchmark
 * sends far more than a client may), kept in this process's memory (no Redis), as a single Akker
 * process does.
 */
export const measuredAkkerEnv = (database: Record<string, string>): Record<string, string> => ({
  ...database,
  PORT: '0',
  HOST: '127.0.0.1',
  REDIS_URL: '',
  LOG_REQUESTS,
  RATE_LIMIT_GENERAL: '1000000',
  RATE_LIMIT_WRITE: '1000000',
});
