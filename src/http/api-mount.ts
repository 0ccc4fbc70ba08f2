// Puts the API's checks (app.ts) inside each /api route's own first handler instead of in a Hono
// middleware layer. Hono runs a request matched by a single handler directly; a middleware layer
// in front makes it compose the two, with async frames and generic property loads on every request
// (about 3,000 instructions of a farm read in bench:instructions). A path no route serves never
// reaches a route handler: app.ts runs the checks for it from notFound.
import type { Context, Hono } from 'hono';
import type { AppEnv, Check } from './context.js';
import { isUnder } from './guards.js';

type Handler = (c: Context<AppEnv>, next: () => Promise<void>) => unknown;

/** The first handlers of routes that run the checks: what `assertApiRoutesChecked` looks for. */
const checkedHandlers = new WeakSet<object>();

/** `handler` behind `checks`; what it answers becomes the request's answer, which the checks then see. */
function behindChecks(checks: Check, handler: Handler): Handler {
  const checked: Handler = (c, next) =>
    checks(c, () => {
      const answer = handler(c, next);
      if (answer instanceof Promise) return answer.then((response: unknown) => answerWith(c, response));
      answerWith(c, answer);
      return Promise.resolve();
    });
  checkedHandlers.add(checked);
  return checked;
}

function answerWith(c: Context<AppEnv>, response: unknown): void {
  if (response instanceof Response) c.res = response;
}

/**
 * Puts `checks` in front of every route of `routes` under /api, as part of the route's first handler,
 * and returns `routes` to be mounted with `app.route`.
 */
export function withApiChecks<T extends Hono<any>>(routes: T, checks: Check): T {
  for (const route of firstHandlersUnderApi(routes)) route.handler = behindChecks(checks, route.handler as Handler) as never;
  return routes;
}

/** Throws at start-up if a route under /api was mounted without the checks (authentication among them). */
export function assertApiRoutesChecked(app: Hono<any>): void {
  for (const route of firstHandlersUnderApi(app)) {
    if (!checkedHandlers.has(route.handler)) {
      throw new Error(`${route.method} ${route.path} is served without the API's checks: mount its routes with withApiChecks.`);
    }
  }
}

/** The entry of each /api route's first handler: Hono lists a route's handlers as consecutive entries of one method and path. */
function* firstHandlersUnderApi(app: Hono<any>): Generator<Hono<any>['routes'][number]> {
  let previous: { method: string; path: string } | undefined;
  for (const route of app.routes) {
    const first = previous?.method !== route.method || previous.path !== route.path;
    previous = route;
    if (first && isUnder(route.path, '/api')) yield route;
  }
}
