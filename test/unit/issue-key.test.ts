/**
 * The key credentials are signed with (core/issue/key.ts): read by signing/key.ts createSigner,
 * now with secp256k1 allowed for credentials (never for signed results), its DIDs those
 * `svc keygen` printed for it (the same encoders), a public JWK showing the same DIDs, and whom it
 * signs as: a did:key or did:jwk must carry this key, any other DID needs a kid.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { describeKey, readIssuingKey, signingAs, type IssuingKey } from '../../src/core/issue/key.js';
import { generateSigningKey, type GeneratedKey } from '../../src/core/keys/generate.js';
import { ProblemError } from '../../src/core/problems.js';
import { createSigner, signCanonical, SigningKeyError } from '../../src/core/signing/index.js';

const made = new Map<string, GeneratedKey>();
beforeAll(async () => {
  for (const curve of ['Ed25519', 'P-256', 'secp256k1'] as const) made.set(curve, await generateSigningKey(curve));
});

function problem(run: () => unknown): ProblemError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error('no refusal');
}

const ISSUER = { name: 'issuer', relationship: 'assertionMethod' } as const;

describe('the key file', () => {
  for (const curve of ['Ed25519', 'P-256', 'secp256k1'] as const) {
    it(`${curve}: the did:key and did:jwk keygen printed, from the private JWK and from its public half`, async () => {
      const key = made.get(curve)!;
      const issuing = readIssuingKey(key.privateJwk);
      expect({ didKey: issuing.didKey, didJwk: issuing.didJwk, curve: issuing.curve }).toEqual({ didKey: key.didKey, didJwk: key.didJwk, curve });
      expect(await describeKey(key.privateJwk)).toEqual({ curve, didKey: key.didKey, didJwk: key.didJwk, private: true });
      const { d: _d, ...publicHalf } = key.privateJwk;
      expect(await describeKey(publicHalf)).toEqual({ curve, didKey: key.didKey, didJwk: key.didJwk, private: false });
      // Printed or serialised, the key shows no private member.
      expect(JSON.stringify(issuing)).not.toContain(key.privateJwk.d);
    });
  }

  it("a private key whose public members are another key's is refused, naming no key material", () => {
    const a = made.get('P-256')!.privateJwk;
    const mixed = { ...a, x: made.get('secp256k1')!.privateJwk.x, crv: 'P-256' };
    const refused = problem(() => readIssuingKey(mixed));
    expect(refused.code).toBe('INVALID_OPTIONS');
    expect(refused.detail).toMatch(/public members? "x"\/"y" do not match its private key "d"|not a valid EC P-256 private key/);
    expect(refused.detail).not.toContain(a.d);
  });

  it('RSA and X25519 keys are refused; secp256k1 only where credentials are signed, never for signed results', async () => {
    expect(problem(() => readIssuingKey({ kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQAB' })).detail).toMatch(/an RSA key/);
    await expect(describeKey({ kty: 'OKP', crv: 'X25519', x: 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo' })).rejects.toThrow(ProblemError);
    expect(() => createSigner(made.get('secp256k1')!.privateJwk)).toThrow(SigningKeyError);
    const k1 = readIssuingKey(made.get('secp256k1')!.privateJwk);
    expect(() => signCanonical({ a: 1 }, k1.signer, { typ: 'svc-result+jws', iat: 0 })).toThrow(/signed results are signed with EdDSA or ES256/);
  });
});

describe('whom a key signs as', () => {
  let ed: IssuingKey;
  let p256: IssuingKey;
  beforeAll(() => {
    ed = readIssuingKey(made.get('Ed25519')!.privateJwk);
    p256 = readIssuingKey(made.get('P-256')!.privateJwk);
  });

  it('by default, its did:key and the verification method did:key names for itself', () => {
    expect(signingAs(ed, undefined, undefined, ISSUER)).toEqual({ did: ed.didKey, kid: `${ed.didKey}#${ed.didKey.slice(8)}`, notes: [] });
  });

  it('its did:jwk, as <did>#0; a did:jwk that carries an encryption key, or another key, is refused', () => {
    expect(signingAs(p256, p256.didJwk, undefined, ISSUER)).toEqual({ did: p256.didJwk, kid: `${p256.didJwk}#0`, notes: [] });
    const enc = `did:jwk:${Buffer.from(JSON.stringify({ ...p256.publicJwk, use: 'enc' })).toString('base64url')}`;
    expect(problem(() => signingAs(p256, enc, undefined, ISSUER)).detail).toMatch(/carries its key for encryption/);
    expect(problem(() => signingAs(ed, p256.didJwk, undefined, ISSUER)).detail).toMatch(/not the key that the issuer did:jwk/);
    expect(problem(() => signingAs(p256, p256.didJwk, `${p256.didJwk}#1`, ISSUER)).detail).toMatch(
      /^A did:jwk has one key, did:jwk:\S+; the kid names another\.$/,
    );
  });

  it('a did:web needs the kid, of the same DID; the note says the verifier checks the key', () => {
    expect(problem(() => signingAs(ed, 'did:web:example.com', undefined, ISSUER)).detail).toMatch(/with --kid/);
    expect(problem(() => signingAs(ed, 'did:web:example.com', 'did:web:example.com', ISSUER)).detail).toMatch(/<issuer DID>#<key>/);
    const as = signingAs(ed, 'did:web:example.com', 'did:web:example.com#k1', { name: 'holder', relationship: 'authentication' });
    expect(as).toMatchObject({ did: 'did:web:example.com', kid: 'did:web:example.com#k1' });
    expect(as.notes).toEqual([
      'The verifier resolves did:web:example.com and checks that did:web:example.com#k1 holds this key under authentication; signing fetches nothing, so svc did not check it.',
    ]);
  });

  it('a DID URL or no DID at all is refused in one line', () => {
    expect(problem(() => signingAs(ed, `${ed.didKey}#x`, undefined, ISSUER)).detail).toMatch(/^The issuer must be a DID: .* is not \(.*is a DID URL/);
    expect(problem(() => signingAs(ed, 'https://issuer.example', undefined, ISSUER)).detail).toMatch(/^The issuer must be a DID/);
  });
});
