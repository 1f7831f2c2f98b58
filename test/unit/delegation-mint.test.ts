/**
 * `mintReceipt` (svc delegate): receipts signed with node:crypto must verify with independent
 * code — jose's compactVerify (EdDSA, ES256) and noble-curves (ES256, ES256K, with the key taken
 * from the did:key, low-S as did-jwt requires) — decode to the expected header and payload, and
 * verify as a chain with svc's own core. Refusals name the problem and never quote the private key.
 */
import { createHash, createPublicKey, generateKeyPairSync, verify as nodeVerify, type JsonWebKey } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { compactVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyDelegationChain } from '../../src/core/delegation/index.js';
import { didKeyOf, mintReceipt, type MintOptions } from '../../src/core/delegation/mint.js';
import { ProblemError } from '../../src/core/problems.js';
import { didJwkOf, multikey, splitMultikey } from '../support/codec.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const NOW_ISO = '2025-03-04T05:06:07Z';
const NOW = new Date(NOW_ISO);
const NOW_S = Math.floor(NOW.getTime() / 1000);
const runtime = () => testRuntime(fixedClock(NOW_ISO));

type Alg = 'EdDSA' | 'ES256' | 'ES256K';

interface Party {
  alg: Alg;
  jwk: JsonWebKey & { d: string; x: string; y?: string };
  publicJwk: { kty: string; crv: string; x: string; y?: string };
  did: string;
  /** The did:key method-specific id: the Multikey, and the fragment of the key's id. */
  mk: string;
  /** The compressed point (EC) or raw key (Ed25519), as the did:key carries it. */
  publicBytes: Uint8Array;
}

/** A key and its did:key, built by the reference codec of test/support (not svc's encoders). */
function party(alg: Alg = 'EdDSA'): Party {
  const pair = alg === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: alg === 'ES256' ? 'P-256' : 'secp256k1' });
  const jwk = pair.privateKey.export({ format: 'jwk' }) as Party['jwk'];
  const x = Buffer.from(jwk.x, 'base64url');
  let publicBytes: Uint8Array;
  let code: number;
  if (alg === 'EdDSA') {
    publicBytes = x;
    code = 0xed;
  } else {
    const y = Buffer.from(jwk.y!, 'base64url');
    publicBytes = Uint8Array.from([y[31]! & 1 ? 0x03 : 0x02, ...x]);
    code = alg === 'ES256' ? 0x1200 : 0xe7;
  }
  const mk = multikey(code, publicBytes);
  const publicJwk = jwk.y === undefined ? { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x } : { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x, y: jwk.y };
  return { alg, jwk, publicJwk, did: `did:key:${mk}`, mk, publicBytes };
}

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'ascii').digest('hex');

function mint(iss: Party, aud: Party | string, overrides: Partial<MintOptions> = {}) {
  return mintReceipt({
    privateJwk: iss.jwk,
    iss: iss.did,
    aud: typeof aud === 'string' ? aud : aud.did,
    cap: ['payments:*'],
    ttlSeconds: 3600,
    now: NOW,
    ...overrides,
  });
}

/** Every refusal: a ProblemError INVALID_REQUEST that does not quote the private key. */
function refusal(fn: () => unknown, secret: string): ProblemError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ProblemError);
  const problem = caught as ProblemError;
  expect(problem.code).toBe('INVALID_REQUEST');
  expect(problem.message).not.toContain(secret);
  expect(JSON.stringify(problem.toProblem('urn:svc:problems'))).not.toContain(secret);
  return problem;
}

describe('mintReceipt: receipts independent code verifies', () => {
  it('signs an EdDSA receipt that jose verifies with the key taken from the did:key', async () => {
    const alice = party();
    const bob = party();
    const minted = mint(alice, bob, { cap: ['payments:*', 'read'], jti: 'receipt-1' });
    const [h, p, s] = minted.receipt.split('.');
    expect(s).toBeTruthy();
    expect(minted.receipt).not.toMatch(/\s/);
    expect(decodePart(h!)).toEqual({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: `${alice.did}#${alice.mk}` });
    expect(decodePart(p!)).toEqual({ iss: alice.did, aud: bob.did, cap: ['payments:*', 'read'], nbf: NOW_S, exp: NOW_S + 3600, jti: 'receipt-1' });
    expect(minted.header).toEqual(decodePart(h!));
    expect(minted.payload).toEqual(decodePart(p!));
    expect(minted.digest).toBe(sha256Hex(minted.receipt));

    const { code, key } = splitMultikey(alice.did.slice('did:key:'.length));
    expect(code).toBe(0xed);
    const publicKey = await importJWK({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') }, 'EdDSA');
    const verified = await compactVerify(minted.receipt, publicKey, { algorithms: ['EdDSA'] });
    expect(verified.protectedHeader.typ).toBe('svc-delegation+jwt');
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toMatchObject({ iss: alice.did, aud: bob.did });
  });

  it('gives every receipt a fresh random jti unless one is given', () => {
    const alice = party();
    const bob = party();
    const a = mint(alice, bob).payload['jti'] as string;
    const b = mint(alice, bob).payload['jti'] as string;
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });

  it('signs ES256 receipts that jose and noble (from the compressed did:key point) verify', async () => {
    const issuer = party('ES256');
    const minted = mint(issuer, party());
    const [h, p, s] = minted.receipt.split('.');
    expect(decodePart(h!)).toEqual({ alg: 'ES256', typ: 'svc-delegation+jwt', kid: `${issuer.did}#${issuer.mk}` });
    expect(issuer.did.startsWith('did:key:zDn')).toBe(true);
    const { code, key } = splitMultikey(issuer.mk);
    expect(code).toBe(0x1200);
    const signature = Buffer.from(s!, 'base64url');
    expect(signature.length).toBe(64);
    // P-256 verifiers (WebCrypto, jose) accept either S form; noble's default asks for low S.
    expect(p256.verify(signature, Buffer.from(`${h}.${p}`, 'ascii'), key, { lowS: false })).toBe(true);
    const publicKey = await importJWK(issuer.publicJwk, 'ES256');
    await expect(compactVerify(minted.receipt, publicKey, { algorithms: ['ES256'] })).resolves.toBeTruthy();
  });

  it('signs ES256K receipts in low-S form that noble (as did-jwt uses it) verifies from the did:key', () => {
    const half = secp256k1.Point.CURVE().n >> 1n;
    for (let i = 0; i < 12; i++) {
      const issuer = party('ES256K');
      const minted = mint(issuer, party());
      const [h, p, s] = minted.receipt.split('.');
      expect(decodePart(h!)['alg']).toBe('ES256K');
      expect(issuer.did.startsWith('did:key:zQ3s')).toBe(true);
      const { code, key } = splitMultikey(issuer.mk);
      expect(code).toBe(0xe7);
      const signature = Buffer.from(s!, 'base64url');
      expect(BigInt(`0x${signature.subarray(32).toString('hex')}`) <= half).toBe(true);
      const data = Buffer.from(`${h}.${p}`, 'ascii');
      expect(secp256k1.verify(signature, data, key)).toBe(true);
      const publicKey = createPublicKey({ key: issuer.publicJwk, format: 'jwk' });
      expect(nodeVerify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    }
  });

  it('derives the did:key of each key type as the did:key method does', () => {
    for (const alg of ['EdDSA', 'ES256', 'ES256K'] as const) {
      const p = party(alg);
      expect(didKeyOf(p.publicJwk)).toBe(p.did);
    }
  });

  it("mints chains svc's core verifies: EdDSA root, ES256 and ES256K re-delegations", async () => {
    const root = party();
    const mid = party('ES256');
    const k1 = party('ES256K');
    const leaf = party();
    const r0 = mint(root, mid, { cap: ['payments:*', 'read'], ttlSeconds: 7200 });
    const r1 = mint(mid, k1, { cap: ['payments:*'], ttlSeconds: 3600, parent: r0.receipt });
    const r2 = mint(k1, leaf, { cap: ['PAYMENTS:charge'], ttlSeconds: 600, parent: `${r1.receipt}\n` });
    expect(r0.payload['prf']).toBeUndefined();
    expect(r1.payload['prf']).toBe(sha256Hex(r0.receipt));
    expect(r2.payload['prf']).toBe(r1.digest);
    const result = await verifyDelegationChain([r0.receipt, r1.receipt, r2.receipt], { runtime: runtime(), now: NOW });
    expect(result.status, result.headline).toBe('VALID');
    expect(result.effectiveCapabilities).toEqual(['PAYMENTS:charge']);
    expect(result.root).toBe(root.did);
    expect(result.leaf).toBe(leaf.did);
    expect(result.links.map((l) => l.alg)).toEqual(['EdDSA', 'ES256', 'ES256K']);
  });

  it('derives the kid #0 of a did:jwk issuer, and the core verifies the receipt', async () => {
    const key = party();
    const did = didJwkOf({ kty: 'OKP', crv: 'Ed25519', x: key.jwk.x });
    const minted = mintReceipt({ privateJwk: key.jwk, iss: did, aud: party().did, cap: ['*'], ttlSeconds: 60, now: NOW });
    expect(minted.header['kid']).toBe(`${did}#0`);
    const result = await verifyDelegationChain([minted.receipt], { runtime: runtime(), now: NOW });
    expect(result.status, result.headline).toBe('VALID');
  });

  it('uses the given kid of a did:web issuer as is', () => {
    const key = party();
    const minted = mintReceipt({
      privateJwk: key.jwk,
      iss: 'did:web:example.com',
      aud: party().did,
      cap: ['tools:*'],
      kid: 'did:web:example.com#delegation-1',
      ttlSeconds: 60,
      now: NOW,
    });
    expect(minted.header).toEqual({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: 'did:web:example.com#delegation-1' });
  });

  it('accepts a private JWK carrying alg, kid and use: sig', () => {
    const key = party();
    expect(() => mint(key, party(), { privateJwk: { ...key.jwk, alg: 'EdDSA', use: 'sig', kid: 'k1' } })).not.toThrow();
  });
});

describe('mintReceipt refusals', () => {
  const alice = party();
  const bob = party();
  const carol = party();
  const secret = alice.jwk.d;

  it('refuses a public-only JWK', () => {
    const problem = refusal(() => mint(alice, bob, { privateJwk: alice.publicJwk }), secret);
    expect(problem.detail).toMatch(/no private member "d"/);
  });

  it('refuses key types that cannot sign receipts (RSA, X25519, P-384, symmetric) and non-objects', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const x25519 = generateKeyPairSync('x25519').privateKey.export({ format: 'jwk' });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' });
    for (const [jwk, secretOf] of [
      [rsa, rsa.d!],
      [x25519, x25519.d!],
      [p384, p384.d!],
      [{ kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ' }, 'c2VjcmV0LXNlY3JldC1zZWNyZXQ'],
    ] as const) {
      const problem = refusal(() => mint(alice, bob, { privateJwk: jwk }), secretOf);
      expect(problem.detail).toMatch(/cannot sign receipts/);
    }
    for (const value of [null, 'a string', [alice.jwk], 42]) refusal(() => mint(alice, bob, { privateJwk: value }), secret);
  });

  it("refuses a key that is not the did:key issuer's, naming the key's own did:key", () => {
    const problem = refusal(() => mint(alice, bob, { privateJwk: carol.jwk }), carol.jwk.d);
    expect(problem.detail).toContain(carol.did);
    expect(problem.detail).not.toContain(secret);
  });

  it('refuses a JWK whose public members do not match its d', () => {
    const problem = refusal(() => mint(alice, bob, { privateJwk: { ...alice.jwk, x: carol.jwk.x } }), secret);
    expect(problem.detail).toMatch(/do not match/);
  });

  it('refuses a malformed d without quoting it', () => {
    const bad = `${secret.slice(0, -2)}!!`;
    refusal(() => mint(alice, bob, { privateJwk: { ...alice.jwk, d: bad } }), bad);
    const short = secret.slice(0, 20);
    refusal(() => mint(alice, bob, { privateJwk: { ...alice.jwk, d: short } }), short);
  });

  it('refuses a kid of another DID, a kid without a fragment and another did:key fragment', () => {
    expect(refusal(() => mint(alice, bob, { kid: `${bob.did}#${bob.mk}` }), secret).detail).toMatch(/names a key of .* not of the issuer/);
    expect(refusal(() => mint(alice, bob, { kid: alice.did }), secret).detail).toMatch(/<iss>#<key>/);
    expect(refusal(() => mint(alice, bob, { kid: `${alice.did}#key-2` }), secret).detail).toMatch(/one key/);
    expect(refusal(() => mint(alice, bob, { kid: 'not a did url' }), secret).detail).toMatch(/not a DID URL/);
  });

  it('requires a kid for a did:web issuer', () => {
    const problem = refusal(() => mint(alice, bob, { iss: 'did:web:example.com' }), secret);
    expect(problem.detail).toContain('--kid is required for did:web issuers: name the capabilityDelegation key');
  });

  it('refuses an issuer or audience that is not a bare DID, and a receipt to oneself', () => {
    expect(refusal(() => mint(alice, 'https://bob.example'), secret).detail).toMatch(/audience/);
    expect(refusal(() => mint(alice, `${bob.did}#${bob.mk}`), secret).detail).toMatch(/bare DID/);
    expect(refusal(() => mint(alice, bob, { iss: 'alice' }), secret).detail).toMatch(/issuer/);
    expect(refusal(() => mint(alice, alice), secret).detail).toMatch(/same DID/);
  });

  it('refuses bad capabilities, none, more than 64 and duplicates', () => {
    for (const cap of [['pay*'], [''], ['a::b'], ['a:*:b'], [':*'], ['has space'], [], Array.from({ length: 65 }, (_, i) => `t${i}`), ['Read', 'read']]) {
      refusal(() => mint(alice, bob, { cap }), secret);
    }
    expect(() => mint(alice, bob, { cap: Array.from({ length: 64 }, (_, i) => `t${i}`) })).not.toThrow();
  });

  it('refuses a lifetime that is not a positive whole number of seconds up to 366 days', () => {
    for (const ttlSeconds of [0, -1, 1.5, Number.NaN, 366 * 86400 + 1]) refusal(() => mint(alice, bob, { ttlSeconds }), secret);
    expect(mint(alice, bob, { ttlSeconds: 366 * 86400 }).payload['exp']).toBe(NOW_S + 366 * 86400);
  });

  describe('with a parent', () => {
    const parent = mint(alice, bob, { cap: ['payments:*', 'read'], ttlSeconds: 3600 }).receipt;

    it('refuses a child that would outlive its parent, suggesting a shorter --ttl', () => {
      const problem = refusal(() => mint(bob, carol, { privateJwk: bob.jwk, parent, ttlSeconds: 7200 }), bob.jwk.d);
      expect(problem.detail).toMatch(/outlive/);
      expect(problem.detail).toContain('--ttl (at most 3600s)');
      expect(mint(bob, carol, { parent, ttlSeconds: 3600 }).payload['exp']).toBe(NOW_S + 3600);
    });

    it('refuses an issuer that is not the parent audience', () => {
      const problem = refusal(() => mint(carol, alice, { parent }), carol.jwk.d);
      expect(problem.detail).toContain(`The parent delegates to ${bob.did}, not to ${carol.did}`);
    });

    it('refuses a capability the parent does not grant: payments:* does not cover refund, nor * ', () => {
      expect(refusal(() => mint(bob, carol, { parent, cap: ['refund'] }), bob.jwk.d).detail).toMatch(/does not grant "refund"/);
      refusal(() => mint(bob, carol, { parent, cap: ['*'] }), bob.jwk.d);
      refusal(() => mint(bob, carol, { parent, cap: ['payments:charge', 'write'] }), bob.jwk.d);
      expect(() => mint(bob, carol, { parent, cap: ['Payments:Charge', 'READ'] })).not.toThrow();
    });

    it('refuses a delegation back to the parent issuer (a cycle)', () => {
      expect(refusal(() => mint(bob, alice, { parent }), bob.jwk.d).detail).toMatch(/only once/);
    });

    it('refuses to start before the parent or after it expired', () => {
      const later = mint(alice, bob, { now: new Date(NOW.getTime() + 600_000) }).receipt;
      expect(refusal(() => mint(bob, carol, { parent: later }), bob.jwk.d).detail).toMatch(/not valid before/);
      expect(refusal(() => mint(bob, carol, { parent, now: new Date(NOW.getTime() + 3_600_000) }), bob.jwk.d).detail).toMatch(/expired/);
    });

    it('refuses a parent that is not a receipt', () => {
      expect(refusal(() => mint(bob, carol, { parent: 'not.a.receipt' }), bob.jwk.d).detail).toMatch(/not a usable delegation receipt/);
    });
  });
});
