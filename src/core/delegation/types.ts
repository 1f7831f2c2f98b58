/**
 * Delegation receipts and chains (docs/delegation.md): a service-defined, experimental
 * format. Enumerations are `as const` tables shared by the CLI, the daemon and the registry.
 */
import type { CheckStatus } from '../credentials/types.js';

/** The receipt format label (the chain result's `format`). */
export const RECEIPT_FORMAT = 'svc-delegation-receipt-v1 (experimental)';
/** The protected header `typ` of a receipt. */
export const RECEIPT_TYP = 'svc-delegation+jwt';
export const RECEIPT_ALGORITHMS = ['EdDSA', 'ES256', 'ES256K'] as const;
export type ReceiptAlgorithm = (typeof RECEIPT_ALGORITHMS)[number];

export const MAX_CHAIN_LENGTH = 8;
export const MAX_CAPABILITIES = 64;
/** Longest capability string accepted. */
export const MAX_CAPABILITY_LENGTH = 256;
/** Clock skew tolerated on `nbf`, seconds. */
export const NBF_SKEW_SECONDS = 60;

export const CHAIN_STATUSES = ['VALID', 'INVALID', 'INDETERMINATE', 'MALFORMED'] as const;
export type ChainStatus = (typeof CHAIN_STATUSES)[number];

/**
 * Check ids. `depth` and `trustedRoot` are chain checks; the others are checks of one link:
 * `receipt` (the receipt's own format), `signature`, `chaining` (iss = previous aud), `prf`,
 * `window`, `capabilities`, `validity`, `cycle` (chain.ts says what each holds).
 */
export const CHAIN_CHECK_IDS = ['depth', 'trustedRoot'] as const;
export const LINK_CHECK_IDS = ['receipt', 'signature', 'chaining', 'prf', 'window', 'capabilities', 'validity', 'cycle'] as const;
export type ChainCheckId = (typeof CHAIN_CHECK_IDS)[number];
export type LinkCheckId = (typeof LINK_CHECK_IDS)[number];

export interface DelegationCheck<Id extends string = string> {
  id: Id;
  label: string;
  status: CheckStatus;
  detail: string;
}

export interface DelegationLink {
  index: number;
  issuer: string | null;
  audience: string | null;
  capabilities: string[];
  /** RFC 3339 UTC of `nbf` (or `iat` when there is no nbf). */
  notBefore: string | null;
  expires: string | null;
  jti: string | null;
  kid: string | null;
  alg: string | null;
  /** Hex SHA-256 of the receipt's compact serialisation (what a child's `prf` names). */
  digest: string;
  signatureValid: boolean;
  status: ChainStatus;
  /** Headline of the issuer DID's resolution, or why it did not resolve. */
  issuerHeadline: string | null;
  checks: Array<DelegationCheck<LinkCheckId>>;
}

export interface DelegationChainResult {
  status: ChainStatus;
  headline: string;
  format: string;
  /** The root issuer (first link's iss). */
  root: string | null;
  /** The leaf delegate (last link's aud): the agent the chain empowers. */
  leaf: string | null;
  /** The leaf's capabilities when VALID; [] otherwise. */
  effectiveCapabilities: string[];
  /** RFC 3339 UTC: the earliest expiry along the chain, when VALID. */
  notAfter: string | null;
  /** The root DID when `trustedRoots` was given and listed it; null otherwise. */
  trustedRoot: string | null;
  links: DelegationLink[];
  checks: Array<DelegationCheck<ChainCheckId>>;
  limitations: string[];
}

export const DECISIONS = ['ALLOW', 'DENY'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Authorization {
  agent: string | null;
  tool: string;
  decision: Decision;
  authorized: boolean;
  reason: string;
  /** Only when a capability matched. */
  matchedCapability?: string;
  root?: string;
  expires?: string;
}
