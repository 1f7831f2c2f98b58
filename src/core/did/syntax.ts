/**
 * DID and DID URL syntax (W3C DID Core §3.1–3.2 ABNF, RFC 3986 path/query/fragment).
 *
 * The grammar is assembled from named fragments, like the ABNF it mirrors. Parsing never
 * percent-decodes: decoding is the method's business (did:web keeps `%3A` as a port marker),
 * and identifiers taken from a URL are decoded exactly once, by `decodeIdentifier`, before
 * they reach the parser.
 */
import { ProblemError } from '../problems.js';

/** Longest DID or DID URL svc accepts (an RSA-4096 did:key is about 750 characters). */
export const MAX_DID_LENGTH = 8192;

const PCT_ENCODED = '%[0-9A-Fa-f]{2}';
const METHOD_NAME = '[a-z0-9]+';
const ID_CHAR = `(?:[A-Za-z0-9._-]|${PCT_ENCODED})`;
const METHOD_SPECIFIC_ID = `(?:${ID_CHAR}*:)*${ID_CHAR}+`;
const PCHAR = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|${PCT_ENCODED})`;
const PATH_ABEMPTY = `(?:/${PCHAR}*)*`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const FRAGMENT = QUERY;

const DID_RE = new RegExp(`^did:(${METHOD_NAME}):(${METHOD_SPECIFIC_ID})$`);
const DID_URL_RE = new RegExp(`^(did:(${METHOD_NAME}):(${METHOD_SPECIFIC_ID}))(${PATH_ABEMPTY})(?:\\?(${QUERY}))?(?:#(${FRAGMENT}))?$`);

export interface ParsedDid {
  /** The DID exactly as given. */
  did: string;
  method: string;
  /** Method-specific identifier, still percent-encoded. */
  id: string;
}

export interface ParsedDidUrl extends ParsedDid {
  didUrl: string;
  /** Path-abempty, including its leading slash; '' when absent. */
  path: string;
  query: string | null;
  fragment: string | null;
}

/** Explains why `text` is not a DID; the first offence found, for a one-line answer. */
function diagnose(text: string): string {
  if (text.length === 0) return 'the identifier is empty';
  if (!/^did:/i.test(text)) return 'a DID starts with "did:" followed by a method name, e.g. did:key:z6Mk…';
  if (!text.startsWith('did:')) return 'the scheme "did" must be lower case';
  const rest = text.slice(4);
  const colon = rest.indexOf(':');
  if (colon < 0) return 'a DID has the form did:<method>:<method-specific-id>';
  const method = rest.slice(0, colon);
  if (method.length === 0) return 'the method name is empty';
  if (!/^[a-z0-9]+$/.test(method)) return `the method name "${truncate(method)}" may hold only lower-case letters and digits`;
  const id = rest.slice(colon + 1);
  if (id.length === 0) return 'the method-specific identifier is empty';
  if (id.endsWith(':')) return 'the method-specific identifier must not end with ":"';
  for (let i = 0; i < id.length; i++) {
    // Step by code point, so a character outside the BMP is named whole, not by a surrogate half.
    const ch = String.fromCodePoint(id.codePointAt(i)!);
    if (ch === '%') {
      if (!/^%[0-9A-Fa-f]{2}/.test(id.slice(i, i + 3))) return `malformed percent-encoding at position ${4 + colon + 1 + i + 1}`;
      i += 2;
      continue;
    }
    if (!/[A-Za-z0-9._:-]/.test(ch)) {
      return `character ${describeChar(ch)} at position ${4 + colon + 1 + i + 1} is not allowed in a DID`;
    }
    i += ch.length - 1;
  }
  return 'not valid DID syntax';
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code >= 0x21 && code <= 0x7e ? `"${ch}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Parses a bare DID (no path, query or fragment). Throws INVALID_DID with a precise reason. */
export function parseDid(text: string): ParsedDid {
  if (text.length > MAX_DID_LENGTH) {
    throw new ProblemError('INVALID_DID', `The DID is longer than ${MAX_DID_LENGTH} characters.`);
  }
  const m = DID_RE.exec(text);
  if (m) return { did: text, method: m[1]!, id: m[2]! };
  const url = DID_URL_RE.exec(text);
  if (url) {
    const part = url[6] !== undefined ? 'fragment' : url[5] !== undefined ? 'query' : 'path';
    throw new ProblemError(
      'INVALID_DID',
      `"${truncate(text, 80)}" is a DID URL (it has a ${part}); resolution takes a bare DID. Dereference DID URLs instead.`,
    );
  }
  throw new ProblemError('INVALID_DID', `Not a valid DID: ${diagnose(text)}.`);
}

/** Parses a DID URL (DID plus optional path, query and fragment). Throws INVALID_DID_URL. */
export function parseDidUrl(text: string): ParsedDidUrl {
  if (text.length > MAX_DID_LENGTH) {
    throw new ProblemError('INVALID_DID_URL', `The DID URL is longer than ${MAX_DID_LENGTH} characters.`);
  }
  const m = DID_URL_RE.exec(text);
  if (!m) {
    const didPart = /^[^/?#]*/.exec(text)![0];
    const reason = DID_RE.test(didPart)
      ? 'its path, query or fragment holds a character that must be percent-encoded (write "#" inside a path as %23)'
      : diagnose(didPart);
    throw new ProblemError('INVALID_DID_URL', `Not a valid DID URL: ${reason}.`);
  }
  return {
    didUrl: text,
    did: m[1]!,
    method: m[2]!,
    id: m[3]!,
    path: m[4] ?? '',
    query: m[5] ?? null,
    fragment: m[6] ?? null,
  };
}

/**
 * Identifiers taken from a URL path or a command line may be raw (`did:web:host%3A8443`) or
 * fully percent-encoded (`did%3Aweb%3Ahost%253A8443`). Decode exactly once: a fully encoded
 * identifier is decoded, a raw one is left alone, so the `%3A` of a did:web port survives.
 */
export function decodeIdentifier(raw: string): string {
  if (!/^did%3A/i.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ProblemError('INVALID_DID', 'The percent-encoded identifier has malformed percent-encoding.');
  }
}

/** `[A-Za-z0-9._-]`: an idchar that is not percent-encoded. */
function isPlainIdChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x5f || c === 0x2d;
}

/** A fragment character other than `%`: pchar's unreserved and sub-delims, `:`, `@`, `/`, `?`. */
function isPlainFragmentChar(c: number): boolean {
  return (
    isPlainIdChar(c) ||
    c === 0x7e ||
    c === 0x21 ||
    c === 0x24 ||
    (c >= 0x26 && c <= 0x2c) ||
    c === 0x3b ||
    c === 0x3d ||
    c === 0x3a ||
    c === 0x40 ||
    c === 0x2f ||
    c === 0x3f
  );
}

/**
 * didOf for the common forms, read in one pass without the grammar's regular expression: a DID
 * without percent-encoding, alone or with a fragment without percent-encoding. `undefined`
 * for anything else (the full grammar decides); otherwise the answer DID_URL_RE would give.
 */
function plainDidOf(text: string): string | null | undefined {
  if (text.length > MAX_DID_LENGTH || !text.startsWith('did:')) return undefined;
  let i = 4;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) i++;
    else break;
  }
  if (i === 4 || text.charCodeAt(i) !== 0x3a) return undefined;
  i++;
  const idStart = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isPlainIdChar(c) || c === 0x3a) i++;
    else break;
  }
  // The method-specific id is not empty and does not end with ":".
  if (i === idStart || text.charCodeAt(i - 1) === 0x3a) return undefined;
  const end = i;
  if (end === text.length) return text;
  if (text.charCodeAt(end) !== 0x23) return undefined;
  for (i = end + 1; i < text.length; i++) if (!isPlainFragmentChar(text.charCodeAt(i))) return undefined;
  return text.slice(0, end);
}

/** The DID of a DID or DID URL (`did:key:z…#z…` → `did:key:z…`), or null when it is not one. */
export function didOf(reference: unknown): string | null {
  if (typeof reference !== 'string') return null;
  const plain = plainDidOf(reference);
  if (plain !== undefined) return plain;
  try {
    return parseDidUrl(reference).did;
  } catch {
    return null;
  }
}
