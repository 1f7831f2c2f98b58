/**
 * Trusted issuers (docs/credentials.md#trusted-issuers): whose credentials a verifier accepts.
 * Trust is decided beside the verification, never inside it: a VALID credential from an issuer
 * nobody listed stays VALID, and the decision is reported next to it (`issuerTrust`).
 *
 * An entry is one of:
 *
 * - a DID, matched exactly. did:web and did:webvh DIDs are compared by where they are fetched
 *   from (host case-insensitive, a default port written or not, path segments decoded once), so
 *   `did:web:Example.com` is `did:web:example.com`; every other method by the DID string.
 * - `did:web:*.example.com`: every did:web whose host is a subdomain of example.com, at any depth
 *   (`a.example.com`, `a.b.example.com`), with any path or none. The domain itself is not a
 *   subdomain of itself: `did:web:example.com` does not match (list it too, see below).
 * - `did:web:example.com:*`: the DID `did:web:example.com` itself and every did:web with a path
 *   below it (`did:web:example.com:users:alice`); `did:web:example.com:users:*` likewise below
 *   `users` (and `did:web:example.com:users` itself).
 * - A port belongs to the host: `did:web:localhost%3A8443:*` matches that port only, and a
 *   domain form without a port matches the default port (443) only.
 * - did:webvh takes the same two domain forms without an SCID (`did:webvh:*.example.com`,
 *   `did:webvh:example.com:*`), matching every SCID hosted there. A did:web entry never matches a
 *   did:webvh DID nor the other way round: the two methods promise different things.
 *
 * Hosts are compared label by label, never as string prefixes: `did:web:example.com.evil.com`
 * and `did:web:evilexample.com` match no form of example.com. A wildcard anywhere else, a domain
 * form of another method, a form whose domain is a single label (`*.com`), a DID URL or anything
 * that is not a DID is refused, with a one-line reason.
 *
 * Deciding: a listed issuer is PASS (`matched` names the first entry, in list order, that
 * matches); an issuer not listed is FAIL, naming it; an issuer that is not a DID (an https URL)
 * is FAIL too, since every entry is a DID. INDETERMINATE when nothing can be decided: the list is
 * empty (an empty list never passes), or the credential yields no issuer (null). An issuer given
 * as a DID URL is compared as its DID.
 */
import { didOf, MAX_DID_LENGTH, parseDid } from '../did/syntax.js';
import { webLocation } from '../methods/web-location.js';
import { ProblemError } from '../problems.js';
import { plural, sentence, truncate, withoutPeriod } from '../text.js';
import { didWebvhLocation } from '../webvh/location.js';

export interface IssuerTrust {
  status: 'PASS' | 'FAIL' | 'INDETERMINATE';
  /** The issuer as the credential states it; null when none could be read. */
  issuer: string | null;
  /** The entry that matched (PASS only). */
  matched: string | null;
  /** The entries as given. */
  trustedIssuers: string[];
  /** One sentence. */
  detail: string;
}

/** Most entries a list may hold (the daemon's body, the CLI, a policy rule). */
export const MAX_TRUSTED_ISSUERS = 100;

type WebMethod = 'web' | 'webvh';

/** Where a did:web or did:webvh is fetched from, normalised for comparison. */
interface Site {
  method: WebMethod;
  /** did:webvh only. */
  scid: string | null;
  /** Lower case, IDNA to punycode, without a trailing dot. */
  host: string;
  /** Null for the default 443. */
  port: number | null;
  /** Path segments, decoded once and re-encoded. */
  path: string[];
}

/** A validated entry. */
export type TrustedIssuerEntry =
  | { kind: 'did'; entry: string; did: string; site: Site | null }
  | { kind: 'subdomains'; entry: string; method: WebMethod; host: string; port: number | null }
  | { kind: 'below'; entry: string; method: WebMethod; host: string; port: number | null; path: string[] };

const SCID = /^[1-9A-HJ-NP-Za-km-z]{46}$/;
const FORMS = 'an entry is a DID, or a did:web or did:webvh domain form (did:web:*.example.com, did:web:example.com:*)';
const WILDCARD_PLACES = 'a wildcard is allowed only as "*." before the host (did:web:*.example.com) or as a last ":*" segment (did:web:example.com:*)';

/** The reason of a method's INVALID_DID, as a clause. */
function reasonOf(err: unknown): string {
  if (err instanceof ProblemError) return withoutPeriod(err.detail).replace(/^Not a valid /, 'not a valid ');
  throw err;
}

function hostOf(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** The site of a did:web or did:webvh DID (bare); null for another method; throws INVALID_DID for an invalid one. */
function locate(did: string): Site | null {
  const method = /^did:(webvh|web):/.exec(did)?.[1] as WebMethod | undefined;
  if (method === undefined) return null;
  const id = did.slice(`did:${method}:`.length);
  if (method === 'webvh') {
    const location = didWebvhLocation(id);
    return { method, scid: location.scid, host: hostOf(location.host), port: location.port, path: location.path };
  }
  const [authority = '', ...segments] = id.split(':');
  const location = webLocation('web', authority, segments);
  return { method, scid: null, host: hostOf(location.host), port: location.port, path: location.path };
}

/** The site of a DID, or null for another method or an invalid did:web or did:webvh (which no domain form matches). */
function siteOf(did: string): Site | null {
  try {
    return locate(did);
  } catch (err) {
    if (err instanceof ProblemError) return null;
    throw err;
  }
}

/** A domain form's host (and port) and path, checked as a did:<method> location would be. */
function domainForm(method: WebMethod, authority: string, segments: string[]): { host: string; port: number | null; path: string[] } {
  const location = webLocation(method, authority, segments);
  return { host: hostOf(location.host), port: location.port, path: location.path };
}

/** Parses one entry: the entry, or the reason it is refused (a clause, no final period). */
export function parseTrustedIssuer(entry: unknown): { entry: TrustedIssuerEntry } | { reason: string } {
  if (typeof entry !== 'string') return { reason: 'it is not a string' };
  if (entry.length === 0) return { reason: 'it is empty' };
  if (entry.length > MAX_DID_LENGTH) return { reason: `it is longer than ${MAX_DID_LENGTH} characters` };
  if (!entry.startsWith('did:')) return { reason: `it is not a DID; ${FORMS}` };
  if (entry.includes('*')) return parseDomainForm(entry);
  let did: string;
  try {
    did = parseDid(entry).did;
  } catch (err) {
    const bare = didOf(entry);
    if (bare !== null) return { reason: `it is a DID URL (it has a path, query or fragment); list the issuer's DID, ${truncate(bare, 80)}` };
    return { reason: reasonOf(err) };
  }
  try {
    return { entry: { kind: 'did', entry, did, site: locate(did) } };
  } catch (err) {
    return { reason: reasonOf(err) };
  }
}

function parseDomainForm(entry: string): { entry: TrustedIssuerEntry } | { reason: string } {
  const method = /^did:([a-z0-9]+):/.exec(entry)?.[1];
  if (method === undefined) return { reason: `it is not a DID; ${FORMS}` };
  if (method !== 'web' && method !== 'webvh') {
    return { reason: `a wildcard is allowed only in did:web and did:webvh domain forms; list a did:${truncate(method, 20)} exactly` };
  }
  const id = entry.slice(`did:${method}:`.length);
  if (id === '*') {
    return { reason: `it would trust every did:${method}; name a domain (did:${method}:*.example.com or did:${method}:example.com:*)` };
  }
  try {
    if (id.startsWith('*.')) {
      const authority = id.slice(2);
      if (authority.includes(':')) {
        return { reason: `a "*." form matches every path under its hosts and takes no path (did:${method}:*.${truncate(authority.split(':')[0]!, 60)})` };
      }
      if (authority.includes('*')) return { reason: WILDCARD_PLACES };
      const { host, port } = domainForm(method, authority, []);
      if (!host.includes('.')) {
        return { reason: `"*.${truncate(host, 60)}" would trust every domain under a top-level name; name a registered domain (did:${method}:*.example.com)` };
      }
      return { entry: { kind: 'subdomains', entry, method, host, port } };
    }
    if (id.endsWith(':*')) {
      const rest = id.slice(0, -2);
      if (rest.includes('*') || rest === '') return { reason: WILDCARD_PLACES };
      const [authority = '', ...segments] = rest.split(':');
      if (method === 'webvh' && SCID.test(authority)) {
        return {
          reason:
            'a did:webvh domain form names no SCID: it matches every SCID on the domain (did:webvh:example.com:*); to trust one did:webvh, list it exactly',
        };
      }
      const { host, port, path } = domainForm(method, authority, segments);
      return { entry: { kind: 'below', entry, method, host, port, path } };
    }
  } catch (err) {
    return { reason: reasonOf(err) };
  }
  return { reason: WILDCARD_PLACES };
}

/** Why a list of entries cannot be used (one clause naming the entry), or null when every entry is well formed. */
export function trustedIssuersProblem(list: unknown): string | null {
  if (!Array.isArray(list)) return 'trusted issuers must be an array of strings';
  if (list.length > MAX_TRUSTED_ISSUERS) return `at most ${MAX_TRUSTED_ISSUERS} trusted issuers may be given, not ${list.length}`;
  for (const [index, entry] of list.entries()) {
    const parsed = parseTrustedIssuer(entry);
    if ('reason' in parsed)
      return `trusted issuer ${index + 1}${typeof entry === 'string' ? ` (${JSON.stringify(truncate(entry, 80))})` : ''} is refused: ${parsed.reason}`;
  }
  return null;
}

/** The entries of a well-formed list; throws INVALID_OPTIONS naming a bad entry. */
export function parseTrustedIssuers(list: readonly string[]): TrustedIssuerEntry[] {
  const problem = trustedIssuersProblem(list);
  if (problem !== null) throw new ProblemError('INVALID_OPTIONS', sentence(problem));
  return list.map((entry) => (parseTrustedIssuer(entry) as { entry: TrustedIssuerEntry }).entry);
}

function sameSite(a: Site, b: Site): boolean {
  return (
    a.method === b.method &&
    a.scid === b.scid &&
    a.host === b.host &&
    a.port === b.port &&
    a.path.length === b.path.length &&
    a.path.every((segment, i) => segment === b.path[i])
  );
}

/** Whether the issuer's DID (bare; `site` its location when a did:web or did:webvh) matches the entry. */
function matches(entry: TrustedIssuerEntry, did: string, site: Site | null): boolean {
  switch (entry.kind) {
    case 'did':
      return entry.site !== null && site !== null ? sameSite(entry.site, site) : entry.did === did;
    case 'subdomains':
      // Both hosts are valid domain names: a longer host ending in "." + the domain is a subdomain.
      return site !== null && site.method === entry.method && site.port === entry.port && site.host.endsWith(`.${entry.host}`);
    case 'below':
      return (
        site !== null &&
        site.method === entry.method &&
        site.host === entry.host &&
        site.port === entry.port &&
        site.path.length >= entry.path.length &&
        entry.path.every((segment, i) => segment === site.path[i])
      );
  }
}

const shown = (text: string) => truncate(text, 120);

function listed(trusted: readonly string[]): string {
  const first = trusted.slice(0, 3).map(shown).join(', ');
  return `${plural(trusted.length, 'entry', 'entries')}: ${first}${trusted.length > 3 ? ', …' : ''}`;
}

/**
 * Decides whether `issuer` (as a credential states it) is among `trusted`. Pure. Throws
 * INVALID_OPTIONS for a list that cannot be used (a bad entry, more than MAX_TRUSTED_ISSUERS):
 * a bad entry is never silently skipped.
 */
export function checkTrustedIssuer(issuer: string | null, trusted: readonly string[]): IssuerTrust {
  const entries = parseTrustedIssuers(trusted);
  const base = { issuer, matched: null, trustedIssuers: [...trusted] };
  if (entries.length === 0) {
    return {
      ...base,
      status: 'INDETERMINATE',
      detail: 'The list of trusted issuers is empty: it trusts no one, so whether the issuer is trusted is not decided.',
    };
  }
  if (issuer === null) {
    return { ...base, status: 'INDETERMINATE', detail: 'No issuer could be read from the credential, so it could not be compared with the trusted issuers.' };
  }
  const did = didOf(issuer);
  if (did === null) {
    return {
      ...base,
      status: 'FAIL',
      detail: `The issuer ${shown(issuer)} is not a DID, so it is none of the trusted issuers (${listed(trusted)}).`,
    };
  }
  const site = siteOf(did);
  const match = entries.find((entry) => matches(entry, did, site));
  const as = did === issuer ? '' : ` (compared as its DID ${shown(did)})`;
  if (match) {
    const how = match.kind === 'did' && match.entry === did ? 'it is listed' : `it matches the entry ${shown(match.entry)}`;
    return { ...base, matched: match.entry, status: 'PASS', detail: `The issuer ${shown(issuer)} is trusted${as}: ${how}.` };
  }
  return { ...base, status: 'FAIL', detail: `The issuer ${shown(issuer)} is not among the trusted issuers${as} (${listed(trusted)}).` };
}
