/**
 * Self-made keys and signatures for tests: compact JWS and eddsa-jcs-2022 Data Integrity proofs,
 * and DIF domain linkage credentials in both forms. Signing uses node:crypto directly and the
 * reference base58 of test/support/codec.ts, so a bug in svc's verifiers cannot cancel out here.
 */
import { createHash, sign, type KeyObject } from 'node:crypto';
import { canonicalize } from '../../src/core/canonical.js';
import { freshKeyPair } from '../../src/net/certificate.js';
import { b64url, multikey, refBase58Encode } from './codec.js';

export interface TestKey {
  alg: 'EdDSA' | 'ES256' | 'ES256K';
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: { kty: string; crv: string; x: string; y?: string };
  /** Multikey (multibase base58btc of multicodec + key) for Ed25519 keys. */
  multikey: string | null;
}

/** A key pair no key-generation job owns (why: src/net/certificate.ts). */
export { freshKeyPair };

export function generateTestKey(alg: TestKey['alg'] = 'EdDSA'): TestKey {
  const pair = alg === 'EdDSA' ? freshKeyPair('ed25519') : freshKeyPair('ec', alg === 'ES256' ? 'P-256' : 'secp256k1');
  const jwk = pair.publicKey.export({ format: 'jwk' }) as TestKey['publicJwk'];
  const publicJwk = jwk.y === undefined ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x } : { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  return {
    alg,
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    publicJwk,
    multikey: alg === 'EdDSA' ? multikey(0xed, Buffer.from(jwk.x, 'base64url')) : null,
  };
}

/** A JOSE signature (raw r‖s for ECDSA) made with node:crypto. */
export function signBytes(alg: string, key: KeyObject, data: Uint8Array): Uint8Array {
  if (alg === 'EdDSA' || alg === 'Ed25519') return new Uint8Array(sign(null, data, key));
  const hash = alg === 'ES384' ? 'sha384' : 'sha256';
  return new Uint8Array(sign(hash, data, { key, dsaEncoding: 'ieee-p1363' }));
}

/** Compact JWS over the JSON header and payload. */
export function signJws(header: Record<string, unknown>, payload: Record<string, unknown>, key: TestKey): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${b64url(signBytes(key.alg, key.privateKey, Buffer.from(input)))}`;
}

/** Adds an eddsa-jcs-2022 proof (W3C vc-di-eddsa §3.3) made with an Ed25519 key; `extra` proof members (e.g. `expires`) are signed too. */
export function signEddsaJcs2022(
  document: Record<string, unknown>,
  key: TestKey,
  verificationMethod: string,
  created = '2026-01-01T00:00:00Z',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const proofConfig: Record<string, unknown> = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created,
    verificationMethod,
    proofPurpose: 'assertionMethod',
    ...extra,
  };
  if (document['@context'] !== undefined) proofConfig['@context'] = document['@context'];
  const hash = Buffer.concat([createHash('sha256').update(canonicalize(proofConfig)).digest(), createHash('sha256').update(canonicalize(document)).digest()]);
  const signature = sign(null, hash, key.privateKey);
  // The proof is published as configured, @context included (vc-di-eddsa "Create Proof").
  return { ...document, proof: { ...proofConfig, proofValue: `z${refBase58Encode(signature)}` } };
}

export const DID_CONFIGURATION_CONTEXT = 'https://identity.foundation/.well-known/did-configuration/v1';

/** A VC 2.0 DomainLinkageCredential secured with eddsa-jcs-2022. */
export function linkageCredentialDi(
  did: string,
  origin: string,
  key: TestKey,
  vmId: string,
  extra: Record<string, unknown> = {},
  proofExtra: Record<string, unknown> = {},
): Record<string, unknown> {
  return signEddsaJcs2022(
    {
      '@context': ['https://www.w3.org/ns/credentials/v2', DID_CONFIGURATION_CONTEXT],
      type: ['VerifiableCredential', 'DomainLinkageCredential'],
      issuer: did,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: did, origin },
      ...extra,
    },
    key,
    vmId,
    undefined,
    proofExtra,
  );
}

/** A DomainLinkageCredential in the DIF JWT form, valid from 2026-01-01 for ten years by default. */
export function linkageCredentialJwt(did: string, origin: string, key: TestKey, kid: string, times: { nbf?: number; exp?: number } = {}): string {
  const nbf = times.nbf ?? Date.UTC(2026, 0, 1) / 1000;
  const exp = times.exp ?? Date.UTC(2036, 0, 1) / 1000;
  return signJws(
    { alg: key.alg, kid },
    {
      iss: did,
      sub: did,
      nbf,
      exp,
      vc: {
        '@context': ['https://www.w3.org/2018/credentials/v1', DID_CONFIGURATION_CONTEXT],
        issuer: did,
        issuanceDate: new Date(nbf * 1000).toISOString(),
        expirationDate: new Date(exp * 1000).toISOString(),
        type: ['VerifiableCredential', 'DomainLinkageCredential'],
        credentialSubject: { id: did, origin },
      },
    },
    key,
  );
}

export function didConfiguration(...linked: unknown[]): Record<string, unknown> {
  return { '@context': DID_CONFIGURATION_CONTEXT, linked_dids: linked };
}

/** A DID document with one Ed25519 Multikey (#key-1) and, optionally, JsonWebKey methods. */
export function didDocument(did: string, ed25519: TestKey, others: Array<{ fragment: string; key: TestKey }> = []): Record<string, unknown> {
  const methods: Array<Record<string, unknown>> = [
    { id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: ed25519.multikey },
    ...others.map(({ fragment, key }) => ({ id: `${did}#${fragment}`, type: 'JsonWebKey', controller: did, publicKeyJwk: key.publicJwk })),
  ];
  const ids = methods.map((m) => m['id']);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1', 'https://w3id.org/security/jwk/v1'],
    id: did,
    verificationMethod: methods,
    authentication: ids,
    assertionMethod: ids,
  };
}
