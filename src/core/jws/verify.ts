/**
 * Compact JWS fast-verify (docs/credentials.md#jws): the DID in `kid` is resolved through the core
 * and the signature checked with that key, which must be authorised for the named relationship — by
 * default `assertionMethod`, then `authentication`.
 *
 * Statuses: MALFORMED (not a well-formed JWS, duplicate members in header or payload),
 * UNSUPPORTED (`alg: none`, `b64: false`, any `crit`, algorithms svc does not verify, key types
 * it cannot read), INDETERMINATE (no `kid`, a `kid` that is not a DID URL, a DID that does not
 * resolve), INVALID (the key is not in the DID document or not authorised, the DID is
 * deactivated, the signature does not verify), VALID. A failed check is a result, never an error.
 */
import { sha256Hex } from '../canonical.js';
import { base64urlEncode } from '../encoding/base64url.js';
import { didKeySource, didOf, type ControllerKey, type KeySource } from '../credentials/keys.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws } from '../proofs/jws.js';
import type { Relationship } from '../resolve/types.js';
import type { Runtime } from '../runtime.js';
import { clause } from '../text.js';

export const JWS_STATUSES = ['VALID', 'INVALID', 'UNSUPPORTED', 'INDETERMINATE', 'MALFORMED'] as const;
export type JwsStatus = (typeof JWS_STATUSES)[number];

export interface JwsVerification {
  status: JwsStatus;
  valid: boolean;
  headline: string;
  alg: string | null;
  kid: string | null;
  typ: string | null;
  /** The payload: its JSON object when it is one, otherwise its base64url text. */
  payload: unknown;
  /** Hex SHA-256 of the signing input (`header.payload` as ASCII); null when the token has no such parts. */
  signingInputSha256: string | null;
  /** The DID whose key verified; only when a key was found. */
  signer?: string;
  /** The relationship that authorises the key; only when a key was found. */
  relationship?: Relationship;
}

export interface VerifyJwsOptions {
  runtime: Runtime;
  keySource?: KeySource;
  /** The relationship the key must be authorised for; default assertionMethod, then authentication. */
  relationship?: Relationship;
  signal?: AbortSignal;
}

const DEFAULT_RELATIONSHIPS: readonly Relationship[] = ['assertionMethod', 'authentication'];

function headlineFor(status: JwsStatus, reason: string): string {
  const lead: Record<JwsStatus, string> = {
    VALID: 'The JWS is valid',
    INVALID: 'The JWS is invalid',
    UNSUPPORTED: 'The JWS cannot be verified by svc',
    INDETERMINATE: 'Whether the JWS is valid could not be established',
    MALFORMED: 'The JWS is malformed',
  };
  return `${lead[status]}: ${clause(reason)}.`;
}

function signingInputDigest(token: string): string | null {
  const parts = token.split('.');
  return parts.length === 3 ? sha256Hex(Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii')) : null;
}

export async function verifyJws(token: string, options: VerifyJwsOptions): Promise<JwsVerification> {
  const parsed = parseCompactJws(token);
  const header = parsed.header;
  const payload = isJwsParseError(parsed) ? parsed.payload : parsed.payload instanceof Uint8Array ? base64urlEncode(parsed.payload) : parsed.payload;
  const base = {
    alg: header && typeof header['alg'] === 'string' ? header['alg'] : null,
    kid: header && typeof header['kid'] === 'string' ? header['kid'] : null,
    typ: header && typeof header['typ'] === 'string' ? header['typ'] : null,
    payload: payload ?? null,
    signingInputSha256: isJwsParseError(parsed)
      ? typeof token === 'string' && token.length <= 1_048_576
        ? signingInputDigest(token)
        : null
      : sha256Hex(parsed.signingInput),
  };
  const done = (status: JwsStatus, reason: string, found?: { signer: string; relationship: Relationship }): JwsVerification => ({
    status,
    valid: status === 'VALID',
    headline: headlineFor(status, reason),
    ...base,
    ...(found ?? {}),
  });

  if (isJwsParseError(parsed)) return done(parsed.kind, parsed.error);
  const kid = header!['kid'];
  if (kid === undefined) return done('INDETERMINATE', 'the header names no key ("kid"), so no DID can be resolved for it');
  if (typeof kid !== 'string') return done('MALFORMED', 'the header parameter "kid" is not a string');
  const did = didOf(kid);
  if (did === null || did === kid) return done('INDETERMINATE', `the kid ${JSON.stringify(kid.slice(0, 200))} is not a DID URL naming a key`);

  const source = options.keySource ?? didKeySource(options.runtime);
  const found = await source.keysOf(did, options.signal);
  if (!found.ok) return done('INDETERMINATE', found.reason);
  const key: ControllerKey | undefined = found.keys.find((k) => k.id === kid);
  if (!key) return done('INVALID', `${kid} is not a verification method in the DID document of ${did}`);
  if (key.status === 'INVALID_KEY') return done('INVALID', `the key ${kid} is invalid: ${key.detail ?? 'no detail'}`);
  if (key.status === 'UNSUPPORTED_KEY' || !key.publicJwk)
    return done('UNSUPPORTED', `the key ${kid} is not supported: ${key.detail ?? 'no public key svc can read'}`);
  if (found.deactivated) return done('INVALID', `${did} is deactivated; its keys authorise nothing`);

  const wanted = options.relationship ? [options.relationship] : DEFAULT_RELATIONSHIPS;
  const relationship = wanted.find((r) => key.relationships.includes(r));
  if (!relationship) {
    const has = key.relationships.length > 0 ? `it is listed only under ${key.relationships.join(', ')}` : 'it is listed under no relationship';
    return done('INVALID', `the key ${kid} is not authorised for ${wanted.join(' or ')} (${has})`);
  }
  const check = checkJwsSignature(parsed, key.publicJwk);
  if (!check.valid) return done('INVALID', check.reason);
  return done('VALID', `the ${parsed.alg} signature verifies with ${kid}, authorised for ${relationship}`, { signer: did, relationship });
}
