/** A bundle's signature checked against its signer's DID (the signing module does the JWS). */
import type { Runtime } from '../runtime.js';
import type { EvidenceBundle } from './format.js';
import type { SignatureCheck } from './verify.js';

export async function checkBundleSignature(_bundle: EvidenceBundle, _runtime: Runtime): Promise<SignatureCheck> {
  return { verified: false, reason: 'UNSUPPORTED', detail: 'pending: the signing module', signer: null, signedAt: null, proves: '' };
}
