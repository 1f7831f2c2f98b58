/**
 * The monitoring poller (SPEC §6.2): every SVC_MONITOR_PERIOD seconds (30 by default) it claims
 * the due watches — on the database's clock, so several daemons on one PostgreSQL share the
 * work without a leader and never check a watch twice in its interval — resolves each afresh
 * (noCache, through the daemon's capacity and time limit, recorded in the history like any
 * fresh resolution), compares it with the watch's baselines (core/monitoring/check.ts) and
 * writes the new baseline, its events (PENDING) and the watch's state in one transaction.
 *
 * A check the service itself could not make (capacity exhausted, the daemon shutting down, the
 * database unreachable) is no fact about the identifier: nothing is written, and the watch is
 * checked again at its next interval.
 *
 * Deliveries (SPEC §3, §6.2): up to 20 due events before and after the checks of each pass.
 * Each is claimed — DELIVERING, attempts + 1, a 120 s lease on the database's clock — before the
 * network call, then POSTed through the egress policy (checked again at every delivery) with the
 * envelope (the same bytes every attempt) and fresh signatures; 2xx → DELIVERED, anything else
 * → RETRY after 60/120/240/480 s, the fifth failure → DEAD_LETTER. A sender that dies mid-attempt
 * leaves an expired lease, which the next claim recovers: RETRY due at once while attempts
 * remain, else DEAD_LETTER. So every event is delivered at least once; receivers deduplicate on
 * its id.
 */
import { failedOutcome, plannedEvents, resolvedOutcome } from '../core/monitoring/check.js';
import { EVENT_LIMIT, EVENT_PAYLOAD_LIMIT_BYTES } from '../core/monitoring/rules.js';
import { deliveryHeaders, DELIVERY_ATTEMPTS, DELIVERY_LEASE_SECONDS, envelopeOf, retryDelaySeconds } from '../core/monitoring/webhook.js';
import { asProblemError, type ProblemCode } from '../core/problems.js';
import { rfc3339 } from '../core/runtime.js';
import type { DeliveryClaim, DeliveryResult, RecordedCheck, WatchCheckInput } from '../core/store.js';
import { admitResolution, type ServerContext } from './context.js';
import { Periodic } from './periodic.js';

/** Watches claimed per pass (the rest wait for the next pass). */
const WATCHES_PER_PASS = 100;
/** Checks of one pass running at once (they take capacity slots as one client: svc-monitor). */
const CHECKS_AT_ONCE = 8;
/** The capacity share of the poller: its resolutions count as one client's. */
const POLLER_CLIENT = 'svc-monitor';

/** Due events delivered before and after the checks of a pass (SPEC §6.2). */
const DELIVERIES_PER_ROUND = 20;
/** Deliveries running at once. */
const DELIVERIES_AT_ONCE = 4;
/** The receiver's answer is not read beyond this (only its status matters). */
const RECEIVER_ANSWER_MAX_BYTES = 64 * 1024;


/** The service's own failures: they say nothing about the identifier, so no check is recorded. */
const NOT_ABOUT_THE_DID = new Set<ProblemCode>(['CAPACITY_EXHAUSTED', 'SERVICE_UNAVAILABLE', 'NOT_READY', 'REQUEST_TIMEOUT', 'INTERNAL_ERROR']);

export type CheckReport =
  | { outcome: 'recorded'; changed: boolean; eventIds: number[] }
  | { outcome: 'stale' | 'event-capacity' | 'payload-too-large' }
  | { outcome: 'skipped'; reason: string };

/** One check of one watch: resolve, compare, record. */
export async function checkWatch(ctx: ServerContext, input: WatchCheckInput): Promise<CheckReport> {
  const store = ctx.runtime.store;
  if (!store) return { outcome: 'skipped', reason: 'the database is unavailable' };
  const { watch } = input;
  const checkedAt = rfc3339(ctx.runtime.clock.now());
  let outcome;
  let headline: string | null = null;
  try {
    const result = await admitResolution(ctx, watch.did, { noCache: true }, POLLER_CLIENT)(AbortSignal.timeout(ctx.limits.requestTimeoutMs));
    outcome = resolvedOutcome(result, checkedAt);
    headline = result.verdict.headline;
  } catch (err) {
    const problem = asProblemError(err);
    // An abort by the time limit is a TimeoutError, not a problem of the DID's host.
    if (NOT_ABOUT_THE_DID.has(problem.code) || (err instanceof Error && err.name === 'TimeoutError')) {
      return { outcome: 'skipped', reason: problem.detail };
    }
    outcome = failedOutcome(problem.toProblem(ctx.runtime.config.problemsBase), checkedAt);
  }
  const events = plannedEvents(watch.did, input, outcome, headline);
  const recorded: RecordedCheck = await store.watches.recordCheck({
    watchId: watch.id,
    revision: watch.revision,
    outcome,
    events,
    maxEvents: EVENT_LIMIT,
    maxPayloadBytes: EVENT_PAYLOAD_LIMIT_BYTES,
  });
  if (recorded.outcome !== 'recorded') return { outcome: recorded.outcome };
  return { outcome: 'recorded', changed: events.length > 0, eventIds: recorded.eventIds };
}

/** One attempt of one claimed event: POST, then settle (a lost lease settles nothing). */
export async function deliver(ctx: ServerContext, claim: DeliveryClaim): Promise<DeliveryResult> {
  const store = ctx.runtime.store;
  const { event, watch, attempt } = claim;
  let result: DeliveryResult;
  if (!watch.active) {
    result = { cancelled: true };
  } else {
    const body = envelopeOf(event);
    const headers = deliveryHeaders(watch.secret, event, body, ctx.runtime.clock.now().getTime() / 1000);
    try {
      const answer = await ctx.runtime.net.fetch({ url: watch.webhookUrl, purpose: 'webhook', method: 'POST', body, headers, maxBytes: RECEIVER_ANSWER_MAX_BYTES });
      result =
        answer.status >= 200 && answer.status < 300
          ? { delivered: true }
          : { delivered: false, error: `the receiver answered ${answer.status}`, retryAfterSeconds: attempt < DELIVERY_ATTEMPTS ? retryDelaySeconds(attempt) : null };
    } catch (err) {
      const problem = asProblemError(err);
      result = { delivered: false, error: `${problem.code}: ${problem.detail}`.slice(0, 500), retryAfterSeconds: attempt < DELIVERY_ATTEMPTS ? retryDelaySeconds(attempt) : null };
    }
  }
  if (store && !(await store.monitorEvents.settle(event.id, attempt, result))) {
    ctx.runtime.log.warn('a delivery was settled by another sender (its lease had expired)', { eventId: event.id, attempt });
  }
  return result;
}

/** Claims up to DELIVERIES_PER_ROUND due events and delivers them, a few at once; returns how many were attempted. */
export async function deliverDue(ctx: ServerContext): Promise<number> {
  const store = ctx.runtime.store;
  if (!store) return 0;
  const claims = await store.monitorEvents.claimDeliveries(DELIVERIES_PER_ROUND, DELIVERY_LEASE_SECONDS, DELIVERY_ATTEMPTS);
  let attempted = 0;
  const worker = async () => {
    // Claimed events are all attempted (their attempt was counted); a stop only ends the pass after them.
    for (let claim = claims.shift(); claim !== undefined; claim = claims.shift()) {
      await deliver(ctx, claim);
      attempted += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELIVERIES_AT_ONCE, claims.length) }, worker));
  return attempted;
}

export class MonitorPoller extends Periodic {
  constructor(ctx: ServerContext) {
    super(ctx, ctx.limits.monitorPeriodSeconds, 'a monitoring pass');
  }

  /** One pass: due deliveries, the due watches (each checked), due deliveries again; returns how many watches were checked. */
  override async pass(): Promise<number> {
    const store = this.ctx.runtime.store;
    if (!store) return 0;
    await deliverDue(this.ctx);
    const checked = await this.checkDue();
    if (!this.halted) await deliverDue(this.ctx);
    return checked;
  }

  /** The due watches, each checked; returns how many checks were recorded. */
  async checkDue(): Promise<number> {
    const store = this.ctx.runtime.store;
    if (!store) return 0;
    const queue = await store.watches.claimDue(WATCHES_PER_PASS);
    let checked = 0;
    // A few checks at a time: each waits mostly on the network and on commits, not on this process.
    const worker = async () => {
      for (let input = queue.shift(); input !== undefined && !this.halted; input = queue.shift()) {
        const report = await checkWatch(this.ctx, input);
        if (report.outcome === 'recorded') checked += 1;
        else this.ctx.runtime.log.warn('a watch check was not recorded', { watchId: input.watch.id, outcome: report.outcome, ...(report.outcome === 'skipped' ? { reason: report.reason } : {}) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, queue.length) }, worker));
    return checked;
  }
}
