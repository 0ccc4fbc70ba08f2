// The fetch the client sends every request with: it retries a request the server refused with 429 once
// Retry-After has passed, and a request that failed on the network when sending it again is safe.

export interface RetryOptions {
  /** Attempts per call, the first one included (default 4). */
  maxAttempts?: number;
  /** The longest Retry-After waited for, in seconds (default 60); a 429 asking more is answered as it is. */
  maxRetryAfterSeconds?: number;
  /** Wait before the first retry after a network error, in milliseconds, doubled for each further one (default 250). */
  networkRetryDelayMs?: number;
}

const IDEMPOTENCY_KEY = 'Idempotency-Key';
/** The one POST the API refuses an Idempotency-Key on (400): its answer holds a new raw API key, which is never stored. */
const KEY_CREATION = /\/api\/keys$/;

/** Whether the client gives `request` an Idempotency-Key of its own. */
const takesIdempotencyKey = (request: Request) =>
  request.method === 'POST' && !request.headers.has(IDEMPOTENCY_KEY) && !KEY_CREATION.test(new URL(request.url).pathname);

/** A 429's Retry-After in milliseconds (delay-seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Whether a request whose answer was lost may be sent again: a read, or a POST carrying an
 * Idempotency-Key, which the server answers from its first attempt. A PATCH or DELETE is not resent:
 * its first attempt may have been carried out, and the second would then answer 412 or 404.
 */
const safeToResend = (request: Request) =>
  request.method === 'GET' || request.method === 'HEAD' || (request.method === 'POST' && request.headers.has(IDEMPOTENCY_KEY));

/**
 * Whether the answer is 409 idempotency-in-progress: the request under this key that the server got
 * first (an attempt whose answer was lost) is still at work, and will have an answer to replay.
 */
async function keyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const problem: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const type = typeof problem === 'object' && problem !== null ? (problem as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.endsWith('/errors/idempotency-in-progress');
}

/**
 * `send` with retries. Every POST without an Idempotency-Key gets one (but key creation), made once for the call and kept
 * by its retries, so the server carries out the call at most once however often it is resent; while an
 * earlier attempt is still at work (409 idempotency-in-progress), the POST is resent after the same
 * waits as after a network error. A 429 is resent whatever the method: the server refused it before
 * doing anything.
 */
export function retryingFetch(send: typeof globalThis.fetch, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const maxAttempts = options.maxAttempts ?? 4;
  const maxRetryAfterMs = (options.maxRetryAfterSeconds ?? 60) * 1000;
  const networkRetryDelayMs = options.networkRetryDelayMs ?? 250;
  return async (request) => {
    if (takesIdempotencyKey(request)) request.headers.set(IDEMPOTENCY_KEY, crypto.randomUUID());
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      // A body can be sent once: each attempt but the last sends a copy.
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await send(sent);
      } catch (error) {
        if (last || request.signal.aborted || !safeToResend(request)) throw error;
        await wait(networkRetryDelayMs * 2 ** (attempt - 1), request.signal);
        continue;
      }
      if (last) return response;
      if (await keyInUse(response)) {
        await response.body?.cancel();
        await wait(networkRetryDelayMs * 2 ** (attempt - 1), request.signal);
        continue;
      }
      if (response.status !== 429) return response;
      const delay = retryAfterMs(response);
      if (delay === undefined || delay > maxRetryAfterMs) return response;
      await response.body?.cancel();
      await wait(delay, request.signal);
    }
  };
}
