/**
 * The storage contract of operator monitoring (docs/daemon.md#operator-monitoring): watches, the
 * baselines of their checks, monitor events and their deliveries. Implemented on both engines in
 * src/store (sqlite/watches.ts and sqlite/monitor-events.ts, and their postgres/ twins); the rules
 * every store method keeps are core/runtime-store.ts's. Customer monitoring builds on these types
 * (customer-store.ts).
 */
import type { JsonObject } from '../encoding/json.js';
import type { DomainBindingStatus } from '../linkage/types.js';
import type { DidDocument } from '../resolve/types.js';

/**
 * What a watch watches: a DID (resolved), an MCP endpoint (its inventory inspected) or an A2A
 * card (inspected). The API names the subject by kind: `did`, `mcpEndpoint`, `a2aCard`
 * (subjectMember).
 */
export type WatchKind = 'did' | 'mcp' | 'a2a';

/** The member that names a watch's subject in requests, listings and webhook envelopes. */
export function subjectMember(kind: WatchKind): 'did' | 'mcpEndpoint' | 'a2aCard' {
  return kind === 'did' ? 'did' : kind === 'mcp' ? 'mcpEndpoint' : 'a2aCard';
}

/** An operator watch: a DID (or an MCP endpoint, or an A2A card) checked every intervalSeconds, changes posted to webhookUrl. */
export interface Watch {
  id: number;
  kind: WatchKind;
  /** The subject: the DID, or for an MCP or A2A watch the endpoint's or card's URL (column `did`). */
  did: string;
  /** The full URL, as registered (listings redact it to origin + path). */
  webhookUrl: string;
  intervalSeconds: number;
  /** RFC 3339 UTC, second precision. */
  createdAt: string;
  /** The document hash of the last check that resolved, or null before the first check. */
  lastHash: string | null;
  /** RESOLVED, DEACTIVATED or FAILED after a check; null before the first. */
  lastStatus: string | null;
  lastCheckedAt: string | null;
  active: boolean;
  /** Bumped by every check that updates the watch (a stale check cannot write twice). */
  revision: number;
  /**
   * When the receiver turned the webhook off (410 Gone) — the watch is still checked, its events
   * are kept CANCELLED — and why; both null while the webhook is enabled.
   */
  webhookDisabledAt: string | null;
  webhookDisabledReason: string | null;
}

export interface NewWatch {
  /** 'did' when absent. */
  kind?: WatchKind;
  /** The subject (see Watch.did). */
  did: string;
  webhookUrl: string;
  /** The HMAC signing secret: kept as is (deliveries are signed with it), never listed. */
  secret: string;
  intervalSeconds: number;
  createdAt: string;
  /**
   * An approved baseline uploaded with an MCP or A2A watch (its snapshot as a RESOLVED outcome):
   * stored as the watch's revision-0 baseline in the same transaction as the watch, so that its
   * first check compares with it. Absent: the first check is the baseline.
   */
  baseline?: CheckOutcome;
}

export type MonitorEventType =
  | 'identity.document.changed'
  | 'identity.domain_binding.changed'
  | 'identity.deactivated'
  | 'identity.resolution.failed'
  | 'identity.resolution.recovered'
  /** svc's addition: the watched did:webvh's log no longer extends the log svc kept of it (docs/daemon.md). */
  | 'identity.history.rewritten'
  /** MCP watches: tools, prompts or resources added, removed or changed against the baseline. */
  | 'mcp.inventory.changed'
  | 'mcp.inspection.failed'
  | 'mcp.inspection.recovered'
  /** A2A watches: skills, interfaces, signing keys or signature status changed against the baseline. */
  | 'a2a.card.changed'
  | 'a2a.inspection.failed'
  | 'a2a.inspection.recovered'
  /** Any watch whose evidence holds a certificate: it crossed an expiry threshold (30, 14, 3 days by default). */
  | 'tls.certificate.expiring'
  /** Any watch whose evidence holds a certificate: the leaf changed. */
  | 'tls.certificate.changed';

/** Every event type, in the order docs and schemas list them. */
export const MONITOR_EVENT_TYPES: readonly MonitorEventType[] = [
  'identity.document.changed',
  'identity.domain_binding.changed',
  'identity.deactivated',
  'identity.resolution.failed',
  'identity.resolution.recovered',
  'identity.history.rewritten',
  'mcp.inventory.changed',
  'mcp.inspection.failed',
  'mcp.inspection.recovered',
  'a2a.card.changed',
  'a2a.inspection.failed',
  'a2a.inspection.recovered',
  'tls.certificate.expiring',
  'tls.certificate.changed',
];

export type DeliveryStatus = 'PENDING' | 'DELIVERING' | 'RETRY' | 'DELIVERED' | 'DEAD_LETTER' | 'CANCELLED';

/** A monitor event with its delivery state. */
export interface MonitorEvent {
  id: number;
  watchId: number;
  did: string;
  eventType: MonitorEventType;
  data: JsonObject;
  createdAt: string;
  deliveryStatus: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  /** How often the event was replayed (0: never); its attempts count within the latest delivery. */
  replays: number;
  /** The kind of its watch (which member names the subject: subjectMember). */
  kind: WatchKind;
}

/**
 * What GET /v1/monitoring/status reports of the tables (no payloads, no secrets): operator
 * watches and their events only (customer monitoring is counted by its own allowance).
 */
export interface MonitoringGauges {
  /** Active watches. */
  watches: number;
  /** Stored events, terminal ones included. */
  events: number;
  eventsByStatus: Record<DeliveryStatus, number>;
  /** PENDING or RETRY events whose next attempt is due at `now`. */
  dueDeliveries: number;
  /** DELIVERING events whose lease has expired at `now` (a process died mid-delivery). */
  expiredLeases: number;
  /** Bytes of the stored event payloads (serialised data). */
  eventPayloadBytes: number;
  /** Active watches whose webhook the receiver disabled (410 Gone): their events wait, CANCELLED, for a re-enable and a replay. */
  disabledWebhooks: number;
  /** Replays of stored events, summed (an event replayed twice counts 2). */
  replays: number;
  /** Stored events per type: every type of MONITOR_EVENT_TYPES, 0 where none. */
  eventsByType: Record<MonitorEventType, number>;
}

/** What one check of a watch saw (a row of monitor_baselines): the baseline the next check compares with. */
export interface CheckOutcome {
  status: 'RESOLVED' | 'DEACTIVATED' | 'FAILED';
  /** RFC 8785 SHA-256 of the document; null when the check FAILED. */
  documentHash: string | null;
  fingerprintProfile: string | null;
  domainBindingStatus: DomainBindingStatus | null;
  /** The document as resolved (for the next check's diff); null when FAILED. */
  document: DidDocument | null;
  /** Why the resolution failed (the problem object); null otherwise. */
  problem: JsonObject | null;
  /** RFC 3339 UTC: when the check ran. */
  checkedAt: string;
  /**
   * The leaf certificate the check's evidence held and the expiry thresholds already announced
   * for it (core/monitoring/tls.ts); carried over from the previous baseline when this check saw
   * no certificate; null when no check of the watch has seen one.
   */
  tls: TlsState | null;
}

/** A baseline's certificate state (monitor_baselines.tls_*). */
export interface TlsState {
  /** The leaf's SHA-256 fingerprint as the evidence prints it (colon-separated upper-case hex). */
  leafSha256: string;
  /** The leaf's notAfter, RFC 3339 UTC. */
  notAfter: string;
  /** The smallest threshold (days before notAfter) already announced for this leaf; null: none yet. */
  announcedDays: number | null;
}

/** A watch as a check needs it: the watch, its latest baseline, and its latest baseline that resolved. */
export interface WatchCheckInput {
  watch: Watch;
  /** The baseline of the watch's current revision (the last check), or null before the first check. */
  previous: CheckOutcome | null;
  /** The latest baseline whose status is RESOLVED or DEACTIVATED (what document changes are measured against), or null. */
  lastResolved: CheckOutcome | null;
}

/** An event a check decided to emit. */
export interface PlannedEvent {
  type: MonitorEventType;
  data: JsonObject;
}

export interface RecordCheck {
  watchId: number;
  /** The revision the check read (WatchCheckInput.watch.revision): the write happens only if it is still current. */
  revision: number;
  outcome: CheckOutcome;
  events: readonly PlannedEvent[];
  /** Stored operator events at most, terminal ones included (10,000): past it nothing is written. */
  maxEvents: number;
  /** Largest serialised `data` of one event, bytes (256 KiB): past it nothing is written. */
  maxPayloadBytes: number;
}

/**
 * What recording a check did. `recorded`: the baseline (revision + 1), the events (PENDING, due
 * now) and the watch's new state were written in one transaction. Otherwise nothing was written:
 * `stale` (the watch changed or was removed since it was read — another check won),
 * `event-capacity` (the events would pass maxEvents: the baseline is not moved, so the change is
 * reported once there is room), `payload-too-large` (an event's data is over maxPayloadBytes).
 */
export type RecordedCheck = { outcome: 'recorded'; revision: number; eventIds: number[] } | { outcome: 'stale' | 'event-capacity' | 'payload-too-large' };

export interface WatchStore {
  /**
   * Adds an active watch unless `limit` active watches exist already ('full'): counting and
   * inserting are one transaction, so concurrent registrations never pass the limit.
   */
  add(watch: NewWatch, limit: number): Promise<Watch | 'full'>;
  /** Active watches, oldest first. */
  list(): Promise<Watch[]>;
  /** The active watch, or undefined. */
  get(id: number): Promise<Watch | undefined>;
  /**
   * Deactivates the watch and cancels its queued events (PENDING, RETRY → CANCELLED) in one
   * transaction; false when no active watch has that id. Rows are kept: events name their watch.
   */
  remove(id: number): Promise<boolean>;
  /**
   * Enables the active watch's webhook again (webhook_disabled_at and its reason cleared), with
   * `webhookUrl` in place of the old one when given; undefined when no active watch has that id.
   * Events already CANCELLED stay so (a replay sends them again).
   */
  enableWebhook(id: number, webhookUrl?: string): Promise<Watch | undefined>;
  /** Active watches. */
  count(): Promise<number>;
  /**
   * Claims up to `limit` due watches — active, and never checked or last checked at least
   * intervalSeconds ago on the database's clock — oldest due first, and marks them checked now
   * (last_checked_at, on the database's clock), so no other daemon claims them again within their
   * interval. On PostgreSQL concurrent claimers skip each other's rows (FOR UPDATE SKIP LOCKED).
   */
  claimDue(limit: number): Promise<WatchCheckInput[]>;
  /** The active watch with its baselines, for a check now (the check route); undefined when none. */
  forCheck(id: number): Promise<WatchCheckInput | undefined>;
  /** Writes a check's baseline, events and watch state in one transaction (see RecordedCheck). */
  recordCheck(check: RecordCheck): Promise<RecordedCheck>;
}

/** A delivery attempt claimed for one event: what the sender needs, and the attempt it holds. */
export interface DeliveryClaim {
  event: MonitorEvent;
  /**
   * The event's watch (possibly removed since, or its webhook disabled by a 410 since: the sender
   * then cancels instead of sending).
   */
  watch: { id: number; kind: WatchKind; did: string; webhookUrl: string; secret: string; active: boolean; webhookDisabled: boolean };
  /** This attempt's number (the event's attempts after the claim incremented them): 1..maxAttempts. */
  attempt: number;
  /** RFC 3339 UTC, database clock: when the claim's lease expires and another sender may recover it. */
  leaseExpiresAt: string;
}

/**
 * How one delivery attempt ended. `status` is the receiver's HTTP status when it answered;
 * `detail` the one line the attempt record keeps (a default from the result when absent).
 */
export type DeliveryResult =
  | { delivered: true; status?: number; detail?: string }
  /**
   * `retryAfterSeconds`: when to try again; null: no further attempt (DEAD_LETTER). `gone`: the
   * receiver answered 410 Gone — the event is CANCELLED, the watch's webhook disabled and its
   * other queued events CANCELLED (decision WEBHOOK_DISABLED); retryAfterSeconds is then ignored.
   */
  | { delivered: false; error: string; retryAfterSeconds: number | null; status?: number; detail?: string; gone?: true }
  /** The watch was removed or its webhook disabled: the event becomes CANCELLED. */
  | { cancelled: true; detail?: string };

/** One delivery attempt as recorded (delivery_attempts), of an operator event or a customer delivery. */
export interface DeliveryAttempt {
  /** The delivery it belongs to: 0 the first, n the n-th replay. */
  replay: number;
  /** 1..5 within that delivery. */
  attempt: number;
  /** RFC 3339 UTC, database clock: when the attempt was claimed (sent). */
  attemptedAt: string;
  /** The receiver's HTTP status; null when it did not answer (or nothing was sent). */
  responseStatus: number | null;
  decision: 'DELIVERED' | 'RETRY' | 'DEAD_LETTER' | 'WEBHOOK_DISABLED' | 'CANCELLED';
  /** One line: what the receiver answered and what was decided. */
  detail: string;
  /** RETRY: when the next attempt is due; null otherwise. */
  nextAttemptAt: string | null;
}

/**
 * What a retention cleanup could remove before a cutoff (a read-only preview: counts only, no
 * identifiers). observations and mcpObservations never count the latest row of a DID or of an
 * endpoint, a row seen at or after the cutoff, or a row with a timestamp not in the schema's
 * RFC 3339 UTC form; terminalMonitorEvents counts DELIVERED and CANCELLED events of operator
 * watches created before the cutoff that hold no lease.
 */
export interface RetentionCandidates {
  observations: number;
  mcpObservations: number;
  terminalMonitorEvents: number;
}

/** Event statuses an operator (or an owner) may replay: the delivery has ended without reaching the receiver. */
export const REPLAYABLE_STATUSES: readonly DeliveryStatus[] = ['DEAD_LETTER', 'CANCELLED'];

/**
 * What replaying one operator event did. `replayed`: the event is PENDING again (attempts 0, no
 * next attempt, lease or last error; replays + 1), in one transaction. Otherwise nothing was
 * written: `not-found` (no event of an operator watch has this id), `not-replayable` (its status
 * is not DEAD_LETTER or CANCELLED), `watch-removed` (its watch is no longer active),
 * `webhook-disabled` (the receiver disabled the watch's webhook: re-enable it first).
 */
export type ReplayOutcome =
  | { outcome: 'replayed'; event: MonitorEvent }
  | { outcome: 'not-found' }
  | { outcome: 'not-replayable'; status: DeliveryStatus }
  | { outcome: 'watch-removed'; watchId: number }
  | { outcome: 'webhook-disabled'; watchId: number; since: string; reason: string | null };

/**
 * What replaying the dead letters of an operator watch did: `replayed` (the ids, ascending; none
 * when the watch has no DEAD_LETTER event created at or after the instant), or nothing written:
 * `not-found` (no active operator watch has this id), `webhook-disabled`.
 */
export type ReplaySinceOutcome =
  | { outcome: 'replayed'; eventIds: number[] }
  | { outcome: 'not-found' }
  | { outcome: 'webhook-disabled'; watchId: number; since: string; reason: string | null };

export interface MonitorEventStore {
  /** Operator events (of watches without a project), newest first, at most `limit`; only the watch's when `watchId` is given. */
  list(options: { watchId?: number; limit: number }): Promise<MonitorEvent[]>;
  /** The gauges at `now` (RFC 3339 UTC); a storage failure rejects, never zeros. */
  gauges(now: string): Promise<MonitoringGauges>;
  /**
   * The rows a retention cleanup could remove strictly before `cutoff` (RFC 3339 UTC at second
   * precision, `YYYY-MM-DDTHH:MM:SSZ`), counted in one statement (one snapshot). Reads only.
   * A storage failure rejects, never zeros.
   */
  retentionCandidates(cutoff: string): Promise<RetentionCandidates>;
  /**
   * First recovers expired leases — DELIVERING events whose lease_expires_at has passed (a sender
   * died mid-attempt) become RETRY, due at once, while attempts < maxAttempts, else DEAD_LETTER —
   * then claims up to `limit` due events, oldest first: PENDING, or RETRY whose next_attempt_at
   * has passed. A claim sets DELIVERING, attempts + 1 (before any network call), last_attempt_at
   * = now and lease_expires_at = now + leaseSeconds. All times on the database's clock; one
   * transaction; on PostgreSQL concurrent claimers skip each other's rows (FOR UPDATE SKIP
   * LOCKED), so no event is held by two senders within a lease. A due event with no attempt
   * left (attempts >= maxAttempts already) is not claimed but becomes DEAD_LETTER, so that
   * `attempt` never passes maxAttempts. Events of customer watches (with a project) are not
   * claimed. A leaseSeconds or maxAttempts that is not a whole number from 1 is a RangeError.
   */
  claimDeliveries(limit: number, leaseSeconds: number, maxAttempts: number): Promise<DeliveryClaim[]>;
  /**
   * Settles the attempt `attempt` of the event — only while it is still DELIVERING with that
   * attempt count (a sender whose lease expired and was recovered settles nothing: false).
   * delivered → DELIVERED; failed with retryAfterSeconds → RETRY, next_attempt_at = now + that
   * (database clock); failed with null → DEAD_LETTER; cancelled → CANCELLED. last_error keeps
   * the failure's one line; the lease is cleared. retryAfterSeconds is rounded up to whole
   * seconds; below 0 or not finite it is a RangeError.
   *
   * The same transaction also writes the attempt record (delivery_attempts:
   * the event's replays, the attempt, the claim's last_attempt_at, the status, the decision, the
   * detail and the next attempt). A `gone` result also disables the watch's webhook
   * (webhook_disabled_at = now, a reason naming the 410 and when) and cancels its other queued
   * (PENDING, RETRY) events.
   */
  settle(eventId: number, attempt: number, result: DeliveryResult): Promise<boolean>;
  /** The event's attempt records, oldest first; undefined when no operator event has that id. */
  attempts(eventId: number): Promise<DeliveryAttempt[] | undefined>;
  /**
   * Replays one event of an operator watch (see ReplayOutcome): only a DEAD_LETTER or CANCELLED
   * event whose watch is active and whose webhook is enabled. Never called by svc itself: an
   * operator asks (POST /v1/monitoring/events/{id}/replay).
   */
  replay(eventId: number): Promise<ReplayOutcome>;
  /**
   * Replays, in one transaction, every DEAD_LETTER event of the active operator watch created at
   * or after `since` (RFC 3339 UTC, `YYYY-MM-DDTHH:MM:SSZ`), as `replay` does one.
   */
  replaySince(watchId: number, since: string): Promise<ReplaySinceOutcome>;
}
