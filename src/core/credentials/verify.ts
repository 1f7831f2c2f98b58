/**
 * Credential verification (docs/credentials.md): one verifier for Data Integrity (eddsa-jcs-2022,
 * ecdsa-jcs-2019 on P-256), VC-JOSE (vc+jwt) and VC-JWT 1.1, fail-closed.
 *
 *   input → structure → proof + issuer (key found through the core) → validity → status → jwt.aud → kb.nonce
 *
 * Each check is reported with PASS/FAIL/WARN/SKIP/UNSUPPORTED/INDETERMINATE. A fatal failure
 * (a structure or proof that fails, is unsupported or cannot be checked; an issuer FAIL)
 * stops the checks after it: they are reported SKIP, "not run" — nothing is fetched for a
 * credential already known to be bad. The overall status is the most severe status any check
 * implies (rule 9); only VALID means accepted. A failed check is a result: this never throws
 * for anything inside the credential, only when the caller's signal is aborted or the service
 * itself cannot work (capacity, time limit).
 */
import { sha256Hex } from '../canonical.js';
import { checkTrustedIssuer, parseTrustedIssuers, type IssuerTrust } from '../policy/trusted-issuers.js';
import { suppliedLimitations } from '../supplied/resources.js';
import { isJsonObject, type JsonObject } from '../encoding/json.js';
import {
  checkProofSupport,
  JCS_CRYPTOSUITES,
  PROOF_CLOCK_SKEW_SECONDS,
  proofLabel,
  verifyJcsProof,
  verifyJcsProofOnPool,
  type JcsProofCheck,
} from '../proofs/data-integrity.js';
import { numericDate, parseDateTime } from '../proofs/datetime.js';
import { RDFC_LIMITATION, rdfcSuiteOf, verifyRdfcProof, RDFC_CRYPTOSUITES } from '../proofs/rdfc.js';
import {
  checkJwsSignature,
  curveOfAlgorithm,
  isJwsParseError,
  isRsaJwsAlgorithm,
  parseCompactJws,
  RSA_JWS_ALGORITHMS,
  type JwsAlgorithm,
  type ParsedJws,
  type RsaJwsAlgorithm,
} from '../proofs/jws.js';
import type { StageHooks } from '../resolve/trace.js';
import { rfc3339, type Runtime } from '../runtime.js';
import { clause, sentence } from '../text.js';
import { bindToIssuer, findKnownSigningKey, findSigningKey, ISSUER_ROLE, unusableKey, type Finding, type KeySearch, type SignerRole } from './binding.js';
import { CheckLedger, failing, pass, type LedgerSpec } from './checks.js';
import { readCredentialInput } from './input.js';
import { checkKeyBinding, isSdJwtParseError, KB_DEFAULT_MAX_AGE_SECONDS, parseSdJwt, resolveDisclosures, type KeyBinding } from './sd-jwt.js';
import { readJwtCredential, type JwtClaims } from './jwt.js';
import { didKeySource, didOf, type ControllerKey, type KeySource } from './keys.js';
import { readDataModel, type ModelReading } from './model.js';
import { checkCredentialStatus, withoutCredentialStatus } from './status.js';
import { checkTokenStatusList } from './token-status.js';
import {
  CHECK_IDS,
  STATUS_PRECEDENCE,
  type CheckId,
  type CredentialFormat,
  type CredentialStatus,
  type CredentialVerification,
  type DisclosureSummary,
  type IssuerResolutionSummary,
  type KeyBindingSummary,
  type ProofSummary,
  type StatusListEntry,
} from './types.js';

export interface VerifyCredentialOptions {
  runtime: Runtime;
  /** Where keys are found; default: DIDs resolved through the core with `runtime`. */
  keySource?: KeySource;
  /** The audience the caller identifies itself with: a JWT must name it in `aud`. */
  expectedAudience?: string;
  /**
   * The nonce the caller chose for this exchange: an SD-JWT VC's KB-JWT must carry it in `nonce`
   * (check kb.nonce), so a presentation captured elsewhere cannot be replayed. The other formats
   * carry no nonce: with it they are INDETERMINATE.
   */
  expectedNonce?: string;
  signal?: AbortSignal;
  /** Check `credentialStatus` entries (default true); false for status list credentials themselves. */
  checkStatus?: boolean;
  /**
   * Check Data Integrity signatures on libuv's thread pool (same answers): for a caller that
   * verifies many credentials at once — a presentation's — so they are checked on every core.
   */
  signaturesOnPool?: boolean;
  /**
   * The credential is carried by a presentation (presentations/verify.ts), whose challenge and
   * domain bind it to the verifier: without an expected audience, its own audience check says so
   * and states no limitation.
   */
  inPresentation?: boolean;
  /** Watch the slow stages (the issuer's resolution, status list fetches): the CLI's progress. */
  hooks?: StageHooks;
  /**
   * Whose credentials the caller accepts (DIDs and did:web/did:webvh domain forms, see
   * ../policy/trusted-issuers.ts): the result then carries `issuerTrust`, decided beside the
   * verification (status and valid unchanged). A bad entry is INVALID_OPTIONS, before any work.
   */
  trustedIssuers?: readonly string[];
}

/** JWS algorithms a credential may be signed with. */
const CREDENTIAL_ALGORITHMS: ReadonlySet<string> = new Set(['EdDSA', 'Ed25519', 'ES256', 'ES256K']);
/** What a Data Integrity refusal names: the suites svc verifies (a JWT is told about JWT algorithms). */
const DI_SUPPORTED = 'svc verifies eddsa-jcs-2022 and ecdsa-jcs-2019 (P-256) Data Integrity proofs';
/** The same with JSON-LD processing on (runtime.jsonld). */
const DI_SUPPORTED_JSONLD =
  'svc verifies eddsa-jcs-2022, ecdsa-jcs-2019 (P-256), eddsa-rdfc-2022, ecdsa-rdfc-2019 (P-256, P-384) and Ed25519Signature2020 proofs';
/** The limitation of a credential verified without an expected audience. */
const AUDIENCE_NOT_VERIFIED = 'The audience was not verified: no expected audience was given.';
/** Tolerance for clock differences when comparing validity dates, seconds. */
export const CLOCK_SKEW_SECONDS = PROOF_CLOCK_SKEW_SECONDS;

const LABELS: Readonly<Record<CheckId, string>> = {
  structure: 'Well-formed credential',
  issuer: 'Signing key belongs to the issuer',
  proof: 'Proof verifies',
  validity: 'Within its validity period',
  status: 'Not revoked or suspended',
  'jwt.aud': 'Audience',
  'kb.nonce': 'Key binding nonce',
};

const LEDGER: LedgerSpec<CheckId> = { ids: CHECK_IDS, labels: LABELS, fatal: ['structure', 'proof', 'issuer'], binding: 'issuer' };

/** The verification as it is built up. */
class Report extends CheckLedger<CheckId> {
  /** The proof and issuer checks, as checkKeyAndBinding records them. */
  readonly keyChecks: KeyChecks<CheckId> = { ledger: this, proof: 'proof', binding: 'issuer', role: ISSUER_ROLE };
  format: CredentialFormat = 'UNKNOWN';
  model: ModelReading | null = null;
  proof: ProofSummary | null = null;
  statusList: StatusListEntry[] = [];
  /** The issuer's resolution (the result's issuerResolution). */
  signerResolution: IssuerResolutionSummary | null = null;
  disclosures: DisclosureSummary | null = null;
  readonly limitations: string[] = [];

  constructor() {
    super(LEDGER);
  }
}

/* ------------------------------------------------------------------ structure */

function checkStructure(
  report: Report,
  credential: JsonObject | null,
  extra: Array<{ status: CredentialStatus; text: string }> = [],
  warnings: string[] = [],
): ModelReading | null {
  if (credential === null) {
    const first = extra[0];
    report.set('structure', failing(first?.status ?? 'MALFORMED', sentence(first?.text ?? 'the credential could not be read')));
    return null;
  }
  const model = readDataModel(credential);
  report.model = model;
  if (extra.length > 0 || model.problems.length > 0 || model.unsupported) {
    const problems: Array<{ status: CredentialStatus; text: string }> = [...extra, ...model.problems.map((text) => ({ status: 'MALFORMED' as const, text }))];
    if (model.unsupported) problems.push({ status: 'UNSUPPORTED', text: model.unsupported });
    const worst = STATUS_PRECEDENCE.find((s) => problems.some((p) => p.status === s));
    if (worst) {
      const texts = [...problems]
        .sort((a, b) => STATUS_PRECEDENCE.indexOf(a.status) - STATUS_PRECEDENCE.indexOf(b.status))
        .map((p) => p.text.replace(/\.$/, ''));
      report.set('structure', failing(worst, sentence(texts.join('; '))));
      return null;
    }
  }
  const what = `A VC ${model.dataModel === 'unknown' ? '' : `${model.dataModel} `}credential${model.types.length > 1 ? ` (${model.types.filter((t) => t !== 'VerifiableCredential').join(', ')})` : ''} issued by ${model.issuer ?? 'an unnamed issuer'}.`;
  if (credential['relatedResource'] !== undefined) {
    report.limitations.push('The related resources were not fetched: their digests were checked for shape, not against the resources.');
  }
  if (warnings.length > 0) report.set('structure', { status: 'WARN', implies: null, detail: `${what} ${warnings.join(' ')}` });
  else report.set('structure', pass(what));
  return model;
}

/* ------------------------------------------------------------------ proof + issuer */

/** Where checkKeyAndBinding records: the proof check and the check binding the key to its signer. */
export interface KeyChecks<Id extends string> {
  ledger: CheckLedger<Id> & { proof: ProofSummary | null; signerResolution: IssuerResolutionSummary | null };
  proof: Id;
  binding: Id;
  role: SignerRole;
}

/** What a key's verification finds: the proof check, with the digest signed when one was computed. */
type KeyOutcome = Finding & { signedDigest?: string | null };

/**
 * Finds the signing key (`reference` as written, under `signer`), verifies with each candidate
 * until one passes, and binds the key used to the signer (issuer or holder, by `role`). Records
 * the proof and binding checks; returns the key used, or null when none could be tried.
 */
export async function checkKeyAndBinding<Id extends string>(
  checks: KeyChecks<Id>,
  reference: string | null,
  curve: string | null,
  signer: string | null,
  source: KeySource,
  signal: AbortSignal | undefined,
  verify: (key: ControllerKey) => KeyOutcome | Promise<KeyOutcome>,
): Promise<ControllerKey | null> {
  const search = await findSigningKey(reference, signer, curve, source, signal, checks.role);
  if (!search.ok) return keyNotFound(checks, search);
  checks.ledger.signerResolution = search.resolution;
  let outcome: KeyOutcome | null = null;
  let used: ControllerKey | null = null;
  for (const key of search.keys) {
    const unusable = unusableKey(key, curve);
    outcome = unusable ?? (await verify(key));
    used = key;
    if (outcome.status === 'PASS') break;
  }
  return keyUsed(checks, search, signer, outcome, used);
}

/**
 * checkKeyAndBinding with a search already made (findKnownSigningKey) and a verification that
 * answers at once: the same checks recorded, without waiting for anything.
 */
function checkFoundKeyAndBinding<Id extends string>(
  checks: KeyChecks<Id>,
  search: KeySearch,
  curve: string | null,
  signer: string | null,
  verify: (key: ControllerKey) => KeyOutcome,
): ControllerKey | null {
  if (!search.ok) return keyNotFound(checks, search);
  checks.ledger.signerResolution = search.resolution;
  let outcome: KeyOutcome | null = null;
  let used: ControllerKey | null = null;
  for (const key of search.keys) {
    outcome = unusableKey(key, curve) ?? verify(key);
    used = key;
    if (outcome.status === 'PASS') break;
  }
  return keyUsed(checks, search, signer, outcome, used);
}

function keyNotFound<Id extends string>(checks: KeyChecks<Id>, search: KeySearch & { ok: false }): null {
  const { ledger } = checks;
  ledger.signerResolution = search.resolution;
  if (ledger.proof) ledger.proof.detail = search.finding.detail;
  ledger.set(checks.proof, search.finding);
  ledger.set(checks.binding, { status: 'INDETERMINATE', implies: 'INDETERMINATE', detail: 'Not established: the signing key could not be checked.' });
  if (search.finding.status === 'FAIL') ledger.set(checks.binding, { status: 'FAIL', implies: 'INVALID', detail: search.finding.detail });
  return null;
}

function keyUsed<Id extends string>(
  checks: KeyChecks<Id>,
  search: KeySearch & { ok: true },
  signer: string | null,
  found: KeyOutcome | null,
  used: ControllerKey | null,
): ControllerKey | null {
  const { ledger, role } = checks;
  if (!found || !used) return null;
  let outcome = found;
  if (ledger.proof) {
    ledger.proof.verificationMethod = used.id;
    ledger.proof.keyCurve = used.curve;
    if (outcome.signedDigest !== undefined) ledger.proof.signedDigest = outcome.signedDigest;
    ledger.proof.detail = outcome.detail;
  }
  if (search.keys.length > 1 && outcome.status !== 'PASS') {
    outcome = {
      ...outcome,
      detail: `None of the ${search.keys.length} candidate keys of ${search.controller} verifies the signature (last: ${outcome.detail.replace(/\.$/, '')}).`,
    };
  }
  ledger.set(checks.proof, outcome);
  ledger.set(checks.binding, bindToIssuer(used, search.controller, search.deactivated, signer, role));
  return used;
}

/** The proof check fails before any key is looked up. */
function refuse(report: Report, finding: Finding): void {
  report.proof!.detail = finding.detail;
  report.set('proof', finding);
}

/**
 * A Data Integrity proof: suite, purpose, key and signature, and the proof's own window
 * (checkProofWindow, at the Runtime clock with the 60 s skew of CLOCK_SKEW_SECONDS): a `created`
 * or `expires` that is not a dateTimeStamp is MALFORMED; an expired proof, or one created ahead
 * of now, is INVALID with check `proof` FAIL — not EXPIRED, which is the credential's validity.
 */
async function checkDataIntegrity(
  report: Report,
  credential: JsonObject,
  model: ModelReading,
  options: VerifyCredentialOptions,
  source: KeySource,
): Promise<void> {
  const raw = credential['proof'];
  const proofs = Array.isArray(raw) ? raw : [raw];
  const proof = proofs[0];
  report.proof = {
    format: 'DATA_INTEGRITY',
    suite: proofLabel(proof),
    verificationMethod: isJsonObject(proof) && typeof proof['verificationMethod'] === 'string' ? proof['verificationMethod'] : null,
    proofPurpose: isJsonObject(proof) && typeof proof['proofPurpose'] === 'string' ? proof['proofPurpose'] : null,
    created: isJsonObject(proof) && typeof proof['created'] === 'string' ? stamp(proof['created']) : null,
    keyCurve: null,
    signedDigest: null,
    detail: '',
  };
  if (proofs.length === 0) return refuse(report, failing('MALFORMED', 'The proof set is empty.'));
  if (proofs.length > 1)
    return refuse(report, failing('UNSUPPORTED', `The credential carries a set of ${proofs.length} proofs; svc verifies credentials with one proof.`));
  const jsonld = options.runtime.jsonld;
  const rdfcSuite = jsonld ? rdfcSuiteOf(proof) : null;
  const unsupported =
    rdfcSuite !== null
      ? null
      : jsonld
        ? checkProofSupport(proof, DI_SUPPORTED_JSONLD, [...JCS_CRYPTOSUITES, ...RDFC_CRYPTOSUITES])
        : checkProofSupport(proof, DI_SUPPORTED, JCS_CRYPTOSUITES);
  if (unsupported) return refuse(report, failing(unsupported.status, sentence(unsupported.reason)));
  const p = proof as JsonObject;
  const vm = p['verificationMethod'];
  if (typeof vm !== 'string') return refuse(report, failing('MALFORMED', 'The proof has no string "verificationMethod".'));
  if (p['proofPurpose'] !== 'assertionMethod') {
    return refuse(
      report,
      failing(
        p['proofPurpose'] === undefined ? 'MALFORMED' : 'INVALID',
        `The proof's purpose is ${JSON.stringify(p['proofPurpose'] ?? null)}; a credential is secured for assertionMethod.`,
      ),
    );
  }
  const nowMs = options.runtime.clock.now().getTime();
  if (jsonld && rdfcSuite !== null) {
    // The limitation is stated only when a proof was canonicalised and its signature checked
    // (a digest signed), not when no key was found or the proof was refused before.
    let canonicalised = false;
    await checkKeyAndBinding(report.keyChecks, vm, null, model.issuer, source, options.signal, async (key) => {
      const { result, signedDigest } = await verifyRdfcProof(credential, p, key.publicJwk!, nowMs, jsonld);
      if (signedDigest !== null) canonicalised = true;
      if (result.status === 'VALID')
        return {
          ...pass(`The ${rdfcSuite} proof verifies with ${key.id}, over the credential's RDFC-1.0 canonical form (${jsonld.description}).`),
          signedDigest,
        };
      return { ...failing(result.status, sentence(result.reason)), signedDigest };
    });
    if (canonicalised) report.limitations.push(RDFC_LIMITATION);
    return;
  }
  const suite = String(p['cryptosuite']);
  const judge = ({ result, signedDigest }: JcsProofCheck, key: ControllerKey): Finding & { signedDigest: string | null } => {
    if (result.status === 'VALID') return { ...pass(`The ${suite} proof verifies with ${key.id}.`), signedDigest };
    return { ...failing(result.status, sentence(result.reason)), signedDigest };
  };
  await checkKeyAndBinding(report.keyChecks, vm, null, model.issuer, source, options.signal, (key) =>
    options.signaturesOnPool === true
      ? verifyJcsProofOnPool(credential, p, key.publicJwk!, nowMs).then((check) => judge(check, key))
      : judge(verifyJcsProof(credential, p, key.publicJwk!, nowMs), key),
  );
}

export function checkJwtSignature(parsed: ParsedJws<JwsAlgorithm | RsaJwsAlgorithm>) {
  return (key: ControllerKey): Finding & { signedDigest: string } => {
    const signedDigest = sha256Hex(parsed.signingInput);
    const check = checkJwsSignature(parsed, key.publicJwk!);
    if (check.valid) return { status: 'PASS', implies: null, detail: `The ${parsed.alg} signature verifies with ${key.id}.`, signedDigest };
    return { ...failing('INVALID', sentence(check.reason)), signedDigest };
  };
}

/* ------------------------------------------------------------------ validity, audience */

export function stamp(text: string): string | null {
  const date = parseDateTime(text);
  return date ? rfc3339(date) : null;
}

/** `list, item` (the constraints a validity finding names, comma-separated). */
function listed(list: string, item: string): string {
  return list === '' ? item : `${list}, ${item}`;
}

function checkValidity(report: Report, model: ModelReading, claims: JwtClaims | null, now: Date): void {
  const skew = CLOCK_SKEW_SECONDS * 1000;
  const nowMs = now.getTime();
  const legacy = model.dataModel === '1.1';
  // The constraints, in order: the credential's start and end, then the JWT's nbf and exp;
  // each named `label stamp`, in the lists of what is stated, expired and not yet valid.
  let stated = '';
  let expired = '';
  let early = '';
  for (let i = 0; i < 4; i++) {
    const date = i === 0 ? model.validFrom : i === 1 ? model.validUntil : i === 2 ? (claims?.nbf ?? null) : (claims?.exp ?? null);
    if (!date) continue;
    const label = i === 0 ? (legacy ? 'issuanceDate' : 'validFrom') : i === 1 ? (legacy ? 'expirationDate' : 'validUntil') : i === 2 ? 'JWT nbf' : 'JWT exp';
    const named = `${label} ${rfc3339(date)}`;
    stated = listed(stated, named);
    const until = i % 2 === 1;
    if (until && date.getTime() + skew <= nowMs) expired = listed(expired, named);
    if (!until && date.getTime() - skew > nowMs) early = listed(early, named);
  }
  const at = rfc3339(now);
  if (expired !== '') {
    report.set('validity', failing('EXPIRED', `Expired: ${expired} is before ${at}.`));
  } else if (early !== '') {
    report.set('validity', failing('NOT_YET_VALID', `Not yet valid: ${early} is after ${at}.`));
  } else if (stated === '') {
    report.set('validity', pass(`The credential states no validity period; nothing limits it at ${at}.`));
  } else {
    report.set('validity', pass(`Valid at ${at} (${stated}).`));
  }
}

function checkAudience(report: Report, claims: JwtClaims | null, expected: string | undefined, inPresentation: boolean): void {
  if (expected === undefined && inPresentation) {
    report.set('jwt.aud', {
      status: 'SKIP',
      implies: null,
      detail: "Not asked: the presentation carrying the credential is bound to its verifier by the presentation's own domain.",
    });
    return;
  }
  if (expected === undefined) {
    const present = claims?.aud ? ` It names ${claims.aud.join(', ')}.` : '';
    report.set('jwt.aud', { status: 'SKIP', implies: null, detail: `No expected audience was given; the audience was not verified.${present}` });
    report.limitations.push(AUDIENCE_NOT_VERIFIED);
    return;
  }
  if (claims === null) {
    report.set('jwt.aud', failing('INDETERMINATE', `A Data Integrity credential carries no audience; that it is meant for ${expected} cannot be established.`));
    return;
  }
  if (claims.aud === null) report.set('jwt.aud', failing('INVALID', `The JWT has no "aud" claim; expected ${expected}.`));
  else if (!claims.aud.includes(expected))
    report.set('jwt.aud', failing('INVALID', `The JWT audience (${claims.aud.join(', ')}) does not include ${expected}.`));
  else report.set('jwt.aud', pass(`The JWT audience includes ${expected}.`));
}

/** How the formats without a key binding are named in a sentence. */
const FORMAT_NAMES: Readonly<Record<CredentialFormat, string>> = {
  DATA_INTEGRITY: 'Data Integrity',
  VC_JOSE_COSE: 'vc+jwt',
  VC_JWT_1_1: 'VC-JWT 1.1',
  SD_JWT_VC: 'SD-JWT VC',
  UNKNOWN: 'unsecured',
};

/** A nonce or other value chosen by someone else, quoted and bounded for a sentence. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/**
 * Check kb.nonce for the formats without a key binding (Data Integrity, vc+jwt, VC-JWT 1.1): an
 * issuer signed them and no holder presented them, so no nonce ties them to an exchange. Asked
 * for one, that cannot be established (as an audience on a Data Integrity credential).
 */
function checkNonceNotCarried(report: Report, expected: string | undefined): void {
  const name = FORMAT_NAMES[report.format];
  if (expected === undefined) {
    report.set('kb.nonce', { status: 'SKIP', implies: null, detail: `No expected nonce was given; a ${name} credential carries no key binding nonce.` });
    return;
  }
  report.set(
    'kb.nonce',
    failing(
      'INDETERMINATE',
      `A ${name} credential carries no nonce (only the KB-JWT of an SD-JWT VC does); that it was presented for the nonce ${quoted(expected)} cannot be established.`,
    ),
  );
}

/* ------------------------------------------------------------------ the whole */

const HEADLINES: Readonly<Record<CredentialStatus, string>> = {
  VALID: 'The credential is valid',
  INVALID: 'The credential is invalid',
  EXPIRED: 'The credential has expired',
  NOT_YET_VALID: 'The credential is not valid yet',
  REVOKED: 'The credential is revoked',
  SUSPENDED: 'The credential is suspended',
  UNSUPPORTED: 'The credential cannot be verified by svc',
  INDETERMINATE: 'Whether the credential is valid could not be established',
  MALFORMED: 'The credential is malformed',
};

/** The limitations every verification states first. */
const CLAIMS_NOT_SHOWN_TRUE = 'A valid credential shows who signed these claims and that they were not altered; it does not show that the claims are true.';
const IDENTITY_NOT_VERIFIED = 'svc never verifies real-world or legal identity.';

function finish(report: Report): CredentialVerification {
  const status = report.status;
  const model = report.model;
  const deciding = status === 'VALID' ? null : report.deciding(status);
  let headline: string;
  if (status === 'VALID') {
    headline = `${HEADLINES.VALID}: its ${report.proof?.suite ?? ''} proof verifies with a key its issuer ${model?.issuer ?? ''} authorises for assertionMethod, within its validity period${report.statusList.length > 0 ? ', and its status is active' : ''}.`;
  } else {
    headline = `${HEADLINES[status]}: ${deciding ? `${clause(deciding)}.` : 'see the checks.'}`;
  }
  const limitations = [CLAIMS_NOT_SHOWN_TRUE, IDENTITY_NOT_VERIFIED];
  for (const limitation of report.limitations) limitations.push(limitation);
  if (report.statusList.length === 0 && status === 'VALID')
    limitations.push('The credential declares no status list; whether its issuer revoked it cannot be checked.');
  if (report.statusList.length > 0) limitations.push('Status lists were read at verification time; a later revocation is not reflected in this result.');
  const result: CredentialVerification = {
    status,
    headline,
    format: report.format,
    dataModel: model?.dataModel ?? 'unknown',
    issuer: model?.issuer ?? null,
    subject: model?.subject ?? null,
    types: model?.types ?? [],
    validFrom: model?.validFrom ? rfc3339(model.validFrom) : null,
    validUntil: model?.validUntil ? rfc3339(model.validUntil) : null,
    claims: model?.claims ?? null,
    checks: report.checks(),
    proof: report.proof,
    statusList: report.statusList,
    issuerResolution: report.signerResolution,
    limitations,
    valid: status === 'VALID',
    errors: report.errors(),
  };
  // svc's addition for SD-JWT VC only: the other formats keep exactly their documented members.
  if (report.format === 'SD_JWT_VC') result.disclosures = report.disclosures;
  return result;
}

/** Sets the status check; a promise only when a status list must be fetched (no await otherwise). */
function checkStatusEntries(
  report: Report,
  credential: JsonObject,
  model: ModelReading,
  options: VerifyCredentialOptions,
  source: KeySource,
): Promise<void> | undefined {
  if (options.checkStatus === false) {
    report.set('status', { status: 'SKIP', implies: null, detail: 'Not checked: this is verified as a status list credential.' });
    return;
  }
  const none = withoutCredentialStatus(credential);
  if (none) {
    report.statusList = none.entries;
    report.set('status', { status: none.status, implies: none.implies, detail: none.detail });
    return;
  }
  return checkStatusLists(report, credential, model, options, source);
}

async function checkStatusLists(
  report: Report,
  credential: JsonObject,
  model: ModelReading,
  options: VerifyCredentialOptions,
  source: KeySource,
): Promise<void> {
  const result = await checkCredentialStatus(credential, model.issuer, {
    runtime: options.runtime,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    verifyList: (list, signal) =>
      verifyCredential(list, {
        ...options,
        keySource: source,
        checkStatus: false,
        expectedAudience: undefined,
        expectedNonce: undefined,
        ...(signal ? { signal } : {}),
      }),
  });
  report.statusList = result.entries;
  report.set('status', { status: result.status, implies: result.implies, detail: result.detail });
}

/** The result for a credential refused before it could be read (e.g. a presentation's envelope that holds none). */
export function refusedCredential(status: 'MALFORMED' | 'UNSUPPORTED', reason: string): CredentialVerification {
  const report = new Report();
  report.set('structure', failing(status, reason));
  return finish(report);
}

/**
 * Verifies a credential: an object, the raw JSON text of one, or a compact JWT. Never throws for
 * the credential's content: every failure is a status with its reason.
 */
export async function verifyCredential(input: unknown, options: VerifyCredentialOptions): Promise<CredentialVerification> {
  // A status list credential's own verification (checkStatus false) is not judged for trust.
  const trusted = options.checkStatus === false ? undefined : options.trustedIssuers;
  if (trusted !== undefined) parseTrustedIssuers(trusted);
  const one = verifyOne(input, options);
  const result = one instanceof Promise ? await one : one;
  // Verifying from files: the limitations name each resource supplied or withheld (a status
  // list's own verification, checkStatus false, leaves that to the credential's).
  const supplied = options.runtime.supplied;
  if (supplied && options.checkStatus !== false) result.limitations.push(...suppliedLimitations(supplied.consulted()));
  if (trusted !== undefined) result.issuerTrust = issuerTrustOf(result, trusted);
  // A status list's own verification is part of its credential's, not one more counted.
  if (options.checkStatus !== false) options.runtime.telemetry?.record({ type: 'credential', format: result.format, status: result.status });
  return result;
}

/** The trust decision beside a verification: about the issuer as stated, which only a VALID credential establishes. */
function issuerTrustOf(result: CredentialVerification, trusted: readonly string[]): IssuerTrust {
  const trust = checkTrustedIssuer(result.issuer, trusted);
  if (trust.status !== 'PASS' || result.status === 'VALID') return trust;
  return { ...trust, detail: `${trust.detail} That is the issuer the credential states: it is ${result.status}, so who issued it is not established.` };
}

/** The algorithms a JWT credential is parsed with: without and with JSON-LD processing (RS256, PS256). */
const JWT_ACCEPTED: readonly string[] = [...CREDENTIAL_ALGORITHMS];
const JWT_ACCEPTED_RSA: readonly string[] = [...CREDENTIAL_ALGORITHMS, ...RSA_JWS_ALGORITHMS];

/** The verification, answered at once when nothing must be waited for (no lookup, no status list). */
function verifyOne(input: unknown, options: VerifyCredentialOptions): CredentialVerification | Promise<CredentialVerification> {
  const report = new Report();
  const source = options.keySource ?? didKeySource(options.runtime, undefined, options.hooks);
  const now = options.runtime.clock.now();
  const read = readCredentialInput(input);
  if (read.kind === 'refused') {
    report.format = read.format;
    report.set('structure', failing(read.status, read.reason));
    return finish(report);
  }
  if (read.kind === 'sd-jwt') return verifySdJwtCredential(report, read.text, options, source, now).then(() => finish(report));

  if (read.kind === 'json') {
    const credential = read.credential;
    // Only a proof makes it Data Integrity: an object without one is secured by no format.
    report.format = credential['proof'] === undefined ? 'UNKNOWN' : 'DATA_INTEGRITY';
    const missingProof = credential['proof'] === undefined ? [{ status: 'MALFORMED' as const, text: 'the credential has no proof: it is not secured' }] : [];
    const model = checkStructure(report, credential, missingProof);
    if (!model) return finish(report);
    return checkDataIntegrity(report, credential, model, options, source).then(() => afterProof(report, credential, null, now, options, source));
  }
  const jwt = checkJwtProof(report, read.token, options, source);
  if (jwt === null) return finish(report);
  const { credential, claims, pending } = jwt;
  if (pending) return pending.then(() => afterProof(report, credential, claims, now, options, source));
  return afterProof(report, credential, claims, now, options, source);
}

/**
 * A compact JWT credential up to its proof and issuer checks. Null when the verification is
 * over (the report says why); otherwise the credential and claims read, and `pending` when the
 * issuer's keys are being looked up.
 */
function checkJwtProof(
  report: Report,
  token: string,
  options: VerifyCredentialOptions,
  source: KeySource,
): { credential: JsonObject; claims: JwtClaims; pending: Promise<unknown> | undefined } | null {
  // With JSON-LD processing on, RS256 and PS256 are verified too (the credentials as issued today).
  const rsa = options.runtime.jsonld !== undefined;
  const accepted = rsa ? JWT_ACCEPTED_RSA : JWT_ACCEPTED;
  const parsed = parseCompactJws(token, { compactShape: true, accepted, rsa }); // readCredentialInput matched COMPACT_JWS
  const header = parsed.header;
  const payload = isJwsParseError(parsed) ? parsed.payload : parsed.payload instanceof Uint8Array ? null : parsed.payload;
  if (header === null || payload === null) {
    report.format = 'UNKNOWN';
    const reason = isJwsParseError(parsed) ? parsed.error : 'the JWT payload is not a JSON object';
    report.set('structure', failing(isJwsParseError(parsed) ? parsed.kind : 'MALFORMED', sentence(`the JWT is malformed: ${reason}`)));
    return null;
  }
  const jwt = readJwtCredential(header, payload);
  report.format = jwt.format;
  const claims = jwt.claims;
  const alg = typeof header['alg'] === 'string' ? header['alg'] : null;
  // A JWT that is no credential has no credential proof to summarise.
  const proof: ProofSummary | null =
    jwt.format === 'UNKNOWN'
      ? null
      : {
          format: jwt.format,
          suite: alg,
          verificationMethod: typeof header['kid'] === 'string' ? header['kid'] : null,
          proofPurpose: 'assertionMethod',
          created: claims.iat ? rfc3339(claims.iat) : null,
          keyCurve: null,
          signedDigest: null,
          detail: '',
        };
  report.proof = proof;
  const problems = jwt.problems;
  if (isJwsParseError(parsed) && parsed.kind === 'MALFORMED') problems.unshift({ status: 'MALFORMED', text: `the JWT is malformed: ${parsed.error}` });
  const model = checkStructure(report, jwt.credential, problems, jwt.warnings);
  if (!model) return null;
  const credential = jwt.credential!;
  const kid = header['kid'];
  const refusal = isJwsParseError(parsed)
    ? parsed.error
    : CREDENTIAL_ALGORITHMS.has(parsed.alg) || (rsa && isRsaJwsAlgorithm(parsed.alg))
      ? null
      : `the algorithm ${parsed.alg} is not supported for credentials`;
  if (refusal !== null || isJwsParseError(parsed)) {
    // The formats the token does not claim are not offered: a JWT is told about JWT algorithms.
    const reason = refusal ?? 'the JWT cannot be verified';
    const detail = sentence(
      reason.includes('svc verifies')
        ? reason
        : `${reason}; svc verifies ${FORMAT_NAMES[jwt.format]} credentials signed with ${rsa ? 'EdDSA, ES256, ES256K, RS256 or PS256' : 'EdDSA, ES256 or ES256K'}`,
    );
    if (proof) proof.detail = detail;
    report.set('proof', failing('UNSUPPORTED', detail));
    return null;
  }
  if (kid !== undefined && typeof kid !== 'string') {
    report.set('proof', failing('MALFORMED', 'The JWT header "kid" is not a string.'));
    return null;
  }
  const issuer = model.issuer;
  const reference = typeof kid === 'string' ? kid : null;
  const curve = curveOfAlgorithm(parsed.alg);
  // A cached issuer's keys are at hand: the key is found and the signature checked without waiting.
  const known = findKnownSigningKey(reference, issuer, curve, source, ISSUER_ROLE);
  if (known !== undefined) {
    checkFoundKeyAndBinding(report.keyChecks, known, curve, issuer, checkJwtSignature(parsed));
    return { credential, claims, pending: undefined };
  }
  const pending = checkKeyAndBinding(report.keyChecks, reference, curve, issuer, source, options.signal, checkJwtSignature(parsed));
  return { credential, claims, pending };
}

/** The checks after the proof: validity, status (waited for only when a list is fetched), audience, nonce. */
function afterProof(
  report: Report,
  credential: JsonObject,
  claims: JwtClaims | null,
  now: Date,
  options: VerifyCredentialOptions,
  source: KeySource,
): CredentialVerification | Promise<CredentialVerification> {
  if (!report.stopped) checkValidity(report, report.model!, claims, now);
  if (!report.stopped) {
    const lists = checkStatusEntries(report, credential, report.model!, options, source);
    if (lists) return lists.then(() => lastChecks(report, claims, options));
  }
  return lastChecks(report, claims, options);
}

function lastChecks(report: Report, claims: JwtClaims | null, options: VerifyCredentialOptions): CredentialVerification {
  if (!report.stopped) checkAudience(report, claims, options.expectedAudience, options.inPresentation === true);
  if (!report.stopped) checkNonceNotCarried(report, options.expectedNonce);
  return finish(report);
}

/* ------------------------------------------------------------------ SD-JWT VC */

/** Registered JWT and SD-JWT VC claims: reported in their own members, not among `claims`. */
const SD_JWT_REGISTERED: ReadonlySet<string> = new Set(['iss', 'iat', 'nbf', 'exp', 'sub', 'vct', 'cnf', 'status', '_sd_alg']);

function keyBindingSummary(binding: KeyBinding): KeyBindingSummary | null {
  if (binding.status === 'ABSENT') return null;
  if (binding.status === 'FAIL')
    return { status: 'FAIL', audience: null, nonce: null, issuedAt: null, detail: sentence(`the KB-JWT does not verify: ${binding.problem.text}`) };
  return {
    status: 'PASS',
    audience: binding.audience.value,
    nonce: binding.nonce,
    issuedAt: rfc3339(binding.issuedAt),
    detail: `The KB-JWT is signed by the holder key in "cnf", covers this presentation and was issued at ${rfc3339(binding.issuedAt)}.`,
  };
}

/**
 * An SD-JWT VC presentation (RFC 9901 through sd-jwt.ts): the same checks and
 * precedence as the other formats. structure: the compact form, every JSON part strict, the
 * registered claims' shapes, `_sd` shapes; proof: the disclosures against the signed digests,
 * the issuer JWT's signature by a key its DID authorises for assertionMethod, then the KB-JWT;
 * validity: `exp`/`nbf`; status: the Token Status List through token-status.ts (fail closed);
 * jwt.aud: the KB-JWT `aud` against the expected audience; kb.nonce: the KB-JWT `nonce` against
 * the expected nonce.
 */
async function verifySdJwtCredential(report: Report, text: string, options: VerifyCredentialOptions, source: KeySource, now: Date): Promise<void> {
  report.format = 'SD_JWT_VC';
  const parsed = parseSdJwt(text);
  if (isSdJwtParseError(parsed)) {
    const what = parsed.kind === 'UNSUPPORTED' ? 'cannot be verified' : 'is malformed';
    report.set('structure', failing(parsed.kind, sentence(`the SD-JWT ${what}: ${parsed.error}`)));
    return;
  }
  const plain = parsed.issuerPayload;
  const header = parsed.issuerJws.header;
  const problems: string[] = [];
  const stringClaim = (name: string, required: boolean): string | null => {
    const value = plain[name];
    if (value === undefined) {
      if (required) problems.push(`the SD-JWT VC has no "${name}" claim`);
      return null;
    }
    if (typeof value !== 'string') problems.push(`the SD-JWT "${name}" claim is not a string`);
    return typeof value === 'string' ? value : null;
  };
  const dateClaim = (name: 'exp' | 'nbf' | 'iat', from = plain): Date | null => {
    const value = from[name];
    if (value === undefined) return null;
    const date = numericDate(value);
    if (date === null) problems.push(`the SD-JWT "${name}" claim is not a NumericDate (seconds since 1970)`);
    return date;
  };
  const iss = stringClaim('iss', false);
  const vct = stringClaim('vct', true);
  const exp = dateClaim('exp');
  const nbf = dateClaim('nbf');
  const status = plain['status'];
  if (status !== undefined && !isJsonObject(status)) problems.push('the SD-JWT "status" claim is not a JSON object');
  const resolution = resolveDisclosures(parsed);
  if ('status' in resolution && resolution.status === 'MALFORMED') problems.push(resolution.text);
  // sub and iat may be disclosed selectively: read from the disclosed payload.
  const resolved = 'status' in resolution ? null : resolution;
  const disclosed = resolved?.payload ?? null;
  const iat = disclosed ? dateClaim('iat', disclosed) : null;
  const sub = disclosed?.['sub'];
  if (sub !== undefined && typeof sub !== 'string') problems.push('the SD-JWT "sub" claim is not a string');
  if (problems.length > 0) {
    report.set('structure', failing('MALFORMED', sentence(problems.join('; '))));
    return;
  }
  // fromEntries defines own members: a disclosed "__proto__" claim stays a claim, never a prototype.
  const claims: Record<string, unknown> = Object.fromEntries(Object.entries(disclosed ?? {}).filter(([name]) => !SD_JWT_REGISTERED.has(name)));
  report.model = {
    dataModel: 'unknown',
    issuer: iss,
    subject: typeof sub === 'string' ? sub : null,
    types: vct === null ? [] : [vct],
    validFrom: nbf,
    validUntil: exp,
    claims: disclosed ? claims : null,
    problems: [],
    unsupported: null,
  };
  const alg = parsed.issuerJws.alg;
  const kid = header['kid'];
  report.proof = {
    format: 'SD_JWT_VC',
    suite: alg,
    verificationMethod: typeof kid === 'string' ? kid : null,
    proofPurpose: 'assertionMethod',
    created: iat ? rfc3339(iat) : null,
    keyCurve: null,
    signedDigest: sha256Hex(parsed.issuerJws.signingInput),
    detail: '',
  };
  const counted = resolved
    ? ` It discloses ${resolved.disclosed.length} claim${resolved.disclosed.length === 1 ? '' : 's'}; ${resolved.undisclosedDigests} digest${resolved.undisclosedDigests === 1 ? ' stays' : 's stay'} undisclosed (claims not shown, or decoys).`
    : '';
  report.set('structure', pass(`An SD-JWT VC (typ ${parsed.typ}${vct ? `, vct ${vct}` : ''}) issued by ${iss ?? 'an unnamed issuer'}.${counted}`));
  if (resolved === null) {
    const problem = resolution as { status: CredentialStatus; text: string };
    return refuse(report, failing(problem.status, sentence(`the disclosures do not match the signed digests: ${problem.text}`)));
  }
  report.disclosures = { disclosed: resolved.disclosed, undisclosed: resolved.undisclosedDigests, keyBinding: null };
  if (kid !== undefined && typeof kid !== 'string') return refuse(report, failing('MALFORMED', 'The SD-JWT header "kid" is not a string.'));
  if (iss !== null && didOf(iss) === null) {
    const detail = `The issuer ${iss} is not a DID; svc finds SD-JWT VC issuer keys through DIDs only (JWT VC issuer metadata is not fetched), so the signature cannot be checked.`;
    report.proof.detail = detail;
    report.set('proof', failing('INDETERMINATE', detail));
    report.set('issuer', failing('INDETERMINATE', 'Not established: the signing key could not be checked.'));
    return;
  }
  await checkKeyAndBinding(
    report.keyChecks,
    typeof kid === 'string' ? kid : null,
    curveOfAlgorithm(parsed.issuerJws.alg),
    iss,
    source,
    options.signal,
    checkJwtSignature(parsed.issuerJws),
  );
  if (report.stopped) return;

  const binding = checkKeyBinding(parsed, { now });
  report.disclosures.keyBinding = keyBindingSummary(binding);
  if (binding.status === 'FAIL') {
    const finding = failing(binding.problem.status, sentence(`the KB-JWT does not verify: ${binding.problem.text}`));
    report.proof.detail = finding.detail;
    report.set('proof', finding);
    return;
  }
  if (binding.status === 'PASS') {
    report.proof.detail = `${report.proof.detail} ${report.disclosures.keyBinding!.detail}`;
    report.set('proof', pass(report.proof.detail));
  } else if (binding.limitation !== null) {
    report.limitations.push(sentence(binding.limitation.replace(/^holder binding not shown/, 'Holder binding was not shown')));
  }

  checkValidity(report, { ...report.model, validFrom: null, validUntil: null }, { iss, exp, nbf, iat, aud: null }, now);
  if (status === undefined) {
    report.set('status', { status: 'SKIP', implies: null, detail: 'The credential has no "status" claim.' });
  } else if (options.checkStatus === false) {
    report.set('status', { status: 'SKIP', implies: null, detail: 'Not checked: this is verified as a status list credential.' });
  } else if (isJsonObject(status) && status['status_list'] !== undefined) {
    const result = await checkTokenStatusList(status['status_list'], {
      runtime: options.runtime,
      keySource: source,
      issuer: iss,
      now,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
    });
    report.statusList = result.entries;
    report.set('status', { status: result.status, implies: result.implies, detail: result.detail });
  } else {
    report.set(
      'status',
      failing(
        'INDETERMINATE',
        `The "status" claim names no mechanism svc checks (${
          Object.keys(status as JsonObject)
            .slice(0, 3)
            .join(', ') || 'empty'
        }); whether the credential is revoked is unknown.`,
      ),
    );
  }
  checkSdJwtAudience(report, binding, options.expectedAudience);
  checkSdJwtNonce(report, binding, options.expectedNonce);
}

/** Rule 3 for an SD-JWT VC: the audience is the KB-JWT's `aud` (the issuer JWT is not addressed to a verifier). */
function checkSdJwtAudience(report: Report, binding: KeyBinding, expected: string | undefined): void {
  const aud = binding.status === 'PASS' ? binding.audience.value : null;
  if (expected === undefined) {
    report.set('jwt.aud', {
      status: 'SKIP',
      implies: null,
      detail: `No expected audience was given; the audience was not verified.${aud === null ? '' : ` The KB-JWT names ${aud}.`}`,
    });
    report.limitations.push(AUDIENCE_NOT_VERIFIED);
    return;
  }
  if (aud === null) report.set('jwt.aud', failing('INVALID', `The presentation has no KB-JWT, so no audience; expected ${expected}.`));
  else if (aud !== expected) report.set('jwt.aud', failing('INVALID', `The KB-JWT audience (${aud}) is not ${expected}.`));
  else report.set('jwt.aud', pass(`The KB-JWT audience is ${expected}.`));
}

/**
 * Replay for an SD-JWT VC: the KB-JWT `nonce` against the one the caller chose for this exchange.
 * Without an expected nonce, a KB-JWT captured in another exchange verifies again for as long as
 * its `iat` is fresh (KB_DEFAULT_MAX_AGE_SECONDS): the limitations say so.
 */
function checkSdJwtNonce(report: Report, binding: KeyBinding, expected: string | undefined): void {
  const nonce = binding.status === 'PASS' ? binding.nonce : null;
  if (expected === undefined) {
    if (nonce === null) {
      report.set('kb.nonce', { status: 'SKIP', implies: null, detail: 'No expected nonce was given; the presentation has no KB-JWT, so no nonce.' });
      report.limitations.push('Replay was not excluded: no expected nonce was given, and the presentation has no KB-JWT to carry one.');
    } else {
      report.set('kb.nonce', { status: 'SKIP', implies: null, detail: `No expected nonce was given; the KB-JWT nonce ${quoted(nonce)} was not compared.` });
      report.limitations.push(
        `Replay was not excluded: no expected nonce was given, so this presentation replayed within its KB-JWT's freshness window ("iat" at most ${KB_DEFAULT_MAX_AGE_SECONDS} s old) verifies as well.`,
      );
    }
    return;
  }
  if (nonce === null) report.set('kb.nonce', failing('INVALID', `The presentation has no KB-JWT, so no nonce; expected ${quoted(expected)}.`));
  else if (nonce !== expected)
    report.set(
      'kb.nonce',
      failing('INVALID', `The KB-JWT nonce ${quoted(nonce)} is not the expected ${quoted(expected)}: the presentation was made for another exchange.`),
    );
  else report.set('kb.nonce', pass(`The KB-JWT nonce is the expected ${quoted(expected)}.`));
}
