/**
 * The attacks on who a request is and who may act, against the real binary (its
 * refusals at start) and the daemon started in this process from its command line: each case
 * failed before the change.
 *
 * - Client identity behind a proxy: garbage in X-Forwarded-For from a trusted proxy made every
 *   request a new client (140 of 140 answered where the budget allows 120/min); a trusted-proxy
 *   set covering all of IPv4 in two halves started.
 * - Duplicate Host headers were answered 200 (RFC 9112 §3.2: 400), on the daemon and the gateway.
 * - Authorisation after work: setting the webhook of another owner's project made svc look up
 *   the URL's host (502 UPSTREAM_UNAVAILABLE) before saying no; the answer is now the 404 of an
 *   unknown project, given before any work (both engines).
 * - Operator tokens that can never be presented (a space, non-ASCII) or are trivially guessable
 *   started the daemon; now refused at start, or accepted only as an announced relaxation.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, parseCliError, svc } from '../support/cli.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, statusFrom, expectJson, startInProcessDaemonFor } from '../support/daemon-client.js';
import { ED25519_DID } from '../support/dids.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { didKeyPrincipal, gatewayUrl, ownerSession, seedOwner, signIn, startInProcessGatewayDaemon } from '../support/gateway.js';
import { describePostgres } from '../support/postgres.js';

const QUIET = {
  NODE_EXTRA_CA_CERTS: undefined,
  SVC_EGRESS_ALLOW: undefined,
  SVC_TRUST_PROXY: undefined,
  SVC_DELEGATION_ROOTS: undefined,
  SVC_ADMIN_TOKEN: undefined,
  SVC_RATE_LIMIT_PER_MIN: undefined,
};

/** A raw HTTP/1.1 exchange (headers exactly as written); the status line's code and the body. */
function raw(url: string, head: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe('client identity behind a trusted proxy', () => {
  let daemon: DaemonHandle;
  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(null, { env: { ...QUIET, SVC_TRUST_PROXY: '127.0.0.1', SVC_RATE_LIMIT_PER_MIN: '3' } });
  });
  afterAll(async () => {
    await daemon?.stop();
  });
  const target = () => `${daemon.url}/v1/fast-verify/did/${ED25519_DID}`;

  it('rotating garbage in X-Forwarded-For is one client — the proxy — not a new client each time', async () => {
    const junk = ['not-an-ip', 'x1', '999.1.1.1', '203.0.113.9:4000', 'proxy.example', '[::1]'];
    const statuses: number[] = [];
    for (const value of junk) statuses.push(await statusFrom(target(), '127.0.0.1', { 'x-forwarded-for': value }));
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    // The proxy's own requests share that bucket: the junk was charged to it.
    expect(await statusFrom(target(), '127.0.0.1')).toBe(429);
    // A real forwarded address is still its own client.
    expect(await statusFrom(target(), '127.0.0.1', { 'x-forwarded-for': '198.51.100.20' })).toBe(200);
    // Junk to the left of a real address does not matter: the rightmost untrusted entry is the client.
    expect(await statusFrom(target(), '127.0.0.1', { 'x-forwarded-for': 'garbage, 198.51.100.21' })).toBe(200);
  });
});

describe('trusted-proxy sets that cover an address family are refused at start (exit 2)', () => {
  it.each([
    ['0.0.0.0/1,128.0.0.0/1', /together the ranges cover all of IPv4 \(at most 1\/16 may be trusted\)/],
    ['0.0.0.0/2,64.0.0.0/2,128.0.0.0/2,192.0.0.0/2', /cover all of IPv4/],
    ['0.0.0.0/4', /cover 6\.3% of IPv4/],
    ['::/1,8000::/1', /cover all of IPv[46]/],
    ['2000::/3', /cover 12\.5% of IPv6/],
    ['::ffff:0:0/97,::ffff:128.0.0.0/97', /cover all of IPv4/],
  ])('SVC_TRUST_PROXY=%s', async (value, reason) => {
    const r = await svc(['serve', '--memory', '--port', '0'], cleanEnv({ SVC_TRUST_PROXY: value }));
    expect(r.exitCode).toBe(2);
    const error = parseCliError(r.stderr);
    expect(error.code).toBe('USAGE_ERROR');
    expect(error.detail).toMatch(reason);
    expect(error.detail).toContain('list the addresses of your proxies instead');
  });
});

describe('one Host per request (RFC 9112 §3.2)', () => {
  let daemon: DaemonHandle;
  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(null, { env: QUIET });
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('two Host headers → 400 INVALID_REQUEST problem, the same or different values', async () => {
    const host = new URL(daemon.url).host;
    for (const second of [host, 'evil.example']) {
      const answer = await raw(daemon.url, `GET /health HTTP/1.1\r\nHost: ${host}\r\nHost: ${second}\r\nConnection: close\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        code: 'INVALID_REQUEST',
        detail: 'The request carries 2 Host headers; exactly one is allowed (RFC 9112 §3.2).',
      });
    }
    // One Host: fine.
    expect((await raw(daemon.url, `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).status).toBe(200);
  });

  it('an absolute request target naming another host than Host → 400', async () => {
    const host = new URL(daemon.url).host;
    const answer = await raw(daemon.url, `GET http://evil.example/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: 'The absolute request target names another host than the Host header (RFC 9112 §3.2).',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The operator token

describe('operator tokens you can use', () => {
  const serve = (env: Record<string, string>) => svc(['serve', '--memory', '--port', '0'], cleanEnv(env));

  it.each([
    ['a'.repeat(24), /SVC_ADMIN_TOKEN is guessable: it is one character repeated/],
    ['abcabcabcabcabcabcabcabc', /guessable: it is a pattern of 3 characters repeated/],
    ['abcdefghijklmnopqrstuvwxyz', /guessable: it is mostly a run of consecutive characters/],
    ['password-1234567890-password', /guessable: it is made of common words, digits and punctuation/],
    ['admin-token-2026-admin-token', /guessable: it is made of common words/],
  ])('%s → exit 2, guessable, with the way out', async (token, reason) => {
    const r = await serve({ SVC_ADMIN_TOKEN: token });
    expect(r.exitCode).toBe(2);
    const error = parseCliError(r.stderr);
    expect(error.detail).toMatch(reason);
    expect(error.detail).toContain('openssl rand -hex 32');
    expect(error.detail).toContain('SVC_ALLOW_WEAK_ADMIN_TOKEN=1');
    expect(r.stderr).not.toContain(token);
  });

  it.each([
    ['a token with a space in it 0123456789', 'a space'],
    ['tökén-0123456789-abcdefghijkl', 'a character beyond ASCII'],
    ['tab\there-0123456789-abcdefghijkl', 'a control character'],
  ])('%j → exit 2: it could never be presented as a Bearer token', async (token, what) => {
    const r = await serve({ SVC_ADMIN_TOKEN: token });
    expect(r.exitCode).toBe(2);
    expect(parseCliError(r.stderr).detail).toBe(
      `SVC_ADMIN_TOKEN holds ${what}; an operator token is printable ASCII without spaces (it travels in Authorization: Bearer <token>) — make one with: openssl rand -hex 32`,
    );
  });

  it('SVC_ALLOW_WEAK_ADMIN_TOKEN=1 accepts a guessable token as a relaxation: announced at start and listed by /health', async () => {
    const daemon = await startInProcessDaemonFor(null, {
      env: { ...QUIET, SVC_DELEGATION_ROOTS: ED25519_DID, SVC_ADMIN_TOKEN: 'x'.repeat(32), SVC_ALLOW_WEAK_ADMIN_TOKEN: '1' },
    });
    try {
      const effect = 'the operator token is accepted although it is guessable (it is one character repeated)';
      expect(daemon.stderr()).toContain(`svc: relaxation: ${effect} (SVC_ALLOW_WEAK_ADMIN_TOKEN)`);
      expect(expectJson(await call(`${daemon.url}/health`), 200).relaxations).toEqual([{ setting: 'SVC_ALLOW_WEAK_ADMIN_TOKEN', value: '1', effect }]);
      // And it works as the token.
      expect((await call(`${daemon.url}/v1/monitoring/status`, { headers: { authorization: `Bearer ${'x'.repeat(32)}` } })).status).toBe(200);
    } finally {
      await daemon.stop();
    }
  });

  it('a generated token starts without a relaxation', async () => {
    const daemon = await startInProcessDaemonFor(null, {
      env: { ...QUIET, SVC_DELEGATION_ROOTS: ED25519_DID, SVC_ADMIN_TOKEN: '3f9c1e7a0b5d42e8a6c4f1d09b7e25ac' },
    });
    try {
      expect(expectJson(await call(`${daemon.url}/health`), 200).relaxations).toEqual([]);
    } finally {
      await daemon.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Authorise first, work second; and the gateway's Host (both engines)

function authoriseFirst(engine: string, describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>) {
  describeEngine(`the owner routes authorise before they work (${engine})`, () => {
    const alice = didKeyPrincipal();
    const bob = didKeyPrincipal();
    let opened: TestDatabase;
    let daemon: DaemonHandle;
    let gw: string;
    let bobs: string;
    let alices: string;
    let A: ReturnType<typeof ownerSession>;

    beforeAll(async () => {
      opened = await open();
      [alices] = (await seedOwner(opened.target, alice.did, ['alice'])) as [string];
      [bobs] = (await seedOwner(opened.target, bob.did, ['bob'])) as [string];
      const env = { SVC_RATE_LIMIT_PER_MIN: '100000', SVC_EGRESS_ALLOW: undefined, NODE_EXTRA_CA_CERTS: undefined };
      const started = await startInProcessGatewayDaemon(
        engine === 'SQLite' ? { dbPath: opened.target, env } : { noDb: true, args: ['--db', opened.target], env },
      );
      daemon = started.daemon;
      gw = gatewayUrl(daemon);
      const a = await signIn(gw, started.origin, alice);
      expect(a.status).toBe(200);
      A = ownerSession(gw, started.origin, a.cookie);
    }, 60_000);
    afterAll(async () => {
      await daemon?.stop();
      await opened?.done();
    });

    it("setting the webhook of another owner's project: the 404 of an unknown project, before any DNS lookup of the URL", async () => {
      // A host that cannot resolve: looking it up is a 502 (what the owner gets), so a 404 shows no lookup was made.
      const body = { url: 'https://svc-attack-webhook.invalid/hook' };
      const others = await A.post(`/v1/session/projects/${bobs}/webhook`, body);
      const unknown = await A.post('/v1/session/projects/prj_doesnotexist000/webhook', body);
      expect([others.status, others.body.code]).toEqual([404, 'NOT_FOUND']);
      expect({ ...others.body, requestId: undefined }).toEqual({ ...unknown.body, requestId: undefined });
      // The owner's own project: the URL is checked (looked up), so the failure is the lookup's.
      const own = await A.post(`/v1/session/projects/${alices}/webhook`, body);
      expect([502, 403]).toContain(own.status);
      expect(['UPSTREAM_UNAVAILABLE', 'EGRESS_BLOCKED']).toContain(own.body.code);
      // And nothing was stored for Bob's project.
      const rows = await opened.sql(`SELECT count(*) AS n FROM customer_webhooks WHERE project_id = '${bobs}'`);
      expect(Number(rows[0]!.n)).toBe(0);
    });

    it('the cookie gateway: two Host headers → 400', async () => {
      const host = new URL(gw).host;
      const answer = await raw(gw, `GET /session HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'INVALID_REQUEST' });
    });
  });
}

authoriseFirst('SQLite', describe, () => sqliteDatabase('svc-attacks-identity'));
authoriseFirst('PostgreSQL', describePostgres, postgresDatabase);
