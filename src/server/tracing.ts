/**
 * OpenTelemetry traces of the daemon (SVC_OTEL_ENDPOINT): each request is a trace whose root is
 * the request's span (SERVER) and whose children are the stages of its work (the same names as
 * `trace`), its outbound fetches and its database calls, sent to a collector as OTLP over HTTP
 * (JSON). Loaded only by daemonTelemetry (telemetry.ts) when the setting is on.
 *
 * Why a small exporter of our own and not the OpenTelemetry JS SDK: the SDK's current major
 * (core, resources, context-async-hooks 3.x; the OTLP exporters 0.300+) needs Node >= 22.15, which
 * svc does not require; the last line that runs on Node 20 (2.12 / 0.223) is the superseded major,
 * and its OTLP/HTTP trace exporter brings the logs and metrics SDKs and protobufjs along (some ten
 * packages) to write a JSON body. What svc needs is small — spans nested through AsyncLocalStorage,
 * a bounded queue sent in batches, a flush at shutdown — and kept here it cannot put anything on a
 * span that svc did not choose.
 *
 * What never appears on a span: a DID, a URL, a token, a client address. Names are svc's own
 * (`GET /1.0/identifiers/*`, stage names, `observations.record`); attributes are the outcome, the
 * route pattern, the status, the method and the request id (`svc.request_id`); any string value
 * that looks like a DID or a URL is left out all the same (a client may choose its X-Request-Id).
 *
 * An incoming W3C `traceparent` is not honoured: every request starts a trace of its own. The seam
 * hands the telemetry nothing the client sent (the method and svc's request id only), and a trace
 * id taken from a header would let any client that reaches the daemon directly join or pollute
 * another trace. A proxy's trace and svc's are joined by the request id instead: a proxy's
 * `X-Request-Id` of sane shape is kept (request-id.ts) and is the span's `svc.request_id`.
 *
 * Work outside a request (the monitor's checks, webhook deliveries) opens no trace: a span with no
 * request around it is not recorded, so each trace is one request.
 *
 * Delivery never holds a request up: finished spans wait in a bounded queue (past it, new ones
 * are dropped and counted), sent in batches every second or once enough wait, one export at a
 * time, each limited in time; a collector that is down or refuses loses that batch (one warning
 * line until it answers again). `close()` sends what waits, within a short limit.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { settleSpan, type SpanKind, type SpanNote, type TelemetryEvent } from '../core/telemetry.js';
import { ConfigError } from '../runtime/node.js';
import { VERSION } from '../version.js';
import type { RequestSpan, ServerTelemetry } from './telemetry.js';

/** Where and as what spans are sent. */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL (…/v1/traces), userinfo removed (sent as Basic authorization). */
  url: URL;
  /** The URL as announced: no userinfo, no query. */
  shown: string;
  /** `Authorization` for a collector URL with userinfo. */
  authorization?: string;
  serviceName: string;
}

const ENDPOINT_FIX = "give the collector's OTLP/HTTP base URL (…/v1/traces is appended) or its traces URL, e.g. SVC_OTEL_ENDPOINT=http://127.0.0.1:4318";

/**
 * SVC_OTEL_ENDPOINT and SVC_OTEL_SERVICE_NAME, or undefined when tracing is off (unset or empty).
 * A malformed value is a ConfigError naming the setting (the value is not repeated: it may hold
 * credentials).
 */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings | undefined {
  const raw = (env['SVC_OTEL_ENDPOINT'] ?? '').trim();
  if (raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SVC_OTEL_ENDPOINT is not a URL; ${ENDPOINT_FIX}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`SVC_OTEL_ENDPOINT must be an http:// or https:// URL (OTLP over HTTP); ${ENDPOINT_FIX}`);
  if (url.hash !== '') throw new ConfigError(`SVC_OTEL_ENDPOINT has a #fragment; ${ENDPOINT_FIX}`);
  let authorization: string | undefined;
  if (url.username !== '' || url.password !== '') {
    authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  if (!url.pathname.endsWith('/v1/traces')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  const serviceName = (env['SVC_OTEL_SERVICE_NAME'] ?? '').trim() || 'svc';
  if (!/^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/.test(serviceName)) {
    throw new ConfigError('SVC_OTEL_SERVICE_NAME must be 1 to 64 letters, digits, dots, dashes, underscores or slashes, e.g. SVC_OTEL_SERVICE_NAME=svc-eu-1');
  }
  return { url, shown: `${url.origin}${url.pathname}`, ...(authorization ? { authorization } : {}), serviceName };
}

/** How the exporter batches (tests and the bench may shorten them). */
export interface ExportLimits {
  /** Finished spans kept waiting at most; past it new spans are dropped. */
  maxQueue: number;
  /** Spans per export request. */
  maxBatch: number;
  /** How often waiting spans are sent, in ms. */
  intervalMs: number;
  /** One export request's time limit, in ms. */
  timeoutMs: number;
  /** close()'s time limit for what still waits, in ms. */
  closeMs: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = { maxQueue: 4096, maxBatch: 512, intervalMs: 1000, timeoutMs: 5000, closeMs: 3000 };

type AttributeValue = string | number | boolean;

/** A span as it runs, then as it waits to be sent. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: 1 | 2 | 3;
  start: string;
  end: string;
  attributes: Record<string, AttributeValue>;
  /** OTLP status code: 0 unset, 2 error. */
  status: 0 | 2;
}

const KINDS: Record<SpanKind, 1 | 3> = { stage: 1, fetch: 3, db: 3 };

/** A DID or anything URL-like: never an attribute value, whoever set it. */
const FORBIDDEN_VALUE = /did:|:\/\//i;

/** Ids come from one random buffer, refilled when used up: a span costs no syscall of its own. */
class Ids {
  #pool = Buffer.alloc(4096);
  #at = this.#pool.length;
  hex(bytes: number): string {
    if (this.#at + bytes > this.#pool.length) {
      randomFillSync(this.#pool);
      this.#at = 0;
    }
    const out = this.#pool.toString('hex', this.#at, this.#at + bytes);
    this.#at += bytes;
    return out;
  }
}

/** Unix time in nanoseconds, as OTLP/JSON writes a fixed64 (a decimal string), to the microsecond. */
function nowNanos(): string {
  const ms = performance.timeOrigin + performance.now();
  const whole = Math.floor(ms);
  return `${whole}${String(Math.floor((ms - whole) * 1e3)).padStart(3, '0')}000`;
}

export interface TracerOptions {
  settings: TracingSettings;
  limits?: Partial<ExportLimits>;
  /** One line for the operator (a collector that stopped answering, spans dropped). */
  warn?: (line: string) => void;
}

/** The daemon's traces: a ServerTelemetry that sends its spans to an OTLP/HTTP collector. */
export class OtlpTracer implements ServerTelemetry {
  readonly #current = new AsyncLocalStorage<Span>();
  readonly #ids = new Ids();
  readonly #settings: TracingSettings;
  readonly #limits: ExportLimits;
  readonly #warn: (line: string) => void;
  readonly #agent: http.Agent;
  readonly #resource: string;
  #queue: Span[] = [];
  #sending: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Spans lost since the last warning (a full queue, a failed export). */
  #dropped = 0;
  /** The collector failed last time: one warning per outage, not one per batch. */
  #failing = false;

  constructor(options: TracerOptions) {
    this.#settings = options.settings;
    this.#limits = { ...DEFAULT_EXPORT_LIMITS, ...options.limits };
    this.#warn = options.warn ?? (() => undefined);
    const secure = this.#settings.url.protocol === 'https:';
    this.#agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 2 }) : new http.Agent({ keepAlive: true, maxSockets: 2 });
    this.#resource = JSON.stringify({
      attributes: attributeList({
        'service.name': this.#settings.serviceName,
        'service.version': VERSION,
        'telemetry.sdk.name': 'svc',
        'telemetry.sdk.language': 'nodejs',
      }),
    });
    this.#timer = setInterval(() => void this.#send(), this.#limits.intervalMs);
    this.#timer.unref();
  }

  request(method: string, requestId: string, next: () => void): RequestSpan {
    const span = this.#open(undefined, method, 2);
    span.attributes['http.request.method'] = method;
    setSafe(span.attributes, 'svc.request_id', requestId);
    this.#current.run(span, next);
    return {
      end: (route, status) => {
        span.name = `${method} ${route ?? 'unmatched'}`;
        if (route !== null) span.attributes['http.route'] = route;
        if (status !== null) span.attributes['http.response.status_code'] = status;
        span.attributes['svc.outcome'] = status === null ? 'abandoned' : String(status);
        if (status !== null && status >= 500) span.status = 2;
        this.#finish(span);
      },
    };
  }

  within<T>(kind: SpanKind, name: string, body: (note: SpanNote) => T): T {
    const parent = this.#current.getStore();
    // Outside a request: no trace (see above).
    if (parent === undefined) return body({ outcome: 'ok' });
    const span = this.#open(parent, name, KINDS[kind]);
    span.attributes['svc.span.kind'] = kind;
    const note: SpanNote = { outcome: 'ok' };
    return this.#current.run(span, () =>
      settleSpan(note, body, () => {
        setSafe(span.attributes, 'svc.outcome', note.outcome);
        for (const [key, value] of Object.entries(note.attributes ?? {})) setSafe(span.attributes, `svc.${key}`, value);
        if (note.outcome === 'error') span.status = 2;
        this.#finish(span);
      }),
    );
  }

  /** Counted outcomes are the metrics' business. */
  record(_event: TelemetryEvent): void {}

  /** Sends what waits (within closeMs), then stops. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    const deadline = Date.now() + this.#limits.closeMs;
    const drained = (async () => {
      while ((this.#queue.length > 0 || this.#sending) && Date.now() < deadline) await this.#send(true);
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#limits.closeMs)))]);
    clearTimeout(timer);
    this.#agent.destroy();
  }

  #open(parent: Span | undefined, name: string, kind: 1 | 2 | 3): Span {
    return {
      traceId: parent ? parent.traceId : this.#ids.hex(16),
      spanId: this.#ids.hex(8),
      parentSpanId: parent ? parent.spanId : '',
      name,
      kind,
      start: nowNanos(),
      end: '',
      attributes: {},
      status: 0,
    };
  }

  #finish(span: Span): void {
    if (span.end !== '') return;
    span.end = nowNanos();
    if (this.#queue.length >= this.#limits.maxQueue) {
      this.#dropped += 1;
      return;
    }
    this.#queue.push(span);
    if (this.#queue.length >= this.#limits.maxBatch && !this.#sending) void this.#send();
  }

  /** One export at a time; `closing`: also while closed, and wait for the one in flight. */
  #send(closing = false): Promise<void> {
    if (this.#sending) return closing ? this.#sending : Promise.resolve();
    if (this.#queue.length === 0 || (this.#closed && !closing)) return Promise.resolve();
    const batch = this.#queue.splice(0, this.#limits.maxBatch);
    this.#sending = this.#post(batch).finally(() => {
      this.#sending = null;
      // More than a batch waited: the rest follows at once.
      if (!this.#closed && this.#queue.length >= this.#limits.maxBatch) void this.#send();
    });
    return this.#sending;
  }

  async #post(batch: Span[]): Promise<void> {
    const body = `{"resourceSpans":[{"resource":${this.#resource},"scopeSpans":[{"scope":{"name":"svc","version":${JSON.stringify(VERSION)}},"spans":${JSON.stringify(batch.map(otlpSpan))}}]}]}`;
    const failure = await this.#request(body);
    if (failure === undefined) {
      if (this.#failing || this.#dropped > 0) {
        this.#warn(`svc: traces reach ${this.#settings.shown} again${this.#dropped > 0 ? ` (${this.#dropped} spans were dropped)` : ''}`);
      }
      this.#failing = false;
      this.#dropped = 0;
      return;
    }
    this.#dropped += batch.length;
    if (!this.#failing) this.#warn(`svc: warning: traces could not be sent to ${this.#settings.shown} (${failure}); spans are dropped until it answers`);
    this.#failing = true;
  }

  /** Undefined when the collector took the batch; else why not, in a few words. */
  #request(body: string): Promise<string | undefined> {
    const url = this.#settings.url;
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve) => {
      const req = send(url, {
        method: 'POST',
        agent: this.#agent,
        timeout: this.#limits.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(this.#settings.authorization ? { authorization: this.#settings.authorization } : {}),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode !== undefined && res.statusCode < 300 ? undefined : `HTTP ${res.statusCode}`));
        res.on('error', () => resolve('the answer broke off'));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.#limits.timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end(body);
    });
  }
}

/** Sets a string attribute only when it cannot be a DID or a URL (numbers and booleans always). */
function setSafe(attributes: Record<string, AttributeValue>, key: string, value: AttributeValue): void {
  if (typeof value === 'string' && FORBIDDEN_VALUE.test(value)) return;
  attributes[key] = value;
}

function attributeList(attributes: Record<string, AttributeValue>): unknown[] {
  return Object.entries(attributes).map(([key, value]) => ({
    key,
    value:
      typeof value === 'string'
        ? { stringValue: value }
        : typeof value === 'boolean'
          ? { boolValue: value }
          : Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value },
  }));
}

function otlpSpan(span: Span): unknown {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId !== '' ? { parentSpanId: span.parentSpanId } : {}),
    name: span.name,
    kind: span.kind,
    startTimeUnixNano: span.start,
    endTimeUnixNano: span.end,
    attributes: attributeList(span.attributes),
    status: { code: span.status },
  };
}

/** The tracing part of daemonTelemetry: undefined when SVC_OTEL_ENDPOINT is unset; a bad setting throws. */
export function tracingFromEnv(env: NodeJS.ProcessEnv, announce: (line: string) => void): OtlpTracer | undefined {
  const settings = tracingSettings(env);
  if (!settings) return undefined;
  announce(`svc: tracing to ${settings.shown} (OTLP/HTTP JSON, service ${settings.serviceName})`);
  return new OtlpTracer({ settings, warn: announce });
}
