/**
 * The validity window of a Data Integrity proof (VC Data Integrity 1.0: `created` and `expires`
 * are dateTimeStamps): a proof that expired, or was created more than the 60 s skew ahead, does
 * not verify (INVALID, `proof` FAIL); a stamp without an offset, or not a date, is MALFORMED.
 * Signed with svc's own test signer (the @digitalbazaar issuer cannot set `expires`).
 */
import { describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { unsignedCredential } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, signEddsaJcs2022 } from '../support/signing.js';

const runtime = () => testRuntime(fixedClock('2025-06-01T00:00:00Z'));
const key = generateTestKey('EdDSA');
const did = `did:key:${key.multikey!}`;
const vm = `${did}#${key.multikey!}`;

function signed(proof: { created?: string; expires?: unknown }): Record<string, unknown> {
  const { created = '2025-01-01T00:00:00Z', ...extra } = proof;
  return signEddsaJcs2022(unsignedCredential(did), key, vm, created, extra);
}

function proofCheck(result: CredentialVerification) {
  return result.checks.find((c) => c.id === 'proof')!;
}

describe('Data Integrity proof window (created, expires)', () => {
  it('a proof without expires, or whose expires is in the future, is VALID', async () => {
    expect((await verifyCredential(signed({}), { runtime: runtime() })).status).toBe('VALID');
    const result = await verifyCredential(signed({ expires: '2025-07-01T00:00:00Z' }), { runtime: runtime() });
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    // Within the 60 s skew on both sides.
    expect((await verifyCredential(signed({ created: '2025-06-01T00:00:59Z', expires: '2025-05-31T23:59:30Z' }), { runtime: runtime() })).status).toBe('VALID');
  });

  it('an expired proof is INVALID with the proof check failing', async () => {
    const result = await verifyCredential(signed({ expires: '2025-05-01T00:00:00Z' }), { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(proofCheck(result)).toMatchObject({ status: 'FAIL' });
    expect(proofCheck(result).detail).toContain('expired');
  });

  it('expires "invalidDate" or without an offset is MALFORMED (proof FAIL)', async () => {
    for (const expires of ['invalidDate', '2025-07-01T00:00:00', 20250701]) {
      const result = await verifyCredential(signed({ expires }), { runtime: runtime() });
      expect(result.status, String(expires)).toBe('MALFORMED');
      expect(proofCheck(result).status).toBe('FAIL');
      expect(proofCheck(result).detail).toContain('"expires" is not a dateTimeStamp');
    }
  });

  it('created without an offset is MALFORMED (proof FAIL)', async () => {
    const result = await verifyCredential(signed({ created: '2025-01-01T00:00:00' }), { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(proofCheck(result).detail).toContain('"created" is not a dateTimeStamp');
  });

  it('created far in the future is INVALID (proof FAIL)', async () => {
    const result = await verifyCredential(signed({ created: '2030-01-01T00:00:00Z' }), { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(proofCheck(result).status).toBe('FAIL');
    expect(proofCheck(result).detail).toContain('created in the future');
  });
});
