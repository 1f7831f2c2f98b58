/**
 * Where a web-hosted DID lives (did:web, did:webvh): the host and optional `%3A` port of the
 * authority part, then path segments, each percent-decoded exactly once and refused when a
 * decoded value could move the URL elsewhere (IP hosts, userinfo, slashes, dot segments, NUL).
 *
 *   example.com%3A8443 + [u, alice] → https://example.com:8443/u/alice/<file>
 *   example.com                     → https://example.com/.well-known/<file>
 */
import { ProblemError, type ProblemHint } from '../problems.js';

export interface WebLocation {
  /** Host lower-cased, Unicode names converted to punycode (IDNA, as the URL parser does). */
  host: string;
  /** The port, or null for the default 443 (written or not). */
  port: number | null;
  /** `https://host[:port]`. */
  origin: string;
  /** Path segments, re-encoded for a URL. */
  path: string[];
  /** `<origin>/<path>/<file>`, or `<origin>/.well-known/<file>` without a path. */
  fileUrl(file: string): string;
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Longest domain name (without the trailing dot) and label, RFC 1035 §2.3.4. */
export const MAX_HOST_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

export function webLocation(method: string, authority: string, segments: readonly string[]): WebLocation {
  const invalid = (reason: string) => new ProblemError('INVALID_DID', `Not a valid did:${method}: ${reason}.`);
  const decodeOnce = (segment: string, what: string): string => {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw invalid(`the ${what} "${segment}" is not valid percent-encoded UTF-8`);
    }
  };

  // The only colon allowed in the authority is the port separator, written %3A (or %3a).
  const portMatch = /^(.*)%3[Aa]([0-9]{1,5})$/.exec(authority);
  const rawHost = portMatch ? portMatch[1]! : authority;
  let port: number | null = null;
  if (portMatch) {
    port = Number(portMatch[2]);
    if (port < 1 || port > 65535) throw invalid(`the port ${portMatch[2]} is outside 1–65535`);
    // The default port is no port: the origin (and so a DID configuration's origin) omits it.
    if (port === 443) port = null;
  }
  const decodedHost = decodeOnce(rawHost, 'host');
  if (decodedHost === '') throw invalid('the host is empty');
  if (/[/\\?#@%:\s[\]]/.test(decodedHost) || decodedHost.includes('\0')) {
    throw invalid(`the host "${decodedHost}" contains a character a host name cannot have`);
  }
  let host: string;
  try {
    host = new URL(`https://${decodedHost}/`).hostname;
  } catch {
    throw invalid(`the host "${decodedHost}" is not a valid domain name`);
  }
  // After the URL parser, so that forms it normalises to an address (0x7f.1, 127.1) are caught.
  if (/^[0-9.]+$/.test(host) || host.startsWith('[')) throw invalid(`the host ${host} is an IP address; did:${method} needs a domain name`);
  // DNS limits (RFC 1035 §2.3.4), counted on the name as it is looked up (after IDNA): at most
  // 253 characters without the trailing dot, labels of 1 to 63. Longer names can only fail in
  // the resolver, which would misreport a bad identifier as an unreachable host.
  const name = host.replace(/\.$/, '');
  const idna = /[^\x00-\x7f]/.test(decodedHost);
  if (name.length > MAX_HOST_LENGTH) {
    throw invalid(`the host is ${name.length} characters long${idna ? ' after IDNA conversion' : ''}; a domain name has at most ${MAX_HOST_LENGTH}`);
  }
  const labels = name.split('.');
  const long = labels.find((label) => label.length > MAX_LABEL_LENGTH);
  if (long !== undefined) {
    throw invalid(
      `the host has a label of ${long.length} characters${idna ? ' after IDNA conversion' : ''} ("${long.slice(0, 20)}…"); a DNS label has at most ${MAX_LABEL_LENGTH}`,
    );
  }
  if (!labels.every((label) => HOST_LABEL.test(label))) throw invalid(`the host "${host}" is not a valid domain name`);
  const path = segments.map((segment) => {
    const decoded = decodeOnce(segment, 'path segment');
    if (decoded === '' || decoded === '.' || decoded === '..') throw invalid(`the path segment "${segment}" is empty or a dot segment`);
    if (/[/\\\0]/.test(decoded)) throw invalid(`the path segment "${segment}" contains a slash, backslash or NUL`);
    if (decoded.trim() !== decoded) throw invalid(`the path segment "${segment}" starts or ends with whitespace`);
    return encodeURIComponent(decoded);
  });
  const origin = `https://${host}${port === null ? '' : `:${port}`}`;
  return {
    host,
    port,
    origin,
    path,
    fileUrl: (file) => (path.length === 0 ? `${origin}/.well-known/${file}` : `${origin}/${path.join('/')}/${file}`),
  };
}

/**
 * The hint for a did:web or did:webvh whose host is followed by a segment that reads as a port
 * (`did:web:localhost:8443`): a colon there starts a path, so the DID names
 * `https://localhost/8443/did.json`, and a port is written `%3A` — the hint names the DID so
 * written. Null when the authority has a port already or the segment is no port (1–65535).
 * `id` is the method-specific id; a did:webvh's authority follows its SCID.
 */
export function colonPortHint(method: 'web' | 'webvh', id: string): ProblemHint | null {
  const parts = id.split(':');
  const at = method === 'web' ? 0 : 1;
  const authority = parts[at];
  const port = parts[at + 1];
  if (authority === undefined || port === undefined || /%3A/i.test(authority)) return null;
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return null;
  const suggested = [`did:${method}`, ...parts.slice(0, at), `${authority}%3A${port}`, ...parts.slice(at + 2)].join(':');
  return { kind: 'did-web-port', method, port, suggested };
}

/** Where an origin publishes its DID configuration (DIF Well Known DID Configuration; core/linkage/check.ts). */
export function configurationUrl(origin: string): string {
  return `${origin}/.well-known/did-configuration.json`;
}

export interface DidWebLocation extends WebLocation {
  /** The did.json URL. */
  documentUrl: string;
  /** The DID configuration URL of the origin. */
  configurationUrl: string;
}

/** Maps a did:web method-specific id to its URLs (decoding each part exactly once). */
export function didWebLocation(id: string): DidWebLocation {
  const kept = recentLocations.get(id);
  if (kept !== undefined) return kept;
  const [authority = '', ...segments] = id.split(':');
  const location = webLocation('web', authority, segments);
  const found: DidWebLocation = Object.freeze({
    ...location,
    path: Object.freeze(location.path) as string[],
    documentUrl: location.fileUrl('did.json'),
    configurationUrl: configurationUrl(location.origin),
  });
  recentLocations.set(id, found);
  if (recentLocations.size > RECENT_LOCATIONS) recentLocations.delete(recentLocations.keys().next().value as string);
  return found;
}

/**
 * The locations of the last few identifiers, as a did:web re-resolved (monitored, cached out)
 * asks for the same again: a location is a pure function of the identifier. An identifier that
 * is not valid throws and is not kept.
 */
const RECENT_LOCATIONS = 256;
const recentLocations = new Map<string, DidWebLocation>();
