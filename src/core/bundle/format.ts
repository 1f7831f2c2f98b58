/**
 * The evidence bundle format, version 1 (docs/evidence.md#evidence-bundles): one JSON file, written
 * in its RFC 8785 canonical form plus a final newline, that holds the exact bytes of every
 * resource svc fetched for one piece of work (with its URL, time, HTTP status, the headers that
 * matter, the pinned address and the TLS chain as the handshake validated it), the inputs it was
 * given, the result it computed, svc's version and hash profile — and, from a daemon with a key,
 * a signature over all of that.
 *
 * A reader needs no svc: bytes are standard base64 (RFC 4648 §4), each resource names the hex
 * SHA-256 of its bytes, and the file is canonical JSON, so re-serialising what was parsed gives
 * the same bytes back (a file that does not is refused: that is how duplicate members, or an
 * edit by a tool that reformats, are caught).
 */
import { canonicalize, HASH_PROFILE, sha256Hex } from '../canonical.js';
import { describeJsonError, parseJsonStrict, type JsonObject, type JsonValue } from '../encoding/json.js';
import { ProblemError } from '../problems.js';

export const BUNDLE_FORMAT = 'svc-evidence-bundle';
/** The media type a daemon serves a bundle as. */
export const BUNDLE_MEDIA_TYPE = 'application/vnd.svc.evidence-bundle+json';
export const BUNDLE_VERSION = 1;
/** Largest bundle svc writes or reads: 16 MiB. */
export const MAX_BUNDLE_BYTES = 16 * 1024 * 1024;
/** The hash profile of a bundle: RFC 8785 canonical JSON, SHA-256, base64 bytes. */
export const BUNDLE_HASH_PROFILE = `${HASH_PROFILE}; sha-256; base64`;
/** The JSON nesting a bundle may have (a result nests deeper than a DID document). */
const BUNDLE_MAX_DEPTH = 120;
/** Most resources a bundle holds: far more than any work fetches (an MCP inspection reads at most a few dozen). */
export const MAX_BUNDLE_RESOURCES = 1000;

/** What a bundle was made by: one command and what it needs to run again. */
export type BundleKind = 'resolve' | 'verify-credential' | 'inspect-mcp' | 'inspect-a2a';
export const BUNDLE_KINDS: readonly BundleKind[] = ['resolve', 'verify-credential', 'inspect-mcp', 'inspect-a2a'];

/** The work a bundle records: the command, what it examined, and the options that shape its result. */
export interface BundleCommand {
  kind: BundleKind;
  /** The DID, URL or file examined, as given. */
  subject: string;
  /** What the work needs to run again (the core's options, JSON). */
  options: JsonObject;
}

/** Bytes the work was given rather than fetched (a credential file). */
export interface BundleInput {
  name: string;
  mediaType: string | null;
  sha256: string;
  /** base64 (RFC 4648 §4). */
  body: string;
}

/** The TLS connection a resource came over. */
export interface BundleTls {
  host: string;
  protocol: string;
  cipher: string;
  /** Subject of the trust anchor the handshake chained to. */
  validatedBy: string;
  /** The chain as the handshake validated it: base64 DER, leaf first, the trust anchor last. */
  chain: string[];
}

/** One exchange svc made: the request, and the response exactly as it arrived. */
export interface BundleResource {
  /** r1, r2 … in the order the exchanges ended (a failure takes the next number too); a re-run ends them in that order. */
  id: string;
  /** What the resource was fetched as ("DID document", "DID configuration"). */
  purpose: string;
  /** When svc asked for it (RFC 3339). */
  fetchedAt: string;
  request: {
    method: 'GET' | 'POST' | 'DELETE';
    url: string;
    /** SHA-256 and base64 of the request body, when there was one (an MCP message). Request headers are never kept. */
    sha256?: string;
    body?: string;
  };
  response: {
    /** Final URL after redirects. */
    url: string;
    status: number;
    /** The headers that matter (RECORDED_HEADERS), lower-case names. */
    headers: Record<string, string>;
    bytes: number;
    sha256: string;
    /** base64 (RFC 4648 §4). */
    body: string;
  };
  redirects: Array<{ from: string; to: string; status: number }>;
  /** The address the connection was pinned to. */
  peerAddress: string;
  /** Operator allowances (CIDR) that admitted an address; empty when every address was public. */
  allowances: string[];
  /** null for plain http. */
  tls: BundleTls | null;
}

/**
 * A request that got no response: unreachable, refused by svc's own policy or bounds (too large,
 * too slow, a redirect elsewhere). Its outcome is evidence too — an unreachable status list makes
 * a credential INDETERMINATE — so the re-run meets the same problem at the same point.
 */
export interface BundleFailure {
  /** Numbered with the resources (r1, r2 … in the order the exchanges ended). */
  id: string;
  purpose: string;
  fetchedAt: string;
  request: BundleResource['request'];
  /** The problem the fetch ended in, as svc reported it. */
  problem: { code: string; detail: string };
}

/** One DNS TXT lookup the work made. */
export interface BundleTxtLookup {
  name: string;
  records: string[];
}

/** A JWS (RFC 7515, flattened, detached payload) over the canonical form of the bundle without `signature`. */
export interface BundleSignature {
  protected: string;
  signature: string;
}

export interface EvidenceBundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  hashProfile: string;
  svc: { version: string };
  /** When the work started: the time the checks are re-run at "observation". */
  observedAt: string;
  command: BundleCommand;
  inputs: BundleInput[];
  resources: BundleResource[];
  /** Requests that got no response, when there were any (numbered with the resources). */
  failures?: BundleFailure[];
  txt: BundleTxtLookup[];
  /** The result svc computed, as it reported it. */
  result: JsonObject;
  signature?: BundleSignature;
}

/** Response headers a bundle keeps: what decides how a resource is read, never a cookie or credential. */
export const RECORDED_HEADERS: readonly string[] = [
  'content-type',
  'content-length',
  'content-encoding',
  'cache-control',
  'etag',
  'last-modified',
  'expires',
  'date',
  'age',
  'link',
  'location',
  'mcp-session-id',
  'mcp-protocol-version',
  'www-authenticate',
  'retry-after',
];

export function invalidBundle(detail: string): ProblemError {
  return new ProblemError('INVALID_BUNDLE', detail);
}

/** The bytes of a bundle as written: canonical JSON and a newline. PAYLOAD_TOO_LARGE beyond 16 MiB. */
export function encodeBundle(bundle: EvidenceBundle): Uint8Array {
  const bytes = new TextEncoder().encode(`${canonicalize(bundle)}\n`);
  if (bytes.length > MAX_BUNDLE_BYTES) {
    throw new ProblemError(
      'PAYLOAD_TOO_LARGE',
      `The evidence bundle would be ${bytes.length} bytes; a bundle holds at most ${MAX_BUNDLE_BYTES} bytes (16 MiB), so none was written.`,
    );
  }
  return bytes;
}

/** The canonical form a signature covers: the bundle without its `signature` member. */
export function signedForm(bundle: EvidenceBundle): Omit<EvidenceBundle, 'signature'> {
  const { signature: _signature, ...rest } = bundle;
  return rest;
}

/** base64 (RFC 4648 §4) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}

/**
 * Strict base64 (RFC 4648 §4: padded, no whitespace, pad bits zero) → bytes, or null. Decoding
 * is lenient, so the bytes are encoded again: the text must be exactly that encoding (one text
 * per byte string, as canonical form wants; and ~5× faster than a regular expression over it).
 */
export function fromBase64(text: string): Uint8Array | null {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) return null;
  return new Uint8Array(bytes);
}

/** Decoded response bodies, by response: a body is read by the shape check, the digest check and each re-run. */
const decodedBodies = new WeakMap<object, { text: string; bytes: Uint8Array | null }>();

/** A resource's response body as bytes (null: not base64), decoded once while its text stays the same. */
export function responseBody(response: { body: string }): Uint8Array | null {
  const kept = decodedBodies.get(response);
  if (kept && kept.text === response.body) return kept.bytes;
  const bytes = fromBase64(response.body);
  decodedBodies.set(response, { text: response.body, bytes });
  return bytes;
}

/**
 * Reads a bundle from its bytes, refusing (INVALID_BUNDLE, one line naming what is wrong) anything
 * that is not a version-1 svc bundle in canonical form: not UTF-8 JSON, duplicate members, a
 * reformatted file, a newer version, a member of the wrong type, two resources with one id,
 * undecodable bytes. PAYLOAD_TOO_LARGE beyond 16 MiB, before parsing. Whether the bytes match
 * their digests, and what the checks find, is `verifyBundle`'s answer, not a refusal here.
 */
export function decodeBundle(bytes: Uint8Array, where = 'the bundle'): EvidenceBundle {
  if (bytes.length > MAX_BUNDLE_BYTES) {
    throw new ProblemError('PAYLOAD_TOO_LARGE', `${where} is ${bytes.length} bytes; svc reads at most ${MAX_BUNDLE_BYTES} bytes (16 MiB) of a bundle.`);
  }
  if (bytes.length === 0) throw invalidBundle(`${where} is empty (0 bytes), so it is not an svc evidence bundle.`);
  // Canonical JSON has no byte order mark; a decoder would drop it silently and accept the rest.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw invalidBundle(`${where} begins with a byte order mark (U+FEFF), which canonical JSON has not: it was re-saved by an editor after svc wrote it.`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw invalidBundle(`${where} is not UTF-8 text, so it is not an svc evidence bundle.`);
  }
  let value: JsonValue;
  try {
    value = parseJsonStrict(text, { maxDepth: BUNDLE_MAX_DEPTH });
  } catch (err) {
    throw invalidBundle(`${describeJsonError(err, where)}.`);
  }
  const bundle = checkShape(value, where);
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (canonicalize(value) !== body) {
    throw invalidBundle(`${where} is not in its canonical form (RFC 8785): it was edited or reformatted after svc wrote it.`);
  }
  return bundle;
}

type Check = (value: JsonValue | undefined) => boolean;
const isString: Check = (v) => typeof v === 'string';
const isNat: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringRecord: Check = (v) => isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const SHA256 = /^[0-9a-f]{64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** An absolute http(s) URL: what svc fetches (plain http only when an operator allows it). */
const isHttpUrl: Check = (v) => {
  if (typeof v !== 'string') return false;
  try {
    const url = new URL(v);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

function need(ok: boolean, where: string, what: string): void {
  if (!ok) throw invalidBundle(`${where}: ${what}.`);
}

function checkShape(value: JsonValue, where: string): EvidenceBundle {
  need(isObject(value), where, 'not a JSON object, so not an svc evidence bundle');
  const b = value as JsonObject;
  need(b.format === BUNDLE_FORMAT, where, `"format" is not "${BUNDLE_FORMAT}", so it is not an svc evidence bundle`);
  need(isNat(b.version) && (b.version as number) >= 1, where, '"version" is not a positive integer');
  if (b.version !== BUNDLE_VERSION) {
    throw invalidBundle(
      `${where} is format version ${String(b.version)}; this svc reads version ${BUNDLE_VERSION}${(b.version as number) > BUNDLE_VERSION ? ' — verify it with a newer svc' : ''}.`,
    );
  }
  need(isString(b.hashProfile), where, '"hashProfile" is missing');
  need(b.hashProfile === BUNDLE_HASH_PROFILE, where, `hash profile "${String(b.hashProfile).slice(0, 60)}" is not "${BUNDLE_HASH_PROFILE}"`);
  need(isObject(b.svc) && isString((b.svc as JsonObject).version), where, '"svc.version" is missing');
  need(isString(b.observedAt) && !Number.isNaN(Date.parse(b.observedAt as string)), where, '"observedAt" is not a time');
  const command = b.command as JsonObject;
  need(isObject(command), where, '"command" is missing');
  need(BUNDLE_KINDS.includes(command.kind as BundleKind), where, `"command.kind" is not one of ${BUNDLE_KINDS.join(', ')}`);
  need(isString(command.subject) && isObject(command.options), where, '"command" lacks its subject or options');
  need(Array.isArray(b.inputs), where, '"inputs" is not a list');
  const names = new Set<string>();
  (b.inputs as JsonValue[]).forEach((input, i) => {
    const at = `${where}, input ${i + 1}`;
    need(isObject(input), at, 'not an object');
    const x = input as JsonObject;
    need(isString(x.name) && (x.mediaType === null || isString(x.mediaType)), at, 'lacks its name or media type');
    need(!names.has(x.name as string), where, `two inputs are named "${(x.name as string).slice(0, 60)}"`);
    names.add(x.name as string);
    need(isString(x.sha256) && SHA256.test(x.sha256 as string), at, '"sha256" is not a hex SHA-256');
    need(isString(x.body) && fromBase64(x.body as string) !== null, at, '"body" is not base64');
  });
  need(Array.isArray(b.resources), where, '"resources" is not a list');
  const count = (b.resources as JsonValue[]).length;
  need(count <= MAX_BUNDLE_RESOURCES, where, `it holds ${count} resources; a bundle holds at most ${MAX_BUNDLE_RESOURCES}`);
  const ids = new Set<string>();
  for (const resource of b.resources as JsonValue[]) checkResource(resource, ids, where);
  if (b.failures !== undefined) {
    need(Array.isArray(b.failures) && (b.failures as JsonValue[]).length > 0, where, '"failures" is not a list of at least one failure');
    for (const failure of b.failures as JsonValue[]) checkFailure(failure, ids, where);
  }
  need(Array.isArray(b.txt), where, '"txt" is not a list');
  for (const lookup of b.txt as JsonValue[]) {
    need(
      isObject(lookup) && isString((lookup as JsonObject).name) && isStringArray((lookup as JsonObject).records),
      where,
      'a TXT lookup lacks its name or records',
    );
  }
  need(isObject(b.result), where, '"result" is not an object');
  if (b.signature !== undefined) {
    const s = b.signature as JsonObject;
    need(
      isObject(s) &&
        Object.keys(s).length === 2 &&
        isString(s.protected) &&
        BASE64URL.test(s.protected as string) &&
        isString(s.signature) &&
        BASE64URL.test(s.signature as string),
      where,
      '"signature" is not a flattened JWS (protected, signature: base64url) with a detached payload',
    );
  }
  const known = new Set(['format', 'version', 'hashProfile', 'svc', 'observedAt', 'command', 'inputs', 'resources', 'failures', 'txt', 'result', 'signature']);
  const unknown = Object.keys(b).find((k) => !known.has(k));
  need(unknown === undefined, where, `unknown member "${unknown?.slice(0, 40)}" (version ${BUNDLE_VERSION} has none)`);
  return b as unknown as EvidenceBundle;
}

/** What a resource and a failure share: a unique id, purpose, time and request. Returns where it is. */
function checkRequest(r: JsonObject, ids: Set<string>, where: string, what: string): string {
  need(isString(r.id) && /^r[1-9][0-9]{0,5}$/.test(r.id as string), where, `a ${what} id is not r1, r2 …`);
  const at = `${where}, ${what} ${r.id as string}`;
  need(!ids.has(r.id as string), where, `two resources or failures are ${r.id as string}`);
  ids.add(r.id as string);
  need(isString(r.purpose) && isString(r.fetchedAt) && !Number.isNaN(Date.parse(r.fetchedAt as string)), at, 'lacks its purpose or time');
  const request = r.request as JsonObject;
  need(isObject(request) && ['GET', 'POST', 'DELETE'].includes(request.method as string) && isString(request.url), at, 'lacks its request method or URL');
  need(isHttpUrl(request.url), at, 'its request URL is not an absolute https or http URL');
  if (request.body !== undefined) {
    need(isString(request.body) && fromBase64(request.body as string) !== null, at, 'the request body is not base64');
    need(isString(request.sha256) && SHA256.test(request.sha256 as string), at, 'the request body lacks its SHA-256');
  }
  return at;
}

function checkFailure(value: JsonValue, ids: Set<string>, where: string): void {
  need(isObject(value), where, 'a failure is not an object');
  const f = value as JsonObject;
  const at = checkRequest(f, ids, where, 'failure');
  const problem = f.problem as JsonObject;
  need(isObject(problem) && isString(problem.code) && isString(problem.detail), at, 'lacks its problem code or detail');
}

function checkResource(value: JsonValue, ids: Set<string>, where: string): void {
  need(isObject(value), where, 'a resource is not an object');
  const r = value as JsonObject;
  const at = checkRequest(r, ids, where, 'resource');
  const response = r.response as JsonObject;
  need(isObject(response), at, 'lacks its response');
  need(isString(response.url) && isNat(response.status) && (response.status as number) <= 999, at, 'the response lacks its URL or status');
  need(isHttpUrl(response.url), at, 'its response URL is not an absolute https or http URL');
  need(isStringRecord(response.headers), at, 'the response headers are not strings');
  need(isNat(response.bytes) && isString(response.sha256) && SHA256.test(response.sha256 as string), at, 'the response lacks its length or SHA-256');
  need(isString(response.body), at, 'the response lacks its body');
  const body = responseBody(response as { body: string });
  need(body !== null, at, 'the response body is not base64');
  need(body!.length === response.bytes, at, `the response body is ${body!.length} bytes, not the ${String(response.bytes)} bytes it states`);
  need(
    Array.isArray(r.redirects) &&
      (r.redirects as JsonValue[]).every(
        (h) => isObject(h) && isHttpUrl((h as JsonObject).from) && isHttpUrl((h as JsonObject).to) && isNat((h as JsonObject).status),
      ),
    at,
    'its redirects are malformed',
  );
  need(isString(r.peerAddress) && isStringArray(r.allowances), at, 'lacks its peer address or allowances');
  if (r.tls !== null) {
    const tls = r.tls as JsonObject;
    need(isObject(tls), at, '"tls" is neither null nor an object');
    need(
      isString(tls.host) && isString(tls.protocol) && isString(tls.cipher) && isString(tls.validatedBy),
      at,
      'its TLS record lacks host, protocol, cipher or anchor',
    );
    need(
      isStringArray(tls.chain) && (tls.chain as string[]).length > 0 && (tls.chain as string[]).length <= 16,
      at,
      'its TLS chain is not a list of 1 to 16 certificates',
    );
    (tls.chain as string[]).forEach((der, i) => need(fromBase64(der) !== null, at, `certificate ${i + 1} of its chain is not base64`));
  }
}

/** The SHA-256 (hex) of bytes. */
export function digest(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}
