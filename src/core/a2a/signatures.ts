/**
 * Verification of an agent card's `signatures[]` (A2A 1.0 §8.4). Each entry
 * `{protected, signature, header?}` is a detached JWS (RFC 7515 Appendix F): the signing input is
 * `protected '.' BASE64URL(payload)`, the payload the canonical card without `signatures`. The
 * entry is joined with each candidate payload into a compact JWS and handed to the project's
 * strict JWS parser and node:crypto verifier (proofs/jws.ts); no crypto lives here.
 *
 * Payloads, in the order tried: the A2A 1.0 canonical form (canonical.ts, as @a2a-js/sdk signs),
 * then plain RFC 8785 of the card minus `signatures`. The one that verified is reported.
 *
 * Keys, from the protected header's `kid`:
 * - a DID URL (`did:…#key`, an svc extension): the DID is resolved through the KeySource and
 *   the key must be listed under assertionMethod (authentication alone is not enough: signing
 *   a card is an assertion, not a login);
 * - otherwise a `jku` (protected header first, else the unprotected `header`): the JWK set is
 *   fetched through the Runtime (https, egress policy, 64 KiB) and parsed strictly; the key
 *   whose `kid` equals the header's is used;
 * - otherwise no key source svc can use.
 *
 * Status per entry:
 *
 * | Status        | When |
 * |---------------|------|
 * | VALID         | the signature verifies over one of the payloads with the key found |
 * | INVALID       | malformed entry (not an object, missing or non-string `protected`/`signature`, bad base64url, duplicate header members, no `kid`, a parameter in both headers); a key not in the DID document, not under assertionMethod, of a deactivated DID, invalid, or refused by its JWK `use`/`alg`/`key_ops`; the signature verifies over neither payload |
 * | UNSUPPORTED   | an algorithm svc does not verify (`none`, HMAC, RSA …), `crit`, `b64: false`, a key type svc cannot read |
 * | INDETERMINATE | no usable key source; the DID does not resolve; the `jku` cannot be fetched or is no JWK set; no (or more than one) key with that `kid` in it; entries beyond A2A_MAX_SIGNATURES |
 */
import { describeResponse } from '../supplied/resources.js';
import { checkPublicJwk, jwkThumbprint } from '../keys/jwk.js';
import { didOf, isServiceProblem, type KeySource } from '../credentials/keys.js';
import { isJsonObject, parseJsonBytes, type JsonObject, type JsonValue } from '../encoding/json.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws, type ParsedJws } from '../proofs/jws.js';
import type { PublicKeyJwk } from '../proofs/signature.js';
import { asProblemError, ProblemError } from '../problems.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { clause, sentence } from '../text.js';
import { canonicalize } from '../canonical.js';
import { base64urlEncode } from '../encoding/base64url.js';
import { canonicalizeA2aCard, type A2aCanonicalForm } from './canonical.js';
import { quoteShort } from './schema.js';
import { A2A_JWKS_MAX_BYTES, A2A_MAX_SIGNATURES, type A2aCanonicalization, type A2aSignature, type A2aSignatureStatus } from './types.js';

/** One payload a signature may cover. */
export interface CandidatePayload {
  form: A2aCanonicalization;
  /** BASE64URL of the UTF-8 canonical text. */
  b64: string;
}

export interface SignatureContext {
  runtime: Runtime;
  keys: KeySource;
  signal?: AbortSignal;
  /** Watch each JWK set fetch as an `a2a.fetch_jwks` stage (the CLI's progress). */
  hooks?: StageHooks;
  /** The URL the card was served from, to say whether a `jku` shares its origin. */
  cardUrl: string;
  /** In the order tried; the A2A 1.0 form is absent when it is undefined for this card. */
  payloads: CandidatePayload[];
  /** Why the A2A 1.0 form is undefined, when it is. */
  a2aFormError: string | null;
  /** The A2A 1.0 and RFC 8785 forms are the same text for this card. */
  formsIdentical: boolean;
  /** Card content the A2A 1.0 form leaves out (paths), for the detail of an a2a-1.0 match. */
  uncovered: readonly string[];
}

/** A verified entry plus where its key came from (for limitations). */
export interface SignatureOutcome extends A2aSignature {
  keySource: 'did' | 'jku' | null;
}

type KeyFound = { jwk: PublicKeyJwk; via: string; source: 'did' | 'jku' };
type KeyMissing = { status: A2aSignatureStatus; reason: string; source: 'did' | 'jku' | null };

type JwkSet = { keys: JsonValue[] } | { reason: string };

const FORM_NAMES: Readonly<Record<A2aCanonicalization, string>> = {
  'a2a-1.0': 'the A2A 1.0 canonical form of the card',
  rfc8785: 'the RFC 8785 form of the card without its signatures',
};

/** What the entries of one card are checked against. */
export type CardPayloads = Pick<SignatureContext, 'payloads' | 'a2aFormError' | 'formsIdentical' | 'uncovered'> & {
  /** The A2A 1.0 form (or why it is undefined), for the limitations. */
  a2aForm: A2aCanonicalForm;
};

/** The candidate payloads of a card: its A2A 1.0 form (when defined), then plain RFC 8785 unless identical. */
export function cardPayloads(card: JsonObject): CardPayloads {
  const a2aForm = canonicalizeA2aCard(card);
  const withoutSignatures: JsonObject = { ...card };
  delete withoutSignatures['signatures'];
  const plain = canonicalize(withoutSignatures);
  const b64 = (text: string) => base64urlEncode(new TextEncoder().encode(text));
  const payloads: CandidatePayload[] = [];
  if (!('error' in a2aForm)) payloads.push({ form: 'a2a-1.0', b64: b64(a2aForm.text) });
  if ('error' in a2aForm || a2aForm.text !== plain) payloads.push({ form: 'rfc8785', b64: b64(plain) });
  return {
    a2aForm,
    payloads,
    a2aFormError: 'error' in a2aForm ? a2aForm.error : null,
    formsIdentical: !('error' in a2aForm) && a2aForm.text === plain,
    uncovered: 'error' in a2aForm ? [] : a2aForm.uncovered,
  };
}

/** Verifies every entry concurrently; the result is in the entries' order. */
export async function verifyCardSignatures(entries: readonly JsonValue[], ctx: SignatureContext): Promise<SignatureOutcome[]> {
  const jwkSets = new Map<string, Promise<JwkSet>>();
  return Promise.all(
    entries.map((entry, i) =>
      i < A2A_MAX_SIGNATURES
        ? verifyEntry(entry, i, ctx, jwkSets)
        : Promise.resolve(outcome({}, 'INDETERMINATE', `not verified: svc verifies at most ${A2A_MAX_SIGNATURES} signatures per card`)),
    ),
  );
}

function outcome(
  base: Partial<Pick<SignatureOutcome, 'alg' | 'kid' | 'jku' | 'keySource' | 'keyThumbprint'>>,
  status: A2aSignatureStatus,
  reason: string,
  canonicalization: A2aCanonicalization | null = null,
): SignatureOutcome {
  return {
    alg: base.alg ?? null,
    kid: base.kid ?? null,
    jku: base.jku ?? null,
    status,
    detail: asSentence(reason),
    canonicalization,
    keyThumbprint: base.keyThumbprint ?? null,
    keySource: base.keySource ?? null,
  };
}

/** A reason as a sentence; one opening with a DID or URL keeps it as written (`did:web:…`, never `Did:web:…`). */
function asSentence(reason: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/.test(reason)) return sentence(reason);
  return /[.!?]$/.test(reason) ? reason : `${reason}.`;
}

function stringOf(header: JsonObject | null, name: string): string | null {
  const v = header?.[name];
  return typeof v === 'string' ? v : null;
}

async function verifyEntry(entry: JsonValue, index: number, ctx: SignatureContext, jwkSets: Map<string, Promise<JwkSet>>): Promise<SignatureOutcome> {
  const where = `the entry signatures[${index}]`;
  if (!isJsonObject(entry)) return outcome({}, 'INVALID', `${where} is not an object`);
  const prot = entry['protected'];
  const sig = entry['signature'];
  const rawHeader = entry['header'];
  if (typeof prot !== 'string') return outcome({}, 'INVALID', `${where} has no "protected" string`);
  if (typeof sig !== 'string') return outcome({}, 'INVALID', `${where} has no "signature" string`);
  // null is ProtoJSON's "not set".
  if (rawHeader !== undefined && rawHeader !== null && !isJsonObject(rawHeader))
    return outcome({}, 'INVALID', `the header of signatures[${index}] is not an object`);
  const unprotected = isJsonObject(rawHeader) ? rawHeader : undefined;

  const first = parseCompactJws(`${prot}.${ctx.payloads[0]!.b64}.${sig}`);
  if (isJwsParseError(first)) {
    const base = { alg: stringOf(first.header, 'alg'), kid: stringOf(first.header, 'kid'), jku: stringOf(first.header, 'jku') };
    return outcome(base, first.kind === 'UNSUPPORTED' ? 'UNSUPPORTED' : 'INVALID', first.error);
  }
  const header = first.header;
  const base: Partial<SignatureOutcome> = { alg: first.alg };
  const kid = header['kid'];
  if (kid === undefined) return outcome(base, 'INVALID', 'the protected header has no "kid", which A2A 1.0 §8.4 requires');
  if (typeof kid !== 'string' || kid === '') return outcome(base, 'INVALID', 'the protected header parameter "kid" is not a non-empty string');
  base.kid = kid;
  const shared = unprotected ? Object.keys(unprotected).filter((name) => Object.hasOwn(header, name)) : [];
  if (shared.length > 0) {
    return outcome(
      base,
      'INVALID',
      `the header parameter ${quoteShort(shared[0]!, 40)} appears in both the protected and the unprotected header (RFC 7515 §7.2.1)`,
    );
  }
  const jkuValue = header['jku'] ?? unprotected?.['jku'];
  if (jkuValue !== undefined && typeof jkuValue !== 'string') return outcome(base, 'INVALID', 'the header parameter "jku" is not a string');
  if (typeof jkuValue === 'string') base.jku = jkuValue;

  const key = await findKey(kid, base.jku ?? null, first.alg, ctx, jwkSets);
  if ('status' in key) return outcome({ ...base, keySource: key.source }, key.status, key.reason);
  base.keySource = key.source;
  base.keyThumbprint = jwkThumbprint({ kty: key.jwk.kty ?? '', ...key.jwk });

  const reasons: string[] = [];
  for (const [i, payload] of ctx.payloads.entries()) {
    const parsed: ParsedJws | null = i === 0 ? first : asParsed(parseCompactJws(`${prot}.${payload.b64}.${sig}`));
    if (!parsed) continue;
    const check = checkJwsSignature(parsed, key.jwk);
    if (check.valid) return outcome(base, 'VALID', validReason(first.alg, payload.form, key.via, ctx), payload.form);
    reasons.push(check.reason);
  }
  const tried = ctx.payloads.map((p) => p.form).join(' and ');
  const unavailable = ctx.a2aFormError ? `; the A2A 1.0 canonical form is undefined for this card (${clause(ctx.a2aFormError)})` : '';
  return outcome(base, 'INVALID', `${clause(reasons[0] ?? 'the signature does not verify')} (payloads tried: ${tried}${unavailable}); key: ${key.via}`);
}

function asParsed(result: ReturnType<typeof parseCompactJws>): ParsedJws | null {
  return isJwsParseError(result) ? null : result;
}

function validReason(alg: string, form: A2aCanonicalization, via: string, ctx: SignatureContext): string {
  let over = FORM_NAMES[form];
  if (form === 'a2a-1.0' && ctx.formsIdentical) over += ' (here identical to its RFC 8785 form)';
  let reason = `the ${alg} signature verifies over ${over} with ${via}`;
  if (form === 'a2a-1.0' && ctx.uncovered.length > 0) {
    const shown = ctx.uncovered.slice(0, 3).join(', ');
    const more = ctx.uncovered.length > 3 ? ` and ${ctx.uncovered.length - 3} more` : '';
    reason += `; not covered: ${shown}${more}`;
  }
  return reason;
}

async function findKey(
  kid: string,
  jku: string | null,
  alg: string,
  ctx: SignatureContext,
  jwkSets: Map<string, Promise<JwkSet>>,
): Promise<KeyFound | KeyMissing> {
  const did = didOf(kid);
  if (did !== null && did !== kid) return didKey(kid, did, ctx);
  if (jku !== null) return jwkSetKey(jku, kid, alg, ctx, jwkSets);
  const why = did === kid ? 'is a DID without a fragment naming one of its keys' : 'is not a DID URL';
  return { status: 'INDETERMINATE', reason: `the kid ${quoteShort(kid, 100)} ${why} and the signature names no jku: no key source svc can use`, source: null };
}

async function didKey(kid: string, did: string, ctx: SignatureContext): Promise<KeyFound | KeyMissing> {
  const miss = (status: A2aSignatureStatus, reason: string): KeyMissing => ({ status, reason, source: 'did' });
  const found = await ctx.keys.keysOf(did, ctx.signal);
  if (!found.ok) return miss('INDETERMINATE', found.reason);
  const key = found.keys.find((k) => k.id === kid);
  const named = quoteShort(kid, 100);
  if (!key) return miss('INVALID', `${named} is not a verification method in the DID document of ${did}`);
  if (key.status === 'INVALID_KEY') return miss('INVALID', `the key ${named} is invalid: ${clause(key.detail ?? 'no detail')}`);
  if (key.status === 'UNSUPPORTED_KEY' || !key.publicJwk)
    return miss('UNSUPPORTED', `the key ${named} is not supported: ${clause(key.detail ?? 'no public key svc can read')}`);
  if (found.deactivated) return miss('INVALID', `${did} is deactivated; its keys authorise nothing`);
  if (!key.relationships.includes('assertionMethod')) {
    const has = key.relationships.length > 0 ? `it is listed only under ${key.relationships.join(', ')}` : 'it is listed under no relationship';
    return miss('INVALID', `the key ${named} is not authorised for assertionMethod (${has})`);
  }
  return { jwk: key.publicJwk, via: `${named}, authorised for assertionMethod`, source: 'did' };
}

async function jwkSetKey(jku: string, kid: string, alg: string, ctx: SignatureContext, jwkSets: Map<string, Promise<JwkSet>>): Promise<KeyFound | KeyMissing> {
  const miss = (status: A2aSignatureStatus, reason: string): KeyMissing => ({ status, reason, source: 'jku' });
  const at = quoteShort(jku, 100);
  let url: URL;
  try {
    url = new URL(jku);
  } catch {
    return miss('INVALID', `the jku ${at} is not an absolute URL`);
  }
  let pending = jwkSets.get(url.href);
  if (!pending) {
    pending = fetchJwkSet(url.href, ctx);
    jwkSets.set(url.href, pending);
  }
  const set = await pending;
  if ('reason' in set) return miss('INDETERMINATE', set.reason);
  const matches = set.keys.filter((k): k is JsonObject => isJsonObject(k) && k['kid'] === kid);
  const named = quoteShort(kid, 100);
  if (matches.length === 0) return miss('INDETERMINATE', `the JWK set at ${at} has no key with kid ${named}`);
  if (matches.length > 1) return miss('INDETERMINATE', `the JWK set at ${at} has ${matches.length} keys with kid ${named}`);
  const jwk = matches[0]!;
  const use = jwk['use'];
  if (use !== undefined && use !== 'sig') return miss('INVALID', `the key ${named} at ${at} is not for signatures (use ${JSON.stringify(use)})`);
  const keyAlg = jwk['alg'];
  if (keyAlg !== undefined && keyAlg !== alg)
    return miss('INVALID', `the key ${named} at ${at} is for ${typeof keyAlg === 'string' ? quoteShort(keyAlg, 20) : 'another algorithm'}, not ${alg}`);
  const ops = jwk['key_ops'];
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify')))
    return miss('INVALID', `the key ${named} at ${at} does not allow "verify" in key_ops`);
  const check = await checkPublicJwk(jwk);
  if (check.status === 'INVALID_KEY') return miss('INVALID', `the key ${named} at ${at} is invalid: ${clause(check.detail ?? 'no detail')}`);
  if (check.status === 'UNSUPPORTED_KEY' || !check.publicJwk)
    return miss('UNSUPPORTED', `the key ${named} at ${at} is not supported: ${clause(check.detail ?? 'no public key svc can read')}`);
  const origin = sameOrigin(url, ctx.cardUrl) ? "the card's origin" : 'another origin than the card';
  return { jwk: check.publicJwk, via: `${named} of the JWK set at ${at} (${origin})`, source: 'jku' };
}

function sameOrigin(url: URL, cardUrl: string): boolean {
  try {
    return url.origin === new URL(cardUrl).origin;
  } catch {
    return false;
  }
}

/** GETs and parses a JWK set; a failure is a reason (INDETERMINATE), except the service's own limits. */
async function fetchJwkSet(url: string, ctx: SignatureContext): Promise<JwkSet> {
  const at = quoteShort(url, 100);
  let body: Uint8Array;
  try {
    const response = await new StageReporter(ctx.runtime.clock, ctx.hooks, ctx.runtime.telemetry).run('a2a.fetch_jwks', `GET ${url}`, async (stage) => {
      const fetched = await ctx.runtime.net.fetch({
        url,
        purpose: 'JWK set',
        maxBytes: A2A_JWKS_MAX_BYTES,
        accept: 'application/jwk-set+json, application/json',
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      stage.status = fetched.status >= 200 && fetched.status <= 299 ? 'PASS' : 'FAIL';
      stage.detail = describeResponse(fetched);
      return fetched;
    });
    if (response.status < 200 || response.status > 299) return { reason: `the JWK set at ${at} could not be fetched: HTTP ${response.status}` };
    body = response.body;
  } catch (err) {
    const problem = asProblemError(err);
    // Time limits, capacity and cancellation are the service's, not evidence about the card.
    if (!(err instanceof ProblemError) || isServiceProblem(problem, ctx.signal)) throw problem;
    return { reason: `the JWK set at ${at} could not be fetched: ${clause(problem.detail)}` };
  }
  const parsed = parseJsonBytes(body, 'the JWK set');
  if ('error' in parsed) return { reason: `${clause(parsed.error).slice(0, 200)} (${at})` };
  const keys = isJsonObject(parsed.value) ? parsed.value['keys'] : undefined;
  if (!Array.isArray(keys)) return { reason: `the document at ${at} is not a JWK set (it has no "keys" array)` };
  return { keys };
}
