/**
 * The sign/verify pair closes: what svc signs (sign-credential, sign-presentation) svc verifies
 * — each presentation format on each curve VALID with the challenge and domain it was signed
 * for, every credential in it VALID and bound to the holder, and INVALID for another challenge;
 * an SD-JWT VC presented with its KB-JWT VALID for its nonce and audience, INVALID for another
 * nonce. (The peers' side of the pair: issue-credential and issue-presentation.)
 */
import { describe, expect, it } from 'vitest';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { signCredential } from '../../src/core/issue/credential.js';
import { readIssuingKey } from '../../src/core/issue/key.js';
import { signPresentation } from '../../src/core/issue/presentation.js';
import { generateSigningKey } from '../../src/core/keys/generate.js';
import { verifyPresentation } from '../../src/core/presentations/verify.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const runtime = () => testRuntime(fixedClock('2025-06-01T12:01:00Z'));
const DOMAIN = 'https://verifier.example';
const credential = (subject: string) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  type: ['VerifiableCredential'],
  credentialSubject: { id: subject, name: 'Alice' },
});

const FORMATS = { Ed25519: ['vp+jwt', 'di-eddsa-jcs'], 'P-256': ['vp+jwt', 'di-ecdsa-jcs'], secp256k1: ['vp+jwt'] } as const;

describe('what svc signs, svc verifies', async () => {
  const issuer = readIssuingKey((await generateSigningKey('Ed25519')).privateJwk);
  for (const curve of ['Ed25519', 'P-256', 'secp256k1'] as const) {
    const holder = readIssuingKey((await generateSigningKey(curve)).privateJwk);
    const jwt = (await signCredential(credential(holder.didKey), { key: issuer, format: 'vc+jwt', now: NOW })).text.trim();
    const di = (await signCredential(credential(holder.didKey), { key: issuer, format: 'di-eddsa-jcs', now: NOW })).text;
    const sd = (
      await signCredential(
        { vct: 'https://credentials.example/identity', given_name: 'Alice' },
        { key: issuer, format: 'sd-jwt', now: NOW, disclose: ['/given_name'], holderKey: { ...holder.publicJwk } },
      )
    ).text.trim();

    for (const format of FORMATS[curve]) {
      it(`a ${format} presentation by a ${curve} holder is VALID for its challenge and domain, INVALID for another challenge`, async () => {
        const vp = signPresentation([jwt, di, sd], { key: holder, format, challenge: 'c-1', domain: DOMAIN, now: NOW }).text.trim();
        const result = await verifyPresentation(vp, { runtime: runtime(), challenge: 'c-1', domain: DOMAIN });
        expect(result.status, result.headline).toBe('VALID');
        expect(result.holder).toBe(holder.didKey);
        expect(result.credentials.map((c) => [c.verification.status, c.holderBinding])).toEqual([
          ['VALID', 'BOUND'],
          ['VALID', 'BOUND'],
          ['VALID', 'BOUND'],
        ]);
        const replayed = await verifyPresentation(vp, { runtime: runtime(), challenge: 'c-2', domain: DOMAIN });
        expect(replayed.status).toBe('INVALID');
        expect(replayed.checks.find((c) => c.id === 'challenge')?.status).toBe('FAIL');
      });
    }

    it(`an SD-JWT VC presented with a ${curve} holder's KB-JWT is VALID for its nonce and audience, INVALID for another nonce`, async () => {
      const presented = signPresentation([sd], { key: holder, challenge: 'n-1', domain: DOMAIN, now: NOW }).text.trim();
      const result = await verifyCredential(presented, { runtime: runtime(), expectedAudience: DOMAIN, expectedNonce: 'n-1' });
      expect(result.status, result.headline).toBe('VALID');
      expect(result.checks.find((c) => c.id === 'kb.nonce')?.status).toBe('PASS');
      const replayed = await verifyCredential(presented, { runtime: runtime(), expectedAudience: DOMAIN, expectedNonce: 'n-2' });
      expect(replayed.status).toBe('INVALID');
    });
  }
});
