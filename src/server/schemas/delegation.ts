/**
 * Schemas of the delegation routes (docs/delegation.md#over-http): the chain result, its links and
 * checks, the Authorization, and the request bodies. Closed objects like svc's result types, so
 * the contract test catches drift. test/unit/schemas-agents-types.test.ts holds these schemas
 * and the core types (src/core/delegation/types.ts) together.
 */
import Type, { type TSchema } from 'typebox';

const NullableString = () => Type.Union([Type.String(), Type.Null()]);

export const ChainStatusSchema = Type.Union([Type.Literal('VALID'), Type.Literal('INVALID'), Type.Literal('INDETERMINATE'), Type.Literal('MALFORMED')], {
  $id: 'ChainStatus',
});

/** A check of one link: receipt, signature, chaining, prf, window, capabilities, validity, cycle (core/delegation/chain.ts). */
export const DelegationLinkCheckSchema = Type.Object(
  {
    id: Type.Union([
      Type.Literal('receipt'),
      Type.Literal('signature'),
      Type.Literal('chaining'),
      Type.Literal('prf'),
      Type.Literal('window'),
      Type.Literal('capabilities'),
      Type.Literal('validity'),
      Type.Literal('cycle'),
    ]),
    label: Type.String(),
    status: Type.Ref('CheckStatus'),
    detail: Type.String(),
  },
  { $id: 'DelegationLinkCheck', additionalProperties: false },
);

/** A check of the whole chain: depth (1 to 8 receipts), trustedRoot. */
export const DelegationChainCheckSchema = Type.Object(
  {
    id: Type.Union([Type.Literal('depth'), Type.Literal('trustedRoot')]),
    label: Type.String(),
    status: Type.Ref('CheckStatus'),
    detail: Type.String(),
  },
  { $id: 'DelegationChainCheck', additionalProperties: false },
);

export const DelegationLinkSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    issuer: NullableString(),
    audience: NullableString(),
    capabilities: Type.Array(Type.String()),
    /** RFC 3339 UTC of `nbf` (or `iat` when there is no nbf). */
    notBefore: NullableString(),
    expires: NullableString(),
    jti: NullableString(),
    kid: NullableString(),
    alg: NullableString(),
    /** Hex SHA-256 of the receipt's compact serialisation (what a child's `prf` names). */
    digest: Type.String(),
    signatureValid: Type.Boolean(),
    status: Type.Ref('ChainStatus'),
    /** Headline of the issuer DID's resolution, or why it did not resolve. */
    issuerHeadline: NullableString(),
    checks: Type.Array(Type.Ref('DelegationLinkCheck')),
  },
  { $id: 'DelegationLink', additionalProperties: false },
);

/** The verification of a chain. */
export const DelegationChainResultSchema = Type.Object(
  {
    status: Type.Ref('ChainStatus'),
    headline: Type.String(),
    /** The receipt format label (service-defined, v1, experimental). */
    format: Type.String(),
    root: NullableString(),
    leaf: NullableString(),
    /** The leaf's capabilities when VALID; [] otherwise. */
    effectiveCapabilities: Type.Array(Type.String()),
    /** RFC 3339 UTC: the earliest expiry along the chain, when VALID. */
    notAfter: NullableString(),
    /** The root DID when trustedRoots was given and listed it; null otherwise. */
    trustedRoot: NullableString(),
    links: Type.Array(Type.Ref('DelegationLink')),
    checks: Type.Array(Type.Ref('DelegationChainCheck')),
    limitations: Type.Array(Type.String()),
  },
  { $id: 'DelegationChainResult', additionalProperties: false },
);

/** The decision on one tool call; matchedCapability, root and expires only when a capability matched. */
export const AuthorizationSchema = Type.Object(
  {
    agent: NullableString(),
    tool: Type.String(),
    decision: Type.Union([Type.Literal('ALLOW'), Type.Literal('DENY')]),
    authorized: Type.Boolean(),
    reason: Type.String(),
    matchedCapability: Type.Optional(Type.String()),
    root: Type.Optional(Type.String()),
    expires: Type.Optional(Type.String()),
  },
  { $id: 'Authorization', additionalProperties: false },
);

/** The answer of POST /v1/agents/verify-delegation. */
export const DelegationVerificationSchema = Type.Object(
  {
    result: Type.Ref('DelegationChainResult'),
    registered: Type.Boolean(),
    /** svc's addition: why a requested registration did not happen (only then). */
    registrationReason: Type.Optional(Type.String()),
  },
  { $id: 'DelegationVerification', additionalProperties: false },
);

/** The answer of POST /v1/agents/authorize. */
export const AuthorizeResponseSchema = Type.Object(
  {
    authorization: Type.Ref('Authorization'),
    chain: Type.Ref('DelegationChainResult'),
  },
  { $id: 'AuthorizeResponse', additionalProperties: false },
);

/** Compact receipts, root first: 1 to 8 make a chain; 0 or 9..64 are a MALFORMED result; more is 400. */
const Chain = () =>
  Type.Array(Type.String(), {
    maxItems: 64,
    description:
      'Compact receipts (JWS), root first. 1 to 8 make a chain; an empty or longer chain is a MALFORMED result; more than 64 entries are refused (400).',
  });
const TrustedRoots = () => Type.Array(Type.String(), { maxItems: 64, description: 'Bare DIDs; the root issuer must be one of them.' });

/** POST /v1/agents/verify-delegation. */
export const VerifyDelegationRequestSchema = Type.Object(
  {
    chain: Chain(),
    trustedRoots: Type.Optional(TrustedRoots()),
    /** true: store a VALID chain in the registry (default false). */
    register: Type.Optional(Type.Boolean()),
  },
  { $id: 'VerifyDelegationRequest', additionalProperties: false },
);

/** POST /v1/agents/authorize. */
export const AuthorizeRequestSchema = Type.Object(
  {
    chain: Chain(),
    tool: Type.String({ minLength: 1, maxLength: 1024, description: 'The name of the tool to authorise.' }),
    trustedRoots: Type.Optional(TrustedRoots()),
  },
  { $id: 'AuthorizeRequest', additionalProperties: false },
);

/** GET /v1/agents/verify-tool. */
export const VerifyToolQuerySchema = Type.Object(
  {
    agent: Type.String({ minLength: 1, description: 'The DID of the agent (a fragment is ignored).' }),
    tool: Type.String({ minLength: 1, maxLength: 1024, description: 'The name of the tool.' }),
    root: Type.Optional(Type.String({ description: 'Require this delegation root (a DID).' })),
  },
  { additionalProperties: false },
);

/** The `$id` of each resource of this file, for `Static<typeof X, typeof REFS>` (with the ids it refers to elsewhere). */
export const DELEGATION_REFS = {
  ChainStatus: ChainStatusSchema,
  DelegationLinkCheck: DelegationLinkCheckSchema,
  DelegationChainCheck: DelegationChainCheckSchema,
  DelegationLink: DelegationLinkSchema,
  DelegationChainResult: DelegationChainResultSchema,
  Authorization: AuthorizationSchema,
  DelegationVerification: DelegationVerificationSchema,
  AuthorizeResponse: AuthorizeResponseSchema,
  VerifyDelegationRequest: VerifyDelegationRequestSchema,
  AuthorizeRequest: AuthorizeRequestSchema,
};

/** The $id'd resources of these routes. */
export const DELEGATION_SCHEMAS: TSchema[] = Object.values(DELEGATION_REFS);
