// The exact sliding window, the rate-limit categories and the in-memory store, on a controlled clock.
import { describe, expect, it } from 'vitest';
import { MemoryWindows } from '../../src/rate-limit/memory-windows.js';
import { categoryOf, ratePolicies } from '../../src/rate-limit/policies.js';
import { SlidingWindow } from '../../src/rate-limit/sliding-window.js';

const MINUTE = 60_000;

/** Hits `window` `times` times at `at` and returns how many were counted. */
function admitted(window: SlidingWindow, at: number, times: number): number {
  let counted = 0;
  for (let i = 0; i < times; i++) if (window.hit(at).allowed) counted++;
  return counted;
}

describe('sliding window', () => {
  it('counts up to the limit, then refuses with the time until the oldest counted request leaves', () => {
    const window = new SlidingWindow(30, MINUTE);
    expect(window.hit(0)).toEqual({ allowed: true, remaining: 29, resetMs: MINUTE });
    expect(admitted(window, 10_000, 29)).toBe(29);
    expect(window.hit(20_000)).toEqual({ allowed: false, remaining: 0, resetMs: 40_000 });
  });

  it('never reports more than a window to wait, whatever the clock reads (no floating-point overshoot)', () => {
    // At this reading of a monotonic clock, (now + 60000) - now is 60000.00000000001 in doubles,
    // which a RateLimit field rounds up to t=61.
    const now = 5538.623456789;
    expect(now + MINUTE - now).toBeGreaterThan(MINUTE);
    expect(new SlidingWindow(30, MINUTE).hit(now).resetMs).toBe(MINUTE);
  });

  it('admits one more exactly when the oldest counted request is a window old', () => {
    const window = new SlidingWindow(30, MINUTE);
    window.hit(0);
    admitted(window, 10_000, 29);
    expect(window.hit(MINUTE - 1).allowed).toBe(false);
    expect(window.hit(MINUTE)).toEqual({ allowed: true, remaining: 0, resetMs: 10_000 });
    expect(window.hit(MINUTE).allowed).toBe(false);
  });

  it('allows no burst at a window edge: 30 at 0:59 and 30 at 1:01 → the second 30 wait for the first', () => {
    const window = new SlidingWindow(30, MINUTE);
    expect(admitted(window, 59_000, 30)).toBe(30);
    expect(admitted(window, 61_000, 30)).toBe(0);
    expect(window.hit(61_000).resetMs).toBe(58_000);
    expect(admitted(window, 118_999, 30)).toBe(0);
    expect(admitted(window, 119_000, 31)).toBe(30);
  });

  it('never holds more than the limit in any window, whatever the arrival pattern', () => {
    const limit = 25;
    const window = new SlidingWindow(limit, 1_000);
    const counted: number[] = [];
    let now = 0;
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      now += seed % 97; // irregular gaps, many at the same millisecond
      if (window.hit(now).allowed) counted.push(now);
    }
    for (let i = limit; i < counted.length; i++) expect(counted[i]! - counted[i - limit]!).toBeGreaterThanOrEqual(1_000);
    expect(counted.length).toBeGreaterThan(limit * 10);
  });

  it('does not count refused requests', () => {
    const window = new SlidingWindow(2, MINUTE);
    window.hit(0);
    window.hit(1);
    for (let t = 2; t < MINUTE; t += 1_000) expect(window.hit(t).allowed).toBe(false);
    expect(window.hit(MINUTE).allowed).toBe(true);
    expect(window.hit(MINUTE + 1).allowed).toBe(true);
    expect(window.hit(MINUTE + 2).allowed).toBe(false);
  });

  it('keeps its order when the ring grows while wrapped around', () => {
    const window = new SlidingWindow(100, 100);
    for (let t = 0; t < 10; t++) window.hit(t); // 10 in a ring of 16
    for (let t = 100; t < 108; t++) window.hit(t); // 0..7 leave, the ring wraps
    // At 108, t = 8 leaves too: 9, 100..107 stay; the ring grows twice while wrapped.
    expect(admitted(window, 108, 100)).toBe(100 - 9);
    expect(window.hit(108).resetMs).toBe(9 + 100 - 108);
    expect(window.hit(109)).toEqual({ allowed: true, remaining: 0, resetMs: 100 - 9 });
    expect(window.isEmptyAt(208)).toBe(false);
    expect(window.isEmptyAt(209)).toBe(true);
  });
});

describe('categories', () => {
  it.each([
    ['GET', '/api/farms', 'general'],
    ['HEAD', '/api/farms/abc', 'general'],
    ['POST', '/api/farms', 'write'],
    ['PATCH', '/api/farms/abc', 'write'],
    ['PUT', '/api/farms/abc/access', 'write'],
    ['DELETE', '/api/fields/abc', 'write'],
    ['POST', '/api/farms/abc/calculations/nitrogen-balance', 'calculation'],
    ['POST', '/api/fields/abc/calculations/nitrogen-balance', 'calculation'],
    ['POST', '/api/fields/abc/calculations/dose', 'calculation'],
    ['POST', '/api/fields/abc/calculations/norms', 'calculation'],
    ['POST', '/api/farms/abc/calculations/norms', 'calculation'],
    ['GET', '/api/keys', 'general'],
    ['POST', '/api/keys', 'general'],
    ['DELETE', '/api/keys/abc', 'general'],
  ])('%s %s counts as %s', (method, path, category) => {
    expect(categoryOf(method, path)).toBe(category);
  });

  it('describes each policy as an IETF RateLimit-Policy item', () => {
    const policies = ratePolicies({ general: 120, write: 30, calculation: 10 });
    expect([policies.general.header, policies.write.header, policies.calculation.header]).toEqual([
      '"general";q=120;w=60',
      '"write";q=30;w=60',
      '"calculation";q=10;w=60',
    ]);
  });
});

describe('memory store', () => {
  const policies = ratePolicies({ general: 3, write: 2, calculation: 1 });

  it('keeps one window per bucket and per policy', async () => {
    const store = new MemoryWindows(() => 0);
    expect((await store.hit(policies.write, 'key-a')).allowed).toBe(true);
    expect((await store.hit(policies.write, 'key-a')).allowed).toBe(true);
    expect((await store.hit(policies.write, 'key-a')).allowed).toBe(false);
    expect((await store.hit(policies.write, 'key-b')).allowed).toBe(true);
    expect((await store.hit(policies.general, 'key-a')).remaining).toBe(2);
    expect((await store.hit(policies.calculation, 'key-a')).allowed).toBe(true);
    expect((await store.hit(policies.calculation, 'key-a')).allowed).toBe(false);
  });

  it("counts a request in its own window and its user's ceiling, both or neither", () => {
    const store = new MemoryWindows(() => 0);
    const ceiling = { policy: ratePolicies({ general: 3, write: 3, calculation: 3 }).write, bucket: 'user' };
    expect(store.hit(policies.write, 'key-a', ceiling)).toEqual({ allowed: true, remaining: 1, resetMs: MINUTE });
    expect(store.hit(policies.write, 'key-a', ceiling)).toEqual({ allowed: true, remaining: 0, resetMs: MINUTE });
    expect(store.hit(policies.write, 'key-a', ceiling).allowed).toBe(false); // a's own window is full
    expect(store.hit(policies.write, 'key-b', ceiling)).toEqual({ allowed: true, remaining: 0, resetMs: MINUTE, byCeiling: true });
    expect(store.hit(policies.write, 'key-b', ceiling)).toEqual({ allowed: false, remaining: 0, resetMs: MINUTE, byCeiling: true });
    // Neither refusal counted: b holds one request, and without the ceiling it has room for one more.
    expect(store.hit(policies.write, 'key-b').remaining).toBe(0);
  });

  it('keeps the windows of one policy name together, whichever policy object names it', () => {
    const store = new MemoryWindows(() => 0);
    store.hit(policies.write, 'key');
    store.hit(ratePolicies({ general: 3, write: 2, calculation: 1 }).write, 'key');
    expect(store.hit(policies.write, 'key').allowed).toBe(false);
  });

  it('forgets the buckets whose window has emptied, once a minute', async () => {
    let now = 0;
    const store = new MemoryWindows(() => now);
    for (let i = 0; i < 1_000; i++) await store.hit(policies.general, `key-${i}`);
    expect(store.size).toBe(1_000);
    now = 30_000;
    await store.hit(policies.general, 'busy');
    expect(store.size).toBe(1_001);
    now = MINUTE;
    await store.hit(policies.general, 'busy');
    expect(store.size).toBe(1);
  });
});
