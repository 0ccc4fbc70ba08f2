// What the process holds of answers its clients have not yet taken, across all connections. An answer
// handed to Node whole stays in memory until the operating system takes its last byte; a client that
// does not read keeps it there. The answers held together get one budget: past it, the connections
// whose answers have waited longest are closed, so that clients that read keep being answered.
// And an answer none of which reaches its client for the send timeout is dropped with its connection.
import type { ServerResponse } from 'node:http';

export interface HeldAnswersOptions {
  /** Bytes the answers held for their clients may take together. */
  budgetBytes: number;
  /** How long an answer may make no progress towards its client before its connection is closed. */
  sendTimeoutMs: number;
}

/**
 * Node's socket timeout is the progress signal: it fires only after a whole period in which none of a
 * pending write left (a write making progress re-arms it). Its first period always sees the part the
 * operating system took at once, so one period of the send timeout would close after up to twice it.
 * In periods of a tenth, the connection closes after the send timeout without progress, and at most a
 * tenth more.
 */
const PERIODS = 10;

export class HeldAnswers {
  /** In the order they were handed over, so the first is the one that has waited longest. */
  private readonly answers = new Map<ServerResponse, number>();
  private heldBytes = 0;

  constructor(private readonly options: HeldAnswersOptions) {}

  /** Bytes held now for answers not yet taken. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Called once the app's answer is handed to Node: holds it to account until it is taken or dropped. */
  handedOver(outgoing: ServerResponse): void {
    const bytes = outgoing.writableLength;
    if (bytes === 0) return;
    this.answers.set(outgoing, bytes);
    this.heldBytes += bytes;
    const release = () => {
      if (!this.answers.delete(outgoing)) return;
      this.heldBytes -= bytes;
    };
    outgoing.once('finish', release);
    outgoing.once('close', release);
    this.closeWhenUnread(outgoing);
    for (const [oldest] of this.answers) {
      if (this.heldBytes <= this.options.budgetBytes || oldest === outgoing) break;
      this.drop(oldest);
    }
  }

  private drop(outgoing: ServerResponse): void {
    const bytes = this.answers.get(outgoing);
    if (bytes !== undefined) {
      this.answers.delete(outgoing);
      this.heldBytes -= bytes;
    }
    outgoing.destroy();
  }

  private closeWhenUnread(outgoing: ServerResponse): void {
    const period = this.options.sendTimeoutMs / PERIODS;
    let quiet = 0;
    let previous = performance.now();
    outgoing.setTimeout(period, () => {
      const now = performance.now();
      // A period that ran longer than one and a half was re-armed by progress: counting starts again.
      quiet = now - previous < 1.5 * period ? quiet + 1 : 1;
      previous = now;
      if (quiet >= PERIODS) this.drop(outgoing);
      else outgoing.setTimeout(period);
    });
  }
}
