/**
 * A bundle's signature: a detached JWS (typ `svc-bundle+jws`) over the RFC 8785 form of the bundle
 * without its `signature` member, made by a daemon with a signing key (core/signing/), checked
 * against its signer's DID through svc's own resolver.
 */
import type { Runtime } from '../runtime.js';
import { SIGNATURE_PROVES, verifyCanonicalSignature } from '../signing/jws.js';
import { signingKeyResolver } from '../signing/resolver.js';
import { signedForm, type EvidenceBundle } from './format.js';
import type { SignatureCheck } from './verify.js';

export const BUNDLE_SIGNATURE_TYP = 'svc-bundle+jws';

/** How a bundle is signed: a detached JWS over a value's canonical form, with this `typ` (a daemon's `ctx.signer.sign`). */
export type SignCanonical = (value: unknown, typ: string) => { protected: string; signature: string };

/** The bundle with its signature (any earlier signature replaced). */
export function signBundle(bundle: EvidenceBundle, sign: SignCanonical): EvidenceBundle {
  const unsigned = signedForm(bundle);
  const { protected: header, signature } = sign(unsigned, BUNDLE_SIGNATURE_TYP);
  return { ...unsigned, signature: { protected: header, signature } };
}

/**
 * Checks a signed bundle's signature. The signer's key is found by resolving its DID with
 * `runtime` (a did:key needs no network; a did:web signer's document is fetched).
 */
export async function checkBundleSignature(bundle: EvidenceBundle, runtime: Runtime): Promise<SignatureCheck> {
  if (!bundle.signature) {
    return { verified: false, reason: 'MALFORMED', detail: 'the bundle is not signed', signer: null, signedAt: null, proves: SIGNATURE_PROVES };
  }
  const verification = await verifyCanonicalSignature(signedForm(bundle), bundle.signature, {
    resolveKey: signingKeyResolver(runtime),
    typ: BUNDLE_SIGNATURE_TYP,
  });
  return {
    verified: verification.verified,
    reason: verification.reason,
    detail: verification.detail,
    signer: verification.signer,
    signedAt: verification.signedAt,
    proves: SIGNATURE_PROVES,
  };
}
