// Rate-limit windows in Redis, shared by every API process that uses the same Redis and key prefix.
import { createHash } from 'node:crypto';
import { Redis, restoreFastStringPrototype, type RedisOptions } from './ioredis.js';
import type { RatePolicy } from './policies.js';
import type { CeilingWindow, CountDecision, RateLimitWindows } from './windows.js';

/**
 * One bucket is a list of the times (Redis clock, ms) of its counted requests, oldest first.
 * KEYS: the request's own bucket and, when there is one, its user's ceiling; ARGV: limit and
 * window of each. The script runs atomically: it drops the times that left each window and, only
 * when every window has room, appends now to each. A refusal counts in none. Redis's own clock
 * puts every process on one time. Answers {allowed 1|0, remaining, ms until the oldest counted
 * request leaves the window, index of the window described (0 own, 1 ceiling)}: the window that
 * refused, or the one with the least room left.
 */
const SLIDING_WINDOW_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local counts, oldests = {}, {}
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local oldest = tonumber(redis.call('LINDEX', KEYS[i], 0))
  while oldest and oldest + window <= now do
    redis.call('LPOP', KEYS[i])
    oldest = tonumber(redis.call('LINDEX', KEYS[i], 0))
  end
  local count = redis.call('LLEN', KEYS[i])
  if count >= limit then
    return {0, 0, oldest + window - now, i - 1}
  end
  counts[i], oldests[i] = count, oldest
end
local answer
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  redis.call('RPUSH', KEYS[i], now)
  redis.call('PEXPIRE', KEYS[i], window)
  local remaining = limit - counts[i] - 1
  if answer == nil or remaining < answer[2] then
    answer = {1, remaining, (oldests[i] or now) + window - now, i - 1}
  end
end
return answer
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

/** The rate limit's connection to Redis, made at start-up (String.prototype is made fast again first). */
export function connectRedis(url: string): Redis {
  restoreFastStringPrototype();
  return new Redis(url, REDIS_CONNECTION_OPTIONS);
}

const isMissingScript = (error: unknown) => error instanceof Error && error.message.startsWith('NOSCRIPT');

export class RedisWindows implements RateLimitWindows {
  readonly keptIn = 'redis';
  constructor(
    readonly connection: Redis,
    private readonly keyPrefix: string,
  ) {}

  async hit(policy: RatePolicy, bucket: string, ceiling?: CeilingWindow): Promise<CountDecision> {
    const own = `${this.keyPrefix}${policy.name}:${bucket}`;
    const [allowed, remaining, resetMs, described] =
      ceiling === undefined
        ? await this.#run([own], [policy.limit, policy.windowMs])
        : await this.#run(
            [own, `${this.keyPrefix}${ceiling.policy.name}:${ceiling.bucket}`],
            [policy.limit, policy.windowMs, ceiling.policy.limit, ceiling.policy.windowMs],
          );
    return described === 1
      ? { allowed: allowed === 1, remaining, resetMs, byCeiling: true }
      : { allowed: allowed === 1, remaining, resetMs };
  }

  async close(): Promise<void> {
    this.connection.disconnect();
  }

  // EVALSHA sends 40 bytes instead of the script; Redis forgets scripts on restart, hence the fallback.
  async #run(keys: string[], limits: number[]): Promise<ScriptReply> {
    try {
      return (await this.connection.evalsha(SCRIPT_SHA1, keys.length, ...keys, ...limits)) as ScriptReply;
    } catch (error) {
      if (!isMissingScript(error)) throw error;
      return (await this.connection.eval(SLIDING_WINDOW_SCRIPT, keys.length, ...keys, ...limits)) as ScriptReply;
    }
  }
}

/** The script's answer: allowed (1|0), remaining, ms to reset, index of the window described. */
type ScriptReply = [number, number, number, number];
