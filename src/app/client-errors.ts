// What Node's HTTP server refuses before the app sees a request (header fields over its limit, bytes
// that are not HTTP, a request that takes too long to arrive), answered as problem+json like every
// other error. Left to Node, these answers are plain status lines with no body.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, errorCodes, problemBody } from '../http/problem.js';

interface ClientError extends Error {
  code?: string;
  /** The bytes Node was parsing when it gave up: usually the start of the request. */
  rawPacket?: Buffer;
}

function asApiError(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'request-header-fields-too-large',
        'The request line and header fields together are larger than the server accepts.',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload-too-large', 'The chunk extensions of the request body are larger than the server accepts.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request-timeout', 'The request did not arrive in full in time.');
    default:
      return new ApiError('bad-request', 'The request is not valid HTTP/1.1.');
  }
}

/** The path of the request line at the start of `packet`, or '' when none can be read there. */
function requestPath(packet: Buffer | undefined): string {
  const line = packet?.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = /^[A-Z]+ (\/[^\s?#]*)/.exec(line)?.[1];
  return target ?? '';
}

/**
 * The responses of each connection that may still be under way, from the server's requests. Pipelined
 * requests are answered in turn, so more than one can be waiting; finished ones are dropped as the
 * connection's next request comes.
 */
function responsesOfConnections(server: Server): WeakMap<Duplex, Set<ServerResponse>> {
  const answers = new WeakMap<Duplex, Set<ServerResponse>>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const ofConnection = answers.get(request.socket);
    if (ofConnection === undefined) {
      answers.set(request.socket, new Set([response]));
      return;
    }
    for (const answer of ofConnection) if (answer.writableFinished) ofConnection.delete(answer);
    ofConnection.add(response);
  });
  return answers;
}

/** Whether one of `answers` has begun and is not yet written out whole. */
function anyUnderWay(answers: Set<ServerResponse> | undefined): boolean {
  if (answers !== undefined) for (const answer of answers) if (answer.headersSent && !answer.writableFinished) return true;
  return false;
}

/** How long an answered connection may go on sending before it is closed regardless. */
const LINGER_MS = 2000;

/** Answers `server`'s client errors as problem+json and closes the connection, as Node does after its own answer. */
export function refuseClientErrors(server: Server, errorsUrl: string): void {
  const answers = responsesOfConnections(server);
  // Node's parser reports its error again for every further chunk of the connection: answered once.
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // A reset connection has no one left to answer; nor has one whose answer has begun: a refusal
    // written now would land in the middle of it.
    if (error.code === 'ECONNRESET' || !socket.writable || anyUnderWay(answers.get(socket))) {
      socket.destroy();
      return;
    }
    const refusal = asApiError(error.code);
    const body = JSON.stringify(problemBody(refusal, errorsUrl, requestPath(error.rawPacket)));
    const head =
      `HTTP/1.1 ${refusal.status} ${errorCodes[refusal.code].title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n';
    socket.end(head + body);
    // What the client still sends is read and dropped until it closes its side: closing a connection
    // with bytes unread makes the system reset it, and a reset can cost the client the response.
    socket.resume();
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  });
}
