/**
 * Verifiable presentations made during the test run by independent peer libraries, so svc's
 * presentation verifier is checked against other people's signers rather than its own code:
 *
 * - Data Integrity: @digitalbazaar/vc `signPresentation` with the eddsa-jcs-2022 cryptosuite
 *   (DataIntegrityProof, proofPurpose `authentication`, `challenge` and `domain`), carrying
 *   credentials issued by @digitalbazaar/vc (eddsa-jcs-2022, ecdsa-jcs-2019; peer-issuers.ts);
 * - VC-JOSE-COSE: a `vp+jwt` signed by `jose` whose payload is a VC 2.0 presentation with
 *   EnvelopedVerifiableCredential entries (`data:application/vc+jwt,…`) and `nonce`/`aud`;
 * - VC-JWT 1.1: did-jwt-vc `createVerifiablePresentationJwt` (the `vp` claim, `nonce`, `aud`)
 *   carrying VC-JWT 1.1 credential JWT strings;
 * - SD-JWT VC: made by @sd-jwt/sd-jwt-vc with a KB-JWT (nonce, aud) signed by the holder's key,
 *   carried as an EnvelopedVerifiableCredential (`data:application/dc+sd-jwt,…`).
 *
 * Holders and issuers are did:keys, resolvable offline. A holder's Ed25519 key is one seed seen
 * by both stacks (the Digital Bazaar Multikey pair and node:crypto's KeyObject), so one holder
 * signs Data Integrity and JOSE presentations and is the `cnf` key of its SD-JWT VCs.
 * @digitalbazaar/vc verifies the Data Integrity presentations too (peerVerifyDiPresentation), for
 * side-by-side comparisons.
 */
import { createHash, randomBytes, sign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as ecdsaJcs from '@digitalbazaar/ecdsa-jcs-2019-cryptosuite';
import * as eddsaJcs from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { EdDSASigner } from 'did-jwt';
import { createVerifiablePresentationJwt } from 'did-jwt-vc';
import * as jose from 'jose';
import jsigs from 'jsonld-signatures';
import { jwtIssuer, offlineDocumentLoader, peerEd25519Issuer, VC1_CONTEXT, VC2_CONTEXT, type Json, type JwtIssuer, type PeerIssuer } from './peer-issuers.js';

/** What the presentations made here are bound to unless a test asks otherwise. */
export const CHALLENGE = 'peer-challenge-7f3a1c';
export const DOMAIN = 'https://verifier.example';
/** When the presentations are signed (proof `created`, JWT `iat`): a minute before PRESENTED_AT. */
export const SIGNED_AT = '2025-05-31T23:59:00Z';
/** The wall clock of the tests that verify them (test/support/runtime.ts fixedClock). */
export const PRESENTED_AT = '2025-06-01T00:00:00Z';
/** Presentations that expire do so ten minutes after they were signed. */
export const EXPIRES_AT = '2025-06-01T00:09:00Z';

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

// ---------------------------------------------------------------------------------------------
// Holders
// ---------------------------------------------------------------------------------------------

export interface PeerHolder {
  /** did:key of the holder (Ed25519). */
  did: string;
  /** `did:key:z…#z…`: the key in the holder's `authentication` (and every other) relationship. */
  verificationMethod: string;
  /** The Digital Bazaar side: Multikey pair for Data Integrity proofs. */
  di: PeerIssuer;
  /** The JOSE side: the same key as a node:crypto KeyObject (kid = verificationMethod). */
  jwt: JwtIssuer;
}

/** An Ed25519 did:key holder from a 32-byte seed (or one filled with `seed`); both stacks agree on its DID. */
export async function peerHolder(seed: Uint8Array | number = 21): Promise<PeerHolder> {
  const bytes = typeof seed === 'number' ? new Uint8Array(32).fill(seed) : seed;
  const di = await peerEd25519Issuer(bytes);
  const jwt = jwtIssuer('EdDSA', bytes);
  if (di.did !== jwt.did) throw new Error(`holder: the two stacks disagree on the DID (${di.did} vs ${jwt.did})`);
  return { did: di.did, verificationMethod: di.verificationMethod, di, jwt };
}

// ---------------------------------------------------------------------------------------------
// Data Integrity presentations (@digitalbazaar/vc)
// ---------------------------------------------------------------------------------------------

/** A VC 2.0 presentation body (no proof) by `holder` carrying `credentials`, `extra` merged in. */
export function unsignedPresentation(holder: string | null, credentials: unknown[], extra: Json = {}): Json {
  return {
    '@context': [VC2_CONTEXT],
    id: 'urn:uuid:7a1e0c52-0000-4000-8000-00000000000a',
    type: ['VerifiablePresentation'],
    ...(holder === null ? {} : { holder }),
    verifiableCredential: credentials,
    ...extra,
  };
}

export interface DiPresentationOptions {
  /**
   * Default CHALLENGE. null: no challenge and no domain in the proof (the library's
   * AuthenticationProofPurpose requires a challenge, so a bare `authentication` purpose signs).
   */
  challenge?: string | null;
  /** Default DOMAIN; null for none. */
  domain?: string | null;
  /** Proof `created` (default SIGNED_AT). */
  created?: string;
  /** Proof `expires`, signed with the rest of the proof options. */
  expires?: string;
}

/**
 * Signs `presentation` with @digitalbazaar/vc `signPresentation`: an eddsa-jcs-2022
 * DataIntegrityProof by `holder`, proofPurpose `authentication`, bound to `challenge` and `domain`.
 */
export async function signDiPresentation(presentation: Json, holder: PeerHolder, options: DiPresentationOptions = {}): Promise<Json> {
  const suite = new DataIntegrityProof({
    signer: holder.di.keyPair.signer(),
    date: options.created ?? SIGNED_AT,
    cryptosuite: eddsaJcs.createSignCryptosuite(),
  });
  if (options.expires !== undefined) suite.proof = { expires: options.expires };
  const domain = options.domain === undefined ? DOMAIN : options.domain;
  // The library adds the proof to the object it is given: sign a copy.
  const document = structuredClone(presentation);
  if (options.challenge === null) {
    const purpose = new jsigs.purposes.ControllerProofPurpose({ term: 'authentication' });
    return vc.signPresentation({ presentation: document, suite, documentLoader: offlineDocumentLoader, purpose });
  }
  return vc.signPresentation({
    presentation: document,
    suite,
    documentLoader: offlineDocumentLoader,
    challenge: options.challenge ?? CHALLENGE,
    ...(domain === null ? {} : { domain }),
  });
}

export interface PeerPresentationResult {
  verified: boolean;
  /** The presentation proof's own result (absent when the library threw before it). */
  presentationVerified: boolean | null;
  /** Each credential's result, in order. */
  credentialsVerified: boolean[];
}

/**
 * @digitalbazaar/vc `verify` of a Data Integrity presentation, offline, with both JCS suites:
 * every credential, then the presentation proof with an AuthenticationProofPurpose bound to
 * `challenge` and `domain`. Status is not checked (svc's job here).
 */
export async function peerVerifyDiPresentation(presentation: Json, expected: { challenge?: string; domain?: string } = {}): Promise<PeerPresentationResult> {
  const result = await vc.verify({
    presentation: structuredClone(presentation),
    suite: [
      new DataIntegrityProof({ cryptosuite: eddsaJcs.createVerifyCryptosuite() }),
      new DataIntegrityProof({ cryptosuite: ecdsaJcs.createVerifyCryptosuite() }),
    ],
    documentLoader: offlineDocumentLoader,
    challenge: expected.challenge ?? CHALLENGE,
    ...(expected.domain === undefined ? { domain: DOMAIN } : { domain: expected.domain }),
    checkStatus: async () => ({ verified: true }),
  });
  return {
    verified: result.verified,
    presentationVerified: result.presentationResult?.verified ?? null,
    credentialsVerified: (result.credentialResults ?? []).map((r) => r.verified),
  };
}

// ---------------------------------------------------------------------------------------------
// Enveloped credentials
// ---------------------------------------------------------------------------------------------

/** An EnvelopedVerifiableCredential: `{@context, id: data:<mediaType>,<secured>, type}`. */
export function envelopedCredential(mediaType: string, secured: string): Json {
  return { '@context': VC2_CONTEXT, id: `data:${mediaType},${secured}`, type: 'EnvelopedVerifiableCredential' };
}

// ---------------------------------------------------------------------------------------------
// VC-JOSE-COSE presentations (jose)
// ---------------------------------------------------------------------------------------------

export interface VpJwtOptions {
  /** `nonce` claim (default CHALLENGE; null for none). */
  nonce?: string | null;
  /** `aud` claim (default DOMAIN; null for none). */
  aud?: string | string[] | null;
  /** `iat` (default SIGNED_AT). */
  iat?: string;
  /** `exp` (default none). */
  exp?: string;
  /** Protected header members over `{alg: EdDSA, typ: vp+jwt, kid}`. */
  header?: Record<string, unknown>;
}

/**
 * A `vp+jwt` (VC-JOSE-COSE): the VC 2.0 presentation as the JWT payload, with `nonce`, `aud`,
 * `iat` (and `exp`) beside it, signed by jose with the holder's Ed25519 key, `kid` its did:key URL.
 */
export async function signVpJwt(presentation: Json, holder: PeerHolder, options: VpJwtOptions = {}): Promise<string> {
  const nonce = options.nonce === undefined ? CHALLENGE : options.nonce;
  const aud = options.aud === undefined ? DOMAIN : options.aud;
  const payload: Json = {
    ...presentation,
    iat: seconds(options.iat ?? SIGNED_AT),
    ...(options.exp === undefined ? {} : { exp: seconds(options.exp) }),
    ...(nonce === null ? {} : { nonce }),
    ...(aud === null ? {} : { aud }),
  };
  const header = { alg: 'EdDSA', typ: 'vp+jwt', kid: holder.verificationMethod, ...options.header };
  return new jose.SignJWT(payload).setProtectedHeader(header as jose.JWTHeaderParameters).sign(holder.jwt.privateKey);
}

// ---------------------------------------------------------------------------------------------
// VC-JWT 1.1 presentations (did-jwt-vc)
// ---------------------------------------------------------------------------------------------

export interface VpJwt11Options {
  nonce?: string | null;
  aud?: string | null;
  iat?: string;
  exp?: string;
}

/**
 * A VC-JWT 1.1 presentation by did-jwt-vc `createVerifiablePresentationJwt` with did-jwt's
 * EdDSASigner: header `{alg: EdDSA, typ: JWT}` (no kid), `iss` = the holder DID, the VC 1.1
 * presentation in the `vp` claim carrying `credentials` (VC-JWT 1.1 strings), `nonce` and `aud`.
 */
export async function signVpJwt11(credentials: string[], holder: PeerHolder, options: VpJwt11Options = {}): Promise<string> {
  const nonce = options.nonce === undefined ? CHALLENGE : options.nonce;
  const aud = options.aud === undefined ? DOMAIN : options.aud;
  const payload = {
    vp: { '@context': [VC1_CONTEXT], type: ['VerifiablePresentation'], verifiableCredential: credentials },
    iat: seconds(options.iat ?? SIGNED_AT),
    ...(options.exp === undefined ? {} : { exp: seconds(options.exp) }),
    ...(nonce === null ? {} : { nonce }),
    ...(aud === null ? {} : { aud }),
  };
  return createVerifiablePresentationJwt(payload as Parameters<typeof createVerifiablePresentationJwt>[0], {
    did: holder.did,
    signer: EdDSASigner(holder.jwt.secret),
    alg: 'EdDSA',
  });
}

// ---------------------------------------------------------------------------------------------
// SD-JWT VC with a KB-JWT (@sd-jwt/sd-jwt-vc)
// ---------------------------------------------------------------------------------------------

export const SD_JWT_VCT = 'https://credentials.example/identity';

const sha256 = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  if (alg !== 'sha-256') throw new Error(`unexpected hash ${alg}`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};
const edSigner = (key: KeyObject) => (data: string) => sign(null, Buffer.from(data), key).toString('base64url');

export interface SdJwtVcOptions {
  /** KB-JWT `nonce` (default CHALLENGE). */
  nonce?: string;
  /** KB-JWT `aud` (default DOMAIN). */
  aud?: string;
  /** Issuer JWT and KB-JWT `iat` (default SIGNED_AT). */
  iat?: string;
  /** Claims, every one selectively disclosable and disclosed. */
  claims?: Json;
}

/**
 * An SD-JWT VC presentation by @sd-jwt/sd-jwt-vc: issued by `issuer` (EdDSA did:key, `kid` in
 * the header, `iss` its DID) to `holder` (`cnf.jwk` the holder's key, `sub` its DID), every claim
 * disclosed, with a KB-JWT signed by the holder carrying `nonce`, `aud` and `iat`.
 */
export async function issueSdJwtVc(issuer: JwtIssuer, holder: PeerHolder, options: SdJwtVcOptions = {}): Promise<string> {
  const iat = seconds(options.iat ?? SIGNED_AT);
  const claims = options.claims ?? { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1963-08-12' };
  const sdjwt = new SDJwtVcInstance({
    signer: edSigner(issuer.privateKey),
    signAlg: 'EdDSA',
    verifier: (data, signature) => cryptoVerify(null, Buffer.from(data), issuer.publicKey, Buffer.from(signature, 'base64url')),
    hasher: sha256,
    hashAlg: 'sha-256',
    saltGenerator: () => randomBytes(16).toString('base64url'),
    kbSigner: edSigner(holder.jwt.privateKey),
    kbSignAlg: 'EdDSA',
  });
  const payload = { iss: issuer.did, vct: SD_JWT_VCT, iat, sub: holder.did, cnf: { jwk: holder.jwt.publicKey.export({ format: 'jwk' }) }, ...claims };
  const issued = await sdjwt.issue(payload as never, { _sd: Object.keys(claims) } as never, { header: { kid: issuer.kid } });
  return sdjwt.present(issued, undefined, { kb: { payload: { iat, aud: options.aud ?? DOMAIN, nonce: options.nonce ?? CHALLENGE } as never } });
}

// ---------------------------------------------------------------------------------------------
// Tampering
// ---------------------------------------------------------------------------------------------

/** The compact JWS with its payload's first `from` changed to `to` (same length: one byte), the signature kept. */
export function tamperJwsPayload(token: string, from = 'Alice', to = 'Alicf'): string {
  const [h, p, ...rest] = token.split('.') as [string, string, ...string[]];
  const text = Buffer.from(p, 'base64url').toString('utf8');
  if (!text.includes(from)) throw new Error(`nothing to tamper with: no "${from}" in the payload`);
  return [h, Buffer.from(text.replace(from, to)).toString('base64url'), ...rest].join('.');
}
