// The three rate-limit categories (docs/api.md), which one a request counts against,
// and the ceilings per user across all of a user's keys.

export type RateCategory = 'general' | 'write' | 'calculation';

/** The rolling one-minute window of every limit. */
export const RATE_WINDOW_MS = 60_000;

export interface RatePolicy {
  /** The category, or `<category>-per-user` for a user's ceiling: names the window in headers and in Redis. */
  readonly name: string;
  readonly category: RateCategory;
  /** Requests counted in any window of `windowMs`. */
  readonly limit: number;
  readonly windowMs: number;
  /** The `RateLimit-Policy` field for this policy, made once. */
  readonly header: string;
}

export type RatePolicies = Readonly<Record<RateCategory, RatePolicy>>;

export function ratePolicy(name: string, category: RateCategory, limit: number, windowMs: number): RatePolicy {
  return { name, category, limit, windowMs, header: `"${name}";q=${limit};w=${Math.ceil(windowMs / 1000)}` };
}

export function ratePolicies(limits: Readonly<Record<RateCategory, number>>, windowMs = RATE_WINDOW_MS): RatePolicies {
  return {
    general: ratePolicy('general', 'general', limits.general, windowMs),
    write: ratePolicy('write', 'write', limits.write, windowMs),
    calculation: ratePolicy('calculation', 'calculation', limits.calculation, windowMs),
  };
}

/**
 * The ceilings per user: `factor` × the per-key limit of each category, counted over all of a
 * user's keys and their session together, so that minting keys does not multiply a budget.
 * Undefined (no ceiling) when `factor` is 0.
 */
export function userCeilings(
  limits: Readonly<Record<RateCategory, number>>,
  factor: number,
  windowMs = RATE_WINDOW_MS,
): RatePolicies | undefined {
  if (factor === 0) return undefined;
  const ceiling = (category: RateCategory) =>
    ratePolicy(`${category}-per-user`, category, Math.max(1, Math.round(limits[category] * factor)), windowMs);
  return { general: ceiling('general'), write: ceiling('write'), calculation: ceiling('calculation') };
}

const KEY_MANAGEMENT_PATH = /^\/api\/keys(\/[^/]+)?$/;
const CALCULATION_PATH = /\/calculations\/(nitrogen-balance|organic-matter-balance|dose|norms)$/;

/**
 * Key management counts as general whatever the method; a calculation counts only as a
 * calculation (not also as a write); other POST/PUT/PATCH/DELETE as writes; GET and HEAD as general.
 */
export function categoryOf(method: string, path: string): RateCategory {
  if (method === 'GET' || method === 'HEAD' || KEY_MANAGEMENT_PATH.test(path)) return 'general';
  if (method === 'POST' && CALCULATION_PATH.test(path)) return 'calculation';
  return 'write';
}
