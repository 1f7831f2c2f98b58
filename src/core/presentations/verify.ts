/**
 * Presentation verification (docs/credentials.md): a verifiable presentation a
 * holder hands a verifier, secured by a Data Integrity proof (eddsa-jcs-2022, ecdsa-jcs-2019)
 * for `authentication`, as a `vp+jwt` (VC-JOSE-COSE) or as a VC-JWT 1.1 token with a `vp` claim.
 *
 *   input → structure → proof + holder (key found through the core, authorised for
 *   authentication) → validity → challenge → domain → credentials → holderBinding
 *
 * The checks, statuses and precedence are the credentials' (credentials/checks.ts): a fatal
 * failure (structure, proof, a holder FAIL) stops the checks after it, and the status is the
 * most severe any check implies — the credentials check implies the worst status of the
 * credentials the presentation carries, each verified by verifyCredential and reported whole.
 *
 * Challenge and domain are the verifier's: a proof's `challenge` (a JWT's `nonce`) must equal the
 * challenge the caller chose, its `domain` (a JWT's `aud`) must be or include the caller's; when
 * the caller gave one and the proof states none, that is INVALID, never skipped. When the caller
 * gave none, the check is SKIP and a limitation says what was not excluded (a replay, a
 * presentation meant for another verifier).
 *
 * Holder binding — whether each credential is about the holder — is reported (WARN when one is
 * not); `requireHolderBinding` makes it decide (INVALID).
 */
import { isJsonObject, jsonValueProblem, parseJsonText, type JsonObject, type JsonValue } from '../encoding/json.js';
import { HOLDER_ROLE, type Finding } from '../credentials/binding.js';
import { CheckLedger, failing, pass, type LedgerSpec } from '../credentials/checks.js';
import { hasType, readEnvelope } from '../credentials/envelope.js';
import { COMPACT_JWS, describe, SD_JWT } from '../credentials/input.js';
import { mediaType } from '../credentials/jwt.js';
import { didKeySource, didOf, type ControllerKey, type KeySource } from '../credentials/keys.js';
import { idOf, VC_V1_CONTEXT, VC_V2_CONTEXT } from '../credentials/model.js';
import { isSdJwtParseError, parseSdJwt } from '../credentials/sd-jwt.js';
import {
  STATUS_PRECEDENCE,
  type CredentialFormat,
  type CredentialStatus,
  type CredentialVerification,
  type DataModel,
  type ProofSummary,
} from '../credentials/types.js';
import { isVcdmUrl } from '../credentials/vcdm-rules.js';
import {
  checkJwtSignature,
  checkKeyAndBinding,
  CLOCK_SKEW_SECONDS,
  refusedCredential,
  stamp,
  verifyCredential,
  type KeyChecks,
  type VerifyCredentialOptions,
} from '../credentials/verify.js';
import { jwkThumbprint } from '../keys/jwk.js';
import { checkProofSupport, JCS_CRYPTOSUITES, verifyJcsProof } from '../proofs/data-integrity.js';
import { numericDate } from '../proofs/datetime.js';
import { curveOfAlgorithm, isJwsParseError, parseCompactJws, type ParsedJws } from '../proofs/jws.js';
import { rfc3339 } from '../runtime.js';
import { suppliedLimitations } from '../supplied/resources.js';
import { clause, plural, sentence, truncate } from '../text.js';
import {
  MAX_PRESENTED_CREDENTIALS,
  PRESENTATION_CHECK_IDS,
  type EmbeddedCredential,
  type EmbeddedForm,
  type HolderBinding,
  type PresentationCheckId,
  type PresentationVerification,
  type VerifyPresentationOptions,
} from './types.js';

/** JWS algorithms a presentation may be signed with (those of credentials). */
const PRESENTATION_ALGORITHMS: readonly string[] = ['EdDSA', 'Ed25519', 'ES256', 'ES256K'];
const SUPPORTED =
  'svc verifies presentations secured by eddsa-jcs-2022 or ecdsa-jcs-2019 (P-256) Data Integrity proofs, and vp+jwt or VC-JWT 1.1 presentations signed with EdDSA, ES256 or ES256K';
/** The longest presentation text read (a JSON presentation with its credentials; a JWT is held to the JWS limit). */
export const MAX_PRESENTATION_LENGTH = 4 * 1024 * 1024;
/** Credentials verified at once (their issuers resolve in parallel). */
const CREDENTIAL_CONCURRENCY = 8;

const LABELS: Readonly<Record<PresentationCheckId, string>> = {
  structure: 'Well-formed presentation',
  holder: 'Signing key belongs to the holder',
  proof: 'Proof verifies',
  validity: 'Within its validity period',
  challenge: 'Challenge',
  domain: 'Domain',
  credentials: 'Credentials verify',
  holderBinding: 'Credentials are about the holder',
};

const LEDGER: LedgerSpec<PresentationCheckId> = { ids: PRESENTATION_CHECK_IDS, labels: LABELS, fatal: ['structure', 'proof', 'holder'], binding: 'holder' };

/** The verification as it is built up. */
class Report extends CheckLedger<PresentationCheckId> {
  readonly keyChecks: KeyChecks<PresentationCheckId> = { ledger: this, proof: 'proof', binding: 'holder', role: HOLDER_ROLE };
  format: CredentialFormat = 'UNKNOWN';
  dataModel: DataModel = 'unknown';
  id: string | null = null;
  holder: string | null = null;
  types: string[] = [];
  challenge: string | null = null;
  domain: string[] | null = null;
  proof: ProofSummary | null = null;
  signerResolution: PresentationVerification['holderResolution'] = null;
  /** The key that signed the presentation, once found (for SD-JWT VC key binding). */
  signingKey: ControllerKey | null = null;
  credentials: EmbeddedCredential[] = [];
  readonly limitations: string[] = [];

  constructor() {
    super(LEDGER);
  }
}

/* ------------------------------------------------------------------ input */

type PresentationInput =
  | { kind: 'json'; presentation: JsonObject }
  | { kind: 'jwt'; token: string }
  | { kind: 'refused'; status: 'MALFORMED' | 'UNSUPPORTED'; reason: string };

/** An envelope object "MUST" have a `@context` (VC Data Model 2.0, "Enveloped Verifiable Credentials" and "… Presentations"). */
const NO_ENVELOPE_CONTEXT = (name: string): string => `The ${name} has no "@context"; an envelope states the context that defines its terms.`;

/** Reads the input; never throws. An EnvelopedVerifiablePresentation is opened to its JWT. */
function readPresentationInput(input: unknown): PresentationInput {
  let value: unknown = input;
  if (typeof input === 'string') {
    const text = input.trim();
    if (text.length > MAX_PRESENTATION_LENGTH)
      return { kind: 'refused', status: 'MALFORMED', reason: `The presentation text is longer than ${MAX_PRESENTATION_LENGTH} characters.` };
    if (COMPACT_JWS.test(text)) return { kind: 'jwt', token: text };
    if (SD_JWT.test(text))
      return {
        kind: 'refused',
        status: 'UNSUPPORTED',
        reason: 'This is an SD-JWT: a credential presented by itself, verified by svc verify-credential (its KB-JWT binds it to the verifier).',
      };
    if (!text.startsWith('{')) {
      return {
        kind: 'refused',
        status: 'MALFORMED',
        reason: 'The presentation text is neither a JSON object nor a compact JWT (three base64url parts separated by ".").',
      };
    }
    const parsed = parseJsonText(text, 'the presentation');
    if ('error' in parsed) return { kind: 'refused', status: 'MALFORMED', reason: sentence(parsed.error) };
    value = parsed.value;
  } else if (isJsonObject(input)) {
    const problem = jsonValueProblem(input);
    if (problem !== null) return { kind: 'refused', status: 'MALFORMED', reason: `The presentation is not I-JSON (RFC 7493): ${problem}.` };
  }
  if (!isJsonObject(value))
    return {
      kind: 'refused',
      status: 'MALFORMED',
      reason: `A presentation is a JSON object, the JSON text of one, or a compact JWT; this is ${describe(value)}.`,
    };
  if (hasType(value, 'EnvelopedVerifiablePresentation')) {
    if (value['@context'] === undefined) return { kind: 'refused', status: 'MALFORMED', reason: NO_ENVELOPE_CONTEXT('EnvelopedVerifiablePresentation') };
    const envelope = readEnvelope(value, 'presentation');
    if (envelope.kind === 'malformed') return { kind: 'refused', status: 'MALFORMED', reason: envelope.reason };
    return { kind: 'jwt', token: envelope.text };
  }
  return { kind: 'json', presentation: value };
}

/* ------------------------------------------------------------------ structure */

/** A presentation rule of VC Data Model 2.0 ("Verifiable Presentations") or 1.1 ("Presentations"). */
function rule(dataModel: DataModel, text: string): string {
  return `${text} (${dataModel === '1.1' ? 'VC Data Model 1.1 §4.10 Presentations' : 'VC Data Model 2.0 §4.13 Verifiable Presentations'})`;
}

interface PresentationModel {
  problems: string[];
  /** The `verifiableCredential` entries, in order (a single object is one entry). */
  entries: JsonValue[];
}

/**
 * The presentation's shape: `@context` (first the VC context), `type` with
 * VerifiablePresentation, an `id` and `holder` that are URLs (a holder may be an object with an
 * `id`), `verifiableCredential` of credentials (objects, or compact JWT / SD-JWT strings), none
 * of them a presentation, at most MAX_PRESENTED_CREDENTIALS.
 */
function readModel(report: Report, vp: JsonObject): PresentationModel {
  const problems: string[] = [];
  const context = vp['@context'];
  const first = Array.isArray(context) ? context[0] : context;
  report.dataModel = first === VC_V2_CONTEXT ? '2.0' : first === VC_V1_CONTEXT ? '1.1' : 'unknown';
  const dm = report.dataModel;
  if (context === undefined) problems.push(rule(dm, 'it has no "@context"'));
  else if (report.dataModel === 'unknown')
    problems.push(rule(dm, `its first "@context" entry is ${truncate(JSON.stringify(first) ?? 'nothing', 60)}, not ${VC_V2_CONTEXT} (or ${VC_V1_CONTEXT})`));
  if (Array.isArray(context))
    context.slice(1).forEach((item, index) => {
      if (!isJsonObject(item) && !isVcdmUrl(item))
        problems.push(
          rule(dm, `"@context" entry ${index + 2} is ${truncate(JSON.stringify(item), 60)}; each context after the first must be a URL or an object`),
        );
    });

  const rawType = vp['type'];
  const types = (Array.isArray(rawType) ? rawType : [rawType]).filter((t): t is string => typeof t === 'string');
  report.types = types;
  if (rawType === undefined) problems.push(rule(dm, 'it has no "type"'));
  else if (types.length !== (Array.isArray(rawType) ? rawType.length : 1) || types.includes(''))
    problems.push(rule(dm, 'its "type" holds something other than non-empty strings'));
  else if (!types.includes('VerifiablePresentation')) {
    if (types.includes('VerifiableCredential')) problems.push('it is a verifiable credential, not a presentation: verify it with svc verify-credential');
    else problems.push(rule(dm, 'its "type" does not include VerifiablePresentation'));
  }

  const id = vp['id'];
  if (id !== undefined) {
    if (isVcdmUrl(id)) report.id = id;
    else problems.push(rule(dm, `its "id" ${truncate(JSON.stringify(id), 60)} is not a URL`));
  }
  const holder = vp['holder'];
  if (holder !== undefined) {
    const holderId = idOf(holder);
    if (holderId !== null && isVcdmUrl(holderId)) report.holder = holderId;
    else problems.push(rule(dm, 'its "holder" is neither a URL nor an object whose "id" is a URL'));
  }

  const raw = vp['verifiableCredential'];
  const entries: JsonValue[] = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw as JsonValue];
  if (entries.length > MAX_PRESENTED_CREDENTIALS) {
    problems.push(`it carries ${entries.length} credentials; svc verifies at most ${MAX_PRESENTED_CREDENTIALS} in one presentation`);
    return { problems, entries: [] };
  }
  entries.forEach((entry, index) => {
    const at = `verifiableCredential entry ${index + 1}`;
    if (typeof entry === 'string') {
      // A VC-JWT 1.1 `vp` carries credential JWTs as strings; a VC 2.0 presentation carries objects only.
      if (dm === '2.0')
        problems.push(
          rule(dm, `${at} is a string; in a VC 2.0 presentation each credential is an object (an EnvelopedVerifiableCredential for a JWT or SD-JWT)`),
        );
      return;
    }
    if (!isJsonObject(entry)) {
      problems.push(rule(dm, `${at} is ${describe(entry)}, not a credential`));
      return;
    }
    if (hasType(entry, 'VerifiablePresentation') || hasType(entry, 'EnvelopedVerifiablePresentation'))
      problems.push(`${at} is a presentation; a presentation carries credentials, not presentations`);
  });
  return { problems, entries };
}

function checkStructure(report: Report, vp: JsonObject, extra: Array<{ status: CredentialStatus; text: string }>, what: string): PresentationModel | null {
  const model = readModel(report, vp);
  const problems = [...extra, ...model.problems.map((text) => ({ status: 'MALFORMED' as const, text }))];
  if (problems.length > 0) {
    const worst = STATUS_PRECEDENCE.find((s) => problems.some((p) => p.status === s)) ?? 'MALFORMED';
    const texts = [...problems].sort((a, b) => STATUS_PRECEDENCE.indexOf(a.status) - STATUS_PRECEDENCE.indexOf(b.status)).map((p) => p.text.replace(/\.$/, ''));
    report.set('structure', failing(worst, sentence(texts.join('; '))));
    return null;
  }
  const n = model.entries.length;
  report.set(
    'structure',
    pass(
      `A VC ${report.dataModel === 'unknown' ? '' : `${report.dataModel} `}presentation ${what} by ${report.holder ?? 'an unnamed holder'}, carrying ${n === 0 ? 'no credential' : plural(n, 'credential')}.`,
    ),
  );
  return model;
}

/* ------------------------------------------------------------------ Data Integrity */

async function checkDataIntegrity(report: Report, vp: JsonObject, options: VerifyPresentationOptions, source: KeySource): Promise<void> {
  const raw = vp['proof'];
  const proofs = Array.isArray(raw) ? raw : [raw];
  const proof = proofs[0];
  const member = (name: string): string | null => (isJsonObject(proof) && typeof proof[name] === 'string' ? (proof[name] as string) : null);
  report.proof = {
    format: 'DATA_INTEGRITY',
    suite: isJsonObject(proof) ? (typeof proof['cryptosuite'] === 'string' ? proof['cryptosuite'] : member('type')) : null,
    verificationMethod: member('verificationMethod'),
    proofPurpose: member('proofPurpose'),
    created: member('created') === null ? null : stamp(member('created')!),
    keyCurve: null,
    signedDigest: null,
    detail: '',
  };
  const refuse = (finding: Finding): void => {
    report.proof!.detail = finding.detail;
    report.set('proof', finding);
  };
  if (proofs.length === 0) return refuse(failing('MALFORMED', 'The proof set is empty.'));
  if (proofs.length > 1)
    return refuse(failing('UNSUPPORTED', `The presentation carries a set of ${proofs.length} proofs; svc verifies presentations with one proof.`));
  const unsupported = checkProofSupport(proof, SUPPORTED, JCS_CRYPTOSUITES);
  if (unsupported) return refuse(failing(unsupported.status, sentence(unsupported.reason)));
  const p = proof as JsonObject;
  const vm = p['verificationMethod'];
  if (typeof vm !== 'string') return refuse(failing('MALFORMED', 'The proof has no string "verificationMethod".'));
  if (p['proofPurpose'] !== 'authentication') {
    return refuse(
      failing(
        p['proofPurpose'] === undefined ? 'MALFORMED' : 'INVALID',
        `The proof's purpose is ${JSON.stringify(p['proofPurpose'] ?? null)}; a presentation is secured for authentication.`,
      ),
    );
  }
  const challenge = p['challenge'];
  if (challenge !== undefined && typeof challenge !== 'string') return refuse(failing('MALFORMED', 'The proof\'s "challenge" is not a string.'));
  const domain = p['domain'];
  const domains =
    typeof domain === 'string'
      ? [domain]
      : Array.isArray(domain) && domain.length > 0 && domain.every((d) => typeof d === 'string')
        ? (domain as string[])
        : null;
  if (domain !== undefined && domains === null)
    return refuse(failing('MALFORMED', 'The proof\'s "domain" is neither a string nor a non-empty array of strings.'));
  report.challenge = typeof challenge === 'string' ? challenge : null;
  report.domain = domains;

  const suite = String(p['cryptosuite']);
  const nowMs = options.runtime.clock.now().getTime();
  // Checked here on the main thread while the thread pool checks the credentials' signatures.
  report.signingKey = await checkKeyAndBinding(report.keyChecks, vm, null, report.holder ?? didOf(vm), source, options.signal, (key) => {
    const { result, signedDigest } = verifyJcsProof(vp, p, key.publicJwk!, nowMs);
    if (result.status === 'VALID') return { ...pass(`The ${suite} proof verifies with ${key.id}.`), signedDigest };
    return { ...failing(result.status, sentence(result.reason)), signedDigest };
  });
  if (!report.stopped)
    report.set('validity', pass('A presentation states no validity period of its own; its proof\'s "created" and "expires" were checked with the proof.'));
}

/* ------------------------------------------------------------------ JWT */

interface JwtPresentation {
  vp: JsonObject | null;
  problems: Array<{ status: CredentialStatus; text: string }>;
  iss: string | null;
  exp: Date | null;
  nbf: Date | null;
  nonce: string | null;
  aud: string[] | null;
}

/**
 * A JWT presentation read before its signature: vp+jwt (VC-JOSE-COSE: the payload is the
 * presentation, no `vc`/`vp` claim) or VC-JWT 1.1 (`typ` JWT or absent, the presentation in
 * `vp`, `iss` the holder, `jti` its id). `nonce` and `aud` are the challenge and domain.
 */
function readJwtPresentation(report: Report, header: JsonObject, payload: JsonObject): JwtPresentation {
  const out: JwtPresentation = { vp: null, problems: [], iss: null, exp: null, nbf: null, nonce: null, aud: null };
  const typ = mediaType(header['typ']);
  const problem = (text: string, status: CredentialStatus = 'MALFORMED') => out.problems.push({ status, text });
  if (typ === 'vc+jwt' || typ === 'dc+sd-jwt' || typ === 'vc+sd-jwt' || (payload['vc'] !== undefined && payload['vp'] === undefined)) {
    report.format = typ === 'vc+jwt' ? 'VC_JOSE_COSE' : typ === null || typ === 'jwt' ? 'VC_JWT_1_1' : 'SD_JWT_VC';
    problem(
      `the JWT is a credential (${typ === null ? 'a "vc" claim' : `typ ${String(header['typ'])}`}), not a presentation: verify it with svc verify-credential`,
      'UNSUPPORTED',
    );
    return out;
  }
  const jose = typ === 'vp+jwt';
  if (!jose && payload['vp'] === undefined) {
    problem(
      `the JWT is not a presentation: it is ${typ === null ? 'untyped' : `typed ${String(header['typ'])}`} and has no "vp" claim (a VC-JWT 1.1 presentation) nor typ vp+jwt (VC-JOSE-COSE)`,
    );
    return out;
  }
  if (!jose && typ !== null && typ !== 'jwt')
    problem(`the JWT "typ" is ${JSON.stringify(String(header['typ']))}; a VC-JWT 1.1 presentation is typed JWT when typed at all`, 'INVALID');
  report.format = jose ? 'VC_JOSE_COSE' : 'VC_JWT_1_1';

  const iss = payload['iss'];
  if (iss !== undefined && typeof iss !== 'string') problem('the JWT "iss" claim is not a string');
  out.iss = typeof iss === 'string' ? iss : null;
  for (const name of ['exp', 'nbf'] as const) {
    const value = payload[name];
    if (value === undefined) continue;
    const date = numericDate(value);
    if (date === null) problem(`the JWT "${name}" claim is not a NumericDate (seconds since 1970)`);
    out[name] = date;
  }
  const nonce = payload['nonce'];
  if (nonce !== undefined && typeof nonce !== 'string') problem('the JWT "nonce" claim is not a string');
  out.nonce = typeof nonce === 'string' ? nonce : null;
  const aud = payload['aud'];
  if (typeof aud === 'string') out.aud = [aud];
  else if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) out.aud = aud as string[];
  else if (aud !== undefined) problem('the JWT "aud" claim is neither a string nor an array of strings');

  if (jose) {
    for (const claim of ['vc', 'vp'] as const)
      if (payload[claim] !== undefined) problem(`a vp+jwt presentation must not carry a "${claim}" claim (VC-JOSE-COSE)`, 'INVALID');
    out.vp = payload;
  } else {
    const vp = payload['vp'];
    if (!isJsonObject(vp)) {
      problem('the JWT "vp" claim is not a presentation object');
      return out;
    }
    out.vp = vp;
    const jti = payload['jti'];
    if (jti !== undefined && vp['id'] !== undefined && jti !== vp['id']) problem(`the JWT "jti" claim conflicts with the presentation's id`, 'INVALID');
  }
  const holder = idOf(out.vp?.['holder']);
  if (out.iss !== null && holder !== null && out.iss !== holder)
    problem(`the JWT "iss" claim (${truncate(out.iss, 80)}) conflicts with the presentation's holder (${truncate(holder, 80)})`, 'INVALID');
  return out;
}

async function checkJwt(
  report: Report,
  token: string,
  options: VerifyPresentationOptions,
  source: KeySource,
  started: (model: PresentationModel) => void,
): Promise<PresentationModel | null> {
  const parsed = parseCompactJws(token, { compactShape: true, accepted: PRESENTATION_ALGORITHMS });
  const header = parsed.header;
  const payload = isJwsParseError(parsed) ? parsed.payload : parsed.payload instanceof Uint8Array ? null : parsed.payload;
  if (header === null || payload === null) {
    const reason = isJwsParseError(parsed) ? parsed.error : 'the JWT payload is not a JSON object';
    report.set('structure', failing(isJwsParseError(parsed) ? parsed.kind : 'MALFORMED', sentence(`the JWT is malformed: ${reason}`)));
    return null;
  }
  const jwt = readJwtPresentation(report, header, payload);
  if (jwt.vp === null) {
    report.set('structure', failing(jwt.problems[0]?.status ?? 'MALFORMED', sentence(jwt.problems[0]?.text ?? 'the JWT holds no presentation')));
    return null;
  }
  if (isJwsParseError(parsed) && parsed.kind === 'MALFORMED') jwt.problems.unshift({ status: 'MALFORMED', text: `the JWT is malformed: ${parsed.error}` });
  const alg = typeof header['alg'] === 'string' ? header['alg'] : null;
  report.challenge = jwt.nonce;
  report.domain = jwt.aud;
  const model = checkStructure(report, jwt.vp, jwt.problems, `(${report.format === 'VC_JOSE_COSE' ? 'vp+jwt' : 'VC-JWT 1.1'}) signed`);
  if (!model) return null;
  started(model);
  // iss names the holder when the presentation does not.
  report.holder ??= jwt.iss;
  const kid = header['kid'];
  report.proof = {
    format: report.format,
    suite: alg,
    verificationMethod: typeof kid === 'string' ? kid : null,
    proofPurpose: 'authentication',
    created: null,
    keyCurve: null,
    signedDigest: null,
    detail: '',
  };
  if (isJwsParseError(parsed) || !PRESENTATION_ALGORITHMS.includes(parsed.alg)) {
    const detail = sentence(`${isJwsParseError(parsed) ? parsed.error : `the algorithm ${parsed.alg} is not supported for presentations`}; ${SUPPORTED}`);
    report.proof.detail = detail;
    report.set('proof', failing('UNSUPPORTED', detail));
    return null;
  }
  if (kid !== undefined && typeof kid !== 'string') {
    report.set('proof', failing('MALFORMED', 'The JWT header "kid" is not a string.'));
    return null;
  }
  const reference = typeof kid === 'string' ? kid : null;
  report.signingKey = await checkKeyAndBinding(
    report.keyChecks,
    reference,
    curveOfAlgorithm(parsed.alg),
    report.holder ?? didOf(reference),
    source,
    options.signal,
    checkJwtSignature(parsed as ParsedJws),
  );
  if (!report.stopped) checkJwtValidity(report, jwt, options.runtime.clock.now());
  return model;
}

function checkJwtValidity(report: Report, jwt: JwtPresentation, now: Date): void {
  const skew = CLOCK_SKEW_SECONDS * 1000;
  const at = rfc3339(now);
  if (jwt.exp && jwt.exp.getTime() + skew <= now.getTime()) report.set('validity', failing('EXPIRED', `Its JWT exp ${rfc3339(jwt.exp)} is before ${at}.`));
  else if (jwt.nbf && jwt.nbf.getTime() - skew > now.getTime())
    report.set('validity', failing('NOT_YET_VALID', `Its JWT nbf ${rfc3339(jwt.nbf)} is after ${at}.`));
  else if (!jwt.exp && !jwt.nbf) report.set('validity', pass(`The presentation states no validity period; nothing limits it at ${at}.`));
  else
    report.set(
      'validity',
      pass(`Valid at ${at} (${[jwt.nbf ? `JWT nbf ${rfc3339(jwt.nbf)}` : null, jwt.exp ? `JWT exp ${rfc3339(jwt.exp)}` : null].filter(Boolean).join(', ')}).`),
    );
}

/* ------------------------------------------------------------------ challenge, domain */

function checkChallenge(report: Report, expected: string | undefined): void {
  const what = report.format === 'DATA_INTEGRITY' ? 'proof\'s "challenge"' : 'JWT "nonce"';
  const found = report.challenge;
  if (expected === undefined) {
    report.set('challenge', {
      status: 'SKIP',
      implies: null,
      detail: `No challenge was given; the presentation was not checked against one.${found === null ? '' : ` Its ${what} is ${JSON.stringify(truncate(found, 80))}.`}`,
    });
    report.limitations.push(
      'No challenge was given: that the presentation was made for this verification, and is not a replay of an earlier one, was not established.',
    );
    return;
  }
  if (found === null)
    report.set('challenge', failing('INVALID', `The presentation states no challenge (no ${what}); expected ${JSON.stringify(truncate(expected, 80))}.`));
  else if (found !== expected)
    report.set(
      'challenge',
      failing('INVALID', `The ${what} ${JSON.stringify(truncate(found, 80))} is not the challenge given, ${JSON.stringify(truncate(expected, 80))}.`),
    );
  else report.set('challenge', pass(`The ${what} is the challenge given.`));
}

function checkDomain(report: Report, expected: string | undefined): void {
  const what = report.format === 'DATA_INTEGRITY' ? 'proof\'s "domain"' : 'JWT "aud"';
  const found = report.domain;
  const shown = found === null ? '' : found.map((d) => JSON.stringify(truncate(d, 80))).join(', ');
  if (expected === undefined) {
    report.set('domain', {
      status: 'SKIP',
      implies: null,
      detail: `No domain was given; the presentation was not checked against one.${found === null ? '' : ` Its ${what} is ${shown}.`}`,
    });
    report.limitations.push('No domain was given: that the presentation was meant for this verifier, not another, was not established.');
    return;
  }
  if (found === null)
    report.set('domain', failing('INVALID', `The presentation states no domain (no ${what}); expected ${JSON.stringify(truncate(expected, 80))}.`));
  else if (!found.includes(expected))
    report.set('domain', failing('INVALID', `The ${what} (${shown}) does not include the domain given, ${JSON.stringify(truncate(expected, 80))}.`));
  else report.set('domain', pass(`The ${what} includes the domain given.`));
}

/* ------------------------------------------------------------------ credentials */

/** The credential verifier's options for an entry: an SD-JWT VC's also carry the expected audience and nonce. */
interface EntryOptions {
  plain: VerifyCredentialOptions;
  sdJwt: VerifyCredentialOptions;
}

async function verifyEntry(
  entry: JsonValue,
  index: number,
  options: EntryOptions,
): Promise<{ form: EmbeddedForm; text: string | null; verification: CredentialVerification }> {
  const compact = (text: string) => verifyCredential(text, SD_JWT.test(text) ? options.sdJwt : options.plain);
  if (typeof entry === 'string') {
    const text = entry.trim();
    const form: EmbeddedForm = SD_JWT.test(text) ? 'SD_JWT' : 'JWT';
    return { form, text, verification: await compact(text) };
  }
  const object = entry as JsonObject;
  if (hasType(object, 'EnvelopedVerifiableCredential')) {
    if (object['@context'] === undefined)
      return {
        form: 'ENVELOPED',
        text: null,
        verification: refusedCredential('MALFORMED', `Credential ${index + 1}: ${NO_ENVELOPE_CONTEXT('EnvelopedVerifiableCredential')}`),
      };
    const envelope = readEnvelope(object);
    if (envelope.kind === 'malformed')
      return { form: 'ENVELOPED', text: null, verification: refusedCredential('MALFORMED', `Credential ${index + 1}: ${envelope.reason}`) };
    return { form: 'ENVELOPED', text: envelope.text, verification: await compact(envelope.text) };
  }
  return { form: 'OBJECT', text: null, verification: await verifyCredential(object, options.plain) };
}

/** The subjects' ids of a verified credential (its `claims` are its subjects). */
function subjectIds(verification: CredentialVerification): string[] {
  const claims = verification.claims;
  const subjects = Array.isArray(claims) ? claims : claims === null ? [] : [claims];
  const ids = subjects.map((s) => (typeof s['id'] === 'string' ? s['id'] : null)).filter((id): id is string => id !== null);
  if (ids.length === 0 && verification.subject !== null) ids.push(verification.subject);
  return ids;
}

function sameHolder(id: string, holder: string): boolean {
  if (id === holder) return true;
  const did = didOf(id);
  return did !== null && did === didOf(holder);
}

/** Whether the credential is about the holder: its subject, or (an SD-JWT VC) the key its KB-JWT was signed with. */
function holderBinding(report: Report, text: string | null, verification: CredentialVerification): { binding: HolderBinding; detail: string } {
  const holder = report.holder;
  if (holder === null) return { binding: 'UNKNOWN', detail: 'The presentation names no holder to compare the credential with.' };
  if (verification.format === 'SD_JWT_VC' && text !== null && verification.disclosures?.keyBinding?.status === 'PASS') {
    const parsed = parseSdJwt(text);
    const cnf = isSdJwtParseError(parsed) ? null : parsed.issuerPayload['cnf'];
    const jwk = isJsonObject(cnf) && isJsonObject(cnf['jwk']) ? cnf['jwk'] : null;
    const thumbprint = jwk === null ? null : jwkThumbprint(jwk as unknown as Parameters<typeof jwkThumbprint>[0]);
    if (thumbprint !== null && report.signingKey?.thumbprint === thumbprint)
      return { binding: 'BOUND', detail: 'Its KB-JWT is signed by the key that signed the presentation.' };
  }
  const ids = subjectIds(verification);
  if (ids.length === 0) {
    const structure = verification.checks.find((c) => c.id === 'structure')?.status;
    if (structure !== 'PASS' && structure !== 'WARN') return { binding: 'UNKNOWN', detail: 'The credential could not be read far enough to name its subject.' };
    return { binding: 'NO_SUBJECT_ID', detail: 'The credential names no subject id: it is a bearer credential, about no one in particular.' };
  }
  if (ids.some((id) => sameHolder(id, holder))) return { binding: 'BOUND', detail: `Its subject is the holder ${holder}.` };
  return {
    binding: 'NOT_BOUND',
    detail: `Its subject ${ids.length === 1 ? 'is' : 'ids are'} ${ids.map((id) => truncate(id, 80)).join(', ')}, not the holder ${holder}.`,
  };
}

type EntryResult = { form: EmbeddedForm; text: string | null; verification: CredentialVerification };

/** The credentials' verification under way, started beside the presentation's own proof. */
interface CredentialWork {
  results: Promise<EntryResult[]>;
  /** Starts no further credential (the presentation failed: they will not be reported). */
  cancel(): void;
}

/**
 * Verifies the presentation's credentials, CREDENTIAL_CONCURRENCY at a time, while the
 * presentation's own proof is checked: their issuers resolve beside the holder, and their
 * signatures are checked on libuv's thread pool while the main thread checks the presentation's.
 */
function startCredentials(entries: JsonValue[], options: VerifyPresentationOptions, source: KeySource): CredentialWork {
  const plain: VerifyCredentialOptions = {
    runtime: options.runtime,
    keySource: source,
    // Several signatures at once: checked on every core (same answers).
    signaturesOnPool: true,
    // Their own audience is not asked: the presentation's domain binds them (an SD-JWT VC's KB-JWT aside).
    inPresentation: true,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.trustedIssuers !== undefined ? { trustedIssuers: options.trustedIssuers } : {}),
  };
  // The audience and nonce are an SD-JWT VC's: its KB-JWT binds it to this verifier, as the
  // presentation's own challenge and domain bind the presentation (and so the credentials in it).
  const credentialOptions: EntryOptions = {
    plain,
    sdJwt: {
      ...plain,
      inPresentation: false,
      ...(options.expectedAudience !== undefined ? { expectedAudience: options.expectedAudience } : {}),
      ...(options.expectedNonce !== undefined ? { expectedNonce: options.expectedNonce } : {}),
    },
  };
  const results: EntryResult[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next++;
      results[index] = await verifyEntry(entries[index]!, index, credentialOptions);
    }
  };
  const all = Promise.all(Array.from({ length: Math.min(CREDENTIAL_CONCURRENCY, entries.length) }, worker)).then(() => results);
  // Awaited only when the presentation holds up; a failure then is the caller's (a problem, as for a credential).
  all.catch(() => undefined);
  return {
    results: all,
    cancel: () => {
      next = entries.length;
    },
  };
}

async function checkCredentials(report: Report, work: CredentialWork, options: VerifyPresentationOptions): Promise<void> {
  const results = await work.results;
  const entries = results;
  report.credentials = results.map((r, index) => {
    const bound = holderBinding(report, r.text, r.verification);
    return { index, form: r.form, holderBinding: bound.binding, holderBindingDetail: bound.detail, verification: r.verification };
  });

  const n = entries.length;
  if (n === 0) {
    report.set('credentials', pass('The presentation carries no credential.'));
    report.limitations.push('The presentation carries no credential: it shows only that the holder controls the key that signed it.');
  } else {
    const failed = report.credentials.filter((c) => c.verification.status !== 'VALID');
    if (failed.length === 0) report.set('credentials', pass(n === 1 ? 'The credential is valid.' : `All ${n} credentials are valid.`));
    else {
      const worst = STATUS_PRECEDENCE.find((s) => failed.some((c) => c.verification.status === s))!;
      const shown = failed
        .slice(0, 3)
        .map((c) => `credential ${c.index + 1} of ${n} is ${c.verification.status}: ${clause(c.verification.headline.replace(/^[^:]*: /, ''))}`);
      const more = failed.length > 3 ? `; ${failed.length - 3} more` : '';
      report.set('credentials', failing(worst, sentence(`${shown.join('; ')}${more}`)));
    }
  }

  if (n === 0) {
    report.set('holderBinding', { status: 'SKIP', implies: null, detail: 'The presentation carries no credential.' });
    return;
  }
  const unbound = report.credentials.filter((c) => c.holderBinding !== 'BOUND');
  if (unbound.length === 0) {
    report.set(
      'holderBinding',
      pass(n === 1 ? `The credential is about the holder ${report.holder}.` : `All ${n} credentials are about the holder ${report.holder}.`),
    );
    return;
  }
  const detail = sentence(
    unbound
      .slice(0, 3)
      .map((c) => `credential ${c.index + 1}: ${clause(c.holderBindingDetail)}`)
      .join('; ') + (unbound.length > 3 ? `; ${unbound.length - 3} more` : ''),
  );
  if (options.requireHolderBinding === true) report.set('holderBinding', failing('INVALID', detail));
  else {
    report.set('holderBinding', { status: 'WARN', implies: null, detail });
    report.limitations.push('A credential not about the holder was accepted as presented: holder binding was not required.');
  }
}

/* ------------------------------------------------------------------ the whole */

const HEADLINES: Readonly<Record<CredentialStatus, string>> = {
  VALID: 'The presentation is valid',
  INVALID: 'The presentation is invalid',
  EXPIRED: 'The presentation has expired',
  NOT_YET_VALID: 'The presentation is not valid yet',
  REVOKED: 'A credential of the presentation is revoked',
  SUSPENDED: 'A credential of the presentation is suspended',
  UNSUPPORTED: 'The presentation cannot be verified by svc',
  INDETERMINATE: 'Whether the presentation is valid could not be established',
  MALFORMED: 'The presentation is malformed',
};

function finish(report: Report, options: VerifyPresentationOptions): PresentationVerification {
  const status = report.status;
  let headline: string;
  if (status === 'VALID') {
    const bound = [options.challenge !== undefined ? 'the challenge' : null, options.domain !== undefined ? 'the domain' : null].filter(Boolean);
    const n = report.credentials.length;
    headline = `${HEADLINES.VALID}: its ${report.proof?.suite ?? ''} proof verifies with a key its holder ${report.holder ?? ''} authorises for authentication${
      bound.length > 0 ? `, bound to ${bound.join(' and ')} given` : ''
    }, and ${n === 0 ? 'it carries no credential' : n === 1 ? 'its credential is valid' : `its ${n} credentials are valid`}.`;
  } else {
    const deciding = report.deciding(status);
    headline = `${HEADLINES[status]}: ${deciding ? `${clause(deciding)}.` : 'see the checks.'}`;
  }
  const limitations = [
    'A valid presentation shows that the holder signed it and that its credentials verify; it does not show that their claims are true.',
    'svc never verifies real-world or legal identity.',
    ...report.limitations,
  ];
  const supplied = options.runtime.supplied;
  if (supplied) limitations.push(...suppliedLimitations(supplied.consulted()));
  return {
    status,
    headline,
    format: report.format,
    dataModel: report.dataModel,
    id: report.id,
    holder: report.holder,
    types: report.types,
    challenge: report.challenge,
    domain: report.domain,
    checks: report.checks(),
    proof: report.proof,
    holderResolution: report.signerResolution,
    credentials: report.credentials,
    limitations,
    valid: status === 'VALID',
    errors: report.errors(),
  };
}

/**
 * Verifies a presentation: an object, the raw JSON text of one, a compact JWT (vp+jwt or
 * VC-JWT 1.1), or an EnvelopedVerifiablePresentation. Never throws for the presentation's
 * content: every failure is a status with its reason.
 */
export async function verifyPresentation(input: unknown, options: VerifyPresentationOptions): Promise<PresentationVerification> {
  const report = new Report();
  const source = options.keySource ?? didKeySource(options.runtime, undefined, options.hooks);
  const read = readPresentationInput(input);
  if (read.kind === 'refused') {
    report.set('structure', failing(read.status, read.reason));
    return finish(report, options);
  }
  let work: CredentialWork | null = null;
  const start = (model: PresentationModel): void => {
    if (model.entries.length > 0) work = startCredentials(model.entries, options, source);
  };
  let model: PresentationModel | null;
  if (read.kind === 'json') {
    const vp = read.presentation;
    report.format = vp['proof'] === undefined ? 'UNKNOWN' : 'DATA_INTEGRITY';
    const unsecured = vp['proof'] === undefined ? [{ status: 'MALFORMED' as const, text: 'the presentation has no proof: it is not secured' }] : [];
    model = checkStructure(report, vp, unsecured, 'signed');
    if (model) {
      start(model);
      await checkDataIntegrity(report, vp, options, source);
    }
  } else {
    model = await checkJwt(report, read.token, options, source, start);
  }
  if (!model || report.stopped) {
    // A presentation that does not hold up reports none of its credentials.
    (work as CredentialWork | null)?.cancel();
    await (work as CredentialWork | null)?.results.catch(() => undefined);
    return finish(report, options);
  }
  if (report.holder === null && report.proof?.verificationMethod) {
    // No holder named: the DID whose key signed for authentication is the one who presented.
    report.holder = didOf(report.proof.verificationMethod);
    report.set('holder', {
      status: 'WARN',
      implies: null,
      detail: `The presentation names no holder; it was signed with ${report.proof.verificationMethod}, a key ${report.holder ?? 'its controller'} authorises for authentication, so that DID is taken as the holder.`,
    });
  }
  checkChallenge(report, options.challenge);
  checkDomain(report, options.domain);
  await checkCredentials(report, work ?? { results: Promise.resolve([]), cancel: () => undefined }, options);
  return finish(report, options);
}
