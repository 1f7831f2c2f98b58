/**
 * What svc reports about a did:webvh log (`evidence.history`:
 * docs/evidence.md#what-the-result-carries): one record per log entry, the witness file, and where
 * verification stopped. Everything here is plain JSON.
 */

/** The check an entry failed, named after the did:webvh resolution steps. */
export const WEBVH_CHECKS = [
  /**
   * The entry follows a version of the specification svc does not implement (its `method`):
   * not a fault of the log, so the entry is UNVERIFIED, not FAILED, and the answer
   * FEATURE_NOT_SUPPORTED.
   */
  'method',
  /** The line is not a JSON object, or has duplicate members. */
  'json',
  /** Members of the entry (versionId, versionTime, parameters, state, proof) are missing or mistyped. */
  'structure',
  /** A parameter is missing, unknown, mistyped or not allowed here. */
  'parameters',
  /** The first entry's SCID does not hash to `parameters.scid`, or differs from the DID's. */
  'scid',
  /** The versionId number is not the previous one plus one. */
  'versionId',
  /** The entry hash does not chain to the previous versionId. */
  'entryHash',
  /** versionTime is not UTC, not after the previous entry's, or more than 5 minutes ahead. */
  'versionTime',
  /** state.id is not a did:webvh with this SCID. */
  'stateId',
  /** The proof is missing, not eddsa-jcs-2022, not by an active update key, or does not verify. */
  'proof',
  /** An updateKeys key is not committed to by the previous nextKeyHashes. */
  'preRotation',
  /** An entry follows a deactivation. */
  'deactivated',
  /** The witness threshold for the entry is not met. */
  'witness',
] as const;
export type WebvhCheck = (typeof WEBVH_CHECKS)[number];

/** Checks whose failure means the hash chain or self-certification is broken (integrity). */
export const CHAIN_CHECKS: ReadonlySet<WebvhCheck> = new Set(['scid', 'versionId', 'entryHash', 'stateId']);
/** Checks whose failure means an update was not authorised (control). */
export const AUTHORITY_CHECKS: ReadonlySet<WebvhCheck> = new Set(['proof', 'preRotation', 'witness', 'deactivated']);

/**
 * VERIFIED: every check passed (witness approval included). FAILED: the first failing entry.
 * UNVERIFIED: after a failure; the chain is broken, so the entry cannot be verified.
 */
export type WebvhEntryStatus = 'VERIFIED' | 'FAILED' | 'UNVERIFIED';

export interface WebvhWitnessRequirement {
  threshold: number;
  /** Distinct governing witnesses whose verified proof covers this entry (v0.5: the sum of their weights). */
  approvals: number;
}

export interface WebvhEntryEvidence {
  /** As written in the log (null when the line could not be read). */
  versionId: string | null;
  versionNumber: number;
  versionTime: string | null;
  status: WebvhEntryStatus;
  /** Failed check and its reason (FAILED only). */
  check: WebvhCheck | null;
  reason: string | null;
  /** state.id of this version (a portable DID may move). */
  documentId: string | null;
  /** The specification version (the `method` parameter, e.g. did:webvh:0.5) the entry was verified under; null when it was not. */
  method: string | null;
  /** The multikey whose proof authorised the entry. */
  signedBy: string | null;
  /** Parameters this entry sets (by name). */
  changes: string[];
  /** Update keys active after this entry. */
  updateKeys: string[];
  /** Pre-rotation is active after this entry (nextKeyHashes non-empty). */
  preRotation: boolean;
  /** The witness rule that governs this entry, with its approvals; null when unwitnessed. */
  witness: WebvhWitnessRequirement | null;
  deactivated: boolean;
}

export interface WebvhWitnessFileEvidence {
  /** NOT_REQUIRED: no verified entry needs witnessing, the file was not fetched. */
  status: 'NOT_REQUIRED' | 'FOUND' | 'NOT_PUBLISHED' | 'INVALID';
  url: string;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  sha256: string | null;
  /** Proofs that counted towards a threshold. */
  acceptedProofs: number;
  /** Proofs set aside, with why (unknown versionId, not a listed witness, bad signature …). */
  discarded: Array<{ versionId: string | null; verificationMethod: string | null; reason: string }>;
  /** Why the file is INVALID (unreadable); null otherwise. */
  reason: string | null;
}

export interface HistoryEvidence {
  scid: string;
  /** Every line of the log, in order. */
  entries: WebvhEntryEvidence[];
  witness: WebvhWitnessFileEvidence;
  /** Number of leading entries that verified. */
  verifiedEntries: number;
  /** The version served (its versionNumber). */
  selectedVersion: number;
  /** The first failure, if the log does not verify to its end. */
  failure: { versionNumber: number; check: WebvhCheck; reason: string } | null;
  /** Leading entries taken from an earlier verification of the same bytes (prefix cache). */
  reusedEntries: number;
  /**
   * The log compared with the one svc kept from earlier verifications (core/webvh/kept-log.ts);
   * absent when the resolution had no store (nothing kept, nothing compared).
   */
  keptLog?: KeptLogEvidence;
}

/** One side of a divergence between a kept log and a served one. */
export interface RewriteSide {
  versionId: string | null;
  versionTime: string | null;
  /** SHA-256 (hex) of the entry's RFC 8785 form, proof included (of its text when it is not JSON). */
  entryHash: string;
}

/** The first entry where a served log stopped extending the kept one. */
export interface LogRewrite {
  versionNumber: number;
  /** CHANGED: another entry at this position; REMOVED: the served log ends before it. */
  kind: 'CHANGED' | 'REMOVED';
  kept: RewriteSide;
  /** null when the entry was removed. */
  served: RewriteSide | null;
  /** When svc first saw this rewrite (RFC 3339 UTC). */
  detectedAt: string;
}

/**
 * FIRST_KEPT: nothing was kept, the verified entries are now; UNCHANGED: the log is the kept one;
 * EXTENDED: the log is the kept one and more (its new verified entries are now kept);
 * REWRITTEN: the log does not extend the kept one; NOT_COMPARED: the store could not be read.
 */
export type KeptLogStatus = 'FIRST_KEPT' | 'UNCHANGED' | 'EXTENDED' | 'REWRITTEN' | 'NOT_COMPARED';

export interface KeptLogEvidence {
  status: KeptLogStatus;
  /** Entries kept before this resolution. */
  keptEntries: number;
  /** Entries this resolution added to the kept log. */
  appendedEntries: number;
  /** When the log was first kept (null when nothing was). */
  keptSince: string | null;
  /** The kept log is at its bound (entries or bytes): later entries are neither kept nor compared. */
  atBound: boolean;
  /** REWRITTEN: where; null otherwise. */
  rewrite: LogRewrite | null;
  /** NOT_COMPARED: why; null otherwise. */
  reason: string | null;
}
