/**
 * DIF Well Known DID Configuration (https://identity.foundation/.well-known/resources/did-configuration/)
 * verified as a pure function: the caller fetched `/.well-known/did-configuration.json` from the
 * origin; this decides what the bytes show about the link between that origin and the DID.
 *
 * Each entry of `linked_dids` is a DomainLinkageCredential, either a JWT (string) or a credential
 * object with an embedded proof. An entry is VERIFIED when it was issued by the DID about the
 * DID, names exactly the fetched origin, is within its validity period and its proof verifies
 * with a key of the DID document authorised for `assertionMethod`. Otherwise every problem
 * found is listed in the entry's reason, and its status is the first that applies of
 * MALFORMED, UNSUPPORTED_PROOF, INVALID_PROOF, NOT_LINKED.
 *
 * Never throws for bad input: a failed check is a result. Only a caller's mistake (an origin
 * that is not an http(s) origin, a document without an id) throws.
 */
import { base64urlDecode } from '../encoding/base64url.js';
import { isJsonObject, parseJsonBytes } from '../encoding/json.js';
import { parseDidUrl } from '../did/syntax.js';
import { checkVerificationMethod } from '../keys/inspect.js';
import type { PublicJwk } from '../keys/types.js';
import { checkProofSupport, proofLabel, verifyDataIntegrity, type ProofKeyLookup } from '../proofs/data-integrity.js';
import { numericDate, parseDateTime } from '../proofs/datetime.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws } from '../proofs/jws.js';
import { readDocument, type DeclaredMethod } from '../resolve/document.js';
import { rfc3339 } from '../runtime.js';
import { lowerFirst, sentence, withArticle, withoutPeriod } from '../text.js';
import {
  DID_CONFIGURATION_CONTEXT,
  MAX_LINKED_DIDS,
  type DomainBindingEvidence,
  type LinkageCredentialEvidence,
  type LinkageCredentialFormat,
  type LinkageCredentialStatus,
  type LinkageInput,
} from './types.js';

const SUPPORTED_PROOFS = 'only eddsa-jcs-2022 and JWT are verified';
const DOMAIN_LINKAGE_CREDENTIAL = 'DomainLinkageCredential';

type ProblemStatus = Exclude<LinkageCredentialStatus, 'VERIFIED'>;

/** Order in which an entry's problems decide its status. */
const ENTRY_PRECEDENCE: readonly ProblemStatus[] = ['MALFORMED', 'UNSUPPORTED_PROOF', 'INVALID_PROOF', 'NOT_LINKED'];
/** Order in which the entries concerning the DID decide the overall status (after VERIFIED). */
const OVERALL_PRECEDENCE: readonly ProblemStatus[] = ['INVALID_PROOF', 'MALFORMED', 'UNSUPPORTED_PROOF'];

interface Context {
  did: string;
  /** Verification methods of the document by absolute id. */
  methods: Map<string, DeclaredMethod>;
  /** The fetched origin, serialised (lower-case scheme and host, default port dropped). */
  origin: string;
  /** The origin as the caller gave it, for messages. */
  originText: string;
  now: Date;
}

/** What one entry showed, before it becomes evidence. */
class EntryReport {
  readonly problems: Array<{ status: ProblemStatus; text: string }> = [];
  /** Neutral facts worth stating whatever the status (e.g. the signature verified). */
  readonly notes: string[] = [];
  issuer: string | null = null;
  subject: string | null = null;
  origin: string | null = null;
  proof: string | null = null;
  verificationMethod: string | null = null;
  validFrom: string | null = null;
  validUntil: string | null = null;
  /** What a VERIFIED reason says was verified, e.g. `verified with <key>`. */
  verifiedWith: string | null = null;

  constructor(
    readonly index: number,
    readonly format: LinkageCredentialFormat,
  ) {}

  add(status: ProblemStatus, text: string): void {
    if (!this.problems.some((p) => p.text === text)) this.problems.push({ status, text });
  }

  get status(): LinkageCredentialStatus {
    for (const status of ENTRY_PRECEDENCE) if (this.problems.some((p) => p.status === status)) return status;
    return 'VERIFIED';
  }
}

interface EvaluatedEntry {
  evidence: LinkageCredentialEvidence;
  /** The issuer or subject is the DID, or the entry is too broken to say whom it concerns. */
  concernsDid: boolean;
}

function sentences(parts: string[]): string {
  return sentence(parts.join('; '));
}

function quote(value: string, max = 120): string {
  return `'${value.length > max ? `${value.slice(0, max)}…` : value}'`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function typeIncludes(type: unknown, name: string): boolean {
  return type === name || (Array.isArray(type) && type.includes(name));
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isJsonObject(value) && typeof value['id'] === 'string') return value['id'];
  return null;
}

function toEvidence(report: EntryReport): LinkageCredentialEvidence {
  const status = report.status;
  let reason: string;
  if (status === 'VERIFIED') {
    const label = report.format === 'JWT' ? `JWT, ${report.proof ?? 'unknown algorithm'}` : (report.proof ?? 'Data Integrity');
    const period = `valid from ${report.validFrom ?? 'an unstated time'}${report.validUntil ? ` until ${report.validUntil}` : ' with no expiry'}`;
    reason = `A ${DOMAIN_LINKAGE_CREDENTIAL} (${label}) issued by the DID for ${report.origin ?? 'the origin'} was ${report.verifiedWith ?? 'verified'}; ${period}.`;
  } else {
    // The deciding problem first, the others in the order they were found, then the notes.
    const ordered = ENTRY_PRECEDENCE.flatMap((s) => report.problems.filter((p) => p.status === s).map((p) => p.text));
    reason = sentences([...ordered, ...report.notes]);
  }
  return {
    index: report.index,
    format: report.format,
    status,
    reason,
    issuer: report.issuer,
    subject: report.subject,
    origin: report.origin,
    proof: report.proof,
    verificationMethod: report.verificationMethod,
    validFrom: report.validFrom,
    validUntil: report.validUntil,
  };
}

/** Compares the credential's origin with the fetched one. */
function checkOrigin(claimed: unknown, ctx: Context, report: EntryReport): void {
  if (claimed === undefined) {
    report.add('MALFORMED', 'the credential subject has no origin');
    return;
  }
  if (typeof claimed !== 'string') {
    report.add('MALFORMED', `the credential subject's origin is ${describeValue(claimed)}, not a string`);
    return;
  }
  report.origin = claimed;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(claimed)) {
    report.add('MALFORMED', `the origin ${quote(claimed)} has no scheme`);
    return;
  }
  let url: URL;
  try {
    url = new URL(claimed);
  } catch {
    report.add('MALFORMED', `the origin ${quote(claimed)} is not a valid URL`);
    return;
  }
  if (url.origin === 'null') {
    report.add('MALFORMED', `the origin ${quote(claimed)} is not a web origin`);
    return;
  }
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(claimed)) {
    report.add('MALFORMED', `the origin ${quote(claimed)} is not a bare origin (it has a path, query, fragment or user information)`);
    return;
  }
  if (url.origin !== ctx.origin) report.add('NOT_LINKED', `it links the origin ${quote(claimed)}, not ${ctx.originText}`);
}

/** The validity period; problems for stamps that are not date-times or exclude `now`. */
function checkPeriod(from: Date | null, until: Date | null, ctx: Context, report: EntryReport): void {
  if (from) report.validFrom = rfc3339(from);
  if (until) report.validUntil = rfc3339(until);
  if (from && from.getTime() > ctx.now.getTime()) report.add('INVALID_PROOF', `the credential is not valid before ${rfc3339(from)}`);
  if (until && until.getTime() <= ctx.now.getTime()) report.add('INVALID_PROOF', `the credential expired on ${rfc3339(until)}`);
}

/** Issuer, subject and credentialSubject.id must all be the DID. */
function checkParties(issuer: string | null, subject: string | null, subjectId: string | null, ctx: Context, report: EntryReport): void {
  if (issuer !== null && issuer !== ctx.did) report.add('NOT_LINKED', `it was issued by ${issuer}, not by the DID`);
  if (subject !== null && subject !== ctx.did) report.add('NOT_LINKED', `its subject is ${subject}, not the DID`);
  if (subjectId !== null && subjectId !== subject && subjectId !== ctx.did) {
    report.add('NOT_LINKED', `its credentialSubject.id is ${subjectId}, not the DID`);
  }
}

type KeyFound = { ok: true; id: string; publicJwk: PublicJwk; authorised: boolean } | { ok: false; id: string | null; status: ProblemStatus; text: string };

/** Finds the key a credential names among the DID document's verification methods. */
async function findKey(reference: string, ctx: Context): Promise<KeyFound> {
  const id = reference.startsWith('#') ? `${ctx.did}${reference}` : reference;
  let did: string;
  try {
    did = parseDidUrl(id).did;
  } catch {
    return { ok: false, id: null, status: 'MALFORMED', text: `the key reference ${quote(reference)} is not a DID URL` };
  }
  if (did !== ctx.did) return { ok: false, id, status: 'INVALID_PROOF', text: `the key ${id} belongs to ${did}, not to the DID` };
  const method = ctx.methods.get(id);
  if (!method) return { ok: false, id, status: 'INVALID_PROOF', text: `the key ${id} is not a verification method of the DID document` };
  const check = await checkVerificationMethod(method.value);
  if (check.status === 'INVALID_KEY') return { ok: false, id, status: 'INVALID_PROOF', text: `the key ${id} is invalid (${check.detail ?? 'no detail'})` };
  if (check.status === 'UNSUPPORTED_KEY' || !check.publicJwk) {
    return { ok: false, id, status: 'UNSUPPORTED_PROOF', text: `the key ${id} is not supported (${check.detail ?? 'no public key'})` };
  }
  return { ok: true, id, publicJwk: check.publicJwk, authorised: method.relationships.includes('assertionMethod') };
}

function notAuthorised(id: string): string {
  return `the key ${id} is not authorised for assertionMethod in the DID document`;
}

function otherDid(report: EntryReport, what: string): EvaluatedEntry {
  const parties = [report.issuer ? `issued by ${report.issuer}` : null, report.subject && report.subject !== report.issuer ? `about ${report.subject}` : null]
    .filter((p): p is string => p !== null)
    .join(' ');
  report.add('NOT_LINKED', `it was ${parties || 'issued by another party'} and does not concern the DID; its ${what} was not checked`);
  return { evidence: toEvidence(report), concernsDid: false };
}

async function evaluateJwt(token: string, index: number, ctx: Context): Promise<EvaluatedEntry> {
  const report = new EntryReport(index, 'JWT');
  const parsed = parseCompactJws(token);
  const header = isJwsParseError(parsed) ? parsed.header : parsed.header;
  const payload = isJwsParseError(parsed) ? parsed.payload : parsed.payload instanceof Uint8Array ? null : parsed.payload;
  if (header && typeof header['alg'] === 'string') report.proof = header['alg'];
  if (header && typeof header['kid'] === 'string') {
    const kid = header['kid'];
    report.verificationMethod = kid.startsWith('#') ? `${ctx.did}${kid}` : kid;
  }
  if (payload === null) {
    report.add(
      'MALFORMED',
      isJwsParseError(parsed) && parsed.kind === 'MALFORMED' ? `the JWT is malformed: ${parsed.error}` : 'the JWT payload is not a JSON object',
    );
    return { evidence: toEvidence(report), concernsDid: true };
  }

  const iss = payload['iss'];
  const sub = payload['sub'];
  const vc = payload['vc'];
  const credentialSubject = isJsonObject(vc) ? vc['credentialSubject'] : undefined;
  const subjectId = isJsonObject(credentialSubject) && typeof credentialSubject['id'] === 'string' ? credentialSubject['id'] : null;
  report.issuer = typeof iss === 'string' ? iss : null;
  report.subject = typeof sub === 'string' ? sub : subjectId;
  if (isJsonObject(credentialSubject) && typeof credentialSubject['origin'] === 'string') report.origin = credentialSubject['origin'];
  const concerns = report.issuer === ctx.did || report.subject === ctx.did || subjectId === ctx.did || (report.issuer === null && report.subject === null);
  if (!concerns) return otherDid(report, 'signature');

  if (isJwsParseError(parsed)) {
    report.add(
      parsed.kind === 'MALFORMED' ? 'MALFORMED' : 'UNSUPPORTED_PROOF',
      parsed.kind === 'MALFORMED' ? `the JWT is malformed: ${parsed.error}` : parsed.error,
    );
  }
  if (iss === undefined) report.add('MALFORMED', 'the JWT has no "iss" claim');
  else if (typeof iss !== 'string') report.add('MALFORMED', 'the JWT "iss" claim is not a string');
  if (sub === undefined) report.add('MALFORMED', 'the JWT has no "sub" claim');
  else if (typeof sub !== 'string') report.add('MALFORMED', 'the JWT "sub" claim is not a string');
  if (!isJsonObject(vc)) {
    report.add('MALFORMED', 'the JWT has no "vc" claim holding the credential');
  } else {
    if (!typeIncludes(vc['type'], DOMAIN_LINKAGE_CREDENTIAL)) report.add('MALFORMED', `the credential's type does not include ${DOMAIN_LINKAGE_CREDENTIAL}`);
    if (!isJsonObject(credentialSubject)) report.add('MALFORMED', 'the credential has no credentialSubject object');
    else if (subjectId === null) report.add('MALFORMED', 'the credential subject has no string id');
    const vcIssuer = idOf(vc['issuer']);
    if (vcIssuer !== null && typeof iss === 'string' && vcIssuer !== iss)
      report.add('MALFORMED', `the credential's issuer (${vcIssuer}) differs from the JWT "iss" (${iss})`);
  }
  checkParties(typeof iss === 'string' ? iss : null, typeof sub === 'string' ? sub : null, subjectId, ctx, report);
  checkOrigin(isJsonObject(credentialSubject) ? credentialSubject['origin'] : undefined, ctx, report);

  const nbf = payload['nbf'];
  const exp = payload['exp'];
  const from = numericDate(nbf);
  const until = numericDate(exp);
  if (nbf === undefined) report.add('MALFORMED', 'the JWT has no "nbf" claim');
  else if (from === null) report.add('MALFORMED', 'the JWT "nbf" claim is not a NumericDate');
  if (exp !== undefined && until === null) report.add('MALFORMED', 'the JWT "exp" claim is not a NumericDate');
  checkPeriod(from, until, ctx, report);

  if (!isJwsParseError(parsed)) {
    const kid = parsed.header['kid'];
    if (report.issuer !== ctx.did) {
      report.notes.push('its signature was not checked because the DID did not issue it');
    } else if (kid === undefined) {
      report.add('MALFORMED', 'the JWT header has no "kid" naming the signing key');
    } else if (typeof kid !== 'string') {
      report.add('MALFORMED', 'the JWT header "kid" is not a string');
    } else {
      const key = await findKey(kid, ctx);
      if (!key.ok) {
        report.add(key.status, key.text);
      } else {
        report.verificationMethod = key.id;
        if (!key.authorised) report.add('INVALID_PROOF', notAuthorised(key.id));
        const check = checkJwsSignature(parsed, key.publicJwk);
        if (check.valid) {
          report.notes.push(`its ${parsed.alg} signature verifies with ${key.id}`);
          report.verifiedWith = `verified with ${key.id}`;
        } else {
          report.add('INVALID_PROOF', `${check.reason} (key ${key.id})`);
        }
      }
    }
  }
  return { evidence: toEvidence(report), concernsDid: true };
}

/** The raw Ed25519 key an eddsa-jcs-2022 proof is checked with, via the DID document. */
function keyLookup(ctx: Context, report: EntryReport) {
  return async (verificationMethod: string): Promise<ProofKeyLookup> => {
    const key = await findKey(verificationMethod, ctx);
    if (!key.ok) {
      const status = key.status === 'MALFORMED' ? 'MALFORMED' : key.status === 'UNSUPPORTED_PROOF' ? 'UNSUPPORTED' : 'INVALID';
      return { status, reason: key.text };
    }
    report.verificationMethod = key.id;
    if (key.publicJwk.kty !== 'OKP' || key.publicJwk.crv !== 'Ed25519' || typeof key.publicJwk.x !== 'string') {
      return {
        status: 'INVALID',
        reason: `the key ${key.id} is ${withArticle(key.publicJwk.crv ?? key.publicJwk.kty)} key; eddsa-jcs-2022 signs with Ed25519`,
      };
    }
    const publicKey = base64urlDecode(key.publicJwk.x);
    if (!publicKey) return { status: 'INVALID', reason: `the key ${key.id} could not be decoded` };
    if (!key.authorised) report.add('INVALID_PROOF', notAuthorised(key.id));
    return { publicKey };
  };
}

function readStamp(credential: Record<string, unknown>, names: readonly string[], report: EntryReport): Date | null {
  for (const name of names) {
    const value = credential[name];
    if (value === undefined) continue;
    const date = typeof value === 'string' ? parseDateTime(value) : null;
    if (date === null) {
      report.add('MALFORMED', `the ${name} ${typeof value === 'string' ? quote(value) : `(${describeValue(value)})`} is not an RFC 3339 date-time`);
    }
    return date;
  }
  return null;
}

async function evaluateEmbedded(credential: Record<string, unknown>, index: number, ctx: Context): Promise<EvaluatedEntry> {
  const report = new EntryReport(index, 'DATA_INTEGRITY');
  const proof = credential['proof'];
  const single = Array.isArray(proof) ? (proof.length === 1 ? proof[0] : undefined) : proof;
  report.proof =
    Array.isArray(proof) && proof.length > 1 ? [...new Set(proof.map(proofLabel))].filter((l) => l !== null).join(', ') || null : proofLabel(single);
  if (isJsonObject(single) && typeof single['verificationMethod'] === 'string') {
    const vm = single['verificationMethod'];
    report.verificationMethod = vm.startsWith('#') ? `${ctx.did}${vm}` : vm;
  }
  const issuer = idOf(credential['issuer']);
  const credentialSubject = credential['credentialSubject'];
  const subjectId = isJsonObject(credentialSubject) && typeof credentialSubject['id'] === 'string' ? credentialSubject['id'] : null;
  report.issuer = issuer;
  report.subject = subjectId;
  if (isJsonObject(credentialSubject) && typeof credentialSubject['origin'] === 'string') report.origin = credentialSubject['origin'];
  const concerns = issuer === ctx.did || subjectId === ctx.did || (issuer === null && subjectId === null);
  if (!concerns) return otherDid(report, 'proof');

  const type = credential['type'];
  if (!typeIncludes(type, 'VerifiableCredential') || !typeIncludes(type, DOMAIN_LINKAGE_CREDENTIAL)) {
    report.add('MALFORMED', `the credential's type does not include both VerifiableCredential and ${DOMAIN_LINKAGE_CREDENTIAL}`);
  }
  if (issuer === null) report.add('MALFORMED', 'the credential has no issuer (a DID or an object with an id)');
  if (Array.isArray(credentialSubject)) report.add('MALFORMED', 'the credential has several subjects; a DomainLinkageCredential has one');
  else if (!isJsonObject(credentialSubject)) report.add('MALFORMED', 'the credential has no credentialSubject object');
  else if (subjectId === null) report.add('MALFORMED', 'the credential subject has no string id');
  checkParties(issuer, null, subjectId, ctx, report);
  checkOrigin(isJsonObject(credentialSubject) ? credentialSubject['origin'] : undefined, ctx, report);

  const from = readStamp(credential, ['validFrom', 'issuanceDate'], report);
  const until = readStamp(credential, ['validUntil', 'expirationDate'], report);
  checkPeriod(from, until, ctx, report);

  if (proof === undefined) {
    report.add('MALFORMED', 'the credential has no proof');
  } else if (issuer !== ctx.did) {
    const unsupported = Array.isArray(proof) ? null : checkProofSupport(proof, SUPPORTED_PROOFS);
    if (unsupported?.status === 'UNSUPPORTED') report.add('UNSUPPORTED_PROOF', unsupported.reason);
    report.notes.push('its proof was not checked because the DID did not issue it');
  } else {
    const result = await verifyDataIntegrity(credential, {
      lookupKey: keyLookup(ctx, report),
      expectedProofPurpose: 'assertionMethod',
      supportedDescription: SUPPORTED_PROOFS,
      nowMs: ctx.now.getTime(),
    });
    if (result.status === 'VALID') {
      const keys = [...new Set(result.proofs.map((p) => (p.verificationMethod?.startsWith('#') ? `${ctx.did}${p.verificationMethod}` : p.verificationMethod)))];
      const legacy = result.proofs.some((p) => p.result.status === 'VALID' && p.result.proofConfiguration === 'document-context');
      const how = legacy ? " (the proof configuration carries the document's @context, as earlier drafts of the suite had it)" : '';
      const suites = report.proof ?? 'eddsa-jcs-2022';
      report.notes.push(`its ${suites} proof verifies with ${keys.join(', ')}${how}`);
      report.verifiedWith = `verified with ${keys.join(', ')}${how}`;
    } else {
      const status = result.status === 'MALFORMED' ? 'MALFORMED' : result.status === 'UNSUPPORTED' ? 'UNSUPPORTED_PROOF' : 'INVALID_PROOF';
      report.add(status, result.reason ?? 'the proof does not verify');
    }
  }
  return { evidence: toEvidence(report), concernsDid: true };
}

function malformedEntry(value: unknown, index: number): EvaluatedEntry {
  const report = new EntryReport(index, 'UNKNOWN');
  report.add('MALFORMED', `entry ${index + 1} of linked_dids is ${describeValue(value)}, not a JWT string or a credential object`);
  return { evidence: toEvidence(report), concernsDid: true };
}

/** The fetched origin, serialised; throws for a caller's mistake. */
function serialiseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`verifyDidConfiguration: origin ${JSON.stringify(origin)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`verifyDidConfiguration: origin ${JSON.stringify(origin)} is not an http(s) origin`);
  }
  return url.origin;
}

export function unfetchedBinding(status: 'NOT_CONFIGURED' | 'UNREACHABLE', origin: string, configurationUrl: string, reason: string): DomainBindingEvidence {
  return { status, origin, configurationUrl, reason, credentials: [] };
}

function fileMalformed(input: LinkageInput, reason: string): DomainBindingEvidence {
  return { status: 'MALFORMED', origin: input.origin, configurationUrl: input.configurationUrl, reason: sentence(reason), credentials: [] };
}

function entryLabel(e: LinkageCredentialEvidence): string {
  if (e.format === 'JWT') return e.proof ? `JWT, ${e.proof}` : 'JWT';
  if (e.format === 'DATA_INTEGRITY') return e.proof ?? 'embedded proof';
  return 'unknown form';
}

const STATUS_PHRASES: Readonly<Record<ProblemStatus, string>> = {
  INVALID_PROOF: 'fails verification',
  MALFORMED: 'is malformed',
  UNSUPPORTED_PROOF: 'cannot be verified by svc',
  NOT_LINKED: 'does not link the DID to this origin',
};

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function concernPhrase(k: number, n: number): string {
  if (k === n) return n === 1 ? 'The only entry concerns the DID' : n === 2 ? 'Both entries concern the DID' : `All ${n} entries concern the DID`;
  return `${k} of ${n} entries ${plural(k, 'concerns', 'concern')} the DID`;
}

function overall(input: LinkageInput, ctx: Context, entries: EvaluatedEntry[], contextNote: string): DomainBindingEvidence {
  const credentials = entries.map((e) => e.evidence);
  const n = credentials.length;
  const base = { origin: input.origin, configurationUrl: input.configurationUrl, credentials };
  const verified = credentials.filter((c) => c.status === 'VERIFIED');
  if (verified.length > 0) {
    const labels = [...new Set(verified.map(entryLabel))].join('; ');
    const what =
      verified.length === 1
        ? `A ${DOMAIN_LINKAGE_CREDENTIAL} for the DID was verified`
        : `${verified.length} ${DOMAIN_LINKAGE_CREDENTIAL}s for the DID were verified`;
    return { ...base, status: 'VERIFIED', reason: `${what} (${labels}) for ${ctx.originText}${contextNote}.` };
  }
  const concerning = entries.filter((e) => e.concernsDid).map((e) => e.evidence);
  for (const status of OVERALL_PRECEDENCE) {
    const deciding = concerning.find((c) => c.status === status);
    if (deciding) {
      const reason = `${concernPhrase(concerning.length, n)}; entry ${deciding.index + 1} (${entryLabel(deciding)}) ${STATUS_PHRASES[status]}: ${lowerFirst(withoutPeriod(deciding.reason))}${contextNote}.`;
      return { ...base, status, reason };
    }
  }
  if (concerning.length > 0) {
    const first = concerning[0]!;
    const reason = `${concernPhrase(concerning.length, n)}, but none links it to ${ctx.originText}: ${lowerFirst(withoutPeriod(first.reason))}${contextNote}.`;
    return { ...base, status: 'NOT_LINKED', reason };
  }
  const parties = [...new Set(credentials.map((c) => c.issuer ?? c.subject).filter((p): p is string => p !== null))];
  const shown = parties.slice(0, 3).join(', ') + (parties.length > 3 ? ` and ${parties.length - 3} more` : '');
  const who = parties.length > 0 ? `; the file links ${shown}` : '';
  const none = n === 1 ? 'The only entry does not concern the DID' : `None of the ${n} entries concerns the DID`;
  return { ...base, status: 'NOT_LINKED', reason: `${none}${who}${contextNote}.` };
}

/**
 * Verifies a fetched DID Configuration resource for `did` at `origin`. Pure: no I/O, the
 * clock is `input.now`.
 */
export async function verifyDidConfiguration(input: LinkageInput): Promise<DomainBindingEvidence> {
  const origin = serialiseOrigin(input.origin);
  const { body } = input;
  const parsed = parseJsonBytes(body, 'the DID configuration');
  if ('error' in parsed) return fileMalformed(input, parsed.error);
  const json = parsed.value;
  if (!isJsonObject(json)) return fileMalformed(input, `the DID configuration is ${describeValue(json)}, not a JSON object`);
  const linked = json['linked_dids'];
  if (linked === undefined) return fileMalformed(input, 'the DID configuration has no "linked_dids" member');
  if (!Array.isArray(linked)) return fileMalformed(input, `"linked_dids" is ${describeValue(linked)}, not an array`);
  if (linked.length === 0) return fileMalformed(input, '"linked_dids" is empty');
  if (linked.length > MAX_LINKED_DIDS)
    return fileMalformed(input, `"linked_dids" holds too many entries (${linked.length}; at most ${MAX_LINKED_DIDS} are evaluated)`);

  const declared = json['@context'];
  const contextNote =
    declared === DID_CONFIGURATION_CONTEXT || (Array.isArray(declared) && declared.includes(DID_CONFIGURATION_CONTEXT))
      ? ''
      : declared === undefined
        ? ` (the file declares no @context; ${DID_CONFIGURATION_CONTEXT} is expected)`
        : ` (the file's @context is not ${DID_CONFIGURATION_CONTEXT})`;

  const reading = readDocument(input.did, input.document);
  const ctx: Context = {
    did: input.did,
    methods: new Map(reading.methods.map((m) => [m.id, m])),
    origin,
    originText: input.origin,
    now: input.now,
  };
  const entries: EvaluatedEntry[] = [];
  for (let i = 0; i < linked.length; i++) {
    const entry = linked[i];
    if (typeof entry === 'string') entries.push(await evaluateJwt(entry, i, ctx));
    else if (isJsonObject(entry)) entries.push(await evaluateEmbedded(entry, i, ctx));
    else entries.push(malformedEntry(entry, i));
  }
  return overall(input, ctx, entries, contextNote);
}
