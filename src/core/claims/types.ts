/**
 * Proofs of control (docs/daemon.md#proofs-of-control-and-the-directory): the vocabulary shared by
 * the core, the store, the routes, the CLI and the clients.
 */
import type { PendingLimits } from '../pending.js';

/** How control of a DID was shown: a signature by an `authentication` key, a file on the host, a DNS TXT record. */
export type ClaimMethod = 'signature' | 'well-known' | 'dns';
/** What a proof is for: a claim only, a claim and a directory listing (opt in), or leaving the directory (opt out). */
export type ClaimPurpose = 'claim' | 'list' | 'unlist';

export const CLAIM_METHODS = ['signature', 'well-known', 'dns'] as const satisfies readonly ClaimMethod[];
export const CLAIM_PURPOSES = ['claim', 'list', 'unlist'] as const satisfies readonly ClaimPurpose[];

/**
 * Why a proof was refused. A refusal is a result (200, `verified: false`), never a problem.
 * CHALLENGE_*: the challenge itself; the others: what the method's check found.
 */
export const CLAIM_REFUSALS = [
  'CHALLENGE_UNKNOWN',
  'CHALLENGE_EXPIRED',
  'CHALLENGE_USED',
  'CHALLENGE_EXHAUSTED',
  // signature
  'JWS_MISSING',
  'JWS_MALFORMED',
  'JWS_UNSUPPORTED',
  'PAYLOAD_MISMATCH',
  'SIGNER_MISMATCH',
  'DID_UNRESOLVED',
  'DID_DEACTIVATED',
  'KEY_NOT_FOUND',
  'KEY_NOT_AUTHENTICATION',
  'SIGNATURE_INVALID',
  // well-known and dns
  'TOKEN_MISMATCH',
  'FILE_NOT_FOUND',
  'FILE_UNAVAILABLE',
  'FILE_TOO_LARGE',
  'HOST_UNREACHABLE',
  'EGRESS_BLOCKED',
  'RECORD_ABSENT',
  'DNS_UNAVAILABLE',
] as const;
export type ClaimRefusalCode = (typeof CLAIM_REFUSALS)[number];

/** How long a challenge holds by default, and at most, by method (seconds). */
export const CHALLENGE_TTL: Readonly<Record<ClaimMethod, { default: number; max: number }>> = {
  signature: { default: 600, max: 900 },
  'well-known': { default: 3600, max: 86_400 },
  dns: { default: 3600, max: 86_400 },
};
/** Verification attempts one challenge allows (a typo or a slow DNS update need not cost a new token). */
export const CHALLENGE_ATTEMPTS = 5;
/** Unexpired, unused challenges the service keeps at once; beyond it creation answers 503 CAPACITY_EXHAUSTED. */
export const CHALLENGE_LIMIT = 10_000;
/**
 * The shares of that pool by default (SVC_CLAIM_PENDING_PER_CLIENT, _PER_DID;
 * docs/operations.md#fair-shares): one client holds at most 20 pending challenges, one DID at most
 * 10 — unless the client asking holds none of the DID's. A controller needs one challenge per
 * proof; 20 leave room for several DIDs and methods, and 500 clients would be needed to fill the
 * pool. Beyond a client's or a DID's share: 429 RATE_LIMITED, Retry-After until one of them
 * expires.
 */
export const CHALLENGE_PENDING_LIMITS: Readonly<PendingLimits> = { total: CHALLENGE_LIMIT, perClient: 20, perDid: 10 };
/** A signature claim holds 30 days: nothing can re-check a key holder's act. */
export const SIGNATURE_CLAIM_SECONDS = 30 * 86_400;
/** A re-checkable claim (well-known, dns) holds this many re-check intervals after its last successful check. */
export const RECHECK_LIFETIME_INTERVALS = 7;
/** Directory page sizes. */
export const DIRECTORY_LIMIT = { min: 1, max: 50, default: 20 } as const;
/** DID methods the directory filters by. */
export const DIRECTORY_METHODS = ['web', 'key', 'jwk', 'webvh'] as const;
/** Longest free-text query of the directory, in characters. */
export const DIRECTORY_Q_MAX = 100;

/** Bytes of /.well-known/svc-claim.txt read at most. */
export const CLAIM_FILE_MAX_BYTES = 1024;

/** What the controller is asked to do for one challenge (the 201 answer's instructions). */
export interface ChallengeTerms {
  did: string;
  method: ClaimMethod;
  purpose: ClaimPurpose;
  token: string;
  createdAt: string;
  expiresAt: string;
  /** How many verification attempts the challenge allows. */
  attemptsAllowed: number;
  /** One paragraph: what to do, then how to submit. */
  instructions: string;
  /**
   * signature: the statement to sign and its exact JWS payload (base64url of the statement's RFC
   * 8785 form): the compact JWS must carry this payload, a `kid` naming a key of the DID listed
   * under `authentication`, and a signature by it.
   */
  signature: { statement: Record<string, unknown>; payload: string; relationship: 'authentication' } | null;
  /** well-known: the URL and a line it must hold (other lines may hold other tokens). */
  wellKnown: { url: string; content: string } | null;
  /** dns: the record to publish (any one TXT record at the name may hold it). */
  dns: { name: string; type: 'TXT'; value: string } | null;
}

/** A proof check's finding: what acted (StoredClaim.subject), or why not. */
export type ProofCheck =
  | { ok: true; subject: string }
  /**
   * `definitive`: the finding is about the proof (it is absent or wrong) — a re-check lapses the
   * claim; false: the proof could not be reached (host, resolver, egress) — no verdict.
   */
  | { ok: false; code: ClaimRefusalCode; reason: string; definitive: boolean };
