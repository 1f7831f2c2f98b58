/**
 * Key-binding nonces (check kb.nonce): an SD-JWT VC's KB-JWT `nonce` against the nonce the
 * verifier chose (`expectedNonce`), so a KB-JWT captured in one exchange is not accepted in
 * another. Presentations are minted by the peer library @sd-jwt/sd-jwt-vc with node:crypto
 * signers (did:key issuer); the peer's own verify with `keyBindingNonce` is the oracle. Through
 * verifyCredential, POST /v1/credentials/verify (Fastify inject on a fixed clock) and the
 * TypeScript client talking to that app. The other formats carry no nonce: asked for one they are
 * INDETERMINATE, as a Data Integrity credential is for an audience.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, verify as verifySignature, type KeyObject } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient, type FetchLike } from '../../src/client/index.js';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { issueDi, issueVcJwt, jwtIssuer, peerEd25519Issuer, unsignedCredential, type JwtIssuer } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const AUDIENCE = 'https://verifier.example';
const N1 = 'n1-0S6_WzA2Mj-exchange-one';
const N2 = 'n2-Xq8mZpLr4T-exchange-two';

const runtime = () => testRuntime(fixedClock(NOW.toISOString()));
const sha256 = (data: string | ArrayBuffer): Uint8Array =>
  new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );

const issuer: JwtIssuer = jwtIssuer('EdDSA');
const holder = generateKeyPairSync('ed25519');
const holderJwk = holder.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;

const signWith = (key: KeyObject) => (data: string) => sign(null, Buffer.from(data), key).toString('base64url');
const verifyWith = (key: KeyObject) => (data: string, signature: string) => verifySignature(null, Buffer.from(data), key, Buffer.from(signature, 'base64url'));

/** The peer library: issuer and holder keys, verifier and KB verifier for its own checks. */
const library = new SDJwtVcInstance({
  signer: signWith(issuer.privateKey),
  signAlg: 'EdDSA',
  verifier: verifyWith(issuer.publicKey),
  kbSigner: signWith(holder.privateKey),
  kbSignAlg: 'EdDSA',
  kbVerifier: verifyWith(holder.publicKey),
  hasher: (data, alg) => {
    if (alg !== 'sha-256') throw new Error(`unexpected ${alg}`);
    return sha256(data);
  },
  hashAlg: 'sha-256',
  saltGenerator: () => randomBytes(16).toString('base64url'),
});

async function issued(): Promise<string> {
  const payload = { iss: issuer.did, vct: 'https://credentials.example/identity', iat: NOW_S - 3600, cnf: { jwk: holderJwk }, given_name: 'Erika' };
  return library.issue(payload as never, { _sd: ['given_name'] } as never, { header: { kid: issuer.kid } });
}

/** A presentation with a KB-JWT of `kbPayload` (iat 10 s ago, the audience, and the nonce N1 unless overridden). */
async function presented(kbPayload: Record<string, unknown> = { nonce: N1 }): Promise<string> {
  return library.present(await issued(), { given_name: true } as never, { kb: { payload: { iat: NOW_S - 10, aud: AUDIENCE, ...kbPayload } as never } });
}

const check = (result: { checks: Array<{ id: string; status: string; detail: string }> }, id: string) => result.checks.find((c) => c.id === id)!;

/** The peer library's own answer, with its KB nonce check, at NOW. */
async function peerAccepts(text: string, nonce: string): Promise<boolean> {
  try {
    await library.verify(text, { keyBindingNonce: nonce, currentDate: NOW_S } as never);
    return true;
  } catch {
    return false;
  }
}

describe('kb.nonce: the KB-JWT nonce against the expected nonce', () => {
  let withN1: string;
  beforeAll(async () => {
    withN1 = await presented();
  });

  it('expectedNonce N1 and a KB-JWT with nonce N1: VALID, kb.nonce PASS (the peer library agrees)', async () => {
    expect(await peerAccepts(withN1, N1)).toBe(true);
    const result = await verifyCredential(withN1, { runtime: runtime(), expectedAudience: AUDIENCE, expectedNonce: N1 });
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(check(result, 'kb.nonce')).toMatchObject({ label: 'Key binding nonce', status: 'PASS', detail: expect.stringContaining(N1) });
    expect(result.disclosures?.keyBinding).toMatchObject({ status: 'PASS', nonce: N1 });
    expect(result.limitations.join(' ')).not.toMatch(/Replay/);
    expect(result.checks.map((c) => c.id)).toEqual(['structure', 'issuer', 'proof', 'validity', 'status', 'jwt.aud', 'kb.nonce']);
  });

  it('the same presentation replayed to a verifier that chose N2: INVALID, naming both nonces (the peer library refuses too)', async () => {
    expect(await peerAccepts(withN1, N2)).toBe(false);
    const result = await verifyCredential(withN1, { runtime: runtime(), expectedAudience: AUDIENCE, expectedNonce: N2 });
    expect(result.status).toBe('INVALID');
    expect(result.valid).toBe(false);
    expect(check(result, 'kb.nonce').status).toBe('FAIL');
    expect(check(result, 'kb.nonce').detail).toContain(N1);
    expect(check(result, 'kb.nonce').detail).toContain(N2);
    expect(result.headline).toMatch(/^The credential is invalid: the KB-JWT nonce/);
    // Everything else about it is fine: only the nonce decides.
    expect(check(result, 'proof').status).toBe('PASS');
    expect(check(result, 'jwt.aud').status).toBe('PASS');
  });

  it('without expectedNonce: VALID, kb.nonce SKIP naming the KB-JWT nonce, and a limitation that replay was not excluded', async () => {
    const result = await verifyCredential(withN1, { runtime: runtime(), expectedAudience: AUDIENCE });
    expect(result.status).toBe('VALID');
    expect(check(result, 'kb.nonce')).toMatchObject({ status: 'SKIP', detail: expect.stringContaining(N1) });
    const replay = result.limitations.filter((l) => /^Replay was not excluded/.test(l));
    expect(replay).toHaveLength(1);
    expect(replay[0]).toMatch(/freshness window/);
    expect(replay[0]).toContain('300 s');
  });

  it('a KB-JWT without a nonce is refused, with or without expectedNonce (RFC 9901 requires one; the peer library refuses it)', async () => {
    const withoutNonce = await presented({});
    expect(await peerAccepts(withoutNonce, N1)).toBe(false);
    for (const expectedNonce of [N1, undefined]) {
      const result = await verifyCredential(withoutNonce, { runtime: runtime(), ...(expectedNonce ? { expectedNonce } : {}) });
      expect(result.status).toBe('MALFORMED');
      expect(check(result, 'proof')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('no "nonce"') });
      expect(check(result, 'kb.nonce')).toMatchObject({ status: 'SKIP', detail: 'Not run: the proof check failed.' });
      expect(result.disclosures?.keyBinding?.status).toBe('FAIL');
    }
  });

  it('a presentation without a KB-JWT: INVALID when a nonce is expected (no nonce); without one, SKIP with the replay limitation', async () => {
    const bare = await library.present(await issued(), { given_name: true } as never);
    expect(bare.endsWith('~')).toBe(true);
    const expected = await verifyCredential(bare, { runtime: runtime(), expectedNonce: N1 });
    expect(expected.status).toBe('INVALID');
    expect(check(expected, 'kb.nonce')).toMatchObject({ status: 'FAIL', detail: expect.stringMatching(/no KB-JWT, so no nonce; expected "n1-/) });
    const unchecked = await verifyCredential(bare, { runtime: runtime() });
    expect(unchecked.status).toBe('VALID');
    expect(check(unchecked, 'kb.nonce').status).toBe('SKIP');
    expect(unchecked.limitations.some((l) => /^Replay was not excluded: .*no KB-JWT/.test(l))).toBe(true);
  });

  it('the nonce is compared exactly: a prefix, a different case or surrounding space is another nonce', async () => {
    for (const other of [N1.slice(0, -1), N1.toUpperCase(), ` ${N1}`]) {
      const result = await verifyCredential(withN1, { runtime: runtime(), expectedNonce: other });
      expect([result.status, check(result, 'kb.nonce').status], other).toEqual(['INVALID', 'FAIL']);
    }
  });
});

describe('kb.nonce for the formats without a key binding', () => {
  it('Data Integrity and vc+jwt: SKIP without expectedNonce (no replay limitation); INDETERMINATE with one, saying the format carries no nonce', async () => {
    const di = await issueDi(unsignedCredential((await peerEd25519Issuer(21)).did), await peerEd25519Issuer(21));
    const jwtIss = jwtIssuer('ES256');
    const jwt = await issueVcJwt(unsignedCredential(jwtIss.did), jwtIss);
    for (const [credential, name] of [
      [di, 'Data Integrity'],
      [jwt, 'vc+jwt'],
    ] as const) {
      const plain = await verifyCredential(credential, { runtime: runtime() });
      expect(plain.status, name).toBe('VALID');
      expect(check(plain, 'kb.nonce')).toMatchObject({ status: 'SKIP', detail: expect.stringContaining(`a ${name} credential carries no key binding nonce`) });
      expect(plain.limitations.join(' ')).not.toMatch(/Replay/);
      const asked = await verifyCredential(credential, { runtime: runtime(), expectedNonce: N1 });
      expect(asked.status, name).toBe('INDETERMINATE');
      expect(check(asked, 'kb.nonce')).toMatchObject({ status: 'INDETERMINATE', detail: expect.stringContaining(`A ${name} credential carries no nonce`) });
      expect(check(asked, 'kb.nonce').detail).toContain(N1);
    }
  });
});

/* ------------------------------------------------------------------ over HTTP */

let db: TestDatabase;
let app: InjectedApp;

/** The client's fetch, answered by the app's inject(). */
function injectFetch(target: InjectedApp): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    const res = await target.app.inject({
      method: (init.method ?? 'GET') as 'POST',
      url: url.pathname + url.search,
      headers: { ...(init.headers as Record<string, string>) },
      ...(init.body !== undefined && init.body !== null ? { payload: init.body as string } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
    return new Response(new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}

describe('POST /v1/credentials/verify with expectedNonce (the daemon app, in process, on the fixed clock)', () => {
  beforeAll(async () => {
    db = await sqliteDatabase('svc-kb-nonce');
    app = await injectedApp(db.target, { clock: fixedClock(NOW.toISOString()) });
  });
  afterAll(async () => {
    await app?.close();
    await db?.done();
  });

  const post = (body: unknown) => app.anonymous('POST', '/v1/credentials/verify', body);

  it('the body member reaches the verifier: N1 → VALID, N2 → INVALID, absent → SKIP with the limitation; as verifyCredential answers', async () => {
    const text = await presented();
    for (const expectedNonce of [N1, N2, undefined]) {
      const res = await post({ credential: text, ...(expectedNonce ? { expectedNonce } : {}) });
      expect(res.statusCode).toBe(200);
      const served = res.json() as CredentialVerification;
      const core = await verifyCredential(text, { runtime: runtime(), ...(expectedNonce ? { expectedNonce } : {}) });
      expect(served.status).toBe(expectedNonce === N2 ? 'INVALID' : 'VALID');
      expect(served.checks).toEqual(core.checks);
      expect(served.limitations).toEqual(core.limitations);
    }
  });

  it('a wrong shape is 400 INVALID_REQUEST naming expectedNonce; so is expectedNonce without a credential beside it', async () => {
    const text = await presented();
    for (const expectedNonce of ['', 42, null, [N1], { nonce: N1 }]) {
      const res = await post({ credential: text, expectedNonce });
      expect(res.statusCode, JSON.stringify(expectedNonce)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_REQUEST', detail: '"expectedNonce" must be a non-empty string.' });
    }
    const alone = await post({ expectedNonce: N1 });
    expect(alone.statusCode).toBe(400);
    expect(alone.json()).toMatchObject({ code: 'INVALID_REQUEST', detail: expect.stringContaining('"expectedNonce" needs "credential" beside it') });
  });

  it('the TypeScript client sends expectedNonce', async () => {
    const client = new SvcClient({ baseUrl: 'http://svc.test', fetch: injectFetch(app) });
    const text = await presented();
    const ok = await client.verifyCredential(text, { expectedNonce: N1 });
    expect([ok.status, ok.checks.find((c) => c.id === 'kb.nonce')?.status]).toEqual(['VALID', 'PASS']);
    const replayed = await client.verifyCredential(text, { expectedNonce: N2, expectedAudience: AUDIENCE });
    expect([replayed.status, replayed.checks.find((c) => c.id === 'kb.nonce')?.status]).toEqual(['INVALID', 'FAIL']);
  });
});
