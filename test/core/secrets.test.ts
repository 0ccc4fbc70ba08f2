// Identifiers come from a pool of random bytes refilled as it runs out: each is 128 bits of its own,
// across refills too.
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/secrets.js';

describe('newId', () => {
  it('answers distinct URL-safe identifiers of 128 bits, across many refills of its pool', () => {
    const ids = Array.from({ length: 5_000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
  });
});
