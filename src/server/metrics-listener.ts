/**
 * SVC_METRICS_LISTEN's listener (docs/operations.md#metrics): `GET /metrics` and nothing else,
 * without a token — for a Prometheus on a private network that the operator chose by naming
 * the address. A plain node:http server: no route of the API, no body read, no header echoed.
 * Not on loopback, it is a relaxation (announced, listed by /health).
 */
import { createServer, type Server } from 'node:http';
import type { DaemonMetrics } from './telemetry.js';

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** Listens on host:port; rejects with the listen error (port in use …). */
export async function listenMetrics(metrics: DaemonMetrics, host: string, port: number): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (path !== '/metrics') return answer(404, 'Not found: this listener serves GET /metrics only.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method not allowed: GET /metrics.\n', { allow: 'GET, HEAD' });
    metrics.exposition().then(
      (text) => answer(200, text, { 'content-type': metrics.contentType }),
      () => answer(500, 'The metrics could not be collected.\n'),
    );
  });
  // A scraper's connection is short-lived; an idle one never holds the shutdown.
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  const shown =
    typeof bound === 'object' && bound !== null ? `${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}` : `${host}:${port}`;
  return {
    url: `http://${shown}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
