/**
 * The storage contract of proofs of control (docs/daemon.md#proofs-of-control-and-the-directory):
 * challenges, claims, re-checks and the opt-in directory. Implemented on both engines in src/store
 * (sqlite/claims.ts, postgres/claims.ts); the rules every store method keeps are
 * core/runtime-store.ts's.
 */
import type { PendingLimits, PendingRefusal } from '../pending.js';
import type { ClaimMethod, ClaimPurpose } from './types.js';

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
  { ok: true; challenge: ClaimChallenge } | { ok: false; refusal: ChallengeRefusal; challenge: ClaimChallenge | null };

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

/** A directory listing as read: its DID has a current claim bound to the listing. */
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
