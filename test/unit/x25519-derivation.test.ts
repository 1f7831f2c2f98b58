import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { checkEd25519, checkX25519, x25519FromEd25519Y } from '../../src/core/keys/curves.js';

// did:key skips re-validating the X25519 key it derives from a valid Ed25519 key, on the
// argument that the birational map preserves curve membership and point order. Check it.
describe('X25519 keys derived from Ed25519 keys', () => {
  it('are valid by construction and equal the RFC 7748 conversion', async () => {
    for (let i = 0; i < 200; i++) {
      const pub = ed25519.getPublicKey(ed25519.utils.randomSecretKey());
      const check = await checkEd25519(pub);
      if (!check.ok) throw new Error(check.reason);
      const u = await x25519FromEd25519Y(check.y);
      expect(Buffer.from(u)).toEqual(Buffer.from(ed25519.utils.toMontgomery(pub)));
      expect((await checkX25519(u)).ok).toBe(true);
    }
  });

  it('stay valid for a point of mixed order (torsion component added)', async () => {
    // P + T where T has order 8: not in the prime-order subgroup, not of small order either.
    const T = ed25519.Point.fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');
    const P = ed25519.Point.BASE.multiply(12345n).add(T);
    const check = await checkEd25519(P.toBytes());
    if (!check.ok) throw new Error(check.reason);
    expect((await checkX25519(await x25519FromEd25519Y(check.y))).ok).toBe(true);
  });
});
