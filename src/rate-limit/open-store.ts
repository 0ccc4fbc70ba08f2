// The store the configuration asks for: memory for one process, Redis (with memory as a stand-in) for
// several. ioredis is loaded only when REDIS_URL is set: a deployment without Redis never pays for it.
import type { Config } from '../core/config.js';
import { MemoryStore } from './memory-store.js';
import type { RateLimitStore } from './store.js';

async function openRedisStore(url: string, keyPrefix: string): Promise<RateLimitStore> {
  const [{ connectRedis, RedisStore }, { FallbackStore }] = await Promise.all([import('./redis-store.js'), import('./fallback-store.js')]);
  return new FallbackStore(new RedisStore(connectRedis(url), keyPrefix), new MemoryStore());
}

/** A store that is still being loaded: hits wait for it, as they wait for Redis's first connection. */
class LoadingStore implements RateLimitStore {
  #store: RateLimitStore | undefined;

  constructor(private readonly loading: Promise<RateLimitStore>) {
    void loading.then((store) => (this.#store = store));
  }

  hit(...count: Parameters<RateLimitStore['hit']>): ReturnType<RateLimitStore['hit']> {
    return this.#store ? this.#store.hit(...count) : this.loading.then((store) => store.hit(...count));
  }

  get keptIn(): 'redis' | 'memory' {
    return this.#store?.keptIn ?? 'memory';
  }

  async close(): Promise<void> {
    await (await this.loading).close();
  }
}

export function openRateLimitStore(config: Config): RateLimitStore {
  if (config.redisUrl === undefined) return new MemoryStore();
  return new LoadingStore(openRedisStore(config.redisUrl, config.rateLimitRedisPrefix));
}
