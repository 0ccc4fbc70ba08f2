// The store the configuration asks for: memory for one process, Redis (with memory as a stand-in) for several.
import type { Config } from '../../config.js';
import { FallbackStore } from './fallback-store.js';
import { MemoryStore } from './memory-store.js';
import { connectRedis, RedisStore } from './redis-store.js';
import type { RateLimitStore } from './store.js';

export function openRateLimitStore(config: Config): RateLimitStore {
  if (config.redisUrl === undefined) return new MemoryStore();
  return new FallbackStore(new RedisStore(connectRedis(config.redisUrl), config.rateLimitRedisPrefix), new MemoryStore());
}
