// Where Akker is and the key to it: --url / --key, else AKKER_URL / AKKER_API_KEY. The key is never printed.
import { createAkkerClient, createGeoJsonClient, type AkkerClient, type AkkerGeoJsonClient } from '@akker/client';
import { CommandFailure } from './failures.js';

export interface ConnectionOptions {
  url?: string;
  key?: string;
}

export interface Connection {
  url: string;
  /** Passed with every call: aborted once Akker is found not to be there, so no call waits out its retries. */
  signal: AbortSignal;
  json: AkkerClient;
  geoJson: AkkerGeoJsonClient;
}

/** Told when Akker answers 429: the client waits out the Retry-After (in seconds) before it sends again. */
export type RateLimitListener = (retryAfterSeconds: number) => void;

// A run of hundreds of writes meets the write limit again and again: each call waits as often as it takes.
const retries = { maxAttempts: 50, maxRetryAfterSeconds: 300 };

export function connect(options: ConnectionOptions, env: NodeJS.ProcessEnv, onRateLimited: RateLimitListener = () => {}): Connection {
  const url = options.url ?? env.AKKER_URL;
  const apiKey = options.key ?? env.AKKER_API_KEY;
  if (!url) throw new CommandFailure('where is Akker? Set AKKER_URL or give --url, e.g. --url http://127.0.0.1:3000');
  if (!apiKey) throw new CommandFailure('no API key: set AKKER_API_KEY or give --key');
  try {
    new URL(url);
  } catch {
    throw new CommandFailure(`--url ${url} is not a URL`);
  }
  const stop = new AbortController();
  const observing: typeof fetch = async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      // Nobody listens there: retrying would only wait. A lost answer (a reset) is retried by the client as ever.
      if (noServer(error)) stop.abort(new CommandFailure(`cannot reach Akker at ${url}: ${noServer(error)}`));
      throw error;
    }
    if (response.status === 429) onRateLimited(Number(response.headers.get('retry-after')) || 1);
    return response;
  };
  const settings = { baseUrl: url.replace(/\/+$/, ''), apiKey, fetch: observing, ...retries };
  return { url, signal: stop.signal, json: createAkkerClient(settings), geoJson: createGeoJsonClient(settings) };
}

/** The error code of a request that found no server (refused, unknown host, unreachable), or undefined. */
function noServer(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  return code !== undefined && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code) ? code : undefined;
}

/** A failure to reach Akker (refused, reset, unknown host) as a command failure; anything else as it is. */
export function unreachable(error: unknown): unknown {
  if (!(error instanceof TypeError) || !(error.cause instanceof Error)) return error;
  return new CommandFailure(`cannot reach Akker: ${error.cause.message}`);
}
