/** Messages that refuse an algorithm name only what svc verifies for that purpose. */
import { describe, expect, it } from 'vitest';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { parseCompactJws } from '../../src/core/proofs/jws.js';
import { unsignedCredential } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const runtime = () => testRuntime(fixedClock('2025-06-01T00:00:00Z'));
const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('algorithm wording', () => {
  it('a vc+jwt with an algorithm svc does not verify names only the credential algorithms', async () => {
    const token = `${b64({ alg: 'RS256', typ: 'vc+jwt' })}.${b64(unsignedCredential(did))}.AAAA`;
    const result = await verifyCredential(token, { runtime: runtime() });
    expect(result.status).toBe('UNSUPPORTED');
    const text = JSON.stringify(result);
    expect(text).toContain('EdDSA, ES256 and ES256K');
    expect(text).not.toContain('ES384');
  });
});

describe('algorithm wording outside credentials', () => {
  it('a JWS without a narrower caller list names every algorithm svc verifies', () => {
    const parsed = parseCompactJws(`${b64({ alg: 'RS256' })}.${b64({})}.AAAA`);
    expect(parsed).toMatchObject({ kind: 'UNSUPPORTED', error: expect.stringContaining('EdDSA, ES256, ES256K and ES384') });
  });
});
