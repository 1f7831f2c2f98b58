/**
 * The W3C DID Resolution v1 HTTPS binding (`/1.0/identifiers/{did}`;
 * docs/daemon.md#the-w3c-did-resolution-binding) as pure functions: content negotiation, the
 * resolution result body, error bodies and their statuses. No Fastify here; the routes only
 * translate.
 *
 * Negotiation (RFC 9110 §12.5.1) is done per representation svc can send:
 *
 *   result   application/did-resolution, application/ld+json;profile="https://w3id.org/did-resolution"
 *   document application/did, application/did+json, application/did+ld+json, application/json,
 *            application/ld+json (with no profile, or a profile that is not the DID-resolution one)
 *
 * Each gets the q of the most specific media range that matches it (`*∕*` < `application/*` <
 * `type/subtype` < `application/ld+json` with a profile); the highest q > 0 wins, ties going to
 * the more specific range, then the earlier range in the header, then the document (so `*∕*`,
 * `application/*` and plain `application/ld+json` give the document). An
 * absent or empty Accept gives the document; q=0 means "not acceptable"; a header in which
 * nothing svc can send is acceptable gives null (406 REPRESENTATION_NOT_SUPPORTED). Malformed
 * ranges are skipped, parameters other than `q` and `profile` ignored, and only the first
 * MAX_ACCEPT_RANGES ranges are read (the scan is linear in the header either way).
 */
import { DID_RESOLUTION_CONTEXT } from '../core/dereference/dereference.js';
import { PROBLEMS, type Problem, type ProblemCode } from '../core/problems.js';
import type { DidDocument, EnrichedResolution } from '../core/resolve/types.js';

export { DID_RESOLUTION_CONTEXT };

export const DID_RESOLUTION_MEDIA_TYPE = 'application/did-resolution';
export const DID_MEDIA_TYPE = 'application/did';
/** The JSON-LD profile that asks `application/ld+json` for the full resolution result. */
export const DID_RESOLUTION_PROFILE = 'https://w3id.org/did-resolution';
/** Media ranges of one Accept header that are read; the rest are ignored. */
export const MAX_ACCEPT_RANGES = 64;

export type Negotiated = 'resolution' | 'document';

interface MediaRange {
  type: string;
  subtype: string;
  /** The `profile` parameter, unquoted; null when absent. */
  profile: string | null;
  q: number;
  position: number;
}

interface Representation {
  type: string;
  subtype: string;
  /** For application/ld+json: whether it is the profile-selected result. */
  profiled: boolean;
  outcome: Negotiated;
}

/** In order of preference on a full tie: documents first (the default). */
const REPRESENTATIONS: readonly Representation[] = [
  { type: 'application', subtype: 'did', profiled: false, outcome: 'document' },
  { type: 'application', subtype: 'did+json', profiled: false, outcome: 'document' },
  { type: 'application', subtype: 'did+ld+json', profiled: false, outcome: 'document' },
  { type: 'application', subtype: 'json', profiled: false, outcome: 'document' },
  { type: 'application', subtype: 'ld+json', profiled: false, outcome: 'document' },
  { type: 'application', subtype: 'did-resolution', profiled: false, outcome: 'resolution' },
  { type: 'application', subtype: 'ld+json', profiled: true, outcome: 'resolution' },
];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Splits `text` on `separator` outside quoted strings (with backslash escapes), at most `limit`
 * pieces (whatever follows the last of them is dropped).
 */
function splitOutsideQuotes(text: string, separator: ',' | ';', limit: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      pieces.push(text.slice(start, i));
      if (pieces.length >= limit) return pieces;
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * A parameter value: a token (leniently, any run without whitespace, quotes, `,`, `;` or `\`, so
 * that an unquoted profile URI is read) or a quoted string whose closing quote ends the value.
 */
function unquote(value: string): string | null {
  if (!value.startsWith('"')) return /^[^\s",;\\]+$/.test(value) ? value : null;
  let out = '';
  for (let i = 1; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\') {
      if (i + 1 >= value.length) return null;
      out += value[++i];
    } else if (ch === '"') {
      return i === value.length - 1 ? out : null;
    } else out += ch;
  }
  return null;
}

function parseRange(text: string, position: number): MediaRange | null {
  const [head = '', ...params] = splitOutsideQuotes(text, ';', 32).map((p) => p.trim());
  const slash = head.indexOf('/');
  if (slash < 0) return null;
  const type = head.slice(0, slash).toLowerCase();
  const subtype = head.slice(slash + 1).toLowerCase();
  if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return null;
  let q = 1;
  let profile: string | null = null;
  let sawQ = false;
  for (const param of params) {
    if (param === '') continue;
    const eq = param.indexOf('=');
    if (eq <= 0) return null;
    const name = param.slice(0, eq).trim().toLowerCase();
    const value = unquote(param.slice(eq + 1).trim());
    if (value === null) return null;
    if (name === 'q') {
      if (sawQ || !QVALUE.test(value)) return null;
      sawQ = true;
      q = Number(value);
    } else if (name === 'profile' && !sawQ) {
      // Parameters after q are accept-extensions (RFC 9110 §12.5.1), not media type parameters.
      profile = value;
    }
  }
  return { type, subtype, profile, q, position };
}

/** The media ranges of an Accept header (malformed ones skipped, at most MAX_ACCEPT_RANGES). */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  splitOutsideQuotes(accept, ',', MAX_ACCEPT_RANGES).forEach((piece, position) => {
    const range = parseRange(piece.trim(), position);
    if (range) ranges.push(range);
  });
  return ranges;
}

/** How specifically `range` matches `rep`: -1 no match, 0 `*∕*`, 1 `type/*`, 2 `type/subtype`, 3 with a profile. */
function specificity(range: MediaRange, rep: Representation): number {
  if (range.type === '*') return 0;
  if (range.type !== rep.type) return -1;
  if (range.subtype === '*') return 1;
  if (range.subtype !== rep.subtype) return -1;
  if (rep.subtype !== 'ld+json' || range.profile === null) return 2;
  const asksForResult = range.profile.split(/\s+/).includes(DID_RESOLUTION_PROFILE);
  return asksForResult === rep.profiled ? 3 : -1;
}

/**
 * Content negotiation for a DID: 'resolution' (the full result, application/did-resolution),
 * 'document' (the DID document only, application/did) or null (406).
 */
export function negotiateResolution(accept: string | undefined): Negotiated | null {
  if (accept === undefined) return 'document';
  // A client sends the same Accept on every request: its answer is kept (a few, forgotten all
  // together when full, so that varied headers cost memory of no more than this).
  const known = NEGOTIATED.get(accept);
  if (known !== undefined) return known;
  const outcome = negotiate(accept);
  if (accept.length > 256) return outcome;
  if (NEGOTIATED.size >= NEGOTIATED_KEPT) NEGOTIATED.clear();
  NEGOTIATED.set(accept, outcome);
  return outcome;
}

const NEGOTIATED = new Map<string, Negotiated | null>();
const NEGOTIATED_KEPT = 32;

function negotiate(accept: string): Negotiated | null {
  if (accept.trim() === '') return 'document';
  const ranges = parseAccept(accept);
  let best: { q: number; level: number; position: number; outcome: Negotiated } | null = null;
  for (const rep of REPRESENTATIONS) {
    let match: { q: number; level: number; position: number } | null = null;
    for (const range of ranges) {
      const level = specificity(range, rep);
      if (level < 0) continue;
      // The most specific range decides; among equally specific ones, the highest q.
      if (!match || level > match.level || (level === match.level && range.q > match.q)) {
        match = { q: range.q, level, position: range.position };
      }
    }
    if (!match || match.q === 0) continue;
    const better =
      !best || match.q > best.q || (match.q === best.q && (match.level > best.level || (match.level === best.level && match.position < best.position)));
    if (better) best = { ...match, outcome: rep.outcome };
  }
  return best?.outcome ?? null;
}

/** What a DID URL on /1.0 is answered with (the result is known, so is its content type). */
export type NegotiatedDereference =
  /** application/did-url-dereferencing: the full dereferencing result. */
  | 'result'
  /** The content's own media type: the content stream alone (or, for text/uri-list, 303 to the endpoint). */
  | 'content'
  /** No Accept, or only wildcards: svc's own shape, the full result as application/json. */
  | 'spec';

export const DID_URL_DEREFERENCING_MEDIA_TYPE = 'application/did-url-dereferencing';

/**
 * Media types that ask for a content stream of `contentType` alone: application/did (and its
 * did+json, did+ld+json relatives) for a version's document, text/uri-list for a service
 * endpoint. application/json is not among them: it is svc's own media type for the full
 * result, which a fragment's JSON content therefore never displaces.
 */
function contentRepresentations(contentType: string): Representation[] {
  if (contentType === 'application/did') {
    return ['did', 'did+json', 'did+ld+json'].map((subtype) => ({ type: 'application', subtype, profiled: false, outcome: 'document' as const }));
  }
  if (contentType === 'text/uri-list') return [{ type: 'text', subtype: 'uri-list', profiled: false, outcome: 'document' }];
  return [];
}

/**
 * Content negotiation for a DID URL on /1.0 (DID Resolution, HTTPS binding; svc's choices are in
 * docs/daemon.md#the-w3c-did-resolution-binding): application/did-url-dereferencing → 'result'; the
 * content's own media type (application/did… for a version, text/uri-list for a service) →
 * 'content'; application/json, no Accept or wildcards only → 'spec' (svc's own shape: the full
 * result as application/json); nothing acceptable → null (406). The highest q wins; on a tie the
 * result, then the content, then svc's own shape.
 */
export function negotiateDereferencing(accept: string | undefined, contentType: string): NegotiatedDereference | null {
  if (accept === undefined || accept.trim() === '') return 'spec';
  const ranges = parseAccept(accept);
  const reps: Array<{ rep: Representation; outcome: NegotiatedDereference }> = [
    { rep: { type: 'application', subtype: 'did-url-dereferencing', profiled: false, outcome: 'resolution' }, outcome: 'result' },
    ...contentRepresentations(contentType).map((rep) => ({ rep, outcome: 'content' as const })),
    { rep: { type: 'application', subtype: 'json', profiled: false, outcome: 'document' }, outcome: 'spec' },
  ];
  let best: { q: number; outcome: NegotiatedDereference } | null = null;
  for (const { rep, outcome } of reps) {
    let match: { q: number; level: number } | null = null;
    for (const range of ranges) {
      const level = specificity(range, rep);
      // Only a range that names the type asks for it; wildcards ask for the default shape.
      if (level < 2) continue;
      if (!match || level > match.level || (level === match.level && range.q > match.q)) match = { q: range.q, level };
    }
    if (!match || match.q === 0) continue;
    if (!best || match.q > best.q) best = { q: match.q, outcome };
  }
  if (best) return best.outcome;
  return ranges.some((range) => range.q > 0 && (range.type === '*' || (range.type === 'application' && range.subtype === '*'))) ? 'spec' : null;
}

export interface ResolutionResultBody {
  '@context': typeof DID_RESOLUTION_CONTEXT;
  didDocument: DidDocument;
  didResolutionMetadata: { contentType: typeof DID_MEDIA_TYPE; retrieved: string; durationMs: number };
  didDocumentMetadata: Record<string, unknown>;
}

/**
 * The DID resolution result of the binding. `didResolutionMetadata.contentType` is the media type
 * of the document inside it (application/did); the response itself is application/did-resolution.
 */
export function resolutionResultBody(result: EnrichedResolution): ResolutionResultBody {
  return {
    '@context': DID_RESOLUTION_CONTEXT,
    didDocument: result.didDocument,
    didResolutionMetadata: {
      contentType: DID_MEDIA_TYPE,
      retrieved: result.didResolutionMetadata.retrieved,
      durationMs: result.didResolutionMetadata.durationMs,
    },
    didDocumentMetadata: result.didDocumentMetadata,
  };
}

/** 410 for a deactivated DID (W3C: `deactivated: true` in the document metadata), else 200. */
export function w3cStatusOf(result: EnrichedResolution): 200 | 410 {
  return result.didDocumentMetadata['deactivated'] === true || result.verdict.outcome === 'DEACTIVATED' ? 410 : 200;
}

/** Status of a problem on /1.0 (docs/reference/problems.md), or the /v1 status where it has none. */
export function w3cProblemStatus(code: ProblemCode): number {
  const spec = PROBLEMS[code];
  return spec.w3cStatus ?? spec.status;
}

/** The RFC 9457 object as embedded on /1.0: its status is the /1.0 one, and no trace. */
function embeddedProblem(problem: Problem): Problem {
  const { trace: _trace, ...rest } = problem;
  return { ...rest, status: w3cProblemStatus(problem.code) };
}

export interface ErrorResolutionBody {
  '@context': typeof DID_RESOLUTION_CONTEXT;
  didDocument: null;
  didResolutionMetadata: { error: Problem };
  didDocumentMetadata: Record<string, never>;
}

/** A failed resolution on /1.0: `didDocument: null`, the problem in `didResolutionMetadata.error`. Status: w3cProblemStatus. */
export function errorResolutionBody(problem: Problem): ErrorResolutionBody {
  return {
    '@context': DID_RESOLUTION_CONTEXT,
    didDocument: null,
    didResolutionMetadata: { error: embeddedProblem(problem) },
    didDocumentMetadata: {},
  };
}

export interface ErrorDereferencingBody {
  '@context': typeof DID_RESOLUTION_CONTEXT;
  dereferencingMetadata: { error: Problem };
  contentStream: null;
  contentMetadata: Record<string, never>;
}

/** A failed dereference on /1.0 (an identifier with `/`, `?` or `#`). Status: w3cProblemStatus. */
export function errorDereferencingBody(problem: Problem): ErrorDereferencingBody {
  return {
    '@context': DID_RESOLUTION_CONTEXT,
    dereferencingMetadata: { error: embeddedProblem(problem) },
    contentStream: null,
    contentMetadata: {},
  };
}
