// Requests over a fixed set of keep-alive connections, so that measured requests reuse the connections
// a warm-up opened (a new connection costs the server work a kept one does not).
import { Agent, get } from 'node:http';

export class WarmClient {
  readonly #agent: Agent;
  readonly #connections: number;

  constructor(connections: number) {
    this.#connections = connections;
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  /**
   * Sends `amount` GET requests, `connections` at a time; every one must answer 200. `warm`: every
   * request must go over a connection opened before this call.
   */
  async send(url: string, headers: Record<string, string>, amount: number, warm: boolean): Promise<void> {
    let next = 0;
    const one = () =>
      new Promise<void>((resolve, reject) => {
        const request = get(url, { agent: this.#agent, headers }, (response) => {
          response.resume();
          response.once('end', () =>
            response.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${response.statusCode}`)),
          );
        });
        request.once('socket', () => {
          if (warm && !request.reusedSocket) reject(new Error(`${url}: a measured request opened a new connection`));
        });
        request.once('error', reject);
      });
    const worker = async () => {
      while (next < amount) {
        next++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: this.#connections }, worker));
  }

  close(): void {
    this.#agent.destroy();
  }
}
