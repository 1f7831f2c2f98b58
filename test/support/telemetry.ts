/**
 * A telemetry that keeps what it is told (spans as a tree, events in order), for tests of the
 * seam: spans nest through AsyncLocalStorage, as a tracer's do.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { settleSpan, type SpanKind, type SpanNote, type TelemetryEvent } from '../../src/core/telemetry.js';
import type { ServerTelemetry } from '../../src/server/telemetry.js';

export interface RecordedSpan {
  kind: SpanKind | 'request';
  name: string;
  outcome: string;
  children: RecordedSpan[];
  ended: boolean;
  /** For a request: its route pattern and status once ended. */
  route?: string | null;
  status?: number | null;
}

export class RecordingTelemetry implements ServerTelemetry {
  readonly roots: RecordedSpan[] = [];
  readonly events: TelemetryEvent[] = [];
  readonly #current = new AsyncLocalStorage<RecordedSpan>();

  within<T>(kind: SpanKind, name: string, body: (note: SpanNote) => T): T {
    const span = this.#open(kind, name);
    const note: SpanNote = { outcome: 'ok' };
    return this.#current.run(span, () =>
      settleSpan(note, body, () => {
        span.outcome = note.outcome;
        span.ended = true;
      }),
    );
  }

  record(event: TelemetryEvent): void {
    this.events.push(event);
  }

  request(method: string, _requestId: string, next: () => void) {
    const span = this.#open('request', method);
    this.#current.run(span, next);
    return {
      end: (route: string | null, status: number | null) => {
        Object.assign(span, { route, status, ended: true, outcome: String(status) });
      },
    };
  }

  #open(kind: RecordedSpan['kind'], name: string): RecordedSpan {
    const span: RecordedSpan = { kind, name, outcome: '', children: [], ended: false };
    const parent = this.#current.getStore();
    (parent ? parent.children : this.roots).push(span);
    return span;
  }
}

/** Every span of a tree, depth first. */
export function allSpans(spans: readonly RecordedSpan[]): RecordedSpan[] {
  return spans.flatMap((span) => [span, ...allSpans(span.children)]);
}
