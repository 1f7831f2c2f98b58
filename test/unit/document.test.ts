/**
 * What svc makes of documents and verification methods it did not write itself (the path
 * did:web and did:webvh documents will take), and the did:key / did:jwk edge cases.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { checkVerificationMethod } from '../../src/core/keys/inspect.js';
import { ProblemError } from '../../src/core/problems.js';
import { readDocument } from '../../src/core/resolve/document.js';
import { validateKeys } from '../../src/core/resolve/keys.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { DidDocument } from '../../src/core/resolve/types.js';
import { b64url, didJwkOf, multikey } from '../support/codec.js';
import { testRuntime } from '../support/runtime.js';

const DID = 'did:example:doc';
const ed = multikey(0xed, ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
const x = multikey(0xec, ed25519.utils.toMontgomery(ed25519.getPublicKey(ed25519.utils.randomSecretKey())));

function doc(extra: Record<string, unknown>): DidDocument {
  return { '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'], id: DID, ...extra };
}

async function problemOf(p: Promise<unknown>): Promise<ProblemError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProblemError);
  return err as ProblemError;
}

describe('readDocument', () => {
  it('makes relative method ids absolute and records the relationships that authorise them', () => {
    const reading = readDocument(
      DID,
      doc({
        verificationMethod: [{ id: '#k1', type: 'Multikey', controller: DID, publicKeyMultibase: ed }],
        authentication: ['#k1'],
        assertionMethod: [`${DID}#k1`],
        keyAgreement: [{ id: '#k2', type: 'Multikey', controller: DID, publicKeyMultibase: x }],
      }),
    );
    expect(reading.evidence.warnings).toEqual([]);
    expect(reading.evidence.relationships.authentication).toEqual([`${DID}#k1`]);
    expect(reading.evidence.relationships.assertionMethod).toEqual([`${DID}#k1`]);
    expect(reading.methods.map((m) => [m.id, m.relationships])).toEqual([
      [`${DID}#k1`, ['authentication', 'assertionMethod']],
      [`${DID}#k2`, ['keyAgreement']],
    ]);
  });

  it('warns about dangling references, duplicate ids and methods without controller or type', () => {
    const { evidence } = readDocument(
      DID,
      doc({
        verificationMethod: [
          { id: '#k1', type: 'Multikey', controller: DID, publicKeyMultibase: ed },
          { id: '#k1', type: 'Multikey', controller: DID, publicKeyMultibase: ed },
          { id: '#k3', publicKeyMultibase: ed },
        ],
        authentication: ['#missing'],
        service: [{ id: '#s', type: 'LinkedDomains', serviceEndpoint: 'https://example.com' }, { id: '#s' }, { type: 'x' }],
      }),
    );
    const w = evidence.warnings.join('\n');
    expect(w).toMatch(/refers to did:example:doc#missing, which the document does not declare/);
    expect(w).toMatch(/did:example:doc#k1 is declared more than once/);
    expect(w).toMatch(/did:example:doc#k3 has no string "controller"/);
    expect(w).toMatch(/did:example:doc#k3 has no string "type"/);
    expect(w).toMatch(/service did:example:doc#s is declared more than once/);
    expect(w).toMatch(/"service" holds an entry without a string "id"/);
  });

  it('records contexts as known or not and warns about undeclared ones', () => {
    const { evidence } = readDocument(DID, {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://example.com/my-context'],
      id: DID,
      verificationMethod: [{ id: '#k1', type: 'Multikey', controller: DID, publicKeyMultibase: ed }],
    });
    expect(evidence.contexts).toEqual([
      { uri: 'https://www.w3.org/ns/did/v1', known: true },
      { uri: 'https://example.com/my-context', known: false },
    ]);
    expect(evidence.warnings.join('\n')).toMatch(/Undeclared JSON-LD context: type Multikey/);
    const wrongFirst = readDocument(DID, { '@context': 'https://w3id.org/security/multikey/v1', id: DID });
    expect(wrongFirst.evidence.warnings.join('\n')).toMatch(/first @context is not the DID Core context/);
  });

  it('refuses something that is not a DID document at all', () => {
    expect(() => readDocument(DID, { id: 42 } as unknown as DidDocument)).toThrow(ProblemError);
  });
});

describe('checkVerificationMethod', () => {
  it('marks a method that publishes private key material as INVALID_KEY', async () => {
    const vm = { id: `${DID}#k`, type: 'Multikey', controller: DID, publicKeyMultibase: ed, privateKeyMultibase: 'z123' };
    expect(await checkVerificationMethod(vm)).toMatchObject({ status: 'INVALID_KEY', detail: expect.stringMatching(/private key material/) });
    const jwk = { id: `${DID}#k`, type: 'JsonWebKey2020', controller: DID, publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: 'AA', d: 'AA' } };
    expect(await checkVerificationMethod(jwk)).toMatchObject({ status: 'INVALID_KEY', detail: expect.stringMatching(/private key material/) });
  });

  it('refuses a method carrying two keys and a type that contradicts its key', async () => {
    expect(await checkVerificationMethod({ type: 'Multikey', publicKeyMultibase: ed, publicKeyBase58: 'abc' })).toMatchObject({
      status: 'INVALID_KEY',
      detail: expect.stringMatching(/more than one key/),
    });
    expect(await checkVerificationMethod({ type: 'X25519KeyAgreementKey2020', publicKeyMultibase: ed })).toMatchObject({
      status: 'INVALID_KEY',
      detail: 'an X25519KeyAgreementKey2020 must hold an X25519 key, not Ed25519',
    });
  });

  it('reads legacy base58 keys and reports unknown types as UNSUPPORTED_KEY', async () => {
    const raw = ed25519.getPublicKey(ed25519.utils.randomSecretKey());
    const { refBase58Encode } = await import('../support/codec.js');
    expect(await checkVerificationMethod({ type: 'Ed25519VerificationKey2018', publicKeyBase58: refBase58Encode(raw) })).toMatchObject({
      status: 'VALID_KEY',
      curve: 'Ed25519',
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: b64url(raw) },
    });
    expect(await checkVerificationMethod({ type: 'SomethingNew2031', publicKeyBase58: 'abc' })).toMatchObject({ status: 'UNSUPPORTED_KEY' });
    expect(await checkVerificationMethod({ type: 'EcdsaSecp256k1RecoveryMethod2020', blockchainAccountId: 'eip155:1:0xab' })).toMatchObject({
      status: 'UNSUPPORTED_KEY',
    });
    expect(await checkVerificationMethod('not an object')).toMatchObject({ status: 'INVALID_KEY' });
  });
});

describe('keys under relationships they cannot serve', () => {
  it('warns about an X25519 key that would sign and an Ed25519 key that would agree keys', async () => {
    const reading = readDocument(
      DID,
      doc({
        verificationMethod: [
          { id: '#x', type: 'Multikey', controller: DID, publicKeyMultibase: x },
          { id: '#e', type: 'Multikey', controller: DID, publicKeyMultibase: ed },
        ],
        authentication: ['#x'],
        keyAgreement: ['#e'],
      }),
    );
    const { warnings } = await validateKeys(reading.methods);
    expect(warnings).toEqual([
      `The X25519 key ${DID}#x is listed under authentication, but X25519 keys cannot sign.`,
      `The Ed25519 key ${DID}#e is listed under keyAgreement, but Ed25519 keys cannot agree keys.`,
    ]);
  });

  it('turns such a did:jwk into RESOLVED_WITH_WARNINGS', async () => {
    const pub = ed25519.getPublicKey(ed25519.utils.randomSecretKey());
    const result = await resolve(didJwkOf({ kty: 'OKP', crv: 'Ed25519', x: b64url(pub) }), testRuntime());
    expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
    expect(result.evidence.document.warnings.join('\n')).toMatch(/cannot agree keys/);
    const sig = await resolve(didJwkOf({ kty: 'OKP', crv: 'Ed25519', use: 'sig', x: b64url(pub) }), testRuntime());
    expect(sig.verdict.outcome).toBe('RESOLVED');
  });
});

describe('did:key and did:jwk edge cases', () => {
  it('accepts an explicit did:key version 1 and refuses other versions', async () => {
    const v1 = await resolve(`did:key:1:${ed}`, testRuntime());
    expect(v1.evidence.keys[0]!.status).toBe('VALID_KEY');
    expect((await problemOf(resolve(`did:key:2:${ed}`, testRuntime()))).code).toBe('FEATURE_NOT_SUPPORTED');
    expect((await problemOf(resolve(`did:key:a:b:${ed}`, testRuntime()))).code).toBe('INVALID_DID');
  });

  it('refuses a did:key that is not base58btc or holds no key bytes', async () => {
    expect((await problemOf(resolve('did:key:u7QE', testRuntime()))).detail).toMatch(/base58btc/);
    expect((await problemOf(resolve('did:key:z0OIl', testRuntime()))).code).toBe('INVALID_DID');
    expect((await problemOf(resolve(`did:key:${multikey(0xed, new Uint8Array(0))}`, testRuntime()))).detail).toMatch(/no key bytes/);
  });

  it('gives an unknown multicodec one UNSUPPORTED_KEY method and no relationships', async () => {
    const result = await resolve(`did:key:${multikey(0x55, new Uint8Array(32).fill(7))}`, testRuntime());
    expect(result.evidence.keys).toHaveLength(1);
    expect(result.evidence.keys[0]).toMatchObject({ status: 'UNSUPPORTED_KEY', relationships: [], multicodec: { name: null, code: '0x55' } });
    expect(result.dimensions.find((d) => d.id === 'keys')!.state).toBe('INDETERMINATE');
  });

  it('refuses a did:jwk whose "use" is neither sig nor enc, or that is not a JSON object', async () => {
    const pub = b64url(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    expect((await problemOf(resolve(didJwkOf({ kty: 'OKP', crv: 'Ed25519', use: 5, x: pub }), testRuntime()))).detail).toMatch(/"use"/);
    expect((await problemOf(resolve(didJwkOf('[1,2]'), testRuntime()))).detail).toMatch(/not a JSON object/);
    expect((await problemOf(resolve(`did:jwk:${b64url(new Uint8Array([0xff, 0xfe]))}`, testRuntime()))).detail).toMatch(/UTF-8/);
  });
});
