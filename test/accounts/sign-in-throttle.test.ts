// The sign-in throttle: a sliding window of failed attempts per (e-mail address, client address)
// and per client address, so that nobody can lock someone else out from everywhere.
import { describe, expect, it } from 'vitest';
import { SignInThrottle } from '../../src/accounts/sign-in-throttle.js';

const limits = { perEmailAndAddress: 3, perAddress: 5, windowMs: 60_000 };

function throttleAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, throttle: new SignInThrottle(limits, () => clock.now) };
}

describe('sign-in throttle', () => {
  it('refuses the attempt after the limit per e-mail address (compared case-insensitively) from one client address, with the seconds to wait', () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 3; i++) {
      expect(throttle.admit('Grower@example.org', 'a').admitted).toBe(true);
      clock.now += 10_000;
    }
    expect(throttle.admit('grower@EXAMPLE.org', 'a')).toEqual({ admitted: false, retryAfterSeconds: 30 });
  });

  it("does not count a stranger's failures from one address against the owner at another address", () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 3; i++) throttle.admit('owner@example.org', 'stranger');
    expect(throttle.admit('owner@example.org', 'stranger').admitted).toBe(false);
    expect(throttle.admit('owner@example.org', 'home').admitted).toBe(true);
  });

  it('admits again once the oldest attempt leaves the window', () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 3; i++) throttle.admit('a@example.org', 'x');
    clock.now += 59_999;
    expect(throttle.admit('a@example.org', 'x').admitted).toBe(false);
    clock.now += 1;
    expect(throttle.admit('a@example.org', 'x').admitted).toBe(true);
  });

  it('counts attempts per client address across e-mail addresses', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 5; i++) expect(throttle.admit(`p${i}@example.org`, '10.0.0.1').admitted).toBe(true);
    expect(throttle.admit('fresh@example.org', '10.0.0.1').admitted).toBe(false);
    expect(throttle.admit('fresh@example.org', '10.0.0.2').admitted).toBe(true);
  });

  it('forgets the failures of an e-mail address at an address once its password is right there, and takes the attempt back', () => {
    const { throttle } = throttleAt();
    throttle.admit('a@example.org', 'x');
    throttle.admit('a@example.org', 'x');
    const attempt = throttle.admit('a@example.org', 'x');
    if (!attempt.admitted) throw new Error('expected to be admitted');
    attempt.succeeded();
    for (let i = 0; i < 3; i++) expect(throttle.admit('a@example.org', 'x').admitted).toBe(true);
    // Address x: 6 attempts, one of them taken back.
    expect(throttle.admit('b@example.org', 'x').admitted).toBe(false);
  });

  it('counts attempts made at the same time, before any password is checked', () => {
    const { throttle } = throttleAt();
    const admissions = Array.from({ length: 5 }, () => throttle.admit('a@example.org', 'x').admitted);
    expect(admissions).toEqual([true, true, true, false, false]);
  });
});
