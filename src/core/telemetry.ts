/**
 * What svc tells an operator's telemetry — Prometheus metrics (`GET /metrics`) and OpenTelemetry
 * traces (SVC_OTEL_ENDPOINT) — through one seam on the Runtime. Absent (the default, and always
 * in the CLI), nothing is measured: each instrumented place costs one property check.
 *
 * Three kinds of work are spanned: a stage of svc's own `trace` (the same names), an outbound
 * fetch, a database call. Outcomes that only count are recorded as events. No label or event
 * member carries a DID, a URL, a token or a client address: only the closed sets below, and
 * names svc chose (stage names, repository methods).
 */

/** What a span wraps: a stage of `trace` (`dns.resolve`, `web.fetch` …), an outbound fetch, a database call. */
export type SpanKind = 'stage' | 'fetch' | 'db';

/**
 * Set by the body of a span, read when it ends. `outcome` is a short word from a closed set: a
 * stage's status (PASS, FAIL …), a fetch's `ok` or problem code (EGRESS_BLOCKED …), a database
 * call's `ok` or `error`. A body that throws ends its span with the problem's code, or `error`.
 */
export interface SpanNote {
  outcome: string;
  /** Attributes for a trace only (never metric labels): svc's own words, no DID, URL or token. */
  attributes?: Record<string, string | number | boolean>;
}

/** One counted outcome (metrics only; a tracer may ignore it). */
export type TelemetryEvent =
  /** A DID resolution as the core finished it: its method (`key`, `jwk`, `web`, `webvh`, `other`) and `ok` or the problem code. */
  | { type: 'resolution'; method: string; outcome: string; cached: boolean }
  /** A request refused before its work: its client's budget (429) or the daemon's capacity (503). */
  | { type: 'refusal'; reason: 'budget' | 'capacity' }
  /** A credential verified: its format (`vc+jwt`, `vc-di` …) and its status (VALID, INVALID …). */
  | { type: 'credential'; format: string; status: string }
  /** An MCP or A2A inspection: its status (the result's status word). */
  | { type: 'inspection'; kind: 'mcp' | 'a2a'; status: string }
  /** A monitor event written (state PENDING) or settled (DELIVERED, DEAD_LETTER, CANCELLED …). */
  | { type: 'monitor.event'; eventType: string; state: string }
  /** One webhook attempt: how long it took and what was decided (DELIVERED, RETRY …); `owner` for a project's webhook. */
  | { type: 'webhook.attempt'; seconds: number; decision: string; owner: 'operator' | 'customer' }
  /** A claim re-checked: its outcome (the claim's new state). */
  | { type: 'claim.recheck'; outcome: string };

export interface Telemetry {
  /**
   * Runs `body` as a span: a child of the span around the caller (a request, a stage), and the
   * parent of those `body` opens. The body sets `note.outcome`; a throw ends the span with the
   * problem's code. A body's synchronous result ends the span at once.
   */
  within<T>(kind: SpanKind, name: string, body: (note: SpanNote) => T): T;
  /** Counts one outcome. */
  record(event: TelemetryEvent): void;
}

/** The DID method families a metric may name; any other method (or no DID at all) is `other`. */
const METHOD_LABELS: ReadonlySet<string> = new Set(['key', 'jwk', 'web', 'webvh']);

/** The method label of a DID as typed (`did:web:…` → `web`): one of key, jwk, web, webvh, other — never the DID. */
export function didMethodLabel(input: string): string {
  const match = /^did:([a-z0-9]{1,16}):/.exec(input);
  return match && METHOD_LABELS.has(match[1]!) ? match[1]! : 'other';
}

/**
 * Counts an inspection once it has ended: `status` of its result (MCP: READY, AUTH_REQUIRED …;
 * A2A: `ok`), or the problem's code when none could be made.
 */
export async function countedInspection<T>(
  telemetry: Telemetry | undefined,
  kind: 'mcp' | 'a2a',
  status: (result: T) => string,
  work: () => Promise<T>,
): Promise<T> {
  if (!telemetry) return work();
  try {
    const result = await work();
    telemetry.record({ type: 'inspection', kind, status: status(result) });
    return result;
  } catch (err) {
    telemetry.record({ type: 'inspection', kind, status: thrownOutcome(err) });
    throw err;
  }
}

/** The code of whatever a span's body threw: a problem's `code`, else `error`. */
export function thrownOutcome(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z_]{1,40}$/.test(code) ? code : 'error';
}

/**
 * Calls `body` inside the span, ending the span when a promise settles or at once for any other
 * value; a throw (or a rejection) sets the outcome from the error and passes it on. For
 * implementations of `within`.
 */
export function settleSpan<T>(note: SpanNote, body: (note: SpanNote) => T, end: () => void): T {
  let result: T;
  try {
    result = body(note);
  } catch (error) {
    note.outcome = thrownOutcome(error);
    end();
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        end();
        return value;
      },
      (error: unknown) => {
        note.outcome = thrownOutcome(error);
        end();
        throw error;
      },
    ) as T;
  }
  end();
  return result;
}

/** Several telemetries as one (metrics and traces together): spans nest, the outcome is shared. */
export function combinedTelemetry(parts: readonly Telemetry[]): Telemetry | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return {
    within<T>(kind: SpanKind, name: string, body: (note: SpanNote) => T): T {
      const nest = (index: number, shared: SpanNote | undefined): T => {
        if (index === parts.length) return body(shared!);
        return parts[index]!.within(kind, name, (note) => {
          // One note for every part: the innermost body's outcome is each span's.
          if (shared) {
            Object.defineProperty(note, 'outcome', { get: () => shared.outcome, set: (v: string) => (shared.outcome = v), configurable: true });
            Object.defineProperty(note, 'attributes', { get: () => shared.attributes, set: (v) => (shared.attributes = v), configurable: true });
          }
          return nest(index + 1, shared ?? note);
        });
      };
      return nest(0, undefined);
    },
    record(event) {
      for (const part of parts) part.record(event);
    },
  };
}
