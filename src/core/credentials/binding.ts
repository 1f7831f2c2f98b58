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
import { didOf, type ControllerKey, type ControllerKeys, type KeySource } from './keys.js';
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
 * The DID of each key reference seen, kept: a signer's tokens name the same few keys, and a
 * reference is a pure function of its text. Bounded: emptied when full.
 */
const REFERENCE_DIDS = new Map<string, string | null>();
const REFERENCE_DIDS_KEPT = 1024;

function didOfReference(reference: string): string | null {
  let did = REFERENCE_DIDS.get(reference);
  if (did === undefined) {
    did = didOf(reference);
    if (REFERENCE_DIDS.size >= REFERENCE_DIDS_KEPT) REFERENCE_DIDS.clear();
    REFERENCE_DIDS.set(reference, did);
  }
  return did;
}

/**
 * The search for a DID URL among a controller's keys, by the keys read (one object per cached
 * resolution, see keys.ts) and the URL: what searchKeys would build again for every token of one
 * signer. Dropped with the keys object, so a new resolution is searched anew.
 */
const DID_URL_SEARCHES = new WeakMap<ControllerKeys, Map<string, KeySearch>>();

/** The last search without a reference among a cached controller's keys: its curve, role and answer. */
const CANDIDATE_SEARCHES = new WeakMap<ControllerKeys, { curve: string | null; role: SignerRole; controller: string; search: KeySearch }>();

/** Whose keys a search looks among, or its answer when there is nothing to look up. */
type KeyLookup =
  | { search: null; controller: string; kind: 'did-url' | 'under-issuer' | 'no-kid'; absolute: string }
  | { search: KeySearch; controller: null; kind: null; absolute: null };

function answered(search: KeySearch): KeyLookup {
  return { search, controller: null, kind: null, absolute: null };
}

/** Where `reference` (null: a JWT without kid) is to be looked up, before any key is fetched. */
function keyLookup(reference: string | null, issuer: string | null, role: SignerRole): KeyLookup {
  if (reference !== null) {
    const absolute = reference.startsWith('#') && issuer !== null ? `${issuer}${reference}` : reference;
    const did = didOfReference(absolute);
    if (did !== null && absolute !== did) return { search: null, controller: did, kind: 'did-url', absolute };
    if (issuer === null)
      return answered(
        indeterminate(`The key reference ${JSON.stringify(reference)} is not a DID URL and the ${role.document} names no ${role.name} to look it up under.`),
      );
    return { search: null, controller: issuer, kind: 'under-issuer', absolute };
  }
  if (issuer === null) return answered(indeterminate(`The JWT names no key ("kid") and no ${role.name}.`));
  return { search: null, controller: issuer, kind: 'no-kid', absolute: '' };
}

/** The keys `found` under the lookup's controller that `reference` may name. */
function searchKeys(lookup: KeyLookup & { search: null }, found: ControllerKeys, reference: string | null, curve: string | null, role: SignerRole): KeySearch {
  const { controller, absolute } = lookup;
  if (lookup.kind === 'did-url') {
    if (!found.ok) return indeterminate(`The key ${absolute} could not be looked up: ${found.reason}.`, found.resolution);
    let searches = DID_URL_SEARCHES.get(found);
    const kept = searches?.get(absolute);
    if (kept !== undefined) return kept;
    const key = found.keys.find((k) => k.id === absolute);
    const search: KeySearch = key
      ? { ok: true, keys: [key], controller, deactivated: found.deactivated, resolution: found.resolution }
      : fail(`${absolute} is not a verification method in the DID document of ${controller}.`, found.resolution);
    // Kept only for keys of a cached resolution (frozen, shared by later verifications), and only
    // as many URLs as the document has keys (a found key), so an attacker's kids are not kept.
    if (key && Object.isFrozen(found)) {
      if (!searches) DID_URL_SEARCHES.set(found, (searches = new Map()));
      searches.set(absolute, Object.freeze(search));
    }
    return search;
  }
  if (lookup.kind === 'under-issuer') {
    if (!found.ok)
      return indeterminate(
        `The key reference ${JSON.stringify(reference)} is not a DID URL, so it can only be looked up under the ${role.name}: ${found.reason}.`,
        found.resolution,
      );
    const matches = found.keys.filter((k) => k.id === absolute || k.id === `${controller}#${reference}` || k.thumbprint === reference);
    if (matches.length === 0) return fail(`No key of ${controller} has the id or JWK thumbprint ${JSON.stringify(reference)}.`, found.resolution);
    return { ok: true, keys: matches, controller, deactivated: found.deactivated, resolution: found.resolution };
  }
  if (!found.ok) return indeterminate(`The JWT names no key ("kid"), so the ${role.name}'s keys were to be tried: ${found.reason}.`, found.resolution);
  // Every token of a signer without kid tries the same candidates: kept with the keys read.
  const frozen = Object.isFrozen(found);
  const tried = frozen ? CANDIDATE_SEARCHES.get(found) : undefined;
  if (tried !== undefined && tried.curve === curve && tried.role === role && tried.controller === controller) return tried.search;
  const candidates = found.keys.filter(
    (k) => (k.status === 'VALID_KEY' || (curve === 'RSA' && isRsaKey(k))) && k.curve === curve && k.relationships.includes(role.relationship),
  );
  const search =
    candidates.length === 0
      ? fail(`The JWT names no key ("kid") and ${controller} authorises no ${curve ?? ''} key for ${role.relationship}.`, found.resolution)
      : { ok: true as const, keys: candidates, controller, deactivated: found.deactivated, resolution: found.resolution };
  if (frozen) CANDIDATE_SEARCHES.set(found, { curve, role, controller, search: Object.freeze(search) });
  return search;
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
  const lookup = keyLookup(reference, issuer, role);
  if (lookup.search !== null) return lookup.search;
  return searchKeys(lookup, await source.keysOf(lookup.controller, signal), reference, curve, role);
}

/**
 * findSigningKey when its answer needs no waiting: nothing to look up, or keys the source has at
 * hand (KeySource.knownKeysOf); undefined when the keys must be fetched (then findSigningKey).
 */
export function findKnownSigningKey(
  reference: string | null,
  issuer: string | null,
  curve: string | null,
  source: KeySource,
  role: SignerRole = ISSUER_ROLE,
): KeySearch | undefined {
  const lookup = keyLookup(reference, issuer, role);
  if (lookup.search !== null) return lookup.search;
  const found = source.knownKeysOf?.(lookup.controller);
  return found === undefined ? undefined : searchKeys(lookup, found, reference, curve, role);
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

/** The last binding of each key: its inputs and finding (a signer's tokens bind the same key alike). */
const BINDINGS = new WeakMap<ControllerKey, { controller: string; deactivated: boolean; issuer: string | null; role: SignerRole; finding: Finding }>();

/** The issuer check: is `key` (found under `controller`) the issuer's, authorised for assertionMethod? (A holder's, for authentication, with HOLDER's role.) */
export function bindToIssuer(key: ControllerKey, controller: string, deactivated: boolean, issuer: string | null, role: SignerRole = ISSUER_ROLE): Finding {
  // Keys of a cached resolution are frozen and shared: their last binding is kept with them.
  if (!Object.isFrozen(key)) return bind(key, controller, deactivated, issuer, role);
  const last = BINDINGS.get(key);
  if (last && last.issuer === issuer && last.controller === controller && last.deactivated === deactivated && last.role === role) return last.finding;
  const finding = Object.freeze(bind(key, controller, deactivated, issuer, role));
  BINDINGS.set(key, { controller, deactivated, issuer, role, finding });
  return finding;
}

function bind(key: ControllerKey, controller: string, deactivated: boolean, issuer: string | null, role: SignerRole): Finding {
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
