/**
 * Schemas of the W3C VC-API verifier binding (POST /credentials/verify, w3c-ccg/vc-api
 * verifier.yml): the request `{verifiableCredential, options?}` and the VerificationResult
 * `{verified, checks, warnings, errors}` whose warnings and errors are ProblemDetails-like
 * objects. VC-API's result is closed (`additionalProperties: false` in its schemas), so svc's own
 * CredentialVerification is not embedded: /v1/credentials/verify gives it whole.
 */
import Type, { type TSchema } from 'typebox';

/** A ProblemDetails of VC-API (RFC 9457-like): type URI, short title, the reason. */
export const VcApiProblemDetailsSchema = Type.Object(
  {
    /** `<problems base>#credential-check:<check id>`, `#credential-status:<status>`, `#limitation`, `#unknown-option` or `#malformed-envelope`. */
    type: Type.String(),
    /** The check's label and status (`Proof: FAIL`), or what the entry is. */
    title: Type.String(),
    /** svc's detail of the check (or the limitation, or why the envelope was refused). */
    detail: Type.String(),
  },
  { $id: 'VcApiProblemDetails', additionalProperties: false },
);

/** VC-API VerificationResult: verified is true only when svc's verification is VALID. */
export const VcApiVerificationResultSchema = Type.Object(
  {
    verified: Type.Boolean(),
    /** The ids of svc's checks that passed (structure, issuer, proof, validity, status, jwt.aud, kb.nonce), in svc's order. */
    checks: Type.Array(Type.String()),
    warnings: Type.Array(Type.Ref('VcApiProblemDetails')),
    errors: Type.Array(Type.Ref('VcApiProblemDetails')),
  },
  { $id: 'VcApiVerificationResult', additionalProperties: false },
);

/** VC-API VerifyCredentialOptions: `checks` is known (svc's check ids only); `challenge` and `domain` are refused; other members are reported as warnings, never applied. */
export const VcApiVerifyOptionsSchema = Type.Object(
  {
    /** The checks the caller asks for; svc always runs all of its checks, and each name must be one of them. */
    checks: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'VcApiVerifyOptions', additionalProperties: true },
);

/** POST /credentials/verify: a credential object, or an EnvelopedVerifiableCredential (`id`: a data: URL holding a JWT or SD-JWT). */
export const VcApiVerifyCredentialRequestSchema = Type.Object(
  {
    verifiableCredential: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'A credential object (a Data Integrity credential), or an EnvelopedVerifiableCredential whose id is data:application/vc+jwt,<JWT> (or vc+sd-jwt, dc+sd-jwt); never a string',
    }),
    options: Type.Optional(Type.Ref('VcApiVerifyOptions')),
  },
  { $id: 'VcApiVerifyCredentialRequest', additionalProperties: false },
);

export const VC_API_REFS = {
  VcApiProblemDetails: VcApiProblemDetailsSchema,
  VcApiVerificationResult: VcApiVerificationResultSchema,
  VcApiVerifyOptions: VcApiVerifyOptionsSchema,
  VcApiVerifyCredentialRequest: VcApiVerifyCredentialRequestSchema,
};

export const VC_API_SCHEMAS: TSchema[] = Object.values(VC_API_REFS);
