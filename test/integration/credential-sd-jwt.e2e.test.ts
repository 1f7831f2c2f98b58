/**
 * SD-JWT VC credentials through verifyCredential: presentations minted during the run
 * by an independent implementation, @sd-jwt/sd-jwt-vc 0.19, with node:crypto signers; issuers are
 * did:key (EdDSA, ES256, ES256K) resolved by svc's core, `iss` = the DID, header `kid` = its
 * verification method; and did:web issuers served by the loopback HTTPS host with the test CA.
 * Hand-made parts cover what the library refuses to produce (duplicate
 * members, a repeated disclosure).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { jwtIssuer, type JwtAlg, type JwtIssuer } from '../support/peer-issuers.js';
import { assertBuilt, onlyJson, svcIn, type Run } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, startDaemonFor } from '../support/daemon-client.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { startHttpsServer } from '../support/https-server.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const AUDIENCE = 'https://verifier.example';
const VCT = 'https://credentials.example/identity';

const runtime = () => testRuntime(fixedClock(NOW.toISOString()));

/** A JWS signer over the signing input with a node:crypto private key (ES*: r‖s, as JOSE writes it). */
function signerOf(alg: JwtAlg, privateKey: KeyObject): (data: string) => string {
  return (data) =>
    alg === 'EdDSA'
      ? sign(null, Buffer.from(data), privateKey).toString('base64url')
      : sign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}

const hasher = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  if (alg !== 'sha-256') throw new Error(`unexpected ${alg}`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

interface Holder {
  jwk: Record<string, unknown>;
  sign: (data: string) => string;
}

function holderKey(): Holder {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { jwk: publicKey.export({ format: 'jwk' }) as Record<string, unknown>, sign: signerOf('EdDSA', privateKey) };
}

const holder = holderKey();
const stranger = holderKey();

/** The peer library with `issuer` signing (or `signWith`, a key that is not the issuer's) and `kbHolder` binding. */
function library(issuer: JwtIssuer, kbHolder: Holder = holder, signWith: KeyObject = issuer.privateKey): SDJwtVcInstance {
  return new SDJwtVcInstance({
    signer: signerOf(issuer.alg, signWith),
    signAlg: issuer.alg,
    hasher,
    hashAlg: 'sha-256',
    saltGenerator: () => randomBytes(16).toString('base64url'),
    kbSigner: kbHolder.sign,
    kbSignAlg: 'EdDSA',
  });
}

function payload(issuer: JwtIssuer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: issuer.did,
    vct: VCT,
    iat: NOW_S - 3600,
    sub: 'did:example:holder',
    given_name: 'Erika',
    family_name: 'Mustermann',
    birthdate: '1963-08-12',
    ...extra,
  };
}

const FRAME = { _sd: ['given_name', 'family_name', 'birthdate'] };

/** An issued SD-JWT VC (every disclosure attached), header kid = the issuer's verification method. */
async function issue(issuer: JwtIssuer, extra: Record<string, unknown> = {}, signWith?: KeyObject): Promise<string> {
  return library(issuer, holder, signWith).issue(payload(issuer, extra) as never, FRAME as never, { header: { kid: issuer.kid } });
}

function kb(overrides: Record<string, unknown> = {}) {
  return { kb: { payload: { iat: NOW_S - 10, aud: AUDIENCE, nonce: 'n-0S6_WzA2Mj', ...overrides } as never } };
}

function verify(text: string, expectedAudience?: string): Promise<CredentialVerification> {
  return verifyCredential(text, { runtime: runtime(), ...(expectedAudience === undefined ? {} : { expectedAudience }) });
}

function statuses(result: CredentialVerification): Record<string, string> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}

function detail(result: CredentialVerification, id: string): string {
  return result.checks.find((c) => c.id === id)?.detail ?? '';
}

function parts(presentation: string): { jwt: string; disclosures: string[]; kb: string } {
  const split = presentation.split('~');
  return { jwt: split[0]!, disclosures: split.slice(1, -1), kb: split[split.length - 1]! };
}

const join = (jwt: string, disclosures: string[], kbJwt = ''): string => `${jwt}~${disclosures.map((d) => `${d}~`).join('')}${kbJwt}`;
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

function expectValid(result: CredentialVerification): void {
  expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
  expect(result.valid).toBe(true);
  expect(result.format).toBe('SD_JWT_VC');
}

describe('SD-JWT VC: VALID presentations', () => {
  for (const alg of ['EdDSA', 'ES256', 'ES256K'] as const) {
    it(`${alg}: all disclosed — issuer, key, claims and what was disclosed reported`, async () => {
      const issuer = jwtIssuer(alg);
      const result = await verify(await issue(issuer));
      expectValid(result);
      expect(statuses(result)).toEqual({
        structure: 'PASS',
        issuer: 'PASS',
        proof: 'PASS',
        validity: 'PASS',
        status: 'SKIP',
        'jwt.aud': 'SKIP',
        'kb.nonce': 'SKIP',
      });
      expect(result.issuer).toBe(issuer.did);
      expect(result.subject).toBe('did:example:holder');
      expect(result.types).toEqual([VCT]);
      expect(result.claims).toEqual({ given_name: 'Erika', family_name: 'Mustermann', birthdate: '1963-08-12' });
      expect(result.proof).toMatchObject({
        format: 'SD_JWT_VC',
        suite: alg,
        verificationMethod: issuer.kid,
        proofPurpose: 'assertionMethod',
        created: '2026-06-01T11:00:00Z',
      });
      expect(result.proof?.signedDigest).toMatch(/^[0-9a-f]{64}$/);
      // The issuer orders `_sd` digests as it likes (the library sorts them): compare as sets.
      expect({ ...result.disclosures, disclosed: [...(result.disclosures?.disclosed ?? [])].sort() }).toEqual({
        disclosed: ['/birthdate', '/family_name', '/given_name'],
        undisclosed: 0,
        keyBinding: null,
      });
    });
  }

  it('the signed digest is the SHA-256 of the issuer JWT signing input', async () => {
    const issuer = jwtIssuer('EdDSA');
    const credential = await issue(issuer);
    const [h, p] = credential.split('~')[0]!.split('.');
    const result = await verify(credential);
    expect(result.proof?.signedDigest).toBe(createHash('sha256').update(`${h}.${p}`).digest('hex'));
  });

  it('some disclosed: the hidden claims are counted, never shown', async () => {
    const issuer = jwtIssuer('EdDSA');
    const presentation = await library(issuer).present(await issue(issuer), { given_name: true } as never);
    const result = await verify(presentation);
    expectValid(result);
    expect(result.claims).toEqual({ given_name: 'Erika' });
    expect(result.disclosures).toMatchObject({ disclosed: ['/given_name'], undisclosed: 2 });
    const text = JSON.stringify(result);
    expect(text).not.toContain('Mustermann');
    expect(text).not.toContain('1963-08-12');
  });

  it('none disclosed: VALID with no claims but the plain ones', async () => {
    const issuer = jwtIssuer('ES256');
    const presentation = await library(issuer).present(await issue(issuer), {} as never);
    expect(parts(presentation).disclosures).toEqual([]);
    const result = await verify(presentation);
    expectValid(result);
    expect(result.claims).toEqual({});
    expect(result.disclosures).toMatchObject({ disclosed: [], undisclosed: 3 });
  });

  it('with a KB-JWT and the expected audience: key binding and jwt.aud PASS, the nonce reported', async () => {
    const issuer = jwtIssuer('EdDSA');
    const credential = await issue(issuer, { cnf: { jwk: holder.jwk } });
    const presentation = await library(issuer).present(credential, { family_name: true } as never, kb());
    const result = await verify(presentation, AUDIENCE);
    expectValid(result);
    expect(statuses(result)['jwt.aud']).toBe('PASS');
    expect(result.disclosures?.keyBinding).toMatchObject({ status: 'PASS', audience: AUDIENCE, nonce: 'n-0S6_WzA2Mj', issuedAt: '2026-06-01T11:59:50Z' });
    expect(detail(result, 'proof')).toMatch(/KB-JWT/);
    expect(result.limitations.join(' ')).not.toMatch(/audience was not verified/);
  });

  it('with a KB-JWT and no expected audience: jwt.aud SKIP with a limitation naming the KB-JWT audience', async () => {
    const issuer = jwtIssuer('EdDSA');
    const presentation = await library(issuer).present(await issue(issuer, { cnf: { jwk: holder.jwk } }), {} as never, kb());
    const result = await verify(presentation);
    expectValid(result);
    expect(statuses(result)['jwt.aud']).toBe('SKIP');
    expect(detail(result, 'jwt.aud')).toContain(AUDIENCE);
    expect(result.limitations).toContain('The audience was not verified: no expected audience was given.');
  });

  it('"cnf" without a KB-JWT: VALID, holder binding stated as not shown', async () => {
    const issuer = jwtIssuer('EdDSA');
    const result = await verify(await issue(issuer, { cnf: { jwk: holder.jwk } }));
    expectValid(result);
    expect(result.disclosures?.keyBinding).toBeNull();
    expect(result.limitations.some((l) => /^Holder binding was not shown/.test(l))).toBe(true);
  });

  it('other formats keep exactly their documented members (no "disclosures"); a malformed SD-JWT has disclosures: null', async () => {
    const result = await verifyCredential({ '@context': ['https://www.w3.org/ns/credentials/v2'] }, { runtime: runtime() });
    expect(Object.hasOwn(result, 'disclosures')).toBe(false);
    const malformed = await verify(`${b64('{"alg":"EdDSA"}')}.${b64('{}')}.c2ln~`);
    expect([malformed.status, malformed.disclosures]).toEqual(['MALFORMED', null]);
  });
});

describe('SD-JWT VC: INVALID', () => {
  it('a tampered disclosure (its digest is not signed)', async () => {
    const issuer = jwtIssuer('EdDSA');
    const { jwt, disclosures } = parts(await issue(issuer));
    const decoded = JSON.parse(Buffer.from(disclosures[0]!, 'base64url').toString('utf8')) as unknown[];
    decoded[2] = 'Mallory';
    const result = await verify(join(jwt, [b64(JSON.stringify(decoded)), ...disclosures.slice(1)]));
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ structure: 'PASS', proof: 'FAIL', validity: 'SKIP' });
    expect(detail(result, 'proof')).toMatch(/disclosure 1 .* is not in the payload/);
    expect(JSON.stringify(result)).not.toContain('Mallory');
  });

  it('a duplicated disclosure', async () => {
    const issuer = jwtIssuer('EdDSA');
    const { jwt, disclosures } = parts(await issue(issuer));
    const result = await verify(join(jwt, [...disclosures, disclosures[1]!]));
    expect(result.status).toBe('INVALID');
    expect(detail(result, 'proof')).toMatch(/repeats disclosure 2/);
  });

  it('a KB-JWT signed by another key than the one in "cnf"', async () => {
    const issuer = jwtIssuer('EdDSA');
    const credential = await issue(issuer, { cnf: { jwk: holder.jwk } });
    const presentation = await library(issuer, stranger).present(credential, {} as never, kb());
    const result = await verify(presentation, AUDIENCE);
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ issuer: 'PASS', proof: 'FAIL', 'jwt.aud': 'SKIP' });
    expect(detail(result, 'proof')).toMatch(/not signed by the key in "cnf\.jwk"/);
    expect(result.disclosures?.keyBinding?.status).toBe('FAIL');
  });

  it('a KB-JWT whose sd_hash covers another presentation', async () => {
    const issuer = jwtIssuer('EdDSA');
    const credential = await issue(issuer, { cnf: { jwk: holder.jwk } });
    const one = await library(issuer).present(credential, { given_name: true } as never, kb());
    const two = await library(issuer).present(credential, { given_name: true, family_name: true } as never, kb());
    const swapped = join(parts(two).jwt, parts(two).disclosures, parts(one).kb);
    expect((await verify(two, AUDIENCE)).status).toBe('VALID');
    const result = await verify(swapped, AUDIENCE);
    expect(result.status).toBe('INVALID');
    expect(detail(result, 'proof')).toMatch(/sd_hash/);
  });

  it('a KB-JWT for another audience than the expected one: jwt.aud INVALID', async () => {
    const issuer = jwtIssuer('EdDSA');
    const presentation = await library(issuer).present(await issue(issuer, { cnf: { jwk: holder.jwk } }), {} as never, kb({ aud: 'https://other.example' }));
    const result = await verify(presentation, AUDIENCE);
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', 'jwt.aud': 'FAIL' });
    expect(detail(result, 'jwt.aud')).toContain('https://other.example');
    expect(result.headline).toMatch(/^The credential is invalid: the KB-JWT audience/);
  });

  it('an expected audience without a KB-JWT: jwt.aud INVALID (rule 3: a missing audience)', async () => {
    const issuer = jwtIssuer('EdDSA');
    const result = await verify(await issue(issuer), AUDIENCE);
    expect(result.status).toBe('INVALID');
    expect(statuses(result)['jwt.aud']).toBe('FAIL');
  });

  it("an issuer JWT signed by a key that is not the issuer's", async () => {
    const issuer = jwtIssuer('EdDSA');
    const other = jwtIssuer('EdDSA', new Uint8Array(32).fill(99));
    const result = await verify(await issue(issuer, {}, other.privateKey));
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'FAIL' });
  });

  it('a kid of another DID than iss: the issuer check fails', async () => {
    const issuer = jwtIssuer('EdDSA');
    const other = jwtIssuer('EdDSA', new Uint8Array(32).fill(98));
    const token = await library(other).issue(payload(issuer) as never, FRAME as never, { header: { kid: other.kid } });
    const result = await verify(token);
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', issuer: 'FAIL' });
  });
});

describe('SD-JWT VC: any damaged presentation is a status with a reason, never a throw', () => {
  it('every single-character change and every truncation of a bound presentation', async () => {
    const issuer = jwtIssuer('EdDSA');
    const text = await library(issuer).present(await issue(issuer, { cnf: { jwk: holder.jwk } }), { given_name: true } as never, kb());
    expect((await verify(text, AUDIENCE)).status).toBe('VALID');
    const variants = new Set<string>();
    for (let i = 0; i < text.length; i += 7) {
      variants.add(text.slice(0, i));
      for (const c of ['~', '.', 'A', '_']) variants.add(`${text.slice(0, i)}${c}${text.slice(i + 1)}`);
    }
    variants.delete(text);
    for (const variant of variants) {
      const result = await verify(variant, AUDIENCE);
      expect(result.status, variant).not.toBe('VALID');
      expect(result.headline.length).toBeGreaterThan(0);
      expect(result.errors.length, variant).toBeGreaterThan(0);
    }
  });
});

describe('SD-JWT VC: validity, status, structure, issuer', () => {
  it('EXPIRED past exp; NOT_YET_VALID before nbf', async () => {
    const issuer = jwtIssuer('ES256');
    const expired = await verify(await issue(issuer, { exp: NOW_S - 3600 }));
    expect(expired.status).toBe('EXPIRED');
    expect(expired.validUntil).toBe('2026-06-01T11:00:00Z');
    expect(detail(expired, 'validity')).toMatch(/JWT exp/);
    const early = await verify(await issue(issuer, { nbf: NOW_S + 3600 }));
    expect(early.status).toBe('NOT_YET_VALID');
    expect(early.validFrom).toBe('2026-06-01T13:00:00Z');
    const inside = await verify(await issue(issuer, { nbf: NOW_S - 60, exp: NOW_S + 3600 }));
    expectValid(inside);
  });

  it('status.status_list: INDETERMINATE when the Token Status List cannot be fetched (fail-closed; credential-token-status.test.ts checks lists)', async () => {
    const issuer = jwtIssuer('EdDSA');
    // Loopback is outside the production egress policy: nothing is fetched.
    const result = await verify(await issue(issuer, { status: { status_list: { idx: 7, uri: 'https://127.0.0.1:1/list' } } }));
    expect(result.status).toBe('INDETERMINATE');
    expect(statuses(result)['status']).toBe('INDETERMINATE');
    expect(detail(result, 'status')).toMatch(
      /^The status could not be determined\. The Token Status List https:\/\/127\.0\.0\.1:1\/list could not be retrieved: /,
    );
    expect(result.statusList).toMatchObject([{ statusType: 'TokenStatusList', index: 7, result: 'INDETERMINATE' }]);
  });

  it('MALFORMED: duplicate members in the issuer payload and in a disclosure', async () => {
    const issuer = jwtIssuer('EdDSA');
    const { jwt, disclosures } = parts(await issue(issuer));
    const [h, p] = jwt.split('.') as [string, string];
    const payloadText = Buffer.from(p, 'base64url').toString('utf8').replace(/^\{/, '{"vct":"x",');
    const input = `${h}.${b64(payloadText)}`;
    const resigned = `${input}.${signerOf('EdDSA', issuer.privateKey)(input)}`;
    const dup = await verify(join(resigned, disclosures));
    expect(dup.status).toBe('MALFORMED');
    expect(statuses(dup)['structure']).toBe('FAIL');
    expect(detail(dup, 'structure')).toMatch(/vct/);

    const disclosure = b64('["salt", "given_name", {"a": 1, "a": 2}]');
    const dupDisclosure = await verify(join(jwt, [disclosure]));
    expect(dupDisclosure.status).toBe('MALFORMED');
    expect(detail(dupDisclosure, 'structure')).toMatch(/disclosure 1/);
  });

  it('MALFORMED without vct; UNSUPPORTED for an unsupported algorithm', async () => {
    const issuer = jwtIssuer('EdDSA');
    const token = await library(issuer)
      .issue({ iss: issuer.did, vct: undefined, given_name: 'x' } as never, { _sd: ['given_name'] } as never, { header: { kid: issuer.kid } })
      .catch(() => null);
    // The library may refuse to issue without vct: craft one by hand then.
    const header = b64(JSON.stringify({ typ: 'dc+sd-jwt', alg: 'EdDSA', kid: issuer.kid }));
    const body = b64(JSON.stringify({ iss: issuer.did, _sd_alg: 'sha-256' }));
    const crafted = `${header}.${body}.${signerOf('EdDSA', issuer.privateKey)(`${header}.${body}`)}~`;
    for (const text of token ? [token, crafted] : [crafted]) {
      const result = await verify(text);
      expect(result.status).toBe('MALFORMED');
      expect(detail(result, 'structure')).toMatch(/no "vct"/);
    }
    const rs = b64(JSON.stringify({ typ: 'dc+sd-jwt', alg: 'RS256' }));
    expect((await verify(`${rs}.${body}.c2ln~`)).status).toBe('UNSUPPORTED');
  });

  it('a disclosed "__proto__" claim is reported as a claim, not as a prototype', async () => {
    const issuer = jwtIssuer('EdDSA');
    const disclosure = b64('["c2FsdA","__proto__",{"polluted":true}]');
    const digest = createHash('sha256').update(disclosure, 'ascii').digest('base64url');
    const header = b64(JSON.stringify({ typ: 'dc+sd-jwt', alg: 'EdDSA', kid: issuer.kid }));
    const body = b64(JSON.stringify({ iss: issuer.did, vct: VCT, _sd_alg: 'sha-256', _sd: [digest] }));
    const jwt = `${header}.${body}.${signerOf('EdDSA', issuer.privateKey)(`${header}.${body}`)}`;
    const result = await verify(join(jwt, [disclosure]));
    expectValid(result);
    expect(Object.getPrototypeOf(result.claims)).toBe(Object.prototype);
    expect(Object.hasOwn(result.claims!, '__proto__')).toBe(true);
    expect(result.disclosures?.disclosed).toEqual(['/__proto__']);
  });

  it('an issuer that is not a DID: INDETERMINATE (no issuer metadata is fetched)', async () => {
    const issuer = jwtIssuer('EdDSA');
    const result = await verify(await issue(issuer, { iss: 'https://issuer.example' }));
    expect(result.status).toBe('INDETERMINATE');
    expect(statuses(result)).toMatchObject({ proof: 'INDETERMINATE', issuer: 'INDETERMINATE' });
    expect(detail(result, 'proof')).toMatch(/not a DID/);
  });

  it('without kid: the issuer keys on the algorithm curve are tried', async () => {
    const issuer = jwtIssuer('ES256');
    const token = await library(issuer).issue(payload(issuer) as never, FRAME as never);
    const result = await verify(token);
    expectValid(result);
    expect(result.proof?.verificationMethod).toBe(issuer.kid);
  });
});

describe('POST /v1/credentials/verify with an SD-JWT VC (the daemon, on the wall clock)', () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemonFor(null);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  const post = (body: unknown) =>
    call(`${daemon.url}/v1/credentials/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('gives the status, format, checks and disclosures verifyCredential gives (VALID with a KB-JWT; INVALID audience)', async () => {
    const issuer = jwtIssuer('ES256');
    const now = Math.floor(Date.now() / 1000);
    const sd = library(issuer);
    const credential = await sd.issue({ ...payload(issuer), iat: now - 60, cnf: { jwk: holder.jwk } } as never, FRAME as never, {
      header: { kid: issuer.kid },
    });
    const presentation = await sd.present(credential, { birthdate: true } as never, kb({ iat: now }));
    const wall = () => testRuntime(fixedClock(new Date().toISOString()));
    for (const expectedAudience of [AUDIENCE, 'https://someone-else.example']) {
      const core = await verifyCredential(presentation, { runtime: wall(), expectedAudience });
      const served = expectJson(await post({ credential: presentation, expectedAudience }), 200);
      expect(served.status).toBe(expectedAudience === AUDIENCE ? 'VALID' : 'INVALID');
      expect(served.status).toBe(core.status);
      expect(served.format).toBe('SD_JWT_VC');
      expect(served.format).toBe(core.format);
      expect(statuses(served)).toEqual(statuses(core));
      expect(served.disclosures).toEqual(core.disclosures);
      expect(served.disclosures.disclosed).toEqual(['/birthdate']);
      expect(served.claims).toEqual({ birthdate: '1963-08-12' });
    }
  });

  it("evaluate-policy with credentialStatus 'active' passes only for a VALID SD-JWT VC", async () => {
    const issuer = jwtIssuer('EdDSA');
    const now = Math.floor(Date.now() / 1000);
    const mint = (extra: Record<string, unknown>) =>
      library(issuer).issue({ ...payload(issuer), iat: now - 60, ...extra } as never, FRAME as never, { header: { kid: issuer.kid } });
    const evaluate = async (credential: string) => {
      const answer = await call(`${daemon.url}/v1/policies/evaluate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ did: issuer.did, policy: { rules: { credentialStatus: 'active' } }, credential }),
      });
      return expectJson(answer, 200);
    };
    const valid = await evaluate(await mint({}));
    expect(valid.evaluation.status).toBe('PASS');
    expect(valid.credential.format).toBe('SD_JWT_VC');
    const listed = await evaluate(await mint({ status: { status_list: { idx: 1, uri: 'https://127.0.0.1:1/l' } } }));
    expect([listed.credential.status, listed.evaluation.status]).toEqual(['INDETERMINATE', 'INDETERMINATE']);
    const expired = await evaluate(await mint({ exp: now - 600 }));
    expect([expired.credential.status, expired.evaluation.status]).toEqual(['EXPIRED', 'FAIL']);
  });

  it('a malformed SD-JWT is a 200 MALFORMED result, not a problem', async () => {
    const served = expectJson(await post({ credential: `${b64('{"alg":"EdDSA","typ":"dc+sd-jwt"}')}.${b64('{"a":1,"a":2}')}.c2ln~` }), 200);
    expect([served.status, served.format]).toEqual(['MALFORMED', 'SD_JWT_VC']);
  });
});

describe('svc verify-credential with an SD-JWT VC file (the CLI, on the wall clock)', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'svc-sd-jwt-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function presentation(disclose: Record<string, boolean>): Promise<string> {
    const issuer = jwtIssuer('EdDSA');
    const now = Math.floor(Date.now() / 1000);
    return library(issuer).present(
      await library(issuer).issue({ ...payload(issuer), iat: now - 60 } as never, FRAME as never, { header: { kid: issuer.kid } }),
      disclose as never,
    );
  }

  it('VALID → exit 0; --json has the status verifyCredential gives; the report shows the disclosed claims and the undisclosed count', async () => {
    const text = await presentation({ given_name: true });
    const file = path.join(dir, 'credential.sd-jwt');
    writeFileSync(file, `${text}\n`);
    const core = await verifyCredential(text, { runtime: testRuntime(fixedClock(new Date().toISOString())) });
    expect(core.status).toBe('VALID');

    const json = await svcIn(['verify-credential', file, '--json']);
    expect(json.exitCode, json.stderr).toBe(0);
    const result = onlyJson(json);
    expect([result.status, result.format]).toEqual([core.status, core.format]);
    expect(result.disclosures).toEqual(core.disclosures);

    const report = await svcIn(['verify-credential', file]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^VALID {2}The credential is valid/);
    expect(report.stdout).toMatch(/format +SD_JWT_VC/);
    expect(report.stdout).toMatch(/disclosed +1: \/given_name/);
    expect(report.stdout).toMatch(/undisclosed +2 /);
    expect(report.stdout).not.toContain('Mustermann');
  });

  it('--nonce: the KB-JWT nonce must be it (exit 0; another nonce → exit 1, kb.nonce FAIL naming both); without it kb.nonce is SKIP', async () => {
    const issuer = jwtIssuer('EdDSA');
    const now = Math.floor(Date.now() / 1000);
    const credential = await library(issuer).issue({ ...payload(issuer), iat: now - 60, cnf: { jwk: holder.jwk } } as never, FRAME as never, {
      header: { kid: issuer.kid },
    });
    const file = path.join(dir, 'bound.sd-jwt');
    writeFileSync(file, await library(issuer).present(credential, { given_name: true } as never, kb({ iat: now, nonce: 'cli-nonce-1' })));
    const nonceOf = (r: Run) => onlyJson(r).checks.find((c: { id: string }) => c.id === 'kb.nonce');

    const ok = await svcIn(['verify-credential', file, '--nonce', 'cli-nonce-1', '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(nonceOf(ok).status).toBe('PASS');

    const replayed = await svcIn(['verify-credential', file, '--nonce', 'cli-nonce-2', '--json']);
    expect(replayed.exitCode).toBe(1);
    expect(onlyJson(replayed).status).toBe('INVALID');
    expect(nonceOf(replayed)).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('"cli-nonce-1" is not the expected "cli-nonce-2"') });

    const unchecked = await svcIn(['verify-credential', file, '--json']);
    expect(unchecked.exitCode).toBe(0);
    expect(nonceOf(unchecked).status).toBe('SKIP');
    expect(onlyJson(unchecked).limitations.join(' ')).toMatch(/Replay was not excluded/);

    const empty = await svcIn(['verify-credential', file, '--nonce', '']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toMatch(/--nonce must not be empty/);
  });

  it('a tampered disclosure → exit non-zero, INVALID', async () => {
    const { jwt, disclosures } = parts(await presentation({ given_name: true, family_name: true }));
    const file = path.join(dir, 'tampered.sd-jwt');
    writeFileSync(file, join(jwt, [b64('["salt","given_name","Mallory"]'), ...disclosures.slice(1)]));
    const r = await svcIn(['verify-credential', file, '--json']);
    expect(r.exitCode).not.toBe(0);
    expect(onlyJson(r).status).toBe('INVALID');
  });
});

describe('SD-JWT VC from a did:web issuer on the loopback HTTPS host (test CA)', () => {
  let host: DidWebHost;
  beforeAll(async () => {
    host = await startDidWebHost();
  });
  afterAll(async () => {
    await host.close();
  });

  /** A JwtIssuer for `did` whose key is the host's Ed25519 key, kid = `did#key-1`. */
  function webIssuer(did: string): JwtIssuer {
    const key = host.key;
    return {
      alg: 'EdDSA',
      did,
      kid: `${did}#key-1`,
      privateKey: key.privateKey,
      publicKey: key.publicKey,
      secret: new Uint8Array(0),
      publicKeyMultibase: key.multikey ?? '',
    };
  }

  const verifyOnHost = (text: string, expectedAudience?: string): Promise<CredentialVerification> =>
    verifyCredential(text, { runtime: host.runtime(), ...(expectedAudience === undefined ? {} : { expectedAudience }) });

  it('VALID with kid = the did:web verification method authorised for assertionMethod (bound, audience checked); another key is INVALID', async () => {
    const did = host.did('issuers', 'sd-jwt');
    host.publish(did);
    const issuer = webIssuer(did);
    const credential = await issue(issuer, { cnf: { jwk: holder.jwk } });
    // The host's runtime runs on the wall clock (its TLS certificates are fresh): a KB-JWT of now.
    const bound = await library(issuer).present(credential, undefined, kb({ iat: Math.floor(Date.now() / 1000) - 10 }));
    const result = await verifyOnHost(bound, AUDIENCE);
    expectValid(result);
    expect(statuses(result)).toMatchObject({ structure: 'PASS', issuer: 'PASS', proof: 'PASS', validity: 'PASS', 'jwt.aud': 'PASS' });
    expect(result.issuer).toBe(did);
    expect(result.proof).toMatchObject({ suite: 'EdDSA', verificationMethod: `${did}#key-1`, proofPurpose: 'assertionMethod' });
    expect(result.disclosures?.keyBinding).not.toBeNull();

    const forged = await issue(issuer, {}, generateKeyPairSync('ed25519').privateKey);
    expect((await verifyOnHost(forged)).status).toBe('INVALID');
  });

  it('a key the DID lists only under authentication → INVALID, issuer FAIL (as for vc+jwt)', async () => {
    const did = host.did('issuers', 'sd-jwt-auth-only');
    host.publish(did, {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: host.key.multikey }],
      authentication: [`${did}#key-1`],
    });
    const result = await verifyOnHost(await issue(webIssuer(did)));
    expect(result.status, JSON.stringify(result.checks)).toBe('INVALID');
    expect(statuses(result)['issuer']).toBe('FAIL');
    expect(detail(result, 'issuer')).toContain('not authorised for assertionMethod');
  });

  it('the did:web host unreachable (connection refused) → INDETERMINATE, never VALID', async () => {
    const server = await startHttpsServer({ cert: host.leaf, ca: host.ca });
    const did = `did:web:localhost%3A${server.port}:issuers:gone`;
    await server.close();
    const result = await verifyOnHost(await issue(webIssuer(did)));
    expect(result.status, JSON.stringify(result.checks)).toBe('INDETERMINATE');
    expect(result.valid).toBe(false);
    expect(statuses(result)).toMatchObject({ issuer: 'INDETERMINATE', proof: 'INDETERMINATE' });
    expect(detail(result, 'proof')).toContain('ECONNREFUSED');
  });
});
