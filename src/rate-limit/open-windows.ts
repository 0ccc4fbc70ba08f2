// The store the configuration asks for: memory for one process, Redis (with memory as a stand-in) for
// several. ioredis is loaded only when REDIS_URL is set: a deployment without Redis never pays for it.
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { MemoryWindows } from './memory-windows.js';
import type { CountDecision, RateLimitWindows } from './windows.js';

async function openRedisStore(url: string, keyPrefix: string, log: Pick<Logger, 'info' | 'warn'>): Promise<RateLimitWindows> {
  const [{ connectRedis, RedisWindows }, { FallbackWindows }] = await Promise.all([
    import('./redis-windows.js'),
    import('./fallback-windows.js'),
  ]);
  return new FallbackWindows(new RedisWindows(connectRedis(url), keyPrefix), new MemoryWindows(), (level, msg, extra = {}) =>
    log[level](extra, msg),
  );
}

/** A windows that is still being loaded: hits wait for it, as they wait for Redis's first connection. */
class LoadingStore implements RateLimitWindows {
  #windows: RateLimitWindows | undefined;

  constructor(private readonly loading: Promise<RateLimitWindows>) {
    void loading.then((windows) => (this.#windows = windows));
  }

  async hit(...count: Parameters<RateLimitWindows['hit']>): Promise<CountDecision> {
    return (await this.loading).hit(...count);
  }

  get keptIn(): 'redis' | 'memory' {
    return this.#windows?.keptIn ?? 'memory';
  }

  async close(): Promise<void> {
    await (await this.loading).close();
  }
}

export function openRateLimitWindows(config: Config, log: Pick<Logger, 'info' | 'warn'>): RateLimitWindows {
  if (config.redisUrl === undefined) return new MemoryWindows();
  return new LoadingStore(openRedisStore(config.redisUrl, config.rateLimitRedisPrefix, log));
}
