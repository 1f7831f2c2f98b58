/**
 * Signing a presentation (`svc sign-presentation`): credentials a holder carries, bound to a
 * verifier's challenge (and domain) by the holder's key. The formats are those
 * presentations/verify.ts reads:
 *
 * - `vp+jwt` (VC-JOSE-COSE): the payload is the VC Data Model 2.0 presentation, with `nonce`
 *   (the challenge), `aud` (the domain), `iat` and an `exp` PRESENTATION_TTL_SECONDS later;
 *   header `{alg, typ: vp+jwt, kid}`.
 * - `di-eddsa-jcs` / `di-ecdsa-jcs`: a Data Integrity proof (data-integrity.ts), proofPurpose
 *   authentication, with `challenge` and `domain`.
 * - `sd-jwt`: one SD-JWT VC presented the SD-JWT way: as issued, followed by a KB-JWT (`nonce`,
 *   `aud`, `iat`, `sd_hash`) signed by the key its `cnf` binds. The default when the only
 *   credential given is an SD-JWT VC.
 *
 * In a presentation, a Data Integrity credential (a JSON object with a proof) is carried as it
 * is; a vc+jwt, and an SD-JWT VC, as an EnvelopedVerifiableCredential whose id is a `data:` URL
 * of its media type (`application/vc+jwt`, `application/dc+sd-jwt`). An SD-JWT VC that binds a
 * holder key gets its KB-JWT there too (the same challenge and domain), which then needs the
 * domain and this key. Refused: a credential without proof, a VC-JWT 1.1 credential (it belongs
 * in a VC-JWT 1.1 presentation, which svc does not make), a presentation inside a presentation,
 * an SD-JWT that already carries a KB-JWT, more than MAX_PRESENTED_CREDENTIALS.
 *
 * A challenge is required: without one a presentation can be replayed by whoever sees it (and
 * @digitalbazaar/vc, among others, verifies none). The holder is the key's did:key unless named,
 * under key.ts `signingAs`'s rules (relationship authentication).
 */
import { readCredentialInput } from '../credentials/input.js';
import { mediaType } from '../credentials/jwt.js';
import { VC_V2_CONTEXT } from '../credentials/model.js';
import { isSdJwtParseError, parseSdJwt, type ParsedSdJwt } from '../credentials/sd-jwt.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import { MAX_PRESENTED_CREDENTIALS } from '../presentations/types.js';
import { ProblemError } from '../problems.js';
import { isJwsParseError, parseCompactJws } from '../proofs/jws.js';
import { diSuite } from './credential.js';
import { addJcsProof } from './data-integrity.js';
import { signingAs, type IssuingKey } from './key.js';
import { signCompact } from './jose.js';
import { keyBindingJwt } from './sd-jwt.js';
import { SIGNED_PRESENTATION_FORMATS, type SignedPresentationFormat } from './types.js';

export { SIGNED_PRESENTATION_FORMATS, type SignedPresentationFormat };

/** How long a vp+jwt is valid (`exp` − `iat`): one exchange, as long as svc accepts a KB-JWT. */
export const PRESENTATION_TTL_SECONDS = 300;

export interface SignPresentationOptions {
  /** The holder's key. */
  key: IssuingKey;
  /** Default: sd-jwt for a lone SD-JWT VC, else vp+jwt. */
  format?: SignedPresentationFormat;
  /** The holder DID (default: the key's did:key). */
  holder?: string;
  /** Its verification method, for a holder that does not carry its key (did:web …). */
  kid?: string;
  /** The verifier's challenge (required). */
  challenge?: string;
  /** The verifier's domain (required for an SD-JWT VC that binds a holder key). */
  domain?: string;
  now: Date;
}

export interface SignedPresentation {
  format: SignedPresentationFormat;
  /** The compact vp+jwt or SD-JWT+KB, or the Data Integrity presentation's JSON text. */
  text: string;
  /** The holder DID; null for an SD-JWT presentation (its KB-JWT names no DID). */
  holder: string | null;
  kid: string | null;
  notes: string[];
}

function refuseInput(detail: string): never {
  throw new ProblemError('INVALID_REQUEST', detail);
}

function refuseOption(detail: string): never {
  throw new ProblemError('INVALID_OPTIONS', detail);
}

/** One credential as it will be carried. */
type Carried = { kind: 'object'; credential: JsonObject } | { kind: 'vc+jwt'; token: string } | { kind: 'sd-jwt'; text: string; parsed: ParsedSdJwt };

/** Reads credential `n` (1-based) of the command line: what it is, or why it cannot be presented. */
function carried(input: unknown, n: number): Carried {
  const where = `Credential ${n}`;
  const read = readCredentialInput(input);
  if (read.kind === 'refused') refuseInput(`${where}: ${read.reason}`);
  if (read.kind === 'json') {
    const types = read.credential['type'];
    if (types === 'VerifiablePresentation' || (Array.isArray(types) && types.includes('VerifiablePresentation'))) {
      refuseInput(`${where} is a presentation; a presentation carries credentials, not presentations.`);
    }
    if (read.credential['proof'] === undefined) refuseInput(`${where} has no proof: sign it first (svc sign-credential).`);
    return { kind: 'object', credential: read.credential };
  }
  if (read.kind === 'sd-jwt') {
    const parsed = parseSdJwt(read.text);
    if (isSdJwtParseError(parsed)) refuseInput(`${where} is not an SD-JWT VC: ${parsed.error}.`);
    if (parsed.kbJwt !== null) refuseInput(`${where} already ends in a KB-JWT: give the SD-JWT VC as issued (ending in "~").`);
    return { kind: 'sd-jwt', text: read.text, parsed };
  }
  const jws = parseCompactJws(read.token, { compactShape: true });
  const header = jws.header;
  const payload = isJwsParseError(jws) ? jws.payload : jws.payload instanceof Uint8Array ? null : jws.payload;
  if (header === null || payload === null)
    refuseInput(`${where} is not a JWT-secured credential: ${isJwsParseError(jws) ? jws.error : 'its payload is not a JSON object'}.`);
  const typ = mediaType(header['typ']);
  if (typ === 'vc+jwt') return { kind: 'vc+jwt', token: read.token };
  if (typ === 'vp+jwt' || payload['vp'] !== undefined) refuseInput(`${where} is a presentation; a presentation carries credentials, not presentations.`);
  if (payload['vc'] !== undefined) {
    refuseInput(`${where} is a VC-JWT 1.1 credential, carried by a VC-JWT 1.1 presentation (the "vp" claim), which svc does not make: issue it as vc+jwt.`);
  }
  refuseInput(`${where} is a JWT typed ${JSON.stringify(String(header['typ'] ?? 'nothing')).slice(0, 40)}, not a vc+jwt credential.`);
}

function sameJwk(jwk: JsonValue | undefined, key: IssuingKey): boolean {
  const k = key.publicJwk;
  return isJsonObject(jwk) && jwk['kty'] === k.kty && jwk['crv'] === k.crv && jwk['x'] === k.x && (k.y === undefined || jwk['y'] === k.y);
}

/** The SD-JWT VC followed by a KB-JWT by `key`, which must be the one its `cnf.jwk` binds. */
function bound(credential: Extract<Carried, { kind: 'sd-jwt' }>, n: number, options: SignPresentationOptions): string {
  const cnf = credential.parsed.issuerPayload['cnf'];
  if (cnf === undefined) {
    refuseInput(`Credential ${n} (an SD-JWT VC) binds no holder key ("cnf"): no KB-JWT can show who presents it; whoever holds it hands it over as it is.`);
  }
  if (!isJsonObject(cnf) || !sameJwk(cnf['jwk'], options.key)) {
    refuseOption(`Credential ${n} (an SD-JWT VC) binds another key in "cnf.jwk"; its KB-JWT is signed by that key: give it as --key.`);
  }
  if (options.domain === undefined) refuseOption(`--domain is required: the KB-JWT of credential ${n} (an SD-JWT VC) names its audience ("aud").`);
  return `${credential.text}${keyBindingJwt(credential.text, options.key, { nonce: options.challenge!, aud: options.domain, iat: options.now })}`;
}

function enveloped(mediaTypeName: string, text: string): JsonObject {
  return { '@context': VC_V2_CONTEXT, id: `data:application/${mediaTypeName},${text}`, type: 'EnvelopedVerifiableCredential' };
}

/** Signs a presentation of `credentials` (each a credential object, its JSON text, a vc+jwt or an SD-JWT VC). */
export function signPresentation(credentials: readonly unknown[], options: SignPresentationOptions): SignedPresentation {
  if (credentials.length > MAX_PRESENTED_CREDENTIALS)
    refuseInput(`A presentation carries at most ${MAX_PRESENTED_CREDENTIALS} credentials; ${credentials.length} were given.`);
  const items = credentials.map((c, i) => carried(c, i + 1));
  const format = options.format ?? (items.length === 1 && items[0]!.kind === 'sd-jwt' ? 'sd-jwt' : 'vp+jwt');
  const { challenge, domain } = options;
  if (challenge === undefined)
    refuseOption("--challenge is required: the verifier's challenge binds the presentation to one exchange (without it, anyone who sees it can replay it).");
  if (challenge === '' || domain === '') refuseOption('--challenge and --domain must not be empty.');

  if (format === 'sd-jwt') {
    const only = items[0];
    if (items.length !== 1 || only?.kind !== 'sd-jwt')
      refuseOption('--format sd-jwt presents one SD-JWT VC; several credentials, or others, go in a vp+jwt or Data Integrity presentation.');
    if (options.holder !== undefined || options.kid !== undefined) {
      refuseOption('--holder and --kid have no place in an SD-JWT presentation: its KB-JWT is signed by the key the credential binds, named by no DID.');
    }
    return { format, text: `${bound(only, 1, options)}\n`, holder: null, kid: null, notes: [] };
  }

  const suite = format === 'vp+jwt' ? null : diSuite(format, options.key);
  const as = signingAs(options.key, options.holder, options.kid, { name: 'holder', relationship: 'authentication' });
  const notes = [...as.notes];
  const verifiableCredential = items.map((item, i): JsonObject => {
    if (item.kind === 'object') return item.credential;
    if (item.kind === 'vc+jwt') return enveloped('vc+jwt', item.token);
    const cnf = item.parsed.issuerPayload['cnf'];
    if (cnf === undefined) {
      notes.push(`Credential ${i + 1} (an SD-JWT VC) binds no holder key: it is carried without a KB-JWT.`);
      return enveloped(item.parsed.typ, item.text);
    }
    return enveloped(item.parsed.typ, bound(item, i + 1, options));
  });
  const presentation: JsonObject = { '@context': [VC_V2_CONTEXT], type: ['VerifiablePresentation'], holder: as.did, verifiableCredential };
  if (suite !== null) {
    const secured = addJcsProof(presentation, options.key, {
      cryptosuite: suite,
      verificationMethod: as.kid,
      proofPurpose: 'authentication',
      created: options.now,
      challenge,
      ...(domain === undefined ? {} : { domain }),
    });
    return { format, text: `${JSON.stringify(secured, null, 2)}\n`, holder: as.did, kid: as.kid, notes };
  }
  const iat = Math.floor(options.now.getTime() / 1000);
  const payload: JsonObject = { ...presentation, nonce: challenge, ...(domain === undefined ? {} : { aud: domain }), iat, exp: iat + PRESENTATION_TTL_SECONDS };
  return { format, text: `${signCompact({ typ: 'vp+jwt', kid: as.kid }, payload, options.key.signer)}\n`, holder: as.did, kid: as.kid, notes };
}
