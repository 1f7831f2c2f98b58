/**
 * Signed results from the daemon (docs/daemon.md#signed-results), in process: /health names the
 * signer; `signed=true` on GET /v1/resolve, POST /v1/credentials/verify, GET /v1/mcp/inspect and
 * GET /v1/a2a/inspect adds `svc-signature`, a detached JWS over the RFC 8785 form of the body that
 * verifies through svc's own resolver (a did:key signer offline, a did:web signer over the test
 * host) — a cached resolution signed at answer time; without it nothing is signed; a daemon
 * without a key answers 400 INVALID_OPTIONS. The key file is read like a secret: open to group or
 * others, the daemon refuses to start, naming `chmod 600 <file>`; its private "d" appears in no
 * answer, header or log line.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonWebKey } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_MEDIA_TYPE, decodeBundle, encodeBundle, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { checkBundleSignature, signBundle } from '../../src/core/bundle/signature.js';
import { parseAnchors } from '../../src/core/bundle/tls.js';
import { verifyBundle } from '../../src/core/bundle/verify.js';
import { createSigner, signCanonical, signingKeyResolver, verifyCanonicalSignature, type Signer } from '../../src/core/signing/index.js';
import { ConfigError } from '../../src/runtime/node.js';
import type { AccessEntry } from '../../src/server/access-log.js';
import { readSigningKey } from '../../src/server/signing.js';
import { a2aKey, agentCard, publishJwks, serveCard, signCard } from '../support/a2a-agent.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { PLAIN_TOOLS, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';
import { didDocument, generateTestKey, signEddsaJcs2022 } from '../support/signing.js';

const ED_KEY = generateTestKey('EdDSA');
const ED_JWK = ED_KEY.privateKey.export({ format: 'jwk' }) as JsonWebKey & { d: string };
const P256_KEY = generateTestKey('ES256');
const P256_JWK = P256_KEY.privateKey.export({ format: 'jwk' }) as JsonWebKey & { d: string };
const SECRETS = [ED_JWK.d, P256_JWK.d];

const DID_KEY = `did:key:${generateTestKey('EdDSA').multikey!}`;

let db: TestDatabase;
let host: DidWebHost;
let mcp: McpTestServer;
let clock: TestClock;
/** Signs as the did:key of an Ed25519 key. */
let keyed: InjectedApp;
/** Signs as a did:web of the test host (P-256, kid <did>#results). */
let webbed: InjectedApp;
/** No signing key. */
let plain: InjectedApp;
let edSigner: Signer;
let webSigner: Signer;
const access: AccessEntry[] = [];
/** Every answer of this file, to look for the private keys in. */
const answers: LightMyRequestResponse[] = [];

async function get(app: InjectedApp, url: string): Promise<LightMyRequestResponse> {
  const res = await app.anonymous('GET', url);
  answers.push(res);
  return res;
}

async function post(app: InjectedApp, url: string, body: unknown): Promise<LightMyRequestResponse> {
  const res = await app.anonymous('POST', url, body);
  answers.push(res);
  return res;
}

const offline = () => signingKeyResolver(testRuntime(fixedClock()));

beforeAll(async () => {
  db = await sqliteDatabase('svc-signing');
  host = await startDidWebHost();
  clock = fixedClock('2026-02-03T04:05:06.000Z');
  const did = host.did('svc');
  host.publish(did, didDocument(did, host.key, [{ fragment: 'results', key: P256_KEY }]));
  edSigner = createSigner(ED_JWK);
  webSigner = createSigner(P256_JWK, { did: `${did}#results` });
  mcp = await startSdk2Server({ host, path: '/mcp', tools: PLAIN_TOOLS });
  const cardKey = await a2aKey('ES256');
  const jku = publishJwks(host.server, [{ key: cardKey, kid: 'card-key-1' }]);
  serveCard(host.server, await signCard(agentCard(host.server.origin), cardKey, { kid: 'card-key-1', jku }));
  const net = host.runtime().net;
  keyed = await injectedApp(db.target, { clock, net, signer: edSigner, accessLog: (entry) => access.push(entry) });
  webbed = await injectedApp(db.target, { clock, net, signer: webSigner, accessLog: (entry) => access.push(entry) });
  plain = await injectedApp(db.target, { clock, net });
}, 60_000);

afterAll(async () => {
  await keyed?.close();
  await webbed?.close();
  await plain?.close();
  await mcp?.close();
  await host?.close();
  await db?.done();
});

function bodyOf(res: LightMyRequestResponse): unknown {
  return JSON.parse(res.payload);
}

describe('/health', () => {
  it('names the signer (did, kid, alg) — null without a key', async () => {
    const health = bodyOf(await get(keyed, '/health')) as { signer: unknown };
    expect(health.signer).toEqual({ did: edSigner.identity.did, kid: edSigner.identity.kid, alg: 'EdDSA' });
    expect((bodyOf(await get(webbed, '/health')) as { signer: unknown }).signer).toEqual({
      did: host.did('svc'),
      kid: `${host.did('svc')}#results`,
      alg: 'ES256',
    });
    expect((bodyOf(await get(plain, '/health')) as { signer: unknown }).signer).toBeNull();
  });
});

describe('signed=true', () => {
  it('GET /v1/resolve: svc-signature verifies over the body through svc’s resolver of the did:key', async () => {
    const res = await get(keyed, `/v1/resolve/${DID_KEY}?signed=true&noCache=true`);
    expect(res.statusCode).toBe(200);
    const header = res.headers['svc-signature'];
    expect(header).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    const body = bodyOf(res);
    const result = await verifyCanonicalSignature(body, String(header), {
      resolveKey: offline(),
      typ: 'svc-result+jws',
      expectedSigner: edSigner.identity.did,
    });
    expect(result).toEqual({
      verified: true,
      reason: 'VALID',
      detail: `Signed by ${edSigner.identity.kid} at 2026-02-03T04:05:06Z.`,
      signer: { did: edSigner.identity.did, kid: edSigner.identity.kid },
      signedAt: '2026-02-03T04:05:06Z',
    });
    // The signed value is the body, not its text: re-indented, it still verifies; edited, it does not.
    expect((await verifyCanonicalSignature(JSON.parse(JSON.stringify(body, null, 2)), String(header), { resolveKey: offline() })).reason).toBe('VALID');
    const edited = { ...(body as Record<string, unknown>), did: 'did:key:z6MkedItEd' };
    expect((await verifyCanonicalSignature(edited, String(header), { resolveKey: offline() })).reason).toBe('EDITED');
  });

  it('a cached resolution is signed at answer time', async () => {
    const did = `did:key:${generateTestKey('EdDSA').multikey!}`;
    const first = await get(keyed, `/v1/resolve/${did}?signed=true`);
    clock.advance(90_000);
    const second = await get(keyed, `/v1/resolve/${did}?signed=1`);
    expect((bodyOf(second) as { cached: boolean }).cached).toBe(true);
    const [a, b] = await Promise.all(
      [first, second].map((res) => verifyCanonicalSignature(bodyOf(res), String(res.headers['svc-signature']), { resolveKey: offline() })),
    );
    expect(a!.reason).toBe('VALID');
    expect(b!.reason).toBe('VALID');
    expect(Date.parse(b!.signedAt!) - Date.parse(a!.signedAt!)).toBe(90_000);
  });

  it('POST /v1/credentials/verify: the verification is signed', async () => {
    const issuer = generateTestKey('EdDSA');
    const issuerDid = `did:key:${issuer.multikey!}`;
    const credential = signEddsaJcs2022(
      {
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        type: ['VerifiableCredential'],
        issuer: issuerDid,
        validFrom: '2026-01-01T00:00:00Z',
        credentialSubject: { id: 'did:example:alice' },
      },
      issuer,
      `${issuerDid}#${issuer.multikey!}`,
    );
    const res = await post(keyed, '/v1/credentials/verify?signed=true', { credential });
    expect(res.statusCode, res.payload).toBe(200);
    expect((bodyOf(res) as { status: string }).status).toBe('VALID');
    const result = await verifyCanonicalSignature(bodyOf(res), String(res.headers['svc-signature']), { resolveKey: offline() });
    expect(result.reason).toBe('VALID');
  });

  it('GET /v1/mcp/inspect and /v1/a2a/inspect: signed by the did:web signer (P-256), verified by resolving its did:web', async () => {
    const resolveKey = signingKeyResolver(host.runtime());
    for (const url of [
      `/v1/mcp/inspect?endpoint=${encodeURIComponent(mcp.url)}&signed=true`,
      `/v1/a2a/inspect?signed=true&url=${encodeURIComponent(host.server.origin)}`,
    ]) {
      const res = await get(webbed, url);
      expect(res.statusCode, res.payload).toBe(200);
      const result = await verifyCanonicalSignature(bodyOf(res), String(res.headers['svc-signature']), { resolveKey, expectedSigner: host.did('svc') });
      expect(result, url).toMatchObject({ verified: true, reason: 'VALID', signer: { did: host.did('svc'), kid: `${host.did('svc')}#results` } });
      // Another signer's key under that kid: WRONG_KEY.
      const wrong = await verifyCanonicalSignature(bodyOf(res), String(res.headers['svc-signature']), { resolveKey: async () => edSigner.identity.publicJwk });
      expect(wrong.reason).toBe('WRONG_KEY');
    }
  });

  it('without signed=true nothing is signed, with signed=false neither; a problem is never signed', async () => {
    for (const url of [`/v1/resolve/${DID_KEY}`, `/v1/resolve/${DID_KEY}?signed=false`, `/v1/resolve/${DID_KEY}?signed=0`]) {
      const res = await get(keyed, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['svc-signature'], url).toBeUndefined();
    }
    const problem = await get(keyed, '/v1/resolve/did:example:123?signed=true');
    expect(problem.statusCode).toBe(501);
    expect(problem.headers['svc-signature']).toBeUndefined();
    const bad = await get(keyed, `/v1/resolve/${DID_KEY}?signed=yes`);
    expect(bad.statusCode).toBe(400);
    expect((bodyOf(bad) as { code: string }).code).toBe('INVALID_OPTIONS');
  });

  it('without a signing key: 400 INVALID_OPTIONS naming SVC_SIGNING_KEY, on each of the four routes — never an unsigned answer', async () => {
    const answersOf = [
      await get(plain, `/v1/resolve/${DID_KEY}?signed=true`),
      await post(plain, '/v1/credentials/verify?signed=true', { credential: 'not.a.jwt' }),
      await get(plain, `/v1/mcp/inspect?endpoint=${encodeURIComponent(mcp.url)}&signed=true`),
      await get(plain, `/v1/a2a/inspect?url=${encodeURIComponent(host.server.origin)}&signed=true`),
    ];
    for (const res of answersOf) {
      expect(res.statusCode).toBe(400);
      expect(res.headers['svc-signature']).toBeUndefined();
      const problem = bodyOf(res) as { code: string; detail: string };
      expect(problem.code).toBe('INVALID_OPTIONS');
      expect(problem.detail).toBe(
        'signed=true: this daemon has no signing key, so it cannot sign its answer; its operator sets SVC_SIGNING_KEY to a private JWK file (docs/daemon.md#signed-results).',
      );
    }
    // Other routes do not take the option.
    const other = await get(keyed, `/v1/fast-verify/did/${DID_KEY}?signed=true`);
    expect(other.statusCode).toBe(400);
    expect(other.headers['svc-signature']).toBeUndefined();
  });
});

describe('failing closed', () => {
  it('an answer that cannot be signed is 500 INTERNAL_ERROR, never the result unsigned', async () => {
    const broken = await injectedApp(db.target, { clock, signer: edSigner });
    try {
      const signer = broken.ctx.signer!;
      broken.ctx.signer = {
        ...signer,
        signPayload: () => {
          throw new Error('the key is gone');
        },
      };
      const res = await get(broken, `/v1/resolve/${DID_KEY}?signed=true`);
      expect(res.statusCode).toBe(500);
      expect(res.headers['svc-signature']).toBeUndefined();
      expect(bodyOf(res)).toMatchObject({ code: 'INTERNAL_ERROR' });
      expect(res.payload).not.toContain(DID_KEY);
    } finally {
      await broken.close();
    }
  });
});

describe('the key file (SVC_SIGNING_KEY)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-signing-key-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function keyFile(name: string, content: string, mode: number): string {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    chmodSync(file, mode);
    return file;
  }

  async function refusal(env: NodeJS.ProcessEnv): Promise<string> {
    const error = await readSigningKey(env).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    for (const secret of SECRETS) expect(message).not.toContain(secret);
    return message;
  }

  it.skipIf(process.platform === 'win32')('a file group or others can read is refused, naming chmod 600 <file>', async () => {
    const file = keyFile('open.jwk', JSON.stringify(ED_JWK), 0o644);
    expect(await refusal({ SVC_SIGNING_KEY: file })).toBe(
      `SVC_SIGNING_KEY: the private key file ${file} is open to group or others (mode 0644); restrict it with: chmod 600 ${file}`,
    );
    chmodSync(file, 0o600);
    expect((await readSigningKey({ SVC_SIGNING_KEY: file }))?.identity.kid).toBe(edSigner.identity.kid);
  });

  it('unreadable or invalid: refused naming the file; SVC_SIGNING_DID takes a did:web', async () => {
    const missing = path.join(dir, 'missing.jwk');
    expect(await refusal({ SVC_SIGNING_KEY: missing })).toBe(`SVC_SIGNING_KEY: cannot read ${missing}: no such file`);
    const notJson = keyFile('text.jwk', `{"kty":"OKP","d":"${ED_JWK.d}"`, 0o600);
    expect(await refusal({ SVC_SIGNING_KEY: notJson })).toBe(`SVC_SIGNING_KEY: ${notJson} is not a JSON object (a private JWK, as svc keygen writes)`);
    const k1 = keyFile('k1.jwk', JSON.stringify(generateTestKey('ES256K').privateKey.export({ format: 'jwk' })), 0o600);
    expect(await refusal({ SVC_SIGNING_KEY: k1 })).toMatch(
      new RegExp(
        `^SVC_SIGNING_KEY: ${k1.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: The signing key is a kty "EC", crv "secp256k1" key: svc signs results only with`,
      ),
    );
    const publicOnly = keyFile('public.jwk', JSON.stringify(ED_KEY.publicJwk), 0o600);
    expect(await refusal({ SVC_SIGNING_KEY: publicOnly })).toMatch(/: The signing key is a public OKP Ed25519 JWK \(it has no "d"\)/);
    const good = keyFile('good.jwk', JSON.stringify(P256_JWK), 0o600);
    expect(await refusal({ SVC_SIGNING_KEY: good, SVC_SIGNING_DID: DID_KEY })).toMatch(/^SVC_SIGNING_DID: The signing DID is a did:key: give a did:web/);
    expect(await refusal({ SVC_SIGNING_DID: 'did:web:example.com' })).toBe(
      'SVC_SIGNING_DID is set but SVC_SIGNING_KEY is not: name the private JWK file to sign with',
    );
    expect((await readSigningKey({ SVC_SIGNING_KEY: good, SVC_SIGNING_DID: 'did:web:example.com' }))?.identity.did).toBe('did:web:example.com');
    expect(await readSigningKey({})).toBeUndefined();
  });

  it('svc serve (in process) reads it: the start announces the kid, signs when asked, and refuses an open file', async () => {
    const file = keyFile('serve.jwk', JSON.stringify(ED_JWK), 0o600);
    const daemon = await startInProcessDaemonFor(null, { env: { SVC_SIGNING_KEY: file, SVC_ACCESS_LOG: 'json' } });
    try {
      const res = await fetch(`${daemon.url}/v1/resolve/${DID_KEY}?signed=true`);
      const body = (await res.json()) as unknown;
      const result = await verifyCanonicalSignature(body, res.headers.get('svc-signature') ?? '', { resolveKey: offline() });
      expect(result.reason).toBe('VALID');
      expect(daemon.stderr()).toContain(`svc: signing results asked for with signed=true as ${edSigner.identity.kid} (EdDSA)`);
    } finally {
      await daemon.stop();
    }
    // Stopped: the access log's last lines are written. Neither they nor the announcements hold the key.
    for (const secret of SECRETS) expect(daemon.stderr()).not.toContain(secret);
    expect(daemon.stderr()).toContain('"route":"/v1/resolve/*"');
    chmodSync(file, 0o640);
    await expect(startInProcessDaemonFor(null, { env: { SVC_SIGNING_KEY: file } })).rejects.toThrow(`restrict it with: chmod 600 ${file}`);
  });
});

describe('evidence bundles from the daemon (?bundle=true)', () => {
  /** A daemon signing as the did:key, its clock at the real time: the test CA's certificates are valid now. */
  let live: InjectedApp;
  beforeAll(async () => {
    live = await injectedApp(db.target, { clock: fixedClock(new Date().toISOString()), net: host.runtime().net, signer: edSigner });
  });
  afterAll(() => live?.close());

  const bundleOf = async (app: InjectedApp, did: string) => {
    const res = await get(app, `/v1/resolve/${did}?bundle=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(BUNDLE_MEDIA_TYPE);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="did_web_localhost_3A\d+_svc\.bundle\.json"$/);
    return decodeBundle(new Uint8Array(res.rawPayload));
  };
  const check = (bundle: EvidenceBundle) => {
    const runtime = host.runtime();
    return verifyBundle(bundle, { runtime, trustAnchors: parseAnchors([host.ca.certPem]), checkSignature: (b) => checkBundleSignature(b, runtime) });
  };

  it('a signed bundle of a fresh resolution: verify-bundle re-checks it offline and names the signer', async () => {
    const did = host.did('svc');
    const bundle = await bundleOf(live, did);
    expect(bundle.command).toEqual({ kind: 'resolve', subject: did, options: {} });
    expect(bundle.resources.map((r) => r.purpose).sort()).toEqual(['DID configuration', 'DID document']);
    expect(bundle.signature).toBeDefined();
    const verified = await check(bundle);
    expect(verified.outcome).toBe('VERIFIED');
    expect(verified.signature).toMatchObject({ verified: true, reason: 'VALID', signer: { did: edSigner.identity.did, kid: edSigner.identity.kid } });
    expect(verified.shows).toContain(verified.signature!.proves);
  });

  it('a bundle edited after signing, or signed by another key, fails with the named reason', async () => {
    const bundle = await bundleOf(live, host.did('svc'));
    const edited = { ...bundle, observedAt: new Date(Date.parse(bundle.observedAt) - 1000).toISOString() };
    const afterEdit = await check(decodeBundle(encodeBundle(edited)));
    expect(afterEdit.outcome).toBe('FAILED');
    expect(afterEdit.signature).toMatchObject({ verified: false, reason: 'EDITED' });
    expect(afterEdit.summary).toMatch(/^signature: /);
    const other = createSigner(P256_JWK);
    const { signature: _kept, ...unsigned } = bundle;
    const resigned = signBundle(unsigned, (value, typ) => signCanonical(value, other, { typ, iat: new Date() }));
    // Another key's signature under this daemon's kid: the signature does not verify with the key the kid names.
    const forged = {
      ...bundle,
      signature: { protected: swapKid(resigned.signature!.protected, edSigner.identity.kid), signature: resigned.signature!.signature },
    };
    const wrongKey = await check(decodeBundle(encodeBundle(forged)));
    expect(wrongKey.signature).toMatchObject({ verified: false, reason: 'WRONG_KEY' });
    expect(wrongKey.outcome).toBe('FAILED');
  });

  it('without a signing key the bundle is unsigned, and says so', async () => {
    const res = await get(plain, `/v1/resolve/${DID_KEY}?bundle=true`);
    expect(res.statusCode).toBe(200);
    const bundle = decodeBundle(new Uint8Array(res.rawPayload));
    expect(bundle.signature).toBeUndefined();
    expect(bundle.resources).toEqual([]);
    const verified = await check(bundle);
    expect(verified.signature).toBeNull();
    expect(verified.bundle.signed).toBe(false);
  });

  it('the served dossier offers the bundle for download', async () => {
    const did = host.did('svc');
    const page = await live.anonymous('GET', `/d/${did}`, undefined, { accept: 'text/html' });
    expect(page.payload).toContain(`href="/v1/resolve/${did}?bundle=true" type="${BUNDLE_MEDIA_TYPE}" download`);
  });
});

/** The protected header with its kid replaced (the forger's claim to be another signer). */
function swapKid(protectedHeader: string, kid: string): string {
  const header = JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf8')) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...header, kid }), 'utf8').toString('base64url');
}

describe('nothing secret', () => {
  it('the private "d" is in no answer, header or access-log entry of this file', () => {
    expect(answers.length).toBeGreaterThan(10);
    expect(access.length).toBeGreaterThan(10);
    const seen = [...answers.map((res) => `${JSON.stringify(res.headers)}\n${res.payload}`), JSON.stringify(access)].join('\n');
    for (const secret of SECRETS) expect(seen).not.toContain(secret);
    // The public halves are there (the check can see key material).
    expect(seen).toContain(edSigner.identity.kid);
  });
});
