/**
 * Schemas of POST /v1/presentations/verify (docs/credentials.md#presentations): the request and
 * the PresentationVerification it answers, whose embedded credentials are each a
 * CredentialVerification (schemas/verification.ts). Result objects are closed like the core's types
 * (presentations/types.ts); test/unit/schemas-agents-types.test.ts holds the two together.
 */
import Type, { type TSchema } from 'typebox';
import { MAX_TRUSTED_ISSUERS } from '../../core/policy/trusted-issuers.js';
import { CredentialStatus } from './verification.js';

const NullableString = () => Type.Union([Type.String(), Type.Null()]);

export const PresentationCheckSchema = Type.Object(
  {
    id: Type.Union([
      Type.Literal('structure'),
      Type.Literal('holder'),
      Type.Literal('proof'),
      Type.Literal('validity'),
      Type.Literal('challenge'),
      Type.Literal('domain'),
      Type.Literal('credentials'),
      Type.Literal('holderBinding'),
    ]),
    label: Type.String(),
    status: Type.Ref('CheckStatus'),
    detail: Type.String(),
  },
  { $id: 'PresentationCheck', additionalProperties: false },
);

/** One credential of the presentation's `verifiableCredential`, verified as POST /v1/credentials/verify verifies one. */
export const EmbeddedCredentialSchema = Type.Object(
  {
    /** Position in `verifiableCredential` (0-based; a single credential is 0). */
    index: Type.Integer({ minimum: 0 }),
    /** How it is carried: a credential OBJECT, an ENVELOPED one (a data: URL), a compact JWT, an SD_JWT VC. */
    form: Type.Union([Type.Literal('OBJECT'), Type.Literal('ENVELOPED'), Type.Literal('JWT'), Type.Literal('SD_JWT')]),
    /** BOUND (about the holder), NOT_BOUND (about someone else), NO_SUBJECT_ID (a bearer credential), UNKNOWN. */
    holderBinding: Type.Union([Type.Literal('BOUND'), Type.Literal('NOT_BOUND'), Type.Literal('NO_SUBJECT_ID'), Type.Literal('UNKNOWN')]),
    holderBindingDetail: Type.String(),
    verification: Type.Ref('CredentialVerification'),
  },
  { $id: 'EmbeddedCredential', additionalProperties: false },
);

/** The verification of a verifiable presentation: its own checks and each credential it carries. */
export const PresentationVerificationSchema = Type.Object(
  {
    /** The most severe of the presentation's checks and its credentials' statuses; only VALID means accepted. */
    status: CredentialStatus(),
    headline: Type.String(),
    /** How the presentation is secured: DATA_INTEGRITY, VC_JOSE_COSE (vp+jwt), VC_JWT_1_1 (the vp claim), UNKNOWN (SD_JWT_VC is never a presentation's). */
    format: Type.Union([
      Type.Literal('DATA_INTEGRITY'),
      Type.Literal('VC_JOSE_COSE'),
      Type.Literal('VC_JWT_1_1'),
      Type.Literal('SD_JWT_VC'),
      Type.Literal('UNKNOWN'),
    ]),
    dataModel: Type.Union([Type.Literal('2.0'), Type.Literal('1.1'), Type.Literal('unknown')]),
    id: NullableString(),
    holder: NullableString(),
    types: Type.Array(Type.String()),
    /** The challenge the proof is bound to (Data Integrity challenge, JWT nonce), as found. */
    challenge: NullableString(),
    /** The domains the proof is bound to (Data Integrity domain, JWT aud), as found. */
    domain: Type.Union([Type.Array(Type.String()), Type.Null()]),
    checks: Type.Array(Type.Ref('PresentationCheck')),
    proof: Type.Union([Type.Ref('ProofSummary'), Type.Null()]),
    /** The resolution of the holder's DID (the key that signed the presentation). */
    holderResolution: Type.Union([Type.Ref('IssuerResolutionSummary'), Type.Null()]),
    credentials: Type.Array(Type.Ref('EmbeddedCredential')),
    limitations: Type.Array(Type.String()),
    valid: Type.Boolean(),
    errors: Type.Array(Type.String()),
  },
  { $id: 'PresentationVerification', additionalProperties: false },
);

/** Passed to each embedded credential: the issuers the verifier trusts, as POST /v1/credentials/verify takes them. */
const TrustedIssuers = () =>
  Type.Array(Type.String(), {
    maxItems: MAX_TRUSTED_ISSUERS,
    description:
      'The issuers the verifier trusts: each embedded credential then carries issuerTrust (its status and the presentation\'s are unchanged by it). Entries as POST /v1/credentials/verify takes them: DIDs, matched exactly, and did:web or did:webvh domain forms ("did:web:*.example.com", "did:web:example.com:*"); a bad entry is refused (400, naming it); an empty list decides nothing (INDETERMINATE).',
  });

/** POST /v1/presentations/verify. */
export const PresentationVerifyRequestSchema = Type.Object(
  {
    presentation: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()], {
      description:
        'A presentation object (Data Integrity), the JSON text of one (raw JSON keeps duplicate members detectable), or a compact JWT (vp+jwt, or a VC-JWT 1.1 token with a vp claim).',
    }),
    /** The verifier's challenge: the proof's challenge (a JWT's nonce) must equal it; given but missing is INVALID. */
    challenge: Type.Optional(Type.String({ minLength: 1 })),
    /** The verifier's domain: the proof's domain (a JWT's aud) must be or include it; given but missing is INVALID. */
    domain: Type.Optional(Type.String({ minLength: 1 })),
    /** Passed to each embedded SD-JWT VC: the audience its KB-JWT must name (the presentation's domain binds the rest). */
    expectedAudience: Type.Optional(Type.String({ minLength: 1 })),
    /** Passed to each embedded SD-JWT VC: the nonce its KB-JWT must carry (the presentation's challenge binds the rest). */
    expectedNonce: Type.Optional(Type.String({ minLength: 1 })),
    trustedIssuers: Type.Optional(TrustedIssuers()),
    /** A credential not bound to the holder makes the presentation INVALID (otherwise it is reported, WARN). */
    requireHolderBinding: Type.Optional(Type.Boolean()),
  },
  { $id: 'PresentationVerifyRequest', additionalProperties: false },
);

/** The `$id` of each resource of this file, for `Static<typeof X, typeof REFS>` (with the ids it refers to elsewhere). */
export const PRESENTATION_REFS = {
  PresentationCheck: PresentationCheckSchema,
  EmbeddedCredential: EmbeddedCredentialSchema,
  PresentationVerification: PresentationVerificationSchema,
  PresentationVerifyRequest: PresentationVerifyRequestSchema,
};

/** The $id'd resources of this route. */
export const PRESENTATION_SCHEMAS: TSchema[] = Object.values(PRESENTATION_REFS);
