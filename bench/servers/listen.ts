// Serves a bench app on a free loopback port, announces its URL on stdout, and stops cleanly on SIGTERM.
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

export function listen(app: Hono, close: () => Promise<void> = async () => {}): void {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    console.log(JSON.stringify({ level: 'info', msg: 'listening', url: `http://127.0.0.1:${info.port}` }));
  });
  process.once('SIGTERM', () => {
    server.close(async () => {
      await close();
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}
