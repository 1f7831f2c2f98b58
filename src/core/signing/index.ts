/**
 * Signed results (docs/daemon.md#signed-results): a signer from a private JWK (key.ts), a detached
 * JWS over the RFC 8785 form of a value and its verification with named reasons (jws.ts), and the
 * key of a signature found through svc's own resolver (resolver.ts).
 */
export {
  ACCEPTED_SIGNING_KEYS,
  createSigner,
  SigningKeyError,
  type Signer,
  type SignerOptions,
  type SigningAlgorithm,
  type SigningIdentity,
  type SigningPublicJwk,
} from './key.js';
export {
  canonicalPayload,
  compactDetached,
  RESULT_SIGNATURE_TYP,
  SIGNATURE_CANON,
  SIGNATURE_HEADER,
  SIGNATURE_PROVES,
  signCanonical,
  signCanonicalPayload,
  verifyCanonicalSignature,
  type CanonicalPayload,
  type DetachedJws,
  type SignatureKeyResolver,
  type SignatureReason,
  type SignatureVerification,
  type SignOptions,
  type VerifySignatureOptions,
} from './jws.js';
export { signingKeyResolver } from './resolver.js';
