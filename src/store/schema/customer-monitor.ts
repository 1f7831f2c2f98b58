/**
 * Customer monitoring (docs/daemon.md#customer-monitoring) for both engines: project watches (rows
 * of `watches` with a project, schema v4), their events and baselines (monitor_events,
 * monitor_baselines), the project's webhook and its deliveries (v8), scheduled attempts (v6) and
 * skips (v11).
 *
 * The statements are written once, as functions of a CustomerDialect (the AccountDialect of
 * schema/accounts.ts and the row locks PostgreSQL adds), and so is every method: each is a
 * generator that yields the statements it runs and receives their rows. sqlite/customer-monitor.ts
 * drives it synchronously inside one better-sqlite3 transaction (IMMEDIATE for writes, DEFERRED
 * for reads); postgres/customer-monitor.ts drives the same generator over one pooled connection
 * inside BEGIN … COMMIT (REPEATABLE READ READ ONLY for reads). So the two engines cannot differ
 * in what they check or in what order they write.
 *
 * "Now" is the database's clock, read once per method by the `bounds` statement (now, the start
 * of the 30-day window, the due bound, and one instant ahead), and passed on as RFC 3339 text, so
 * every statement of a call judges by the same instant. Owner methods re-check ownership inside
 * their transaction with the accounts' `owned` statement (on PostgreSQL it locks the project row
 * FOR NO KEY UPDATE and the owner's row FOR SHARE; reads take no lock, one snapshot).
 */
import type { JsonObject } from '../../core/encoding/json.js';
import {
  CUSTOMER_MONITOR_LIMITS,
  type CustomerCheckClaim,
  type CustomerDeliveryClaim,
  type CustomerDeliveryMetadata,
  type CustomerEvent,
  type CustomerMonitorStore,
  type CustomerReplay,
  type CustomerWebhookConfig,
  type EventPage,
  type EventPageQuery,
  type ProjectMonitorCounts,
  type ProjectWatch,
  type ScheduledUsage,
  type SealDelivery,
  type WatchReport,
} from '../../core/monitoring/customer-store.js';
import { customerSignature, eventPublicId, subjectMembers, unixSeconds, watchPublicId, webhookPublicId } from '../../core/monitoring/customer.js';
import {
  MONITOR_EVENT_TYPES,
  type CheckOutcome,
  type DeliveryAttempt,
  type DeliveryResult,
  type DeliveryStatus,
  type MonitorEventType,
  type RecordCheck,
  type RecordedCheck,
  type WatchKind,
} from '../../core/monitoring/store.js';
import { ACCOUNT_STATEMENTS, notFound, notOwner, text, type AccountDialect } from './accounts.js';
import { claimArguments, goneReason, MAX_SECONDS, oneLine, recoveredDetail, settlementOf, type RecoveredRow } from './monitor-events.js';
import { limitOf } from './observations.js';
import { checkInputOf, isRevision, isRowId, QUEUED, serialisedData, storedOutcome, toCheckInput, type CheckInputRow } from './watches.js';

/** The account dialect and the row locks only PostgreSQL takes (empty on SQLite, whose write lock covers them). */
export interface CustomerDialect extends AccountDialect {
  /** After a single-table SELECT: lock the rows, skipping those another transaction holds. */
  readonly skipLocked: string;
  /** After a single-table SELECT: lock the rows for an update. */
  readonly forUpdate: string;
  /** After a single-table SELECT: lock the rows against updates until commit. */
  readonly forShare: string;
}

const L = CUSTOMER_MONITOR_LIMITS;
const HOUR_MS = L.intervalSeconds * 1000;
/** Attempt decisions listed per delivery (newest first). */
export const DECISIONS_SHOWN = 10;
/** The schema's CHECK on customer_webhook_deliveries.attempts: 0..5. */
export const MAX_DELIVERY_ATTEMPTS = 5;

const watchColumns = (a: string) => `${a}id, ${a}project_id AS "projectId", ${a}kind, ${a}did, ${a}created_at AS "createdAt", ${a}last_status AS "lastStatus",
  ${a}last_hash AS "lastHash", ${a}last_checked_at AS "lastCheckedAt"`;
const WATCH = watchColumns('w.');
const EVENT = `e.id, e.event_type AS "type", w.project_id AS "projectId", e.watch_id AS "watchId", w.kind, e.did, e.created_at AS "createdAt", e.data
  FROM monitor_events e JOIN watches w ON w.id = e.watch_id`;
const HOOK = `id, url, created_at AS "createdAt", active, disabled_at AS "disabledAt", disabled_reason AS "disabledReason"`;
const int = (d: CustomerDialect, name: string) => `CAST(${d.p(name)} AS INTEGER)`;
const txt = (d: CustomerDialect, name: string) => `CAST(${d.p(name)} AS TEXT)`;
/** A settlement's status: a failed attempt (RETRY) whose webhook has been disabled since ends CANCELLED. */
const settledStatus = (d: CustomerDialect) => `CASE WHEN ${txt(d, 'status')} = 'RETRY' AND NOT EXISTS (
    SELECT 1 FROM customer_webhooks h WHERE h.id = customer_webhook_deliveries.webhook_id AND h.active = 1)
  THEN 'CANCELLED' ELSE ${txt(d, 'status')} END`;

/** The statements both engines run (compiled per dialect). Times other than `bounds` are parameters read from it. */
export const CUSTOMER_STATEMENTS = {
  /** The call's instant on the database clock, the window's start, the due bound, and now + aheadMs. */
  bounds: (d: CustomerDialect) => `
    SELECT ${d.rfc3339(d.now)} AS "now", ${d.rfc3339(`${d.now} - ${L.windowMs}`)} AS "since", ${d.rfc3339(`${d.now} - ${HOUR_MS}`)} AS "dueBy",
      ${d.rfc3339(`${d.now} + CAST(${d.p('aheadMs')} AS BIGINT)`)} AS "ahead"`,
  owned: (d: CustomerDialect) => ACCOUNT_STATEMENTS.owned(d),
  ownedRead: (d: CustomerDialect) => ACCOUNT_STATEMENTS.owned({ ...d, ownedLock: '' }),
  projectsOwnedBy: (d: CustomerDialect) => ACCOUNT_STATEMENTS.projectsOwnedBy(d),
  countActive: (d: CustomerDialect) => `SELECT CAST(count(*) AS INTEGER) AS n FROM watches WHERE project_id = ${d.p('projectId')} AND active = 1`,
  activeOfDid: (d: CustomerDialect) => `
    SELECT ${WATCH} FROM watches w
    WHERE w.project_id = ${d.p('projectId')} AND w.did = ${d.p('did')} AND w.kind = ${txt(d, 'kind')} AND w.active = 1 ORDER BY w.id LIMIT 1`,
  insertWatch: (d: CustomerDialect) => `
    INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at, active, revision, project_id, kind)
    VALUES (${d.p('did')}, '', '', ${L.intervalSeconds}, ${d.p('now')}, 1, 0, ${d.p('projectId')}, ${txt(d, 'kind')})
    RETURNING ${watchColumns('')}`,
  /** An uploaded baseline: the new watch's revision 0 (what its first check compares with). */
  insertFirstBaseline: (d: CustomerDialect) => `
    INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at)
    VALUES (${d.p('watchId')}, 0, ${d.p('status')}, ${d.p('hash')}, ${d.p('profile')}, ${d.p('binding')}, ${d.p('document')}, ${d.p('problem')}, ${d.p('checkedAt')})
    RETURNING id`,
  listWatches: (d: CustomerDialect) => `SELECT ${WATCH} FROM watches w WHERE w.project_id = ${d.p('projectId')} AND w.active = 1 ORDER BY w.id`,
  /** The watch of the project, active or not. */
  watchOf: (d: CustomerDialect) => `SELECT ${WATCH}, w.active FROM watches w WHERE w.id = ${d.p('watchId')} AND w.project_id = ${d.p('projectId')}`,
  /** The revision moves too: a check in flight that read the watch can no longer record (stale). */
  deactivate: (d: CustomerDialect) => `
    UPDATE watches SET active = 0, revision = revision + 1
    WHERE id = ${d.p('watchId')} AND project_id = ${d.p('projectId')} AND active = 1 RETURNING id`,
  /** DELIVERING deliveries are left to their sender (it finishes or lets the lease lapse). */
  cancelOfWatch: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET status = 'CANCELLED', next_attempt_at = NULL
    WHERE status IN ${QUEUED} AND monitor_event_id IN (SELECT id FROM monitor_events WHERE watch_id = ${d.p('watchId')}) RETURNING id`,
  countWindow: (d: CustomerDialect) => `
    SELECT CAST(count(*) AS INTEGER) AS n FROM monitor_events WHERE watch_id = ${d.p('watchId')} AND created_at >= ${d.p('since')}`,
  eventsWindow: (d: CustomerDialect) => `
    SELECT ${EVENT} WHERE e.watch_id = ${d.p('watchId')} AND e.created_at >= ${d.p('since')} ORDER BY e.id DESC LIMIT ${d.p('limit')}`,
  /** The newest event of the window (created at or before asOf, when given). */
  watermark: (d: CustomerDialect) => `
    SELECT max(id) AS id FROM monitor_events
    WHERE watch_id = ${d.p('watchId')} AND created_at >= ${d.p('since')} AND (${txt(d, 'asOf')} IS NULL OR created_at <= ${txt(d, 'asOf')})`,
  eventOfWatch: (d: CustomerDialect) => `SELECT id FROM monitor_events WHERE id = ${d.p('eventId')} AND watch_id = ${d.p('watchId')}`,
  page: (d: CustomerDialect) => `
    SELECT ${EVENT}
    WHERE e.watch_id = ${d.p('watchId')} AND e.id <= ${int(d, 'upper')} AND e.created_at >= ${d.p('since')}
      AND (${txt(d, 'asOf')} IS NULL OR e.created_at <= ${txt(d, 'asOf')})
    ORDER BY e.id DESC LIMIT ${d.p('limit')}`,
  activeWebhook: (d: CustomerDialect) => `SELECT ${HOOK} FROM customer_webhooks WHERE project_id = ${d.p('projectId')} AND active = 1`,
  /** The project's newest webhook when a receiver disabled it (410 Gone: a reason is kept); an owner's DELETE keeps none. */
  goneWebhook: (d: CustomerDialect) => `
    SELECT ${HOOK} FROM customer_webhooks WHERE project_id = ${d.p('projectId')}
      AND id = (SELECT max(id) FROM customer_webhooks WHERE project_id = ${d.p('projectId')}) AND active = 0 AND disabled_reason IS NOT NULL`,
  /** A 410 Gone: the webhook disabled with its reason (only while active: an owner may have replaced it meanwhile). */
  disableGone: (d: CustomerDialect) => `
    UPDATE customer_webhooks SET active = 0, disabled_at = ${d.p('now')}, disabled_reason = ${d.p('reason')}
    WHERE id = ${d.p('webhookId')} AND active = 1 RETURNING id`,
  /** Every attempt record of a delivery; the newest `limit`. */
  deliveryAttempts: (d: CustomerDialect) => `
    SELECT replay, attempt, attempted_at AS "attemptedAt", response_status AS "responseStatus", decision, detail, next_attempt_at AS "nextAttemptAt"
    FROM delivery_attempts WHERE delivery_id = ${d.p('id')} ORDER BY id DESC LIMIT ${d.p('limit')}`,
  recordAttempt: (d: CustomerDialect) => `
    INSERT INTO delivery_attempts (delivery_id, replay, attempt, attempted_at, response_status, decision, detail, next_attempt_at)
    VALUES (${d.p('id')}, ${int(d, 'replay')}, ${int(d, 'attempt')}, ${txt(d, 'attemptedAt')}, ${int(d, 'httpStatus')}, ${txt(d, 'decision')},
      ${txt(d, 'detail')}, ${txt(d, 'nextAttemptAt')})
    RETURNING id`,
  disableWebhook: (d: CustomerDialect) => `
    UPDATE customer_webhooks SET active = 0, disabled_at = ${d.p('now')} WHERE project_id = ${d.p('projectId')} AND active = 1 RETURNING id`,
  /**
   * A statement of its own after disableWebhook: on PostgreSQL its snapshot then includes the
   * deliveries of a check that committed while the disable waited for the webhook's row.
   */
  cancelOfWebhook: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET status = 'CANCELLED', next_attempt_at = NULL
    WHERE webhook_id = ${d.p('webhookId')} AND status IN ${QUEUED} RETURNING id`,
  insertWebhook: (d: CustomerDialect) => `
    INSERT INTO customer_webhooks (project_id, url, secret, created_at, active) VALUES (${d.p('projectId')}, ${d.p('url')}, ${d.p('secret')}, ${d.p('now')}, 1)
    RETURNING ${HOOK}`,
  /** Metadata only: never the body, signature, secret, lease or receiver's status. */
  listDeliveries: (d: CustomerDialect) => `
    SELECT dl.id, dl.monitor_event_id AS "eventRow", dl.event_type AS "eventType", e.watch_id AS "watchRow", dl.webhook_id AS "webhookRow",
      dl.created_at AS "createdAt", dl.status, dl.attempts, dl.next_attempt_at AS "nextAttemptAt", dl.last_attempt_at AS "lastAttemptAt",
      dl.delivered_at AS "deliveredAt"
    FROM customer_webhook_deliveries dl JOIN monitor_events e ON e.id = dl.monitor_event_id
    WHERE dl.project_id = ${d.p('projectId')} AND dl.created_at >= ${d.p('since')}
    ORDER BY dl.created_at DESC, dl.id DESC LIMIT ${d.p('limit')}`,
  usage: (d: CustomerDialect) => {
    const attempts = `FROM scheduled_attempts WHERE project_id = ${d.p('projectId')} AND attempted_at >= ${d.p('since')}`;
    const skips = `FROM scheduled_skips WHERE project_id = ${d.p('projectId')} AND skipped_at >= ${d.p('since')}`;
    const watches = `FROM watches WHERE project_id = ${d.p('projectId')} AND active = 1`;
    return `SELECT
      (SELECT CAST(count(*) AS INTEGER) ${attempts}) AS used,
      (SELECT CAST(count(*) AS INTEGER) ${attempts} AND outcome = 'FAILED') AS failed,
      (SELECT CAST(count(*) AS INTEGER) ${skips}) AS skipped,
      (SELECT max(skipped_at) ${skips}) AS "lastSkippedAt",
      (SELECT CAST(count(*) AS INTEGER) ${watches}) AS "activeWatches",
      (SELECT min(created_at) ${watches} AND last_checked_at IS NULL) AS "neverChecked",
      (SELECT min(last_checked_at) ${watches}) AS "oldestCheck"`;
  },
  /** Due project watches, never checked first, then the oldest check. */
  due: (d: CustomerDialect) => `
    SELECT w.id, w.project_id AS "projectId" FROM watches w
    WHERE w.project_id IS NOT NULL AND w.active = 1 AND (w.last_checked_at IS NULL OR w.last_checked_at <= ${d.p('dueBy')})
    ORDER BY w.last_checked_at NULLS FIRST, w.id LIMIT ${d.p('limit')} ${d.skipLocked}`,
  attemptsInWindow: (d: CustomerDialect) => `
    SELECT CAST(count(*) AS INTEGER) AS n FROM scheduled_attempts WHERE project_id = ${d.p('projectId')} AND attempted_at >= ${d.p('since')}`,
  insertSkip: (d: CustomerDialect) => `
    INSERT INTO scheduled_skips (project_id, job, skipped_at, reason) VALUES (${d.p('projectId')}, ${d.p('job')}, ${d.p('now')}, ${d.p('reason')}) RETURNING id`,
  insertAttempt: (d: CustomerDialect) => `
    INSERT INTO scheduled_attempts (project_id, job, attempted_at, outcome) VALUES (${d.p('projectId')}, ${d.p('job')}, ${d.p('now')}, 'FAILED') RETURNING id`,
  markChecked: (d: CustomerDialect) => `UPDATE watches SET last_checked_at = ${d.p('now')} WHERE id = ${d.p('watchId')} RETURNING id`,
  checkInput: (d: CustomerDialect) => `${checkInputOf('w.project_id IS NOT NULL')} AND w.id = ${d.p('watchId')}`,
  /**
   * The revision guard, and on PostgreSQL the watch's row lock, taken before any event gets an id:
   * a watch's events are then committed in id order (what event-page watermarks rely on).
   */
  current: (d: CustomerDialect) => `
    SELECT did, kind, project_id AS "projectId" FROM watches
    WHERE id = ${d.p('watchId')} AND revision = ${d.p('revision')} AND active = 1 AND project_id IS NOT NULL ${d.forUpdate}`,
  previousBaseline: (d: CustomerDialect) => `SELECT id FROM monitor_baselines WHERE watch_id = ${d.p('watchId')} AND revision = ${d.p('revision')}`,
  insertBaseline: (d: CustomerDialect) => `
    INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at,
      tls_leaf_sha256, tls_not_after, tls_announced_days)
    VALUES (${d.p('watchId')}, ${d.p('next')}, ${d.p('status')}, ${d.p('hash')}, ${d.p('profile')}, ${d.p('binding')}, ${d.p('document')}, ${d.p('problem')}, ${d.p('checkedAt')},
      ${txt(d, 'tlsLeaf')}, ${txt(d, 'tlsNotAfter')}, ${int(d, 'tlsAnnounced')})
    RETURNING id`,
  /** PENDING, never taken by the operator's deliverer: a customer event's delivery state is its deliveries'. */
  insertEvent: (d: CustomerDialect) => `
    INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at,
      watch_revision, baseline_id, previous_baseline_id)
    VALUES (${d.p('watchId')}, ${d.p('did')}, ${d.p('type')}, ${d.p('data')}, ${d.p('checkedAt')}, 'PENDING', 0, NULL, ${d.p('next')}, ${d.p('baselineId')},
      ${int(d, 'previousId')})
    RETURNING id`,
  advance: (d: CustomerDialect) => `
    UPDATE watches SET revision = revision + 1,
      last_hash = CASE WHEN ${txt(d, 'status')} = 'FAILED' THEN last_hash ELSE ${txt(d, 'hash')} END,
      last_status = ${txt(d, 'status')}, last_checked_at = ${d.p('checkedAt')}
    WHERE id = ${d.p('watchId')} AND revision = ${d.p('revision')} AND active = 1 RETURNING id`,
  attemptOk: (d: CustomerDialect) =>
    `UPDATE scheduled_attempts SET outcome = 'OK' WHERE id = ${d.p('attemptId')} AND project_id = ${d.p('projectId')} RETURNING id`,
  /** FOR SHARE on PostgreSQL: a replacement of the webhook waits for this check's deliveries, then cancels them. */
  hookForCheck: (d: CustomerDialect) => `SELECT id, secret FROM customer_webhooks WHERE project_id = ${d.p('projectId')} AND active = 1 ${d.forShare}`,
  insertDelivery: (d: CustomerDialect) => `
    INSERT INTO customer_webhook_deliveries (id, webhook_id, project_id, monitor_event_id, event_type, body, signature, created_at, status, attempts)
    VALUES (${d.p('id')}, ${d.p('webhookId')}, ${d.p('projectId')}, ${d.p('eventId')}, ${d.p('type')}, ${d.p('body')}, ${d.p('signature')}, ${d.p('createdAt')}, 'PENDING', 0)
    RETURNING id`,
  /** Expired leases (the sender died mid-attempt): RETRY due now while an attempt is left, else DEAD_LETTER. */
  recover: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET
      status = CASE WHEN attempts < ${int(d, 'max')} THEN 'RETRY' ELSE 'DEAD_LETTER' END,
      next_attempt_at = CASE WHEN attempts < ${int(d, 'max')} THEN ${txt(d, 'now')} END,
      lease_expires_at = NULL
    WHERE id IN (SELECT id FROM customer_webhook_deliveries WHERE status = 'DELIVERING' AND lease_expires_at <= ${txt(d, 'now')} ${d.skipLocked})
    RETURNING id, replays, attempts, coalesce(last_attempt_at, ${txt(d, 'now')}) AS "attemptedAt", status, next_attempt_at AS "nextAttemptAt",
      ${recoveredDetail('status')} AS "detail"`,
  /** Due deliveries with no attempt left end as DEAD_LETTER (attempt never passes maxAttempts). */
  exhaust: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET status = 'DEAD_LETTER', next_attempt_at = NULL
    WHERE id IN (SELECT id FROM customer_webhook_deliveries
      WHERE status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= ${txt(d, 'now')}) AND attempts >= ${int(d, 'max')} ${d.skipLocked})
    RETURNING id`,
  claim: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET status = 'DELIVERING', attempts = attempts + 1, last_attempt_at = ${txt(d, 'now')}, lease_expires_at = ${txt(d, 'until')}
    WHERE id IN (SELECT id FROM customer_webhook_deliveries
      WHERE status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= ${txt(d, 'now')}) AND attempts < ${int(d, 'max')}
      ORDER BY monitor_event_id, webhook_id LIMIT ${d.p('limit')} ${d.skipLocked})
    RETURNING id`,
  /** The only statement that selects a delivery's body and signature: the sender sends them. */
  claimed: (d: CustomerDialect) => `
    SELECT dl.id, dl.monitor_event_id AS "eventRow", h.url, dl.body, dl.signature, h.active, dl.attempts AS attempt, dl.lease_expires_at AS "leaseExpiresAt"
    FROM customer_webhook_deliveries dl JOIN customer_webhooks h ON h.id = dl.webhook_id WHERE dl.id = ${d.p('id')}`,
  /** Guarded: only the attempt that holds the delivery settles it. */
  settle: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET
      status = ${settledStatus(d)},
      next_attempt_at = CASE WHEN ${settledStatus(d)} = 'RETRY' THEN ${txt(d, 'retryAt')} END,
      delivered_at = CASE WHEN ${txt(d, 'status')} = 'DELIVERED' THEN ${txt(d, 'now')} END,
      last_response_status = ${int(d, 'httpStatus')},
      lease_expires_at = NULL
    WHERE id = ${d.p('id')} AND status = 'DELIVERING' AND attempts = ${int(d, 'attempt')}
    RETURNING id, status, replays, webhook_id AS "webhookId", monitor_event_id AS "eventRow", coalesce(last_attempt_at, ${txt(d, 'now')}) AS "attemptedAt",
      next_attempt_at AS "nextAttemptAt"`,
  // ---- replay (an owner asks; never automatic) ----
  /** A delivery of the project with its event's watch (whether still active) and creation time. */
  deliveryOf: (d: CustomerDialect) => `
    SELECT dl.id, dl.webhook_id AS "webhookRow", dl.monitor_event_id AS "eventRow", dl.event_type AS "eventType", dl.body, dl.status,
      e.watch_id AS "watchRow", e.created_at AS "eventCreatedAt", w.active AS "watchActive"
    FROM customer_webhook_deliveries dl JOIN monitor_events e ON e.id = dl.monitor_event_id JOIN watches w ON w.id = e.watch_id
    WHERE dl.id = ${d.p('id')} AND dl.project_id = ${d.p('projectId')} ${d.forUpdate.replace('FOR UPDATE', 'FOR UPDATE OF dl')}`,
  /** The active webhook with its secret, locked against a replacement until this replay commits. */
  hookForReplay: (d: CustomerDialect) => `SELECT id, secret FROM customer_webhooks WHERE project_id = ${d.p('projectId')} AND active = 1 ${d.forShare}`,
  /** A fresh delivery of the same row: five attempts again, the stored bytes and signature kept. */
  replayDelivery: (d: CustomerDialect) => `
    UPDATE customer_webhook_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = NULL, lease_expires_at = NULL,
      last_response_status = NULL, delivered_at = NULL, replays = replays + 1
    WHERE id = ${d.p('id')} AND status IN ('DEAD_LETTER', 'CANCELLED') RETURNING id`,
  /** A new delivery made by a replay (replays 1): the same body bytes, signed with the active webhook's secret. */
  insertReplayDelivery: (d: CustomerDialect) => `
    INSERT INTO customer_webhook_deliveries (id, webhook_id, project_id, monitor_event_id, event_type, body, signature, created_at, status, attempts, replays)
    VALUES (${d.p('id')}, ${d.p('webhookId')}, ${d.p('projectId')}, ${d.p('eventId')}, ${d.p('type')}, ${d.p('body')}, ${d.p('signature')}, ${d.p('createdAt')}, 'PENDING', 0, 1)
    RETURNING id`,
  /** The newest DEAD_LETTER delivery of each event of the watch created at or after the instant. */
  deadLettersOfWatch: (d: CustomerDialect) => `
    SELECT dl.id FROM customer_webhook_deliveries dl JOIN monitor_events e ON e.id = dl.monitor_event_id
    WHERE e.watch_id = ${d.p('watchId')} AND dl.project_id = ${d.p('projectId')} AND dl.status = 'DEAD_LETTER' AND e.created_at >= ${d.p('since')}
    ORDER BY dl.monitor_event_id, dl.created_at DESC, dl.webhook_id DESC`,
  /** One delivery's metadata (as listDeliveries gives it). */
  deliveryMetadata: (d: CustomerDialect) => `
    SELECT dl.id, dl.monitor_event_id AS "eventRow", dl.event_type AS "eventType", e.watch_id AS "watchRow", dl.webhook_id AS "webhookRow",
      dl.created_at AS "createdAt", dl.status, dl.attempts, dl.next_attempt_at AS "nextAttemptAt", dl.last_attempt_at AS "lastAttemptAt",
      dl.delivered_at AS "deliveredAt"
    FROM customer_webhook_deliveries dl JOIN monitor_events e ON e.id = dl.monitor_event_id WHERE dl.id = ${d.p('id')}`,
  /** The owner page's counts of a project: its latest webhook's state, replays and events by type in the window. */
  projectCounts: (d: CustomerDialect) => `
    SELECT
      (SELECT CAST(coalesce(sum(replays), 0) AS INTEGER) FROM customer_webhook_deliveries
        WHERE project_id = ${d.p('projectId')} AND created_at >= ${d.p('since')}) AS replays,
      ${MONITOR_EVENT_TYPES.map(
        (type, i) => `(SELECT CAST(count(*) AS INTEGER) FROM monitor_events e JOIN watches w ON w.id = e.watch_id
        WHERE w.project_id = ${d.p('projectId')} AND e.created_at >= ${d.p('since')} AND e.event_type = '${type}') AS "t_${i}"`,
      ).join(',\n      ')}`,
  latestWebhook: (d: CustomerDialect) => `
    SELECT id, active, disabled_at AS "disabledAt", disabled_reason AS "disabledReason" FROM customer_webhooks
    WHERE project_id = ${d.p('projectId')} ORDER BY id DESC LIMIT 1`,
} as const;

export type CustomerStatement = keyof typeof CUSTOMER_STATEMENTS;

/** What a method yields: a statement to run (its rows come back), or project keys to lock (PostgreSQL: advisory locks, in order). */
export type Step = { statement: CustomerStatement; values: Record<string, unknown> } | { lock: string[] };
/** A method's body: run by an engine in one transaction ('write' or a one-snapshot 'read'). */
export type Work<T> = Generator<Step, T, unknown[]>;
export type Mode = 'write' | 'read';
export type Execute = <T>(mode: Mode, work: Work<T>) => Promise<T>;

function* all<R>(statement: CustomerStatement, values: Record<string, unknown> = {}): Generator<Step, R[], unknown[]> {
  return (yield { statement, values }) as R[];
}

function* one<R>(statement: CustomerStatement, values: Record<string, unknown> = {}): Generator<Step, R | undefined, unknown[]> {
  return (yield* all<R>(statement, values))[0];
}

interface Bounds {
  now: string;
  since: string;
  dueBy: string;
  ahead: string;
}

function* bounds(aheadMs = 0): Generator<Step, Bounds, unknown[]> {
  return (yield* one<Bounds>('bounds', { aheadMs }))!;
}

/** The RFC 3339 text (second precision) an hour after another. */
function hourAfter(rfc3339: string): string {
  return new Date(Date.parse(rfc3339) + HOUR_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

type WatchRow = Omit<ProjectWatch, 'id' | 'nextDueAt' | 'did' | 'mcpEndpoint' | 'a2aCard'> & { id: number; kind: WatchKind; did: string };

function toProjectWatch(row: WatchRow): ProjectWatch {
  return {
    id: watchPublicId(row.id),
    projectId: row.projectId,
    ...subjectMembers(row.kind, row.did),
    createdAt: row.createdAt,
    lastStatus: row.lastStatus,
    lastHash: row.lastHash,
    lastCheckedAt: row.lastCheckedAt,
    nextDueAt: row.lastCheckedAt === null ? row.createdAt : hourAfter(row.lastCheckedAt),
  };
}

type EventRow = { id: number; type: MonitorEventType; projectId: string; watchId: number; kind: WatchKind; did: string; createdAt: string; data: string };

function toCustomerEvent(row: EventRow): CustomerEvent {
  return {
    id: eventPublicId(row.id),
    type: row.type,
    projectId: row.projectId,
    watchId: watchPublicId(row.watchId),
    ...subjectMembers(row.kind, row.did),
    createdAt: row.createdAt,
    // json_valid() in the table's CHECK: the checks only write objects.
    data: JSON.parse(row.data) as JsonObject,
  };
}

type HookRow = { id: number; url: string; createdAt: string; active: number; disabledAt: string | null; disabledReason: string | null };

function toWebhook(row: HookRow): CustomerWebhookConfig {
  return {
    id: webhookPublicId(row.id),
    url: row.url,
    createdAt: row.createdAt,
    active: Number(row.active) === 1,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
  };
}

type DeliveryRow = Omit<CustomerDeliveryMetadata, 'eventId' | 'watchId' | 'webhookId' | 'decisions'> & {
  eventRow: number;
  watchRow: number;
  webhookRow: number;
};

function toDelivery(row: DeliveryRow, attempts: DeliveryAttempt[]): CustomerDeliveryMetadata {
  return {
    id: row.id,
    eventId: eventPublicId(row.eventRow),
    eventType: row.eventType,
    watchId: watchPublicId(row.watchRow),
    webhookId: webhookPublicId(row.webhookRow),
    createdAt: row.createdAt,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: row.nextAttemptAt,
    lastAttemptAt: row.lastAttemptAt,
    deliveredAt: row.deliveredAt,
    decisions: attempts.map(({ responseStatus: _, ...a }) => ({ ...a, replay: Number(a.replay), attempt: Number(a.attempt) })),
  };
}

/** The delivery's id: `dlv_<webhook n>_<event n>` (one delivery per webhook and event). */
export function deliveryId(webhookRow: number, eventRow: number): string {
  return `dlv_${webhookRow}_${eventRow}`;
}

/** A row id either engine can hold (PostgreSQL's INTEGER): anything else names no row. */
function isId(id: number): boolean {
  return isRowId(id) && id <= MAX_SECONDS;
}

/** Why a due check was skipped (one line, stored with the skip). */
export function skipReason(allowance: number): string {
  return `The project used its allowance of ${allowance} scheduled attempts in the last ${L.windowDays} days; the check is due again in an hour.`;
}

function* ownedBy(subject: string, projectId: string, mode: Mode): Generator<Step, void, unknown[]> {
  if ((yield* one(mode === 'write' ? 'owned' : 'ownedRead', { subject, projectId })) === undefined) throw notOwner();
}

/** The project's watch (active or not, as `active` says), or NOT_FOUND. */
function* watchOf(projectId: string, watchId: number, active: boolean): Generator<Step, WatchRow, unknown[]> {
  if (!isId(watchId)) throw notFound('watch');
  const row = yield* one<WatchRow & { active: number }>('watchOf', { projectId, watchId });
  if (row === undefined || (active && Number(row.active) !== 1)) throw notFound('watch');
  const { active: _, ...watch } = row;
  return watch;
}

/** A whole number in [min, max], else RangeError. */
function whole(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new RangeError(`${name} must be a whole number from ${min} to ${max}, not ${value}`);
  return value;
}

/**
 * The CustomerMonitorStore of both engines: every method is one transaction of `execute`, the
 * engine's driver of the generators above.
 */
export class CustomerMonitor implements CustomerMonitorStore {
  constructor(private readonly execute: Execute) {}

  async addWatch(
    subject: string,
    projectId: string,
    did: string,
    limit: number,
    target?: { kind: WatchKind; baseline?: CheckOutcome },
  ): Promise<{ watch: ProjectWatch; created: boolean } | 'full'> {
    text('did', did, 2048);
    const kind = target?.kind ?? 'did';
    const first = target?.baseline;
    return this.execute(
      'write',
      (function* () {
        yield* ownedBy(subject, projectId, 'write');
        const existing = yield* one<WatchRow>('activeOfDid', { projectId, did, kind });
        if (existing !== undefined) return { watch: toProjectWatch(existing), created: false };
        // Counted under the project's lock (PostgreSQL) or the write lock (SQLite); written as "not
        // below" so that a limit that is not a number refuses.
        const { n } = (yield* one<{ n: number }>('countActive', { projectId }))!;
        if (!(n < limit)) return 'full' as const;
        const { now } = yield* bounds();
        const row = (yield* one<WatchRow>('insertWatch', { projectId, did, now, kind }))!;
        if (first !== undefined) {
          const stored = storedOutcome(first);
          yield* one('insertFirstBaseline', {
            watchId: row.id,
            status: first.status,
            hash: first.documentHash,
            profile: first.fingerprintProfile,
            binding: first.domainBindingStatus,
            document: stored.document,
            problem: stored.problem,
            checkedAt: first.checkedAt,
          });
        }
        return { watch: toProjectWatch(row), created: true };
      })(),
    );
  }

  async listWatches(subject: string, projectId: string): Promise<ProjectWatch[]> {
    return this.execute(
      'read',
      (function* () {
        yield* ownedBy(subject, projectId, 'read');
        return (yield* all<WatchRow>('listWatches', { projectId })).map(toProjectWatch);
      })(),
    );
  }

  async removeWatch(subject: string, projectId: string, watchId: number): Promise<void> {
    return this.execute(
      'write',
      (function* () {
        yield* ownedBy(subject, projectId, 'write');
        if (!isId(watchId) || (yield* one('deactivate', { projectId, watchId })) === undefined) throw notFound('watch');
        yield* all('cancelOfWatch', { watchId });
      })(),
    );
  }

  async listEvents(subject: string, projectId: string, watchId: number, max: number): Promise<CustomerEvent[] | 'too-many'> {
    const n = limitOf(max);
    return this.execute(
      'read',
      (function* () {
        yield* ownedBy(subject, projectId, 'read');
        yield* watchOf(projectId, watchId, false);
        const { since } = yield* bounds();
        const rows = yield* all<EventRow>('eventsWindow', { watchId, since, limit: n + 1 });
        return rows.length > n ? ('too-many' as const) : rows.map(toCustomerEvent);
      })(),
    );
  }

  async eventPage(subject: string, projectId: string, watchId: number, query: EventPageQuery): Promise<EventPage> {
    const limit = whole('limit', query.limit, 1, L.pageMax);
    const asOf = query.asOf ?? null;
    if (query.beforeEventId !== undefined && query.snapshotEventId === undefined) throw new RangeError('beforeEventId needs snapshotEventId');
    return this.execute(
      'read',
      (function* (): Work<EventPage> {
        yield* ownedBy(subject, projectId, 'read');
        yield* watchOf(projectId, watchId, false);
        for (const eventId of [query.snapshotEventId, query.beforeEventId]) {
          if (eventId === undefined) continue;
          if (!isId(eventId) || (yield* one('eventOfWatch', { eventId, watchId })) === undefined) throw notFound('event of the watch');
        }
        const { since } = yield* bounds();
        const snapshot = query.snapshotEventId ?? (yield* one<{ id: number | null }>('watermark', { watchId, since, asOf }))!.id;
        if (snapshot === null) return { events: [], snapshotEventId: null, asOf, hasMore: false, next: null };
        // One upper bound (the watermark, or just before the cursor): the (watch_id, id) index then
        // starts the scan at the page, rather than at the watermark with the cursor as a filter.
        const upper = query.beforeEventId === undefined ? snapshot : Math.min(snapshot, query.beforeEventId - 1);
        const rows = yield* all<EventRow>('page', { watchId, since, upper, asOf, limit: limit + 1 });
        const hasMore = rows.length > limit;
        const events = rows.slice(0, limit);
        const next = hasMore ? { snapshotEventId: snapshot, beforeEventId: events[events.length - 1]!.id } : null;
        return { events: events.map(toCustomerEvent), snapshotEventId: snapshot, asOf, hasMore, next };
      })(),
    );
  }

  async report(subject: string, projectId: string, watchId: number, maxRows: number): Promise<WatchReport | 'too-many'> {
    const max = limitOf(maxRows);
    return this.execute(
      'read',
      (function* (): Work<WatchReport | 'too-many'> {
        yield* ownedBy(subject, projectId, 'read');
        const watch = yield* watchOf(projectId, watchId, false);
        const { now, since } = yield* bounds();
        // Counted first: a window over the limit is refused without reading a body.
        const { n } = (yield* one<{ n: number }>('countWindow', { watchId, since }))!;
        if (n > max) return 'too-many';
        const events = n === 0 ? [] : (yield* all<EventRow>('eventsWindow', { watchId, since, limit: n })).map(toCustomerEvent);
        return { watch: toProjectWatch(watch), windowStart: since, windowEnd: now, events };
      })(),
    );
  }

  async setWebhook(subject: string, projectId: string, url: string, secret: string): Promise<CustomerWebhookConfig> {
    text('url', url, 2048);
    text('secret', secret, 256);
    return this.execute(
      'write',
      (function* () {
        yield* ownedBy(subject, projectId, 'write');
        const { now } = yield* bounds();
        yield* disable(projectId, now);
        return toWebhook((yield* one<HookRow>('insertWebhook', { projectId, url, secret, now }))!);
      })(),
    );
  }

  async getWebhook(subject: string, projectId: string): Promise<CustomerWebhookConfig | null> {
    return this.execute(
      'read',
      (function* () {
        yield* ownedBy(subject, projectId, 'read');
        const row = (yield* one<HookRow>('activeWebhook', { projectId })) ?? (yield* one<HookRow>('goneWebhook', { projectId }));
        return row === undefined ? null : toWebhook(row);
      })(),
    );
  }

  async disableWebhook(subject: string, projectId: string): Promise<boolean> {
    return this.execute(
      'write',
      (function* () {
        yield* ownedBy(subject, projectId, 'write');
        const { now } = yield* bounds();
        return yield* disable(projectId, now);
      })(),
    );
  }

  async listDeliveries(subject: string, projectId: string, limit: number): Promise<CustomerDeliveryMetadata[]> {
    const n = Math.min(limitOf(limit), MAX_SECONDS);
    return this.execute(
      'read',
      (function* () {
        yield* ownedBy(subject, projectId, 'read');
        const { since } = yield* bounds();
        const rows = yield* all<DeliveryRow>('listDeliveries', { projectId, since, limit: n });
        const deliveries: CustomerDeliveryMetadata[] = [];
        for (const row of rows) deliveries.push(toDelivery(row, yield* all<DeliveryAttempt>('deliveryAttempts', { id: row.id, limit: DECISIONS_SHOWN })));
        return deliveries;
      })(),
    );
  }

  async replayDelivery(subject: string, projectId: string, id: string): Promise<CustomerReplay> {
    text('delivery', id, 128);
    return this.execute(
      'write',
      (function* (): Work<CustomerReplay> {
        yield* ownedBy(subject, projectId, 'write');
        const row = yield* one<ReplaySource>('deliveryOf', { id, projectId });
        if (row === undefined) throw notFound('delivery');
        const hook = yield* one<{ id: number; secret: string }>('hookForReplay', { projectId });
        if (hook === undefined) return { outcome: 'no-webhook' };
        if (row.status !== 'DEAD_LETTER' && row.status !== 'CANCELLED') return { outcome: 'not-replayable', status: row.status };
        if (Number(row.watchActive) !== 1) return { outcome: 'watch-removed', watchId: watchPublicId(Number(row.watchRow)) };
        const { now } = yield* bounds();
        return yield* replayTo(projectId, row, hook, now);
      })(),
    );
  }

  async replayDeadLetters(
    subject: string,
    projectId: string,
    watchId: number,
    since: string,
  ): Promise<{ outcome: 'replayed'; deliveries: CustomerDeliveryMetadata[] } | { outcome: 'no-webhook' }> {
    text('since', since, 32);
    return this.execute(
      'write',
      (function* (): Work<{ outcome: 'replayed'; deliveries: CustomerDeliveryMetadata[] } | { outcome: 'no-webhook' }> {
        yield* ownedBy(subject, projectId, 'write');
        yield* watchOf(projectId, watchId, true);
        const hook = yield* one<{ id: number; secret: string }>('hookForReplay', { projectId });
        if (hook === undefined) return { outcome: 'no-webhook' };
        const { now } = yield* bounds();
        const deliveries: CustomerDeliveryMetadata[] = [];
        const seen = new Set<number>();
        for (const { id } of yield* all<{ id: string }>('deadLettersOfWatch', { watchId, projectId, since })) {
          const row = (yield* one<ReplaySource>('deliveryOf', { id, projectId }))!;
          // The newest dead letter of each event (the statement's order): one replay per event.
          if (seen.has(Number(row.eventRow))) continue;
          seen.add(Number(row.eventRow));
          const replayed = yield* replayTo(projectId, row, hook, now);
          if (replayed.outcome === 'replayed') deliveries.push(replayed.delivery);
        }
        return { outcome: 'replayed', deliveries };
      })(),
    );
  }

  async projectCounts(subject: string, projectId: string): Promise<ProjectMonitorCounts> {
    return this.execute(
      'read',
      (function* (): Work<ProjectMonitorCounts> {
        yield* ownedBy(subject, projectId, 'read');
        const { since } = yield* bounds();
        const counts = (yield* one<Record<string, unknown>>('projectCounts', { projectId, since }))!;
        const hook = yield* one<{ id: number; active: number; disabledAt: string | null; disabledReason: string | null }>('latestWebhook', { projectId });
        const eventsByType = {} as Record<MonitorEventType, number>;
        MONITOR_EVENT_TYPES.forEach((type, i) => (eventsByType[type] = Number(counts[`t_${i}`] ?? 0)));
        return {
          webhook:
            hook === undefined
              ? { state: 'none' }
              : Number(hook.active) === 1
                ? { state: 'active' }
                : { state: 'disabled', since: hook.disabledAt ?? '', reason: hook.disabledReason },
          replays: Number(counts['replays'] ?? 0),
          eventsByType,
        };
      })(),
    );
  }

  async scheduledUsage(subject: string, allowance: number): Promise<ScheduledUsage[]> {
    return this.execute(
      'read',
      (function* () {
        const projects = yield* all<{ id: string }>('projectsOwnedBy', { subject });
        const { since } = yield* bounds();
        const usage: ScheduledUsage[] = [];
        for (const { id: projectId } of projects) {
          const row = (yield* one<{
            used: number;
            failed: number;
            skipped: number;
            lastSkippedAt: string | null;
            activeWatches: number;
            neverChecked: string | null;
            oldestCheck: string | null;
          }>('usage', { projectId, since }))!;
          const due = [row.neverChecked, row.oldestCheck === null ? null : hourAfter(row.oldestCheck)].filter((t): t is string => t !== null).sort();
          usage.push({
            projectId,
            allowance,
            windowStart: since,
            used: row.used,
            failed: row.failed,
            remaining: Math.max(0, allowance - row.used),
            skipped: row.skipped,
            lastSkippedAt: row.lastSkippedAt,
            activeWatches: row.activeWatches,
            nextDueAt: due[0] ?? null,
          });
        }
        return usage;
      })(),
    );
  }

  async claimDue(limit: number, allowance: number): Promise<{ claims: CustomerCheckClaim[]; skipped: number }> {
    const n = Math.min(limitOf(limit), MAX_SECONDS);
    if (n === 0) return { claims: [], skipped: 0 };
    return this.execute(
      'write',
      (function* () {
        const { now, since, dueBy } = yield* bounds();
        const due = yield* all<{ id: number; projectId: string }>('due', { dueBy, limit: n });
        // Every project's lock before any count, in one order (no two claimers wait on each other in a cycle).
        const projects = [...new Set(due.map((w) => w.projectId))].sort();
        if (projects.length > 0) yield { lock: projects };
        const used = new Map<string, number>();
        const claims: CustomerCheckClaim[] = [];
        let skipped = 0;
        for (const { id: watchId, projectId } of due) {
          const job = watchPublicId(watchId);
          let count = used.get(projectId);
          if (count === undefined) count = (yield* one<{ n: number }>('attemptsInWindow', { projectId, since }))!.n;
          yield* one('markChecked', { watchId, now });
          // Written as "below" so that an allowance that is not a number skips rather than admits.
          if (!(count < allowance)) {
            yield* one('insertSkip', { projectId, job, now, reason: skipReason(allowance) });
            used.set(projectId, count);
            skipped += 1;
            continue;
          }
          const attempt = (yield* one<{ id: number }>('insertAttempt', { projectId, job, now }))!;
          used.set(projectId, count + 1);
          const input = toCheckInput((yield* one<CheckInputRow>('checkInput', { watchId }))!);
          claims.push({ ...input, projectId, attemptId: attempt.id });
        }
        return { claims, skipped };
      })(),
    );
  }

  async recordCheck(check: Omit<RecordCheck, 'maxEvents'> & { attemptId: number }, seal: SealDelivery): Promise<RecordedCheck> {
    const data = serialisedData(check.events, check.maxPayloadBytes);
    if (data === undefined) return { outcome: 'payload-too-large' };
    if (!isId(check.watchId) || !isRevision(check.revision) || check.revision >= MAX_SECONDS) return { outcome: 'stale' };
    const { watchId, revision, outcome: o } = check;
    return this.execute(
      'write',
      (function* (): Work<RecordedCheck> {
        const watch = yield* one<{ did: string; kind: WatchKind; projectId: string }>('current', { watchId, revision });
        if (watch === undefined) return { outcome: 'stale' };
        const previousId = (yield* one<{ id: number }>('previousBaseline', { watchId, revision }))?.id ?? null;
        const next = revision + 1;
        const stored = storedOutcome(o);
        const baseline = (yield* one<{ id: number }>('insertBaseline', {
          watchId,
          next,
          status: o.status,
          hash: o.documentHash,
          profile: o.fingerprintProfile,
          binding: o.domainBindingStatus,
          document: stored.document,
          problem: stored.problem,
          checkedAt: o.checkedAt,
          tlsLeaf: stored.tlsLeaf,
          tlsNotAfter: stored.tlsNotAfter,
          tlsAnnounced: stored.tlsAnnounced,
        }))!;
        const hook = data.length === 0 ? undefined : yield* one<{ id: number; secret: string }>('hookForCheck', { projectId: watch.projectId });
        const eventIds: number[] = [];
        for (const [i, planned] of check.events.entries()) {
          const { id } = (yield* one<{ id: number }>('insertEvent', {
            watchId,
            did: watch.did,
            type: planned.type,
            data: data[i],
            checkedAt: o.checkedAt,
            next,
            baselineId: baseline.id,
            previousId,
          }))!;
          eventIds.push(id);
          if (hook === undefined) continue;
          const event: CustomerEvent = {
            id: eventPublicId(id),
            type: planned.type,
            projectId: watch.projectId,
            watchId: watchPublicId(watchId),
            ...subjectMembers(watch.kind, watch.did),
            createdAt: o.checkedAt,
            data: JSON.parse(data[i]!) as JsonObject,
          };
          const sealed = seal(event, hook.secret);
          yield* one('insertDelivery', {
            id: deliveryId(hook.id, id),
            webhookId: hook.id,
            projectId: watch.projectId,
            eventId: id,
            type: planned.type,
            body: sealed.body,
            signature: sealed.signature,
            createdAt: o.checkedAt,
          });
        }
        if ((yield* one('advance', { watchId, revision, status: o.status, hash: o.documentHash, checkedAt: o.checkedAt })) === undefined) {
          throw new Error('the watch changed inside the transaction');
        }
        if ((o.status === 'RESOLVED' || o.status === 'DEACTIVATED') && isId(check.attemptId)) {
          yield* one('attemptOk', { attemptId: check.attemptId, projectId: watch.projectId });
        }
        return { outcome: 'recorded', revision: next, eventIds };
      })(),
    );
  }

  async claimDeliveries(limit: number, leaseSeconds: number, maxAttempts: number): Promise<CustomerDeliveryClaim[]> {
    const { leaseSeconds: lease, maxAttempts: max } = claimArguments(leaseSeconds, maxAttempts, MAX_SECONDS);
    if (max > MAX_DELIVERY_ATTEMPTS) throw new RangeError(`maxAttempts must be at most ${MAX_DELIVERY_ATTEMPTS} (the schema's limit), not ${max}`);
    const n = Math.min(limitOf(limit), MAX_SECONDS);
    if (n === 0) return [];
    return this.execute(
      'write',
      (function* () {
        const { now, ahead: until } = yield* bounds(lease * 1000);
        // Each recovered attempt (its sender died) leaves its record: it counts, its answer is unknown.
        for (const r of yield* all<RecoveredRow>('recover', { now, max })) {
          yield* one('recordAttempt', {
            id: r.id,
            replay: Number(r.replays),
            attempt: Number(r.attempts),
            attemptedAt: r.attemptedAt,
            httpStatus: null,
            decision: r.status,
            detail: r.detail,
            nextAttemptAt: r.nextAttemptAt,
          });
        }
        yield* all('exhaust', { now, max });
        const ids = yield* all<{ id: string }>('claim', { now, until, max, limit: n });
        const claims: CustomerDeliveryClaim[] = [];
        for (const { id } of ids) {
          const row = (yield* one<{
            id: string;
            eventRow: number;
            url: string;
            body: string;
            signature: string;
            active: number;
            attempt: number;
            leaseExpiresAt: string;
          }>('claimed', { id }))!;
          claims.push({
            id: row.id,
            eventId: eventPublicId(row.eventRow),
            url: row.url,
            body: row.body,
            signature: row.signature,
            active: Number(row.active) === 1,
            attempt: Number(row.attempt),
            leaseExpiresAt: row.leaseExpiresAt,
          });
        }
        return claims.sort((a, b) => a.eventId.localeCompare(b.eventId, 'en', { numeric: true }) || a.id.localeCompare(b.id, 'en', { numeric: true }));
      })(),
    );
  }

  async settleDelivery(id: string, attempt: number, result: DeliveryResult, status?: number): Promise<boolean> {
    const s = settlementOf(status !== undefined && !('cancelled' in result) && result.status === undefined ? { ...result, status } : result, MAX_SECONDS);
    if (typeof id !== 'string' || !isId(attempt)) return false;
    const httpStatus = s.responseStatus;
    return this.execute(
      'write',
      (function* () {
        const { now, ahead: retryAt } = yield* bounds((s.retryAfterSeconds ?? 0) * 1000);
        const row = yield* one<{ status: string; replays: number; webhookId: number; eventRow: number; attemptedAt: string; nextAttemptAt: string | null }>(
          'settle',
          { id, attempt, status: s.status, retryAt, now, httpStatus },
        );
        if (row === undefined) return false;
        // A failure whose webhook was disabled meanwhile ends CANCELLED (settledStatus), and says so.
        const cancelled = s.decision === 'RETRY' && row.status === 'CANCELLED';
        yield* one('recordAttempt', {
          id,
          replay: Number(row.replays),
          attempt,
          attemptedAt: row.attemptedAt,
          httpStatus,
          decision: cancelled ? 'CANCELLED' : s.decision,
          detail: cancelled ? oneLine(`${s.detail}; not retried: the webhook was disabled meanwhile`) : s.detail,
          nextAttemptAt: row.nextAttemptAt,
        });
        if (s.gone) {
          const reason = `${goneReason(now, eventPublicId(Number(row.eventRow)))}; set a webhook again to resume deliveries`;
          if ((yield* one('disableGone', { webhookId: Number(row.webhookId), now, reason })) !== undefined) {
            yield* all('cancelOfWebhook', { webhookId: Number(row.webhookId) });
          }
        }
        return true;
      })(),
    );
  }
}

/** A delivery a replay starts from (deliveryOf). */
interface ReplaySource {
  id: string;
  webhookRow: number;
  eventRow: number;
  eventType: MonitorEventType;
  body: string;
  status: DeliveryStatus;
  watchRow: number;
  eventCreatedAt: string;
  watchActive: number;
}

/**
 * A replay of a DEAD_LETTER or CANCELLED delivery to the active webhook `hook`: the row itself when
 * it is that webhook's; else the active webhook's delivery of the event — reset when it is
 * DEAD_LETTER or CANCELLED, left alone otherwise ('already') — or a new one, the same body bytes
 * signed with the active webhook's secret (t: the event's creation time, as every customer
 * delivery's).
 */
function* replayTo(projectId: string, row: ReplaySource, hook: { id: number; secret: string }, now: string): Generator<Step, CustomerReplay, unknown[]> {
  const eventRow = Number(row.eventRow);
  const target = deliveryId(hook.id, eventRow);
  if (target !== row.id) {
    const existing = yield* one<ReplaySource>('deliveryOf', { id: target, projectId });
    if (existing === undefined) {
      yield* one('insertReplayDelivery', {
        id: target,
        webhookId: hook.id,
        projectId,
        eventId: eventRow,
        type: row.eventType,
        body: row.body,
        signature: customerSignature(hook.secret, unixSeconds(row.eventCreatedAt), row.body),
        createdAt: now,
      });
      return {
        outcome: 'replayed',
        delivery: toDelivery(
          (yield* one<DeliveryRow>('deliveryMetadata', { id: target }))!,
          yield* all<DeliveryAttempt>('deliveryAttempts', { id: target, limit: DECISIONS_SHOWN }),
        ),
      };
    }
    if (existing.status !== 'DEAD_LETTER' && existing.status !== 'CANCELLED') return { outcome: 'already', deliveryId: target, status: existing.status };
  }
  if ((yield* one('replayDelivery', { id: target })) === undefined) {
    const current = (yield* one<DeliveryRow>('deliveryMetadata', { id: target }))!;
    return { outcome: 'already', deliveryId: target, status: current.status };
  }
  return {
    outcome: 'replayed',
    delivery: toDelivery(
      (yield* one<DeliveryRow>('deliveryMetadata', { id: target }))!,
      yield* all<DeliveryAttempt>('deliveryAttempts', { id: target, limit: DECISIONS_SHOWN }),
    ),
  };
}

/** Disables the project's active webhook and cancels its queued deliveries; false when there was none. */
function* disable(projectId: string, now: string): Generator<Step, boolean, unknown[]> {
  const hook = yield* one<{ id: number }>('disableWebhook', { projectId, now });
  if (hook === undefined) return false;
  yield* all('cancelOfWebhook', { webhookId: hook.id });
  return true;
}
