/**
 * What a caller hands the credential verifier: a credential object, the raw
 * JSON text of one, a compact JWT, or an SD-JWT (`<JWT>~<disclosure>~…~[<KB-JWT>]`). Raw text is parsed strictly, so a duplicate member at any
 * depth — which an object parsed elsewhere has already lost — makes the credential MALFORMED
 * instead of letting two parsers disagree about it. An object must be I-JSON, as parsed text
 * must: a lone surrogate, a number that is not finite or nesting deeper than the parser's 64
 * makes it MALFORMED too (it has no RFC 8785 form for a proof to cover).
 */
import { isJsonObject, jsonValueProblem, parseJsonText, type JsonObject } from '../encoding/json.js';
import { keptHeaderLength, MAX_JWS_LENGTH } from '../proofs/jws.js';
import { capitalise } from '../text.js';
import type { CredentialFormat } from './types.js';

export type CredentialInput =
  | { kind: 'json'; credential: JsonObject }
  | { kind: 'jwt'; token: string }
  | { kind: 'sd-jwt'; text: string }
  | { kind: 'refused'; status: 'MALFORMED' | 'UNSUPPORTED'; format: CredentialFormat; reason: string };

/** Three base64url parts separated by dots (the shape only; parseCompactJws judges the rest). */
export const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;
/** COMPACT_JWS after a first part already known to be of the alphabet: from lastIndex, the rest. */
const COMPACT_JWS_REST = /[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/y;

/** COMPACT_JWS.test(text), the characters of a protected header the JWS parser kept not tested again. */
function isCompactJws(text: string): boolean {
  const header = keptHeaderLength(text);
  if (header === 0) return COMPACT_JWS.test(text);
  COMPACT_JWS_REST.lastIndex = header + 1;
  return COMPACT_JWS_REST.test(text);
}

/** SD-JWT: a compact JWS followed by `~`-separated disclosures (RFC 9901); parseSdJwt judges the rest. */
export const SD_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*~/;

/** What a JSON value is, for a reason: `null`, `an array`, `a string`, `an object`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}

/** Reads the input; never throws. */
export function readCredentialInput(input: unknown): CredentialInput {
  if (isJsonObject(input)) {
    // An object parsed elsewhere (JSON.parse keeps lone surrogates, turns 1e400 into Infinity)
    // or built by hand is held to what the strict parser would have accepted.
    const problem = jsonValueProblem(input);
    if (problem !== null) return { kind: 'refused', status: 'MALFORMED', format: 'UNKNOWN', reason: `The credential is not I-JSON (RFC 7493): ${problem}.` };
    return { kind: 'json', credential: input };
  }
  if (typeof input !== 'string') {
    return {
      kind: 'refused',
      status: 'MALFORMED',
      format: 'UNKNOWN',
      reason: `A credential is a JSON object, the JSON text of one, or a compact JWT; this is ${describe(input)}.`,
    };
  }
  const text = input.trim();
  if (text.length > MAX_JWS_LENGTH) {
    return { kind: 'refused', status: 'MALFORMED', format: 'UNKNOWN', reason: `The credential text is longer than ${MAX_JWS_LENGTH} characters.` };
  }
  if (text.startsWith('{')) {
    const parsed = parseJsonText(text, 'the credential');
    if ('error' in parsed) return { kind: 'refused', status: 'MALFORMED', format: 'UNKNOWN', reason: `${capitalise(parsed.error)}.` };
    return { kind: 'json', credential: parsed.value as JsonObject };
  }
  // A compact JWS holds no "~", so it is never an SD-JWT: the common case is tested first.
  if (isCompactJws(text)) return { kind: 'jwt', token: text };
  if (SD_JWT.test(text)) return { kind: 'sd-jwt', text };
  if (text.startsWith('['))
    return { kind: 'refused', status: 'MALFORMED', format: 'UNKNOWN', reason: 'The credential is a JSON array, not a credential object.' };
  return {
    kind: 'refused',
    status: 'MALFORMED',
    format: 'UNKNOWN',
    reason: 'The credential text is neither a JSON object nor a compact JWT (three base64url parts separated by ".").',
  };
}
