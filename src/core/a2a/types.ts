/**
 * A2A agent-card inspection: enumerations, limits and the
 * result shape, shared by the core, the daemon route and the CLI.
 *
 * Everything a card says about its agent (name, provider, skills, security schemes) is the
 * agent's own claim. svc reports it beside what it could check itself (where the card was
 * served, over which TLS, whether a signature verifies with a key svc found) and never merges
 * the two; what a result does not show is in its `limitations`.
 */
import type { JsonObject } from '../encoding/json.js';
import type { TlsEvidence } from '../net.js';

/** The largest card svc reads: 512 KiB. */
export const A2A_CARD_MAX_BYTES = 512 * 1024;
/** The largest JWK set fetched from a signature's `jku`. */
export const A2A_JWKS_MAX_BYTES = 64 * 1024;
/**
 * Signatures verified per card. Each may name its own `jku` or DID, so without a bound one card
 * could make svc fetch thousands of URLs; entries past the bound are reported INDETERMINATE.
 */
export const A2A_MAX_SIGNATURES = 8;

/** Well-known path of the card since A2A 0.3 (`agent-card.json`). */
export const A2A_CARD_PATH = '/.well-known/agent-card.json';
/** Well-known path up to A2A 0.2.6, tried when the current one answers 404 or 410. */
export const A2A_LEGACY_CARD_PATH = '/.well-known/agent.json';
/** Request header naming the protocol version the client speaks (A2A 1.0 §3.2.6); lower-case for the fetcher. */
export const A2A_VERSION_HEADER = 'a2a-version';
/** The version svc asks for: an SDK with 0.3 compatibility answers a missing header with a 0.3 card. */
export const A2A_REQUESTED_VERSION = '1.0';

export const A2A_SPEC_VERSIONS = ['1.0', '0.3', 'unknown'] as const;
export type A2aSpecVersion = (typeof A2A_SPEC_VERSIONS)[number];

export const A2A_SIGNATURE_STATUSES = ['VALID', 'INVALID', 'UNSUPPORTED', 'INDETERMINATE'] as const;
export type A2aSignatureStatus = (typeof A2A_SIGNATURE_STATUSES)[number];

/**
 * Payloads a card signature is checked against, in the order tried: `a2a-1.0` is the
 * A2A 1.0 §8.4.1 form (proto3 presence normalisation, then RFC 8785) as @a2a-js/sdk computes it;
 * `rfc8785` is plain RFC 8785 of the card without `signatures`.
 */
export const A2A_CANONICALIZATIONS = ['a2a-1.0', 'rfc8785'] as const;
export type A2aCanonicalization = (typeof A2A_CANONICALIZATIONS)[number];

/**
 * The eight checks, in the order reported (semantics: inspect.ts), and `drift`, reported last and
 * only when the card was compared with an approved baseline (baseline.ts).
 */
export const A2A_CHECK_IDS = ['fetch', 'schema', 'version', 'interfaces', 'origin', 'provider', 'security', 'signature', 'drift'] as const;
export type A2aCheckId = (typeof A2A_CHECK_IDS)[number];

export const A2A_CHECK_STATUSES = ['PASS', 'WARN', 'FAIL', 'SKIP'] as const;
export type A2aCheckStatus = (typeof A2A_CHECK_STATUSES)[number];

export interface A2aCheck {
  id: A2aCheckId;
  label: string;
  status: A2aCheckStatus;
  detail: string;
}

/** One way to reach the agent, as the card declares it. */
export interface A2aInterface {
  url: string | null;
  /** `JSONRPC`, `GRPC`, `HTTP+JSON` or another open string; for a 0.3 card its `preferredTransport`/`transport`. */
  protocolBinding: string | null;
  protocolVersion: string | null;
  /** The URL parses and its scheme is https. */
  https: boolean;
  /** The URL's origin is the card's origin (the URL the card was finally served from). */
  sameOrigin: boolean;
}

/** The provider the card names (self-reported). */
export interface A2aProvider {
  organization: string | null;
  url: string | null;
}

/** One skill as the card declares it; the full entry stays in `card`. */
export interface A2aSkill {
  id: string | null;
  name: string | null;
  description: string | null;
  tags: string[];
}

export interface A2aSignature {
  /** From the protected header, when it could be read. */
  alg: string | null;
  kid: string | null;
  /** From the protected header, else the unprotected `header`. */
  jku: string | null;
  status: A2aSignatureStatus;
  /** One line: why, and with which key and payload. */
  detail: string;
  /** The payload form that verified; null unless VALID. */
  canonicalization: A2aCanonicalization | null;
  /**
   * RFC 7638 thumbprint (SHA-256, base64url) of the public key svc found for this signature (from
   * the DID document or the JWK set), whether or not the signature verified with it; null when no
   * key was found. What an approved baseline pins as the card's signing key.
   */
  keyThumbprint: string | null;
}

export interface A2aInspection {
  /** The URL the card was served from (after redirects). */
  cardUrl: string;
  /** The HTTP status of the card's fetch; 0 when the card was supplied from a file (no exchange). */
  httpStatus: number;
  /** SHA-256 of the body bytes as received, hex. */
  cardSha256: string;
  /** SHA-256 of the RFC 8785 form of the whole card as received (signatures included), hex. */
  canonicalSha256: string;
  /** Profile of `canonicalSha256` (`rfc8785-binary64-v1`, canonical.ts). */
  hashProfile: string;
  specVersion: A2aSpecVersion;
  name: string | null;
  description: string | null;
  version: string | null;
  provider: A2aProvider | null;
  documentationUrl: string | null;
  interfaces: A2aInterface[];
  capabilities: JsonObject | null;
  securitySchemes: JsonObject | null;
  skills: A2aSkill[];
  signatures: A2aSignature[];
  checks: A2aCheck[];
  headline: string;
  /** The parsed card exactly as received. */
  card: JsonObject;
  tls: TlsEvidence | null;
  /** RFC 3339 UTC: when the card was fetched. */
  observedAt: string;
  limitations: string[];
  /** Present only when the card was compared with an approved baseline (`--baseline`, or one in the request body). */
  baseline?: A2aBaselineComparison;
}

/** Items of one kind (skills, interfaces, signing keys) added, removed and changed against a baseline. */
export interface A2aItemChanges {
  added: string[];
  removed: string[];
  /** Each with the members that differ. */
  changed: Array<{ key: string; changedFields: string[] }>;
}

/** A card compared with its approved entry (baseline.ts). */
export interface A2aBaselineComparison {
  /** The baseline as named: the file given to --baseline, or `the request body`. */
  file: string;
  /** The card's entry in it (the card URL as approved). */
  name: string;
  /** SHA-256 of the RFC 8785 form of that entry. */
  entrySha256: string;
  status: 'UNCHANGED' | 'CHANGED';
  /** Top-level members of the card (without `signatures`; skills apart) that differ. Sorted. */
  card: string[];
  /** Keyed by skill id (`#<index>` for a skill without one). */
  skills: A2aItemChanges;
  /** Keyed by interface URL (`#<index>` without one). */
  interfaces: A2aItemChanges;
  /** Keyed by the signature's kid (`#<index>` without one): alg, jku and the key's thumbprint. */
  signingKeys: A2aItemChanges;
}

/** Statements added to `limitations`, each under the condition named. */
export const A2A_LIMITATIONS = {
  /** Always. */
  selfReported: "Provider, skills and security schemes are the agent's own claims.",
  /** Always. */
  cardOnly: 'svc fetched only the card; it did not call the agent at any of its interfaces.',
  /** Instead of cardOnly, when the card was supplied from a file (verify from files). */
  suppliedCardOnly: 'svc read only the card supplied from a file; it neither fetched it from the agent nor called the agent at any of its interfaces.',
  /** No signature entry. */
  unsigned: 'The card is unsigned: nothing binds it to a key.',
  /** A signature names its key by DID URL. */
  didKid: 'Keys from a DID `kid` are an svc extension; the A2A specification names only kid/jku and trusted stores.',
  /** A signature's key came from a `jku`. */
  jku: 'A `jku` key proves only that whoever controls that URL signed the card.',
  /** Signed, and the card has members the A2A 1.0 canonical form leaves out. */
  uncovered: 'Fields outside the A2A 1.0 schema are not covered by an a2a-1.0 signature.',
  /** Signed, and an a2a-1.0 canonical form drops security entries that carry meaning (e.g. a requirement with no scopes). */
  droppedSecurity:
    'Security entries that the A2A 1.0 canonical form drops as empty (a requirement with no scopes, a scheme with no settings) are not covered by an a2a-1.0 signature.',
} as const;
