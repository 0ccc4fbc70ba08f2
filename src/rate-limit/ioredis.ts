// ioredis, for the Redis store, loaded so that String.prototype stays as fast as ioredis found it.
import { Redis, type RedisOptions } from 'ioredis';

/**
 * ioredis declares `class VerbatimString extends String`. Making String.prototype the parent of
 * a class puts it in dictionary mode in V8, and V8 turns a prototype fast again only when an
 * inline cache looks a property up through it for an object, never for a string primitive. Left
 * so, every string method call in the process is a generic lookup (Hono's path parsing alone calls
 * charCodeAt once per character of each URL: some 5,000 instructions of a farm read in
 * bench:instructions). Property reads through an object that inherits from String.prototype, in a
 * loop long enough for V8 to give the function its feedback, are that inline cache.
 */
function restoreFastStringPrototype(): void {
  const probe = Object.create(String.prototype) as { charCodeAt?: unknown };
  let method: unknown;
  for (let i = 0; i < 1000; i++) method = probe.charCodeAt;
  if (typeof method !== 'function') throw new Error('String.prototype has no charCodeAt');
}

restoreFastStringPrototype();

export { Redis, type RedisOptions };
