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

describe('built-in prototypes', () => {
  it('stay in fast mode once every module of the app is loaded', () => {
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', probe], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    const slowed = JSON.parse(output.trim().split('\n').at(-1)!) as string[];
    expect(slowed).toEqual([]);
  }, 60_000);
});
