/**
 * What a challenge asks for: the random token, where a DID's host publishes it (well-known, dns),
 * the statement a key signs (signature), and the instructions the 201 answer gives. No I/O.
 */
import { randomBytes } from 'node:crypto';
import { canonicalize } from '../canonical.js';
import { parseDid } from '../did/syntax.js';
import { base64urlEncode } from '../encoding/base64url.js';
import { MAX_HOST_LENGTH, webLocation } from '../methods/web-location.js';
import type { ClaimChallenge } from './store.js';
import { didWebvhLocation } from '../webvh/location.js';
import { CHALLENGE_ATTEMPTS, CLAIM_FILE_MAX_BYTES, type ChallengeTerms, type ClaimMethod } from './types.js';

/** The `aud` of a signed claim statement: a JWS made for anything else cannot be replayed as one. */
export const CLAIM_AUDIENCE = 'svc-claim';
/** Where a host publishes the token (always at the origin, whatever the DID's path). */
export const CLAIM_FILE_PATH = '/.well-known/svc-claim.txt';
/** The label in front of the host name of the TXT record. */
export const CLAIM_DNS_LABEL = '_svc-claim';

const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh challenge token: 32 random bytes as base64url (43 characters, no padding). */
export function newClaimToken(): string {
  return base64urlEncode(new Uint8Array(randomBytes(TOKEN_BYTES)));
}

/** Whether `text` has the shape of a token (43 base64url characters); says nothing of whether it was issued. */
export function isClaimToken(text: unknown): text is string {
  return typeof text === 'string' && TOKEN_PATTERN.test(text);
}

export interface ClaimHost {
  /** `https://host[:port]` (no port when 443). */
  origin: string;
  /** The host name alone, lower-cased, IDNA applied: what the TXT record name is built on. */
  hostname: string;
}

/**
 * The host a did:web or did:webvh lives on (`did:web:example.com%3A8443:u:alice` →
 * `https://example.com:8443`, `example.com`; `did:webvh:<SCID>:example.com` → `https://example.com`),
 * or null for a DID without one (did:key, did:jwk, any other method). A malformed DID, or a
 * did:web / did:webvh whose host the resolver would refuse, throws ProblemError INVALID_DID.
 */
export function claimHostOf(did: string): ClaimHost | null {
  const parsed = parseDid(did);
  if (parsed.method === 'web') {
    const [authority = '', ...segments] = parsed.id.split(':');
    const location = webLocation('web', authority, segments);
    return { origin: location.origin, hostname: location.host };
  }
  if (parsed.method === 'webvh') {
    const location = didWebvhLocation(parsed.id);
    return { origin: location.origin, hostname: location.host };
  }
  return null;
}

/** The URL of the claim file of a host. */
export function claimFileUrl(host: ClaimHost): string {
  return `${host.origin}${CLAIM_FILE_PATH}`;
}

/** The TXT record name of a host (the port plays no part in DNS). */
export function claimRecordName(host: ClaimHost): string {
  return `${CLAIM_DNS_LABEL}.${host.hostname.replace(/\.$/, '')}`;
}

/**
 * Why `method` cannot prove control of `did` (one line), or null when it can. Every DID can sign;
 * publishing needs a host. A malformed DID throws ProblemError INVALID_DID (see claimHostOf).
 */
export function methodUnavailable(did: string, method: ClaimMethod): string | null {
  if (method === 'signature') return null;
  const host = claimHostOf(did);
  if (host === null) return `did:${parseDid(did).method} has no host to publish on; prove control with the signature method`;
  if (method === 'dns') {
    const name = claimRecordName(host);
    // The label added in front can push a long (valid) host name past what DNS can hold.
    if (name.length > MAX_HOST_LENGTH) {
      return `the record name ${CLAIM_DNS_LABEL}.${host.hostname.slice(0, 20)}… would be ${name.length} characters, more than DNS allows (${MAX_HOST_LENGTH}); prove control with the well-known or signature method`;
    }
  }
  return null;
}

/** Unix seconds of an RFC 3339 timestamp. */
function unixSeconds(timestamp: string): number {
  const ms = Date.parse(timestamp);
  if (!Number.isFinite(ms)) throw new RangeError(`not a timestamp: ${timestamp.slice(0, 40)}`);
  return Math.floor(ms / 1000);
}

/** The statement a signature proof signs: it names the service, the DID, the challenge and its purpose, and when it holds. */
export function claimStatement(challenge: ClaimChallenge): { aud: string; did: string; token: string; purpose: string; iat: number; exp: number } {
  return {
    aud: CLAIM_AUDIENCE,
    did: challenge.did,
    token: challenge.token,
    purpose: challenge.purpose,
    iat: unixSeconds(challenge.createdAt),
    exp: unixSeconds(challenge.expiresAt),
  };
}

/**
 * The exact JWS payload of a signature proof: base64url of the statement's RFC 8785 bytes. The
 * signer is given these characters to sign as they are, so nothing is left to a JSON library.
 */
export function claimPayload(challenge: ClaimChallenge): string {
  return base64urlEncode(new Uint8Array(Buffer.from(canonicalize(claimStatement(challenge)), 'utf8')));
}

/** How to submit the proof: the route and its body, written out (`extra`: the signature's member). */
function submitHow(challenge: ClaimChallenge, extra: Record<string, string> = {}): string {
  const body = JSON.stringify({ did: challenge.did, token: challenge.token, ...extra });
  return `Then submit it before ${challenge.expiresAt}: POST /v1/claims/verify with ${body} (${CHALLENGE_ATTEMPTS} attempts allowed).`;
}

/**
 * The terms of a challenge, as its 201 answer gives them. For well-known and dns the DID must
 * have a host (methodUnavailable null), else RangeError: such a challenge is never created.
 */
export function challengeTerms(challenge: ClaimChallenge): ChallengeTerms {
  const { did, method, token } = challenge;
  const base = {
    did,
    method,
    purpose: challenge.purpose,
    token,
    createdAt: challenge.createdAt,
    expiresAt: challenge.expiresAt,
    attemptsAllowed: CHALLENGE_ATTEMPTS,
  };
  if (method === 'signature') {
    return {
      ...base,
      instructions:
        `Sign the payload below, exactly as given (base64url of the statement's RFC 8785 form), as a compact JWS ` +
        `(EdDSA, ES256, ES256K or ES384) whose header "kid" names a key of ${did} listed under authentication, e.g. ${did}#<key>. ` +
        submitHow(challenge, { jws: '<the compact JWS>' }),
      signature: { statement: claimStatement(challenge), payload: claimPayload(challenge), relationship: 'authentication' },
      wellKnown: null,
      dns: null,
    };
  }
  const unavailable = methodUnavailable(did, method);
  const host = claimHostOf(did);
  if (unavailable !== null || host === null) throw new RangeError(`no ${method} challenge for ${did}: ${unavailable ?? 'no host'}`);
  if (method === 'well-known') {
    const url = claimFileUrl(host);
    return {
      ...base,
      instructions:
        `Publish a text file at ${url} holding the token on a line of its own (other lines may hold other tokens), ` +
        `served with status 200 over HTTPS with a certificate valid for ${host.hostname}, at most ${CLAIM_FILE_MAX_BYTES} bytes, ` +
        `after at most 2 HTTPS redirects to public addresses. ` +
        submitHow(challenge) +
        ` Leave the file in place: svc checks it again while the claim holds, and the claim lapses when it is gone.`,
      signature: null,
      wellKnown: { url, content: token },
      dns: null,
    };
  }
  const name = claimRecordName(host);
  return {
    ...base,
    instructions:
      `Publish a TXT record at ${name} whose value is the token (other TXT records there may stay), ` +
      `and allow for the time DNS changes take to reach resolvers. ` +
      submitHow(challenge) +
      ` Leave the record in place: svc checks it again while the claim holds, and the claim lapses when it is gone.`,
    signature: null,
    wellKnown: null,
    dns: { name, type: 'TXT', value: token },
  };
}
