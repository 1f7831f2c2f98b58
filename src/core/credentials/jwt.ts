/**
 * JWT-secured credentials, read before any signature is checked. A compact token is first
 * classified by its `typ` and claims (classifyCompactToken), so that it is explained by the rules
 * of the format it claims, or refused as a presentation or as a JWT that is no credential:
 *
 * - VC-JOSE (`typ: vc+jwt`, W3C VC-JOSE-COSE): the payload is the VC 2.0 credential itself;
 *   `vc` and `vp` claims are forbidden; a present `typ` must identify vc+jwt. Registered claims
 *   that restate the credential (`iss` = issuer, `sub` = the subject id, `jti` = id) must agree
 *   with it.
 * - VC-JWT 1.1 (VC Data Model 1.1 §6.3.1): the credential sits in the `vc` claim, `typ` is `JWT`
 *   when present; `iss` → issuer, `nbf` → issuanceDate, `exp` → expirationDate, `jti` → id,
 *   `sub` → credentialSubject.id. A claim fills its member when the member is absent; when both
 *   are present and differ the credential is rejected (a conflict, not a choice).
 *
 * Either way `exp` and `nbf` are NumericDates and stay constraints of their own, not overridden
 * by the credential's dates. A string `iat` (the W3C VC-JOSE test vectors write one) is only a
 * warning: `iat` is informational.
 */
import { cloneJson, isJsonObject, type JsonObject } from '../encoding/json.js';
import { numericDate, parseDateTime } from '../proofs/datetime.js';
import { rfc3339 } from '../runtime.js';
import { withArticle } from '../text.js';
import { idOf } from './model.js';
import type { CredentialFormat, CredentialStatus } from './types.js';

export interface JwtClaims {
  iss: string | null;
  exp: Date | null;
  nbf: Date | null;
  iat: Date | null;
  /** `aud` as a list (a single string becomes one entry); null when absent. */
  aud: string[] | null;
}

export interface JwtReading {
  /** As classifyCompactToken labels the token; only VC_JOSE_COSE and VC_JWT_1_1 are read as credentials. */
  format: CredentialFormat;
  /** The credential in data-model form (for 1.1: the `vc` claim with the registered claims mapped in). */
  credential: JsonObject | null;
  claims: JwtClaims;
  /** Problems with the token's claims; the first decides (status MALFORMED, INVALID or UNSUPPORTED). */
  problems: Array<{ status: Extract<CredentialStatus, 'MALFORMED' | 'INVALID' | 'UNSUPPORTED'>; text: string }>;
  warnings: string[];
}

/** `typ` without an `application/` prefix, lower-cased (RFC 7515 §4.1.9); null when absent. */
export function mediaType(typ: unknown): string | null {
  if (typeof typ !== 'string') return null;
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/**
 * What a compact JWT claims to be, from its `typ` and claims, before any rule explains it:
 * - `credential`: a VC-JOSE-COSE credential (`typ` vc+jwt; or a VC 2.0 payload, with `@context`
 *   and `type`, typed otherwise or not at all) or a VC-JWT 1.1 credential (a `vc` claim);
 * - `presentation`: `typ` vp+jwt, a `vp` claim (VC-JWT 1.1), or a VC 2.0 payload whose `type` is
 *   VerifiablePresentation and not VerifiableCredential;
 * - `sd-jwt`: typed dc+sd-jwt or vc+sd-jwt (an SD-JWT VC's issuer JWT);
 * - `other`: none of these — no `vc`, no `vp`, no credential `typ`, no `@context` and `type`.
 * The `typ` decides first (vc+jwt, vp+jwt, the SD-JWT types); any other `typ` leaves it to the
 * claims, so that a credential with a wrong `typ` is told so by the rules of its own format.
 * `reason` (all but `credential`) is one line, naming what the token is and what it lacks.
 */
export type CompactTokenClass =
  | { kind: 'credential'; format: 'VC_JOSE_COSE' | 'VC_JWT_1_1'; typ: string | null }
  | { kind: 'presentation'; format: 'VC_JOSE_COSE' | 'VC_JWT_1_1'; typ: string | null; reason: string }
  | { kind: 'sd-jwt'; format: 'SD_JWT_VC'; typ: 'dc+sd-jwt' | 'vc+sd-jwt'; reason: string }
  | { kind: 'other'; format: 'UNKNOWN'; typ: string | null; reason: string };

const PRESENTATION_ROUTES = 'verify it with svc verify-presentation or POST /v1/presentations/verify';

function typeNames(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string');
}

/** How the token's `typ` reads in a sentence: `typed "at+jwt"`, or `untyped`. */
function typedAs(header: JsonObject): string {
  const typ = header['typ'];
  return typ === undefined ? 'untyped' : `typed ${JSON.stringify(String(typ).slice(0, 40))}`;
}

export function classifyCompactToken(header: JsonObject, payload: JsonObject): CompactTokenClass {
  const typ = mediaType(header['typ']);
  if (typ === 'vc+jwt') return { kind: 'credential', format: 'VC_JOSE_COSE', typ };
  if (typ === 'vp+jwt') {
    return {
      kind: 'presentation',
      format: 'VC_JOSE_COSE',
      typ,
      reason: `the token is a verifiable presentation (typed vp+jwt, VC-JOSE-COSE), not a credential: ${PRESENTATION_ROUTES}`,
    };
  }
  if (typ === 'dc+sd-jwt' || typ === 'vc+sd-jwt') {
    return {
      kind: 'sd-jwt',
      format: 'SD_JWT_VC',
      typ,
      reason: `the token is typed ${typ}, an SD-JWT VC, but has no "~" after its issuer JWT: an SD-JWT VC is sent in its compact form <issuer JWT>~<disclosure>~…~[<KB-JWT>], ending in "~" when it has no KB-JWT, even with nothing disclosed`,
    };
  }
  if (payload['vp'] !== undefined) {
    return {
      kind: 'presentation',
      format: 'VC_JWT_1_1',
      typ,
      reason: `the token is a verifiable presentation (a VC-JWT 1.1 "vp" claim, ${typedAs(header)}), not a credential: ${PRESENTATION_ROUTES}`,
    };
  }
  if (payload['vc'] !== undefined) return { kind: 'credential', format: 'VC_JWT_1_1', typ };
  const hasContext = payload['@context'] !== undefined;
  const hasType = payload['type'] !== undefined;
  if (hasContext && hasType) {
    const types = typeNames(payload['type']);
    if (types.includes('VerifiablePresentation') && !types.includes('VerifiableCredential')) {
      return {
        kind: 'presentation',
        format: 'VC_JOSE_COSE',
        typ,
        reason: `the token is a verifiable presentation (a VC 2.0 presentation payload, ${typedAs(header)}), not a credential: ${PRESENTATION_ROUTES}`,
      };
    }
    return { kind: 'credential', format: 'VC_JOSE_COSE', typ };
  }
  const payloadLacks = hasContext ? 'no "type"' : hasType ? 'no "@context"' : 'no "@context" or "type"';
  return {
    kind: 'other',
    format: 'UNKNOWN',
    typ,
    reason: `the token is a JWT that is not a credential (${typedAs(header)}): it has no "vc" claim, which a VC-JWT 1.1 credential carries, and neither "typ": "vc+jwt" nor a VC 2.0 payload (it has ${payloadLacks}), which a VC-JOSE-COSE credential has`,
  };
}

function readNumericDate(payload: JsonObject, name: 'exp' | 'nbf' | 'iat', reading: JwtReading): Date | null {
  const value = payload[name];
  if (value === undefined) return null;
  const date = numericDate(value);
  if (date !== null) return date;
  if (name === 'iat') {
    reading.warnings.push(
      `The JWT "iat" is ${typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : withArticle(typeof value)}, not a NumericDate; it is informational and was ignored.`,
    );
  } else {
    reading.problems.push({ status: 'MALFORMED', text: `the JWT "${name}" claim is not a NumericDate (seconds since 1970)` });
  }
  return null;
}

function readAudience(payload: JsonObject, reading: JwtReading): string[] | null {
  const aud = payload['aud'];
  if (aud === undefined) return null;
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  reading.problems.push({ status: 'MALFORMED', text: 'the JWT "aud" claim is neither a string nor an array of strings' });
  return null;
}

function sameInstant(a: Date, text: unknown): boolean {
  const b = typeof text === 'string' ? parseDateTime(text) : null;
  return b !== null && Math.floor(b.getTime() / 1000) === Math.floor(a.getTime() / 1000);
}

/** The single subject's id, when the credential has exactly one subject. */
function singleSubject(credential: JsonObject): JsonObject | null {
  const subject = credential['credentialSubject'];
  if (isJsonObject(subject)) return subject;
  if (Array.isArray(subject) && subject.length === 1 && isJsonObject(subject[0])) return subject[0];
  return null;
}

function checkAgreement(label: string, claim: unknown, member: unknown, reading: JwtReading): void {
  if (claim === undefined || member === undefined || member === null) return;
  if (claim !== member) {
    reading.problems.push({
      status: 'INVALID',
      text: `the JWT "${label}" claim (${String(claim).slice(0, 80)}) conflicts with the credential (${String(member).slice(0, 80)})`,
    });
  }
}

/**
 * Reads the claims of a JWT-secured credential; `header` and `payload` come from the strict
 * JWS parser (no duplicate members).
 */
export function readJwtCredential(header: JsonObject, payload: JsonObject): JwtReading {
  const token = classifyCompactToken(header, payload);
  const reading: JwtReading = {
    format: token.format,
    credential: null,
    claims: { iss: null, exp: null, nbf: null, iat: null, aud: null },
    problems: [],
    warnings: [],
  };
  // What is no credential is said so alone: its claims are not read by a credential's rules.
  if (token.kind === 'presentation') reading.problems.push({ status: 'UNSUPPORTED', text: token.reason });
  if (token.kind === 'sd-jwt' || token.kind === 'other') reading.problems.push({ status: 'MALFORMED', text: token.reason });
  if (token.kind !== 'credential') return reading;
  const iss = payload['iss'];
  if (iss !== undefined && typeof iss !== 'string') reading.problems.push({ status: 'MALFORMED', text: 'the JWT "iss" claim is not a string' });
  reading.claims = {
    iss: typeof iss === 'string' ? iss : null,
    exp: readNumericDate(payload, 'exp', reading),
    nbf: readNumericDate(payload, 'nbf', reading),
    iat: readNumericDate(payload, 'iat', reading),
    aud: readAudience(payload, reading),
  };

  // The typ as written (not lower-cased) in what is said about it.
  const written = JSON.stringify(String(header['typ']).slice(0, 40));
  return token.format === 'VC_JWT_1_1' ? readLegacy(payload, token.typ, written, reading) : readJose(payload, token.typ, written, reading);
}

function readJose(payload: JsonObject, typ: string | null, written: string, reading: JwtReading): JwtReading {
  if (typ !== null && typ !== 'vc+jwt') {
    reading.problems.push({ status: 'INVALID', text: `the JWT "typ" is ${written}; a VC-JOSE credential must be typed vc+jwt` });
  }
  for (const claim of ['vc', 'vp'] as const) {
    if (payload[claim] !== undefined)
      reading.problems.push({ status: 'INVALID', text: `a vc+jwt credential must not carry a "${claim}" claim (VC-JOSE-COSE §3.1.1)` });
  }
  const credential = payload;
  reading.credential = credential;
  checkAgreement('iss', payload['iss'], idOf(credential['issuer']), reading);
  checkAgreement('jti', payload['jti'], credential['id'], reading);
  const subject = singleSubject(credential);
  if (subject) checkAgreement('sub', payload['sub'], subject['id'], reading);
  return reading;
}

function readLegacy(payload: JsonObject, typ: string | null, written: string, reading: JwtReading): JwtReading {
  if (typ !== null && typ !== 'jwt') {
    reading.problems.push({
      status: 'INVALID',
      text: `the JWT "typ" is ${written}; a VC-JWT 1.1 credential is typed JWT when typed at all`,
    });
  }
  const vc = payload['vc'];
  if (!isJsonObject(vc)) {
    reading.problems.push({ status: 'MALFORMED', text: 'the JWT "vc" claim is not a credential object' });
    return reading;
  }
  // The claim as the strict parser read it: JSON values only, so a JSON copy is a full copy.
  const credential: JsonObject = cloneJson(vc);
  const { iss, nbf, exp } = reading.claims;
  // iss → issuer
  if (iss !== null) {
    const issuer = idOf(credential['issuer']);
    if (credential['issuer'] === undefined) credential['issuer'] = iss;
    else checkAgreement('iss', iss, issuer, reading);
  }
  // nbf → issuanceDate, exp → expirationDate: the same instant, to the second.
  for (const [date, member, claim] of [
    [nbf, 'issuanceDate', 'nbf'],
    [exp, 'expirationDate', 'exp'],
  ] as const) {
    if (date === null) continue;
    if (credential[member] === undefined) credential[member] = rfc3339(date);
    else if (!sameInstant(date, credential[member])) {
      reading.problems.push({
        status: 'INVALID',
        text: `the JWT "${claim}" (${rfc3339(date)}) conflicts with the credential's ${member} (${String(credential[member]).slice(0, 40)})`,
      });
    }
  }
  // jti → id
  const jti = payload['jti'];
  if (jti !== undefined) {
    if (credential['id'] === undefined) credential['id'] = jti;
    else checkAgreement('jti', jti, credential['id'], reading);
  }
  // sub → credentialSubject.id
  const sub = payload['sub'];
  const subject = singleSubject(credential);
  if (sub !== undefined && subject) {
    if (subject['id'] === undefined) subject['id'] = sub;
    else checkAgreement('sub', sub, subject['id'], reading);
  }
  reading.credential = credential;
  return reading;
}
