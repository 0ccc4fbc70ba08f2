// A thread's instructions split by component, from a callgrind profile and Node's perf map
// (--perf-basic-prof, which names the JIT code callgrind sees only as addresses). Each function's
// own instructions go to its component: JavaScript by its file, native code by its name. Code shared
// by everyone (V8's builtins, inline caches, runtime, libc) has no component of its own: its
// instructions are charged to its callers in proportion to their calls, through chains of such code.
import { readFileSync } from 'node:fs';

interface PerfEntry {
  start: number;
  end: number;
  name: string;
}

/** The perf map's entries, sorted by start; a later entry for the same start replaces an earlier one. */
function readPerfMap(path: string): PerfEntry[] {
  const byStart = new Map<number, PerfEntry>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (!match) continue;
    const start = parseInt(match[1]!, 16);
    byStart.set(start, { start, end: start + parseInt(match[2]!, 16), name: match[3]! });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

function lookUp(entries: PerfEntry[], address: number): string | undefined {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (entries[middle]!.start <= address) low = middle + 1;
    else high = middle - 1;
  }
  const entry = entries[high];
  return entry && address < entry.end ? entry.name : undefined;
}

const PACKAGES: Array<[RegExp, string]> = [
  [/node_modules\/(hono|@hono\/node-server)\//, 'hono'],
  [
    /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|atomic-sleep)\//,
    'pino / request log',
  ],
  [/\/src\/(app|http)\/request-log\.ts/, 'pino / request log'],
  [/node_modules\/(pg|pg-[a-z-]+|postgres-[a-z-]+|pgpass)\//, 'pg driver'],
  [/node_modules\/@electric-sql\/pglite\//, 'pglite (main-thread side)'],
  [/node_modules\/drizzle-orm\//, 'drizzle'],
  [/node_modules\/(zod|@hono\/zod-openapi|@asteasolutions\/zod-to-openapi)\//, 'zod'],
  [/node:internal\/crypto|^(SHA256|sha256|EVP_|ossl_|CRYPTO_)/, 'crypto (sha256)'],
  [/^node:|^(node::|uv_|uv__|llhttp_)/, 'node: http, streams, event loop'],
  [
    /^v8::internal::(Heap|Scavenger|MarkCompact|MinorMarkCompact|Sweeper|ConcurrentMarking|IncrementalMarking|MemoryAllocator)/,
    'V8 garbage collection',
  ],
  [/^v8::internal::(compiler|maglev|baseline|Compiler|OptimizingCompileDispatcher)/, 'V8 compiler (main thread)'],
];

/** A function's component, or undefined for code shared by everyone. */
function componentOf(name: string): string | undefined {
  // A perf map entry: "JS:*name /path/file.js:line:column" (or "~" when not optimised).
  const js = /^JS:\S?\S* (.+):\d+:\d+$/.exec(name)?.[1] ?? name;
  for (const [pattern, component] of PACKAGES) if (pattern.test(js)) return component;
  const akker = /\/(src\/[^/]+)\/[^/]+$/.exec(js) ?? /\/(src)\/[^/]+$/.exec(js);
  if (akker && !js.includes('node_modules')) return `Akker ${akker[1]}`;
  if (/\/bench\/servers\//.test(js)) return 'one-query route (bench/servers)';
  const other = /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(js);
  return other ? `other: ${other[1]}` : undefined;
}

interface Profile {
  self: Map<string, number>;
  /** Callee → caller → number of calls. */
  callers: Map<string, Map<string, number>>;
}

/** Own instructions and call counts by function name, from a callgrind file with one event (Ir). */
function readProfile(path: string, perfMap: PerfEntry[]): Profile {
  const names = new Map<string, string>();
  const name = (spec: string) => {
    const [, id, text] = /^(\(\d+\))?\s*(.*)$/.exec(spec)!;
    if (text) names.set(id ?? text, text.replace(/'\d+$/, ''));
    const known = names.get(id ?? text!)!;
    const address = /^0x([0-9a-f]+)$/.exec(known)?.[1];
    return (address && lookUp(perfMap, parseInt(address, 16))) || known;
  };
  const self = new Map<string, number>();
  const callers = new Map<string, Map<string, number>>();
  let fn = '';
  let callee = '';
  let inclusiveLine = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) fn = name(line.slice(3));
    else if (line.startsWith('cfn=')) callee = name(line.slice(4));
    else if (line.startsWith('calls=')) {
      const count = Number(line.slice(6).split(' ')[0]);
      const map = callers.get(callee) ?? callers.set(callee, new Map()).get(callee)!;
      map.set(fn, (map.get(fn) ?? 0) + count);
      inclusiveLine = true;
    } else if (/^[0-9+\-*]/.test(line)) {
      // The line after calls= is the call's inclusive cost, already in the callee's own.
      if (!inclusiveLine) self.set(fn, (self.get(fn) ?? 0) + Number(line.split(' ').at(-1)));
      inclusiveLine = false;
    }
  }
  return { self, callers };
}

const UNATTRIBUTED = 'unattributed (no named caller)';

/** Instructions per request by component for the thread profiled in `callgrindFile`. */
export function componentsOf(callgrindFile: string, perfMapFile: string, requests: number): Map<string, number> {
  const { self, callers } = readProfile(callgrindFile, readPerfMap(perfMapFile));
  // Shares of shared code among components, by its callers' calls; a few passes settle chains of shared code.
  const shares = new Map<string, Map<string, number>>();
  const shareOf = (fn: string): Map<string, number> => {
    const component = componentOf(fn);
    return component ? new Map([[component, 1]]) : (shares.get(fn) ?? new Map([[UNATTRIBUTED, 1]]));
  };
  const shared = [...self.keys()].filter((fn) => componentOf(fn) === undefined);
  for (let pass = 0; pass < 20; pass++) {
    for (const fn of shared) {
      const mix = new Map<string, number>();
      let calls = 0;
      for (const [caller, count] of callers.get(fn) ?? []) {
        if (caller === fn) continue;
        calls += count;
        for (const [component, share] of shareOf(caller)) mix.set(component, (mix.get(component) ?? 0) + count * share);
      }
      if (calls > 0) shares.set(fn, new Map([...mix].map(([component, weight]) => [component, weight / calls])));
    }
  }
  const totals = new Map<string, number>();
  for (const [fn, instructions] of self) {
    for (const [component, share] of shareOf(fn)) totals.set(component, (totals.get(component) ?? 0) + (instructions * share) / requests);
  }
  return totals;
}
