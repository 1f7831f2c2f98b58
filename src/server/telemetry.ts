/**
 * The daemon's side of the telemetry seam (core/telemetry.ts): besides the stages, fetches and
 * database calls the core and the store span, each request is a span of its own — the parent of
 * everything its work opens — ended with its route pattern (never the raw path) and status.
 * Absent, the daemon measures nothing.
 */
import { isIP } from 'node:net';
import type { Telemetry } from '../core/telemetry.js';
import { combinedTelemetry } from '../core/telemetry.js';
import { ConfigError } from '../runtime/node.js';

/** Ends a request's span once its response has closed. */
export interface RequestSpan {
  /** `route`: the route pattern, or null when none matched; `status`: null when the client left before any answer. */
  end(route: string | null, status: number | null): void;
}

export interface ServerTelemetry extends Telemetry {
  /**
   * A request begins (its id already chosen): `next` runs the rest of the request — hooks,
   * handler, the work it starts — inside the request's span, so that their spans are its children.
   */
  request(method: string, requestId: string, next: () => void): RequestSpan;
  /** At shutdown, once the app has closed: sends what is still queued (within a short limit). */
  close?(): Promise<void>;
}

/** Several server telemetries as one (metrics and traces): requests nest like spans. */
export function combinedServerTelemetry(parts: readonly ServerTelemetry[]): ServerTelemetry | undefined {
  const core = combinedTelemetry(parts);
  if (!core) return undefined;
  if (parts.length === 1) return parts[0];
  return {
    within: core.within.bind(core),
    record: core.record.bind(core),
    request(method, requestId, next) {
      const spans: RequestSpan[] = [];
      const start = (index: number): void => {
        if (index === parts.length) return next();
        spans.push(parts[index]!.request(method, requestId, () => start(index + 1)));
      };
      start(0);
      return { end: (route, status) => spans.forEach((span) => span.end(route, status)) };
    },
    close: async () => {
      await Promise.all(parts.map((part) => part.close?.()));
    },
  };
}

/** The Prometheus side of the daemon's telemetry (metrics.ts), for GET /metrics and its listener. */
export interface DaemonMetrics {
  /** The exposition's media type. */
  readonly contentType: string;
  /** Every metric in the text exposition format, collected now. */
  exposition(): Promise<string>;
  /** Where the PostgreSQL pool gauges read from at scrape time (StorageSlot.pool); null: no pool. */
  watchPool(read: () => { total: number; idle: number; waiting: number } | null): void;
}

/** Where SVC_METRICS_LISTEN's listener binds: GET /metrics without a token. */
export interface MetricsListen {
  host: string;
  port: number;
}

/** What `svc serve` measures, from its settings: the telemetry, when any part is on. */
export interface DaemonTelemetry {
  telemetry?: ServerTelemetry;
  /** SVC_METRICS on (the default): the metrics GET /metrics exposes. */
  metrics?: DaemonMetrics;
  /** SVC_METRICS_LISTEN: a listener of its own for GET /metrics. */
  metricsListen?: MetricsListen;
}

/**
 * SVC_METRICS (`on`, the default, or `off`) and SVC_METRICS_LISTEN (`host:port`, `[v6]:port`).
 * A bad value is a ConfigError; a listener with the metrics off would serve nothing, so it is one too.
 */
export function metricsSettings(env: NodeJS.ProcessEnv): { on: boolean; listen?: MetricsListen } {
  const setting = (env['SVC_METRICS'] ?? '').trim().toLowerCase();
  if (!['', 'on', 'off'].includes(setting)) throw new ConfigError(`SVC_METRICS must be on or off, not ${JSON.stringify(setting.slice(0, 16))}`);
  const on = setting !== 'off';
  const raw = (env['SVC_METRICS_LISTEN'] ?? '').trim();
  if (raw === '') return { on };
  if (!on) throw new ConfigError('SVC_METRICS_LISTEN is set but SVC_METRICS=off: unset one of them');
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):([0-9]{1,5})$/.exec(raw);
  const port = match ? Number(match[3]) : Number.NaN;
  const host = match ? (match[1] ?? match[2]!) : '';
  if (!match || !(port >= 0 && port <= 65535) || (match[1] !== undefined && isIP(host) !== 6)) {
    throw new ConfigError(`SVC_METRICS_LISTEN must be host:port (e.g. 127.0.0.1:9464, or [::1]:9464 for IPv6), not ${JSON.stringify(raw.slice(0, 64))}`);
  }
  return { on, listen: { host, port } };
}

/**
 * The daemon's telemetry from the environment: each part is loaded only when its setting turns
 * it on, so a daemon without them imports nothing of it. A bad setting is a ConfigError.
 * `announce`: the start lines of the parts (what they send where), and their warnings later.
 */
export async function daemonTelemetry(env: NodeJS.ProcessEnv, announce: (line: string) => void = () => undefined): Promise<DaemonTelemetry> {
  const parts: ServerTelemetry[] = [];
  // Metrics (SVC_METRICS, on unless off): prom-client, metrics.ts.
  const settings = metricsSettings(env);
  const metrics = settings.on ? new (await import('./metrics.js')).PrometheusTelemetry() : undefined;
  if (metrics) parts.push(metrics);
  // Traces (SVC_OTEL_ENDPOINT): OTLP over HTTP, tracing.ts.
  if ((env['SVC_OTEL_ENDPOINT'] ?? '').trim() !== '') {
    const tracer = (await import('./tracing.js')).tracingFromEnv(env, announce);
    if (tracer) parts.push(tracer);
  }
  const telemetry = combinedServerTelemetry(parts);
  return {
    ...(telemetry ? { telemetry } : {}),
    ...(metrics ? { metrics } : {}),
    ...(settings.listen ? { metricsListen: settings.listen } : {}),
  };
}
