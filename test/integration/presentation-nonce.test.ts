/**
 * The verifier's nonce in a presentation (`expectedNonce`, `--nonce`) is an SD-JWT VC's: it
 * reaches the KB-JWT of each SD-JWT VC the presentation carries, and no other credential — a Data
 * Integrity credential carries no nonce, and handed one it would be INDETERMINATE, making every
 * mixed presentation undecidable. The SD-JWT VC is minted by the peer library @sd-jwt/sd-jwt-vc
 * (its KB-JWT by the holder's key), the presentation and the Data Integrity credential with
 * test/support/signing.ts; verified by the core on a fixed clock.
 */
import { createHash, randomBytes, sign } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { describe, expect, it } from 'vitest';
import { verifyPresentation } from '../../src/core/presentations/verify.js';
import type { PresentationVerification } from '../../src/core/presentations/types.js';
import { jwtIssuer } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, signEddsaJcs2022 } from '../support/signing.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const VC2 = 'https://www.w3.org/ns/credentials/v2';
const NONCE = 'n1-presentation-exchange-one';
const CHALLENGE = 'c-presentation-exchange-one';

const sdIssuer = jwtIssuer('EdDSA');
const diIssuer = generateTestKey('EdDSA');
const diIssuerDid = `did:key:${diIssuer.multikey}`;
const holderKey = generateTestKey('EdDSA');
const holderDid = `did:key:${holderKey.multikey}`;
const holderVm = `${holderDid}#${holderKey.multikey}`;

const signWith = (key: Parameters<typeof sign>[2]) => (data: string) => sign(null, Buffer.from(data), key).toString('base64url');
const library = new SDJwtVcInstance({
  signer: signWith(sdIssuer.privateKey),
  signAlg: 'EdDSA',
  kbSigner: signWith(holderKey.privateKey),
  kbSignAlg: 'EdDSA',
  hasher: (data) =>
    new Uint8Array(
      createHash('sha256')
        .update(typeof data === 'string' ? data : Buffer.from(data))
        .digest(),
    ),
  hashAlg: 'sha-256',
  saltGenerator: () => randomBytes(16).toString('base64url'),
});

/** An SD-JWT VC bound to the holder's key (cnf), presented with a KB-JWT carrying `nonce`. */
async function sdJwtVc(nonce: string): Promise<string> {
  const payload = { iss: sdIssuer.did, vct: 'https://credentials.example/identity', iat: NOW_S - 3600, cnf: { jwk: holderKey.publicJwk }, given_name: 'Erika' };
  const issued = await library.issue(payload as never, { _sd: ['given_name'] } as never, { header: { kid: sdIssuer.kid } });
  return library.present(issued, { given_name: true } as never, { kb: { payload: { iat: NOW_S - 10, aud: 'https://verifier.example', nonce } as never } });
}

const diCredential = signEddsaJcs2022(
  {
    '@context': [VC2],
    type: ['VerifiableCredential'],
    issuer: diIssuerDid,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: holderDid, name: 'Erika' },
  },
  diIssuer,
  `${diIssuerDid}#${diIssuer.multikey}`,
);

async function presentation(sdJwt: string): Promise<Record<string, unknown>> {
  return signEddsaJcs2022(
    { '@context': [VC2], type: ['VerifiablePresentation'], holder: holderDid, verifiableCredential: [diCredential, sdJwt] },
    holderKey,
    holderVm,
    '2026-06-01T11:59:00Z',
    { proofPurpose: 'authentication', challenge: CHALLENGE },
  );
}

const verify = (vp: unknown, expectedNonce?: string): Promise<PresentationVerification> =>
  verifyPresentation(vp, { runtime: testRuntime(fixedClock(NOW.toISOString())), challenge: CHALLENGE, ...(expectedNonce ? { expectedNonce } : {}) });
const kbNonce = (result: PresentationVerification, index: number) => result.credentials[index]!.verification.checks.find((c) => c.id === 'kb.nonce')?.status;

describe('expectedNonce in a presentation', () => {
  it("reaches the SD-JWT VC's KB-JWT (its nonce: VALID) and not the Data Integrity credential beside it", async () => {
    const result = await verify(await presentation(await sdJwtVc(NONCE)), NONCE);
    expect(result.credentials.map((c) => [c.form, c.verification.status])).toEqual([
      ['OBJECT', 'VALID'],
      ['SD_JWT', 'VALID'],
    ]);
    expect(kbNonce(result, 1)).toBe('PASS');
    expect(kbNonce(result, 0)).not.toBe('INDETERMINATE');
    expect(result.status).toBe('VALID');
  });

  it('another nonce in the KB-JWT → that credential INVALID, and the presentation with it; the Data Integrity credential stays VALID', async () => {
    const result = await verify(await presentation(await sdJwtVc('n2-another-exchange')), NONCE);
    expect(kbNonce(result, 1)).toBe('FAIL');
    expect(result.credentials.map((c) => c.verification.status)).toEqual(['VALID', 'INVALID']);
    expect(result.status).toBe('INVALID');
  });

  it('no nonce given → kb.nonce SKIP and a limitation, the presentation VALID', async () => {
    const result = await verify(await presentation(await sdJwtVc(NONCE)));
    expect(kbNonce(result, 1)).toBe('SKIP');
    expect(result.status).toBe('VALID');
  });
});
