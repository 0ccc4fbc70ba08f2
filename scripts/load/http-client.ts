// A small keep-alive HTTP client: one socket per connection of the load, the body read in full.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export class HttpClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  /** `keepAlive` false: a connection per request (no reuse of one the server is closing as idle). */
  constructor(baseUrl: string, connections: number, keepAlive = true) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive, maxSockets: connections, maxFreeSockets: connections });
  }

  send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const allHeaders =
      payload === undefined
        ? headers
        : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    return new Promise((resolve, reject) => {
      const req = request({ host: this.host, port: this.port, method, path, headers: allHeaders, agent: this.agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
