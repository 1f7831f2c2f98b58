/**
 * Credential verification against the W3C test vectors (../shared/fixtures): vc-di-eddsa and
 * vc-di-ecdsa JCS vectors (issuer not a DID → proof PASS, overall INDETERMINATE),
 * rdfc/P-384/proof-set vectors → UNSUPPORTED, and every `verify` row of the vc-jose-cose test suite
 * for `credential_jose`, with the suite's keys injected through a KeySource (the vectors' issuer is
 * an https: URL, not a DID).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ControllerKeys, KeySource } from '../../src/core/credentials/keys.js';
import { keysOfDocument } from '../../src/core/credentials/keys.js';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const runtime = () => testRuntime(fixedClock('2025-06-01T00:00:00Z'));

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function check(result: CredentialVerification, id: string) {
  const found = result.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}

function truncateProofValue(credential: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(credential);
  const proof = copy['proof'] as Record<string, unknown>;
  proof['proofValue'] = (proof['proofValue'] as string).slice(0, -1);
  return copy;
}

describeWithFixtures('W3C vc-di-eddsa eddsa-jcs-2022 vector', 'vc-di-eddsa', (dir) => {
  const signed = () => readJson(path.join(dir, 'TestVectors/eddsa-jcs-2022/signedJCS.json'));

  it('verifies the proof, but cannot bind the did:key to the https issuer: INDETERMINATE', async () => {
    const result = await verifyCredential(signed(), { runtime: runtime() });
    expect(result.status).toBe('INDETERMINATE');
    expect(result.valid).toBe(false);
    expect(result.format).toBe('DATA_INTEGRITY');
    expect(result.dataModel).toBe('2.0');
    expect(check(result, 'structure').status).toBe('PASS');
    expect(check(result, 'proof').status).toBe('PASS');
    expect(check(result, 'issuer')).toMatchObject({ status: 'INDETERMINATE', detail: expect.stringContaining('https://vc.example/issuers/5678 is not a DID') });
    expect(result.proof).toMatchObject({
      format: 'DATA_INTEGRITY',
      suite: 'eddsa-jcs-2022',
      verificationMethod: 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2',
      proofPurpose: 'assertionMethod',
      created: '2023-02-24T23:36:38Z',
      keyCurve: 'Ed25519',
    });
    // The digest of hashData is the SHA-256 of the vector's combined hash (proofHash ‖ docHash).
    const combined = readFileSync(path.join(dir, 'TestVectors/eddsa-jcs-2022/combinedHashJCS.txt'), 'utf8').trim();
    const { createHash } = await import('node:crypto');
    expect(result.proof!.signedDigest).toBe(createHash('sha256').update(Buffer.from(combined, 'hex')).digest('hex'));
    expect(result.issuerResolution).toMatchObject({ did: 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2', outcome: 'RESOLVED' });
    expect(result.issuer).toBe('https://vc.example/issuers/5678');
    expect(result.subject).toBe('did:example:abcdefgh');
    expect(result.types).toEqual(['VerifiableCredential', 'AlumniCredential']);
    expect(result.validFrom).toBe('2023-01-01T00:00:00Z');
    expect(result.claims).toEqual({ id: 'did:example:abcdefgh', alumniOf: 'The School of Examples' });
    expect(check(result, 'validity').status).toBe('PASS');
    expect(check(result, 'status').status).toBe('SKIP');
    expect(result.statusList).toEqual([]);
  });

  it('a proofValue truncated by one character is INVALID', async () => {
    const result = await verifyCredential(truncateProofValue(signed()), { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('FAIL');
    // Nothing runs after a fatal failure.
    for (const id of ['validity', 'status', 'jwt.aud', 'kb.nonce'])
      expect(check(result, id)).toMatchObject({ status: 'SKIP', detail: 'Not run: the proof check failed.' });
  });

  it('one changed claim is INVALID', async () => {
    const tampered = signed();
    (tampered['credentialSubject'] as Record<string, unknown>)['alumniOf'] = 'The School of Forgeries';
    const result = await verifyCredential(tampered, { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').detail).toContain('does not verify');
  });

  it('a document @context that does not start with the proof @context is INVALID', async () => {
    const tampered = signed();
    tampered['@context'] = ['https://www.w3.org/ns/credentials/v2', 'https://example.org/other/v1'];
    const result = await verifyCredential(tampered, { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').detail).toContain('@context');
  });

  it('eddsa-rdfc-2022 and proof sets are UNSUPPORTED, not INVALID', async () => {
    const rdfc = await verifyCredential(readJson(path.join(dir, 'TestVectors/eddsa-rdfc-2022/signedDataInt.json')), { runtime: runtime() });
    expect(rdfc.status).toBe('UNSUPPORTED');
    expect(check(rdfc, 'proof')).toMatchObject({ status: 'UNSUPPORTED', detail: expect.stringContaining('eddsa-rdfc-2022') });
    const set = await verifyCredential(readJson(path.join(dir, 'TestVectors/proof-set-chain/signedProofSet2.json')), { runtime: runtime() });
    expect(set.status).toBe('UNSUPPORTED');
  });
});

describeWithFixtures('W3C vc-di-ecdsa ecdsa-jcs-2019 vectors', 'vc-di-ecdsa', (dir) => {
  const p256 = () => readJson(path.join(dir, 'TestVectors/ecdsa-jcs-2019-p256/signedJCSECDSAP256.json'));

  it('P-256: proof PASS, issuer not a DID: INDETERMINATE', async () => {
    const result = await verifyCredential(p256(), { runtime: runtime() });
    expect(result.status).toBe('INDETERMINATE');
    expect(check(result, 'proof').status).toBe('PASS');
    expect(check(result, 'issuer').status).toBe('INDETERMINATE');
    expect(result.proof).toMatchObject({ suite: 'ecdsa-jcs-2019', keyCurve: 'P-256' });
  });

  it('P-256 with a truncated proofValue is INVALID', async () => {
    const result = await verifyCredential(truncateProofValue(p256()), { runtime: runtime() });
    expect(result.status).toBe('INVALID');
  });

  it('P-384 and ecdsa-rdfc-2019 are UNSUPPORTED', async () => {
    const p384 = await verifyCredential(readJson(path.join(dir, 'TestVectors/ecdsa-jcs-2019-p384/signedJCSECDSAP384.json')), { runtime: runtime() });
    expect(p384.status).toBe('UNSUPPORTED');
    expect(check(p384, 'proof').detail).toContain('P-384');
    const rdfc = await verifyCredential(readJson(path.join(dir, 'TestVectors/ecdsa-rdfc-2019-p256/signedECDSAP256.json')), { runtime: runtime() });
    expect(rdfc.status).toBe('UNSUPPORTED');
  });
});

interface SuiteRow {
  name: string;
  input: string;
  key: string;
  function: string;
  feature: string;
  expected: 'success' | 'failure';
}

/** A KeySource that knows the suite's key under its controller (an https: URL) for assertionMethod. */
async function suiteKeySource(vm: Record<string, unknown>): Promise<KeySource> {
  const controller = vm['controller'] as string;
  const id = vm['id'] as string;
  const document = { id: controller, verificationMethod: [{ id, type: 'JsonWebKey', controller, publicKeyJwk: vm['publicKeyJwk'] }], assertionMethod: [id] };
  const keys = await keysOfDocument(controller, document);
  return {
    async keysOf(asked): Promise<ControllerKeys> {
      if (asked !== controller) return { ok: false, controller: asked, reason: `the test knows no keys of ${asked}`, resolution: null };
      return { ok: true, controller, keys, deactivated: false, resolution: null, enriched: null };
    },
  };
}

describeWithFixtures('W3C vc-jose-cose test suite: credential_jose verify rows', 'vc-jose-cose', (dir) => {
  const rows = (JSON.parse(readFileSync(path.join(dir, 'expected-results.json'), 'utf8')) as SuiteRow[]).filter(
    (r) => r.function === 'verify' && r.feature === 'credential_jose',
  );

  it('has the verify rows the suite maps', () => {
    expect(rows.length).toBeGreaterThanOrEqual(6);
  });

  for (const row of rows) {
    it(`${row.name}: ${row.expected}`, async () => {
      const vm = readJson(path.join(dir, 'tests/input', row.key));
      const text = readFileSync(path.join(dir, 'tests/input', row.input), 'utf8');
      const input = row.input.endsWith('.json') ? text : text.trim();
      const result = await verifyCredential(input, { runtime: runtime(), keySource: await suiteKeySource(vm) });
      if (row.expected === 'success') {
        expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
        expect(result.valid).toBe(true);
        expect(result.format).toBe('VC_JOSE_COSE');
      } else {
        expect(result.status).not.toBe('VALID');
        expect(result.valid).toBe(false);
      }
    });
  }

  it('maps each failing row to the precise status', async () => {
    const ed = readJson(path.join(dir, 'tests/input/vm-ed25519.json'));
    const verify = async (file: string) =>
      verifyCredential(readFileSync(path.join(dir, 'tests/input', file), 'utf8').trim(), { runtime: runtime(), keySource: await suiteKeySource(ed) });
    expect((await verify('credential-jose-bad-signature.txt')).status).toBe('INVALID');
    const mediaType = await verify('credential-jose-bad-media-type.txt');
    expect(mediaType.status).toBe('INVALID');
    expect(check(mediaType, 'structure').detail).toContain('vc+jwt');
    const claims = await verify('credential-jose-vc-vp-claims.txt');
    expect(claims.status).toBe('INVALID');
    expect(check(claims, 'structure').detail).toContain('"vc" claim');
    expect((await verify('credential-jose-unknown-extensions.txt')).status).toBe('UNSUPPORTED');
    const unsecured = await verifyCredential(readJson(path.join(dir, 'tests/input/credential-minimal.json')), { runtime: runtime() });
    expect(unsecured.status).toBe('MALFORMED');
    expect(check(unsecured, 'structure')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('no proof') });
  });

  it('without the injected key the https issuer has no keys svc can find: INDETERMINATE', async () => {
    const result = await verifyCredential(readFileSync(path.join(dir, 'tests/input/credential-issuer-match-signed.txt'), 'utf8').trim(), {
      runtime: runtime(),
    });
    expect(result.status).toBe('INDETERMINATE');
    expect(check(result, 'proof').detail).toContain('not a DID');
  });

  it('reports the string iat of the vectors as a structure warning, not a failure', async () => {
    const ed = readJson(path.join(dir, 'tests/input/vm-ed25519.json'));
    const result = await verifyCredential(readFileSync(path.join(dir, 'tests/input/credential-issuer-match-signed.txt'), 'utf8').trim(), {
      runtime: runtime(),
      keySource: await suiteKeySource(ed),
    });
    expect(check(result, 'structure')).toMatchObject({ status: 'WARN', detail: expect.stringContaining('"iat"') });
  });
});

describe('credential input', () => {
  it('a nested duplicate member in a raw JSON string is MALFORMED', async () => {
    const text =
      '{"@context":["https://www.w3.org/ns/credentials/v2"],"type":["VerifiableCredential"],"issuer":"did:example:a","credentialSubject":{"id":"did:example:b","name":"x","name":"y"},"proof":{}}';
    const result = await verifyCredential(text, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(check(result, 'structure').detail).toContain('duplicate member "name"');
  });

  it('escaped-equal member names are duplicates too', async () => {
    const result = await verifyCredential('{"issuer":"did:example:a","\\u0069ssuer":"did:example:b"}', { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(check(result, 'structure').detail).toContain('duplicate member "issuer"');
  });

  it('a JWT payload with two iss claims is MALFORMED', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    const token = `${b64('{"alg":"EdDSA","typ":"vc+jwt"}')}.${b64('{"iss":"did:example:a","iss":"did:example:b"}')}.${b64('sig')}`;
    const result = await verifyCredential(token, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(check(result, 'structure').detail).toContain('duplicate member "iss"');
  });

  it('refuses alg none, b64 false and crit', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    const payload = b64(
      JSON.stringify({
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        type: ['VerifiableCredential'],
        issuer: 'did:example:a',
        credentialSubject: { id: 'did:example:b' },
      }),
    );
    const none = await verifyCredential(`${b64('{"alg":"none","typ":"vc+jwt"}')}.${payload}.`, { runtime: runtime() });
    expect(none.status).toBe('UNSUPPORTED');
    expect(check(none, 'proof').detail).toContain('"none"');
    const crit = await verifyCredential(`${b64('{"alg":"EdDSA","crit":["exp"],"exp":1}')}.${payload}.${b64('x')}`, { runtime: runtime() });
    expect(crit.status).toBe('UNSUPPORTED');
    const unencoded = await verifyCredential(`${b64('{"alg":"EdDSA","crit":["b64"],"b64":false}')}.${payload}.${b64('x')}`, { runtime: runtime() });
    expect(unencoded.status).toBe('UNSUPPORTED');
  });

  it('anything that is neither an object nor a JWT is MALFORMED; an SD-JWT is read as one (untyped: MALFORMED, RS256: UNSUPPORTED)', async () => {
    for (const input of [42, null, ['x'], 'hello', '[1]']) {
      expect((await verifyCredential(input, { runtime: runtime() })).status).toBe('MALFORMED');
    }
    const sd = await verifyCredential('eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln~WyJzYWx0IiwibmFtZSIsIngiXQ~', { runtime: runtime() });
    expect([sd.status, sd.format]).toEqual(['MALFORMED', 'SD_JWT_VC']);
    expect(sd.checks.find((c) => c.id === 'structure')?.detail).toMatch(/typ/);
    const header = Buffer.from('{"typ":"dc+sd-jwt","alg":"RS256"}').toString('base64url');
    const rs = await verifyCredential(`${header}.eyJ4IjoxfQ.c2ln~`, { runtime: runtime() });
    expect([rs.status, rs.format]).toEqual(['UNSUPPORTED', 'SD_JWT_VC']);
  });

  it('a presentation is UNSUPPORTED', async () => {
    const result = await verifyCredential(
      { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], proof: {} },
      { runtime: runtime() },
    );
    expect(result.status).toBe('UNSUPPORTED');
  });

  it('an object without a proof is of no known format, not Data Integrity; one with a proof is', async () => {
    const unsecured = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: 'did:example:a',
      credentialSubject: { id: 'did:example:b' },
    };
    for (const input of [{}, '{}', unsecured]) {
      const result = await verifyCredential(input, { runtime: runtime() });
      expect(result).toMatchObject({ status: 'MALFORMED', format: 'UNKNOWN', proof: null });
      expect(check(result, 'structure').detail).toContain('no proof');
    }
    const secured = await verifyCredential({ ...unsecured, proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022' } }, { runtime: runtime() });
    expect(secured.format).toBe('DATA_INTEGRITY');
    expect(secured.proof).toMatchObject({ format: 'DATA_INTEGRITY', suite: 'eddsa-jcs-2022' });
  });
});
