/**
 * SD-JWT (RFC 9901) and SD-JWT VC, read and checked before the issuer's key is known: the
 * compact form, the disclosures against the digests the issuer signed, and key binding.
 *
 *   parseSdJwt → resolveDisclosures → checkKeyBinding     (verifySdJwt runs all three)
 *
 * - The compact form is `<issuer-signed JWT>~<disclosure>~…~<KB-JWT or nothing>` (RFC 9901 §4): a
 *   `~` always follows the issuer JWT and every disclosure; what follows the last `~` is the
 *   KB-JWT, and an empty tail means there is none. The whole text is bounded by MAX_JWS_LENGTH.
 * - Every JSON part (issuer header and payload, each disclosure, KB-JWT header and payload) is
 *   parsed strictly: a duplicate member makes the presentation malformed, never "the last one".
 * - The issuer JWT must be typed `dc+sd-jwt` (or the legacy `vc+sd-jwt`) and signed with EdDSA,
 *   ES256 or ES256K; `_sd_alg` must be absent or `sha-256`.
 * - Each disclosure's digest (SHA-256 of its ASCII as sent) must be referenced exactly once, by
 *   the payload or by another disclosed value, and from the right place: a `[salt, name, value]`
 *   disclosure from an `_sd` array, a `[salt, value]` one from an array element `{"...": d}`.
 *   No digest may occur twice, no disclosure may be sent twice, and a disclosed name must not
 *   repeat a plain claim of its object (RFC 9901 §7.1). Unreferenced digests (decoys, or claims the
 *   holder chose not to disclose) are allowed and only counted: nothing about them is known.
 * - The issuer signature is NOT checked here: the caller finds the issuer key (through the DID,
 *   as for vc+jwt) and calls checkJwsSignature on `issuerJws`.
 *
 * Nothing here throws for content: every outcome is data, a status and a one-line reason.
 */
import { sha256 } from '../canonical.js';
import { base64urlDecode, base64urlEncode } from '../encoding/base64url.js';
import { isJsonObject, parseJsonBytes, type JsonObject, type JsonValue } from '../encoding/json.js';
import { checkJwsSignature, isJwsParseError, MAX_JWS_LENGTH, parseCompactJws, type ParsedJws } from '../proofs/jws.js';
import type { PublicKeyJwk } from '../proofs/signature.js';
import { mediaType } from './jwt.js';

/** `typ` of an SD-JWT VC issuer JWT: the current one, then the legacy one. */
export const SD_JWT_TYPES = ['dc+sd-jwt', 'vc+sd-jwt'] as const;
export type SdJwtType = (typeof SD_JWT_TYPES)[number];

/** JWS algorithms an SD-JWT's issuer JWT and KB-JWT may be signed with. */
export const SD_JWT_ALGORITHMS: ReadonlySet<string> = new Set(['EdDSA', 'ES256', 'ES256K']);

/** How far a KB-JWT's `iat` may lie in the future of `now` (clock differences), seconds. */
export const KB_CLOCK_SKEW_SECONDS = 60;
/** How old a KB-JWT's `iat` may be by default, seconds: a presentation is made for one exchange. */
export const KB_DEFAULT_MAX_AGE_SECONDS = 300;

/**
 * How deep the rebuilt payload may nest, disclosed values included: each part is parsed with the
 * strict parser's bound, but disclosures may nest inside one another, and a chain of them in a
 * presentation of 1 MiB would otherwise recurse past the stack.
 */
export const MAX_DISCLOSED_DEPTH = 64;

/** Claim names a disclosure must not carry (RFC 9901 §4.2.1). */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['_sd', '...']);

export type SdJwtParseErrorKind = 'MALFORMED' | 'UNSUPPORTED';

export interface SdJwtParseError {
  kind: SdJwtParseErrorKind;
  /** One line, e.g. `disclosure 2 is not canonical unpadded base64url`. */
  error: string;
}

/** One disclosure as sent. */
export interface SdJwtDisclosure {
  /** The disclosure text as sent (what its digest covers). */
  encoded: string;
  /** base64url(SHA-256(ASCII of `encoded`)). */
  digest: string;
  salt: string;
  /** The claim name for an object property; null for an array element. */
  name: string | null;
  value: JsonValue;
}

export interface ParsedSdJwt {
  /** The issuer-signed JWT, for checkJwsSignature once the issuer key is found. */
  issuerJws: ParsedJws;
  /** Its payload (always a JSON object), with `_sd` digests as signed. */
  issuerPayload: JsonObject;
  typ: SdJwtType;
  disclosures: SdJwtDisclosure[];
  /** The KB-JWT as sent; null when the presentation ends with `~`. */
  kbJwt: string | null;
  /** The presentation up to and including the last `~`: what a KB-JWT's `sd_hash` covers. */
  hashedPart: string;
}

export type SdJwtParseResult = ParsedSdJwt | SdJwtParseError;

export function isSdJwtParseError(result: SdJwtParseResult): result is SdJwtParseError {
  return 'error' in result;
}

function failParse(error: string, kind: SdJwtParseErrorKind = 'MALFORMED'): SdJwtParseError {
  return { kind, error };
}

/** base64url(SHA-256(ASCII of `text`)): the digest of a disclosure, or the `sd_hash`. */
export function sdDigest(text: string): string {
  return base64urlEncode(sha256(Buffer.from(text, 'latin1')));
}

/**
 * Splits and reads a compact SD-JWT presentation. The issuer JWT and the disclosures are
 * parsed, the KB-JWT is kept as text (checkKeyBinding reads it).
 */
export function parseSdJwt(text: string): SdJwtParseResult {
  if (typeof text !== 'string') return failParse('an SD-JWT is a string');
  if (text.length > MAX_JWS_LENGTH) return failParse(`the SD-JWT is longer than ${MAX_JWS_LENGTH} characters`);
  const parts = text.split('~');
  if (parts.length < 2) return failParse('an SD-JWT has a "~" after the issuer-signed JWT; this text has none');
  const kbText = parts[parts.length - 1]!;
  const issuer = readIssuerJwt(parts[0]!);
  if ('error' in issuer) return issuer;
  const disclosures: SdJwtDisclosure[] = [];
  for (let i = 1; i < parts.length - 1; i++) {
    const disclosure = readDisclosure(parts[i]!, i);
    if ('error' in disclosure) return disclosure;
    disclosures.push(disclosure);
  }
  return {
    ...issuer,
    disclosures,
    kbJwt: kbText === '' ? null : kbText,
    hashedPart: text.slice(0, text.length - kbText.length),
  };
}

function readIssuerJwt(token: string): Pick<ParsedSdJwt, 'issuerJws' | 'issuerPayload' | 'typ'> | SdJwtParseError {
  if (token === '') return failParse('the issuer-signed JWT is empty');
  const jws = parseCompactJws(token, { accepted: [...SD_JWT_ALGORITHMS] });
  if (isJwsParseError(jws)) return failParse(`the issuer-signed JWT: ${jws.error}`, jws.kind);
  if (jws.payload instanceof Uint8Array) return failParse('the issuer-signed JWT payload is not a JSON object');
  const typ = mediaType(jws.header['typ']);
  if (typ !== 'dc+sd-jwt' && typ !== 'vc+sd-jwt') {
    const found = jws.header['typ'] === undefined ? 'no "typ"' : `"typ" ${JSON.stringify(jws.header['typ'])}`;
    return failParse(`the issuer-signed JWT has ${found}; an SD-JWT VC is typed dc+sd-jwt (or the legacy vc+sd-jwt)`);
  }
  if (!SD_JWT_ALGORITHMS.has(jws.alg)) {
    return failParse(`the issuer-signed JWT uses ${jws.alg}; an SD-JWT is verified when signed with EdDSA, ES256 or ES256K`, 'UNSUPPORTED');
  }
  const sdAlg = jws.payload['_sd_alg'];
  if (sdAlg !== undefined && typeof sdAlg !== 'string') return failParse('"_sd_alg" is not a string');
  if (sdAlg !== undefined && sdAlg !== 'sha-256') {
    return failParse(`the digests use ${JSON.stringify(sdAlg.slice(0, 40))}; svc checks only "sha-256" disclosures`, 'UNSUPPORTED');
  }
  return { issuerJws: jws, issuerPayload: jws.payload, typ };
}

/** Reads disclosure `index` (1-based, in the order sent). */
function readDisclosure(encoded: string, index: number): SdJwtDisclosure | SdJwtParseError {
  const where = `disclosure ${index}`;
  if (encoded === '') return failParse(`${where} is empty ("~~")`);
  const bytes = base64urlDecode(encoded);
  if (!bytes) return failParse(`${where} is not canonical unpadded base64url`);
  const parsed = parseJsonBytes(bytes, where);
  if ('error' in parsed) return failParse(parsed.error);
  const array = parsed.value;
  if (!Array.isArray(array) || (array.length !== 2 && array.length !== 3)) {
    return failParse(`${where} is not a JSON array of 3 ([salt, name, value]) or 2 ([salt, value]) elements`);
  }
  const salt = array[0];
  if (typeof salt !== 'string') return failParse(`the salt of ${where} is not a string`);
  let name: string | null = null;
  if (array.length === 3) {
    const n = array[1];
    if (typeof n !== 'string') return failParse(`the claim name of ${where} is not a string`);
    if (RESERVED_NAMES.has(n)) return failParse(`${where} names the claim ${JSON.stringify(n)}, which RFC 9901 reserves`);
    name = n;
  }
  return { encoded, digest: sdDigest(encoded), salt, name, value: array[array.length - 1]! };
}

/* ------------------------------------------------------------------ disclosures */

export type SdJwtProblemStatus = 'MALFORMED' | 'INVALID' | 'UNSUPPORTED';

export interface SdJwtProblem {
  status: SdJwtProblemStatus;
  text: string;
}

export interface DisclosureResolution {
  /** The payload with `_sd` and `_sd_alg` removed, disclosed claims in place, undisclosed array elements dropped. */
  payload: JsonObject;
  /** Where each disclosure went in `payload`, as JSON Pointers (`/given_name`, `/nationalities/1`), in document order. */
  disclosed: string[];
  /** Digests that no disclosure matched: decoys or claims not disclosed. */
  undisclosedDigests: number;
}

/** The state of one walk over the payload. */
interface Walk {
  byDigest: Map<string, SdJwtDisclosure>;
  seen: Set<string>;
  disclosed: string[];
  undisclosed: number;
  problem: SdJwtProblem | null;
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function shortDigest(digest: string): string {
  return digest.length > 16 ? `${digest.slice(0, 12)}…` : digest;
}

/**
 * Matches the disclosures with the digests of the issuer payload and rebuilds the disclosed
 * payload. A problem is MALFORMED (an `_sd` that is not a list of digests) or INVALID (a
 * disclosure not referenced, referenced twice or from the wrong place, a repeated digest or
 * disclosure, a name that collides with a plain claim).
 */
export function resolveDisclosures(parsed: ParsedSdJwt): DisclosureResolution | SdJwtProblem {
  const walk: Walk = { byDigest: new Map(), seen: new Set(), disclosed: [], undisclosed: 0, problem: null };
  for (const [i, disclosure] of parsed.disclosures.entries()) {
    const first = walk.byDigest.get(disclosure.digest);
    if (first) {
      return { status: 'INVALID', text: `disclosure ${i + 1} repeats disclosure ${parsed.disclosures.indexOf(first) + 1}: a disclosure is sent once` };
    }
    walk.byDigest.set(disclosure.digest, disclosure);
  }
  const payload = walkObject(parsed.issuerPayload, '', walk, true, 0);
  if (walk.problem) return walk.problem;
  for (const [i, disclosure] of parsed.disclosures.entries()) {
    if (!walk.seen.has(disclosure.digest)) {
      return {
        status: 'INVALID',
        text: `the digest of disclosure ${i + 1} (${shortDigest(disclosure.digest)}) is not in the payload or in any disclosed value`,
      };
    }
  }
  return { payload, disclosed: walk.disclosed, undisclosedDigests: walk.undisclosed };
}

function setProblem(walk: Walk, status: SdJwtProblemStatus, text: string): void {
  walk.problem ??= { status, text };
}

/** Marks `digest` seen; false (with a problem) when it was already. */
function firstSight(digest: string, at: string, walk: Walk): boolean {
  if (walk.seen.has(digest)) {
    setProblem(walk, 'INVALID', `the digest ${shortDigest(digest)} occurs more than once (again at ${at || '/'})`);
    return false;
  }
  walk.seen.add(digest);
  return true;
}

function walkValue(value: JsonValue, at: string, walk: Walk, depth: number): JsonValue {
  if (!Array.isArray(value) && !isJsonObject(value)) return value;
  if (depth >= MAX_DISCLOSED_DEPTH) {
    setProblem(walk, 'MALFORMED', `the claims nest deeper than ${MAX_DISCLOSED_DEPTH} (disclosed values included) at ${at}`);
    return value;
  }
  return Array.isArray(value) ? walkArray(value, at, walk, depth + 1) : walkObject(value, at, walk, false, depth + 1);
}

function setMember(out: JsonObject, name: string, value: JsonValue): void {
  if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

function walkObject(object: JsonObject, at: string, walk: Walk, top: boolean, depth: number): JsonObject {
  const out: JsonObject = {};
  for (const name of Object.keys(object)) {
    if (name === '_sd' || (top && name === '_sd_alg')) continue;
    setMember(out, name, walkValue(object[name]!, `${at}/${pointerToken(name)}`, walk, depth));
    if (walk.problem) return out;
  }
  if (!Object.hasOwn(object, '_sd')) return out;
  const digests = object['_sd'];
  if (!Array.isArray(digests) || !digests.every((d) => typeof d === 'string')) {
    setProblem(walk, 'MALFORMED', `"_sd" at ${at || '/'} is not an array of digest strings`);
    return out;
  }
  for (const digest of digests as string[]) {
    if (!firstSight(digest, `${at}/_sd`, walk)) return out;
    const disclosure = walk.byDigest.get(digest);
    if (!disclosure) {
      walk.undisclosed++;
      continue;
    }
    if (disclosure.name === null) {
      setProblem(walk, 'INVALID', `an array-element disclosure (${shortDigest(digest)}) is referenced from "_sd" at ${at || '/'}, not from a "..." element`);
      return out;
    }
    if (Object.hasOwn(out, disclosure.name)) {
      setProblem(walk, 'INVALID', `the disclosed claim ${JSON.stringify(disclosure.name)} at ${at || '/'} repeats a claim its object already has`);
      return out;
    }
    const where = `${at}/${pointerToken(disclosure.name)}`;
    walk.disclosed.push(where);
    setMember(out, disclosure.name, walkValue(disclosure.value, where, walk, depth));
    if (walk.problem) return out;
  }
  return out;
}

/** The digest of an array element `{"...": digest}`; null when the element is not one. */
function elementDigest(element: JsonValue): JsonValue | undefined {
  if (!isJsonObject(element)) return undefined;
  const names = Object.keys(element);
  return names.length === 1 && names[0] === '...' ? element['...'] : undefined;
}

function walkArray(array: JsonValue[], at: string, walk: Walk, depth: number): JsonValue[] {
  const out: JsonValue[] = [];
  for (const element of array) {
    const digest = elementDigest(element);
    if (digest === undefined) {
      out.push(walkValue(element, `${at}/${out.length}`, walk, depth));
    } else {
      if (typeof digest !== 'string') {
        setProblem(walk, 'MALFORMED', `an array element at ${at || '/'} has a "..." that is not a digest string`);
        return out;
      }
      if (!firstSight(digest, `${at}/${out.length}`, walk)) return out;
      const disclosure = walk.byDigest.get(digest);
      if (!disclosure) {
        walk.undisclosed++;
        continue;
      }
      if (disclosure.name !== null) {
        setProblem(
          walk,
          'INVALID',
          `the disclosure of the claim ${JSON.stringify(disclosure.name)} is referenced from an array element at ${at || '/'}, not from "_sd"`,
        );
        return out;
      }
      const where = `${at}/${out.length}`;
      walk.disclosed.push(where);
      out.push(walkValue(disclosure.value, where, walk, depth));
    }
    if (walk.problem) return out;
  }
  return out;
}

/* ------------------------------------------------------------------ key binding */

export interface KeyBindingOptions {
  /** The time the presentation is checked at. */
  now: Date;
  /** The audience the verifier identifies itself with; absent: `aud` is reported, not compared. */
  expectedAudience?: string;
  /** How old `iat` may be, seconds (default KB_DEFAULT_MAX_AGE_SECONDS). */
  maxAgeSeconds?: number;
}

/**
 * Key binding (RFC 9901 §4.3, §7.3):
 * - ABSENT: no KB-JWT (with a limitation when the credential has `cnf`: holder binding not shown).
 * - PASS: the KB-JWT is typed kb+jwt, its `sd_hash` covers this presentation, it is signed by
 *   `cnf.jwk`, and `iat` lies in [now − maxAge, now + KB_CLOCK_SKEW_SECONDS]. `audience` says
 *   whether `aud` was compared (SKIP when no expected audience was given).
 * - FAIL: `problem` says why (MALFORMED, UNSUPPORTED or INVALID).
 */
export type KeyBinding =
  | { status: 'ABSENT'; limitation: string | null }
  | {
      status: 'PASS';
      nonce: string;
      audience: { status: 'PASS' | 'SKIP'; value: string };
      issuedAt: Date;
      limitation: string | null;
    }
  | { status: 'FAIL'; problem: SdJwtProblem };

function kbFail(status: SdJwtProblemStatus, text: string): KeyBinding {
  return { status: 'FAIL', problem: { status, text } };
}

/** The holder's public key from `cnf.jwk`; null when there is no `cnf`, a string when `cnf` holds no usable JWK. */
function holderKey(payload: JsonObject): PublicKeyJwk | string | null {
  const cnf = payload['cnf'];
  if (cnf === undefined) return null;
  if (!isJsonObject(cnf)) return '"cnf" is not a JSON object';
  const jwk = cnf['jwk'];
  if (!isJsonObject(jwk)) return '"cnf" has no "jwk" (only a public JWK can check a KB-JWT)';
  const key: PublicKeyJwk = {};
  for (const member of ['kty', 'crv', 'x', 'y'] as const) {
    const v = jwk[member];
    if (v !== undefined && typeof v !== 'string') return `"cnf.jwk.${member}" is not a string`;
    if (typeof v === 'string') key[member] = v;
  }
  return key;
}

export function checkKeyBinding(parsed: ParsedSdJwt, options: KeyBindingOptions): KeyBinding {
  const holder = holderKey(parsed.issuerPayload);
  if (parsed.kbJwt === null) {
    return { status: 'ABSENT', limitation: holder === null ? null : 'holder binding not shown: the credential has "cnf" but the presentation has no KB-JWT' };
  }
  const kb = parseCompactJws(parsed.kbJwt, { accepted: [...SD_JWT_ALGORITHMS] });
  if (isJwsParseError(kb)) return kbFail(kb.kind, `the KB-JWT: ${kb.error}`);
  if (kb.payload instanceof Uint8Array) return kbFail('MALFORMED', 'the KB-JWT payload is not a JSON object');
  if (mediaType(kb.header['typ']) !== 'kb+jwt') {
    const found = kb.header['typ'] === undefined ? 'no "typ"' : `"typ" ${JSON.stringify(kb.header['typ'])}`;
    return kbFail('MALFORMED', `the KB-JWT has ${found}; it must be typed kb+jwt`);
  }
  if (!SD_JWT_ALGORITHMS.has(kb.alg)) return kbFail('UNSUPPORTED', `the KB-JWT uses ${kb.alg}; svc checks EdDSA, ES256 or ES256K`);
  const { iat, aud, nonce } = kb.payload;
  const sdHash = kb.payload['sd_hash'];
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return kbFail('MALFORMED', 'the KB-JWT "iat" is not a NumericDate');
  if (typeof aud !== 'string') return kbFail('MALFORMED', 'the KB-JWT "aud" is not a string');
  // RFC 9901 requires a nonce: a KB-JWT without one is malformed whether or not the verifier compares it.
  if (nonce === undefined) return kbFail('MALFORMED', 'the KB-JWT has no "nonce" (RFC 9901 requires one: it ties the presentation to one exchange)');
  if (typeof nonce !== 'string') return kbFail('MALFORMED', 'the KB-JWT "nonce" is not a string');
  if (typeof sdHash !== 'string') return kbFail('MALFORMED', 'the KB-JWT "sd_hash" is not a string');
  if (holder === null) return kbFail('INVALID', 'the presentation has a KB-JWT but the credential has no "cnf" key to check it with');
  if (typeof holder === 'string') return kbFail('INVALID', `the KB-JWT cannot be checked: ${holder}`);
  if (sdHash !== sdDigest(parsed.hashedPart)) {
    return kbFail('INVALID', 'the KB-JWT "sd_hash" does not match this presentation (its issuer JWT and disclosures)');
  }
  const signature = checkJwsSignature(kb, holder);
  if (!signature.valid) return kbFail('INVALID', `the KB-JWT is not signed by the key in "cnf.jwk": ${signature.reason}`);
  const window = checkIssuedAt(iat, options);
  if (window) return kbFail('INVALID', window);
  if (options.expectedAudience !== undefined && aud !== options.expectedAudience) {
    return kbFail(
      'INVALID',
      `the KB-JWT is for the audience ${JSON.stringify(aud.slice(0, 80))}, not ${JSON.stringify(options.expectedAudience.slice(0, 80))}`,
    );
  }
  const skipped = options.expectedAudience === undefined;
  return {
    status: 'PASS',
    nonce,
    audience: { status: skipped ? 'SKIP' : 'PASS', value: aud },
    issuedAt: new Date(iat * 1000),
    limitation: skipped ? `the KB-JWT audience (${aud.slice(0, 80)}) was not compared: no expected audience was given` : null,
  };
}

/** Why `iat` (seconds) lies outside [now − maxAge, now + skew]; null when inside. */
function checkIssuedAt(iat: number, options: KeyBindingOptions): string | null {
  const now = options.now.getTime() / 1000;
  const maxAge = options.maxAgeSeconds ?? KB_DEFAULT_MAX_AGE_SECONDS;
  if (iat > now + KB_CLOCK_SKEW_SECONDS) return `the KB-JWT "iat" is ${Math.round(iat - now)} s in the future (more than ${KB_CLOCK_SKEW_SECONDS} s)`;
  if (iat < now - maxAge) return `the KB-JWT "iat" is ${Math.round(now - iat)} s old; a key binding older than ${maxAge} s is not accepted`;
  return null;
}

/* ------------------------------------------------------------------ all together */

export interface SdJwtVerification {
  /**
   * PASS: every check this module makes passed (the issuer signature is NOT among them);
   * otherwise the status the first failure implies.
   */
  status: 'PASS' | SdJwtProblemStatus;
  /** The failure, one line; null on PASS. */
  reason: string | null;
  /** The parsed presentation (null when it could not be parsed): `issuerJws` is for the caller's signature check. */
  parsed: ParsedSdJwt | null;
  /** The disclosed payload and what was disclosed; null when the disclosures did not resolve. */
  disclosures: DisclosureResolution | null;
  /** Null when the checks stopped before key binding. */
  keyBinding: KeyBinding | null;
  /** What was not shown or not compared (holder binding, audience). */
  limitations: string[];
}

/** parseSdJwt, resolveDisclosures and checkKeyBinding in turn; the first failure decides. */
export function verifySdJwt(text: string, options: KeyBindingOptions): SdJwtVerification {
  const parsed = parseSdJwt(text);
  if (isSdJwtParseError(parsed)) {
    return { status: parsed.kind, reason: parsed.error, parsed: null, disclosures: null, keyBinding: null, limitations: [] };
  }
  const resolution = resolveDisclosures(parsed);
  if ('status' in resolution) {
    return { status: resolution.status, reason: resolution.text, parsed, disclosures: null, keyBinding: null, limitations: [] };
  }
  const keyBinding = checkKeyBinding(parsed, options);
  if (keyBinding.status === 'FAIL') {
    return { status: keyBinding.problem.status, reason: keyBinding.problem.text, parsed, disclosures: resolution, keyBinding, limitations: [] };
  }
  const limitations = keyBinding.limitation === null ? [] : [keyBinding.limitation];
  return { status: 'PASS', reason: null, parsed, disclosures: resolution, keyBinding, limitations };
}
