/**
 * Prometheus metrics (docs/operations.md#metrics): the telemetry seam's spans and events counted
 * in a prom-client Registry of the daemon's own — never prom-client's global one, so two daemons
 * in one process (tests) and a library caller's own metrics never mix. Loaded only by
 * daemonTelemetry (telemetry.ts) when SVC_METRICS is on; the CLI never loads it.
 *
 * Every label comes from a closed set or a name svc chose: HTTP methods, route patterns (never the
 * raw path: `unmatched` when no route matched), statuses, DID method families, problem codes,
 * stage names, repository methods. A value that could carry a DID, a URL, a token, a client
 * address or a request id is never a label.
 *
 * Buckets, from svc's own latencies, measured in process (Fastify inject, 2 shared cores, p50 /
 * p99): a cached fast-verify 0.13–0.17 / 6–13 ms; a did:key resolution without the cache
 * 0.8 / 14 ms on SQLite and 10.6 / 43 ms on PostgreSQL (its observations.record: 0.7 ms mean on
 * SQLite, 6.6 ms on PostgreSQL); a vc+jwt verification 0.7 / 40–120 ms; a stage of a did:key
 * 0.1–0.5 ms mean. Work that reaches out is bounded by the 10 s fetch and 30 s request limits
 * (45 s for a webhook attempt): the buckets run from 0.1 ms to those limits.
 */
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { settleSpan, type SpanKind, type SpanNote, type TelemetryEvent } from '../core/telemetry.js';
import type { RequestSpan, ServerTelemetry } from './telemetry.js';

/** Connections of a PostgreSQL pool, read at scrape time (StorageSlot.pool). */
export interface PoolUsage {
  total: number;
  idle: number;
  waiting: number;
}

/** Requests: a cached answer in well under 1 ms, a resolution over the network up to the 30 s request limit. */
const REQUEST_BUCKETS = [0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Stages: parsing in microseconds, a fetch stage up to the 10 s fetch limit. */
const STAGE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Database calls: a SQLite write in under a millisecond, a PostgreSQL one in a few. */
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Webhook attempts: a receiver on the same network in milliseconds, up to the 45 s attempt limit. */
const WEBHOOK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 45];

/** The HTTP methods svc serves or refuses by name; anything else is `other`. */
const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A label value from a closed vocabulary (codes, statuses, names svc chose), else `other`: never free text. */
function word(value: string): string {
  return /^[A-Za-z0-9_.+-]{1,64}$/.test(value) && !/^did[:.]/i.test(value) ? value : 'other';
}

/** A route pattern (request.routeOptions.url) as a label: the pattern, `unmatched` when none. */
function routeLabel(route: string | null): string {
  return route === null || route === '' ? 'unmatched' : route;
}

export class PrometheusTelemetry implements ServerTelemetry {
  readonly registry = new Registry();
  #pool: (() => PoolUsage | null) | undefined;

  /**
   * The request series (method, route pattern, status), counted here: a request costs one lookup in
   * nested maps and a few additions, no label object and no hashing (prom-client hashes a child's
   * labels on every call). prom-client reads them at scrape time: svc_http_requests_total through
   * its collect(), the histogram as a metric of its own (requestDurations) in prom-client's format.
   */
  readonly #requestSeries = new Map<string, Map<string | null, Map<number | null, RequestSeries>>>();

  readonly #requests: Counter<'method' | 'route' | 'status'> = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (unmatched when none) and status (none when the client left first).',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    collect: () => {
      this.#requests.reset();
      for (const series of this.#allRequestSeries()) this.#requests.inc(series.labels, series.count);
    },
  });
  /** svc_http_request_duration_seconds (registered here, between the counter and the gauge: the exposition's order). */
  readonly requestDurations: object = keptHistogram(
    this.registry,
    {
      name: 'svc_http_request_duration_seconds',
      help: 'Time from the request to its response closing, by method, route pattern and status.',
      buckets: REQUEST_BUCKETS,
    },
    () => this.#allRequestSeries(),
  );
  /** Requests whose response has not closed yet, read by the gauge at scrape time. */
  #active = 0;
  readonly #inFlight: Gauge = new Gauge({
    name: 'svc_http_requests_in_flight',
    help: 'Requests whose response has not closed yet.',
    registers: [this.registry],
    collect: () => this.#inFlight.set(this.#active),
  });
  /** Resolutions by `${method} ${outcome} ${cached}`, counted here (a cache hit is one per answer) and read at scrape time. */
  readonly #resolutionCounts = new Map<string, { labels: { method: string; outcome: string; cached: string }; count: number }>();
  readonly #resolutions: Counter<'method' | 'outcome' | 'cached'> = new Counter({
    name: 'svc_resolutions_total',
    help: 'DID resolutions, by method (key, jwk, web, webvh, other), outcome (ok or the problem code) and whether the cache answered.',
    labelNames: ['method', 'outcome', 'cached'] as const,
    registers: [this.registry],
    collect: () => {
      this.#resolutions.reset();
      for (const { labels, count } of this.#resolutionCounts.values()) this.#resolutions.inc(labels, count);
    },
  });
  readonly #refusals = new Counter({
    name: 'svc_refusals_total',
    help: "Requests refused before their work: a client's budget (429) or the daemon's capacity for outbound work (503).",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly #fetches = new Counter({
    name: 'svc_outbound_fetches_total',
    help: 'Outbound HTTP fetches through the egress policy, by outcome (ok or the problem code, e.g. EGRESS_BLOCKED).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  /** Stage and database-call series, by `${kind} ${name} ${outcome}`, counted here like the request series. */
  readonly #spanSeriesKept = new Map<string, Series<Record<string, string>>>();
  readonly #stageSeries: Array<Series<Record<string, string>>> = [];
  readonly #dbSeries: Array<Series<Record<string, string>>> = [];
  readonly stageDurations: object = keptHistogram(
    this.registry,
    {
      name: 'svc_stage_duration_seconds',
      help: "Duration of each stage of svc's trace (dns.resolve, web.fetch …), by stage and outcome (its status or the problem code).",
      buckets: STAGE_BUCKETS,
    },
    () => this.#stageSeries,
  );
  readonly #credentials = new Counter({
    name: 'svc_credential_verifications_total',
    help: 'Credentials verified, by format and status (VALID, INVALID …).',
    labelNames: ['format', 'status'] as const,
    registers: [this.registry],
  });
  readonly #inspections = new Counter({
    name: 'svc_inspections_total',
    help: 'MCP and A2A inspections, by kind and status.',
    labelNames: ['kind', 'status'] as const,
    registers: [this.registry],
  });
  readonly #monitorEvents = new Counter({
    name: 'svc_monitor_events_total',
    help: 'Monitor events written (state PENDING) or settled (DELIVERED, DEAD_LETTER, CANCELLED …), by event type and state.',
    labelNames: ['type', 'state'] as const,
    registers: [this.registry],
  });
  readonly #webhookSeconds = new Histogram({
    name: 'svc_webhook_attempt_duration_seconds',
    help: "Webhook delivery attempts, by decision (DELIVERED, RETRY, DEAD_LETTER …) and owner (operator or a project's customer).",
    labelNames: ['decision', 'owner'] as const,
    buckets: WEBHOOK_BUCKETS,
    registers: [this.registry],
  });
  readonly #claimRechecks = new Counter({
    name: 'svc_claim_rechecks_total',
    help: "Claims re-checked, by outcome (the claim's state after the re-check).",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly dbDurations: object = keptHistogram(
    this.registry,
    {
      name: 'svc_db_call_duration_seconds',
      help: 'Repository calls (SQLite or PostgreSQL), by operation (repository.method) and outcome (ok or error).',
      buckets: DB_BUCKETS,
    },
    () => this.#dbSeries,
  );

  constructor() {
    const pool = () => this.#pool?.() ?? null;
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'The PostgreSQL pool, read at scrape time: total and idle connections, and queries waiting for one (state total, idle, waiting). Absent on SQLite.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const usage = pool();
        if (!usage) return;
        this.set({ state: 'total' }, usage.total);
        this.set({ state: 'idle' }, usage.idle);
        this.set({ state: 'waiting' }, usage.waiting);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
    // Gauges that prom-client names like counters (promtool check metrics refuses the names);
    // the same counts remain by type in svc_nodejs_active_handles / _requests / _resources.
    for (const name of ['active_handles', 'active_requests', 'active_resources']) this.registry.removeSingleMetric(`svc_nodejs_${name}_total`);
  }

  /** The exposition's media type (text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition of every metric, collected now. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  /** Where the pool gauges read from (the daemon's StorageSlot); null while there is no pool. */
  watchPool(read: () => PoolUsage | null): void {
    this.#pool = read;
  }

  within<T>(kind: SpanKind, name: string, body: (note: SpanNote) => T): T {
    const started = performance.now();
    const note: SpanNote = { outcome: 'ok' };
    return settleSpan(note, body, () => {
      const seconds = (performance.now() - started) / 1000;
      const outcome = word(note.outcome);
      if (kind === 'fetch') this.#fetches.inc({ outcome });
      else this.#spanSeries(kind, name, outcome).observe(seconds);
    });
  }

  record(event: TelemetryEvent): void {
    switch (event.type) {
      case 'resolution': {
        const key = `${event.method} ${event.outcome} ${event.cached}`;
        const kept = this.#resolutionCounts.get(key);
        if (kept) kept.count += 1;
        else
          this.#resolutionCounts.set(key, {
            labels: { method: word(event.method), outcome: word(event.outcome), cached: event.cached ? 'true' : 'false' },
            count: 1,
          });
        return;
      }
      case 'refusal':
        this.#refusals.inc({ reason: event.reason });
        return;
      case 'credential':
        this.#credentials.inc({ format: word(event.format), status: word(event.status) });
        return;
      case 'inspection':
        this.#inspections.inc({ kind: event.kind, status: word(event.status) });
        return;
      case 'monitor.event':
        this.#monitorEvents.inc({ type: word(event.eventType), state: word(event.state) });
        return;
      case 'webhook.attempt':
        this.#webhookSeconds.observe({ decision: word(event.decision), owner: event.owner }, event.seconds);
        return;
      case 'claim.recheck':
        this.#claimRechecks.inc({ outcome: word(event.outcome) });
        return;
    }
  }

  request(method: string, _requestId: string, next: () => void): RequestSpan {
    const started = performance.now();
    this.#active += 1;
    next();
    let ended = false;
    return {
      end: (route, status) => {
        if (ended) return;
        ended = true;
        this.#active -= 1;
        this.#seriesOf(method, route, status).observe((performance.now() - started) / 1000);
      },
    };
  }

  /** The series of one method, route pattern and status (a closed set: route patterns × statuses × methods). */
  #seriesOf(rawMethod: string, rawRoute: string | null, status: number | null): RequestSeries {
    // Keyed by the labels' own values: what maps to one label (`other`, `unmatched`) is one series.
    const method = HTTP_METHODS.has(rawMethod) ? rawMethod : 'other';
    const route = rawRoute === '' ? null : rawRoute;
    let routes = this.#requestSeries.get(method);
    if (!routes) this.#requestSeries.set(method, (routes = new Map()));
    let statuses = routes.get(route);
    if (!statuses) routes.set(route, (statuses = new Map()));
    let series = statuses.get(status);
    if (!series) {
      series = new Series({ method, route: routeLabel(route), status: status === null ? 'none' : String(status) }, REQUEST_BUCKETS);
      statuses.set(status, series);
    }
    return series;
  }

  *#allRequestSeries(): Iterable<RequestSeries> {
    for (const routes of this.#requestSeries.values()) for (const statuses of routes.values()) yield* statuses.values();
  }

  /** The series of a stage or database span, kept by its labels likewise. */
  #spanSeries(kind: 'stage' | 'db', name: string, outcome: string): Series<Record<string, string>> {
    const key = `${kind} ${name} ${outcome}`;
    let series = this.#spanSeriesKept.get(key);
    if (!series) {
      // Names that map to one label (`other`) share its series.
      const label = word(name);
      const canonical = `${kind} ${label} ${outcome}`;
      series = this.#spanSeriesKept.get(canonical);
      if (!series) {
        if (kind === 'stage') this.#stageSeries.push((series = new Series({ stage: label, outcome }, STAGE_BUCKETS)));
        else this.#dbSeries.push((series = new Series({ operation: label, outcome }, DB_BUCKETS)));
        this.#spanSeriesKept.set(canonical, series);
      }
      this.#spanSeriesKept.set(key, series);
    }
    return series;
  }
}

/** One histogram series: its count, the sum of its values and how many fell in each bucket (not cumulative). */
class Series<L extends Record<string, string>> {
  count = 0;
  sum = 0;
  readonly buckets: Float64Array;

  constructor(
    readonly labels: L,
    private readonly bounds: readonly number[],
  ) {
    this.buckets = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    this.count += 1;
    this.sum += value;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.buckets[i]! += 1;
        return;
      }
    }
  }
}

type RequestSeries = Series<{ method: string; route: string; status: string }>;

interface ExposedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
}

/**
 * A histogram prom-client's registry writes as it writes its own (the same lines, in the same
 * order: the buckets cumulative with `le` first, +Inf, _sum, _count), its values read from svc's
 * series at scrape time.
 */
function keptHistogram(
  registry: Registry,
  config: { name: string; help: string; buckets: readonly number[] },
  series: () => Iterable<Series<Record<string, string>>>,
): object {
  const { name, help, buckets } = config;
  const values = (): ExposedValue[] => {
    const out: ExposedValue[] = [];
    for (const s of series()) {
      let cumulative = 0;
      for (let i = 0; i < buckets.length; i++) {
        cumulative += s.buckets[i]!;
        out.push({ labels: { le: buckets[i]! }, sharedLabels: s.labels, value: cumulative, metricName: `${name}_bucket` });
      }
      out.push(
        { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${name}_bucket` },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${name}_count` },
      );
    }
    return out;
  };
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    getForPromString: async () => ({ name, help, type: metric.type, aggregator: metric.aggregator, values: values() }),
    // The JSON form (getMetricsAsJSON): the series' labels beside `le`, as prom-client's own histograms give them.
    get: async () => ({
      name,
      help,
      type: metric.type,
      aggregator: metric.aggregator,
      values: values().map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })),
    }),
    reset: () => undefined,
  };
  registry.registerMetric(metric as unknown as Histogram);
  return metric;
}
