/**
 * Schemas of the verification routes (docs/credentials.md): credential verification,
 * compact JWS fast-verify and policy evaluation. Result objects are closed (`additionalProperties:
 * false`) like svc's result types, so the contract test catches drift; members holding what the
 * input carried (claims, a JWS payload, a rule's expected and observed values) are open JSON.
 * test/unit/schemas-agents-types.test.ts holds these schemas and the core types together.
 */
import Type, { type TSchema } from 'typebox';
import { MAX_TRUSTED_ISSUERS } from '../../core/policy/trusted-issuers.js';

const NullableString = () => Type.Union([Type.String(), Type.Null()]);
const NullableInteger = () => Type.Union([Type.Integer(), Type.Null()]);

/** Status of one check of a credential or a delegation (`checks[]`). */
export const CheckStatusSchema = Type.Union(
  [Type.Literal('PASS'), Type.Literal('FAIL'), Type.Literal('WARN'), Type.Literal('SKIP'), Type.Literal('UNSUPPORTED'), Type.Literal('INDETERMINATE')],
  { $id: 'CheckStatus' },
);

export const CredentialCheckSchema = Type.Object(
  {
    id: Type.Union([
      Type.Literal('structure'),
      Type.Literal('issuer'),
      Type.Literal('proof'),
      Type.Literal('validity'),
      Type.Literal('status'),
      Type.Literal('jwt.aud'),
      Type.Literal('kb.nonce'),
    ]),
    label: Type.String(),
    status: Type.Ref('CheckStatus'),
    detail: Type.String(),
  },
  { $id: 'CredentialCheck', additionalProperties: false },
);

/** A credential's (and a presentation's) overall status. */
export const CredentialStatus = () =>
  Type.Union([
    Type.Literal('VALID'),
    Type.Literal('INVALID'),
    Type.Literal('EXPIRED'),
    Type.Literal('NOT_YET_VALID'),
    Type.Literal('REVOKED'),
    Type.Literal('SUSPENDED'),
    Type.Literal('UNSUPPORTED'),
    Type.Literal('INDETERMINATE'),
    Type.Literal('MALFORMED'),
  ]);

const CredentialFormat = () =>
  Type.Union([Type.Literal('DATA_INTEGRITY'), Type.Literal('VC_JOSE_COSE'), Type.Literal('VC_JWT_1_1'), Type.Literal('SD_JWT_VC'), Type.Literal('UNKNOWN')]);

/** An SD-JWT VC's key binding JWT as checked (svc's addition). */
export const KeyBindingSummarySchema = Type.Object(
  {
    status: Type.Union([Type.Literal('PASS'), Type.Literal('FAIL')]),
    audience: NullableString(),
    nonce: NullableString(),
    issuedAt: NullableString(),
    detail: Type.String(),
  },
  { $id: 'KeyBindingSummary', additionalProperties: false },
);

/** What an SD-JWT VC presentation disclosed (svc's addition to the documented result): paths and a count, never a hidden value. */
export const DisclosureSummarySchema = Type.Object(
  {
    /** The disclosed claims as JSON Pointers, in document order. */
    disclosed: Type.Array(Type.String()),
    /** Digests no disclosure matched: claims not shown, or decoys. */
    undisclosed: Type.Integer({ minimum: 0 }),
    keyBinding: Type.Union([Type.Ref('KeyBindingSummary'), Type.Null()]),
  },
  { $id: 'DisclosureSummary', additionalProperties: false },
);

export const ProofSummarySchema = Type.Object(
  {
    format: CredentialFormat(),
    /** Cryptosuite (`eddsa-jcs-2022`) or JWS algorithm (`EdDSA`). */
    suite: NullableString(),
    verificationMethod: NullableString(),
    proofPurpose: NullableString(),
    created: NullableString(),
    keyCurve: NullableString(),
    /** Hex SHA-256 of the exact bytes the signature covers. */
    signedDigest: NullableString(),
    detail: Type.String(),
  },
  { $id: 'ProofSummary', additionalProperties: false },
);

export const StatusListEntrySchema = Type.Object(
  {
    statusType: NullableString(),
    purpose: NullableString(),
    index: NullableInteger(),
    listUrl: NullableString(),
    statusSize: NullableInteger(),
    listCredentialVerified: Type.Boolean(),
    listLengthBits: NullableInteger(),
    value: NullableInteger(),
    result: Type.Union([
      Type.Literal('ACTIVE'),
      Type.Literal('REVOKED'),
      Type.Literal('SUSPENDED'),
      Type.Literal('UNSUPPORTED'),
      Type.Literal('INDETERMINATE'),
    ]),
    /** The 8 bits of the list byte holding the entry, left-most bit first. */
    window: NullableString(),
    windowOffset: NullableInteger(),
    detail: Type.String(),
  },
  { $id: 'StatusListEntry', additionalProperties: false },
);

export const IssuerResolutionSummarySchema = Type.Object(
  {
    did: Type.String(),
    outcome: Type.Union([Type.Ref('Outcome'), Type.Null()]),
    headline: NullableString(),
    /** The problem code when the issuer DID could not be resolved. */
    problem: NullableString(),
    detail: Type.String(),
  },
  { $id: 'IssuerResolutionSummary', additionalProperties: false },
);

/** Whether a credential's issuer is among the trusted issuers the caller gave (svc's addition), decided beside the verification. */
export const IssuerTrustSchema = Type.Object(
  {
    /** PASS listed; FAIL not listed (or not a DID); INDETERMINATE an empty list or no issuer read. */
    status: Type.Union([Type.Literal('PASS'), Type.Literal('FAIL'), Type.Literal('INDETERMINATE')]),
    /** The issuer as the credential states it. */
    issuer: NullableString(),
    /** The entry that matched (PASS only). */
    matched: NullableString(),
    /** The entries as given. */
    trustedIssuers: Type.Array(Type.String()),
    detail: Type.String(),
  },
  { $id: 'IssuerTrust', additionalProperties: false },
);

/** Trusted issuer entries as a request gives them: DIDs and did:web/did:webvh domain forms. */
const TrustedIssuers = (description: string) =>
  Type.Array(Type.String(), {
    maxItems: MAX_TRUSTED_ISSUERS,
    description: `${description} Entries: DIDs, matched exactly, and did:web or did:webvh domain forms: "did:web:*.example.com" (every subdomain of example.com, not example.com itself) and "did:web:example.com:*" (example.com and every path below it); a bad entry is refused (400).`,
  });

/** The verification of a credential. */
export const CredentialVerificationSchema = Type.Object(
  {
    status: CredentialStatus(),
    headline: Type.String(),
    format: CredentialFormat(),
    dataModel: Type.Union([Type.Literal('2.0'), Type.Literal('1.1'), Type.Literal('unknown')]),
    issuer: NullableString(),
    subject: NullableString(),
    types: Type.Array(Type.String()),
    validFrom: NullableString(),
    validUntil: NullableString(),
    /** The credential subject's claims (an array of them for several subjects). */
    claims: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Record(Type.String(), Type.Unknown())), Type.Null()]),
    checks: Type.Array(Type.Ref('CredentialCheck')),
    proof: Type.Union([Type.Ref('ProofSummary'), Type.Null()]),
    statusList: Type.Array(Type.Ref('StatusListEntry')),
    issuerResolution: Type.Union([Type.Ref('IssuerResolutionSummary'), Type.Null()]),
    limitations: Type.Array(Type.String()),
    valid: Type.Boolean(),
    errors: Type.Array(Type.String()),
    /** SD-JWT VC only (svc's addition): absent for the other formats; null when the disclosures could not be read. */
    disclosures: Type.Optional(Type.Union([Type.Ref('DisclosureSummary'), Type.Null()])),
    /** Only when the request gave trustedIssuers (svc's addition): status and valid are unchanged by it. */
    issuerTrust: Type.Optional(Type.Ref('IssuerTrust')),
  },
  { $id: 'CredentialVerification', additionalProperties: false },
);

/** The verification of a compact JWS. */
export const JwsVerificationSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('VALID'), Type.Literal('INVALID'), Type.Literal('UNSUPPORTED'), Type.Literal('INDETERMINATE'), Type.Literal('MALFORMED')]),
    valid: Type.Boolean(),
    headline: Type.String(),
    alg: NullableString(),
    kid: NullableString(),
    typ: NullableString(),
    /** The payload: its JSON object when it is one, otherwise its base64url text (null when unreadable). */
    payload: Type.Unknown(),
    /** Hex SHA-256 of the signing input; null when the token has no such parts. */
    signingInputSha256: NullableString(),
    /** Only when a key was found. */
    signer: Type.Optional(Type.String()),
    /** Only when a key was found. */
    relationship: Type.Optional(Type.Ref('Relationship')),
  },
  { $id: 'JwsVerification', additionalProperties: false },
);

const PolicyRuleName = () =>
  Type.Union([
    Type.Literal('didResolution'),
    Type.Literal('allowedMethods'),
    Type.Literal('allowedCurves'),
    Type.Literal('allowedKeySuites'),
    Type.Literal('minKeyBits'),
    Type.Literal('requireKeyRelationship'),
    Type.Literal('domainBinding'),
    Type.Literal('tlsMinDaysRemaining'),
    Type.Literal('verifiableHistory'),
    Type.Literal('maxCacheAgeSeconds'),
    Type.Literal('credentialStatus'),
    Type.Literal('credentialIssuerMustBeSubject'),
    Type.Literal('trustedIssuers'),
  ]);

export const RuleEvaluationSchema = Type.Object(
  {
    rule: PolicyRuleName(),
    status: Type.Union([Type.Literal('PASS'), Type.Literal('FAIL'), Type.Literal('INDETERMINATE')]),
    message: Type.String(),
    /** The rule's value as the policy gives it. */
    expected: Type.Unknown(),
    /** What was seen; null when nothing could be observed. */
    observedValue: Type.Unknown(),
  },
  { $id: 'RuleEvaluation', additionalProperties: false },
);

/** The evaluation of a policy. */
export const PolicyEvaluationSchema = Type.Object(
  {
    did: Type.String(),
    policyName: NullableString(),
    /** NOT_APPLICABLE is in the documented enumeration; svc's engine never produces it. */
    status: Type.Union([Type.Literal('PASS'), Type.Literal('FAIL'), Type.Literal('INDETERMINATE'), Type.Literal('NOT_APPLICABLE')]),
    headline: Type.String(),
    rulesEvaluated: Type.Integer({ minimum: 0 }),
    rulesPassed: Type.Integer({ minimum: 0 }),
    evaluations: Type.Array(Type.Ref('RuleEvaluation')),
    /** RFC 3339 UTC, second precision. */
    evaluatedAt: Type.String(),
  },
  { $id: 'PolicyEvaluation', additionalProperties: false },
);

/** The answer of POST /v1/policies/evaluate. */
export const PolicyDecisionSchema = Type.Object(
  {
    evaluation: Type.Ref('PolicyEvaluation'),
    /** The verification of the supplied credential; null when none was supplied. */
    credential: Type.Union([Type.Ref('CredentialVerification'), Type.Null()]),
    /** The verdict and dimensions of the DID's resolution; null when it did not resolve. */
    resolution: Type.Union([
      Type.Object({ verdict: Type.Ref('Verdict'), dimensions: Type.Array(Type.Ref('Dimension')) }, { additionalProperties: false }),
      Type.Null(),
    ]),
  },
  { $id: 'PolicyDecision', additionalProperties: false },
);

/** A credential as a request carries it: the object, the JSON text of one, or a compact JWT. */
const CredentialInput = () =>
  Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()], {
    description:
      'A credential object, the JSON text of one (raw JSON keeps duplicate members detectable), a compact JWT string, or an SD-JWT VC presentation (`<JWT>~<disclosure>~…~[<KB-JWT>]`).',
  });

/** POST /v1/credentials/verify: `{credential, expectedAudience?, expectedNonce?, trustedIssuers?}`, or a bare credential object. */
export const CredentialVerifyRequestSchema = Type.Union(
  [
    Type.Object(
      {
        credential: CredentialInput(),
        /** With it, a JWT `aud` must name it (check jwt.aud); without it, the audience is not verified. */
        expectedAudience: Type.Optional(Type.String({ minLength: 1 })),
        /** With it, an SD-JWT VC's KB-JWT `nonce` must be it (check kb.nonce); without it, replay is not excluded. */
        expectedNonce: Type.Optional(Type.String({ minLength: 1 })),
        /** With it, the answer carries issuerTrust; an empty list is INDETERMINATE, never PASS. */
        trustedIssuers: Type.Optional(
          TrustedIssuers('Whose credentials the caller accepts: the answer then carries issuerTrust (status and valid unchanged).'),
        ),
        jsonld: Type.Optional(
          Type.Boolean({
            description:
              "JSON-LD processing for this request: true requires it (400 INVALID_OPTIONS on a daemon without SVC_JSONLD=on), false turns it off; absent, the daemon's setting. With it, eddsa-rdfc-2022, ecdsa-rdfc-2019 and Ed25519Signature2020 proofs are verified over RDFC-1.0 with svc's pinned contexts, and VC-JWT credentials signed with RS256 or PS256 (RSA keys of 2048 bits or more); without it they are UNSUPPORTED.",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'A bare credential object as the whole body (no "credential" member); options need the {credential, expectedAudience, expectedNonce, trustedIssuers, jsonld} form.',
    }),
  ],
  { $id: 'CredentialVerifyRequest' },
);

/** POST /v1/fast-verify/jws. */
export const JwsVerifyRequestSchema = Type.Object(
  {
    jws: Type.String({ minLength: 1, description: 'A compact JWS whose kid is a DID URL.' }),
    /** The relationship the key must be authorised for; default assertionMethod, then authentication. */
    relationship: Type.Optional(Type.Ref('Relationship')),
  },
  { $id: 'JwsVerifyRequest', additionalProperties: false },
);

/** The rules of a policy (docs/credentials.md#policies); a policy without rules is INDETERMINATE. */
export const PolicyRulesSchema = Type.Object(
  {
    didResolution: Type.Optional(Type.Literal('required')),
    allowedMethods: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    allowedCurves: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    allowedKeySuites: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    minKeyBits: Type.Optional(Type.Integer({ minimum: 1 })),
    requireKeyRelationship: Type.Optional(Type.Ref('Relationship')),
    domainBinding: Type.Optional(Type.Union([Type.Literal('required'), Type.Literal('optional')])),
    tlsMinDaysRemaining: Type.Optional(Type.Integer({ minimum: 0 })),
    verifiableHistory: Type.Optional(Type.Literal('required')),
    maxCacheAgeSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
    credentialStatus: Type.Optional(Type.Literal('active')),
    credentialIssuerMustBeSubject: Type.Optional(Type.Boolean()),
    trustedIssuers: Type.Optional(TrustedIssuers("The credential's issuer must be among these; an empty list is INDETERMINATE.")),
  },
  { $id: 'PolicyRules', additionalProperties: false },
);

export const PolicySchema = Type.Object(
  {
    name: Type.Optional(Type.String()),
    rules: Type.Ref('PolicyRules'),
  },
  { $id: 'Policy', additionalProperties: false },
);

/** POST /v1/policies/evaluate. */
export const PolicyEvaluateRequestSchema = Type.Object(
  {
    did: Type.String({ minLength: 1, description: 'The DID whose evidence the policy is evaluated against.' }),
    policy: Type.Ref('Policy'),
    credential: Type.Optional(CredentialInput()),
  },
  { $id: 'PolicyEvaluateRequest', additionalProperties: false },
);

/** The `$id` of each resource of this file, for `Static<typeof X, typeof REFS>` (with the ids it refers to elsewhere). */
export const VERIFICATION_REFS = {
  CheckStatus: CheckStatusSchema,
  CredentialCheck: CredentialCheckSchema,
  ProofSummary: ProofSummarySchema,
  StatusListEntry: StatusListEntrySchema,
  IssuerResolutionSummary: IssuerResolutionSummarySchema,
  KeyBindingSummary: KeyBindingSummarySchema,
  DisclosureSummary: DisclosureSummarySchema,
  IssuerTrust: IssuerTrustSchema,
  CredentialVerification: CredentialVerificationSchema,
  JwsVerification: JwsVerificationSchema,
  RuleEvaluation: RuleEvaluationSchema,
  PolicyEvaluation: PolicyEvaluationSchema,
  PolicyDecision: PolicyDecisionSchema,
  CredentialVerifyRequest: CredentialVerifyRequestSchema,
  JwsVerifyRequest: JwsVerifyRequestSchema,
  PolicyRules: PolicyRulesSchema,
  Policy: PolicySchema,
  PolicyEvaluateRequest: PolicyEvaluateRequestSchema,
};

/** The $id'd resources of these routes. */
export const VERIFICATION_SCHEMAS: TSchema[] = Object.values(VERIFICATION_REFS);
