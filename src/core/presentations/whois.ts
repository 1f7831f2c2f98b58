/**
 * The verification part of a DID's `#whois` presentation (did:webvh's implicit Linked Verifiable
 * Presentation at `<location>/whois.vp`, or one a document declares): the presentation is
 * verified by verifyPresentation, its holder's keys taken from the very document being resolved
 * (the DID is mid-resolution: resolving it again would start over), its credentials' issuers
 * resolved as any issuer is — but without their own whois presentations, so that two DIDs whose
 * presentations name each other never resolve in a circle. Those nested resolutions read the
 * shared cache and write nothing to it: a result without whois evidence is never cached in place
 * of a whole one.
 *
 * VERIFIED means a VALID presentation whose holder is the DID and whose proof is by one of the
 * DID's authentication keys; the credentials' claims are claims, true or not.
 */
import { didKeySource, didOf, keysOfDocument, type ControllerKeys, type KeySource } from '../credentials/keys.js';
import type { DidDocument, WhoisCredentialEvidence } from '../resolve/types.js';
import type { ResolutionCache, Runtime, WhoisVerifier } from '../runtime.js';
import { parseJsonText } from '../encoding/json.js';
import { clause } from '../text.js';
import { verifyPresentation } from './verify.js';

/** The shared cache, read but never written (nested resolutions lack whois evidence). */
function readOnly(cache: ResolutionCache): ResolutionCache {
  return {
    get: (key) => cache.get(key),
    set: () => undefined,
    delete: () => undefined,
    clear: () => undefined,
    get size() {
      return cache.size;
    },
  };
}

/** Keys of `did` from its document in hand; everyone else's through resolution without whois. */
function whoisKeySource(did: string, document: DidDocument, runtime: Runtime): KeySource {
  const { whois: _whois, ...rest } = runtime;
  const others = didKeySource({ ...rest, cache: readOnly(runtime.cache) });
  let own: Promise<ControllerKeys> | null = null;
  return {
    keysOf(controller, signal) {
      if (controller !== did) return others.keysOf(controller, signal);
      own ??= keysOfDocument(did, document).then((keys) => ({
        ok: true as const,
        controller,
        keys,
        deactivated: false,
        resolution: { did, outcome: null, headline: null, problem: null, detail: 'The document being resolved.' },
        enriched: null,
      }));
      return own;
    },
  };
}

/**
 * Most credentials a whois presentation may carry to be verified. Any DID's resolution verifies
 * its whois presentation, and each credential may resolve an issuer and fetch a status list on
 * hosts the controller chooses: the bound keeps one resolution from fanning out (the presentation
 * verifier's own bound, 256, is for presentations a caller hands in).
 */
export const WHOIS_MAX_CREDENTIALS = 16;

function decodeJwtPayload(token: string): unknown {
  const parsed = parseJsonText(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'), 'the whois presentation');
  return 'value' in parsed ? parsed.value : null;
}

/** How many credentials the presentation carries, as far as can be told before verifying it. */
function credentialCount(presentation: unknown): number {
  let vp = typeof presentation === 'string' ? decodeJwtPayload(presentation) : presentation;
  if (typeof vp === 'object' && vp !== null && typeof (vp as Record<string, unknown>)['vp'] === 'object') vp = (vp as Record<string, unknown>)['vp'];
  if (typeof vp !== 'object' || vp === null) return 0;
  const carried = (vp as Record<string, unknown>)['verifiableCredential'];
  return Array.isArray(carried) ? carried.length : carried === undefined ? 0 : 1;
}

export const verifyWhois: WhoisVerifier = async (presentation, { did, document }, runtime, signal) => {
  const carried = credentialCount(presentation);
  if (carried > WHOIS_MAX_CREDENTIALS) {
    return {
      status: 'INDETERMINATE',
      reason: `The whois presentation carries ${carried} credentials; svc verifies whois presentations of at most ${WHOIS_MAX_CREDENTIALS}, and verified none of these.`,
      presentationStatus: null,
      holder: null,
      signedBy: null,
      credentials: [],
    };
  }
  const verification = await verifyPresentation(presentation, {
    runtime,
    keySource: whoisKeySource(did, document, runtime),
    ...(signal ? { signal } : {}),
  });
  const signedBy = verification.proof?.verificationMethod ?? null;
  const signer = didOf(signedBy);
  const credentials: WhoisCredentialEvidence[] = verification.credentials.map((c) => ({
    index: c.index,
    issuer: c.verification.issuer,
    types: c.verification.types,
    status: c.verification.status,
    verified: c.verification.valid,
    claims: c.verification.claims,
    detail: c.verification.headline,
  }));
  const base = { presentationStatus: verification.status, holder: verification.holder, signedBy, credentials };
  let status: 'VERIFIED' | 'FAILED' = 'FAILED';
  let reason: string;
  if (signedBy !== null && signer !== did) {
    reason = `The presentation is signed by another key: ${signedBy} is not a key of ${did}.`;
  } else if (verification.holder !== null && verification.holder !== did) {
    reason = `The presentation's holder is ${verification.holder}, not ${did}.`;
  } else if (verification.status !== 'VALID') {
    reason = `The presentation does not verify (${verification.status}): ${clause(verification.headline)}.`;
  } else {
    status = 'VERIFIED';
    reason = `A valid presentation signed by ${signedBy ?? did}, a key ${did} authorises for authentication; ${
      credentials.length === 0 ? 'it carries no credential' : `${credentials.filter((c) => c.verified).length} of ${credentials.length} credentials verify`
    }. What the credentials claim is not verified identity.`;
  }
  return { status, reason, ...base };
};
