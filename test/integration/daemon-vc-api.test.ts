/**
 * `svc serve` over real HTTP: the W3C VC-API verifier binding, POST /credentials/verify and POST
 * /presentations/verify. The credentials and presentations are made here with
 * test/support/signing.ts (node:crypto, not svc's code), issued and held by did:keys. A verified
 * credential or presentation is 200 `{verified: true}`; one that does not verify is 400
 * `{verified: false}` with svc's reasons in `errors`; a request svc cannot read is a 400 problem.
 * Every answer is also held to openapi.json by call().
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
      // A challenge binds a presentation: the refusal says where to send one.
      for (const option of ['challenge', 'domain']) {
        const detail = expectProblem(await verify({ verifiableCredential: diCredential, options: { [option]: 'abc' } }), 400, 'INVALID_OPTIONS').detail;
        expect(detail).toContain(`"options.${option}"`);
        expect(detail).toContain('POST /presentations/verify');
      }
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
    expect(doc.paths['/presentations/verify']?.['post']).toMatchObject({ operationId: 'verifyPresentationVcApi', 'x-svc-budget': 'intensive' });
  });
});

/* ------------------------------------------------------------------ POST /presentations/verify */

const holderKey = generateTestKey('EdDSA');
const holderDid = `did:key:${holderKey.multikey}`;
const holderVm = `${holderDid}#${holderKey.multikey}`;
const CHALLENGE = '99b1f3c2-challenge';
const DOMAIN = 'verifier.example';

const aboutHolder = signEddsaJcs2022(unsigned({ credentialSubject: { id: holderDid, name: 'Alice' } }), issuerKey, issuerVm);
const jwtAboutHolder = signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuerVm }, unsigned({ credentialSubject: { id: holderDid, name: 'Alice' } }), issuerKey);

/** A Data Integrity presentation by the holder (proofPurpose authentication) bound to the challenge and domain. */
function diPresentation(credentials: unknown[], binding: Record<string, unknown> = { challenge: CHALLENGE, domain: DOMAIN }): Record<string, unknown> {
  return signEddsaJcs2022(
    { '@context': [VC2], type: ['VerifiablePresentation'], holder: holderDid, verifiableCredential: credentials },
    holderKey,
    holderVm,
    '2026-01-02T00:00:00Z',
    { proofPurpose: 'authentication', ...binding },
  );
}

/** A vp+jwt by the holder: its nonce and aud are the challenge and the domain; the credential inside enveloped. */
const vpJwt = signJws(
  { alg: 'EdDSA', typ: 'vp+jwt', kid: holderVm },
  {
    '@context': [VC2],
    type: ['VerifiablePresentation'],
    holder: holderDid,
    verifiableCredential: [envelope(`data:application/vc+jwt,${jwtAboutHolder}`)],
    nonce: CHALLENGE,
    aud: DOMAIN,
  },
  holderKey,
);
const presentationEnvelope = (id: unknown) => ({ '@context': [VC2], type: 'EnvelopedVerifiablePresentation', id });

function verifyPresentation(body: unknown): Promise<Answer> {
  return call(`${daemon.url}/presentations/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('POST /presentations/verify (the W3C VC-API binding)', () => {
  const vp = diPresentation([aboutHolder]);
  const options = { challenge: CHALLENGE, domain: DOMAIN };

  it('a valid Data Integrity presentation, its challenge and domain → 200 verified true, the passed checks named', async () => {
    const body = result(await verifyPresentation({ verifiablePresentation: vp, options }), 200);
    expect(body.checks).toEqual(expect.arrayContaining(['structure', 'holder', 'proof', 'challenge', 'domain', 'credentials']));
    expect(body.errors).toEqual([]);
  });

  it("options.checks may name the presentation's checks and its credentials' → accepted, the same answer", async () => {
    const body = result(await verifyPresentation({ verifiablePresentation: vp, options: { ...options, checks: ['proof', 'challenge', 'status'] } }), 200);
    expect(body.checks).toContain('proof');
  });

  it("a challenge that is not the proof's, or a domain it does not name → 400 verified false, the check named in errors", async () => {
    const wrong = result(await verifyPresentation({ verifiablePresentation: vp, options: { ...options, challenge: 'replayed' } }), 400);
    expect(wrong.errors.map((e) => e.type)).toContainEqual(expect.stringMatching(/#presentation-check:challenge$/));
    expect(wrong.checks).not.toContain('challenge');
    const elsewhere = result(await verifyPresentation({ verifiablePresentation: vp, options: { ...options, domain: 'other.example' } }), 400);
    expect(elsewhere.errors.map((e) => e.type)).toContainEqual(expect.stringMatching(/#presentation-check:domain$/));
  });

  it('a challenge asked for that the presentation does not carry → 400 verified false', async () => {
    const unbound = diPresentation([aboutHolder], {});
    const body = result(await verifyPresentation({ verifiablePresentation: unbound, options: { challenge: CHALLENGE } }), 400);
    const challenge = body.errors.find((e) => e.type.endsWith('#presentation-check:challenge'));
    expect(challenge, JSON.stringify(body.errors)).toBeDefined();
    expect(challenge!.title).toMatch(/: FAIL$/);
  });

  it('no challenge asked for → verified, and the warnings say replay was not excluded', async () => {
    const body = result(await verifyPresentation({ verifiablePresentation: vp }), 200);
    expect(
      body.warnings
        .filter((w) => w.type.endsWith('#limitation'))
        .map((w) => w.detail)
        .join(' '),
    ).toMatch(/challenge/i);
  });

  it('a tampered presentation → 400 verified false, its proof in errors', async () => {
    const body = result(await verifyPresentation({ verifiablePresentation: { ...vp, holder: 'did:example:mallory' }, options }), 400);
    expect(body.checks).not.toContain('proof');
    expect(body.errors.length).toBeGreaterThan(0);
  });

  it("a credential in it that does not verify → 400 verified false, that credential's reason in errors by its index", async () => {
    const tamperedCredential = { ...aboutHolder, credentialSubject: { id: holderDid, name: 'Mallory' } };
    const body = result(await verifyPresentation({ verifiablePresentation: diPresentation([aboutHolder, tamperedCredential]), options }), 400);
    const proof = body.errors.find((e) => e.type.endsWith('#credential-check:proof'));
    expect(proof, JSON.stringify(body.errors)).toBeDefined();
    expect(proof!.title).toMatch(/^verifiableCredential\[1\] .*: FAIL$/);
    expect(body.checks).toContain('proof');
  });

  it('an EnvelopedVerifiablePresentation (data:application/vp+jwt) → 200 verified true; tampered → 400', async () => {
    const enveloped = result(await verifyPresentation({ verifiablePresentation: presentationEnvelope(`data:application/vp+jwt,${vpJwt}`), options }), 200);
    expect(enveloped.checks).toEqual(expect.arrayContaining(['proof', 'challenge', 'domain']));
    const tampered = result(
      await verifyPresentation({ verifiablePresentation: presentationEnvelope(`data:application/vp+jwt,${tamperedJwt(vpJwt)}`), options }),
      400,
    );
    expect(tampered.checks).not.toContain('proof');
  });

  it('an envelope whose data: URL cannot be read → 400 verified false, one #malformed-envelope error saying why', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['https://example.com/vp.jwt', /not a data: URL/],
      [`data:application/vc+jwt,${vpJwt}`, /media type "application\/vc\+jwt"/],
      ['data:application/vp+jwt,not-a-jwt', /compact JWT/],
      ['data:application/vp+jwt,', /holds no presentation/],
      [42, /EnvelopedVerifiablePresentation has no "id" string/],
    ];
    for (const [id, reason] of cases) {
      const body = result(await verifyPresentation({ verifiablePresentation: presentationEnvelope(id) }), 400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ title: 'Malformed EnvelopedVerifiablePresentation' });
      expect(body.errors[0]!.type).toMatch(/#malformed-envelope$/);
      expect(body.errors[0]!.detail).toMatch(reason);
    }
  });

  describe('requests svc cannot read: 400 problem+json, 413', () => {
    it('verifiablePresentation missing or not an object (a compact JWT string included) → 400 INVALID_REQUEST naming it', async () => {
      expect(expectProblem(await verifyPresentation({}), 400, 'INVALID_REQUEST').detail).toContain('"verifiablePresentation"');
      for (const verifiablePresentation of [JSON.stringify(vp), vpJwt, 42, null, [vp]]) {
        expect(expectProblem(await verifyPresentation({ verifiablePresentation }), 400, 'INVALID_REQUEST').detail).toContain('"verifiablePresentation"');
      }
      // A credential body is no presentation body.
      expectProblem(await verifyPresentation({ verifiableCredential: aboutHolder }), 400, 'INVALID_REQUEST');
    });

    it('options not an object, or a challenge or domain that is not a non-empty string → 400 INVALID_REQUEST naming it', async () => {
      for (const bad of ['proof', 42, null]) {
        expect(expectProblem(await verifyPresentation({ verifiablePresentation: vp, options: bad }), 400, 'INVALID_REQUEST').detail).toContain('"options"');
      }
      for (const bad of [{ challenge: '' }, { challenge: 7 }, { domain: ['a.example'] }]) {
        const detail = expectProblem(await verifyPresentation({ verifiablePresentation: vp, options: bad }), 400, 'INVALID_REQUEST').detail;
        expect(detail).toContain(Object.keys(bad)[0]);
      }
    });

    it('options.checks naming a check svc does not run → 400 INVALID_OPTIONS; an unknown option → a warning', async () => {
      expect(
        expectProblem(await verifyPresentation({ verifiablePresentation: vp, options: { checks: ['proof', 'schema'] } }), 400, 'INVALID_OPTIONS').detail,
      ).toContain('"schema"');
      const body = result(await verifyPresentation({ verifiablePresentation: vp, options: { ...options, returnPresentation: true } }), 200);
      expect(body.warnings.find((w) => w.type.endsWith('#unknown-option'))?.detail).toContain('"options.returnPresentation"');
    });

    it('a duplicate member → 400 INVALID_REQUEST; a body over 512 KiB → 413', async () => {
      const one = JSON.stringify(vp);
      expectProblem(await verifyPresentation(`{"verifiablePresentation":${one},"verifiablePresentation":${one}}`), 400, 'INVALID_REQUEST');
      expectProblem(await verifyPresentation(`{"verifiablePresentation":${one},"options":{"challenge":"a","challenge":"b"}}`), 400, 'INVALID_REQUEST');
      const body = JSON.stringify({ verifiablePresentation: { ...vp, padding: 'x'.repeat(600 * 1024) } });
      expect(expectProblem(await callOversized(`${daemon.url}/presentations/verify`, body), 413, 'PAYLOAD_TOO_LARGE').detail).toContain('512 KiB');
    });
  });
});
