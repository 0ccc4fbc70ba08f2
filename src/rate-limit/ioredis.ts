// ioredis, for the Redis store, and what keeps String.prototype as fast as ioredis found it.
import { Redis, type RedisOptions } from 'ioredis';

/**
 * ioredis makes String.prototype the parent of a class, which leaves every string method of the
 * process slow until a property is read through it from an object (docs/performance.md). Run once
 * ioredis is loaded, before the requests it would slow: `connectRedis` does.
 */
export function restoreFastStringPrototype(): void {
  const probe = Object.create(String.prototype) as { charCodeAt?: unknown };
  let method: unknown;
  for (let i = 0; i < 1000; i++) method = probe.charCodeAt;
  if (typeof method !== 'function') throw new Error('String.prototype has no charCodeAt');
}

export { Redis, type RedisOptions };
