// Loading the app must leave the built-in prototypes as fast as it found them. A dependency that
// subclasses a built-in (ioredis: `class VerbatimString extends String`) puts its prototype in V8's
// dictionary mode, and every method call on such values becomes a generic lookup (http/rate-limit/ioredis.ts).
// V8's own %HasFastProperties tells, in a child process started with --allow-natives-syntax.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledUrl } from '../helpers/process-build.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

const probe = `
const isFast = new Function('o', 'return %HasFastProperties(o)');
const builtins = { String, Number, Boolean, Symbol, Object, Array, Function, Promise, Map, Set, RegExp, Date, Error, Uint8Array };
const fastBefore = Object.keys(builtins).filter((name) => isFast(builtins[name].prototype));
await import('${compiledUrl('src/app/app.ts')}');
await import('${compiledUrl('src/db/client.ts')}');
console.log(JSON.stringify(fastBefore.filter((name) => !isFast(builtins[name].prototype))));
`;

// ioredis is loaded only with REDIS_URL, so the app's modules above do not hold it: the rate limit's
// connection to Redis does (made at start-up), and leaves String.prototype fast. Port 1 answers nothing.
const redisProbe = `
const isFast = new Function('o', 'return %HasFastProperties(o)');
const { connectRedis } = await import('${compiledUrl('src/rate-limit/redis-windows.ts')}');
const connection = connectRedis('redis://127.0.0.1:1');
connection.on('error', () => undefined);
connection.disconnect();
console.log(JSON.stringify({ ioredisLoaded: typeof connection.evalsha === 'function', stringFast: isFast(String.prototype) }));
`;

/** The last line `probeSource` prints, parsed, run by a node that knows V8's natives syntax. */
const lastLine = (probeSource: string): unknown => {
  const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', probeSource], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1)!);
};

describe('built-in prototypes', () => {
  it('stay in fast mode once every module of the app is loaded', () => {
    const slowed = lastLine(probe) as string[];
    expect(slowed).toEqual([]);
  }, 60_000);

  it('leave String.prototype in fast mode once the rate limit has connected to Redis', () => {
    expect(lastLine(redisProbe)).toEqual({ ioredisLoaded: true, stringFast: true });
  }, 60_000);
});
