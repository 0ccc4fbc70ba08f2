// Redis while it answers, this process's memory while it does not: the API keeps serving either way.
import type { RedisWindows } from './redis-windows.js';
import type { RatePolicy } from './policies.js';
import type { CeilingWindow, CountDecision, RateLimitWindows } from './windows.js';

export type RateLimitLog = (level: 'info' | 'warn', msg: string, extra?: Record<string, unknown>) => void;

/**
 * Sends every hit to Redis when its connection is ready, and to the memory store otherwise or
 * when Redis fails to answer. The windows in memory are per process, so during an outage each
 * process holds the limits on its own. Each switch is logged once; the first successful Redis
 * answer after an outage switches back.
 */
export class FallbackWindows implements RateLimitWindows {
  #failing = false;
  #closing = false;
  #settled = false;
  #settle!: () => void;
  // Requests that arrive while the first connection is being made wait for it rather than
  // counting in memory windows that the other processes cannot see.
  readonly #firstConnection = new Promise<void>((resolve) => (this.#settle = resolve));

  constructor(
    private readonly shared: RedisWindows,
    private readonly local: RateLimitWindows,
    private readonly log: RateLimitLog,
  ) {
    const connection = shared.connection;
    if (connection.status === 'ready') this.#settleFirstConnection();
    connection.on('ready', () => this.#settleFirstConnection());
    connection.on('error', (error: Error) => this.#failed(error.message));
    connection.on('close', () => this.#failed('the connection closed'));
  }

  async hit(policy: RatePolicy, bucket: string, ceiling?: CeilingWindow): Promise<CountDecision> {
    if (!this.#settled) await this.#firstConnection;
    if (this.shared.connection.status === 'ready') {
      try {
        const decision = await this.shared.hit(policy, bucket, ceiling);
        if (this.#failing) this.#recovered();
        return decision;
      } catch (error) {
        this.#failed(error instanceof Error ? error.message : String(error));
      }
    }
    return this.local.hit(policy, bucket, ceiling);
  }

  get keptIn(): 'redis' | 'memory' {
    return this.shared.connection.status === 'ready' && !this.#failing ? 'redis' : 'memory';
  }

  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all([this.shared.close(), this.local.close()]);
  }

  #settleFirstConnection(): void {
    this.#settled = true;
    this.#settle();
  }

  #failed(reason: string): void {
    this.#settleFirstConnection();
    if (this.#failing || this.#closing) return;
    this.#failing = true;
    this.log('warn', 'Redis is unreachable: rate limits are kept in this process memory until it is back', { reason });
  }

  #recovered(): void {
    this.#failing = false;
    this.log('info', 'Redis is reachable again: rate limits are shared through Redis again');
  }
}
