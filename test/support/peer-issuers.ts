/**
 * Credentials made during the test run by independent peer libraries, so svc's verifier is
 * checked against other people's signers rather than against its own code:
 *
 * - Data Integrity (`eddsa-jcs-2022`, `ecdsa-jcs-2019` P-256) by Digital Bazaar's stack
 *   (@digitalbazaar/vc + data-integrity + the JCS cryptosuites + did-method-key), with an
 *   offline document loader that serves only the bundled contexts and did:key documents;
 * - Bitstring Status List credentials from @digitalbazaar/vc-bitstring-status-list, signed the
 *   same way (plus legacy StatusList2021 lists and lists with an arbitrary `encodedList`);
 * - VC-JOSE (`typ: vc+jwt`) by `jose` (EdDSA, ES256) and by `did-jwt` (ES256K, which jose 6 does
 *   not sign), and VC-JWT 1.1 by `did-jwt-vc` + `did-jwt` (header `{alg: EdDSA, typ: JWT}`, no kid).
 *
 * Keys come from fixed seeds unless told otherwise, so DIDs are stable between runs (ECDSA
 * signatures still differ run to run). Every issuer is a did:key, resolvable offline. The same
 * libraries verify, for side-by-side comparisons (peerVerifyDi, peerVerifyVcJwt, peerVerifyVcJwt11).
 *
 * Node 20 notes: did-jwt stays on 8.x and the
 * DB cryptosuites bring canonicalize 2.x; @digitalbazaar/credentials-context has named exports
 * only, data-integrity-context is CommonJS (default export).
 */
import { createECDH, createPrivateKey, createPublicKey, ECDH, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import * as credentialsContext from '@digitalbazaar/credentials-context';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import { driver as didKeyDriver } from '@digitalbazaar/did-method-key';
import * as ecdsaJcs from '@digitalbazaar/ecdsa-jcs-2019-cryptosuite';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as eddsaJcs from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import * as bitstringStatusList from '@digitalbazaar/vc-bitstring-status-list';
import { createJWS, EdDSASigner, ES256KSigner, verifyJWS } from 'did-jwt';
import { createVerifiableCredentialJwt, verifyCredential as didJwtVerifyCredential } from 'did-jwt-vc';
import * as jose from 'jose';
import jsigs from 'jsonld-signatures';
import type { DocumentLoader, MultikeyKeyPair } from 'peer-libs/types';
import { b64url, multikey, splitMultikey } from './codec.js';

export type Json = Record<string, unknown>;

export const VC2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const VC1_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
export const STATUS_LIST_2021_CONTEXT = 'https://w3id.org/vc/status-list/2021/v1';
/** `created` of the proofs made here unless a test asks otherwise. */
export const DEFAULT_CREATED = '2025-01-01T00:00:00Z';

// ---------------------------------------------------------------------------------------------
// did:key and the offline document loader
// ---------------------------------------------------------------------------------------------

const didKey = didKeyDriver();
didKey.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
didKey.use({ multibaseMultikeyHeader: 'zDna', fromMultibase: EcdsaMultikey.from });

const contexts = new Map<string, unknown>([...credentialsContext.contexts, ...dataIntegrityContext.contexts]);

/** Serves bundled contexts and did:key documents; refuses every other URL (no network). */
export const offlineDocumentLoader: DocumentLoader = async (url) => {
  if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
  if (url.startsWith('did:key:')) return { contextUrl: null, documentUrl: url, document: await didKey.get({ url }) };
  throw new Error(`offline document loader: refusing ${url}`);
};

// ---------------------------------------------------------------------------------------------
// Data Integrity issuers
// ---------------------------------------------------------------------------------------------

export interface PeerIssuer {
  /** did:key of the issuer. */
  did: string;
  /** `did:key:z…#z…`, the assertionMethod key. */
  verificationMethod: string;
  curve: 'Ed25519' | 'P-256';
  cryptosuite: 'eddsa-jcs-2022' | 'ecdsa-jcs-2019';
  /** The DB Multikey key pair (id and controller set). */
  keyPair: MultikeyKeyPair;
}

async function peerIssuer(keyPair: MultikeyKeyPair, curve: PeerIssuer['curve']): Promise<PeerIssuer> {
  const { didDocument, methodFor } = await didKey.fromKeyPair({ verificationKeyPair: keyPair });
  keyPair.id = methodFor({ purpose: 'assertionMethod' }).id;
  keyPair.controller = didDocument.id;
  return {
    did: didDocument.id,
    verificationMethod: keyPair.id,
    curve,
    cryptosuite: curve === 'Ed25519' ? 'eddsa-jcs-2022' : 'ecdsa-jcs-2019',
    keyPair,
  };
}

/** An Ed25519 did:key issuer (ed25519-multikey); seeded by `seed` (32 bytes), default a fixed seed. */
export async function peerEd25519Issuer(seed: Uint8Array | number = 1): Promise<PeerIssuer> {
  const bytes = typeof seed === 'number' ? new Uint8Array(32).fill(seed) : seed;
  return peerIssuer(await Ed25519Multikey.generate({ seed: bytes }), 'Ed25519');
}

/** A P-256 did:key issuer (ecdsa-multikey); a fresh key each call (the library takes no seed). */
export async function peerP256Issuer(): Promise<PeerIssuer> {
  return peerIssuer(await EcdsaMultikey.generate({ curve: 'P-256' }), 'P-256');
}

export interface IssueOptions {
  /** Proof `created` (default DEFAULT_CREATED; null for none). */
  created?: string | null;
  /**
   * Sign with jsonld-signatures directly instead of @digitalbazaar/vc `issue`, skipping the VC
   * data model checks of `issue` (for deliberately odd credentials).
   */
  bare?: boolean;
}

async function issueWith(credential: Json, issuer: PeerIssuer, cryptosuite: PeerIssuer['cryptosuite'], options: IssueOptions): Promise<Json> {
  if (issuer.cryptosuite !== cryptosuite)
    throw new Error(`${cryptosuite} needs a ${cryptosuite === 'eddsa-jcs-2022' ? 'Ed25519' : 'P-256'} issuer, not ${issuer.curve}`);
  const suite = new DataIntegrityProof({
    signer: issuer.keyPair.signer(),
    date: options.created === undefined ? DEFAULT_CREATED : options.created,
    cryptosuite: cryptosuite === 'eddsa-jcs-2022' ? eddsaJcs.createSignCryptosuite() : ecdsaJcs.createSignCryptosuite(),
  });
  // Both libraries add the proof to the object they are given: sign a copy.
  const document = structuredClone(credential);
  if (options.bare) {
    return jsigs.sign(document, { suite, purpose: new jsigs.purposes.AssertionProofPurpose(), documentLoader: offlineDocumentLoader });
  }
  return vc.issue({ credential: document, suite, documentLoader: offlineDocumentLoader });
}

/** Signs `credential` with an eddsa-jcs-2022 DataIntegrityProof (assertionMethod) by an Ed25519 issuer. */
export function issueEddsaJcs(credential: Json, issuer: PeerIssuer, options: IssueOptions = {}): Promise<Json> {
  return issueWith(credential, issuer, 'eddsa-jcs-2022', options);
}

/** Signs `credential` with an ecdsa-jcs-2019 DataIntegrityProof (assertionMethod) by a P-256 issuer. */
export function issueEcdsaJcs(credential: Json, issuer: PeerIssuer, options: IssueOptions = {}): Promise<Json> {
  return issueWith(credential, issuer, 'ecdsa-jcs-2019', options);
}

/** Signs with the issuer's own suite (eddsa-jcs-2022 for Ed25519, ecdsa-jcs-2019 for P-256). */
export function issueDi(credential: Json, issuer: PeerIssuer, options: IssueOptions = {}): Promise<Json> {
  return issueWith(credential, issuer, issuer.cryptosuite, options);
}

/** A VC 2.0 credential body for `issuer` (no proof), with `extra` members merged in. */
export function unsignedCredential(issuer: string, extra: Json = {}): Json {
  return {
    '@context': [VC2_CONTEXT],
    id: 'urn:uuid:4c9f3a2e-0000-4000-8000-000000000001',
    type: ['VerifiableCredential'],
    issuer,
    validFrom: DEFAULT_CREATED,
    credentialSubject: { id: 'did:example:subject', name: 'Alice' },
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// Peer verification (side by side with svc)
// ---------------------------------------------------------------------------------------------

export interface PeerVerifier<T> {
  verify(credential: T): Promise<boolean>;
}

/** @digitalbazaar/vc verifyCredential with both JCS suites, offline; status is not checked. */
export function peerDiVerifier(): PeerVerifier<Json> {
  const suite = [
    new DataIntegrityProof({ cryptosuite: eddsaJcs.createVerifyCryptosuite() }),
    new DataIntegrityProof({ cryptosuite: ecdsaJcs.createVerifyCryptosuite() }),
  ];
  return {
    async verify(credential) {
      const result = await vc.verifyCredential({
        credential: structuredClone(credential),
        suite,
        documentLoader: offlineDocumentLoader,
        // The peer would refuse a credential with credentialStatus and no checker: status is svc's job here.
        checkStatus: async () => ({ verified: true }),
      });
      return result.verified;
    },
  };
}

const sharedDiVerifier = peerDiVerifier();

/** True when @digitalbazaar/vc verifies the Data Integrity credential (proof, dates, issuer). */
export function peerVerifyDi(credential: Json): Promise<boolean> {
  return sharedDiVerifier.verify(credential);
}

// ---------------------------------------------------------------------------------------------
// Status lists
// ---------------------------------------------------------------------------------------------

export interface StatusListOptions {
  issuer: PeerIssuer;
  /** URL of the list credential (also its `id`). */
  id: string;
  /** `credentialSubject.statusPurpose`: one purpose or several. */
  purpose: string | string[];
  /** Entries in the list (default 131072, the minimum). */
  length?: number;
  /** Indexes whose bit is set. */
  set?: number[];
  /** BitstringStatusList (default) or legacy StatusList2021. */
  kind?: 'bitstring' | 'statuslist2021';
  /** StatusList2021 only: the base64 alphabet of `encodedList` (default 'base64', the standard one). */
  alphabet?: 'base64' | 'base64url';
  /** Use this `encodedList` as-is instead of encoding a list (gzip bombs, odd encodings). */
  encodedList?: string;
  validFrom?: string;
  validUntil?: string;
  /** Members merged into the credential before signing (override anything above). */
  extra?: Json;
  /** Default true; false leaves the list without a proof. */
  sign?: boolean;
}

/** `encodedList` of a list made with vc-bitstring-status-list: `u` + base64url(GZIP(bits)). */
export async function encodeList(length: number, set: number[] = []): Promise<string> {
  const list = await bitstringStatusList.createList({ length });
  for (const index of set) list.setStatus(index, true);
  return list.encode();
}

/** True when vc-bitstring-status-list reads bit `index` of `encodedList` as set (`u`-prefixed). */
export async function peerListStatus(encodedList: string, index: number): Promise<boolean> {
  return (await bitstringStatusList.decodeList({ encodedList })).getStatus(index);
}

/** The same bytes as a StatusList2021 `encodedList`: no multibase prefix, in `alphabet`. */
export function toStatusList2021Encoding(encodedList: string, alphabet: 'base64' | 'base64url' = 'base64'): string {
  const bytes = Buffer.from(encodedList.slice(1), 'base64url');
  return alphabet === 'base64' ? bytes.toString('base64') : bytes.toString('base64url');
}

/** GZIP of `size` zero bytes (streamed, so the zeros are never held at once), as multibase base64url. */
export async function gzipBombEncodedList(size: number): Promise<string> {
  const { createGzip } = await import('node:zlib');
  const zip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
  });
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = size; left > 0; left -= zeros.length) {
    const piece = left >= zeros.length ? zeros : zeros.subarray(0, left);
    if (!zip.write(piece)) await new Promise((resolve) => zip.once('drain', resolve));
  }
  zip.end();
  await done;
  return `u${Buffer.concat(chunks).toString('base64url')}`;
}

/** GZIP of the given bytes as multibase base64url (for lists built byte by byte). */
export async function gzipEncodedList(bytes: Uint8Array): Promise<string> {
  return `u${(await promisify(gzip)(bytes)).toString('base64url')}`;
}

/**
 * A status list credential by `issuer`: a BitstringStatusListCredential made with
 * vc-bitstring-status-list `createCredential` (VC 2.0), or a StatusList2021Credential (VC 1.1
 * context + the 2021 context); `issuer` and `validFrom` (or `issuanceDate`) are added, then it
 * is signed with the issuer's JCS suite via @digitalbazaar/vc `issue` unless `sign` is false.
 */
export async function statusListCredential(options: StatusListOptions): Promise<Json> {
  const length = options.length ?? 131072;
  const purposes = Array.isArray(options.purpose) ? options.purpose : [options.purpose];
  let credential: Json;
  if ((options.kind ?? 'bitstring') === 'bitstring') {
    const list = await bitstringStatusList.createList({ length });
    for (const index of options.set ?? []) list.setStatus(index, true);
    credential = await bitstringStatusList.createCredential({ id: options.id, list, statusPurpose: purposes[0] ?? 'revocation' });
    const subject = credential['credentialSubject'] as Json;
    if (Array.isArray(options.purpose)) subject['statusPurpose'] = options.purpose;
    if (options.encodedList !== undefined) subject['encodedList'] = options.encodedList;
    credential = { ...credential, issuer: options.issuer.did, validFrom: options.validFrom ?? DEFAULT_CREATED };
  } else {
    const encodedList = options.encodedList ?? toStatusList2021Encoding(await encodeList(length, options.set), options.alphabet);
    credential = {
      '@context': [VC1_CONTEXT, STATUS_LIST_2021_CONTEXT],
      id: options.id,
      type: ['VerifiableCredential', 'StatusList2021Credential'],
      issuer: options.issuer.did,
      issuanceDate: options.validFrom ?? DEFAULT_CREATED,
      credentialSubject: { id: `${options.id}#list`, type: 'StatusList2021', statusPurpose: options.purpose, encodedList },
    };
  }
  if (options.validUntil !== undefined) credential[credential['issuanceDate'] ? 'expirationDate' : 'validUntil'] = options.validUntil;
  credential = { ...credential, ...options.extra };
  return options.sign === false ? credential : issueDi(credential, options.issuer);
}

/** A `credentialStatus` entry pointing at `listUrl`. */
export function statusEntry(listUrl: string, index: number | string, purpose = 'revocation', extra: Json = {}): Json {
  return {
    id: `${listUrl}#${index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: purpose,
    statusListIndex: String(index),
    statusListCredential: listUrl,
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// JOSE issuers: vc+jwt (jose, did-jwt) and VC-JWT 1.1 (did-jwt-vc)
// ---------------------------------------------------------------------------------------------

export type JwtAlg = 'EdDSA' | 'ES256' | 'ES256K';

export interface JwtIssuer {
  alg: JwtAlg;
  did: string;
  /** `${did}#${fragment}` (did:key: the fragment is the multibase key). */
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Raw private key: the Ed25519 seed or the EC scalar (32 bytes). */
  secret: Uint8Array;
  /** The public key as Multikey: `z` + base58btc(multicodec ‖ key). */
  publicKeyMultibase: string;
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const EC_CURVES = { ES256: { jwk: 'P-256', ecdh: 'prime256v1', codec: 0x1200 }, ES256K: { jwk: 'secp256k1', ecdh: 'secp256k1', codec: 0xe7 } } as const;

/**
 * A did:key JWT issuer from a 32-byte secret (default: a fixed one per algorithm). Ed25519:
 * `did:key:z` + base58btc(0xed 0x01 ‖ x); P-256 (0x1200) and secp256k1 (0xe7): the compressed point.
 */
export function jwtIssuer(alg: JwtAlg, secret: Uint8Array = new Uint8Array(32).fill(alg === 'EdDSA' ? 11 : alg === 'ES256' ? 12 : 13)): JwtIssuer {
  let privateKey: KeyObject;
  let publicKeyMultibase: string;
  if (alg === 'EdDSA') {
    privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secret]), format: 'der', type: 'pkcs8' });
    const x = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x as string, 'base64url');
    publicKeyMultibase = multikey(0xed, x);
  } else {
    const curve = EC_CURVES[alg];
    const ecdh = createECDH(curve.ecdh);
    ecdh.setPrivateKey(secret);
    const point = ecdh.getPublicKey();
    privateKey = createPrivateKey({
      format: 'jwk',
      key: { kty: 'EC', crv: curve.jwk, d: b64url(secret), x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
    });
    publicKeyMultibase = multikey(curve.codec, ecdh.getPublicKey(null, 'compressed'));
  }
  const did = `did:key:${publicKeyMultibase}`;
  return { alg, did, kid: `${did}#${publicKeyMultibase}`, privateKey, publicKey: createPublicKey(privateKey), secret, publicKeyMultibase };
}

function withoutUndefined(header: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(header).filter(([, v]) => v !== undefined));
}

/**
 * A VC-JOSE credential: compact JWS of `payload` (a VC 2.0 credential, as-is) with the protected
 * header `{alg, typ: 'vc+jwt', kid}` plus `header` (a member set to undefined is removed).
 * EdDSA and ES256 are signed by jose's SignJWT; ES256K by did-jwt's createJWS.
 */
export async function issueVcJwt(payload: Json, issuer: JwtIssuer, header: Record<string, unknown> = {}): Promise<string> {
  const protectedHeader = withoutUndefined({ alg: issuer.alg, typ: 'vc+jwt', kid: issuer.kid, ...header });
  if (issuer.alg === 'ES256K') {
    return createJWS(payload, ES256KSigner(issuer.secret), protectedHeader);
  }
  return new jose.SignJWT(payload).setProtectedHeader(protectedHeader as jose.JWTHeaderParameters).sign(issuer.privateKey);
}

/**
 * A VC-JWT 1.1 credential by did-jwt-vc `createVerifiableCredentialJwt` with did-jwt's
 * EdDSASigner: header `{alg: EdDSA, typ: JWT}` (no kid), `iss` = the issuer DID, the credential in
 * the `vc` claim, `extra` claims (sub, nbf, exp, jti, aud …) alongside. The issuer must be EdDSA.
 */
export async function issueVcJwt11(credential: Json, issuer: JwtIssuer, extra: Json = {}): Promise<string> {
  if (issuer.alg !== 'EdDSA') throw new Error('issueVcJwt11 signs with EdDSA issuers only');
  const payload = { nbf: Math.floor(Date.parse(DEFAULT_CREATED) / 1000), ...extra, vc: credential };
  return createVerifiableCredentialJwt(payload as Parameters<typeof createVerifiableCredentialJwt>[0], {
    did: issuer.did,
    signer: EdDSASigner(issuer.secret),
    alg: 'EdDSA',
  });
}

/** A VC 1.1 credential body (for the `vc` claim of VC-JWT 1.1); issuer and dates come from the JWT claims. */
export function unsignedCredential11(extra: Json = {}): Json {
  return {
    '@context': [VC1_CONTEXT],
    type: ['VerifiableCredential'],
    credentialSubject: { name: 'Alice' },
    ...extra,
  };
}

/** did:key resolution for did-jwt, by the DB did:key driver (Ed25519 and P-256 keys). */
const didKeyResolver: Parameters<typeof didJwtVerifyCredential>[1] = {
  resolve: async (didUrl: string) => ({
    didResolutionMetadata: { contentType: 'application/did+json' },
    didDocument: (await didKey.get({ did: didUrl.split('#')[0] ?? didUrl })) as never,
    didDocumentMetadata: {},
  }),
};

/** True when did-jwt-vc verifies the VC-JWT 1.1 offline (signature by a key of the issuer DID, nbf/exp). */
export async function peerVerifyVcJwt11(jwt: string, audience?: string): Promise<boolean> {
  try {
    await didJwtVerifyCredential(jwt, didKeyResolver, audience === undefined ? {} : { audience });
    return true;
  } catch {
    return false;
  }
}

/** The public JWK of a did:key (Ed25519, P-256, secp256k1) for jose. */
export function didKeyJwk(did: string): jose.JWK {
  const { code, key } = splitMultikey(did.slice('did:key:'.length));
  if (code === 0xed) return { kty: 'OKP', crv: 'Ed25519', x: b64url(key) };
  const curve = code === 0x1200 ? EC_CURVES.ES256 : code === 0xe7 ? EC_CURVES.ES256K : null;
  if (!curve) throw new Error(`unsupported did:key multicodec 0x${code.toString(16)}`);
  const point = ECDH.convertKey(key, curve.ecdh, undefined, undefined, 'uncompressed') as Buffer;
  return { kty: 'EC', crv: curve.jwk, x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) };
}

/**
 * True when a peer verifies a vc+jwt against the did:key named in its `kid`: jose for EdDSA and
 * ES256, did-jwt's verifyJWS for ES256K (jose 6 has no secp256k1).
 */
export async function peerVerifyVcJwt(jwt: string): Promise<boolean> {
  try {
    const header = jose.decodeProtectedHeader(jwt);
    const kid = header.kid ?? '';
    const did = kid.split('#')[0] ?? '';
    if (!did.startsWith('did:key:')) return false;
    const jwk = didKeyJwk(did);
    if (header.alg === 'ES256K') {
      verifyJWS(jwt, { id: kid, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk } as Parameters<typeof verifyJWS>[1]);
      return true;
    }
    await jose.compactVerify(jwt, await jose.importJWK(jwk, header.alg));
    return true;
  } catch {
    return false;
  }
}
