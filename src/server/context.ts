/**
 * What every route shares: the Runtime, the store slot, the limits, the capacity of outbound
 * work, and one way to resolve for a request (cancelled with the request, bounded by capacity,
 * recorded as an observation).
 */
import { hostname } from 'node:os';
import type { RouteSchema } from './schemas/common.js';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { didKeySource, type KeySource } from '../core/credentials/keys.js';
import { dereference, readDidUrl, type DereferencingResult } from '../core/dereference/dereference.js';
import { recordObservation } from '../core/history/history.js';
import { ProblemError } from '../core/problems.js';
import { didMethodLabel } from '../core/telemetry.js';
import { driverFor } from '../core/methods/registry.js';
import type { ResolveOptions } from '../core/methods/types.js';
import { resolve, type ResolveHooks } from '../core/resolve/resolve.js';
import { hasVersionOptions } from '../core/resolve/version-options.js';
import type { EnrichedResolution } from '../core/resolve/types.js';
import type { Net } from '../core/net.js';
import type { ResolutionCache, Runtime } from '../core/runtime.js';
import type { RuntimeStore } from '../core/store.js';
import { Capacity, RequestSlot } from './capacity.js';
import { clientOf } from './rate-limit.js';
import type { Profile, ServerLimits } from './limits.js';
import type { Relaxation } from './relaxations.js';
import { shouldRecord } from './recording.js';
import { sharedResolution } from './shared-cache.js';
import { commercialAccess, type CommercialAccess } from './commercial.js';
import type { KeyedRequests } from './project-keys.js';
import { operatorAccess, type OperatorAccess } from './operator.js';
import { resultSigner, type ResultSigner } from './signing.js';
import type { StorageSlot } from './storage.js';
import type { DaemonMetrics, ServerTelemetry } from './telemetry.js';
import type { Signer } from '../core/signing/index.js';

/**
 * Which budget a route draws on (docs/operations.md#budgets): `resolve` is standard, intensive for
 * did:webvh; `inspection` is intensive for a request with a query (GET /mcp?endpoint=…: it
 * inspects), none without one (the bare form).
 */
export type Budget = 'standard' | 'intensive' | 'resolve' | 'inspection' | 'none';

export interface ServerContext {
  runtime: Runtime;
  storage: StorageSlot;
  profile: Profile;
  limits: ServerLimits;
  capacity: Capacity;
  startedAt: Date;
  /**
   * Set once SIGTERM arrived: /ready answers 503 NOT_READY (draining), other requests are still
   * served through the notice period (SVC_DRAIN_NOTICE); absent: not stopping.
   */
  stopping?: boolean;
  /** Set when the notice period is over: new requests get 503 SERVICE_UNAVAILABLE. */
  draining: boolean;
  /**
   * The live streams open now (sse.ts), each ended by its function with a final `error` frame
   * (SERVICE_UNAVAILABLE: the daemon is restarting) and `done` when the drain time runs out.
   */
  streams?: Set<() => void>;
  /** Requests whose response has not closed yet (the shutdown waits for them). */
  active: number;
  /** Operator settings that weaken a default (src/server/relaxations.ts), listed by /health. */
  relaxations?: readonly Relaxation[];
  /** Whether the operator monitoring routes are enabled (SVC_ADMIN_TOKEN); absent: disabled. */
  operator?: OperatorAccess;
  /** The opt-in commercial mode (SVC_COMMERCIAL, src/server/commercial.ts); absent: disabled. */
  commercial?: CommercialAccess;
  /** Whether this daemon runs the customer monitor worker (commercial mode on, SVC_CUSTOMER_MONITOR not off). */
  customerWorker?: boolean;
  /** Keyed requests (project API keys) while the commercial mode is on (set by buildApp). */
  keyed?: KeyedRequests;
  /**
   * The daemon's signer (SVC_SIGNING_KEY, docs/daemon.md#signed-results): `signer.sign(value, typ)`
   * is a detached JWS over the RFC 8785 form of `value`, signed now; absent without a key.
   */
  signer?: ResultSigner;
  /** Test seam: the time limit of one webhook delivery attempt, ms; absent: WEBHOOK_ATTEMPT_TIMEOUT_MS (45 s). */
  webhookAttemptMs?: number;
  /** The operator's metrics and traces (server/telemetry.ts), the Runtime's `telemetry` with requests; absent: nothing is measured. */
  telemetry?: ServerTelemetry;
  /** The Prometheus metrics GET /metrics exposes (SVC_METRICS on); absent: /metrics answers 404. */
  metrics?: DaemonMetrics;
}

/** What a daemon's context is made of: the settings serve() reads, and the store and Runtime it opened. */
export interface ContextSettings {
  runtime: Runtime;
  storage: StorageSlot;
  profile: Profile;
  limits: ServerLimits;
  relaxations?: readonly Relaxation[];
  /** The operator's metrics and traces; the Runtime carries the same object as `telemetry`. */
  telemetry?: ServerTelemetry;
  /** The metrics GET /metrics exposes (part of `telemetry`). */
  metrics?: DaemonMetrics;
  /** SVC_ADMIN_TOKEN: the operator routes' token; unset, they are disabled. */
  adminToken?: string | undefined;
  /** SVC_COMMERCIAL, SVC_COMMERCIAL_ORIGIN, SVC_CUSTOMER_MONITOR. */
  commercial?: { setting?: string | undefined; origin?: string | undefined; customerMonitor?: string | undefined };
  /** SVC_SIGNING_KEY (and SVC_SIGNING_DID), read by signing.ts: what signed results are signed with; absent, none are. */
  signer?: Signer | undefined;
}

/** The context a daemon starts with: nothing draining, nothing in flight, the operator and commercial modes as set. */
export function serverContext(settings: ContextSettings): ServerContext & { operator: OperatorAccess; commercial: CommercialAccess; customerWorker: boolean } {
  const { runtime, storage, profile, limits } = settings;
  const operator = operatorAccess(settings.adminToken, profile);
  const commercial = commercialAccess(settings.commercial?.setting, settings.commercial?.origin, operator, profile);
  return {
    runtime,
    storage,
    profile,
    limits,
    capacity: new Capacity(limits.maxConcurrency, limits.maxConcurrencyPerClient, Math.random, () =>
      settings.telemetry?.record({ type: 'refusal', reason: 'capacity' }),
    ),
    startedAt: runtime.clock.now(),
    draining: false,
    active: 0,
    streams: new Set(),
    relaxations: settings.relaxations ?? [],
    operator,
    commercial,
    customerWorker: commercial.enabled && settings.commercial?.customerMonitor !== 'off',
    ...(settings.signer ? { signer: resultSigner(settings.signer, runtime.clock) } : {}),
    ...(settings.telemetry ? { telemetry: settings.telemetry } : {}),
    ...(settings.metrics ? { metrics: settings.metrics } : {}),
  };
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  budget: Budget;
  /** Long-lived responses (SSE) manage their own time and are not given the handler time limit. */
  stream?: boolean;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** Extra Fastify route options (body limits, parsers). */
  options?: Partial<RouteOptions>;
  /** What the route takes and answers, for openapi.json and the contract test (schemas/). */
  schema?: RouteSchema;
  /**
   * Who the route's Authorization header is for: the operator token, the session bridge, or
   * nobody (`anonymous`: the public explorer). Absent, on a budgeted route: a public
   * API route, where `Bearer svck_…` is a project key while the commercial mode is on.
   */
  auth?: 'operator' | 'bridge' | 'anonymous';
  /** Mounted on the direct profile only: with `--public` the path answers 404 as an unknown one. */
  directOnly?: boolean;
}

/**
 * The open store, or 503 SERVICE_UNAVAILABLE (Retry-After 5) while the database is unavailable:
 * routes that read or write it never answer as if it were empty.
 */
export function storeOf(runtime: Runtime): RuntimeStore {
  if (!runtime.store) throw new ProblemError('SERVICE_UNAVAILABLE', 'The database is unavailable; see /ready for the reason.', { retryAfter: 5 });
  return runtime.store;
}

/** A fresh cache hit, answered here before the core: counted as the core counts its own hits. */
function cachedResolution(ctx: ServerContext, did: string): EnrichedResolution | undefined {
  const hit = ctx.runtime.cache.get(did);
  if (hit) ctx.telemetry?.record({ type: 'resolution', method: didMethodLabel(did), outcome: 'ok', cached: true });
  return hit;
}

/** A resolution admitted for one request: run it once (it holds a capacity slot until then). */
export type AdmittedResolution = (signal: AbortSignal | undefined, hooks?: ResolveHooks) => Promise<EnrichedResolution>;

/** The client a request's budgets and capacity share belong to (rate-limit.ts). */
export { clientOf };

/**
 * Admits a resolution: a fresh cache hit is served at once; other work takes a capacity slot now
 * (503 CAPACITY_EXHAUSTED when none is free — before an SSE stream commits to 200). `holder` is
 * the client (the resolution takes and releases a slot of its own) or the slot of a request that
 * does more than this one resolution (shared, released by its owner). Running it cancels with
 * `signal` (client gone, time limit) and records a fresh, unversioned result in the history; a
 * storage failure there is logged and does not cost the client its answer.
 */
export function admitResolution(ctx: ServerContext, did: string, options: ResolveOptions, holder: string | RequestSlot): AdmittedResolution {
  const { runtime } = ctx;
  if (!options.noCache && !hasVersionOptions(options)) {
    const hit = cachedResolution(ctx, did);
    if (hit) return async () => hit;
  }
  const owned = typeof holder === 'string';
  const slot = owned ? new RequestSlot(ctx.capacity, holder) : holder;
  slot.take();
  return async (signal, hooks = {}) => {
    try {
      const result = await resolveShared(ctx, did, options, signal, hooks);
      // Recorded before the result is returned (so before the answer, as when the store was
      // synchronous: a history read after the answer includes it). Awaited inside the try, so a
      // rejected write is logged here, never an unhandled rejection nor the client's error.
      try {
        if (shouldRecord(ctx, result)) await recordObservation(runtime, result, { versioned: hasVersionOptions(options) });
      } catch (err) {
        runtime.log.error('recording an observation failed', { did, error: err instanceof Error ? err.message : String(err) });
      }
      return result;
    } finally {
      if (owned) slot.release();
    }
  };
}

/**
 * A did:key or did:jwk: its document is computed from the identifier, with nothing fetched, so
 * resolving it here costs less than asking the database whether another replica has — the
 * shared tier (and its single flight) is for methods that reach out.
 */
function selfCertifying(did: string): boolean {
  const method = /^did:([a-z0-9]+):/.exec(did)?.[1];
  return method !== undefined && driverFor(method)?.selfCertifying === true;
}

/** Who holds a lease of the shared resolution cache: this daemon, for an operator reading the lease table. */
const LEASE_HOLDER = `${hostname()}:${process.pid}`;

/**
 * Resolves `did`, through the resolution cache several daemons share when there is one (a
 * PostgreSQL database): a live entry another replica stored is reused (and kept in this
 * replica's LRU), and while one replica resolves a DID the others wait for its result instead
 * of resolving it too. Requests that bypass the cache (noCache, a version) resolve here alone.
 * The lifetime a shared entry gets is the one the core gave the result in the LRU (0: kept
 * nowhere, e.g. a did:web whose domain configuration could not be fetched); errors are never
 * shared. The shared tier failing (database down) only costs the sharing.
 */
async function resolveShared(
  ctx: ServerContext,
  did: string,
  options: ResolveOptions,
  signal: AbortSignal | undefined,
  hooks: ResolveHooks,
): Promise<EnrichedResolution> {
  const { runtime } = ctx;
  const shared = ctx.storage.shared;
  if (!shared || options.noCache || hasVersionOptions(options) || selfCertifying(did)) return resolve(did, runtime, { ...options, signal }, hooks);
  // The lifetime the core chooses for a result, seen as it stores it in the LRU.
  const lifetimes = new WeakMap<EnrichedResolution, number>();
  const local = runtime.cache;
  const cache: ResolutionCache = {
    get: (key) => local.get(key),
    set: (key, value, ttlSeconds) => {
      lifetimes.set(value, ttlSeconds);
      local.set(key, value, ttlSeconds);
    },
    delete: (key) => local.delete(key),
    clear: () => local.clear(),
    get size() {
      return local.size;
    },
    // The LRU's bounds, so that what sizes itself by them (did:webvh's verified prefixes) sees this replica's.
    ...(local.usage ? { usage: () => local.usage!() } : {}),
  };
  let resolvedHere = false;
  const result = await sharedResolution(
    shared.resolutionCache,
    did,
    did,
    { holder: LEASE_HOLDER, leaseMs: ctx.limits.requestTimeoutMs, ...(signal ? { signal } : {}), ttlSeconds: (r) => lifetimes.get(r) ?? 0 },
    () => {
      resolvedHere = true;
      return resolve(did, { ...runtime, cache }, { ...options, signal }, hooks);
    },
  );
  // The core counted its own resolution; the shared cache's answer is counted as a hit.
  if (!resolvedHere) ctx.telemetry?.record({ type: 'resolution', method: didMethodLabel(did), outcome: 'ok', cached: true });
  // Another replica's result: kept here too, for as long as the core keeps a fresh one (a
  // did:webvh at most its log's own ttl, which its document metadata carries).
  if (result.cached) local.set(did, result, Math.min(runtime.config.cacheTtlSeconds, Number(result.didDocumentMetadata['ttl'] ?? Infinity) || 0));
  return result;
}

/**
 * Runs the work of one request under its limits, with a signal that is aborted when the client
 * goes away before its answer is sent, or when the request's time is up. Not `request.signal`:
 * Fastify aborts that on the request message's 'close', which Node emits as soon as a request
 * body has been read (the work of every POST would be cancelled before it starts), and the same
 * early close clears Fastify's handler timer — so the time limit is kept here too. Past the
 * limit the request rejects at once with REQUEST_TIMEOUT (408), whatever the work is doing.
 */
export function underLimits<T>(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const res = reply.raw;
  const timeLimit = request.signal;
  return new Promise<T>((resolve, reject) => {
    const timeout = () => {
      const problem = new ProblemError('REQUEST_TIMEOUT', 'The request ran past its time limit and was abandoned; no answer was produced.');
      controller.abort(problem);
      reject(problem);
    };
    const timer = setTimeout(timeout, ctx.limits.requestTimeoutMs);
    const onTimeLimit = () => {
      if ((timeLimit.reason as { code?: unknown } | undefined)?.code === 'FST_ERR_HANDLER_TIMEOUT') timeout();
    };
    const onClose = () => {
      if (!res.writableFinished) controller.abort();
    };
    const settle = () => {
      clearTimeout(timer);
      timeLimit.removeEventListener('abort', onTimeLimit);
      res.off('close', onClose);
    };
    if (timeLimit.aborted) onTimeLimit();
    else timeLimit.addEventListener('abort', onTimeLimit);
    if (res.destroyed) onClose();
    else res.once('close', onClose);
    work(controller.signal).then(
      (value) => {
        settle();
        resolve(value);
      },
      (err: unknown) => {
        settle();
        reject(err);
      },
    );
  });
}

/**
 * Dereferences for one request: like admitResolution, a DID whose plain resolution is a fresh
 * cache hit needs no capacity slot; anything else takes one (503 CAPACITY_EXHAUSTED if none).
 */
export async function dereferenceFor(ctx: ServerContext, didUrl: string, signal: AbortSignal, client: string): Promise<DereferencingResult> {
  let cached = false;
  try {
    const target = readDidUrl(didUrl);
    cached = !hasVersionOptions(target.version) && ctx.runtime.cache.get(target.did) !== undefined;
  } catch {
    // dereference() gives the precise problem.
  }
  const work = () => dereference(didUrl, ctx.runtime, { signal });
  if (cached) return work();
  const slot = new RequestSlot(ctx.capacity, client);
  slot.take();
  try {
    return await work();
  } finally {
    slot.release();
  }
}

export function resolveFor(
  ctx: ServerContext,
  did: string,
  options: ResolveOptions,
  signal: AbortSignal | undefined,
  holder: string | RequestSlot,
): Promise<EnrichedResolution> {
  return admitResolution(ctx, did, options, holder)(signal);
}

/** Keys found through the daemon's resolutions (the request's slot, cache, history), cancelled with the request. */
export function keysFor(ctx: ServerContext, slot: RequestSlot): KeySource {
  return didKeySource(ctx.runtime, (did, signal) => resolveFor(ctx, did, {}, signal, slot));
}

/** What a request that may reach out works with: its signal, its one slot, and a Runtime whose fetches take that slot. */
export interface OutboundWork {
  signal: AbortSignal;
  slot: RequestSlot;
  runtime: Runtime;
  keys: KeySource;
}

/**
 * Runs the work of a request that may reach out (verification, policies, delegation, inspection)
 * under its limits (see underLimits) with one capacity slot for the whole request: taken at once
 * when `eager` (work that always fetches, so 503 comes before anything else), otherwise when the
 * work first resolves an uncached DID or fetches (a status list); released when the work ends.
 * Work served from the cache alone never needs a slot.
 */
export function outboundWork<T>(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (w: OutboundWork) => Promise<T>,
  eager = false,
): Promise<T> {
  const slot = new RequestSlot(ctx.capacity, clientOf(request));
  if (eager) slot.take();
  const base = ctx.runtime;
  const net: Net = {
    fetch: (req, trace) => {
      slot.take();
      return base.net.fetch(req, trace);
    },
    checkDestination: (url, purpose, options) => base.net.checkDestination(url, purpose, options),
    // A TXT lookup (a DNS claim) is outbound work too: it takes the request's slot like a fetch.
    resolveTxt: (name, signal) => {
      slot.take();
      return base.net.resolveTxt(name, signal);
    },
    egressAllow: base.net.egressAllow,
    close: () => base.net.close(),
  };
  const runtime: Runtime = { ...base, net };
  return underLimits(ctx, request, reply, async (signal) => {
    try {
      return await work({ signal, slot, runtime, keys: keysFor(ctx, slot) });
    } finally {
      slot.release();
    }
  });
}

/**
 * Resolves for one request: a fresh cache hit is answered at once (the hot path: no timer, no
 * signal); anything else runs under the request's limits.
 */
export async function resolveForRequest(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  did: string,
  options: ResolveOptions,
): Promise<EnrichedResolution> {
  const hit = !options.noCache && !hasVersionOptions(options) ? cachedResolution(ctx, did) : undefined;
  return hit ?? underLimits(ctx, request, reply, (signal) => resolveFor(ctx, did, options, signal, clientOf(request)));
}
