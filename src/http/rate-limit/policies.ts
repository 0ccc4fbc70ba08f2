// The three rate-limit categories of SPEC.md, and which one a request counts against (CONTRACT.md).

export type RateCategory = 'general' | 'write' | 'calculation';

/** SPEC.md's rolling window. */
export const RATE_WINDOW_MS = 60_000;

export interface RatePolicy {
  readonly name: RateCategory;
  /** Requests counted in any window of `windowMs`. */
  readonly limit: number;
  readonly windowMs: number;
  /** The `RateLimit-Policy` field for this policy, made once. */
  readonly header: string;
}

export type RatePolicies = Readonly<Record<RateCategory, RatePolicy>>;

function policy(name: RateCategory, limit: number, windowMs: number): RatePolicy {
  return { name, limit, windowMs, header: `"${name}";q=${limit};w=${Math.ceil(windowMs / 1000)}` };
}

export function ratePolicies(limits: Readonly<Record<RateCategory, number>>, windowMs = RATE_WINDOW_MS): RatePolicies {
  return {
    general: policy('general', limits.general, windowMs),
    write: policy('write', limits.write, windowMs),
    calculation: policy('calculation', limits.calculation, windowMs),
  };
}

const KEY_MANAGEMENT_PATH = /^\/api\/keys(\/[^/]+)?$/;
const CALCULATION_PATH = /\/calculations\/(nitrogen-balance|dose)$/;

/**
 * Key management counts as general whatever the method; a calculation counts only as a
 * calculation (not also as a write); other POST/PUT/PATCH/DELETE as writes; GET and HEAD as general.
 */
export function categoryOf(method: string, path: string): RateCategory {
  if (method === 'GET' || method === 'HEAD' || KEY_MANAGEMENT_PATH.test(path)) return 'general';
  if (method === 'POST' && CALCULATION_PATH.test(path)) return 'calculation';
  return 'write';
}
