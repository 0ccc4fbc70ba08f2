// The process environment, parsed and validated once at start-up.
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

const portSchema = z.coerce.number().int().min(0).max(65535);
// Requests per minute. A window remembers one timestamp per counted request, hence the ceiling.
const rateLimitSchema = z.coerce.number().int().min(1).max(1_000_000);

/** `203.0.113.7`, `10.0.0.0/8`, `::1`, `fd00::/8`. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}
const trustProxySchema = z
  .string()
  .transform((list) =>
    list
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .refine((entries) => entries.every(isAddressOrRange), 'must be a comma-separated list of IP addresses or CIDR ranges');

function addressList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

const environmentSchema = z.object({
  PORT: portSchema.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SIGNUP: z.enum(['open', 'closed']).default('open'),
  RATE_LIMIT_GENERAL: rateLimitSchema.default(120),
  RATE_LIMIT_WRITE: rateLimitSchema.default(30),
  RATE_LIMIT_CALCULATION: rateLimitSchema.default(10),
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('akker:rate-limit:'),
  RATE_LIMIT_USER_FACTOR: z.coerce.number().min(0).max(1000).default(4),
  MAX_KEYS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(100),
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(10),
  DEPOSITION_KG_N_HA_YR: z.coerce.number().min(0).max(1000).default(20),
  CHANGES_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  IDEMPOTENCY_USER_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_073_741_824)
    .default(16 * 1024 * 1024),
  IDEMPOTENCY_USER_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  SEND_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  HELD_ANSWERS_MB: z.coerce.number().min(1).max(65_536).default(64),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_REQUESTS: z.enum(['true', 'false']).default('true'),
  TRUST_PROXY: trustProxySchema.optional(),
});

export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded database, or `memory://`; ignored when `databaseUrl` is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Address clients see, without a trailing slash; the base of problem `type` URIs. */
  publicUrl: string;
  signup: 'open' | 'closed';
  /** Requests per API key (or per user, for session requests) in a rolling minute. */
  rateLimits: { general: number; write: number; calculation: number };
  /** Prefix of the rate-limit keys in Redis, so that several deployments can share one Redis. */
  rateLimitRedisPrefix: string;
  /**
   * A user's ceiling per category across all their keys (and their session), as a multiple of the
   * per-key limit, so that minting keys does not multiply a budget; 0 turns the ceiling off.
   */
  rateLimitUserFactor: number;
  /** Active (not revoked, not expired) API keys a user may hold at once. */
  maxKeysPerUser: number;
  /** Sign-up attempts per client address in a rolling hour; 0 turns the limit off. */
  signupLimitPerHour: number;
  /**
   * Atmospheric N deposition for every field, kg N/ha/yr. The reference reads a national raster that
   * is not available here; 20 is close to its central-Netherlands values (docs/calculations.md).
   */
  depositionKgNPerHaPerYear: number;
  /** Days a farm's change feed keeps its entries; a cursor older than the oldest kept entry is 410. */
  changesRetentionDays: number;
  /**
   * What the response bodies stored for a user's Idempotency-Keys may add up to (UTF-8 bytes) and how many
   * entries may have one; a response over either is stored without its body (docs/api.md, Idempotency-Key).
   */
  idempotencyBudget: { userBytes: number; userEntries: number };
  /** How long a stop (SIGTERM) waits for requests in flight before it closes their connections. */
  shutdownTimeoutSeconds: number;
  /**
   * How long an answer may wait for its client to read any of it before the connection is closed, so
   * that a client that stops reading holds its answer's memory for no longer.
   */
  sendTimeoutSeconds: number;
  /** What the answers not yet taken by slow clients may hold in all connections together, bytes. */
  heldAnswersBytes: number;
  /** The least severe log level written (pino's names). */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** One log line per request. */
  logRequests: boolean;
  /** The reverse proxies (addresses and CIDR ranges) whose X-Forwarded-For is believed; null: none. */
  trustProxy: BlockList | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    signup: e.SIGNUP,
    rateLimits: { general: e.RATE_LIMIT_GENERAL, write: e.RATE_LIMIT_WRITE, calculation: e.RATE_LIMIT_CALCULATION },
    rateLimitRedisPrefix: e.RATE_LIMIT_REDIS_PREFIX,
    rateLimitUserFactor: e.RATE_LIMIT_USER_FACTOR,
    maxKeysPerUser: e.MAX_KEYS_PER_USER,
    signupLimitPerHour: e.SIGNUP_LIMIT_PER_HOUR,
    depositionKgNPerHaPerYear: e.DEPOSITION_KG_N_HA_YR,
    changesRetentionDays: e.CHANGES_RETENTION_DAYS,
    idempotencyBudget: { userBytes: e.IDEMPOTENCY_USER_BYTES, userEntries: e.IDEMPOTENCY_USER_ENTRIES },
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    sendTimeoutSeconds: e.SEND_TIMEOUT_SECONDS,
    heldAnswersBytes: Math.round(e.HELD_ANSWERS_MB * 1024 * 1024),
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS === 'true',
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY.length === 0 ? null : addressList(e.TRUST_PROXY),
  };
}
