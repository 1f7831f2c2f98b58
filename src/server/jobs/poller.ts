/**
 * The monitoring poller (docs/daemon.md#operator-monitoring): every SVC_MONITOR_PERIOD seconds (30
 * by default) it claims the due watches — on the database's clock, so several daemons on one
 * PostgreSQL share the work without a leader and never check a watch twice in its interval —
 * resolves each afresh (noCache, through the daemon's capacity and time limit, recorded in the
 * history like any fresh resolution), compares it with the watch's baselines
 * (core/monitoring/check.ts) and writes the new baseline, its events (PENDING) and the watch's
 * state in one transaction.
 *
 * A check the service itself could not make (capacity exhausted, the daemon shutting down, the
 * database unreachable) is no fact about the identifier: nothing is written, and the watch is
 * checked again at its next interval.
 *
 * Deliveries: up to 20 due events before and after the checks of each pass.
 * Each is claimed — DELIVERING, attempts + 1, a 120 s lease on the database's clock — before the
 * network call, then POSTed through the egress policy (checked again at every delivery, redirects
 * never followed) with the envelope (the same bytes every attempt) and fresh signatures; 2xx →
 * DELIVERED; 410 Gone → the webhook disabled, its queued events CANCELLED; anything else → RETRY
 * after 60/120/240/480 s (or a longer Retry-After of a 429 or 503, capped at an hour), the fifth
 * failure → DEAD_LETTER. Each attempt leaves its record (delivery_attempts) in the settlement's
 * transaction. A sender that dies mid-attempt
 * leaves an expired lease, which the next claim recovers: RETRY due at once while attempts
 * remain, else DEAD_LETTER. So every event is delivered at least once; receivers deduplicate on
 * its id.
 */
import { failedOutcome, plannedEvents, resolvedOutcome, rewriteOf } from '../../core/monitoring/check.js';
import { certificateCheck } from '../../core/monitoring/tls.js';
import type { LogRewrite } from '../../core/webvh/types.js';
import { EVENT_LIMIT, EVENT_PAYLOAD_LIMIT_BYTES } from '../../core/monitoring/rules.js';
import {
  attemptOutcome,
  deliveryHeaders,
  DELIVERY_ATTEMPTS,
  DELIVERY_LEASE_SECONDS,
  envelopeOf,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from '../../core/monitoring/webhook.js';
import { asProblemError, type ProblemCode } from '../../core/problems.js';
import { rfc3339 } from '../../core/runtime.js';
import { customerHeaders, sealCustomerDelivery } from '../../core/monitoring/customer.js';
import {
  CUSTOMER_MONITOR_LIMITS,
  type CheckOutcome,
  type CustomerCheckClaim,
  type CustomerDeliveryClaim,
  type DeliveryClaim,
  type DeliveryResult,
  type PlannedEvent,
  type RecordedCheck,
  type WatchCheckInput,
} from '../../core/store.js';
import { performance } from 'node:perf_hooks';
import type { TlsEvidence } from '../../core/net.js';
import { admitResolution, type ServerContext } from '../context.js';
import { observeTarget } from './target-check.js';
import { Periodic } from './periodic.js';

/** Watches claimed per pass (the rest wait for the next pass). */
const WATCHES_PER_PASS = 100;
/** Checks of one pass running at once (they take capacity slots as one client: svc-monitor). */
const CHECKS_AT_ONCE = 8;
/** The capacity share of the poller: its resolutions count as one client's. */
const POLLER_CLIENT = 'svc-monitor';

/** Due events delivered before and after the checks of a pass. */
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

/** What a fresh check of the watch shows, and the events it means; or why no check could be made. */
export type Observation = { outcome: CheckOutcome; events: PlannedEvent[] } | { skipped: string };

/**
 * What one check of the watch sees (both scopes: operator and project watches): a DID resolved
 * afresh, an MCP endpoint or an A2A card inspected (jobs/target-check.ts); each compared with the
 * watch's baselines, and the certificate its evidence held with the certificate state of the
 * previous baseline (withCertificate).
 */
async function observe(ctx: ServerContext, input: WatchCheckInput): Promise<Observation> {
  switch (input.watch.kind) {
    case 'did':
      return observeDid(ctx, input);
    case 'mcp':
    case 'a2a':
      return observeTarget(ctx, input, withCertificate);
  }
}

/**
 * The observation with the certificate state of this check (core/monitoring/tls.ts): `tls` is
 * the TLS evidence of the connection that served the check's main answer (its leaf certificate
 * and host), or null (no TLS, or the check failed before it; a FAILED outcome counts as null).
 * The certificate's events (`tls.certificate.changed`, `tls.certificate.expiring`, at the
 * thresholds of SVC_TLS_EXPIRY_DAYS on the runtime's clock) come after the check's own.
 */
export function withCertificate(
  ctx: ServerContext,
  input: WatchCheckInput,
  seen: { outcome: CheckOutcome; events: PlannedEvent[] },
  tls: TlsEvidence | null,
): { outcome: CheckOutcome; events: PlannedEvent[] } {
  const evidence = seen.outcome.status === 'FAILED' ? null : tls;
  const checked = certificateCheck(input.previous?.tls ?? null, evidence, ctx.runtime.clock.now(), ctx.limits.tlsExpiryDays);
  return { outcome: { ...seen.outcome, tls: checked.state }, events: [...seen.events, ...checked.events] };
}

/** Resolves the watch's DID afresh and compares it with its baselines. */
async function observeDid(ctx: ServerContext, input: WatchCheckInput): Promise<Observation> {
  const { watch } = input;
  // checkedAt is read when the resolution has returned: a rewrite of a kept did:webvh log that
  // this resolution saw is never later than it, so the next check does not report it again.
  let outcome: CheckOutcome;
  let headline: string | null = null;
  let rewrite: LogRewrite | null = null;
  let tls: TlsEvidence | null = null;
  try {
    const result = await admitResolution(ctx, watch.did, { noCache: true }, POLLER_CLIENT)(AbortSignal.timeout(ctx.limits.requestTimeoutMs));
    outcome = resolvedOutcome(result, rfc3339(ctx.runtime.clock.now()));
    headline = result.verdict.headline;
    rewrite = rewriteOf(result);
    tls = result.evidence.tls;
  } catch (err) {
    const problem = asProblemError(err);
    // An abort by the time limit is a TimeoutError, not a problem of the DID's host.
    if (NOT_ABOUT_THE_DID.has(problem.code) || (err instanceof Error && err.name === 'TimeoutError')) return { skipped: problem.detail };
    outcome = failedOutcome(problem.toProblem(ctx.runtime.config.problemsBase), rfc3339(ctx.runtime.clock.now()));
  }
  return withCertificate(ctx, input, { outcome, events: plannedEvents(watch.did, input, outcome, headline, rewrite) }, tls);
}

/** The report of a check from what was observed and how recording it went. */
function reportOf(ctx: ServerContext, seen: { events: PlannedEvent[] }, recorded: RecordedCheck): CheckReport {
  if (recorded.outcome !== 'recorded') return { outcome: recorded.outcome };
  const telemetry = ctx.runtime.telemetry;
  if (telemetry) for (const event of seen.events) telemetry.record({ type: 'monitor.event', eventType: event.type, state: 'PENDING' });
  return { outcome: 'recorded', changed: seen.events.length > 0, eventIds: recorded.eventIds };
}

/** One check of one operator watch: resolve, compare, record. */
export async function checkWatch(ctx: ServerContext, input: WatchCheckInput): Promise<CheckReport> {
  return (await observeWatch(ctx, input))();
}

/** A check observed, and the recording of what it saw (or its report, when nothing is to be recorded). */
type Recording = () => Promise<CheckReport>;

/** The first step of checkWatch: resolve and compare; the recording is returned to be run next. */
async function observeWatch(ctx: ServerContext, input: WatchCheckInput): Promise<Recording> {
  const store = ctx.runtime.store;
  if (!store) return async () => ({ outcome: 'skipped', reason: 'the database is unavailable' });
  const seen = await observe(ctx, input);
  if ('skipped' in seen) return async () => ({ outcome: 'skipped', reason: seen.skipped });
  const { watch } = input;
  return async () => {
    const recorded = await store.watches.recordCheck({
      watchId: watch.id,
      revision: watch.revision,
      outcome: seen.outcome,
      events: seen.events,
      maxEvents: EVENT_LIMIT,
      maxPayloadBytes: EVENT_PAYLOAD_LIMIT_BYTES,
    });
    return reportOf(ctx, seen, recorded);
  };
}

/**
 * One check of one project watch: as an operator check, recorded with the project's
 * attempt (claimed with it; a check the service could not make leaves it counted FAILED) and a
 * sealed delivery of each new event for the project's active webhook, in one transaction.
 */
export async function checkProjectWatch(ctx: ServerContext, claim: CustomerCheckClaim): Promise<CheckReport> {
  const store = ctx.runtime.store;
  if (!store) return { outcome: 'skipped', reason: 'the database is unavailable' };
  const seen = await observe(ctx, claim);
  if ('skipped' in seen) return { outcome: 'skipped', reason: seen.skipped };
  const recorded = await store.customerMonitor.recordCheck(
    {
      watchId: claim.watch.id,
      revision: claim.watch.revision,
      outcome: seen.outcome,
      events: seen.events,
      maxPayloadBytes: EVENT_PAYLOAD_LIMIT_BYTES,
      attemptId: claim.attemptId,
    },
    sealCustomerDelivery,
  );
  return reportOf(ctx, seen, recorded);
}

/**
 * One HTTP attempt of a delivery through the egress policy, bounded at WEBHOOK_ATTEMPT_TIMEOUT_MS
 * and never following a redirect; the receiver's answer decides (core/monitoring/webhook.ts
 * attemptOutcome): 2xx delivered, 410 Gone disables the webhook, 3xx fails (not followed), 429 or
 * 503 with Retry-After waits at least that long (capped), anything else is retried on the
 * schedule, or ends after the last attempt.
 */
async function post(ctx: ServerContext, url: string, body: string, headers: Record<string, string>, attempt: number): Promise<DeliveryResult> {
  try {
    const answer = await ctx.runtime.net.fetch({
      url,
      purpose: 'webhook',
      method: 'POST',
      body,
      headers,
      noRedirects: true,
      maxBytes: RECEIVER_ANSWER_MAX_BYTES,
      timeLimitMs: ctx.webhookAttemptMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS,
    });
    return attemptOutcome(answer, '', attempt, ctx.runtime.clock.now().getTime());
  } catch (err) {
    const problem = asProblemError(err);
    return attemptOutcome(null, `${problem.code}: ${problem.detail}`.slice(0, 500), attempt, ctx.runtime.clock.now().getTime());
  }
}

/** What was decided of an attempt (as delivery_attempts records it). */
function decisionOf(result: DeliveryResult): string {
  if ('cancelled' in result) return 'CANCELLED';
  if (result.delivered) return 'DELIVERED';
  if (result.gone) return 'WEBHOOK_DISABLED';
  return result.retryAfterSeconds === null ? 'DEAD_LETTER' : 'RETRY';
}

/** Counts one attempt (its time, when something was sent) and, when it settled its event, the event's final state. */
function countAttempt(
  ctx: ServerContext,
  owner: 'operator' | 'customer',
  eventType: string,
  result: DeliveryResult,
  seconds: number | null,
  settled: boolean,
): void {
  const telemetry = ctx.runtime.telemetry;
  if (!telemetry) return;
  const decision = decisionOf(result);
  if (seconds !== null) telemetry.record({ type: 'webhook.attempt', seconds, decision, owner });
  if (!settled || decision === 'RETRY') return;
  telemetry.record({ type: 'monitor.event', eventType, state: decision === 'WEBHOOK_DISABLED' ? 'CANCELLED' : decision });
}

/** The event type a customer delivery's stored envelope names (`did.document.changed` …), for its metrics. */
function envelopeType(body: string): string {
  const match = /"type"\s*:\s*"([a-z0-9_.]{1,64})"/.exec(body);
  return match ? match[1]! : 'other';
}

/**
 * One attempt of one claimed event: POST, then settle (a lost lease settles nothing). A watch
 * removed, or whose webhook a receiver disabled (410 Gone), since the event was queued cancels
 * it without sending.
 */
export async function deliver(ctx: ServerContext, claim: DeliveryClaim): Promise<DeliveryResult> {
  const store = ctx.runtime.store;
  const { event, watch, attempt } = claim;
  let result: DeliveryResult;
  let seconds: number | null = null;
  if (!watch.active) {
    result = { cancelled: true, detail: 'the watch was removed: nothing was sent' };
  } else if (watch.webhookDisabled) {
    result = { cancelled: true, detail: "the watch's webhook is disabled (a receiver answered 410 Gone): nothing was sent" };
  } else {
    const body = envelopeOf(event);
    const headers = deliveryHeaders(watch.secret, event, body, ctx.runtime.clock.now().getTime() / 1000);
    const started = performance.now();
    result = await post(ctx, watch.webhookUrl, body, headers, attempt);
    seconds = (performance.now() - started) / 1000;
  }
  const settled = store ? await store.monitorEvents.settle(event.id, attempt, result) : false;
  if (store && !settled) {
    ctx.runtime.log.warn('a delivery was settled by another sender (its lease had expired)', { eventId: event.id, attempt });
  }
  countAttempt(ctx, 'operator', event.eventType, result, seconds, settled);
  return result;
}

/**
 * One attempt of one claimed customer delivery: the stored bytes, X-SVC-Event-ID and
 * X-SVC-Signature, the same on every attempt; then settle. A webhook disabled since the claim
 * cancels instead of sending.
 */
export async function deliverCustomer(ctx: ServerContext, claim: CustomerDeliveryClaim): Promise<DeliveryResult> {
  const store = ctx.runtime.store;
  const started = performance.now();
  const result: DeliveryResult = claim.active
    ? await post(ctx, claim.url, claim.body, customerHeaders(claim.eventId, claim.signature), claim.attempt)
    : { cancelled: true, detail: 'the webhook was disabled: nothing was sent' };
  const seconds = claim.active ? (performance.now() - started) / 1000 : null;
  const settled = store ? await store.customerMonitor.settleDelivery(claim.id, claim.attempt, result) : false;
  if (store && !settled) {
    ctx.runtime.log.warn('a customer delivery was settled by another sender (its lease had expired)', { deliveryId: claim.id, attempt: claim.attempt });
  }
  countAttempt(ctx, 'customer', envelopeType(claim.body), result, seconds, settled);
  return result;
}

/** Runs `work` on each item, `atOnce` at a time; returns how many ran. Items are all worked on unless `halted` says stop. */
async function each<T>(items: T[], atOnce: number, work: (item: T) => Promise<void>, halted: () => boolean = () => false): Promise<number> {
  let done = 0;
  const worker = async () => {
    for (let item = items.shift(); item !== undefined && !halted(); item = items.shift()) {
      await work(item);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return done;
}

/** Claims up to DELIVERIES_PER_ROUND due events and delivers them, a few at once; returns how many were attempted. */
export async function deliverDue(ctx: ServerContext): Promise<number> {
  const store = ctx.runtime.store;
  if (!store) return 0;
  // Claimed events are all attempted (their attempt was counted); a stop only ends the pass after them.
  const claims = await store.monitorEvents.claimDeliveries(DELIVERIES_PER_ROUND, DELIVERY_LEASE_SECONDS, DELIVERY_ATTEMPTS);
  return each(claims, DELIVERIES_AT_ONCE, async (claim) => void (await deliver(ctx, claim)));
}

/** As deliverDue, for customer deliveries. */
export async function deliverCustomerDue(ctx: ServerContext): Promise<number> {
  const store = ctx.runtime.store;
  if (!store) return 0;
  const claims = await store.customerMonitor.claimDeliveries(DELIVERIES_PER_ROUND, DELIVERY_LEASE_SECONDS, DELIVERY_ATTEMPTS);
  return each(claims, DELIVERIES_AT_ONCE, async (claim) => void (await deliverCustomer(ctx, claim)));
}

/**
 * Checks each claimed watch, CHECKS_AT_ONCE at a time (each waits mostly on the network and on
 * commits); returns how many checks were recorded. `check` observes and gives the recording
 * back: a checker starts its next observation while the recording of its last one is written,
 * and waits for that recording before it starts the next (at most CHECKS_AT_ONCE recordings at
 * once, each a checker's). Every recording has ended when the pass does; after one failed no
 * checker takes another watch, and the pass fails with its error.
 */
async function checkAll<T extends WatchCheckInput>(
  ctx: ServerContext,
  halted: () => boolean,
  queue: T[],
  check: (input: T) => Promise<Recording>,
): Promise<number> {
  let checked = 0;
  let failure: { error: unknown } | null = null;
  const settle = (input: T, report: CheckReport) => {
    if (report.outcome === 'recorded') checked += 1;
    else
      ctx.runtime.log.warn('a watch check was not recorded', {
        watchId: input.watch.id,
        outcome: report.outcome,
        ...(report.outcome === 'skipped' ? { reason: report.reason } : {}),
      });
  };
  const checker = async () => {
    // Never rejects: a failed recording is kept for the end of the pass.
    let recording: Promise<void> = Promise.resolve();
    try {
      for (let input = queue.shift(); input !== undefined && !halted() && failure === null; input = queue.shift()) {
        const record = await check(input);
        await recording;
        const observed = input;
        recording = record().then(
          (report) => settle(observed, report),
          (error: unknown) => void (failure ??= { error }),
        );
      }
    } finally {
      await recording;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, queue.length) }, checker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return checked;
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
    return checkAll(
      this.ctx,
      () => this.halted,
      await store.watches.claimDue(WATCHES_PER_PASS),
      (input) => observeWatch(this.ctx, input),
    );
  }
}

/**
 * The customer monitor (docs/daemon.md#customer-monitoring): the same pass for project watches,
 * every SVC_MONITOR_PERIOD seconds (30) on every daemon where the commercial mode is on. Project
 * watches are due hourly; a project whose rolling 30 days hold 18,000 attempts has its due checks
 * skipped (recorded, shown by GET /v1/session/scheduled-usage), never run silently over the
 * allowance.
 */
export class CustomerMonitorPoller extends Periodic {
  constructor(ctx: ServerContext) {
    super(ctx, ctx.limits.monitorPeriodSeconds, 'a customer monitor pass');
  }

  override async pass(): Promise<number> {
    const store = this.ctx.runtime.store;
    if (!store) return 0;
    await deliverCustomerDue(this.ctx);
    const { claims } = await store.customerMonitor.claimDue(WATCHES_PER_PASS, CUSTOMER_MONITOR_LIMITS.attempts);
    const checked = await checkAll(
      this.ctx,
      () => this.halted,
      claims,
      // Recorded before the checker goes on: each project check's recording is a transaction of its own.
      async (claim) => {
        const report = await checkProjectWatch(this.ctx, claim);
        return async () => report;
      },
    );
    if (!this.halted) await deliverCustomerDue(this.ctx);
    return checked;
  }
}
