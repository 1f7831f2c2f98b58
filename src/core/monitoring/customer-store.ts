/**
 * The storage contract of customer monitoring (docs/daemon.md#customer-monitoring): project
 * watches, their events, the project webhook and its deliveries, scheduled attempts. Implemented on
 * both engines in src/store (sqlite/customer-monitor.ts, postgres/customer-monitor.ts); the rules
 * every store method keeps are core/runtime-store.ts's.
 */
import type { JsonObject } from '../encoding/json.js';
import type {
  CheckOutcome,
  DeliveryAttempt,
  DeliveryResult,
  DeliveryStatus,
  MonitorEventType,
  RecordCheck,
  RecordedCheck,
  WatchCheckInput,
  WatchKind,
} from './store.js';

/**
 * The limits of customer monitoring and of the owner's event reads, and the watch cap per project
 * (at hourly checks, 25 watches use the whole attempt allowance; 100 leaves room to add and
 * remove).
 */
export const CUSTOMER_MONITOR_LIMITS = {
  /** A project watch is due hourly. */
  intervalSeconds: 3600,
  /** Scheduled attempts per project in the rolling window, failures counted. */
  attempts: 18_000,
  /** The rolling window of attempts, and the read window of events and deliveries. */
  windowDays: 30,
  windowMs: 30 * 86_400_000,
  /** Active watches per project (svc's own cap: 429 WATCH_CAPACITY_EXHAUSTED). */
  watchesPerProject: 100,
  /** GET …/events: more than this in the window is refused, never truncated. */
  eventList: 200,
  /** POST …/event-page: limit 1..100. */
  pageMax: 100,
  /** GET …/webhook-deliveries: the newest this many in the window. */
  deliveryList: 100,
  /** POST …/report: more rows than this, or more bytes than reportBytes, is 409 MONITOR_REPORT_CAPACITY. */
  reportRows: 1000,
  reportBytes: 8 * 1024 * 1024,
} as const;

/** A watch of an owner's project: hourly, delivered through the project's webhook. */
export interface ProjectWatch {
  /** `wch_<n>`. */
  id: string;
  projectId: string;
  /**
   * The subject, named as the watch's kind names it (subjectMember): `did` for a DID watch (then
   * the object is exactly as before MCP and A2A watches), `mcpEndpoint` or `a2aCard` otherwise.
   */
  did?: string;
  mcpEndpoint?: string;
  a2aCard?: string;
  /** RFC 3339 UTC (second precision), as every time below. */
  createdAt: string;
  /** RESOLVED, DEACTIVATED or FAILED after a check; null before the first. */
  lastStatus: string | null;
  /** The document hash of the last check that resolved. */
  lastHash: string | null;
  lastCheckedAt: string | null;
  /** When the watch is next due: lastCheckedAt + 1 h, or createdAt before its first check. */
  nextDueAt: string;
}

/**
 * A customer monitor event as an owner reads it and as its webhook body carries it (the body is
 * this object's JSON, members in this order): the project and watch it belongs to are named, so a
 * receiver binds it to its owner.
 */
export interface CustomerEvent {
  /** `evt_<n>`: stable; receivers deduplicate on it. */
  id: string;
  type: MonitorEventType;
  projectId: string;
  /** `wch_<n>`. */
  watchId: string;
  /** The subject, named as its watch's kind names it (one of the three; a DID watch's event is exactly as before). */
  did?: string;
  mcpEndpoint?: string;
  a2aCard?: string;
  createdAt: string;
  /** As the operator's events of the same type (identity.*: fromHash, toHash, domainBinding, diff, headline, problem; tls.*: as core/monitoring/tls.ts makes them). */
  data: JsonObject;
}

/** The project's webhook configuration (never its secret). */
export interface CustomerWebhookConfig {
  /** `whk_<n>`. */
  id: string;
  url: string;
  createdAt: string;
  active: boolean;
  disabledAt: string | null;
  /**
   * Why it was disabled, when a receiver did it (410 Gone: the answer and when; the fix is to set
   * a webhook again); null while active or when the owner disabled or replaced it.
   */
  disabledReason: string | null;
}

/** One delivery's metadata: no body, signature, secret, lease or receiver response. */
export interface CustomerDeliveryMetadata {
  /** `dlv_<webhook n>_<event n>`. */
  id: string;
  /** `evt_<n>`, the X-SVC-Event-ID sent. */
  eventId: string;
  eventType: MonitorEventType;
  /** `wch_<n>`. */
  watchId: string;
  webhookId: string;
  createdAt: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  /** Its attempt records' decisions, newest first (at most 10): no receiver status beyond what `detail` says. */
  decisions: Array<Omit<DeliveryAttempt, 'responseStatus'>>;
}

/** POST …/event-page after validation: event ids as row numbers (the `evt_` stripped by the route). */
export interface EventPageQuery {
  /** 1..100. */
  limit: number;
  /** Only events created at or before this instant (RFC 3339 UTC, second precision). */
  asOf?: string;
  /** The watermark of an earlier page: no event after it is returned. */
  snapshotEventId?: number;
  /** The cursor: only events before it (newest first). Needs snapshotEventId. */
  beforeEventId?: number;
}

/**
 * One page, newest first in persistence order (event row order: per watch the order of commits,
 * since a watch's events are written under its row lock), of the watch's events in the 30-day
 * window up to the snapshot's watermark. `snapshotEventId` is the watermark (the newest event of
 * the window when the first page was read; null when the window had none); `next` is the cursor of
 * the following page, null exactly when hasMore is false.
 */
export interface EventPage {
  events: CustomerEvent[];
  snapshotEventId: number | null;
  asOf: string | null;
  hasMore: boolean;
  next: { snapshotEventId: number; beforeEventId: number } | null;
}

/** A single-watch 30-day report: the watch and every event of the window, from one snapshot. */
export interface WatchReport {
  watch: ProjectWatch;
  windowStart: string;
  windowEnd: string;
  events: CustomerEvent[];
}

/** The scheduled work of one project: its allowance, what the rolling window used, what is next. */
export interface ScheduledUsage {
  projectId: string;
  allowance: number;
  windowStart: string;
  /** Attempts in the window, failed ones included. */
  used: number;
  failed: number;
  remaining: number;
  /** Due checks skipped in the window because the allowance was used up, and the last one. */
  skipped: number;
  lastSkippedAt: string | null;
  activeWatches: number;
  /** The earliest nextDueAt of the project's active watches; null without any. */
  nextDueAt: string | null;
}

/** A customer watch claimed for a check: the check input and the attempt it counts as. */
export interface CustomerCheckClaim extends WatchCheckInput {
  projectId: string;
  /** The scheduled_attempts row (counted FAILED until recordCheck marks it OK). */
  attemptId: number;
}

/** What recordCheck needs to make a delivery of each new event for the project's active webhook. */
export type SealDelivery = (event: CustomerEvent, secret: string) => { body: string; signature: string };

/** A customer delivery claimed for one attempt. */
export interface CustomerDeliveryClaim {
  id: string;
  eventId: string;
  url: string;
  /** The stored bytes and signature: the same on every attempt. */
  body: string;
  signature: string;
  /** False when the webhook was disabled since (the sender cancels instead of sending). */
  active: boolean;
  attempt: number;
  leaseExpiresAt: string;
}

/**
 * What an owner's replay of one delivery did. `replayed`: the delivery that will carry the event
 * to the project's active webhook, PENDING with five fresh attempts — the same row when it was
 * that webhook's, else a new row (`dlv_<active webhook>_<event>`) with the same body bytes signed
 * with the active webhook's secret. Otherwise nothing was written: `not-replayable` (the delivery
 * is not DEAD_LETTER or CANCELLED), `no-webhook` (the project has no active webhook),
 * `watch-removed` (the event's watch was removed), `already` (the active webhook already has a
 * delivery of this event that is not DEAD_LETTER or CANCELLED: its id and status).
 */
export type CustomerReplay =
  | { outcome: 'replayed'; delivery: CustomerDeliveryMetadata }
  | { outcome: 'not-replayable'; status: DeliveryStatus }
  | { outcome: 'no-webhook' }
  | { outcome: 'watch-removed'; watchId: string }
  | { outcome: 'already'; deliveryId: string; status: DeliveryStatus };

/** What the owner page counts of one project (the 30-day window). */
export interface ProjectMonitorCounts {
  /** The project's latest webhook: active, disabled (since, and why when the receiver said so), or none ever set. */
  webhook: { state: 'active' } | { state: 'disabled'; since: string; reason: string | null } | { state: 'none' };
  /** Replays of the project's deliveries created in the window, summed. */
  replays: number;
  /** Events of the project's watches created in the window, per type (every type, 0 where none). */
  eventsByType: Record<MonitorEventType, number>;
}

/**
 * Customer monitoring on both engines. Owner actions take the
 * acting subject and re-check, inside their own transaction, that it owns the project (NOT_OWNER
 * otherwise, also for a project that does not exist); a watch id not of that project is NOT_FOUND.
 * Windows and "now" are the database's clock. The worker's methods (claimDue, recordCheck,
 * claimDeliveries, settleDelivery) are the operator monitor's, scoped to project watches.
 */
export interface CustomerMonitorStore {
  /**
   * An active watch of the DID (did:key, did:jwk, did:web: the route checks) — or of the MCP
   * endpoint or A2A card, with `kind` — or 'full' at `limit` active watches, or the existing active
   * watch of that subject and kind (created false). `baseline` (MCP and A2A): a new watch's
   * revision-0 baseline, written in the same transaction (ignored when the watch exists).
   */
  addWatch(
    subject: string,
    projectId: string,
    did: string,
    limit: number,
    target?: { kind: WatchKind; baseline?: CheckOutcome },
  ): Promise<{ watch: ProjectWatch; created: boolean } | 'full'>;
  /** Active watches, oldest first. */
  listWatches(subject: string, projectId: string): Promise<ProjectWatch[]>;
  /** Deactivates the watch and cancels its queued deliveries (PENDING, RETRY → CANCELLED). NOT_FOUND: no active watch of that id in the project. */
  removeWatch(subject: string, projectId: string, watchId: number): Promise<void>;
  /** The watch's events of the last 30 days, newest first, or 'too-many' when more than `max`. NOT_FOUND: no watch of that id in the project (active or not). */
  listEvents(subject: string, projectId: string, watchId: number, max: number): Promise<CustomerEvent[] | 'too-many'>;
  /** One page (see EventPage). NOT_FOUND also when snapshotEventId or beforeEventId is not an event of this watch. */
  eventPage(subject: string, projectId: string, watchId: number, query: EventPageQuery): Promise<EventPage>;
  /** The report from one snapshot, or 'too-many' above maxRows events (bytes are the route's to judge). */
  report(subject: string, projectId: string, watchId: number, maxRows: number): Promise<WatchReport | 'too-many'>;
  /** Replaces the project's webhook: the old one disabled and its queued deliveries cancelled, the new one active with `secret`. */
  setWebhook(subject: string, projectId: string, url: string, secret: string): Promise<CustomerWebhookConfig>;
  /** The active webhook; else the newest one when a receiver disabled it (410 Gone, with its reason); else null. */
  getWebhook(subject: string, projectId: string): Promise<CustomerWebhookConfig | null>;
  /** Disables the active webhook and cancels its queued deliveries; false when there was none. */
  disableWebhook(subject: string, projectId: string): Promise<boolean>;
  /** The newest `limit` deliveries created in the last 30 days. */
  listDeliveries(subject: string, projectId: string, limit: number): Promise<CustomerDeliveryMetadata[]>;
  /**
   * Replays one delivery of the project (`dlv_<webhook>_<event>`) to its active webhook (see
   * CustomerReplay); NOT_FOUND: no delivery of that id in the project. Never called by svc itself.
   */
  replayDelivery(subject: string, projectId: string, deliveryId: string): Promise<CustomerReplay>;
  /**
   * Replays, in one transaction, every event of the project's active watch created at or after
   * `since` (RFC 3339 UTC, second precision) that has a DEAD_LETTER delivery, to the active
   * webhook (as replayDelivery; an event whose active-webhook delivery is queued, in flight,
   * delivered or cancelled is left alone). 'no-webhook' without an active webhook; NOT_FOUND: no
   * active watch of that id in the project.
   */
  replayDeadLetters(
    subject: string,
    projectId: string,
    watchId: number,
    since: string,
  ): Promise<{ outcome: 'replayed'; deliveries: CustomerDeliveryMetadata[] } | { outcome: 'no-webhook' }>;
  /** The owner page's counts of the project (see ProjectMonitorCounts). */
  projectCounts(subject: string, projectId: string): Promise<ProjectMonitorCounts>;
  /** The scheduled usage of every project `subject` owns, oldest project first. */
  scheduledUsage(subject: string, allowance: number): Promise<ScheduledUsage[]>;

  /**
   * Claims up to `limit` due project watches (active; never checked, or checked at least an hour
   * ago), oldest due first, and marks them checked now. A watch whose project has `allowance`
   * attempts in the rolling window is not claimed: a skip is recorded and it is due again in an
   * hour. Each claimed watch inserts its attempt (FAILED until recordCheck). One transaction; on
   * PostgreSQL concurrent claimers skip each other's rows and count a project's attempts under its lock.
   */
  claimDue(limit: number, allowance: number): Promise<{ claims: CustomerCheckClaim[]; skipped: number }>;
  /**
   * As WatchStore.recordCheck for a project watch, and in the same transaction: the attempt marked
   * OK when the outcome resolved, and for each new event, when the project has an active webhook, a
   * PENDING delivery whose body and signature `seal` makes. No event cap (the allowance bounds them).
   */
  recordCheck(check: Omit<RecordCheck, 'maxEvents'> & { attemptId: number }, seal: SealDelivery): Promise<RecordedCheck>;
  /** As MonitorEventStore.claimDeliveries, for customer deliveries (expired leases recovered first). */
  claimDeliveries(limit: number, leaseSeconds: number, maxAttempts: number): Promise<CustomerDeliveryClaim[]>;
  /**
   * As MonitorEventStore.settle, with its attempt record (delivery_id) in the same transaction;
   * `status` is the receiver's HTTP status, when there was one and the result has none. A `gone`
   * result disables the webhook (active 0, disabled_at, disabled_reason naming the 410 and when)
   * and cancels its queued deliveries.
   */
  settleDelivery(id: string, attempt: number, result: DeliveryResult, status?: number): Promise<boolean>;
}
