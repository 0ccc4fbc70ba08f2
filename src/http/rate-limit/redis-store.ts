// Rate-limit windows in Redis, shared by every API process that uses the same Redis and key prefix.
import { createHash } from 'node:crypto';
import { Redis, type RedisOptions } from './ioredis.js';
import type { RatePolicy } from './policies.js';
import type { RateDecision, RateLimitStore } from './store.js';

/**
 * One bucket is a list of the times (Redis clock, ms) of its counted requests, oldest first.
 * The script runs atomically: it drops the times that left the window and, only when there is
 * room, appends now. A refusal writes nothing. Redis's own clock puts every process on one time.
 * Answers {allowed 1|0, remaining, ms until the oldest counted request leaves the window}.
 */
const SLIDING_WINDOW_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local oldest = tonumber(redis.call('LINDEX', KEYS[1], 0))
while oldest and oldest + window <= now do
  redis.call('LPOP', KEYS[1])
  oldest = tonumber(redis.call('LINDEX', KEYS[1], 0))
end
local count = redis.call('LLEN', KEYS[1])
if count >= limit then
  return {0, 0, oldest + window - now}
end
redis.call('RPUSH', KEYS[1], now)
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - count - 1, (oldest or now) + window - now}
`;
const SCRIPT_SHA1 = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');

const REDIS_CONNECTION_OPTIONS: RedisOptions = {
  // While disconnected a hit fails at once (and the memory store answers) instead of waiting in a queue.
  enableOfflineQueue: false,
  // A hit is never sent again after a reconnect: Redis may have counted it already.
  maxRetriesPerRequest: 0,
  commandTimeout: 500,
  // A Redis that stops answering is dropped, so requests stop waiting for it until it is back.
  socketTimeout: 1000,
  connectTimeout: 2000,
  retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
};

export const connectRedis = (url: string): Redis => new Redis(url, REDIS_CONNECTION_OPTIONS);

const isMissingScript = (error: unknown) => error instanceof Error && error.message.startsWith('NOSCRIPT');

export class RedisStore implements RateLimitStore {
  readonly keptIn = 'redis';
  constructor(
    readonly connection: Redis,
    private readonly keyPrefix: string,
  ) {}

  async hit(policy: RatePolicy, bucket: string): Promise<RateDecision> {
    const [allowed, remaining, resetMs] = await this.#run(`${this.keyPrefix}${policy.name}:${bucket}`, policy.limit, policy.windowMs);
    return { allowed: allowed === 1, remaining, resetMs };
  }

  async close(): Promise<void> {
    this.connection.disconnect();
  }

  // EVALSHA sends 40 bytes instead of the script; Redis forgets scripts on restart, hence the fallback.
  async #run(key: string, limit: number, windowMs: number): Promise<[number, number, number]> {
    try {
      return (await this.connection.evalsha(SCRIPT_SHA1, 1, key, limit, windowMs)) as [number, number, number];
    } catch (error) {
      if (!isMissingScript(error)) throw error;
      return (await this.connection.eval(SLIDING_WINDOW_SCRIPT, 1, key, limit, windowMs)) as [number, number, number];
    }
  }
}
