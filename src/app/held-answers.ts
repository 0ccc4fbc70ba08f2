// What the process holds of answers its clients have not yet taken, across all connections. An answer
// stays in memory until the operating system takes its last byte (paced-response.ts); a client that
// does not read keeps it there. The answers held together get one budget: past it, the connections
// whose answers have waited longest are closed, so that clients that read keep being answered.
// And an answer of which nothing more reaches its client for the send timeout is dropped with its
// connection.
import type { PacedResponse } from './paced-response.js';

export interface HeldAnswersOptions {
  /** Bytes the answers held for their clients may take together. */
  budgetBytes: number;
  /** How long an answer may make no progress towards its client before its connection is closed. */
  sendTimeoutMs: number;
}

export class HeldAnswers {
  /** In the order they were handed over, so the first is the one that has waited longest. */
  private readonly answers = new Map<PacedResponse, number>();
  private heldBytes = 0;

  constructor(private readonly options: HeldAnswersOptions) {}

  /** Bytes held now for answers not yet taken. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Called once the app's answer is handed to Node: holds it to account until it is taken or dropped. */
  handedOver(outgoing: PacedResponse): void {
    const bytes = outgoing.heldBytes;
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

  private drop(outgoing: PacedResponse): void {
    const bytes = this.answers.get(outgoing);
    if (bytes !== undefined) {
      this.answers.delete(outgoing);
      this.heldBytes -= bytes;
    }
    outgoing.destroy();
  }

  /**
   * The check is due a send timeout after the last progress: the timer is armed for the time left then,
   * so that a late timer makes the close late by that once, not once a period.
   */
  private closeWhenUnread(outgoing: PacedResponse): void {
    const { sendTimeoutMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      const left = outgoing.progressAt + sendTimeoutMs - performance.now();
      if (left > 0) timer = setTimeout(check, left);
      else this.drop(outgoing);
    };
    check();
    const stop = () => clearTimeout(timer);
    outgoing.once('finish', stop);
    outgoing.once('close', stop);
  }
}
