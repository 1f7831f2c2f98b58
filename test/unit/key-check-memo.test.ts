/**
 * Key checks are remembered (src/core/keys/curves.ts): an identical input gets the identical,
 * frozen answer — valid or not — and the memo stays bounded.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkEcPoint, checkEd25519, checkX25519, KEY_CHECK_MEMO, keyChecksKept } from '../../src/core/keys/curves.js';

function ed25519Key(): Uint8Array {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
}

function p256Compressed(): Uint8Array {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y!, 'base64url');
  return new Uint8Array(Buffer.concat([Buffer.from([y[31]! & 1 ? 3 : 2]), Buffer.from(jwk.x!, 'base64url')]));
}

describe('key check memo', () => {
  it('answers an identical key with the identical frozen result, valid or invalid', async () => {
    const key = ed25519Key();
    const first = await checkEd25519(key);
    expect(first.ok).toBe(true);
    expect(await checkEd25519(Uint8Array.from(key))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    if (first.ok) expect(Object.isFrozen(first.jwk)).toBe(true);

    const identity = new Uint8Array(32);
    identity[0] = 1;
    const bad = await checkEd25519(identity);
    expect(bad).toEqual({ ok: false, reason: 'the Ed25519 key is the identity point' });
    expect(await checkEd25519(identity)).toBe(bad);
  });

  it('keeps the curve and the required form apart', async () => {
    const key = p256Compressed();
    const any = await checkEcPoint('P-256', key);
    const compressed = await checkEcPoint('P-256', key, { require: 'compressed' });
    const uncompressed = await checkEcPoint('P-256', key, { require: 'uncompressed' });
    expect(any.ok).toBe(true);
    expect(compressed).toEqual(any);
    expect(uncompressed.ok).toBe(false);
    // 32 bytes are both an Ed25519 and an X25519 candidate: two entries, two answers.
    const bytes = ed25519Key();
    const asX25519 = await checkX25519(bytes);
    const asEd25519 = await checkEd25519(bytes);
    expect(asX25519).not.toBe(asEd25519);
    if (asX25519.ok) expect(asX25519.jwk.crv).toBe('X25519');
    if (asEd25519.ok) expect(asEd25519.jwk.crv).toBe('Ed25519');
  });

  it(`keeps at most ${KEY_CHECK_MEMO} results`, async () => {
    for (let i = 0; i < KEY_CHECK_MEMO + 200; i++) await checkX25519(new Uint8Array(randomBytes(32)));
    expect(keyChecksKept()).toBe(KEY_CHECK_MEMO);
  });
});
