/** Library entry: the core functions the CLI and the daemon are built on. */
export { resolve, type ResolveOptions, type ResolveHooks } from './core/resolve/resolve.js';
export { parseDid, parseDidUrl, decodeIdentifier, type ParsedDid, type ParsedDidUrl } from './core/did/syntax.js';
export { ProblemError, PROBLEMS, toProblem, problemType, type Problem, type ProblemCode } from './core/problems.js';
export { canonicalize, jcsSha256, HASH_PROFILE, CanonicalizationError } from './core/canonical.js';
export { checkMultikey, checkVerificationMethod } from './core/keys/inspect.js';
export { checkPublicJwk, jwkThumbprint } from './core/keys/jwk.js';
export { dereference, type DereferencingResult } from './core/dereference/dereference.js';
export { fastVerdict, type FastDidVerdict } from './core/resolve/fast-verify.js';
export { historyOf, diffOf, recordObservation, semanticDiff } from './core/history/index.js';
export type { ObservationHistory, SemanticDiff } from './core/history/index.js';
export type { ObservationStore, RuntimeStore, Observation } from './core/store.js';
export { createRuntime, systemClock } from './runtime/node.js';
export type { Runtime, Clock, Logger, RuntimeConfig, ResolutionCache } from './core/runtime.js';
export type * from './core/resolve/types.js';
export { verifyCredential, type VerifyCredentialOptions } from './core/credentials/verify.js';
export type { CredentialVerification } from './core/credentials/types.js';
export { verifyPresentation } from './core/presentations/verify.js';
export type { PresentationVerification, VerifyPresentationOptions, EmbeddedCredential } from './core/presentations/types.js';
export { inspectA2a, type A2aInspectOptions } from './core/a2a/inspect.js';
export type { A2aInspection } from './core/a2a/types.js';
// Verify from files: supplied bytes stand in for the URLs svc would fetch (docs/credentials.md#verify-from-files).
export {
  withSuppliedResources,
  SuppliedResources,
  NotSuppliedProblem,
  type SuppliedResource,
  type SuppliedOptions,
  type SuppliedNote,
} from './core/supplied/resources.js';
export { supplyResource, agentUrlOfCard, SUPPLIED_KINDS, type SuppliedInput, type SuppliedKind } from './core/supplied/inputs.js';
export { VERSION } from './version.js';
// Signed results (docs/daemon.md#signed-results): sign a value's RFC 8785 form, verify a signature with named reasons.
export {
  createSigner,
  signCanonical,
  canonicalPayload,
  signCanonicalPayload,
  compactDetached,
  verifyCanonicalSignature,
  signingKeyResolver,
  SigningKeyError,
  SIGNATURE_PROVES,
  SIGNATURE_HEADER,
  RESULT_SIGNATURE_TYP,
  type Signer,
  type SignerOptions,
  type SigningIdentity,
  type DetachedJws,
  type CanonicalPayload,
  type SignatureVerification,
  type SignatureReason,
  type SignatureKeyResolver,
  type VerifySignatureOptions,
} from './core/signing/index.js';
// Signing credentials and presentations, the other half of the verifiers (docs/credentials.md#make-what-you-verify).
export { readIssuingKey, describeKey, type IssuingKey, type KeyDescription } from './core/issue/key.js';
export { signCredential, type SignCredentialOptions, type SignedCredential } from './core/issue/credential.js';
export { signPresentation, type SignPresentationOptions, type SignedPresentation } from './core/issue/presentation.js';
export { SIGNED_CREDENTIAL_FORMATS, SIGNED_PRESENTATION_FORMATS, type SignedCredentialFormat, type SignedPresentationFormat } from './core/issue/types.js';
