/**
 * What every route shares: the Runtime, the store slot, the limits, the capacity of outbound
 * work, and one way to resolve for a request (cancelled with the request, bounded by capacity,
 * recorded as an observation).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { recordObservation } from '../core/history/history.js';
import type { ResolveOptions } from '../core/methods/types.js';
import { resolve, type ResolveHooks } from '../core/resolve/resolve.js';
import type { EnrichedResolution } from '../core/resolve/types.js';
import type { Runtime } from '../core/runtime.js';
import type { Capacity } from './capacity.js';
import type { Profile, ServerLimits } from './limits.js';
import type { StorageSlot } from './storage.js';

/** Which budget a route draws on (SPEC §4): `resolve` is standard, intensive for did:webvh. */
export type Budget = 'standard' | 'intensive' | 'resolve' | 'none';

export interface ServerContext {
  runtime: Runtime;
  storage: StorageSlot;
  profile: Profile;
  limits: ServerLimits;
  capacity: Capacity;
  startedAt: Date;
  /** Set once SIGTERM arrived: new requests get 503 SERVICE_UNAVAILABLE. */
  draining: boolean;
}

export interface RouteDef {
  method: 'GET' | 'POST';
  url: string;
  budget: Budget;
  /** Long-lived responses (SSE) manage their own time and are not given the handler time limit. */
  stream?: boolean;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** Extra Fastify route options (body limits, parsers). */
  options?: Partial<RouteOptions>;
}

function hasVersion(options: ResolveOptions): boolean {
  return options.versionId !== undefined || options.versionTime !== undefined || options.versionNumber !== undefined;
}

/** A resolution admitted for one request: run it once (it holds a capacity slot until then). */
export type AdmittedResolution = (signal: AbortSignal | undefined, hooks?: ResolveHooks) => Promise<EnrichedResolution>;

/**
 * Admits a resolution: a fresh cache hit is served at once; other work takes a capacity slot now
 * (503 CAPACITY_EXHAUSTED when none is free — before an SSE stream commits to 200). Running it
 * cancels with `signal` (client gone, time limit) and records a fresh, unversioned result in the
 * history; a storage failure there is logged and does not cost the client its answer.
 */
export function admitResolution(ctx: ServerContext, did: string, options: ResolveOptions): AdmittedResolution {
  const { runtime } = ctx;
  if (!options.noCache && !hasVersion(options)) {
    const hit = runtime.cache.get(did);
    if (hit) return async () => hit;
  }
  const release = ctx.capacity.acquire();
  return async (signal, hooks = {}) => {
    try {
      const result = await resolve(did, runtime, { ...options, signal }, hooks);
      try {
        recordObservation(runtime, result, { versioned: hasVersion(options) });
      } catch (err) {
        runtime.log.error('recording an observation failed', { did, error: err instanceof Error ? err.message : String(err) });
      }
      return result;
    } finally {
      release();
    }
  };
}

/**
 * The signal of the work done for one request: aborted when the client goes away before its
 * answer is sent, or when Fastify's handler time limit fires. Not `request.signal` alone: Fastify
 * aborts that on the request message's 'close', which Node emits as soon as a request body has
 * been read, so the work of every POST with a body would be cancelled before it starts.
 */
export function workSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  const timeLimit = request.signal;
  const onTimeLimit = () => {
    if ((timeLimit.reason as { code?: unknown } | undefined)?.code === 'FST_ERR_HANDLER_TIMEOUT') controller.abort(timeLimit.reason);
  };
  const onClose = () => {
    timeLimit.removeEventListener('abort', onTimeLimit);
    if (!res.writableFinished) controller.abort();
  };
  if (timeLimit.aborted) onTimeLimit();
  else timeLimit.addEventListener('abort', onTimeLimit);
  if (res.destroyed) onClose();
  else res.once('close', onClose);
  return controller.signal;
}

export function resolveFor(ctx: ServerContext, did: string, options: ResolveOptions, signal: AbortSignal | undefined): Promise<EnrichedResolution> {
  return admitResolution(ctx, did, options)(signal);
}
