/**
 * Finding the key of a signed result: the signer's DID resolved through svc's own resolver (a
 * did:key offline; a did:web over HTTPS with svc's egress policy, TLS checks and cache), and the
 * verification method named by the kid, which must be listed under assertionMethod (a signed result
 * is a statement of its signer) and hold a valid key.
 */
import { keysOfDocument } from '../credentials/keys.js';
import { parseDidUrl } from '../did/syntax.js';
import { ProblemError } from '../problems.js';
import { resolve } from '../resolve/resolve.js';
import type { Runtime } from '../runtime.js';
import type { SignatureKeyResolver } from './jws.js';

/**
 * A resolveKey for verifyCanonicalSignature: the public JWK of the kid, null when the signer's DID
 * publishes no such verification method; throws an Error whose message says why when the DID
 * cannot be resolved, is deactivated, or lists the key but not under assertionMethod.
 */
export function signingKeyResolver(runtime: Runtime, options: { signal?: AbortSignal } = {}): SignatureKeyResolver {
  return async (kid) => {
    const did = parseDidUrl(kid).did;
    let result;
    try {
      result = await resolve(did, runtime, options.signal ? { signal: options.signal } : {});
    } catch (err) {
      if (err instanceof ProblemError) throw new Error(`${did} does not resolve (${err.code}: ${err.detail.replace(/\.$/, '')})`);
      throw err;
    }
    if (result.verdict.outcome === 'DEACTIVATED') throw new Error(`${did} is deactivated`);
    const keys = await keysOfDocument(did, result.didDocument);
    const key = keys.find((k) => k.id === kid);
    if (key === undefined) return null;
    if (key.publicJwk === null || key.status !== 'VALID_KEY') throw new Error(`${kid} holds no valid key (${key.detail ?? key.status})`);
    if (!key.relationships.includes('assertionMethod')) throw new Error(`${did} lists ${kid}, but not under assertionMethod`);
    return key.publicJwk;
  };
}
