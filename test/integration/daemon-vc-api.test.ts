/**
 * `svc serve` over real HTTP: the W3C VC-API verifier binding, POST /credentials/verify. The
 * credentials are made here with test/support/signing.ts (node:crypto, not svc's code) and
 * issued by a did:key. A verified credential is 200 `{verified: true}`; one that does not verify
 * is 400 `{verified: false}` with svc's reasons in `errors`; a request svc cannot read is a 400
 * problem. Every answer is also held to openapi.json by call().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonHandle } from '../support/daemon.js';
import { call, callOversized, expectJson, expectProblem, startInProcessDaemonFor, type Answer } from '../support/daemon-client.js';
import { generateTestKey, signEddsaJcs2022, signJws } from '../support/signing.js';

const VC2 = 'https://www.w3.org/ns/credentials/v2';
const issuerKey = generateTestKey('EdDSA');
const issuerDid = `did:key:${issuerKey.multikey}`;
const issuerVm = `${issuerDid}#${issuerKey.multikey}`;

function unsigned(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@context': [VC2],
    type: ['VerifiableCredential', 'ExampleCredential'],
    issuer: issuerDid,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: 'did:example:alice', name: 'Alice' },
    ...extra,
  };
}

const diCredential = signEddsaJcs2022(unsigned(), issuerKey, issuerVm);
const tampered = { ...diCredential, credentialSubject: { id: 'did:example:alice', name: 'Mallory' } };
const expired = signEddsaJcs2022(unsigned({ validUntil: '2026-02-01T00:00:00Z' }), issuerKey, issuerVm);
const jwt = signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuerVm }, unsigned(), issuerKey);

/** The JWT with one character of its payload changed: the signature no longer covers it. */
function tamperedJwt(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const changed = Buffer.from(JSON.stringify({ ...claims, credentialSubject: { id: 'did:example:alice', name: 'Mallory' } })).toString('base64url');
  return `${header}.${changed}.${signature}`;
}

const envelope = (id: string) => ({ '@context': [VC2], type: 'EnvelopedVerifiableCredential', id });

let daemon: DaemonHandle;
beforeAll(async () => {
  daemon = await startInProcessDaemonFor(null);
});
afterAll(async () => {
  await daemon?.stop();
});

function verify(body: unknown): Promise<Answer> {
  return call(`${daemon.url}/credentials/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

interface ProblemDetails {
  type: string;
  title: string;
  detail: string;
}
interface VcApiResult {
  verified: boolean;
  checks: string[];
  warnings: ProblemDetails[];
  errors: ProblemDetails[];
}

/** A VC-API result: exact status, application/json, exactly VC-API's four members. */
function result(answer: Answer, status: 200 | 400): VcApiResult {
  const body = expectJson(answer, status) as VcApiResult;
  expect(Object.keys(body).sort()).toEqual(['checks', 'errors', 'verified', 'warnings']);
  expect(body.verified).toBe(status === 200);
  return body;
}

describe('POST /credentials/verify (the W3C VC-API binding)', () => {
  it('a valid eddsa-jcs-2022 credential → 200 verified true, the passed checks named, no errors', async () => {
    const body = result(await verify({ verifiableCredential: diCredential }), 200);
    expect(body.checks).toEqual(expect.arrayContaining(['structure', 'issuer', 'proof', 'validity']));
    expect(body.errors).toEqual([]);
  });

  it('VC-API options {checks: ["proof"]} → accepted, same answer', async () => {
    const body = result(await verify({ verifiableCredential: diCredential, options: { checks: ['proof'] } }), 200);
    expect(body.checks).toContain('proof');
    expect(body.warnings.some((w) => w.title === 'Unknown option')).toBe(false);
  });

  it('a tampered credential → 400 verified false, the proof reason in errors', async () => {
    const body = result(await verify({ verifiableCredential: tampered }), 400);
    expect(body.checks).not.toContain('proof');
    const proof = body.errors.find((e) => e.type.endsWith('#credential-check:proof'));
    expect(proof, JSON.stringify(body.errors)).toBeDefined();
    expect(proof!.title).toMatch(/: FAIL$/);
    expect(proof!.detail.length).toBeGreaterThan(0);
  });

  it('an expired credential → 400 verified false, the validity reason in errors', async () => {
    const body = result(await verify({ verifiableCredential: expired }), 400);
    expect(body.checks).toContain('proof');
    const validity = body.errors.find((e) => e.type.endsWith('#credential-check:validity'));
    expect(validity, JSON.stringify(body.errors)).toBeDefined();
    expect(validity!.detail).toMatch(/2026-02-01/);
  });

  it('an enveloped vc+jwt credential → 200 verified true', async () => {
    const body = result(await verify({ verifiableCredential: envelope(`data:application/vc+jwt,${jwt}`) }), 200);
    expect(body.checks).toEqual(expect.arrayContaining(['structure', 'issuer', 'proof', 'validity']));
  });

  it('an enveloped tampered vc+jwt → 400 verified false with the proof reason', async () => {
    const body = result(await verify({ verifiableCredential: envelope(`data:application/vc+jwt,${tamperedJwt(jwt)}`) }), 400);
    expect(body.errors.some((e) => e.type.endsWith('#credential-check:proof'))).toBe(true);
  });

  it('an envelope whose data: URL is malformed → 400 verified false naming why', async () => {
    const cases: Array<[string | number, RegExp]> = [
      ['https://example.com/vc.jwt', /not a data: URL/],
      ['data:application/vc+jwt;base64', /without the comma/],
      [`data:application/json,${jwt}`, /media type "application\/json"/],
      ['data:application/vc+jwt,not-a-jwt', /compact JWT/],
      ['data:application/vc+jwt,', /holds no credential/],
      [42, /no "id" string/],
    ];
    for (const [id, reason] of cases) {
      const body = result(await verify({ verifiableCredential: { ...envelope(''), id } }), 400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.type).toMatch(/#malformed-envelope$/);
      expect(body.errors[0]!.detail).toMatch(reason);
    }
  });

  describe('requests svc cannot read: 400 problem+json, 413', () => {
    it('verifiableCredential as a JSON string → 400 (VC-API takes an object; /v1 takes strings)', async () => {
      for (const verifiableCredential of [JSON.stringify(diCredential), jwt, 42, null, [diCredential]]) {
        const problem = expectProblem(await verify({ verifiableCredential }), 400, 'INVALID_REQUEST');
        expect(problem.detail).toContain('"verifiableCredential"');
      }
    });

    it('missing verifiableCredential → 400; a /v1-style body ({credential}) too', async () => {
      expect(expectProblem(await verify({}), 400, 'INVALID_REQUEST').detail).toContain('"verifiableCredential" (required) is missing');
      expectProblem(await verify({ credential: diCredential }), 400, 'INVALID_REQUEST');
      expectProblem(await verify(diCredential), 400, 'INVALID_REQUEST');
    });

    it('options not an object → 400', async () => {
      for (const options of ['proof', ['proof'], 42, null]) {
        expect(expectProblem(await verify({ verifiableCredential: diCredential, options }), 400, 'INVALID_REQUEST').detail).toContain('"options"');
      }
    });

    it('options.checks naming a check svc does not run, or challenge/domain → 400 INVALID_OPTIONS', async () => {
      expect(
        expectProblem(await verify({ verifiableCredential: diCredential, options: { checks: ['proof', 'schema'] } }), 400, 'INVALID_OPTIONS').detail,
      ).toContain('"schema"');
      expect(expectProblem(await verify({ verifiableCredential: diCredential, options: { challenge: 'abc' } }), 400, 'INVALID_OPTIONS').detail).toContain(
        'challenge',
      );
      expectProblem(await verify({ verifiableCredential: diCredential, options: { checks: 'proof' } }), 400, 'INVALID_REQUEST');
    });

    it('an unknown option is reported as a warning, never applied silently', async () => {
      const body = result(await verify({ verifiableCredential: diCredential, options: { returnCredential: true } }), 200);
      const warning = body.warnings.find((w) => w.type.endsWith('#unknown-option'));
      expect(warning?.detail).toContain('"options.returnCredential"');
    });

    it('an unknown top-level member → 400 naming it', async () => {
      const problem = expectProblem(await verify({ verifiableCredential: diCredential, presentation: {} }), 400, 'INVALID_REQUEST');
      expect(problem.detail).toContain('"presentation"');
    });

    it('a duplicate member → 400 INVALID_REQUEST; a body that is not a JSON object → 400', async () => {
      const one = JSON.stringify(diCredential);
      expectProblem(await verify(`{"verifiableCredential":${one},"verifiableCredential":${one}}`), 400, 'INVALID_REQUEST');
      expectProblem(await verify(`{"verifiableCredential":${one.replace('"name":"Alice"', '"name":"Alice","name":"Mallory"')}}`), 400, 'INVALID_REQUEST');
      expectProblem(await verify('[1]'), 400, 'INVALID_REQUEST');
      expectProblem(await verify('{"verifiableCredential": {'), 400, 'INVALID_REQUEST');
    });

    it('a body over 512 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
      const body = JSON.stringify({ verifiableCredential: { ...diCredential, padding: 'x'.repeat(600 * 1024) } });
      expect(expectProblem(await callOversized(`${daemon.url}/credentials/verify`, body), 413, 'PAYLOAD_TOO_LARGE').detail).toContain('512 KiB');
    });
  });

  it('is in openapi.json with the intensive budget', async () => {
    const doc = expectJson(await call(`${daemon.url}/openapi.json`), 200) as {
      paths: Record<string, Record<string, { operationId: string; 'x-svc-budget': string }>>;
    };
    expect(doc.paths['/credentials/verify']?.['post']).toMatchObject({ operationId: 'verifyCredentialVcApi', 'x-svc-budget': 'intensive' });
  });
});
