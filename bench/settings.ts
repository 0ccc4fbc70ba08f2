// What the benchmarks share: their numeric settings, and how Akker is started to be measured.

/** A number from the environment variable `name` (0 or more), or `fallback` when it is unset. */
export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, 0 or more`);
  return value;
}

/**
 * Akker's environment for a measured run on `database` (DATA_DIR or DATABASE_URL): a free port on
 * loopback, and the rate limits at their ceiling (a benchmark sends far more than a client may), kept
 * in this process's memory (no Redis), as a single Akker process does.
 */
export const measuredAkkerEnv = (database: Record<string, string>): Record<string, string> => ({
  ...database,
  PORT: '0',
  HOST: '127.0.0.1',
  REDIS_URL: '',
  RATE_LIMIT_GENERAL: '1000000',
  RATE_LIMIT_WRITE: '1000000',
});
