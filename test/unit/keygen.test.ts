/**
 * Key generation for `svc keygen` (src/core/keys/generate.ts): each curve gives a private JWK that
 * node:crypto imports as the same key, DIDs derived independently here, and receipts minted with
 * it — for its did:key and for its did:jwk — that verify VALID (and with jose, which has no
 * secp256k1).
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { compactVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyDelegationChain } from '../../src/core/delegation/index.js';
import { mintReceipt } from '../../src/core/delegation/mint.js';
import { generateSigningKey, KEYGEN_CURVES } from '../../src/core/keys/generate.js';
import { jwkThumbprint } from '../../src/core/keys/jwk.js';
import { concatBytes, didJwkOf, multikey } from '../support/codec.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const CODECS = { Ed25519: 0xed, 'P-256': 0x1200, secp256k1: 0xe7 } as const;
const ALGS = { Ed25519: 'EdDSA', 'P-256': 'ES256', secp256k1: 'ES256K' } as const;
const AUDIENCE = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const NOW = new Date('2026-03-01T10:00:00Z');

describe('generateSigningKey', () => {
  for (const curve of KEYGEN_CURVES) {
    it(`${curve}: a private JWK node:crypto reads as the same key; the did:key and did:jwk of its public key`, async () => {
      const key = await generateSigningKey(curve);
      const { privateJwk, publicJwk } = key;
      expect(privateJwk).toMatchObject({ ...publicJwk, use: 'sig', alg: ALGS[curve], kid: jwkThumbprint(publicJwk) });
      const derived = createPublicKey(
        createPrivateKey({ key: { kty: privateJwk.kty, crv: curve, x: privateJwk.x, y: privateJwk.y, d: privateJwk.d } as never, format: 'jwk' }),
      ).export({ format: 'jwk' });
      expect(derived.x).toBe(publicJwk.x);
      expect(derived.y).toBe(publicJwk.y);

      const x = Buffer.from(publicJwk.x, 'base64url');
      const bytes = curve === 'Ed25519' ? x : concatBytes(new Uint8Array([(Buffer.from(publicJwk.y!, 'base64url').at(-1)! & 1) === 1 ? 3 : 2]), x);
      expect(key.didKey).toBe(`did:key:${multikey(CODECS[curve], bytes)}`);
      const listed =
        curve === 'Ed25519' ? { crv: curve, kty: 'OKP', use: 'sig', x: publicJwk.x } : { crv: curve, kty: 'EC', use: 'sig', x: publicJwk.x, y: publicJwk.y };
      expect(key.didJwk).toBe(didJwkOf(listed));
    });

    it(`${curve}: receipts minted with it verify, as its did:key and as its did:jwk`, async () => {
      const key = await generateSigningKey(curve);
      const runtime = testRuntime(fixedClock(NOW.toISOString()));
      for (const iss of [key.didKey, key.didJwk]) {
        const minted = mintReceipt({ privateJwk: key.privateJwk, iss, aud: AUDIENCE, cap: ['payments:*'], ttlSeconds: 600, now: NOW });
        const result = await verifyDelegationChain([minted.receipt], { runtime });
        expect(result.status, result.headline).toBe('VALID');
        // jose (on WebCrypto) has no secp256k1; svc's own verifier above checks those.
        if (curve === 'secp256k1') continue;
        const publicKey = await importJWK(
          { kty: key.publicJwk.kty, crv: curve, x: key.publicJwk.x, ...(key.publicJwk.y ? { y: key.publicJwk.y } : {}) },
          ALGS[curve],
        );
        expect((await compactVerify(minted.receipt, publicKey)).protectedHeader.alg).toBe(ALGS[curve]);
      }
    });
  }

  it('two keys are never the same', async () => {
    const [a, b] = await Promise.all([generateSigningKey('Ed25519'), generateSigningKey('Ed25519')]);
    expect(a.privateJwk.d).not.toBe(b.privateJwk.d);
    expect(a.didKey).not.toBe(b.didKey);
  });
});
