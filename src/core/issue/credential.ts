/**
 * Signing a credential (`svc sign-credential`): the other half of credentials/verify.ts, so what
 * svc verifies can be made without writing JOSE code. The formats are the ones svc verifies:
 *
 * - `vc+jwt` (VC-JOSE-COSE): the payload is the VC Data Model 2.0 credential itself, with `iat`;
 *   header `{alg, typ: vc+jwt, kid}`.
 * - `vc-jwt-1.1` (VC Data Model 1.1 JWT encoding, what did-jwt-vc and other 1.1 verifiers read):
 *   a 1.1 credential in the `vc` claim, kept whole, its issuer, dates, id and subject also as `iss`,
 *   `nbf`, `exp`, `jti` and `sub`; header `{alg, typ: JWT, kid}`.
 * - `di-eddsa-jcs` / `di-ecdsa-jcs`: a Data Integrity proof, eddsa-jcs-2022 (Ed25519) or
 *   ecdsa-jcs-2019 (P-256), proofPurpose assertionMethod, `created` from the caller's clock. A key
 *   on the other curve is refused, naming the format that fits it (the format names the suite).
 * - `sd-jwt` (SD-JWT VC, `typ: dc+sd-jwt`): the input is the SD-JWT VC's claims, not a VC Data
 *   Model credential (sd-jwt.ts makes the disclosures).
 *
 * The issuer: absent, the key's did:key is filled in (and said in a note); present, it must be a
 * DID this key signs for (key.ts `signingAs`). A VC 1.1 credential without `issuanceDate` gets the
 * caller's now (1.1 requires one). Before signing, the credential is read by the verifier's own
 * data model rules (credentials/model.ts): svc signs nothing its verifier would call MALFORMED.
 *
 * Refusals are ProblemErrors: INVALID_REQUEST for the input (exit 4 on the command line), and
 * INVALID_OPTIONS for the key and the options (exit 2).
 */
import { readDataModel, VC_V1_CONTEXT, VC_V2_CONTEXT, idOf } from '../credentials/model.js';
import { parseDid } from '../did/syntax.js';
import { isJsonObject, jsonValueProblem, type JsonObject } from '../encoding/json.js';
import { privateJwkMembers } from '../keys/jwk.js';
import { ProblemError } from '../problems.js';
import { ECDSA_JCS_2019, EDDSA_JCS_2022 } from '../proofs/data-integrity.js';
import { rfc3339 } from '../runtime.js';
import { withArticle } from '../text.js';
import { addJcsProof } from './data-integrity.js';
import { describeKey, readIssuingKey, signingAs, type IssuingKey, type SigningAs } from './key.js';
import { signCompact } from './jose.js';
import { issueSdJwt } from './sd-jwt.js';
import { SIGNED_CREDENTIAL_FORMATS, type SignedCredentialFormat } from './types.js';

export { SIGNED_CREDENTIAL_FORMATS, type SignedCredentialFormat };

export interface SignCredentialOptions {
  key: IssuingKey;
  format: SignedCredentialFormat;
  /** The issuer to sign as: fills a missing issuer, must equal a present one. */
  issuer?: string;
  /** The verification method (a DID URL): derived for did:key and did:jwk issuers, required for others. */
  kid?: string;
  /** sd-jwt only: JSON Pointers to the claims made selectively disclosable. */
  disclose?: readonly string[];
  /** sd-jwt only: the holder's JWK (public or private: only its public members are used), bound as `cnf.jwk`. */
  holderKey?: unknown;
  /** The signing time (`iat`, `created`; a 1.1 credential's missing issuanceDate). */
  now: Date;
}

export interface SignedCredential {
  format: SignedCredentialFormat;
  /** What is written out: the compact JWT or SD-JWT (`~`-terminated), or the Data Integrity credential's JSON text. */
  text: string;
  issuer: string;
  kid: string;
  /** The JWS algorithm or the cryptosuite. */
  suite: string;
  /** What the signer filled in or could not check, one sentence each. */
  notes: string[];
}

function refuseInput(detail: string): never {
  throw new ProblemError('INVALID_REQUEST', detail);
}

function refuseOption(detail: string): never {
  throw new ProblemError('INVALID_OPTIONS', detail);
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** The Data Integrity cryptosuite of a format, checked against the key's curve. */
export function diSuite(format: 'di-eddsa-jcs' | 'di-ecdsa-jcs', key: IssuingKey): typeof EDDSA_JCS_2022 | typeof ECDSA_JCS_2019 {
  if (format === 'di-eddsa-jcs' && key.alg === 'EdDSA') return EDDSA_JCS_2022;
  if (format === 'di-ecdsa-jcs' && key.alg === 'ES256') return ECDSA_JCS_2019;
  if (key.alg === 'ES256K')
    refuseOption(`${format} needs an Ed25519 or P-256 key; svc verifies no Data Integrity suite on secp256k1: sign this key's credentials as vc+jwt.`);
  const fits = key.alg === 'EdDSA' ? 'di-eddsa-jcs (eddsa-jcs-2022)' : 'di-ecdsa-jcs (ecdsa-jcs-2019)';
  refuseOption(
    `--format ${format} signs with ${format === 'di-eddsa-jcs' ? 'an Ed25519' : 'a P-256'} key; this is ${withArticle(key.curve)} key: give --format ${fits}.`,
  );
}

/** The input as a JSON object svc can sign (I-JSON: it has an RFC 8785 form). */
function readInput(input: unknown, what: string): JsonObject {
  if (!isJsonObject(input)) refuseInput(`The ${what} must be a JSON object.`);
  const problem = jsonValueProblem(input);
  if (problem !== null) refuseInput(`The ${what} is not I-JSON (RFC 7493): ${problem}.`);
  return input;
}

/** The issuer named by the input (or null), checked against --issuer; refuses one that is not a DID. */
function namedIssuer(named: string | null, present: boolean, option: string | undefined): string | undefined {
  if (present && named === null) refuseInput('The issuer is neither a DID string nor an object with a string "id".');
  if (named !== null) {
    try {
      parseDid(named);
    } catch (err) {
      refuseInput(
        `The issuer must be a DID (svc signs as one): ${named.slice(0, 90)} is not (${err instanceof ProblemError ? err.detail.replace(/\.$/, '') : 'invalid'}).`,
      );
    }
    if (option !== undefined && option !== named) refuseOption(`--issuer is ${option.slice(0, 90)}, but the input names the issuer ${named.slice(0, 90)}.`);
    return named;
  }
  return option;
}

function filledNote(as: SigningAs, inputNamedIt: boolean, key: IssuingKey): string[] {
  if (inputNamedIt) return as.notes;
  const whose = as.did === key.didKey ? "the key's did:key" : '--issuer';
  return [`The input names no issuer: it is issued by ${as.did} (${whose}).`, ...as.notes];
}

/** Signs `input` (a JSON object: a credential, or SD-JWT VC claims) in `options.format`. */
export async function signCredential(input: unknown, options: SignCredentialOptions): Promise<SignedCredential> {
  if (options.format !== 'sd-jwt') {
    if (options.disclose !== undefined && options.disclose.length > 0) refuseOption('--disclose applies to --format sd-jwt only.');
    if (options.holderKey !== undefined) refuseOption('--holder-key applies to --format sd-jwt only.');
    return signModel(readInput(input, 'credential'), options);
  }
  return signSdJwtVc(readInput(input, 'SD-JWT VC claim set'), options);
}

/* ------------------------------------------------------------------ VC Data Model */

function signModel(input: JsonObject, options: SignCredentialOptions): SignedCredential {
  const { key, format } = options;
  if (input['vct'] !== undefined && input['@context'] === undefined) {
    refuseInput('The input has "vct" and no "@context": it is an SD-JWT VC claim set, signed with --format sd-jwt.');
  }
  if (input['proof'] !== undefined) refuseInput('The credential already has a proof; svc signs a credential without one and adds it.');
  const first = Array.isArray(input['@context']) ? input['@context'][0] : input['@context'];
  const version = first === VC_V2_CONTEXT ? '2.0' : first === VC_V1_CONTEXT ? '1.1' : null;
  if (version === null) refuseInput(`The credential's first @context is neither ${VC_V2_CONTEXT} (VC Data Model 2.0) nor ${VC_V1_CONTEXT} (1.1).`);
  if (format === 'vc-jwt-1.1' && version !== '1.1') {
    refuseInput(`--format vc-jwt-1.1 signs a VC Data Model 1.1 credential (@context ${VC_V1_CONTEXT}); a 2.0 credential is signed as vc+jwt.`);
  }
  if (format !== 'vc-jwt-1.1' && version !== '2.0') {
    refuseInput(`--format ${format} signs a VC Data Model 2.0 credential (@context ${VC_V2_CONTEXT}); a 1.1 credential is signed as vc-jwt-1.1.`);
  }
  if (format === 'vc+jwt') {
    for (const claim of ['vc', 'vp']) if (input[claim] !== undefined) refuseInput(`A vc+jwt credential has no "${claim}" member (VC-JOSE-COSE): remove it.`);
  }
  const suite = format === 'di-eddsa-jcs' || format === 'di-ecdsa-jcs' ? diSuite(format, key) : null;

  const named = namedIssuer(idOf(input['issuer']), input['issuer'] !== undefined, options.issuer);
  const as = signingAs(key, named, options.kid, { name: 'issuer', relationship: 'assertionMethod' });
  const credential: JsonObject = { ...input };
  if (input['issuer'] === undefined) credential['issuer'] = as.did;
  if (version === '1.1' && credential['issuanceDate'] === undefined) credential['issuanceDate'] = rfc3339(options.now);

  const model = readDataModel(credential);
  if (model.unsupported !== null) refuseInput(`${model.unsupported.replace(/;.*$/, '')}: svc sign-presentation signs presentations.`);
  if (model.problems.length > 0) refuseInput(`svc would not verify this credential: ${model.problems.slice(0, 3).join('; ')}.`);
  const notes = filledNote(as, input['issuer'] !== undefined, key);

  if (suite !== null) {
    const secured = addJcsProof(credential, key, { cryptosuite: suite, verificationMethod: as.kid, proofPurpose: 'assertionMethod', created: options.now });
    return { format, text: `${JSON.stringify(secured, null, 2)}\n`, issuer: as.did, kid: as.kid, suite, notes };
  }
  if (format === 'vc+jwt') {
    const payload: JsonObject = { ...credential };
    if (payload['iat'] === undefined) payload['iat'] = seconds(options.now);
    return { format, text: `${signCompact({ typ: 'vc+jwt', kid: as.kid }, payload, key.signer)}\n`, issuer: as.did, kid: as.kid, suite: key.alg, notes };
  }
  // VC-JWT 1.1: the registered claims restate the credential (VC Data Model 1.1 §6.3.1).
  const payload: JsonObject = { iss: as.did };
  const subject = credential['credentialSubject'];
  const subjectId = isJsonObject(subject)
    ? subject['id']
    : Array.isArray(subject) && subject.length === 1 && isJsonObject(subject[0])
      ? subject[0]['id']
      : undefined;
  if (typeof subjectId === 'string') payload['sub'] = subjectId;
  if (typeof credential['id'] === 'string') payload['jti'] = credential['id'];
  payload['nbf'] = seconds(model.validFrom!);
  if (model.validUntil !== null) payload['exp'] = seconds(model.validUntil);
  payload['iat'] = seconds(options.now);
  payload['vc'] = credential;
  return { format, text: `${signCompact({ typ: 'JWT', kid: as.kid }, payload, key.signer)}\n`, issuer: as.did, kid: as.kid, suite: key.alg, notes };
}

/* ------------------------------------------------------------------ SD-JWT VC */

function numericClaim(claims: JsonObject, name: string): void {
  const value = claims[name];
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
    refuseInput(`The claim "${name}" must be a NumericDate (seconds since 1970).`);
  }
}

/** The public JWK `cnf.jwk` binds: from --holder-key (public members only), or the claims' own `cnf`. */
async function holderBinding(claims: JsonObject, holderKey: unknown): Promise<JsonObject | undefined> {
  if (holderKey === undefined) {
    const cnf = claims['cnf'];
    if (cnf === undefined) return undefined;
    if (!isJsonObject(cnf) || !isJsonObject(cnf['jwk'])) refuseInput('The claim "cnf" must be an object with a "jwk" (the holder\'s public key).');
    const secret = privateJwkMembers(cnf['jwk']);
    if (secret.length > 0) refuseInput(`"cnf.jwk" carries private key material (${secret.map((m) => `"${m}"`).join(', ')}): bind the holder's public key.`);
    return cnf;
  }
  if (claims['cnf'] !== undefined) refuseOption('--holder-key and a "cnf" claim both name the holder key: give one of them.');
  let description;
  try {
    description = await describeKey(holderKey);
  } catch (err) {
    if (err instanceof ProblemError) refuseOption(`--holder-key: ${err.detail}`);
    throw err;
  }
  const publicJwk = description.private ? readIssuingKey(holderKey).publicJwk : (holderKey as JsonObject);
  const { kty, crv, x, y } = publicJwk as Record<string, string | undefined>;
  return { jwk: { kty: kty!, crv: crv!, x: x!, ...(y === undefined ? {} : { y }) } };
}

async function signSdJwtVc(input: JsonObject, options: SignCredentialOptions): Promise<SignedCredential> {
  const { key } = options;
  if (input['@context'] !== undefined) {
    refuseInput(
      'The input has an "@context": it is a VC Data Model credential, signed as vc+jwt or di-eddsa-jcs; --format sd-jwt signs an SD-JWT VC claim set ({"vct": …, claims}).',
    );
  }
  const vct = input['vct'];
  if (typeof vct !== 'string' || vct === '') refuseInput('An SD-JWT VC claim set needs "vct", its type: a non-empty string (a URI).');
  const iss = input['iss'];
  if (iss !== undefined && typeof iss !== 'string') refuseInput('The claim "iss" must be a string: the issuer DID.');
  for (const name of ['iat', 'nbf', 'exp']) numericClaim(input, name);
  const named = namedIssuer(typeof iss === 'string' ? iss : null, false, options.issuer);
  const as = signingAs(key, named, options.kid, { name: 'issuer', relationship: 'assertionMethod' });
  const cnf = await holderBinding(input, options.holderKey);
  const { iss: _iss, iat, vct: _vct, cnf: _cnf, ...rest } = input;
  const claims: JsonObject = { iss: as.did, iat: iat ?? seconds(options.now), vct, ...rest, ...(cnf === undefined ? {} : { cnf }) };
  const text = issueSdJwt(claims, options.disclose ?? [], key, as.kid);
  const notes = filledNote(as, iss !== undefined, key);
  if (cnf === undefined) notes.push('The credential binds no holder key ("cnf"): whoever holds it can present it (--holder-key binds one).');
  return { format: 'sd-jwt', text: `${text}\n`, issuer: as.did, kid: as.kid, suite: key.alg, notes };
}
