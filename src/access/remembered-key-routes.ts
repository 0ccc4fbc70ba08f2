// The handlers of requests that may change something (any method but GET, HEAD and OPTIONS) which may
// be served on a remembered key, a hint that the request's first statement confirms, as every read is
// (key-check.ts): those that change nothing (a calculation asks access first, as a read does), and those
// whose every change is an audited write, whose first statement checks the key before anything is
// changed (audited-write.ts). Every other such request is served only on a key looked up first, so that
// nothing is changed with a key revoked a moment ago by another process.
const handlers = new WeakSet<object>();

/** Marks a route's handler, as the route registers it, as one that may be served on a remembered key. */
export function servedOnRememberedKey<H extends object>(handler: H): H {
  handlers.add(handler);
  return handler;
}

/** Whether a route's handler was marked by `servedOnRememberedKey`. */
export const isServedOnRememberedKey = (handler: object): boolean => handlers.has(handler);
