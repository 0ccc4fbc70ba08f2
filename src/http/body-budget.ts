// How much request body each family of routes takes: its size in bytes (413 beyond it) and the shape
// of its JSON (400 beyond it). A body costs the server memory and parsing time in proportion to its
// size and its number of values, so each route accepts what its largest valid request needs and not
// the 5 MiB ceiling everywhere: only a field, which may carry a GeoJSON geometry of up to 10,000
// positions, needs megabytes.
import type { JsonShapeLimits } from './json-shape.js';

export interface BodyBudget extends JsonShapeLimits {
  maxBytes: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** The ceiling of every request body: 5 MiB (5 × 1024 × 1024 bytes). */
export const MAX_BODY_BYTES = 5 * MiB;

// A MultiPolygon's positions sit five arrays deep inside the field's body; 64 leaves room for any
// valid body and stops what only recursion would suffer from.
const MAX_DEPTH = 64;

/** Sign-up, sign-in and key management: a handful of short strings. */
export const ACCOUNT_BUDGET: BodyBudget = { maxBytes: 16 * KiB, maxDepth: MAX_DEPTH, maxElements: 1_000 };
/** Every other write. */
export const WRITE_BUDGET: BodyBudget = { maxBytes: 64 * KiB, maxDepth: MAX_DEPTH, maxElements: 10_000 };
/**
 * Field create and update: a geometry of 10,000 positions is some 30,000 elements; the rest of the
 * ceiling leaves the geometry's own checks to judge what is too large (422).
 */
export const GEOMETRY_BUDGET: BodyBudget = { maxBytes: MAX_BODY_BYTES, maxDepth: MAX_DEPTH, maxElements: 200_000 };

/** The routes that take a geometry, as `METHOD path` with Hono's `:param` path syntax. */
const GEOMETRY_ROUTES = new Set(['POST /api/farms/:b_id_farm/fields', 'PATCH /api/fields/:b_id']);

/** The budget of the route `routePath` (Hono's syntax) asked with `method`. */
export function bodyBudgetOf(method: string, routePath: string): BodyBudget {
  if (GEOMETRY_ROUTES.has(`${method} ${routePath}`)) return GEOMETRY_BUDGET;
  if (routePath.startsWith('/auth/') || routePath === '/api/keys' || routePath.startsWith('/api/keys/')) return ACCOUNT_BUDGET;
  return WRITE_BUDGET;
}

/** "16 KiB", "5 MiB": a budget's size as people read it. */
export const describeBytes = (bytes: number) => (bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / KiB} KiB`);
