// The size limit on request bodies, counted on the bytes received, that leaves the connection usable
// whatever the response.
//
// Why not hono/body-limit: it touches the body stream even when Content-Length already tells the size,
// and it stops reading a chunked body at the limit. On @hono/node-server a body stream that is touched
// and then not read to its end holds the socket paused: the server's drain after the response cannot
// finish, and after 500 ms it destroys the socket, which by then may carry the client's next request
// on the same keep-alive connection (that request dies with ECONNRESET). So: a declared length is
// judged from the header alone (Node discards an unread body itself), and a streamed body is either
// read to its end or, past the limit, read on and thrown away after the response.
import type { Context } from 'hono';
import { ApiError } from './problem.js';

/** What is thrown away after refusing a streamed body; a client that sends more loses the connection. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * Whether the body is at most `maxBytes`. A streamed body within it is buffered, so what comes after
 * reads it as usual; a larger one is read on and thrown away after the response.
 */
export async function bodyFits(c: Context, maxBytes: number): Promise<boolean> {
  const declared = declaredLength(c);
  if (declared !== undefined) return declared <= maxBytes;
  const stream = c.req.raw.body;
  if (stream === null) return true;
  const body = await readUpTo(stream.getReader(), maxBytes);
  if (body === undefined) return false;
  c.req.raw = new Request(c.req.raw, { body });
  return true;
}

/** The Content-Length of a body sent with one (Node has refused a malformed or contradicting one). */
export function declaredLength(c: Context): number | undefined {
  const length = c.req.header('content-length');
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) return undefined;
  return Number(length);
}

/** The whole body, or undefined when it is larger than `maxBytes` (the rest is then thrown away). */
async function readUpTo(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(bodyCutOff);
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      discardRest(reader);
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * A body stream fails when its client goes away before the end (or breaks the chunked framing): a
 * request that was never whole, answered 400 to whoever is left, and no fault of the server to log.
 */
function bodyCutOff(): never {
  throw new ApiError('bad-request', 'The request body ended before it was complete.');
}

/** Reads the rest of a refused body in the background, so the connection can carry the next request. */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const pump = async () => {
    let discarded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > MAX_DISCARDED_BYTES) return reader.cancel();
    }
  };
  // A client that goes away mid-body ends the read with an error: there is no one left to tell.
  pump().catch(() => undefined);
}
