/**
 * The daemon's side of the telemetry seam (core/telemetry.ts): besides the stages, fetches and
 * database calls the core and the store span, each request is a span of its own — the parent of
 * everything its work opens — ended with its route pattern (never the raw path) and status.
 * Absent, the daemon measures nothing.
 */
import type { Telemetry } from '../core/telemetry.js';
import { combinedTelemetry } from '../core/telemetry.js';

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

/** What `svc serve` measures, from its settings: the telemetry, when any part is on. */
export interface DaemonTelemetry {
  telemetry?: ServerTelemetry;
}

/**
 * The daemon's telemetry from the environment: each part is loaded only when its setting turns
 * it on, so a daemon without them imports nothing of it. A bad setting is a ConfigError.
 * `announce`: the start lines of the parts (what they send where), and their warnings later.
 */
export async function daemonTelemetry(env: NodeJS.ProcessEnv, announce: (line: string) => void = () => undefined): Promise<DaemonTelemetry> {
  const parts: ServerTelemetry[] = [];
  // Traces (SVC_OTEL_ENDPOINT): OTLP over HTTP, tracing.ts.
  if ((env['SVC_OTEL_ENDPOINT'] ?? '').trim() !== '') {
    const tracer = (await import('./tracing.js')).tracingFromEnv(env, announce);
    if (tracer) parts.push(tracer);
  }
  const telemetry = combinedServerTelemetry(parts);
  return telemetry ? { telemetry } : {};
}
