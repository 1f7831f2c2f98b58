/**
 * Domain linkage (DIF Well Known DID Configuration), verified from bytes: the didwebvh-py sample
 * (eddsa-jcs-2022), the DIF example (JSON-LD + JWT, expired, origin without scheme), and
 * self-made configurations signed with node:crypto for every status.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalize, sha256 } from '../../src/core/canonical.js';
import { base64urlDecode, base64urlEncode } from '../../src/core/encoding/base64url.js';
import { multibaseEncode } from '../../src/core/encoding/multibase.js';
import { checkVerificationMethod } from '../../src/core/keys/inspect.js';
import { encodeMulticodec } from '../../src/core/keys/multicodec.js';
import {
  DID_CONFIGURATION_CONTEXT,
  DOMAIN_BINDING_STATUSES,
  MAX_LINKED_DIDS,
  unfetchedBinding,
  verifyDidConfiguration,
  type DomainBindingEvidence,
  type LinkageCredentialEvidence,
  type LinkageInput,
} from '../../src/core/linkage/index.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws } from '../../src/core/proofs/jws.js';
import type { PublicKeyJwk } from '../../src/core/proofs/signature.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { DidDocument } from '../../src/core/resolve/types.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { signBytes } from '../support/signing.js';
import { testRuntime } from '../support/runtime.js';

const NOW = new Date('2026-11-21T00:00:00Z');
const YEAR = 365 * 24 * 3600;
const nowSeconds = Math.floor(NOW.getTime() / 1000);

function input(did: string, document: DidDocument, body: Uint8Array | string, origin = 'https://example.com', now = NOW): LinkageInput {
  return {
    did,
    document,
    origin,
    configurationUrl: `${origin}/.well-known/did-configuration.json`,
    body: typeof body === 'string' ? new Uint8Array(Buffer.from(body, 'utf8')) : body,
    now,
  };
}

/** The reason with its first letter lower-cased, to look for a clause wherever it stands. */
function clause(evidence: { reason: string }): string {
  return evidence.reason.charAt(0).toLowerCase() + evidence.reason.slice(1);
}

function only(evidence: DomainBindingEvidence): LinkageCredentialEvidence {
  expect(evidence.credentials).toHaveLength(1);
  return evidence.credentials[0]!;
}

// ---------------------------------------------------------------------------------------------
// fixtures

describeWithFixtures('did-configuration: didwebvh-py sample (eddsa-jcs-2022)', 'didwebvh-py-sample/sample-diddoc', (dir) => {
  const DID = 'did:webvh:QmNdazvnrgei4agYFMVJjYduyZSYHcYWnHEgNW7A1sMUoU:domain.example';
  const KEY = `${DID}#z6MkkQ7ziv3QXSG2JKh1BvW9p31qaGieUJscDqz32osWrgbK`;
  const body = readFileSync(path.join(dir, 'did-configuration.json'));
  const v2 = JSON.parse(readFileSync(path.join(dir, 'did-v2.json'), 'utf8')) as DidDocument;
  const v1 = JSON.parse(readFileSync(path.join(dir, 'did-v1.json'), 'utf8')) as DidDocument;

  it('is VERIFIED for https://domain.example with the did-v2 document', async () => {
    const result = await verifyDidConfiguration(input(DID, v2, body, 'https://domain.example'));
    expect(result.status).toBe('VERIFIED');
    expect(result.reason).toBe('A DomainLinkageCredential for the DID was verified (eddsa-jcs-2022) for https://domain.example.');
    expect(result.configurationUrl).toBe('https://domain.example/.well-known/did-configuration.json');
    expect(only(result)).toEqual({
      index: 0,
      format: 'DATA_INTEGRITY',
      status: 'VERIFIED',
      reason: `A DomainLinkageCredential (eddsa-jcs-2022) issued by the DID for https://domain.example was verified with ${KEY}; valid from 2025-05-09T22:33:42Z with no expiry.`,
      issuer: DID,
      subject: DID,
      origin: 'https://domain.example',
      proof: 'eddsa-jcs-2022',
      verificationMethod: KEY,
      validFrom: '2025-05-09T22:33:42Z',
      validUntil: null,
    });
  });

  it('is INVALID_PROOF with did-v1.json, which declares no key yet', async () => {
    const result = await verifyDidConfiguration(input(DID, v1, body, 'https://domain.example'));
    expect(result.status).toBe('INVALID_PROOF');
    expect(only(result).reason).toBe(`The key ${KEY} is not a verification method of the DID document.`);
  });

  it('is NOT_LINKED for https://other.example (and says the proof itself verifies)', async () => {
    const result = await verifyDidConfiguration(input(DID, v2, body, 'https://other.example'));
    expect(result.status).toBe('NOT_LINKED');
    expect(only(result).status).toBe('NOT_LINKED');
    expect(clause(only(result))).toContain("it links the origin 'https://domain.example', not https://other.example");
    expect(clause(only(result))).toContain('eddsa-jcs-2022 proof verifies');
    expect(result.reason).toMatch(/^The only entry concerns the DID, but none links it to https:\/\/other\.example: /);
  });

  it('is INVALID_PROOF when one byte of the credential changes', async () => {
    const text = body.toString('utf8');
    const tampered = text.replace('"validFrom": "2025-05-09T22:33:42Z"', '"validFrom": "2025-05-09T22:33:43Z"');
    expect(tampered).not.toBe(text);
    const result = await verifyDidConfiguration(input(DID, v2, tampered, 'https://domain.example'));
    expect(result.status).toBe('INVALID_PROOF');
    expect(only(result).reason).toBe('The Ed25519 signature does not verify.');
    expect(result.reason).toBe('The only entry concerns the DID; entry 1 (eddsa-jcs-2022) fails verification: the Ed25519 signature does not verify.');
  });

  it('is NOT_LINKED for another DID', async () => {
    const other = { ...v2, id: 'did:webvh:QmOther:domain.example' };
    const result = await verifyDidConfiguration(input(other.id, other, body, 'https://domain.example'));
    expect(result.status).toBe('NOT_LINKED');
    expect(clause(only(result))).toContain(`it was issued by ${DID}`);
    expect(result.reason).toBe(`The only entry does not concern the DID; the file links ${DID}.`);
  });
});

describeWithFixtures('did-configuration: DIF example (JSON-LD and JWT)', 'did-configuration', (dir) => {
  const DID = 'did:key:z6MkoTHsgNNrby8JzCNQ1iRLyW5QQ6R8Xuu6AA8igGrMVPUM';
  const KEY = `${DID}#z6MkoTHsgNNrby8JzCNQ1iRLyW5QQ6R8Xuu6AA8igGrMVPUM`;
  const body = readFileSync(path.join(dir, 'dif-example-did-configuration.json'));
  const config = JSON.parse(body.toString('utf8')) as { linked_dids: [Record<string, unknown>, string] };
  let document: DidDocument;
  let result: DomainBindingEvidence;

  beforeAll(async () => {
    document = (await resolve(DID, testRuntime())).didDocument;
    result = await verifyDidConfiguration(input(DID, document, body, 'https://identity.foundation'));
  });

  it('the JWT says what the test expects: origin without scheme, expired 2025-12-04T20:12:19Z', () => {
    const parsed = parseCompactJws(config.linked_dids[1]);
    if (isJwsParseError(parsed)) throw new Error(parsed.error);
    expect(parsed.header).toEqual({ alg: 'EdDSA', kid: KEY });
    const payload = parsed.payload as Record<string, unknown>;
    expect(payload).toMatchObject({ iss: DID, sub: DID, exp: 1764879139, nbf: 1607112739 });
    expect((payload['vc'] as { credentialSubject: unknown }).credentialSubject).toEqual({ id: DID, origin: 'identity.foundation' });
  });

  it('its JWT signature itself verifies (EdDSA, with the did:key key)', async () => {
    const parsed = parseCompactJws(config.linked_dids[1]);
    if (isJwsParseError(parsed)) throw new Error(parsed.error);
    const method = (document['verificationMethod'] as Array<{ id: string }>).find((m) => m.id === KEY);
    const key = await checkVerificationMethod(method);
    expect(key.status).toBe('VALID_KEY');
    expect(checkJwsSignature(parsed, key.publicJwk!)).toEqual({ valid: true });
  });

  it('the JSON-LD entry is UNSUPPORTED_PROOF (Ed25519Signature2018), its expiry mentioned', () => {
    const entry = result.credentials[0]!;
    expect(entry).toMatchObject({
      index: 0,
      format: 'DATA_INTEGRITY',
      status: 'UNSUPPORTED_PROOF',
      issuer: DID,
      subject: DID,
      origin: 'https://identity.foundation',
      proof: 'Ed25519Signature2018',
      verificationMethod: KEY,
      validFrom: '2020-12-04T20:08:28Z',
      validUntil: '2025-12-04T20:08:28Z',
    });
    expect(entry.reason).toBe(
      'Proof type Ed25519Signature2018 (JSON-LD) is not supported; only eddsa-jcs-2022 and JWT are verified; the credential expired on 2025-12-04T20:08:28Z.',
    );
  });

  it('the JWT entry is MALFORMED: no scheme in the origin, expired, signature verifies', () => {
    const entry = result.credentials[1]!;
    expect(entry).toMatchObject({
      index: 1,
      format: 'JWT',
      status: 'MALFORMED',
      issuer: DID,
      subject: DID,
      origin: 'identity.foundation',
      proof: 'EdDSA',
      verificationMethod: KEY,
      validFrom: '2020-12-04T20:12:19Z',
      validUntil: '2025-12-04T20:12:19Z',
    });
    expect(entry.reason).toBe(
      `The origin 'identity.foundation' has no scheme; the credential expired on 2025-12-04T20:12:19Z; its EdDSA signature verifies with ${KEY}.`,
    );
  });

  it('is MALFORMED overall (MALFORMED outranks UNSUPPORTED_PROOF among entries about the DID)', () => {
    expect(result.status).toBe('MALFORMED');
    expect(result.reason).toMatch(
      /^Both entries concern the DID; entry 2 \(JWT, EdDSA\) is malformed: the origin 'identity\.foundation' has no scheme; the credential expired on 2025-12-04T20:12:19Z/,
    );
  });

  it('before the expiry, the JWT is still MALFORMED for its origin; the JSON-LD one still unsupported', async () => {
    const earlier = await verifyDidConfiguration(input(DID, document, body, 'https://identity.foundation', new Date('2024-01-01T00:00:00Z')));
    expect(earlier.credentials.map((c) => c.status)).toEqual(['UNSUPPORTED_PROOF', 'MALFORMED']);
    expect(earlier.credentials[1]!.reason).toBe(`The origin 'identity.foundation' has no scheme; its EdDSA signature verifies with ${KEY}.`);
    expect(earlier.credentials[0]!.reason).not.toContain('expired');
  });
});

// ---------------------------------------------------------------------------------------------
// self-made credentials

type Alg = 'EdDSA' | 'ES256' | 'ES256K';

interface Signer {
  alg: Alg;
  did: string;
  kid: string;
  privateKey: KeyObject;
  publicJwk: PublicKeyJwk;
  document: DidDocument;
}

async function didKeySigner(): Promise<Signer> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' }) as PublicKeyJwk;
  const multikey = multibaseEncode(encodeMulticodec(0xed, base64urlDecode(publicJwk.x!)!));
  const did = `did:key:${multikey}`;
  const document = (await resolve(did, testRuntime())).didDocument;
  return { alg: 'EdDSA', did, kid: `${did}#${multikey}`, privateKey, publicJwk, document };
}

async function didJwkSigner(alg: 'ES256' | 'ES256K'): Promise<Signer> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: alg === 'ES256' ? 'P-256' : 'secp256k1' });
  const publicJwk = publicKey.export({ format: 'jwk' }) as PublicKeyJwk;
  const did = `did:jwk:${base64urlEncode(Buffer.from(JSON.stringify(publicJwk)))}`;
  const document = (await resolve(did, testRuntime())).didDocument;
  return { alg, did, kid: `${did}#0`, privateKey, publicJwk, document };
}

/** A did:web-style document written by hand: keys as JsonWebKey2020, relationships chosen by the test. */
function webSigner(relationships: { assertionMethod?: boolean; authentication?: boolean } = { assertionMethod: true }): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' }) as PublicKeyJwk;
  const did = 'did:web:example.com';
  const document: DidDocument = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: publicJwk }],
    ...(relationships.assertionMethod ? { assertionMethod: ['#key-1'] } : {}),
    ...(relationships.authentication ? { authentication: ['#key-1'] } : {}),
  };
  return { alg: 'ES256', did, kid: `${did}#key-1`, privateKey, publicJwk, document };
}

interface JwtOptions {
  origin?: string;
  iss?: string;
  sub?: string;
  subjectId?: string;
  nbf?: number | undefined;
  exp?: number | undefined;
  kid?: string | undefined;
  alg?: string;
  header?: Record<string, unknown>;
  payload?: Record<string, unknown>;
}

function linkageJwt(signer: Signer, o: JwtOptions = {}): string {
  const iss = o.iss ?? signer.did;
  const sub = o.sub ?? signer.did;
  const header = { alg: o.alg ?? signer.alg, ...('kid' in o ? (o.kid === undefined ? {} : { kid: o.kid }) : { kid: signer.kid }), ...o.header };
  const payload: Record<string, unknown> = {
    iss,
    sub,
    nbf: 'nbf' in o ? o.nbf : nowSeconds - YEAR,
    exp: 'exp' in o ? o.exp : nowSeconds + YEAR,
    vc: {
      '@context': ['https://www.w3.org/2018/credentials/v1', DID_CONFIGURATION_CONTEXT],
      issuer: iss,
      type: ['VerifiableCredential', 'DomainLinkageCredential'],
      credentialSubject: { id: o.subjectId ?? sub, origin: o.origin ?? 'https://example.com' },
    },
    ...o.payload,
  };
  const input = `${base64urlEncode(Buffer.from(JSON.stringify(header)))}.${base64urlEncode(Buffer.from(JSON.stringify(payload)))}`;
  return `${input}.${base64urlEncode(signBytes(String(header.alg), signer.privateKey, Buffer.from(input)))}`;
}

interface DiOptions {
  origin?: string;
  issuer?: string | Record<string, unknown>;
  subjectId?: string;
  validFrom?: string;
  validUntil?: string;
  verificationMethod?: string;
  proofPurpose?: string;
  extra?: Record<string, unknown>;
  proof?: Record<string, unknown>;
}

/** A DomainLinkageCredential secured with eddsa-jcs-2022 (vc-di-eddsa §3.3.1, proof @context copied). */
function linkageDi(signer: Signer, o: DiOptions = {}): Record<string, unknown> {
  const credential: Record<string, unknown> = {
    '@context': ['https://www.w3.org/ns/credentials/v2', DID_CONFIGURATION_CONTEXT],
    type: ['VerifiableCredential', 'DomainLinkageCredential'],
    issuer: o.issuer ?? signer.did,
    validFrom: o.validFrom ?? '2025-01-01T00:00:00Z',
    ...(o.validUntil ? { validUntil: o.validUntil } : {}),
    credentialSubject: { id: o.subjectId ?? signer.did, origin: o.origin ?? 'https://example.com' },
    ...o.extra,
  };
  const proof: Record<string, unknown> = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created: '2025-01-01T00:00:00Z',
    verificationMethod: o.verificationMethod ?? signer.kid,
    proofPurpose: o.proofPurpose ?? 'assertionMethod',
    '@context': credential['@context'],
    ...o.proof,
  };
  const data = Buffer.concat([sha256(canonicalize(proof)), sha256(canonicalize(credential))]);
  return { ...credential, proof: { ...proof, proofValue: multibaseEncode(new Uint8Array(sign(null, data, signer.privateKey))) } };
}

function configuration(entries: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ '@context': DID_CONFIGURATION_CONTEXT, linked_dids: entries, ...extra });
}

async function check(signer: Signer, entries: unknown[], origin = 'https://example.com', document = signer.document): Promise<DomainBindingEvidence> {
  return verifyDidConfiguration(input(signer.did, document, configuration(entries), origin));
}

describe('did-configuration: VERIFIED', () => {
  let ed: Signer;
  let p256: Signer;
  let k1: Signer;
  beforeAll(async () => {
    ed = await didKeySigner();
    p256 = await didJwkSigner('ES256');
    k1 = await didJwkSigner('ES256K');
  });

  it('JWT EdDSA (did:key)', async () => {
    const result = await check(ed, [linkageJwt(ed)]);
    expect(result.status).toBe('VERIFIED');
    expect(result.reason).toBe('A DomainLinkageCredential for the DID was verified (JWT, EdDSA) for https://example.com.');
    expect(only(result)).toMatchObject({
      format: 'JWT',
      status: 'VERIFIED',
      proof: 'EdDSA',
      verificationMethod: ed.kid,
      issuer: ed.did,
      subject: ed.did,
      origin: 'https://example.com',
    });
    expect(only(result).reason).toMatch(
      /^A DomainLinkageCredential \(JWT, EdDSA\) issued by the DID for https:\/\/example\.com was verified with did:key:z6Mk.+; valid from .+Z until .+Z\.$/,
    );
  });

  it('JWT ES256 (did:jwk P-256)', async () => {
    const result = await check(p256, [linkageJwt(p256)]);
    expect(result.status).toBe('VERIFIED');
    expect(only(result)).toMatchObject({ proof: 'ES256', verificationMethod: `${p256.did}#0` });
  });

  it('JWT ES256K (did:jwk secp256k1)', async () => {
    const result = await check(k1, [linkageJwt(k1)]);
    expect(result.status).toBe('VERIFIED');
    expect(only(result).proof).toBe('ES256K');
  });

  it('JWT ES256 with a hand-written did:web document and a relative kid', async () => {
    const web = webSigner();
    const result = await check(web, [linkageJwt(web, { kid: '#key-1' })]);
    expect(result.status).toBe('VERIFIED');
    expect(only(result).verificationMethod).toBe('did:web:example.com#key-1');
  });

  it('Data Integrity eddsa-jcs-2022 (did:key), issuer as an object', async () => {
    const result = await check(ed, [linkageDi(ed, { issuer: { id: ed.did, name: 'Example' }, validUntil: '2030-01-01T00:00:00Z' })]);
    expect(result.status).toBe('VERIFIED');
    expect(result.reason).toBe('A DomainLinkageCredential for the DID was verified (eddsa-jcs-2022) for https://example.com.');
    expect(only(result)).toMatchObject({
      format: 'DATA_INTEGRITY',
      proof: 'eddsa-jcs-2022',
      validFrom: '2025-01-01T00:00:00Z',
      validUntil: '2030-01-01T00:00:00Z',
    });
  });

  it('compares origins after lower-casing scheme and host, ports included', async () => {
    const result = await check(ed, [linkageJwt(ed, { origin: 'HTTPS://LocalHost:8443' })], 'https://localhost:8443');
    expect(result.status).toBe('VERIFIED');
    expect(only(result).origin).toBe('HTTPS://LocalHost:8443');
    const wrongPort = await check(ed, [linkageJwt(ed, { origin: 'https://localhost:8444' })], 'https://localhost:8443');
    expect(wrongPort.status).toBe('NOT_LINKED');
    const defaultPort = await check(ed, [linkageJwt(ed, { origin: 'https://example.com:443' })]);
    expect(defaultPort.status).toBe('VERIFIED');
  });

  it('any verified entry makes the binding VERIFIED, whatever the others say', async () => {
    const result = await check(ed, [linkageJwt(ed, { exp: nowSeconds - 10 }), 42, linkageDi(ed)]);
    expect(result.status).toBe('VERIFIED');
    expect(result.credentials.map((c) => c.status)).toEqual(['INVALID_PROOF', 'MALFORMED', 'VERIFIED']);
  });

  it('mentions a missing or different @context without failing', async () => {
    const none = await verifyDidConfiguration(input(ed.did, ed.document, JSON.stringify({ linked_dids: [linkageJwt(ed)] })));
    expect(none.status).toBe('VERIFIED');
    expect(none.reason).toContain(`the file declares no @context; ${DID_CONFIGURATION_CONTEXT} is expected`);
    const other = await verifyDidConfiguration(input(ed.did, ed.document, configuration([linkageJwt(ed)], { '@context': 'https://example.com/ctx' })));
    expect(other.status).toBe('VERIFIED');
    expect(other.reason).toContain(`the file's @context is not ${DID_CONFIGURATION_CONTEXT}`);
  });
});

describe('did-configuration: NOT_LINKED', () => {
  let ed: Signer;
  let stranger: Signer;
  beforeAll(async () => {
    ed = await didKeySigner();
    stranger = await didKeySigner();
  });

  it('an entry of another DID (JWT and Data Integrity)', async () => {
    const result = await check(ed, [linkageJwt(stranger), linkageDi(stranger)]);
    expect(result.status).toBe('NOT_LINKED');
    for (const entry of result.credentials) {
      expect(entry.status).toBe('NOT_LINKED');
      expect(entry.reason).toMatch(new RegExp(`^It was issued by ${stranger.did} and does not concern the DID; its (signature|proof) was not checked\\.$`));
      expect(entry.issuer).toBe(stranger.did);
    }
    expect(result.reason).toBe(`None of the 2 entries concerns the DID; the file links ${stranger.did}.`);
  });

  it('another origin', async () => {
    const result = await check(ed, [linkageJwt(ed, { origin: 'https://evil.example' })]);
    expect(result.status).toBe('NOT_LINKED');
    expect(only(result).reason).toBe(`It links the origin 'https://evil.example', not https://example.com; its EdDSA signature verifies with ${ed.kid}.`);
    expect(result.reason).toContain('but none links it to https://example.com');
    const http = await check(ed, [linkageDi(ed, { origin: 'http://example.com' })]);
    expect(http.status).toBe('NOT_LINKED');
  });

  it('a credential the DID issued about another subject', async () => {
    const result = await check(ed, [linkageJwt(ed, { sub: stranger.did })]);
    expect(result.status).toBe('NOT_LINKED');
    expect(clause(only(result))).toContain(`its subject is ${stranger.did}, not the DID`);
    expect(clause(only(result))).toContain('signature verifies');
  });

  it('a credential about the DID issued by someone else (its signature is not checked)', async () => {
    const result = await check(ed, [linkageJwt(stranger, { sub: ed.did })]);
    expect(result.status).toBe('NOT_LINKED');
    expect(only(result).reason).toBe(`It was issued by ${stranger.did}, not by the DID; its signature was not checked because the DID did not issue it.`);
  });
});

describe('did-configuration: INVALID_PROOF', () => {
  let ed: Signer;
  let p256: Signer;
  beforeAll(async () => {
    ed = await didKeySigner();
    p256 = await didJwkSigner('ES256');
  });

  it('a bad JWT signature', async () => {
    const token = linkageJwt(p256);
    const [h, p, s] = token.split('.') as [string, string, string];
    const sig = base64urlDecode(s)!;
    sig[10] = sig[10]! ^ 0xff;
    const result = await check(p256, [`${h}.${p}.${base64urlEncode(sig)}`]);
    expect(result.status).toBe('INVALID_PROOF');
    expect(only(result).reason).toBe(`The ES256 signature does not verify (key ${p256.kid}).`);
    expect(result.reason).toBe(
      `The only entry concerns the DID; entry 1 (JWT, ES256) fails verification: the ES256 signature does not verify (key ${p256.kid}).`,
    );
  });

  it('a JWT signed by another key than its kid names', async () => {
    const other = await didKeySigner();
    const token = linkageJwt({ ...other, did: ed.did, kid: ed.kid });
    const result = await check(ed, [token]);
    expect(result.status).toBe('INVALID_PROOF');
    expect(clause(only(result))).toContain('the EdDSA signature does not verify');
  });

  it('a bad Data Integrity signature', async () => {
    const credential = linkageDi(ed);
    const tampered = { ...credential, credentialSubject: { id: ed.did, origin: 'https://example.com', extra: true } };
    const result = await check(ed, [tampered]);
    expect(result.status).toBe('INVALID_PROOF');
    expect(only(result).reason).toBe('The Ed25519 signature does not verify.');
  });

  it('a key not authorised for assertionMethod (JWT and Data Integrity), signature still reported', async () => {
    const web = webSigner({ authentication: true });
    const result = await check(web, [linkageJwt(web)]);
    expect(result.status).toBe('INVALID_PROOF');
    expect(only(result).reason).toBe(
      `The key ${web.kid} is not authorised for assertionMethod in the DID document; its ES256 signature verifies with ${web.kid}.`,
    );

    const doc = { ...ed.document, assertionMethod: [] };
    const di = await check(ed, [linkageDi(ed)], 'https://example.com', doc);
    expect(di.status).toBe('INVALID_PROOF');
    expect(clause(only(di))).toContain(`the key ${ed.kid} is not authorised for assertionMethod`);
    expect(clause(only(di))).toContain('eddsa-jcs-2022 proof verifies');
  });

  it('an expired credential (JWT exp, Data Integrity validUntil)', async () => {
    const jwt = await check(ed, [linkageJwt(ed, { exp: Date.UTC(2026, 0, 1) / 1000 })]);
    expect(jwt.status).toBe('INVALID_PROOF');
    expect(only(jwt).reason).toBe(`The credential expired on 2026-01-01T00:00:00Z; its EdDSA signature verifies with ${ed.kid}.`);
    expect(only(jwt).validUntil).toBe('2026-01-01T00:00:00Z');
    const di = await check(ed, [linkageDi(ed, { validUntil: '2026-11-20T23:59:59Z' })]);
    expect(di.status).toBe('INVALID_PROOF');
    expect(only(di).reason).toMatch(/^The credential expired on 2026-11-20T23:59:59Z; its eddsa-jcs-2022 proof verifies/);
    // exp equal to now is expired (RFC 7519: now must be before exp).
    expect((await check(ed, [linkageJwt(ed, { exp: nowSeconds })])).status).toBe('INVALID_PROOF');
  });

  it('a credential not yet valid', async () => {
    const jwt = await check(ed, [linkageJwt(ed, { nbf: Date.UTC(2027, 0, 1) / 1000 })]);
    expect(jwt.status).toBe('INVALID_PROOF');
    expect(clause(only(jwt))).toContain('the credential is not valid before 2027-01-01T00:00:00Z');
    const di = await check(ed, [linkageDi(ed, { validFrom: '2027-01-01T00:00:00+01:00' })]);
    expect(di.status).toBe('INVALID_PROOF');
    expect(clause(only(di))).toContain('not valid before 2026-12-31T23:00:00Z');
  });

  it('a kid the document does not declare, or that belongs to another DID', async () => {
    const unknown = await check(ed, [linkageJwt(ed, { kid: '#nope' })]);
    expect(unknown.status).toBe('INVALID_PROOF');
    expect(only(unknown).reason).toBe(`The key ${ed.did}#nope is not a verification method of the DID document.`);
    expect(only(unknown).verificationMethod).toBe(`${ed.did}#nope`);
    const foreign = await check(ed, [linkageJwt(ed, { kid: 'did:example:other#k1' })]);
    expect(foreign.status).toBe('INVALID_PROOF');
    expect(only(foreign).reason).toBe(`The key did:example:other#k1 belongs to did:example:other, not to the DID.`);
    const di = await check(ed, [linkageDi(ed, { verificationMethod: `${ed.did}#missing` })]);
    expect(di.status).toBe('INVALID_PROOF');
    expect(clause(only(di))).toContain('is not a verification method of the DID document');
  });

  it('a key of the wrong curve for the algorithm or the cryptosuite', async () => {
    const jwt = await check(ed, [linkageJwt({ ...p256, did: ed.did, kid: ed.kid })]);
    expect(jwt.status).toBe('INVALID_PROOF');
    expect(clause(only(jwt))).toContain('the key is an Ed25519 key, but ES256 signs with P-256');
    const di = await check(p256, [linkageDi({ ...p256, privateKey: ed.privateKey })]);
    expect(di.status).toBe('INVALID_PROOF');
    expect(only(di).reason).toBe(`The key ${p256.kid} is a P-256 key; eddsa-jcs-2022 signs with Ed25519.`);
  });

  it('a Data Integrity proof for another purpose', async () => {
    const result = await check(ed, [linkageDi(ed, { proofPurpose: 'authentication' })]);
    expect(result.status).toBe('INVALID_PROOF');
    expect(only(result).reason).toBe("The proof's purpose is authentication, not assertionMethod.");
  });

  it('INVALID_PROOF outranks MALFORMED and UNSUPPORTED_PROOF among entries about the DID', async () => {
    const result = await check(ed, [linkageDi(ed, { proof: { cryptosuite: 'eddsa-rdfc-2022' } }), 'not-a-jwt', linkageJwt(ed, { exp: nowSeconds - 1 })]);
    expect(result.credentials.map((c) => c.status)).toEqual(['UNSUPPORTED_PROOF', 'MALFORMED', 'INVALID_PROOF']);
    expect(result.status).toBe('INVALID_PROOF');
    expect(result.reason).toMatch(/^All 3 entries concern the DID; entry 3 \(JWT, EdDSA\) fails verification: the credential expired on /);
  });
});

describe('did-configuration: MALFORMED', () => {
  let ed: Signer;
  beforeAll(async () => {
    ed = await didKeySigner();
  });

  const file = async (body: string | Uint8Array) => verifyDidConfiguration(input(ed.did, ed.document, body));

  it('a body that is not JSON, not UTF-8, or starts with a BOM', async () => {
    expect(await file('<html>not found</html>')).toEqual({
      status: 'MALFORMED',
      origin: 'https://example.com',
      configurationUrl: 'https://example.com/.well-known/did-configuration.json',
      reason: 'The DID configuration is not valid JSON (unexpected character at offset 0).',
      credentials: [],
    });
    const bom = await file(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(configuration([linkageJwt(ed)]))]));
    expect(bom).toMatchObject({ status: 'MALFORMED', reason: expect.stringContaining('byte order mark'), credentials: [] });
    const latin1 = await file(new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    expect(latin1).toMatchObject({ status: 'MALFORMED', reason: 'The DID configuration is not valid UTF-8.' });
    expect((await file('')).status).toBe('MALFORMED');
  });

  it('duplicate members, at the top or inside an entry', async () => {
    const top = await file(`{"linked_dids": [], "linked_dids": ["${linkageJwt(ed)}"]}`);
    expect(top).toMatchObject({
      status: 'MALFORMED',
      reason: 'The DID configuration has a duplicate member "linked_dids" (at /linked_dids), which parsers resolve differently.',
      credentials: [],
    });
    const nested = await file(`{"linked_dids": [{"issuer": "${ed.did}", "issuer": "did:example:other"}]}`);
    expect(nested.status).toBe('MALFORMED');
    expect(nested.reason).toContain('(at /linked_dids/0/issuer)');
  });

  it('a duplicate member inside a JWT header', async () => {
    const header = base64urlEncode(Buffer.from(`{"alg":"EdDSA","kid":"${ed.kid}","kid":"did:example:x#1"}`));
    const payload = linkageJwt(ed).split('.')[1]!;
    const input2 = `${header}.${payload}`;
    const token = `${input2}.${base64urlEncode(signBytes('EdDSA', ed.privateKey, Buffer.from(input2)))}`;
    const result = await check(ed, [token]);
    expect(result.status).toBe('MALFORMED');
    expect(only(result).reason).toBe('The JWT is malformed: the protected header has a duplicate member "kid" (at /kid), which parsers resolve differently.');
  });

  it('no linked_dids, an empty or over-long list, or a file that is not an object', async () => {
    expect(await file(JSON.stringify({ '@context': DID_CONFIGURATION_CONTEXT }))).toMatchObject({
      status: 'MALFORMED',
      reason: 'The DID configuration has no "linked_dids" member.',
    });
    expect((await file(configuration([]))).reason).toBe('"linked_dids" is empty.');
    expect((await file(JSON.stringify({ linked_dids: 'x' }))).reason).toBe('"linked_dids" is a string, not an array.');
    expect((await file('[]')).reason).toBe('The DID configuration is an array, not a JSON object.');
    const many = await file(configuration(new Array<string>(MAX_LINKED_DIDS + 1).fill('x')));
    expect(many).toMatchObject({ status: 'MALFORMED', credentials: [] });
    expect(many.reason).toContain('too many entries (101; at most 100 are evaluated)');
    expect((await file(configuration(new Array<string>(MAX_LINKED_DIDS).fill(linkageJwt(ed))))).status).toBe('VERIFIED');
  });

  it('an entry that is a number (or null, or an array)', async () => {
    const result = await check(ed, [42]);
    expect(result.status).toBe('MALFORMED');
    expect(only(result)).toEqual({
      index: 0,
      format: 'UNKNOWN',
      status: 'MALFORMED',
      reason: 'Entry 1 of linked_dids is a number, not a JWT string or a credential object.',
      issuer: null,
      subject: null,
      origin: null,
      proof: null,
      verificationMethod: null,
      validFrom: null,
      validUntil: null,
    });
    expect(result.reason).toBe(
      'The only entry concerns the DID; entry 1 (unknown form) is malformed: entry 1 of linked_dids is a number, not a JWT string or a credential object.',
    );
    const mixed = await check(ed, [null, []]);
    expect(mixed.credentials.map((c) => c.reason)).toEqual([
      'Entry 1 of linked_dids is null, not a JWT string or a credential object.',
      'Entry 2 of linked_dids is an array, not a JWT string or a credential object.',
    ]);
  });

  it('an origin without a scheme, with a path, or not a web origin', async () => {
    const noScheme = await check(ed, [linkageJwt(ed, { origin: 'example.com' })]);
    expect(noScheme.status).toBe('MALFORMED');
    expect(only(noScheme).reason).toBe(`The origin 'example.com' has no scheme; its EdDSA signature verifies with ${ed.kid}.`);
    const path1 = await check(ed, [linkageJwt(ed, { origin: 'https://example.com/did' })]);
    expect(clause(only(path1))).toContain('is not a bare origin');
    const mail = await check(ed, [linkageDi(ed, { origin: 'mailto://someone' })]);
    expect(clause(only(mail))).toContain("the origin 'mailto://someone' is not a web origin");
  });

  it('claims missing from the JWT or the credential', async () => {
    const noNbf = await check(ed, [linkageJwt(ed, { nbf: undefined })]);
    expect(noNbf.status).toBe('MALFORMED');
    expect(clause(only(noNbf))).toContain('the JWT has no "nbf" claim');
    const noKid = await check(ed, [linkageJwt(ed, { kid: undefined })]);
    expect(clause(only(noKid))).toContain('the JWT header has no "kid"');
    const noVc = await check(ed, [linkageJwt(ed, { payload: { vc: undefined } })]);
    expect(clause(only(noVc))).toContain('the JWT has no "vc" claim');
    const notDlc = await check(ed, [
      linkageJwt(ed, { payload: { vc: { type: ['VerifiableCredential'], credentialSubject: { id: ed.did, origin: 'https://example.com' } } } }),
    ]);
    expect(clause(only(notDlc))).toContain('does not include DomainLinkageCredential');
    const badDate = await check(ed, [linkageDi(ed, { validFrom: '2025-02-30T00:00:00Z' })]);
    expect(badDate.status).toBe('MALFORMED');
    expect(clause(only(badDate))).toContain("the validFrom '2025-02-30T00:00:00Z' is not an RFC 3339 date-time");
    const vc11 = await check(ed, [linkageDi(ed, { extra: { issuanceDate: 'last tuesday' } })]);
    expect(vc11.status).toBe('VERIFIED'); // validFrom wins over issuanceDate, which is not read
    const noProof = await check(ed, [{ ...linkageDi(ed), proof: undefined }]);
    expect(only(noProof).reason).toBe('The credential has no proof.');
    const garbled = await check(ed, ['a.b.c']);
    expect(only(garbled).reason).toMatch(/^The JWT is malformed: /);
  });

  it('malformed entries about other DIDs do not decide the status', async () => {
    const stranger = await didKeySigner();
    const result = await check(ed, [linkageJwt(stranger, { origin: 'nowhere' })]);
    expect(result.status).toBe('NOT_LINKED');
  });
});

describe('did-configuration: UNSUPPORTED_PROOF', () => {
  let ed: Signer;
  beforeAll(async () => {
    ed = await didKeySigner();
  });

  it('JWT alg RS256 and none', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const header = base64urlEncode(Buffer.from(JSON.stringify({ alg: 'RS256', kid: ed.kid })));
    const payload = linkageJwt(ed).split('.')[1]!;
    const rs = `${header}.${payload}.${base64urlEncode(sign('sha256', Buffer.from(`${header}.${payload}`), privateKey))}`;
    const result = await check(ed, [rs]);
    expect(result.status).toBe('UNSUPPORTED_PROOF');
    expect(only(result)).toMatchObject({ proof: 'RS256', issuer: ed.did, subject: ed.did, origin: 'https://example.com' });
    expect(only(result).reason).toBe('The algorithm RS256 (RSA) is not supported; svc verifies EdDSA, ES256, ES256K and ES384.');
    expect(result.reason).toContain('entry 1 (JWT, RS256) cannot be verified by svc');

    const none = `${base64urlEncode(Buffer.from('{"alg":"none"}'))}.${payload}.`;
    const unsecured = await check(ed, [none]);
    expect(unsecured.status).toBe('UNSUPPORTED_PROOF');
    expect(only(unsecured).reason).toBe('The algorithm "none" (an unsecured JWS) is not accepted.');
  });

  it('Data Integrity eddsa-rdfc-2022 and JSON-LD signature suites', async () => {
    const rdfc = await check(ed, [linkageDi(ed, { proof: { cryptosuite: 'eddsa-rdfc-2022' } })]);
    expect(rdfc.status).toBe('UNSUPPORTED_PROOF');
    expect(only(rdfc)).toMatchObject({ proof: 'eddsa-rdfc-2022', verificationMethod: ed.kid });
    expect(only(rdfc).reason).toBe('Cryptosuite eddsa-rdfc-2022 (JSON-LD, RDF canonicalization) is not supported; only eddsa-jcs-2022 and JWT are verified.');
    const ld = await check(ed, [linkageDi(ed, { proof: { type: 'Ed25519Signature2020', cryptosuite: undefined } })]);
    expect(ld.status).toBe('UNSUPPORTED_PROOF');
    expect(only(ld).reason).toBe('Proof type Ed25519Signature2020 (JSON-LD) is not supported; only eddsa-jcs-2022 and JWT are verified.');
  });

  it('a verification method whose key svc does not support', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const did = 'did:web:rsa.example';
    const document: DidDocument = {
      id: did,
      verificationMethod: [{ id: `${did}#r`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: publicKey.export({ format: 'jwk' }) }],
      assertionMethod: ['#r'],
    };
    const signer: Signer = { alg: 'EdDSA', did, kid: `${did}#r`, privateKey: ed.privateKey, publicJwk: {}, document };
    const result = await check(signer, [linkageDi(signer)]);
    expect(result.status).toBe('UNSUPPORTED_PROOF');
    expect(clause(only(result))).toContain(`the key ${did}#r is not supported (RSA keys are not supported)`);
  });
});

describe('did-configuration: robustness and API', () => {
  let ed: Signer;
  beforeAll(async () => {
    ed = await didKeySigner();
  });

  it('never throws for hostile entries', async () => {
    const hostile = [
      {},
      { proof: [] },
      { proof: 'x', issuer: 7, credentialSubject: [] },
      { type: 'DomainLinkageCredential', issuer: ed.did, credentialSubject: { id: ed.did, origin: 7 }, proof: { type: 7 } },
      '....',
      'e30.e30.e30',
      `${base64urlEncode(Buffer.from('{"alg":"EdDSA"}'))}.${base64urlEncode(Buffer.from('"string payload"'))}.AAAA`,
      { ...linkageDi(ed), proof: [{}, { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022' }] },
    ];
    const result = await check(ed, hostile);
    expect(result.credentials).toHaveLength(hostile.length);
    for (const c of result.credentials) {
      expect(c.status).not.toBe('VERIFIED');
      expect(c.reason).toMatch(/^[A-Z"].*\.$/);
      expect(DOMAIN_BINDING_STATUSES).toContain(c.status);
    }
    expect(DOMAIN_BINDING_STATUSES).toContain(result.status);
  });

  it('throws only for a caller mistake: an origin that is not an http(s) origin', async () => {
    await expect(verifyDidConfiguration(input(ed.did, ed.document, configuration([linkageJwt(ed)]), 'example.com'))).rejects.toThrow(TypeError);
  });

  it('unfetchedBinding reports NOT_CONFIGURED and UNREACHABLE without credentials', () => {
    expect(
      unfetchedBinding(
        'NOT_CONFIGURED',
        'https://example.com',
        'https://example.com/.well-known/did-configuration.json',
        'https://example.com publishes no DID configuration (HTTP 404).',
      ),
    ).toEqual({
      status: 'NOT_CONFIGURED',
      origin: 'https://example.com',
      configurationUrl: 'https://example.com/.well-known/did-configuration.json',
      reason: 'https://example.com publishes no DID configuration (HTTP 404).',
      credentials: [],
    });
    expect(unfetchedBinding('UNREACHABLE', 'https://a.example', 'https://a.example/x', 'Timed out.').status).toBe('UNREACHABLE');
  });
});
