/**
 * SD-JWT VC issuance and key binding (RFC 9901, SD-JWT VC):
 *
 * - `issueSdJwt`: the claims with the members and array elements named by JSON Pointers
 *   (RFC 6901) made selectively disclosable. A member becomes a disclosure `[salt, name, value]`
 *   whose digest joins its object's `_sd` (sorted, so the order says nothing); an array element
 *   becomes `[salt, value]`, referenced as `{"...": digest}` in place. Pointers inside a disclosed
 *   value are disclosed first, so `/address` and `/address/street` nest. Salts are 128 random
 *   bits; digests are SHA-256 of the disclosure as sent, by the verifier's own function
 *   (credentials/sd-jwt.ts `sdDigest`). No decoy digests are added.
 * - `keyBindingJwt`: a KB-JWT (`typ: kb+jwt`) over an SD-JWT as issued: `iat`, `aud`, `nonce` and
 *   the `sd_hash` of everything up to the last `~`, signed by the holder's key.
 *
 * The claims SD-JWT VC forbids to disclose selectively (`iss`, `nbf`, `exp`, `cnf`, `vct`,
 * `status`) stay plain; a pointer to one of them is refused, as is a pointer that names nothing.
 */
import { randomBytes } from 'node:crypto';
import { sdDigest } from '../credentials/sd-jwt.js';
import { base64urlEncode } from '../encoding/base64url.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import type { IssuingKey } from './key.js';
import { signCompact } from './jose.js';

/** Top-level claims SD-JWT VC keeps plain: a verifier reads them before any disclosure. */
export const NEVER_DISCLOSED: readonly string[] = ['iss', 'nbf', 'exp', 'cnf', 'vct', 'status'];

/** Names RFC 9901 reserves: no claim of the input may use them. */
const RESERVED: ReadonlySet<string> = new Set(['_sd', '_sd_alg', '...']);

function refuseOption(detail: string): never {
  throw new ProblemError('INVALID_OPTIONS', detail);
}

/** The reference tokens of an RFC 6901 JSON Pointer; refuses the root ("") and malformed escapes. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') refuseOption('--disclose "" names the whole claim set; name a claim, e.g. /given_name.');
  if (!pointer.startsWith('/')) refuseOption(`--disclose ${JSON.stringify(pointer.slice(0, 80))} is not a JSON Pointer: it starts with "/", e.g. /given_name.`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) refuseOption(`--disclose ${JSON.stringify(pointer.slice(0, 80))}: "~" is written ~0 and "/" ~1 in a JSON Pointer.`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

function pointerOf(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Refuses (INVALID_REQUEST) a claim name RFC 9901 reserves, anywhere in the claims. */
function checkReserved(value: JsonValue, at: string): void {
  if (Array.isArray(value)) value.forEach((v, i) => checkReserved(v, `${at}/${i}`));
  else if (isJsonObject(value)) {
    for (const name of Object.keys(value)) {
      if (RESERVED.has(name)) {
        throw new ProblemError('INVALID_REQUEST', `The claims use the name ${JSON.stringify(name)} at ${at || '/'}, which SD-JWT (RFC 9901) reserves.`);
      }
      checkReserved(value[name]!, `${at}${pointerOf([name])}`);
    }
  }
}

function setMember(out: JsonObject, name: string, value: JsonValue): void {
  if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

interface Walk {
  wanted: Set<string>;
  found: Set<string>;
  disclosures: string[];
}

function disclose(walk: Walk, content: JsonValue[]): string {
  const encoded = base64urlEncode(Buffer.from(JSON.stringify([base64urlEncode(randomBytes(16)), ...content]), 'utf8'));
  walk.disclosures.push(encoded);
  return sdDigest(encoded);
}

function walkValue(value: JsonValue, tokens: string[], walk: Walk): JsonValue {
  if (Array.isArray(value)) {
    return value.map((element, i) => {
      const path = [...tokens, String(i)];
      const inner = walkValue(element, path, walk);
      const pointer = pointerOf(path);
      if (!walk.wanted.has(pointer)) return inner;
      walk.found.add(pointer);
      return { '...': disclose(walk, [inner]) };
    });
  }
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  const digests: string[] = [];
  for (const name of Object.keys(value)) {
    const path = [...tokens, name];
    const inner = walkValue(value[name]!, path, walk);
    const pointer = pointerOf(path);
    if (!walk.wanted.has(pointer)) {
      setMember(out, name, inner);
      continue;
    }
    if (tokens.length === 0 && NEVER_DISCLOSED.includes(name)) {
      refuseOption(`--disclose ${pointer}: SD-JWT VC keeps "${name}" plain (${NEVER_DISCLOSED.join(', ')} are never disclosed selectively).`);
    }
    walk.found.add(pointer);
    digests.push(disclose(walk, [name, inner]));
  }
  if (digests.length > 0) out['_sd'] = digests.sort();
  return out;
}

export interface SdJwtIssue {
  /** The claims of the issuer-signed JWT: the input's, `_sd` digests in place of the disclosed ones, `_sd_alg`. */
  payload: JsonObject;
  /** The disclosures, base64url, inner ones first. */
  disclosures: string[];
}

/**
 * The claims with `pointers` made selectively disclosable (see the module comment). Refuses
 * (INVALID_OPTIONS) a pointer given twice, one that names nothing, the root or a claim SD-JWT VC
 * keeps plain; (INVALID_REQUEST) claims that use a reserved name.
 */
export function discloseClaims(claims: JsonObject, pointers: readonly string[]): SdJwtIssue {
  checkReserved(claims, '');
  const wanted = new Set<string>();
  for (const pointer of pointers) {
    const canonical = pointerOf(pointerTokens(pointer));
    if (wanted.has(canonical)) refuseOption(`--disclose ${canonical} is given twice.`);
    wanted.add(canonical);
  }
  const walk: Walk = { wanted, found: new Set(), disclosures: [] };
  const payload = walkValue(claims, [], walk) as JsonObject;
  const missing = [...wanted].filter((p) => !walk.found.has(p));
  if (missing.length > 0)
    refuseOption(`--disclose ${missing[0]} names no claim of the input${missing.length > 1 ? ` (nor ${missing.slice(1, 3).join(', ')})` : ''}.`);
  return { payload: { ...payload, _sd_alg: 'sha-256' }, disclosures: walk.disclosures };
}

/** The compact SD-JWT as issued: the issuer-signed JWT and every disclosure, each followed by `~`. */
export function issueSdJwt(claims: JsonObject, pointers: readonly string[], key: IssuingKey, kid: string): string {
  const { payload, disclosures } = discloseClaims(claims, pointers);
  const jwt = signCompact({ typ: 'dc+sd-jwt', kid }, payload, key.signer);
  return `${jwt}~${disclosures.map((d) => `${d}~`).join('')}`;
}

export interface KeyBindingOptions {
  /** The verifier's challenge. */
  nonce: string;
  /** The verifier (its identifier or origin). */
  aud: string;
  iat: Date;
}

/** A KB-JWT for `sdJwt` (as issued or with fewer disclosures; ending in `~`), signed by the holder's key. */
export function keyBindingJwt(sdJwt: string, key: IssuingKey, options: KeyBindingOptions): string {
  const payload: JsonObject = { iat: Math.floor(options.iat.getTime() / 1000), aud: options.aud, nonce: options.nonce, sd_hash: sdDigest(sdJwt) };
  return signCompact({ typ: 'kb+jwt' }, payload, key.signer);
}
