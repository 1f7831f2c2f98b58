/**
 * Finding the key that signed a credential and binding it to the issuer
 * (docs/credentials.md#credentials, "The issuer's key").
 *
 * The key reference (a Data Integrity `verificationMethod`, a JWT `kid`) is looked up where it
 * points: a DID URL among the verification methods of its DID (resolved through the core); a
 * reference relative to the issuer (`#key-1`) under the issuer; anything else — a JOSE `kid`
 * such as a JWK thumbprint — among the issuer's own keys, by id or RFC 7638 thumbprint. A JWT
 * without `kid` is tried with each of the issuer's assertionMethod keys on the algorithm's
 * curve, as VC-JWT 1.1 verifiers do.
 *
 * Binding: the key's controller must be the issuer, the key must be authorised for
 * `assertionMethod`, and the issuer DID must not be deactivated. A key of a DID (a did:key, say)
 * cannot be bound to an issuer that is not a DID: the signature may verify, but who signed
 * stays INDETERMINATE.
 */
import type { Relationship } from '../resolve/types.js';
import { didOf, type ControllerKey, type KeySource } from './keys.js';
import type { CheckStatus, CredentialStatus, IssuerResolutionSummary } from './types.js';

/**
 * Whose key is looked for, and for what: a credential's issuer signs for assertionMethod; a
 * presentation's holder signs for authentication (presentations/verify.ts).
 */
export interface SignerRole {
  name: 'issuer' | 'holder';
  relationship: Relationship;
  document: 'credential' | 'presentation';
}

export const ISSUER_ROLE: SignerRole = { name: 'issuer', relationship: 'assertionMethod', document: 'credential' };
export const HOLDER_ROLE: SignerRole = { name: 'holder', relationship: 'authentication', document: 'presentation' };

export interface Finding {
  status: CheckStatus;
  /** The credential status a non-passing finding implies; null for PASS. */
  implies: CredentialStatus | null;
  detail: string;
}

export type KeySearch =
  | {
      ok: true;
      /** Keys to try, in order (one for an explicit reference). */
      keys: ControllerKey[];
      /** Whose keys they are: a DID, or the issuer as the key source knows it. */
      controller: string;
      deactivated: boolean;
      resolution: IssuerResolutionSummary | null;
    }
  | { ok: false; finding: Finding; resolution: IssuerResolutionSummary | null };

function fail(detail: string, resolution: IssuerResolutionSummary | null = null): KeySearch {
  return { ok: false, finding: { status: 'FAIL', implies: 'INVALID', detail }, resolution };
}

function indeterminate(detail: string, resolution: IssuerResolutionSummary | null = null): KeySearch {
  return { ok: false, finding: { status: 'INDETERMINATE', implies: 'INDETERMINATE', detail }, resolution };
}

/**
 * Looks up the signing key. `reference` is the verificationMethod or kid as written (null: a
 * JWT without kid); `curve` the curve the algorithm or suite signs with, for trying keys.
 */
export async function findSigningKey(
  reference: string | null,
  issuer: string | null,
  curve: string | null,
  source: KeySource,
  signal?: AbortSignal,
  role: SignerRole = ISSUER_ROLE,
): Promise<KeySearch> {
  if (reference !== null) {
    const absolute = reference.startsWith('#') && issuer !== null ? `${issuer}${reference}` : reference;
    const did = didOf(absolute);
    if (did !== null && absolute !== did) {
      const found = await source.keysOf(did, signal);
      if (!found.ok) return indeterminate(`The key ${absolute} could not be looked up: ${found.reason}.`, found.resolution);
      const key = found.keys.find((k) => k.id === absolute);
      if (!key) return fail(`${absolute} is not a verification method in the DID document of ${did}.`, found.resolution);
      return { ok: true, keys: [key], controller: did, deactivated: found.deactivated, resolution: found.resolution };
    }
    if (issuer === null)
      return indeterminate(
        `The key reference ${JSON.stringify(reference)} is not a DID URL and the ${role.document} names no ${role.name} to look it up under.`,
      );
    const found = await source.keysOf(issuer, signal);
    if (!found.ok)
      return indeterminate(
        `The key reference ${JSON.stringify(reference)} is not a DID URL, so it can only be looked up under the ${role.name}: ${found.reason}.`,
        found.resolution,
      );
    const matches = found.keys.filter((k) => k.id === absolute || k.id === `${issuer}#${reference}` || k.thumbprint === reference);
    if (matches.length === 0) return fail(`No key of ${issuer} has the id or JWK thumbprint ${JSON.stringify(reference)}.`, found.resolution);
    return { ok: true, keys: matches, controller: issuer, deactivated: found.deactivated, resolution: found.resolution };
  }
  if (issuer === null) return indeterminate(`The JWT names no key ("kid") and no ${role.name}.`);
  const found = await source.keysOf(issuer, signal);
  if (!found.ok) return indeterminate(`The JWT names no key ("kid"), so the ${role.name}'s keys were to be tried: ${found.reason}.`, found.resolution);
  const candidates = found.keys.filter(
    (k) => (k.status === 'VALID_KEY' || (curve === 'RSA' && isRsaKey(k))) && k.curve === curve && k.relationships.includes(role.relationship),
  );
  if (candidates.length === 0)
    return fail(`The JWT names no key ("kid") and ${issuer} authorises no ${curve ?? ''} key for ${role.relationship}.`, found.resolution);
  return { ok: true, keys: candidates, controller: issuer, deactivated: found.deactivated, resolution: found.resolution };
}

/**
 * An RSA key with its public members. svc's key checks call RSA unsupported (it signs nothing
 * with RSA); a caller that asked for an RSA algorithm (`curve` 'RSA': an RS256 or PS256 JWT with
 * JSON-LD processing on) may still verify with it, its size checked with the signature.
 */
function isRsaKey(key: ControllerKey): boolean {
  return key.status === 'UNSUPPORTED_KEY' && key.curve === 'RSA' && key.publicJwk?.kty === 'RSA';
}

/** Why a key cannot verify at all (invalid or unsupported material), or null; `curve` as findSigningKey's. */
export function unusableKey(key: ControllerKey, curve: string | null = null): Finding | null {
  if (curve === 'RSA' && isRsaKey(key)) return null;
  if (key.status === 'INVALID_KEY') return { status: 'FAIL', implies: 'INVALID', detail: `The key ${key.id} is invalid: ${key.detail ?? 'no detail'}.` };
  if (key.status === 'UNSUPPORTED_KEY' || key.publicJwk === null) {
    return { status: 'UNSUPPORTED', implies: 'UNSUPPORTED', detail: `The key ${key.id} is not supported: ${key.detail ?? 'no public key svc can read'}.` };
  }
  return null;
}

/** The issuer check: is `key` (found under `controller`) the issuer's, authorised for assertionMethod? (A holder's, for authentication, with HOLDER's role.) */
export function bindToIssuer(key: ControllerKey, controller: string, deactivated: boolean, issuer: string | null, role: SignerRole = ISSUER_ROLE): Finding {
  const controllerDid = didOf(controller);
  const { name, relationship, document } = role;
  if (issuer === null) return { status: 'INDETERMINATE', implies: 'INDETERMINATE', detail: `The ${document} names no ${name} to bind the key to.` };
  const issuerDid = didOf(issuer);
  if (controllerDid !== null) {
    if (issuerDid === null) {
      return {
        status: 'INDETERMINATE',
        implies: 'INDETERMINATE',
        detail: `The ${name} ${issuer} is not a DID: nothing binds the key of ${controllerDid} to it, so who signed cannot be established.`,
      };
    }
    if (issuerDid !== controllerDid) {
      return { status: 'FAIL', implies: 'INVALID', detail: `The ${document} was signed with a key of ${controllerDid}, but its ${name} is ${issuer}.` };
    }
  }
  if (deactivated)
    return { status: 'FAIL', implies: 'INVALID', detail: `The ${name} ${controllerDid ?? controller} is deactivated; its keys authorise nothing.` };
  if (!key.relationships.includes(relationship)) {
    return {
      status: 'FAIL',
      implies: 'INVALID',
      detail: `The key ${key.id} is not authorised for ${relationship} by ${controller}${key.relationships.length > 0 ? ` (only ${key.relationships.join(', ')})` : ''}.`,
    };
  }
  return { status: 'PASS', implies: null, detail: `The key ${key.id} belongs to the ${name} ${issuer} and is authorised for ${relationship}.` };
}
