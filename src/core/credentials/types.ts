/**
 * Credential verification results (`CredentialVerification` in openapi.json). Enumerations are
 * `as const` tables so the CLI, the daemon and the policy engine cannot drift apart.
 */
import type { IssuerTrust } from '../policy/trusted-issuers.js';
import type { Outcome } from '../resolve/types.js';

export const CREDENTIAL_STATUSES = [
  'VALID',
  'INVALID',
  'EXPIRED',
  'NOT_YET_VALID',
  'REVOKED',
  'SUSPENDED',
  'UNSUPPORTED',
  'INDETERMINATE',
  'MALFORMED',
] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/** Overall status precedence, most severe first. Only VALID means accepted. */
export const STATUS_PRECEDENCE: readonly CredentialStatus[] = [
  'MALFORMED',
  'INVALID',
  'UNSUPPORTED',
  'REVOKED',
  'SUSPENDED',
  'EXPIRED',
  'NOT_YET_VALID',
  'INDETERMINATE',
  'VALID',
];

/**
 * SD_JWT_VC (an SD-JWT VC, typ dc+sd-jwt or the legacy vc+sd-jwt) is svc's addition: the result's
 * documented format values name none for it (docs/credentials.md#sd-jwt-vc, "What the result
 * adds").
 */
export const CREDENTIAL_FORMATS = ['DATA_INTEGRITY', 'VC_JOSE_COSE', 'VC_JWT_1_1', 'SD_JWT_VC', 'UNKNOWN'] as const;
export type CredentialFormat = (typeof CREDENTIAL_FORMATS)[number];

export const DATA_MODELS = ['2.0', '1.1', 'unknown'] as const;
export type DataModel = (typeof DATA_MODELS)[number];

export const CHECK_STATUSES = ['PASS', 'FAIL', 'WARN', 'SKIP', 'UNSUPPORTED', 'INDETERMINATE'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/**
 * The checks of a credential verification, in the order they are reported. `kb.nonce` compares an
 * SD-JWT VC's KB-JWT `nonce` with the caller's; the other formats carry no nonce and say so.
 */
export const CHECK_IDS = ['structure', 'issuer', 'proof', 'validity', 'status', 'jwt.aud', 'kb.nonce'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export interface CredentialCheck {
  id: CheckId;
  label: string;
  status: CheckStatus;
  detail: string;
}

export interface ProofSummary {
  /** DATA_INTEGRITY, VC_JOSE_COSE, VC_JWT_1_1 or SD_JWT_VC: how the credential is secured. */
  format: CredentialFormat;
  /** Cryptosuite (`eddsa-jcs-2022`) or JWS algorithm (`EdDSA`). */
  suite: string | null;
  /** Absolute id of the key that signed, as found (DID URL), or the `kid` as written. */
  verificationMethod: string | null;
  /** `assertionMethod` for a Data Integrity proof as written; for a JWT, the relationship the key was found under. */
  proofPurpose: string | null;
  /** Proof `created`, or the JWT `iat` as RFC 3339, when stated. */
  created: string | null;
  keyCurve: string | null;
  /** Hex SHA-256 of the exact bytes the signature covers (hashData, or the JWS signing input). */
  signedDigest: string | null;
  detail: string;
}

export const STATUS_ENTRY_RESULTS = ['ACTIVE', 'REVOKED', 'SUSPENDED', 'UNSUPPORTED', 'INDETERMINATE'] as const;
export type StatusEntryResult = (typeof STATUS_ENTRY_RESULTS)[number];

/** One `credentialStatus` entry as checked (the result's `statusList[]`). */
export interface StatusListEntry {
  /** BitstringStatusListEntry or StatusList2021Entry (or the unsupported type as written). */
  statusType: string | null;
  purpose: string | null;
  /** statusListIndex as a number once validated (a base-10 string in range), else null. */
  index: number | null;
  listUrl: string | null;
  statusSize: number | null;
  /** The list credential's own verification came out VALID. */
  listCredentialVerified: boolean;
  /** Length of the expanded bitstring in bits, when it could be decoded. */
  listLengthBits: number | null;
  /** The entry's value read from the list (0 or 1 for single-bit statuses). */
  value: number | null;
  result: StatusEntryResult;
  /** The 8 bits of the list byte holding the entry, as '0'/'1' text (left-most bit first), for inspection. */
  window: string | null;
  /** Position of the entry's bit inside `window` (0..7). */
  windowOffset: number | null;
  detail: string;
}

/** Summary of the resolution of the DID that controls the signing key (the result's `issuerResolution`). */
export interface IssuerResolutionSummary {
  did: string;
  /** RESOLVED, RESOLVED_WITH_WARNINGS or DEACTIVATED; null when it did not resolve. */
  outcome: Outcome | null;
  headline: string | null;
  /** The problem code when no answer could be produced (e.g. UPSTREAM_UNAVAILABLE). */
  problem: string | null;
  detail: string;
}

/** An SD-JWT VC's key binding JWT as checked (svc's addition to the documented result). */
export interface KeyBindingSummary {
  /** PASS: typed kb+jwt, signed by the key in `cnf.jwk`, `sd_hash` over this presentation, `iat` fresh. */
  status: 'PASS' | 'FAIL';
  /** The KB-JWT `aud`, `nonce` and `iat` (RFC 3339) when it was read that far. */
  audience: string | null;
  nonce: string | null;
  issuedAt: string | null;
  detail: string;
}

/** What an SD-JWT VC presentation disclosed (svc's addition to the documented result); never a hidden value. */
export interface DisclosureSummary {
  /** The disclosed claims as JSON Pointers into the disclosed payload (`/given_name`, `/nationalities/1`), in document order. */
  disclosed: string[];
  /** How many digests no disclosure matched: claims not disclosed, or decoys (the two cannot be told apart). */
  undisclosed: number;
  /** Null when the presentation carries no KB-JWT. */
  keyBinding: KeyBindingSummary | null;
}

export interface CredentialVerification {
  status: CredentialStatus;
  headline: string;
  format: CredentialFormat;
  dataModel: DataModel;
  issuer: string | null;
  subject: string | null;
  types: string[];
  validFrom: string | null;
  validUntil: string | null;
  /** Credential subject claims (the first subject's members, or an array of them for several). */
  claims: Record<string, unknown> | Array<Record<string, unknown>> | null;
  checks: CredentialCheck[];
  proof: ProofSummary | null;
  statusList: StatusListEntry[];
  issuerResolution: IssuerResolutionSummary | null;
  limitations: string[];
  valid: boolean;
  errors: string[];
  /** SD-JWT VC only (absent for the other formats, which keep exactly their documented members): what was disclosed; null when the disclosures could not be read. */
  disclosures?: DisclosureSummary | null;
  /** Only when trusted issuers were given (absent otherwise): whether the issuer is one of them, decided beside the verification, never changing `status`. */
  issuerTrust?: IssuerTrust;
}
