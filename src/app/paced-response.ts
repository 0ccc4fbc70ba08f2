// An answer written to its connection a piece at a time. @hono/node-server hands Node the app's body
// whole (`end(body)`), and Node gives it to the socket as one write: a string is first copied into a
// UTF-8 buffer sized for three bytes a character (a 4 MB answer took 12 MB), and no part of the write
// counts as sent until its last byte is. Here a large body becomes one UTF-8 Buffer, its own size, and
// is written in pieces of PIECE_BYTES, each once the one before has left: every piece the client takes
// is progress that can be seen (`progressAt`), and Node is handed one piece of it at a time.
import { ServerResponse, type IncomingMessage } from 'node:http';

/** Each piece taken by the client starts the send timeout again: 64 KiB is what a client must take in that time. */
const PIECE_BYTES = 64 * 1024;

export class PacedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** When the answer was handed over or a piece of it last left for the client (performance.now()). */
  progressAt = 0;
  /** The body being written, until its last piece has left (a piece keeps the whole in memory) or the connection is gone. */
  private body: Buffer | undefined;

  /** What the answer holds in memory until its client takes it: the body being written, or what Node holds. */
  get heldBytes(): number {
    return this.body?.byteLength ?? this.writableLength;
  }

  override end(chunk?: unknown, encoding?: BufferEncoding | (() => void), callback?: () => void): this {
    this.progressAt = performance.now();
    const body = largeBody(chunk, typeof encoding === 'string' ? encoding : 'utf8');
    if (body === undefined) return typeof encoding === 'string' ? super.end(chunk, encoding, callback) : super.end(chunk, encoding);
    this.body = body;
    const release = () => (this.body = undefined);
    this.once('finish', release);
    this.once('close', release);
    this.writeFrom(0, typeof encoding === 'function' ? encoding : callback);
    return this;
  }

  private writeFrom(offset: number, callback: (() => void) | undefined): void {
    const progress = () => (this.progressAt = performance.now());
    for (let start = offset; this.body !== undefined && !this.destroyed; start += PIECE_BYTES) {
      const end = start + PIECE_BYTES;
      if (end >= this.body.byteLength) {
        super.end(this.body.subarray(start), callback);
        return;
      }
      if (!this.write(this.body.subarray(start, end), progress)) {
        this.once('drain', () => this.writeFrom(end, callback));
        return;
      }
    }
  }
}

/** `chunk` as one Buffer (bytes are not copied) when it may take more than a piece; else undefined. */
function largeBody(chunk: unknown, encoding: BufferEncoding): Buffer | undefined {
  if (typeof chunk === 'string') return chunk.length > PIECE_BYTES / 3 ? Buffer.from(chunk, encoding) : undefined;
  if (chunk instanceof Uint8Array && chunk.byteLength > PIECE_BYTES) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}
