/**
 * Policy evaluation results and the rule table of POST /v1/policies/evaluate, named as in
 * openapi.json. Enumerations are `as const` tables so the daemon, the CLI
 * and the engine cannot drift apart. The semantics are documented in ./evaluate.ts.
 */
import type { CredentialVerification } from '../credentials/types.js';
import type { ProblemError } from '../problems.js';
import type { EnrichedResolution, Relationship } from '../resolve/types.js';

/**
 * Overall status of a policy. NOT_APPLICABLE is part of the documented enumeration but the engine never
 * produces it (see ./evaluate.ts): every rule in a policy is a requirement someone chose to state.
 */
export const POLICY_STATUSES = ['PASS', 'FAIL', 'INDETERMINATE', 'NOT_APPLICABLE'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

/** Status of one rule. A rule never defaults to PASS; missing evidence is INDETERMINATE. */
export const RULE_STATUSES = ['PASS', 'FAIL', 'INDETERMINATE'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

/** The thirteen rules, in the order of the table in docs/credentials.md#policies. */
export const POLICY_RULES = [
  'didResolution',
  'allowedMethods',
  'allowedCurves',
  'allowedKeySuites',
  'minKeyBits',
  'requireKeyRelationship',
  'domainBinding',
  'tlsMinDaysRemaining',
  'verifiableHistory',
  'maxCacheAgeSeconds',
  'credentialStatus',
  'credentialIssuerMustBeSubject',
  'trustedIssuers',
] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

export function isPolicyRule(value: unknown): value is PolicyRule {
  return typeof value === 'string' && (POLICY_RULES as readonly string[]).includes(value);
}

/** The value each rule takes once validated. */
export interface PolicyRuleValues {
  didResolution: 'required';
  /** Method names, written `web` or `did:web`; kept as given (normalised only when compared). */
  allowedMethods: string[];
  /** Signing curve names (Ed25519, P-256, P-384, P-521, secp256k1). */
  allowedCurves: string[];
  /** Verification method types, e.g. Multikey, JsonWebKey2020. */
  allowedKeySuites: string[];
  /** Key size in bits (CURVE_BITS: the curve's field size, e.g. Ed25519 256, P-384 384); a positive integer. */
  minKeyBits: number;
  requireKeyRelationship: Relationship;
  domainBinding: 'required' | 'optional';
  /** Whole days; a non-negative integer. */
  tlsMinDaysRemaining: number;
  verifiableHistory: 'required';
  /** Seconds; a non-negative integer. */
  maxCacheAgeSeconds: number;
  credentialStatus: 'active';
  credentialIssuerMustBeSubject: boolean;
  /** Trusted issuer entries (./trusted-issuers.ts): DIDs and did:web/did:webvh domain forms; at most MAX_TRUSTED_ISSUERS, possibly none. */
  trustedIssuers: string[];
}

/** A validated policy (see parsePolicy). Rules keep the order of the policy document. */
export interface Policy {
  name: string | null;
  rules: Partial<PolicyRuleValues>;
}

export interface RuleEvaluation {
  rule: PolicyRule;
  status: RuleStatus;
  /** One plain sentence. */
  message: string;
  /** The rule's value as the policy gives it. */
  expected: unknown;
  /** What was seen; null when nothing could be observed. */
  observedValue: unknown;
}

export interface PolicyEvaluation {
  did: string;
  policyName: string | null;
  status: PolicyStatus;
  /** One sentence. */
  headline: string;
  rulesEvaluated: number;
  rulesPassed: number;
  evaluations: RuleEvaluation[];
  /** RFC 3339 UTC, second precision. */
  evaluatedAt: string;
}

/** What a policy is evaluated against: gathered by the caller, never fetched by the engine. */
export interface PolicyEvidence {
  /** The resolution of the DID, or null when it could not be resolved. */
  resolution: EnrichedResolution | null;
  /** Why it could not be resolved (null when it resolved). */
  resolutionProblem: ProblemError | null;
  /** The verification of a supplied credential, or null when none was supplied. */
  credential: CredentialVerification | null;
}
