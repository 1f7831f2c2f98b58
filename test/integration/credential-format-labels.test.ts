/**
 * Format labels that match the token: a compact JWT is classified by its `typ` and claims
 * (classifyCompactToken) before any rule explains it, so each reason speaks of the format the
 * token claims. Every credential of the real-world fixtures (MANIFEST.json, kind "credentials")
 * gets the label its own `typ` and claims say, read here from first principles; each class is
 * made explicitly with jose (a did:key issuer): vc+jwt, VC 2.0 payloads typed otherwise,
 * VC-JWT 1.1, vp+jwt and `vp` presentations, SD-JWT VC types without "~", and JWTs that are no
 * credential at all.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCompactToken } from '../../src/core/credentials/jwt.js';
import type { KeySource } from '../../src/core/credentials/keys.js';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { issueVcJwt, jwtIssuer, unsignedCredential, unsignedCredential11, VC2_CONTEXT, type Json } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const runtime = () => testRuntime(fixedClock('2025-06-01T00:00:00Z'));
/** Nothing is looked up: a label is decided before any key is. */
const noKeys: KeySource = { keysOf: async (controller) => ({ ok: false, controller, reason: 'no keys in this test', resolution: null }) };

const check = (result: CredentialVerification, id: string) => result.checks.find((c) => c.id === id)!;
/** Every sentence of the result that explains it: the checks, the headline, the proof's detail. */
const explanation = (result: CredentialVerification) => [result.headline, ...result.checks.map((c) => c.detail), result.proof?.detail ?? ''].join(' ');

function decodePart(token: string, index: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('~')[0]!.split('.')[index]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The label a token's own `typ` and claims call for, written from the rules, not from svc's code. */
function expectedLabel(text: string): { format: string; presentation: boolean } {
  if (text.startsWith('{')) {
    const json = JSON.parse(text) as Record<string, unknown>;
    return { format: json['proof'] === undefined ? 'UNKNOWN' : 'DATA_INTEGRITY', presentation: false };
  }
  const header = decodePart(text, 0);
  const payload = decodePart(text, 1);
  const typ = typeof header['typ'] === 'string' ? header['typ'].toLowerCase().replace(/^application\//, '') : null;
  const types = ([] as unknown[]).concat(payload['type'] ?? []);
  if (typ === 'vc+jwt') return { format: 'VC_JOSE_COSE', presentation: false };
  if (typ === 'vp+jwt') return { format: 'VC_JOSE_COSE', presentation: true };
  if (typ === 'dc+sd-jwt' || typ === 'vc+sd-jwt') return { format: 'SD_JWT_VC', presentation: false };
  if (payload['vp'] !== undefined) return { format: 'VC_JWT_1_1', presentation: true };
  if (payload['vc'] !== undefined) return { format: 'VC_JWT_1_1', presentation: false };
  if (payload['@context'] !== undefined && payload['type'] !== undefined) {
    return { format: 'VC_JOSE_COSE', presentation: types.includes('VerifiablePresentation') && !types.includes('VerifiableCredential') };
  }
  return { format: 'UNKNOWN', presentation: false };
}

describeWithFixtures('real-world credentials: the label their typ and claims say', 'real-world', (dir) => {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8')) as { files: Array<{ kind: string; file: string }> };
  const files = manifest.files.filter((f) => f.kind === 'credentials');

  it('has the 1EdTech credentials, among them compact VC-JWT 1.1 tokens', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    const tokens = files.filter((f) => !readFileSync(path.join(dir, f.file), 'utf8').trim().startsWith('{'));
    expect(tokens.map((f) => path.basename(f.file)).sort()).toEqual(['simple.jwt', 'simple.jwt', 'velocity.jwt']);
  });

  for (const entry of files) {
    it(entry.file.split('/').slice(-2).join('/'), async () => {
      const text = readFileSync(path.join(dir, entry.file), 'utf8').trim();
      const expected = expectedLabel(text);
      const result = await verifyCredential(text, { runtime: runtime(), keySource: noKeys });
      expect(result.format).toBe(expected.format);
      if (expected.presentation) expect(result.status).toBe('UNSUPPORTED');
      if (expected.format === 'VC_JWT_1_1') {
        // A VC-JWT 1.1 is told about JWTs, never about the Data Integrity or vc+jwt rules it does not claim.
        expect(result.proof?.format).toBe('VC_JWT_1_1');
        expect(explanation(result)).not.toMatch(/vc\+jwt|Data Integrity|eddsa-jcs/);
      }
    });
  }
});

/* ------------------------------------------------------------------ each class, made with jose */

const issuer = jwtIssuer('EdDSA');
const credential2 = (extra: Json = {}) => unsignedCredential(issuer.did, extra);
const vc11 = () => ({ iss: issuer.did, nbf: Math.floor(Date.parse('2025-01-01T00:00:00Z') / 1000), vc: unsignedCredential11() });
const presentation2 = () => ({ '@context': [VC2_CONTEXT], type: ['VerifiablePresentation'], holder: issuer.did, verifiableCredential: [] });
/** A token signed by jose with the header `{alg: EdDSA, kid}` plus `header` (typ: undefined → untyped). */
const token = (payload: Json, header: Record<string, unknown>) => issueVcJwt(payload, issuer, header);
const verify = (text: string) => verifyCredential(text, { runtime: runtime() });

describe('credentials: labelled by the format they claim and verified by its rules', () => {
  it('typ vc+jwt with a VC 2.0 payload → VC_JOSE_COSE, VALID', async () => {
    const result = await verify(await token(credential2(), { typ: 'vc+jwt' }));
    expect([result.format, result.status]).toEqual(['VC_JOSE_COSE', 'VALID']);
  });

  it('an untyped VC 2.0 payload (@context and type) → VC_JOSE_COSE, VALID (a present typ must be vc+jwt; an absent one is allowed)', async () => {
    const result = await verify(await token(credential2(), { typ: undefined }));
    expect([result.format, result.status]).toEqual(['VC_JOSE_COSE', 'VALID']);
  });

  it('typ JWT with a VC 2.0 payload → VC_JOSE_COSE, INVALID by the VC-JOSE-COSE typ rule', async () => {
    const result = await verify(await token(credential2(), { typ: 'JWT' }));
    expect([result.format, result.status]).toEqual(['VC_JOSE_COSE', 'INVALID']);
    expect(check(result, 'structure').detail).toMatch(/"typ" is "JWT"; a VC-JOSE credential must be typed vc\+jwt/);
  });

  for (const typ of ['JWT', undefined]) {
    it(`VC-JWT 1.1 (${typ === undefined ? 'untyped' : `typ ${typ}`}, a "vc" claim) → VC_JWT_1_1, VALID`, async () => {
      const result = await verify(await token(vc11(), { typ }));
      expect([result.format, result.proof?.format, result.status, result.dataModel]).toEqual(['VC_JWT_1_1', 'VC_JWT_1_1', 'VALID', '1.1']);
    });
  }

  it('a "vc" claim under another typ → VC_JWT_1_1, INVALID by the VC-JWT 1.1 typ rule (never the VC 2.0 rules)', async () => {
    const result = await verify(await token(vc11(), { typ: 'example+jwt' }));
    expect([result.format, result.status]).toEqual(['VC_JWT_1_1', 'INVALID']);
    expect(check(result, 'structure').detail).toMatch(/a VC-JWT 1\.1 credential is typed JWT when typed at all/);
    expect(explanation(result)).not.toMatch(/vc\+jwt|VC Data Model 2\.0/);
  });
});

describe('presentations: UNSUPPORTED here, sent to the presentation verifier', () => {
  const cases: Array<[string, () => Promise<string>, string, RegExp]> = [
    ['typ vp+jwt', () => token(presentation2(), { typ: 'vp+jwt' }), 'VC_JOSE_COSE', /typed vp\+jwt, VC-JOSE-COSE/],
    [
      'a "vp" claim, typ JWT',
      () => token({ iss: issuer.did, vp: { type: ['VerifiablePresentation'] } }, { typ: 'JWT' }),
      'VC_JWT_1_1',
      /VC-JWT 1\.1 "vp" claim/,
    ],
    [
      'a "vp" claim, untyped',
      () => token({ iss: issuer.did, vp: { type: ['VerifiablePresentation'] } }, { typ: undefined }),
      'VC_JWT_1_1',
      /"vp" claim, untyped/,
    ],
    ['an untyped VC 2.0 presentation payload', () => token(presentation2(), { typ: undefined }), 'VC_JOSE_COSE', /VC 2\.0 presentation payload/],
  ];
  for (const [name, make, format, what] of cases) {
    it(`${name} → ${format}, UNSUPPORTED, naming the presentation and where to verify it`, async () => {
      const result = await verify(await make());
      expect([result.format, result.status]).toEqual([format, 'UNSUPPORTED']);
      const detail = check(result, 'structure').detail;
      expect(detail).toMatch(/^The token is a verifiable presentation \(/);
      expect(detail).toMatch(what);
      expect(detail).toContain('svc verify-presentation');
      expect(detail).toContain('POST /v1/presentations/verify');
      expect(result.headline).toMatch(/^The credential cannot be verified by svc: the token is a verifiable presentation/);
    });
  }

  it('a presentation object (JSON) says the same', async () => {
    const result = await verify(JSON.stringify({ ...presentation2(), proof: { type: 'DataIntegrityProof' } }));
    expect(result.status).toBe('UNSUPPORTED');
    expect(check(result, 'structure').detail).toMatch(
      /verifiable presentation, not a credential: verify it with svc verify-presentation or POST \/v1\/presentations\/verify/,
    );
  });
});

describe('SD-JWT VC types without "~"', () => {
  for (const typ of ['dc+sd-jwt', 'vc+sd-jwt']) {
    it(`typ ${typ}, no "~" → SD_JWT_VC, MALFORMED, explaining the compact SD-JWT form`, async () => {
      const result = await verify(await token({ iss: issuer.did, vct: 'https://credentials.example/identity', _sd_alg: 'sha-256' }, { typ }));
      expect([result.format, result.status]).toEqual(['SD_JWT_VC', 'MALFORMED']);
      const detail = check(result, 'structure').detail;
      expect(detail).toContain(`typed ${typ}, an SD-JWT VC, but has no "~"`);
      expect(detail).toContain('<issuer JWT>~<disclosure>~…~[<KB-JWT>]');
      expect(explanation(result)).not.toMatch(/vc\+jwt|VC Data Model|"vc" claim/);
    });
  }
});

describe('JWTs that are no credential: UNKNOWN, MALFORMED, naming what is missing', () => {
  const idToken = { iss: 'https://op.example', sub: 'alice', aud: 'client-1', iat: 1748736000, exp: 1748739600 };
  const cases: Array<[string, Json, Record<string, unknown>, RegExp, RegExp]> = [
    ['typ JWT, OpenID id_token claims', idToken, { typ: 'JWT' }, /\(typed "JWT"\)/, /it has no "@context" or "type"/],
    ['untyped, OpenID id_token claims', idToken, { typ: undefined }, /\(untyped\)/, /it has no "@context" or "type"/],
    [
      'typ at+jwt (an OAuth access token)',
      { ...idToken, client_id: 'client-1', jti: 'a1' },
      { typ: 'at+jwt' },
      /\(typed "at\+jwt"\)/,
      /no "@context" or "type"/,
    ],
    ['typ JWT with @context but no type', { '@context': [VC2_CONTEXT], issuer: issuer.did }, { typ: 'JWT' }, /\(typed "JWT"\)/, /it has no "type"\)/],
    ['untyped with type but no @context', { type: ['VerifiableCredential'], issuer: issuer.did }, { typ: undefined }, /\(untyped\)/, /it has no "@context"\)/],
  ];
  for (const [name, payload, header, typed, lacks] of cases) {
    it(name, async () => {
      const result = await verify(await token(payload, header));
      expect([result.format, result.status, result.proof]).toEqual(['UNKNOWN', 'MALFORMED', null]);
      const detail = check(result, 'structure').detail;
      expect(detail).toMatch(/^The token is a JWT that is not a credential /);
      expect(detail).toMatch(typed);
      expect(detail).toContain('it has no "vc" claim, which a VC-JWT 1.1 credential carries');
      expect(detail).toContain('neither "typ": "vc+jwt" nor a VC 2.0 payload');
      expect(detail).toMatch(lacks);
      // Not explained by a credential's rules it never claimed.
      expect(explanation(result)).not.toMatch(/VC Data Model|must be typed/);
      expect(result.checks.filter((c) => c.id !== 'structure').every((c) => c.status === 'SKIP')).toBe(true);
    });
  }
});

describe('classifyCompactToken (exported for the presentation verifier)', () => {
  it('answers the kind, the format and the media type from the header and payload alone', () => {
    const vc2 = { '@context': [VC2_CONTEXT], type: ['VerifiableCredential'] };
    expect(classifyCompactToken({ typ: 'application/vc+jwt' }, vc2)).toEqual({ kind: 'credential', format: 'VC_JOSE_COSE', typ: 'vc+jwt' });
    expect(classifyCompactToken({}, vc2)).toEqual({ kind: 'credential', format: 'VC_JOSE_COSE', typ: null });
    expect(classifyCompactToken({ typ: 'JWT' }, { vc: {} })).toEqual({ kind: 'credential', format: 'VC_JWT_1_1', typ: 'jwt' });
    expect(classifyCompactToken({ typ: 'VP+JWT' }, {})).toMatchObject({ kind: 'presentation', format: 'VC_JOSE_COSE', typ: 'vp+jwt' });
    expect(classifyCompactToken({ typ: 'JWT' }, { vp: {}, vc: {} })).toMatchObject({ kind: 'presentation', format: 'VC_JWT_1_1' });
    // vc+jwt decides even with a vp claim: the VC-JOSE-COSE rules then refuse the claim.
    expect(classifyCompactToken({ typ: 'vc+jwt' }, { vp: {} })).toMatchObject({ kind: 'credential', format: 'VC_JOSE_COSE' });
    expect(classifyCompactToken({ typ: 'dc+sd-jwt' }, {})).toMatchObject({ kind: 'sd-jwt', format: 'SD_JWT_VC', typ: 'dc+sd-jwt' });
    expect(classifyCompactToken({ typ: 'at+jwt' }, { sub: 'x' })).toMatchObject({ kind: 'other', format: 'UNKNOWN', typ: 'at+jwt' });
  });
});
