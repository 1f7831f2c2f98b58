/**
 * The core's view of storage: what history, diff and (later) monitoring need, as plain
 * interfaces. Implemented in src/store (better-sqlite3, the embedded default); the core never
 * imports a driver, so a PostgreSQL implementation could serve several daemon replicas (the
 * scale-out path).
 *
 * Every method returns a Promise: a backend reached over the network cannot answer
 * synchronously, and the SQLite one simply resolves with what it read or wrote. Implementations
 * must be safe under concurrent callers in one process: each call is self-contained (no state
 * carried between calls, no transaction left open across an await), and a multi-step write —
 * record()'s read of the latest row, coalescing or eviction, and insert — is one transaction
 * inside the implementation, so two calls in flight never interleave within it.
 */
import type { DomainBindingStatus } from './linkage/types.js';
import type { JsonObject } from './encoding/json.js';
import type { DidDocument, EnrichedResolution } from './resolve/types.js';

/** What one resolution contributes to the history of its DID (SPEC §2.5). */
export interface NewObservation {
  did: string;
  /** RFC 8785 SHA-256 of the document (evidence.document.jcsSha256). */
  documentHash: string;
  /** The document as retrieved, kept so that two observations can be diffed. */
  document: DidDocument;
  /** RFC 3339 UTC, second precision. */
  observedAt: string;
  latencyMs: number | null;
  resolverVersion: string;
  domainBindingStatus: DomainBindingStatus | null;
  /** One line: the verdict headline. */
  summary: string;
}

/** One row of the history (SPEC §2.5 `history[]`). */
export interface Observation {
  id: number;
  did: string;
  documentHash: string;
  /** When this snapshot was first observed. */
  observedAt: string;
  /** When it was last observed unchanged. */
  lastSeenAt: string;
  /** How many resolutions observed it unchanged (1 for a new snapshot). */
  seenCount: number;
  latencyMs: number | null;
  resolverVersion: string;
  domainBindingStatus: DomainBindingStatus | null;
  summary: string;
}

export interface StoredObservation extends Observation {
  document: DidDocument;
}

/**
 * What one record() resolves to. A store may be given a ceiling on its rows (the daemon's, SPEC §8 "bounded
 * history"); a store without one only ever stores or coalesces.
 * - `stored`: a new row; `coalesced`: the latest row of the same key was unchanged and counted
 *   again (no row added, allowed at the ceiling);
 * - `evicted`: at the ceiling, a new row stored in place of `evicted` one-off rows (a key seen
 *   exactly once, never again, oldest first);
 * - `refused`: at the ceiling with no one-off row to evict: nothing was written.
 */
export type Recorded<T> =
  | { outcome: 'stored' | 'coalesced'; row: T; evicted: 0 }
  | { outcome: 'evicted'; row: T; evicted: number }
  | { outcome: 'refused'; row: null; evicted: 0 };

export interface ObservationStore {
  /**
   * Records an observation. When the DID's latest observation has the same document hash and
   * domain binding status, that row is coalesced instead (seenCount + 1, lastSeenAt, latencyMs,
   * resolverVersion and summary refreshed) and returned; otherwise a new row is inserted — or,
   * in a store with a ceiling, inserted in place of one-off rows, or refused (see Recorded).
   */
  record(observation: NewObservation): Promise<Recorded<Observation>>;
  /** Observations of the DID, newest first (by observedAt, then id), at most `limit`. */
  list(did: string, limit: number): Promise<Observation[]>;
  /** How many observations (rows, after coalescing) the DID has. */
  count(did: string): Promise<number>;
  /** The latest `limit` observations of the DID with their documents, newest first. */
  latest(did: string, limit: number): Promise<StoredObservation[]>;
  /** The latest observation of the DID whose document hash is `documentHash`, or undefined. */
  findByHash(did: string, documentHash: string): Promise<StoredObservation | undefined>;
  /**
   * The DID's distinct document hashes that start with `prefix`, newest first (each where its
   * latest row stands in `list`): an index range over the hashes, no document read. A prefix
   * that is not lower-case hex matches nothing (every stored hash is).
   */
  hashesWithPrefix(did: string, prefix: string): Promise<string[]>;
  /**
   * The observation listed just after `row` (newest first, by observedAt then id): the next
   * older one of the DID, with its document, or undefined when `row` is the oldest.
   */
  olderThan(did: string, row: Pick<Observation, 'observedAt' | 'id'>): Promise<StoredObservation | undefined>;
}

/**
 * A registered delegation chain (SPEC §3 "Registered delegation chains"): the receipts
 * themselves, so that a restart can verify them again, and what verify-tool looks up by.
 */
export interface StoredDelegationChain {
  /** chainId(chain): hex SHA-256 of the receipts joined with '\n'. */
  id: string;
  /** The compact receipts, root first. */
  chain: string[];
  /** The root issuer, without fragment. */
  rootDid: string;
  /** The leaf delegate (the agent), without fragment. */
  leafDid: string;
  /** RFC 3339 UTC: the chain's notAfter (the earliest expiry along it). */
  expiresAt: string;
  /** RFC 3339 UTC: when it was (last) registered. */
  registeredAt: string;
  /**
   * Who registered it: the daemon's client key (clientKey of the address), or null (absent on
   * input) for the operator's own registrations (`svc verify-delegation --register` on the
   * database, and chains stored before schema v12). Only chains naming a client count toward
   * the per-client and per-root shares, and only they can be displaced.
   */
  client?: string | null;
}

/** How much of the registry one registration may find taken (see registerWithin). */
export interface RegistryShares {
  /** Unexpired chains the registry holds at most. */
  total: number;
  /** Unexpired chains one client may hold at once. */
  perClient: number;
  /** Unexpired chains rooted in one DID that clients may hold at once. */
  perRoot: number;
}

/**
 * What registerWithin did: stored (a new chain, or `refreshed`: the chain was already registered
 * and keeps its holder; `displaced`: the chain that gave way to it), or why not — the client's
 * share, the root's share, or a registry full with nobody holding more than this client (`held`:
 * the client's, the root's or the registry's count).
 */
export type ChainAdmission =
  | { outcome: 'stored'; refreshed: boolean; displaced: Pick<StoredDelegationChain, 'id' | 'rootDid' | 'leafDid' | 'client'> | null }
  | { outcome: 'client-share' | 'root-share' | 'full'; held: number };

export interface DelegationChainStore {
  /** Stores a chain; a chain already stored under `id` is replaced (its registeredAt refreshed). */
  register(record: StoredDelegationChain): Promise<void>;
  /**
   * Unexpired chains (expiresAt > `now`, both RFC 3339 UTC) whose leaf is `leafDid` (compared
   * exactly: callers pass DIDs without fragment), newest registration first.
   */
  forAgent(leafDid: string, now: string): Promise<StoredDelegationChain[]>;
  /** Every stored chain, expired ones included, newest registration first. */
  all(): Promise<StoredDelegationChain[]>;
  /** How many chains are stored, expired ones included. */
  count(): Promise<number>;
  /** Deletes the chain (nothing when absent). */
  remove(id: string): Promise<void>;
  /** Deletes chains with expiresAt <= `now`; resolves to how many. */
  removeExpired(now: string): Promise<number>;
  /**
   * Registers a chain within the shares, as one transaction (one registration at a time across
   * every process on the database): chains expired at `now` are deleted first, so they never
   * count; a chain already stored is refreshed (registeredAt, expiresAt) and keeps its holder;
   * otherwise a chain naming a client is refused past that client's share or its root's share.
   * A full registry displaces the oldest registration of the client holding the most chains, when
   * that client holds at least two more than the registering one (max-min fairness: a flood costs
   * the flooders, never a newcomer its first chains); a chain of the operator's own (client null)
   * displaces nothing. `dryRun`: the same decision, rolled back (nothing written).
   */
  registerWithin(record: StoredDelegationChain, shares: RegistryShares, now: string, options?: { dryRun?: boolean }): Promise<ChainAdmission>;
}

/** One tool of a stored MCP inventory: enough to match it by name and say what changed. */
export interface McpSnapshotTool {
  name: string;
  definitionSha256: string;
  /** The fingerprinted definition (envelope members removed). */
  definition: JsonObject;
}

/**
 * One prompt, resource or resource template of a stored MCP inventory, by its key: the prompt's
 * `name`, the resource's `uri`, the template's `uriTemplate`.
 */
export interface McpSnapshotItem {
  key: string;
  definitionSha256: string;
  /** The fingerprinted definition (envelope members removed). */
  definition: JsonObject;
}

/**
 * What one MCP inspection contributes to the history of its endpoint (SPEC §2.11 drift). The
 * stored body is `{tools, prompts, resources, resourceTemplates}`; a body without the last three
 * is a snapshot taken before svc inventoried them ("tools-only coverage"), read back with them
 * undefined — not empty: nothing is known of that server's prompts then.
 */
export interface NewMcpSnapshot {
  /** The endpoint URL without fragment: the key of the history. */
  endpoint: string;
  inventoryHash: string;
  /** Fingerprint profile (SPEC §9.5); rows written before profiles existed have none. */
  profile: string | null;
  negotiatedVersion: string | null;
  /** RFC 3339 UTC, second precision. */
  observedAt: string;
  tools: McpSnapshotTool[];
  /** Undefined: not covered (a tools-only snapshot); svc always records all three. */
  prompts?: McpSnapshotItem[];
  resources?: McpSnapshotItem[];
  resourceTemplates?: McpSnapshotItem[];
}

export interface McpSnapshot extends NewMcpSnapshot {
  id: number;
  /** When this inventory was last observed unchanged. */
  lastSeenAt: string;
  seenCount: number;
}

export interface McpObservationStore {
  /** The newest snapshot of the endpoint, or undefined. */
  latest(endpoint: string): Promise<McpSnapshot | undefined>;
  /**
   * Records a snapshot. When the endpoint's latest snapshot has the same inventory hash and
   * profile it is coalesced (seenCount + 1, lastSeenAt, negotiatedVersion and the body
   * refreshed — so a tools-only row of a server without prompts or resources gains the coverage
   * of the snapshot recorded) and returned; otherwise a new row is inserted — or, in a store with a ceiling, inserted in place
   * of one-off rows, or refused (see Recorded).
   */
  record(snapshot: NewMcpSnapshot): Promise<Recorded<McpSnapshot>>;
}

/** An operator watch (SPEC §2.15): a DID checked every intervalSeconds, changes posted to webhookUrl. */
export interface Watch {
  id: number;
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
}

export interface NewWatch {
  did: string;
  webhookUrl: string;
  /** The HMAC signing secret: kept as is (deliveries are signed with it), never listed. */
  secret: string;
  intervalSeconds: number;
  createdAt: string;
}

export type MonitorEventType =
  | 'identity.document.changed'
  | 'identity.domain_binding.changed'
  | 'identity.deactivated'
  | 'identity.resolution.failed'
  | 'identity.resolution.recovered';

export type DeliveryStatus = 'PENDING' | 'DELIVERING' | 'RETRY' | 'DELIVERED' | 'DEAD_LETTER' | 'CANCELLED';

/** A monitor event (SPEC §2.15) with its delivery state. */
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
export type RecordedCheck =
  | { outcome: 'recorded'; revision: number; eventIds: number[] }
  | { outcome: 'stale' | 'event-capacity' | 'payload-too-large' };

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
  /** The event's watch (possibly removed since: the sender then cancels instead of sending). */
  watch: { id: number; did: string; webhookUrl: string; secret: string; active: boolean };
  /** This attempt's number (the event's attempts after the claim incremented them): 1..maxAttempts. */
  attempt: number;
  /** RFC 3339 UTC, database clock: when the claim's lease expires and another sender may recover it. */
  leaseExpiresAt: string;
}

/** How one delivery attempt ended. */
export type DeliveryResult =
  | { delivered: true }
  /** `retryAfterSeconds`: when to try again; null: no further attempt (DEAD_LETTER). */
  | { delivered: false; error: string; retryAfterSeconds: number | null }
  /** The watch was removed: the event becomes CANCELLED. */
  | { cancelled: true };

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
   */
  settle(eventId: number, attempt: number, result: DeliveryResult): Promise<boolean>;
}

/** How control of a DID was shown (SPEC §1): a signature by an `authentication` key, a file on the host, a DNS TXT record. */
export type ClaimMethod = 'signature' | 'well-known' | 'dns';
/** What a proof is for: a claim only, a claim and a directory listing (opt in), or leaving the directory (opt out). */
export type ClaimPurpose = 'claim' | 'list' | 'unlist';

/** One proof attempt's terms: a random token bound to a DID, a method, a purpose and an expiry. */
export interface ClaimChallenge {
  /** 43 base64url characters (32 random bytes): what is signed, hosted or published. Also the challenge's id. */
  token: string;
  did: string;
  method: ClaimMethod;
  purpose: ClaimPurpose;
  /** RFC 3339 UTC, second precision, database clock. */
  createdAt: string;
  expiresAt: string;
  /** Verification attempts counted so far. */
  attempts: number;
  /** When a proof used it (single use), else null. */
  usedAt: string | null;
}

export interface NewClaimChallenge {
  token: string;
  did: string;
  method: ClaimMethod;
  purpose: ClaimPurpose;
  /** Lifetime from now on the database clock, whole seconds >= 1 (else RangeError). */
  ttlSeconds: number;
  /** Who asked (the daemon's clientKey): the challenge counts against that client's share. */
  client: string;
}

/**
 * The fair shares of a pool of pending (unused, unexpired) challenges (issue 38; README "Fair
 * shares"): the pool in all, what one client may hold, what one DID may hold. The DID's share
 * never shuts out a client that holds none of the DID's pending challenges: a flood of
 * challenges for a DID by others cannot stop its controller from asking for one.
 */
export interface PendingLimits {
  total: number;
  perClient: number;
  perDid: number;
}

/** Which share refused a new challenge: the whole pool, the client's, or the DID's. */
export type PendingShare = 'total' | 'client' | 'did';

/**
 * A challenge refused: the share that is used up, its size, and the whole seconds (>= 1) until
 * one of the challenges holding it expires (a use frees one sooner).
 */
export interface PendingRefusal {
  refused: PendingShare;
  limit: number;
  retryAfterSeconds: number;
}

/** A proof of control as stored: current while not lapsed and expiresAt is in the future (database clock). */
export interface StoredClaim {
  id: number;
  did: string;
  method: ClaimMethod;
  /** What was shown to act: the key id (signature), the file URL (well-known), the TXT record name (dns). */
  subject: string;
  /** The challenge token the proof holds; re-checks look for it again. */
  token: string;
  /** First proof (RFC 3339 UTC, second precision). */
  verifiedAt: string;
  /** Last successful check (the proof, or a re-check). */
  checkedAt: string;
  expiresAt: string;
  /** Next re-check (well-known and dns), null for signature claims (nothing to re-check). */
  nextCheckAt: string | null;
  /** Re-checks in a row that could not reach the proof (no verdict about it). */
  checkFailures: number;
  lastError: string | null;
  lapsedAt: string | null;
  /** Why the claim lapsed: the proof disappeared, it expired unchecked, a newer proof replaced it. */
  lapseReason: string | null;
}

/** Why a challenge cannot be used for a verification attempt. */
export type ChallengeRefusal = 'unknown' | 'expired' | 'used' | 'exhausted';

export type ChallengeAttempt =
  /** The attempt is counted (attempts + 1) and the challenge is unused and unexpired now. */
  | { ok: true; challenge: ClaimChallenge }
  | { ok: false; refusal: ChallengeRefusal; challenge: ClaimChallenge | null };

export interface NewProof {
  /** The challenge that was proved (it becomes used). */
  token: string;
  /** StoredClaim.subject. */
  subject: string;
  /** How long the claim holds from now (database clock), whole seconds >= 1. */
  lifetimeSeconds: number;
  /** Seconds to the first re-check (well-known, dns), or null (signature). */
  recheckSeconds: number | null;
}

export type RecordedProof =
  /** `listed`: whether the DID is in the directory after this proof (its purpose applied). */
  | { outcome: 'recorded'; claim: StoredClaim; listed: boolean }
  /** The challenge was used, expired or removed meanwhile: nothing written. */
  | { outcome: 'used' | 'expired' | 'unknown' };

/** What a re-check found. */
export type RecheckResult =
  /** The proof is still there: checkedAt = now, expiresAt = now + lifetime, next check = now + recheck; failures reset. */
  | { kind: 'held'; lifetimeSeconds: number; recheckSeconds: number }
  /** The proof is gone or wrong: the claim lapses with `reason`, its directory listing with it. */
  | { kind: 'lapsed'; reason: string }
  /** The proof could not be reached (no verdict): failures + 1, lastError, next check = now + retrySeconds. */
  | { kind: 'unreachable'; error: string; retrySeconds: number };

/** A directory listing (SPEC §4.16) as read: its DID has a current claim bound to the listing. */
export interface DirectoryEntry {
  /** The listing's position in the stable order (ascending; a later listing comes later). */
  seq: number;
  did: string;
  /** The DID method: web, key, jwk, webvh. */
  didMethod: string;
  /** When the controller opted in. */
  listedAt: string;
  /** The DID's current claims, by method: what stands behind the listing. */
  claims: Array<{ method: ClaimMethod; verifiedAt: string; expiresAt: string }>;
}

export interface DirectoryQuery {
  /** Free text (already at most 100 characters): entries whose DID contains it, case-insensitively; null: all. */
  q: string | null;
  /** DID method (web, key, jwk, webvh), or null: all. */
  didMethod: string | null;
  /** 1..50 (else RangeError). */
  limit: number;
  /** Entries with seq greater than this (the cursor), or null from the start. */
  after: number | null;
}

export interface DirectoryPage {
  entries: DirectoryEntry[];
  /** Whether entries after the last one exist (matching the query) at the time of reading. */
  more: boolean;
}

export interface ClaimStore {
  /**
   * Adds an unused challenge, created now and expiring ttlSeconds later (database clock), unless
   * a share of `limits` is used up (a PendingRefusal naming it): the pool holds `total` unexpired,
   * unused challenges, the client `perClient`, or the DID `perDid` and the client one of them.
   * Counted and inserted in one statement inside one transaction (on PostgreSQL under an advisory
   * lock), so concurrent creators never pass a share. A limit that is not a number refuses.
   */
  createChallenge(challenge: NewClaimChallenge, limits: PendingLimits): Promise<ClaimChallenge | PendingRefusal>;
  /**
   * Counts one verification attempt of the challenge `token` for `did`, in one statement or
   * transaction: refused when no challenge has that token for that DID ('unknown'), it is used
   * ('used'), expired on the database clock ('expired'), or already had maxAttempts attempts
   * ('exhausted'; not incremented further). Otherwise attempts + 1 and ok.
   */
  attemptChallenge(did: string, token: string, maxAttempts: number): Promise<ChallengeAttempt>;
  /**
   * Records a successful proof in one transaction: the challenge becomes used (only while still
   * unused and unexpired — else nothing is written and the outcome says why); the current claim of
   * the same DID and method, if any, lapses ('superseded by a newer proof') and a directory listing
   * bound to it moves to the new claim; the new claim is inserted (verified and checked now,
   * expiring now + lifetimeSeconds, next check now + recheckSeconds or null); then the challenge's
   * purpose: 'list' binds the DID's listing to the new claim (created with a new seq when absent,
   * kept in place when present), 'unlist' removes the DID's listing, 'claim' leaves it.
   */
  recordProof(proof: NewProof): Promise<RecordedProof>;
  /** The claim by id (current or not), or undefined. */
  get(id: number): Promise<StoredClaim | undefined>;
  /**
   * The DID's current claims (not lapsed, expiresAt after now on the database clock), newest
   * first; its lapsed or expired ones, newest first, at most `pastLimit`; and whether it is listed
   * (a listing bound to a current claim).
   */
  forDid(did: string, pastLimit: number): Promise<{ current: StoredClaim[]; past: StoredClaim[]; listed: boolean }>;
  /**
   * Claims up to `limit` current claims whose next check is due (nextCheckAt <= now, database
   * clock), oldest due first, and moves their nextCheckAt to now + leaseSeconds so that no other
   * checker takes them meanwhile (on PostgreSQL: FOR UPDATE SKIP LOCKED). Signature claims are
   * never due.
   */
  claimDue(limit: number, leaseSeconds: number): Promise<StoredClaim[]>;
  /**
   * Applies a re-check's result to the claim — only while it is current (a lapsed or superseded
   * claim is left alone: false). 'lapsed' also removes the directory listing bound to it. One
   * transaction.
   */
  recordRecheck(id: number, result: RecheckResult): Promise<boolean>;
  /**
   * Housekeeping in one transaction: current claims whose expiresAt has passed lapse (reason:
   * 'expired' for signature claims; 'not re-checked successfully since <checkedAt>' otherwise) and
   * their listings go; challenges expired more than a day ago are deleted. Returns the counts.
   */
  sweep(): Promise<{ lapsed: number; challengesRemoved: number }>;
  /**
   * One page of listings bound to a current claim, ascending seq after `after`, filtered by q and
   * didMethod, each with its DID's current claims. Never lists a DID without a current claim and a
   * listing: an expired claim hides its listing at once, before any sweep.
   */
  directory(query: DirectoryQuery): Promise<DirectoryPage>;
}

/**
 * Owner accounts (issue 26; SPEC §4.19, §5, §8): tenants and their projects, the subjects (DIDs)
 * that own them, project API keys, usage counters, owner sessions and sign-in challenges.
 *
 * Every time that decides anything is the database's clock. Times leave the store as RFC 3339
 * UTC text at second precision. Typed failures are StoreError (src/store/errors.ts) with the
 * codes NOT_FOUND (no such tenant, project or key), NOT_OWNER (the acting subject does not own
 * the project, judged inside the transaction of the write), CONFLICT (a name, id or key digest
 * already taken), KEY_CAPACITY (a KeyCapacityError naming the cap: `active` or `retained`) and
 * CHALLENGE_CAPACITY (too many outstanding sign-in challenges). An argument out of range (an
 * empty name, a digest that is not 64 lower-case hex digits…) is a RangeError.
 * Plans, subscriptions, invoices and the ledger (schema v5) have no repository yet.
 */
export interface Tenant {
  /** `ten_` + 16 random bytes, base64url. */
  id: string;
  name: string;
  /** The founding owner (kept as founded; who owns the tenant now is tenant_owners). */
  ownerSubject: string;
  createdAt: string;
}

export interface Project {
  /** `prj_` + 16 random bytes, base64url. */
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
}

/** ACTIVE keys authenticate; ROTATED (replaced by a rotation) and REVOKED never again. */
export type ApiKeyStatus = 'ACTIVE' | 'ROTATED' | 'REVOKED';

/** A key the core generated: the store sees only its digest, never the secret. */
export interface NewApiKey {
  /** The key's public id (the core's choice, e.g. `key_…`), 1..100 characters. */
  id: string;
  /** SHA-256 of the secret, 64 lower-case hex digits (unique across all keys). */
  keyHash: string;
  /** The first visible characters of the secret (1..16), for telling keys apart. */
  prefix: string;
  /** A label of the owner's choice (at most 100 characters). */
  label?: string | null;
}

/** What an owner may see of a key: never its digest, never its secret. */
export interface ApiKeyMetadata {
  id: string;
  projectId: string;
  prefix: string;
  label: string | null;
  status: ApiKeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  /** When it stopped authenticating (revoked or rotated); null while ACTIVE. */
  revokedAt: string | null;
  /** The key this one replaced by a rotation. */
  replacesKeyId: string | null;
}

/** Who a keyed request acts for. */
export interface KeyPrincipal {
  keyId: string;
  projectId: string;
  tenantId: string;
}

export interface UsageRow {
  projectId: string;
  metric: string;
  period: string;
  count: number;
}

/** A mock-billing plan (schema v5): a monthly price in minor units and the requests it includes. */
export interface Plan {
  id: string;
  name: string;
  /** ISO 4217, three letters. */
  currency: string;
  monthlyPriceMinor: number;
  includedRequests: number;
  active: boolean;
  createdAt: string;
}

export type NewPlan = Omit<Plan, 'createdAt' | 'active'> & { active?: boolean };

export interface Subscription {
  tenantId: string;
  planId: string;
  startedAt: string;
}

export interface Invoice {
  id: string;
  tenantId: string;
  /** The month, `YYYY-MM-01T00:00:00Z` to the first of the next. */
  periodStart: string;
  periodEnd: string;
  currency: string;
  totalMinor: number;
  /** OPEN: what would be charged; no payment provider is involved, nothing is ever PAID here. */
  status: 'DRAFT' | 'OPEN' | 'PAID' | 'VOID';
  createdAt: string;
}

export interface LedgerEntry {
  id: number;
  tenantId: string;
  invoiceId: string | null;
  kind: 'CHARGE' | 'CREDIT' | 'PAYMENT' | 'ADJUSTMENT';
  amountMinor: number;
  description: string;
  createdAt: string;
}

export interface TenantBilling {
  subscription: Subscription | null;
  plan: Plan | null;
  /** Oldest first. */
  invoices: Invoice[];
  /** Oldest first. */
  ledger: LedgerEntry[];
}

export interface NewOwnerSession {
  /** A digest of the random session id (the id itself stays in the cookie only). */
  idDigest: string;
  subject: string;
  /** Idle lifetime: each touch moves the expiry to now + idleSeconds, never past the absolute expiry. */
  idleSeconds: number;
  /** Absolute lifetime from creation. */
  absoluteSeconds: number;
}

export interface OwnerSession {
  subject: string;
  createdAt: string;
  /** The idle expiry (never after absoluteExpiresAt). */
  expiresAt: string;
  absoluteExpiresAt: string;
}

export interface NewSignInChallenge {
  /** A digest of the random challenge token. */
  tokenDigest: string;
  /** The DID expected to answer it. */
  did: string;
  ttlSeconds: number;
  /** Who asked (the gateway request's clientKey): the challenge counts against that client's share. */
  client: string;
}

/** SPEC §8: project keys per project. */
export const PROJECT_KEY_LIMITS = { active: 10, retained: 100 } as const;
/** Outstanding (unused, unexpired) sign-in challenges, all subjects together. */
export const SIGN_IN_CHALLENGE_LIMIT = 10_000;
/**
 * The shares of the sign-in pool by default (SVC_SIGN_IN_PENDING_PER_CLIENT, _PER_DID): a
 * sign-in needs one challenge, answered within its 300 s, so 10 per client and 3 per DID leave
 * room for retries and several owners behind one address.
 */
export const SIGN_IN_PENDING_LIMITS: Readonly<PendingLimits> = { total: SIGN_IN_CHALLENGE_LIMIT, perClient: 10, perDid: 3 };

export interface AccountStore {
  // --- Tenants and projects (operator operations) ---
  /** A new tenant; `owner` is attached as its first owner in the same transaction. */
  createTenant(tenant: { name: string; owner: string }): Promise<Tenant>;
  /** Every tenant, oldest first. */
  listTenants(): Promise<Tenant[]>;
  /** A new project of the tenant. NOT_FOUND: no such tenant; CONFLICT: the tenant has a project of that name. */
  createProject(tenantId: string, project: { name: string }): Promise<Project>;
  getProject(projectId: string): Promise<Project | undefined>;
  /** Every project of every tenant, oldest first (the operator's listing). */
  listProjects(): Promise<Project[]>;
  /** The projects of every tenant `subject` owns, oldest first. */
  listProjectsOwnedBy(subject: string): Promise<Project[]>;
  /**
   * Whether `subject` owns the project (false for a project that does not exist): the check an
   * owner action makes before any work of its own — a DNS lookup, an egress check — so that a
   * caller who owns nothing learns nothing and costs nothing. Actions still re-check ownership
   * inside their own transaction.
   */
  ownsProject(subject: string, projectId: string): Promise<boolean>;

  // --- Owners ---
  /** The tenant's owners, by when they were attached (to the second), then by subject. */
  ownersOf(tenantId: string): Promise<string[]>;
  /** Attaches an owner: true when added, false when already an owner (idempotent). NOT_FOUND: no such tenant. */
  attachOwner(tenantId: string, subject: string): Promise<boolean>;
  /**
   * Detaches an owner: true when removed, false when not an owner. Waits for owner actions of the
   * subject in flight (they hold its ownership row); any action that commits after it fails
   * NOT_OWNER. Removing the last owner is allowed (the operator re-attaches one).
   */
  removeOwner(tenantId: string, subject: string): Promise<boolean>;

  // --- Project keys (owner actions: each checks ownership in its own transaction) ---
  /** The project's keys, newest first, metadata only. NOT_OWNER when `subject` does not own the project (or it does not exist). */
  listKeys(subject: string, projectId: string): Promise<ApiKeyMetadata[]>;
  /**
   * Issues a key: ACTIVE keys of the project < 10 and rows of any status < 100, else
   * KeyCapacityError naming the cap (the active one is checked first). CONFLICT: id or digest taken.
   */
  issueKey(subject: string, projectId: string, key: NewApiKey): Promise<ApiKeyMetadata>;
  /**
   * ACTIVE → REVOKED. Idempotent: a key already REVOKED or ROTATED is returned as it is.
   * NOT_FOUND: the project has no key of that id.
   */
  revokeKey(subject: string, projectId: string, keyId: string): Promise<ApiKeyMetadata>;
  /**
   * Atomic rotation: the old key ACTIVE → ROTATED and the new one ACTIVE with replacesKeyId, or
   * nothing at all (any failure leaves the old key ACTIVE). The retained cap counts the new row.
   * NOT_FOUND: the project has no ACTIVE key of that id.
   */
  rotateKey(subject: string, projectId: string, oldKeyId: string, newKey: NewApiKey): Promise<{ rotated: ApiKeyMetadata; issued: ApiKeyMetadata }>;

  // --- Keyed requests ---
  /** The ACTIVE key of that digest, else null; stamps lastUsedAt (at most once a minute per key). */
  authenticateKey(keyHash: string): Promise<KeyPrincipal | null>;
  /** Adds `by` (a whole number from 1) to the counter and returns its new value. One upsert. */
  countUsage(projectId: string, metric: string, period: string, by?: number): Promise<number>;
  /** The project's counters (of one period, or all), by period then metric. */
  usageOf(projectId: string, period?: string): Promise<UsageRow[]>;

  // --- Owner sessions (the cookie gateway) ---
  /** CONFLICT: the digest is taken. */
  createSession(session: NewOwnerSession): Promise<OwnerSession>;
  /** The session, its idle expiry moved on; null when unknown, revoked, idle-expired or absolute-expired. */
  touchSession(idDigest: string): Promise<OwnerSession | null>;
  /** True when a live session was revoked. */
  revokeSession(idDigest: string): Promise<boolean>;
  /** Revokes every unrevoked session of the subject; how many. */
  revokeSessionsOf(subject: string): Promise<number>;

  // --- Sign-in challenges ---
  /**
   * Stores a challenge unless a share of `limits` (default SIGN_IN_PENDING_LIMITS) is used up —
   * the pool, the client's, or the DID's while the client holds one of them — else a
   * ChallengeCapacityError (CHALLENGE_CAPACITY) naming the share; returns its expiry. Counted and
   * inserted in one statement, as claim challenges are. CONFLICT: the digest is taken.
   */
  createSignInChallenge(challenge: NewSignInChallenge, limits?: PendingLimits): Promise<{ expiresAt: string }>;
  /** True exactly once, for the DID it was made for, while unexpired (one of concurrent consumers wins). */
  consumeSignInChallenge(tokenDigest: string, did: string): Promise<boolean>;

  /** Deletes sessions and challenges expired (or revoked) more than a day ago. */
  sweep(): Promise<{ sessionsRemoved: number; challengesRemoved: number }>;

  // --- Mock billing (schema v5; no payment provider: what would be charged, recorded) ---
  /** Creates or replaces a plan (by id). */
  setPlan(plan: NewPlan): Promise<Plan>;
  /** Every plan, by id. */
  listPlans(): Promise<Plan[]>;
  /** Subscribes the tenant to an active plan (replacing its subscription). NOT_FOUND: no such tenant or active plan. */
  subscribe(tenantId: string, planId: string): Promise<Subscription>;
  /**
   * Closes a month (`YYYY-MM`) for the tenant, in one transaction: an OPEN invoice of the plan's
   * monthly price and its CHARGE ledger entry, whose description states the month's keyed
   * requests (usage metric `requests` of every project of the tenant) against the plan's
   * included ones. NOT_FOUND: the tenant has no subscription; CONFLICT: that month is closed.
   */
  closePeriod(tenantId: string, period: string): Promise<{ invoice: Invoice; entries: LedgerEntry[] }>;
  /** The tenant's subscription, plan, invoices and ledger. NOT_FOUND: no such tenant. */
  billingOf(tenantId: string): Promise<TenantBilling>;
}

/**
 * SPEC §8's customer monitor and owner-event limits (issue 27), and svc's own watch cap per project
 * (SPEC names none: at hourly checks, 25 watches use the whole attempt allowance; 100 leaves room
 * to add and remove).
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

/** A watch of an owner's project (SPEC §4.19): hourly, delivered through the project's webhook. */
export interface ProjectWatch {
  /** `wch_<n>`. */
  id: string;
  projectId: string;
  did: string;
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
  did: string;
  createdAt: string;
  /** As the operator's events (SPEC §6.2): fromHash, toHash, domainBinding, diff, headline, problem. */
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
}

/** One delivery's metadata (SPEC §4.19: no body, signature, secret, lease or receiver response). */
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
 * Customer monitoring (issue 27; SPEC §4.19, §6.3, §8) on both engines. Owner actions take the
 * acting subject and re-check, inside their own transaction, that it owns the project (NOT_OWNER
 * otherwise, also for a project that does not exist); a watch id not of that project is NOT_FOUND.
 * Windows and "now" are the database's clock. The worker's methods (claimDue, recordCheck,
 * claimDeliveries, settleDelivery) are the operator monitor's, scoped to project watches.
 */
export interface CustomerMonitorStore {
  /** An active watch of the DID (did:key, did:jwk, did:web: the route checks), or 'full' at `limit` active watches, or the existing active watch of that DID (created false). */
  addWatch(subject: string, projectId: string, did: string, limit: number): Promise<{ watch: ProjectWatch; created: boolean } | 'full'>;
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
  /** The active webhook, or null. */
  getWebhook(subject: string, projectId: string): Promise<CustomerWebhookConfig | null>;
  /** Disables the active webhook and cancels its queued deliveries; false when there was none. */
  disableWebhook(subject: string, projectId: string): Promise<boolean>;
  /** The newest `limit` deliveries created in the last 30 days. */
  listDeliveries(subject: string, projectId: string, limit: number): Promise<CustomerDeliveryMetadata[]>;
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
  /** As MonitorEventStore.settle; `status` is the receiver's HTTP status, when there was one (kept, never shown to owners). */
  settleDelivery(id: string, attempt: number, result: DeliveryResult, status?: number): Promise<boolean>;
}

/** Storage the Runtime offers the core (SPEC §9.7 schema; more table groups join later). */
export interface RuntimeStore {
  readonly storage: 'file' | 'memory' | 'postgres';
  readonly observations: ObservationStore;
  /** Delegation chains registered through verify-delegation `register: true` (SPEC §3, §4.12). */
  readonly delegationChains: DelegationChainStore;
  /** MCP inventories by endpoint, for drift (SPEC §2.11). */
  readonly mcpObservations: McpObservationStore;
  /** Operator watches (SPEC §2.15, §4.18). */
  readonly watches: WatchStore;
  /** Monitor events and their delivery state (SPEC §3, §6.2). */
  readonly monitorEvents: MonitorEventStore;
  /** Proofs of control, their challenges, and the opt-in directory (SPEC §4.15, §4.16). */
  readonly claims: ClaimStore;
  /** Owner accounts: tenants, projects, owners, project keys, usage, sessions, sign-in challenges. */
  readonly accounts: AccountStore;
  /** Customer monitoring: project watches, their events, webhooks and deliveries, scheduled attempts (issue 27). */
  readonly customerMonitor: CustomerMonitorStore;
}

/**
 * A resolution cache shared by several daemons (a second tier behind each one's in-process LRU),
 * with single flight: a lease per cache key says which caller is resolving it, so the others wait
 * for its result instead of resolving the same DID at the same time. Expiry of entries and leases
 * is judged on the shared store's clock, never on one daemon's. Every method may reject when the
 * store is unreachable; callers treat that as a miss (resolution never depends on it).
 */
export interface SharedResolutionCache {
  /** The live entry (expiry judged on the database clock), or undefined. Frozen, `cached: true`. */
  get(key: string): Promise<EnrichedResolution | undefined>;
  /** Stores a successful resolution for ttlSeconds (<= 0: nothing stored). */
  set(key: string, did: string, value: EnrichedResolution, ttlSeconds: number): Promise<void>;
  /**
   * Takes the lease to resolve `key` for leaseMs; false when another holder's live lease has it.
   * A holder's own live lease is renewed (true).
   */
  claim(key: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Gives the lease back (only the holder's own: a lease taken over since is left alone). */
  release(key: string, holder: string): Promise<void>;
}
