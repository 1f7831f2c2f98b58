/**
 * DID URL dereferencing (docs/evidence.md#dereferencing-and-the-graph; W3C DID Resolution v1 "DID
 * URL Dereferencing"): a DID URL → the resource it names, through one resolution.
 *
 *   did                       → the DID document                       application/did
 *   did?versionId=…           → that did:webvh version's document       application/did
 *   did#frag                  → the verification method or service      application/json
 *                               whose absolute id is did#frag
 *   did?service=x             → the service's endpoint URL(s)           text/uri-list
 *   did?service=x&relativeRef=/a?b   the endpoint joined with the reference (RFC 3986 §5)
 *   did/path                  → FEATURE_NOT_SUPPORTED (501)
 *
 * Everything the DID URL alone decides (syntax, path, parameter names, repeated parameters,
 * version option values, the shape of relativeRef) is checked before any network. Decisions:
 *
 * - Query parameters are split on `&`, each name and value percent-decoded exactly once; `+` is
 *   a plus, not a space (RFC 3986, not HTML forms). Empty members (`a=1&&b=2`) are skipped. A
 *   parameter with an empty value is INVALID_DID_URL for `service` and `relativeRef`,
 *   INVALID_OPTIONS for the version selectors.
 * - `service=x` names the service `did#x` (DID Core's service parameter is the service's
 *   fragment); `service=#x` and the absolute `service=did:…#x` are accepted too. Failing an exact
 *   match, the first service whose fragment is `x` is taken.
 * - Endpoint URLs: a string endpoint, or the string entries of an array endpoint, that parse as
 *   absolute http(s) URLs (normalised as the WHATWG URL parser writes them). Map entries are
 *   skipped, as the W3C algorithm does. When no URL remains: FEATURE_NOT_SUPPORTED if the
 *   endpoint holds a map (structured endpoints are a limit of svc, 501), NOT_FOUND otherwise.
 *   Several URLs are one text/uri-list, joined with CRLF.
 * - relativeRef (after the one decoding of the query) is refused with INVALID_DID_URL when it is
 *   empty, holds whitespace, a control character or a backslash, starts with `//` (an
 *   authority), has a scheme (a `:` before the first `/`, `?` or `#`), or has a `.` or `..`
 *   path segment — also when `%2e`, `%2f`, `%5c` or `%25` encode it, at any depth. The join is
 *   RFC 3986 reference resolution (`new URL(ref, endpoint)`); a result on another origin than
 *   the endpoint is refused too. (The W3C example that appends `/some/path` below the endpoint's
 *   path contradicts its own RFC 3986 step; svc follows the normative step.)
 * - A DID URL fragment with `service` is appended to each endpoint URL (W3C: the URL "inherits"
 *   the fragment); an endpoint URL that already has one is INVALID_DID_URL.
 * - A fragment lookup returns a copy of the object with its id made absolute; it searches
 *   `verificationMethod`, methods embedded under the verification relationships, then
 *   `service`. With version selectors it searches that version's document.
 * - `contentMetadata` is always the resolution's didDocumentMetadata (so the /1.0 binding can
 *   answer 410 for a deactivated DID whatever the DID URL selects).
 */
import { parseDidUrl } from '../did/syntax.js';
import { ProblemError } from '../problems.js';
import { resolve } from '../resolve/resolve.js';
import type { StageHooks } from '../resolve/trace.js';
import { RELATIONSHIPS, type EnrichedResolution } from '../resolve/types.js';
import { parseVersionOptions, VERSION_PARAMETERS, type VersionParameter } from '../resolve/version-options.js';
import { rfc3339, type Runtime } from '../runtime.js';

/** `@context` of DID resolution and dereferencing results (W3C DID Resolution v1). */
export const DID_RESOLUTION_CONTEXT = 'https://w3id.org/did-resolution/v1';

export const DID_PARAMETERS = ['service', 'relativeRef', ...VERSION_PARAMETERS] as const;
export type DidParameter = (typeof DID_PARAMETERS)[number];

export type DereferencedContentType = 'application/did' | 'application/json' | 'text/uri-list';

export interface DereferencingResult {
  '@context': typeof DID_RESOLUTION_CONTEXT;
  dereferencingMetadata: { contentType: DereferencedContentType; retrieved: string };
  /** The DID document, a verification method or service object, or the endpoint URL(s). */
  contentStream: unknown;
  contentMetadata: Record<string, unknown>;
}

export interface DereferenceOptions {
  /** Bypass and refresh the resolution cache. */
  noCache?: boolean;
  /** Aborted when nobody waits for the answer any more. */
  signal?: AbortSignal;
  /** The resolution's stage events (the CLI's progress). */
  hooks?: StageHooks;
}

/** What the DID URL asks for, read without any network. */
export interface DidUrlRequest {
  did: string;
  /** The fragment as written (still percent-encoded), or null. */
  fragment: string | null;
  service: string | null;
  relativeRef: string | null;
  version: ReturnType<typeof parseVersionOptions>;
}

/** Input quoted in a detail: one line, and short. */
function quoted(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDidParameter(name: string): name is DidParameter {
  return (DID_PARAMETERS as readonly string[]).includes(name);
}

function decodeOnce(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ProblemError('INVALID_DID_URL', `Not a valid DID URL: ${what} ${quoted(text, 40)} has malformed percent-encoding (or does not decode to UTF-8).`);
  }
}

/** The DID parameters of a query: each name and value decoded once; unknown or repeated names refused. */
export function parseDidParameters(query: string): Map<DidParameter, string> {
  const parameters = new Map<DidParameter, string>();
  for (const member of query.split('&')) {
    if (member === '') continue;
    const eq = member.indexOf('=');
    const name = decodeOnce(eq < 0 ? member : member.slice(0, eq), 'the query parameter name');
    if (!isDidParameter(name)) {
      throw new ProblemError('FEATURE_NOT_SUPPORTED', `The DID parameter ${quoted(name, 40)} is not supported; svc dereferences ${DID_PARAMETERS.join(', ')}.`);
    }
    if (parameters.has(name)) {
      throw new ProblemError('INVALID_DID_URL', `Not a valid DID URL: the parameter "${name}" is given more than once.`);
    }
    parameters.set(name, eq < 0 ? '' : decodeOnce(member.slice(eq + 1), `the value of "${name}"`));
  }
  return parameters;
}

/** Decodes %25, %2e, %2f and %5c until nothing changes, so that no encoding depth hides a dot segment. */
function unmaskPath(path: string): string {
  let current = path;
  for (let round = 0; round < 16; round++) {
    const next = current.replace(/%25/g, '%').replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** Refuses a relativeRef that could leave the endpoint (see the module comment). */
export function checkRelativeRef(ref: string): void {
  const refuse = (why: string) => {
    throw new ProblemError('INVALID_DID_URL', `Not a valid DID URL: relativeRef ${quoted(ref, 60)} ${why}.`);
  };
  if (ref === '') refuse('is empty');
  // The WHATWG URL parser strips tabs and newlines and reads "\" as "/" in http(s) URLs.
  if (/[\u0000-\u0020\u007f\\]/.test(ref)) refuse('holds whitespace, a control character or a backslash');
  if (ref.startsWith('//')) refuse('names an authority (it starts with "//"); only a path, query or fragment may follow the service endpoint');
  const firstDelimiter = ref.search(/[/?#]/);
  const head = firstDelimiter < 0 ? ref : ref.slice(0, firstDelimiter);
  if (head.includes(':')) refuse('has a scheme; it must be a relative reference');
  const pathEnd = ref.search(/[?#]/);
  const path = unmaskPath(pathEnd < 0 ? ref : ref.slice(0, pathEnd));
  if (path.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) {
    refuse('has a "." or ".." path segment (path traversal)');
  }
}

/**
 * Reads a DID URL into what it asks for, with no network: INVALID_DID_URL,
 * FEATURE_NOT_SUPPORTED (a path, an unknown parameter) or INVALID_OPTIONS as the DID URL alone
 * decides.
 */
export function readDidUrl(input: string): DidUrlRequest {
  const url = parseDidUrl(input);
  if (url.path !== '') {
    throw new ProblemError('FEATURE_NOT_SUPPORTED', `DID URL paths are not supported (${quoted(url.path, 60)} in ${quoted(url.did, 60)}).`);
  }
  const parameters = parseDidParameters(url.query ?? '');
  const service = parameters.get('service') ?? null;
  const relativeRef = parameters.get('relativeRef') ?? null;
  if (service === '') throw new ProblemError('INVALID_DID_URL', 'Not a valid DID URL: the service parameter is empty.');
  if (relativeRef !== null) {
    if (service === null)
      throw new ProblemError('INVALID_DID_URL', 'Not a valid DID URL: relativeRef needs a service parameter naming the service it is relative to.');
    checkRelativeRef(relativeRef);
  }
  const versionValues: Partial<Record<VersionParameter, string>> = {};
  for (const name of VERSION_PARAMETERS) {
    const value = parameters.get(name);
    if (value !== undefined) versionValues[name] = value;
  }
  return { did: url.did, fragment: url.fragment, service, relativeRef, version: parseVersionOptions(versionValues) };
}

/** A method or service id made absolute against the DID (DID Core allows `#frag`). */
function absoluteId(id: string, did: string): string {
  return id.startsWith('#') ? `${did}${id}` : id;
}

function fragmentOf(id: string): string | null {
  const hash = id.indexOf('#');
  return hash < 0 ? null : id.slice(hash + 1);
}

/** The verification method or service whose absolute id is `target`, copied with that id. */
function findById(result: EnrichedResolution, target: string): Record<string, unknown> | null {
  const doc = result.didDocument;
  const lists: unknown[] = [doc['verificationMethod'], ...RELATIONSHIPS.map((r) => doc[r]), doc['service']];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (isObject(entry) && typeof entry['id'] === 'string' && absoluteId(entry['id'], result.did) === target) {
        return { ...structuredClone(entry), id: target };
      }
    }
  }
  return null;
}

function findService(result: EnrichedResolution, service: string) {
  const { did } = result;
  const services = result.evidence.services;
  const wanted = service.startsWith('#') ? `${did}${service}` : service.startsWith('did:') ? service : `${did}#${service}`;
  const exact = services.find((s) => s.id === wanted);
  if (exact || service.startsWith('did:')) return exact;
  const fragment = service.startsWith('#') ? service.slice(1) : service;
  return services.find((s) => fragmentOf(s.id) === fragment);
}

function endpointUrls(serviceId: string, endpoint: unknown): URL[] {
  const entries = Array.isArray(endpoint) ? endpoint : [endpoint];
  const urls: URL[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string' || !URL.canParse(entry)) continue;
    const url = new URL(entry);
    if (url.protocol === 'https:' || url.protocol === 'http:') urls.push(url);
  }
  if (urls.length > 0) return urls;
  if (entries.some(isObject)) {
    throw new ProblemError('FEATURE_NOT_SUPPORTED', `The service ${serviceId} has a structured (map) endpoint; svc dereferences only http(s) URL endpoints.`);
  }
  throw new ProblemError('NOT_FOUND', `The service ${serviceId} has no http(s) URL endpoint.`);
}

function serviceContent(result: EnrichedResolution, request: DidUrlRequest & { service: string }, didUrl: string): string {
  const service = findService(result, request.service);
  if (!service)
    throw new ProblemError('NOT_FOUND', `No service ${quoted(request.service, 60)} in the DID document of ${quoted(result.did)} (${quoted(didUrl)}).`);
  const lines: string[] = [];
  for (const base of endpointUrls(service.id, service.serviceEndpoint)) {
    let url = base;
    if (request.relativeRef !== null) {
      url = new URL(request.relativeRef, base);
      if (url.origin !== base.origin) {
        throw new ProblemError(
          'INVALID_DID_URL',
          `Not a valid DID URL: relativeRef ${quoted(request.relativeRef, 60)} leaves the origin of the service endpoint ${base.origin}.`,
        );
      }
    }
    if (request.fragment !== null) {
      if (url.hash !== '') {
        throw new ProblemError('INVALID_DID_URL', `Not a valid DID URL: it has a fragment, and the selected endpoint URL ${quoted(url.href)} has one already.`);
      }
      url.hash = request.fragment;
    }
    lines.push(url.href);
  }
  return lines.join('\r\n');
}

/**
 * Dereferences an (already decoded) DID URL. The resolution's problems propagate; a fragment or
 * service the document does not hold is NOT_FOUND.
 */
export async function dereference(input: string, runtime: Runtime, options: DereferenceOptions = {}): Promise<DereferencingResult> {
  const request = readDidUrl(input);
  const result = await resolve(
    request.did,
    runtime,
    {
      ...request.version,
      ...(options.noCache ? { noCache: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
    options.hooks,
  );

  let contentType: DereferencedContentType;
  let contentStream: unknown;
  if (request.service !== null) {
    contentType = 'text/uri-list';
    contentStream = serviceContent(result, { ...request, service: request.service }, input);
  } else if (request.fragment !== null) {
    const target = `${result.did}#${request.fragment}`;
    const found = findById(result, target);
    if (!found) throw new ProblemError('NOT_FOUND', `Nothing in the DID document has the id ${quoted(target)}.`);
    contentType = 'application/json';
    contentStream = found;
  } else {
    contentType = 'application/did';
    contentStream = structuredClone(result.didDocument);
  }

  return {
    '@context': DID_RESOLUTION_CONTEXT,
    dereferencingMetadata: { contentType, retrieved: rfc3339(runtime.clock.now()) },
    contentStream,
    contentMetadata: structuredClone(result.didDocumentMetadata),
  };
}
