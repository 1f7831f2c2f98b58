/**
 * The loopback cookie gateway on a daemon started in this process from its command
 * line (the refusals: `svc serve` as a process, for their exit codes): owner sign-in with a
 * did:key, the session cookie, what is forwarded (and what never reaches the core), the Origin
 * rule, sign-out and expiry, and the refusals of `svc serve` itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/core/accounts/sign-in.js';
import { cleanEnv, svc } from '../support/cli.js';
import type { DaemonHandle } from '../support/daemon.js';
import {
  ADMIN_TOKEN,
  didKeyPrincipal,
  gatewayUrl,
  get,
  postJson,
  seed,
  seedOwner,
  signIn,
  signInWith,
  signStatement,
  startInProcessGatewayDaemon,
} from '../support/gateway.js';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-gateway-'));
const dbPath = path.join(dir, 'svc.db');
const owner = didKeyPrincipal();
const other = didKeyPrincipal();
const stranger = didKeyPrincipal();
let projects: string[];
let otherProjects: string[];
let daemon: DaemonHandle;
let gw: string;
let origin: string;

beforeAll(async () => {
  projects = await seedOwner(dbPath, owner.did, ['alpha', 'beta']);
  otherProjects = await seedOwner(dbPath, other.did, ['gamma']);
  // A session that expired two days ago: the gateway's sweep deletes it.
  const db = new Database(dbPath);
  const old = Date.now() - 2 * 86_400_000;
  db.prepare(
    'INSERT INTO owner_sessions (id_digest, subject, created_at_ms, last_seen_at_ms, idle_ms, expires_at_ms, absolute_expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(tokenDigest('O'.repeat(43)), owner.did, old - 60_000, old - 60_000, 60_000, old, old);
  db.close();
  const started = await startInProcessGatewayDaemon({ dbPath, env: { SVC_ACCESS_LOG: 'json' } });
  daemon = started.daemon;
  origin = started.origin;
  gw = gatewayUrl(daemon);
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sign-in', () => {
  it('a challenge names the exact statement to sign', async () => {
    const answer = await postJson(gw, '/sign-in/challenge', { did: owner.did });
    expect(answer.status).toBe(201);
    expect(answer.body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.body.statement).toBe(JSON.stringify({ aud: 'svc-sign-in', did: owner.did, nonce: answer.body.challenge, origin }));
    const ttl = Date.parse(answer.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(240_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
  });

  it('a did:key owner signs in: the cookie is HttpOnly, SameSite=Strict, Path=/, not Secure on http, Max-Age 12 h', async () => {
    const signed = await signIn(gw, origin, owner);
    expect(signed.status).toBe(200);
    expect(signed.body.subject).toBe(owner.did);
    expect(signed.body.projects.map((p: { id: string }) => p.id).sort()).toEqual([...projects].sort());
    expect(signed.setCookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(signed.setCookie).not.toContain('Secure');
    const session = await get(gw, '/session', { cookie: signed.cookie });
    expect(session.status).toBe(200);
    expect(session.body.subject).toBe(owner.did);
    expect(session.body.projects).toHaveLength(2);
    // The session id is never logged.
    expect(daemon.stderr()).not.toContain(signed.cookie.slice('svc_session='.length));
  });

  it('the session is stored as a digest only', async () => {
    const signed = await signIn(gw, origin, owner);
    const id = signed.cookie.slice('svc_session='.length);
    await seed(dbPath, async (accounts) => {
      // The digest names the live session; the raw id is no key of any session.
      expect(await accounts.touchSession(tokenDigest(id))).not.toBeNull();
    });
    const { readFileSync } = await import('node:fs');
    for (const file of [dbPath, `${dbPath}-wal`]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(id))).toBe(false);
    }
  });

  it('a wrong signature is refused', async () => {
    const challenge = await postJson(gw, '/sign-in/challenge', { did: owner.did });
    const jws = signStatement(stranger, challenge.body.statement, owner.kid);
    const signed = await signInWith(gw, origin, { did: owner.did, challenge: challenge.body.challenge, jws });
    expect(signed.status).toBe(401);
    expect(signed.body.code).toBe('UNAUTHORIZED');
    expect(signed.body.detail).toContain('SIGNATURE_INVALID');
    expect(signed.setCookie).toBe('');
  });

  it('a statement for another origin is refused', async () => {
    const challenge = await postJson(gw, '/sign-in/challenge', { did: owner.did });
    const statement = JSON.stringify({ aud: 'svc-sign-in', did: owner.did, nonce: challenge.body.challenge, origin: 'http://127.0.0.1:1' });
    const signed = await signInWith(gw, origin, { did: owner.did, challenge: challenge.body.challenge, jws: signStatement(owner, statement) });
    expect(signed.status).toBe(401);
    expect(signed.body.detail).toContain('PAYLOAD_MISMATCH');
    expect(signed.body.detail).toContain('another origin');
  });

  it('a challenge is used once', async () => {
    const challenge = await postJson(gw, '/sign-in/challenge', { did: owner.did });
    const body = { did: owner.did, challenge: challenge.body.challenge, jws: signStatement(owner, challenge.body.statement) };
    expect((await signInWith(gw, origin, body)).status).toBe(200);
    const again = await signInWith(gw, origin, body);
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/unknown, already used/);
    const unknown = await signInWith(gw, origin, { ...body, challenge: 'A'.repeat(43) });
    expect(unknown.status).toBe(401);
  });

  it('a DID owning no project is refused after its signature verified, never before', async () => {
    // A bad signature by a stranger: the refusal says nothing of ownership.
    const c1 = await postJson(gw, '/sign-in/challenge', { did: stranger.did });
    const bad = await signInWith(gw, origin, { did: stranger.did, challenge: c1.body.challenge, jws: signStatement(owner, c1.body.statement, stranger.kid) });
    expect(bad.status).toBe(401);
    expect(bad.body.detail).not.toMatch(/owns/);
    const signed = await signIn(gw, origin, stranger);
    expect(signed.status).toBe(403);
    expect(signed.body.code).toBe('FORBIDDEN');
    expect(signed.body.detail).toContain('owns no project');
    expect(signed.setCookie).toBe('');
  });

  it('bad bodies are precise problems', async () => {
    const noDid = await postJson(gw, '/sign-in/challenge', {});
    expect(noDid.status).toBe(400);
    expect(noDid.body.detail).toContain('"did"');
    const extra = await postJson(gw, '/sign-in/challenge', { did: owner.did, x: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body.detail).toContain('unknown member "x"');
    const badDid = await postJson(gw, '/sign-in/challenge', { did: 'not-a-did' });
    expect(badDid.status).toBe(400);
    expect(badDid.body.code).toBe('INVALID_DID');
    const notJson = await fetch(`${gw}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"did":' });
    expect(notJson.status).toBe(400);
    expect(notJson.headers.get('content-type')).toContain('application/problem+json');
    const foreign = await postJson(gw, '/sign-in/challenge', { did: owner.did }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const huge = await postJson(gw, '/sign-in/challenge', { did: owner.did, pad: 'x'.repeat(600 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
    const wrongType = await fetch(`${gw}/sign-in/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ did: owner.did }),
    });
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { detail: string }).detail).toContain('application/json');
  });
});

describe('forwarding', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = (await signIn(gw, origin, owner)).cookie;
  });

  it("GET /v1/session/projects answers the session owner's projects, whatever forged headers say", async () => {
    const answer = await get(gw, '/v1/session/projects', {
      cookie,
      'x-svc-subject': other.did,
      'x-svc-role': 'operator',
      'x-svc-bridge': 'forged',
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.subject).toBe(owner.did);
    expect(answer.body.projects.map((p: { id: string }) => p.id).sort()).toEqual([...projects].sort());
    expect(answer.body.projects.map((p: { id: string }) => p.id)).not.toContain(otherProjects[0]);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('the core alone refuses a subject without the bridge', async () => {
    const direct = await get(daemon.url, '/v1/session/projects', { 'x-svc-subject': owner.did });
    expect(direct.status).toBe(401);
    expect(direct.body.code).toBe('UNAUTHORIZED');
    const forged = await get(daemon.url, '/v1/session/projects', { 'x-svc-subject': owner.did, 'x-svc-bridge': 'A'.repeat(43) });
    expect(forged.status).toBe(401);
  });

  it('without a session: 401', async () => {
    const none = await get(gw, '/v1/session/projects');
    expect(none.status).toBe(401);
    const bogus = await get(gw, '/v1/session/projects', { cookie: `svc_session=${'B'.repeat(43)}` });
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get('set-cookie')).toMatch(/^svc_session=; .*Max-Age=0$/);
  });

  it('unlisted paths: 404 from the gateway itself; a listed path with another method: 405 naming the methods', async () => {
    for (const [method, route] of [
      ['GET', '/v1/resolve/did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'],
      ['GET', '/health'],
      ['GET', '/v1/monitoring/watches'],
      ['GET', '/v1/session/projects/a.b/keys'],
      ['GET', '/v1/session/projects/%2e%2e/keys'],
    ] as const) {
      const answer = await get(gw, route, { cookie }, method);
      expect(answer.status, `${method} ${route}`).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
      expect(answer.body.detail).toContain('cookie gateway');
    }
    for (const [method, route, allow] of [
      ['POST', '/v1/session/projects', 'GET'],
      ['PUT', `/v1/session/projects/${projects[0]}/keys`, 'GET, POST'],
      ['GET', `/v1/session/projects/${projects[0]}/keys/k1/rotate`, 'POST'],
      // Cursors are never read from a GET.
      ['GET', `/v1/session/projects/${projects[0]}/watches/wch_1/event-page?beforeEventId=evt_1`, 'POST'],
    ] as const) {
      const answer = await get(gw, route, { cookie }, method);
      expect(answer.status, `${method} ${route}`).toBe(405);
      expect(answer.body.code).toBe('METHOD_NOT_ALLOWED');
      expect(answer.headers.get('allow')).toBe(allow);
    }
  });

  it("the customer monitor's routes answer through the gateway: the owner's data, another owner's project the core's 404", async () => {
    const answer = await get(gw, `/v1/session/projects/${projects[0]}/webhook-deliveries`, { cookie });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ deliveries: [] });
    expect((await get(gw, '/v1/session/scheduled-usage', { cookie })).body.projects.map((p: { projectId: string }) => p.projectId).sort()).toEqual(
      [...projects].sort(),
    );
    const foreign = await get(gw, `/v1/session/projects/${otherProjects[0]}/webhook`, { cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', detail: 'No project of yours has this id.' });
    const unknown = await get(gw, '/v1/session/projects/prj_nobody/webhook', { cookie });
    // The same answer but for the request's own id.
    expect({ ...unknown.body, requestId: undefined }).toEqual({ ...foreign.body, requestId: undefined });
  });

  it('a write needs the configured Origin exactly', async () => {
    const route = `/v1/session/projects/${projects[0]}/keys`;
    const none = await postJson(gw, route, {}, { cookie });
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('FORBIDDEN');
    expect(none.body.detail).toContain('carries none');
    const foreign = await postJson(gw, route, {}, { cookie, origin: 'http://127.0.0.1:1' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toContain('another origin');
    const deleted = await get(gw, `/v1/session/projects/${projects[0]}/keys/k1`, { cookie }, 'DELETE');
    expect(deleted.status).toBe(403);
  });

  it('sign-out ends the session: the next forwarded request is 401', async () => {
    const mine = (await signIn(gw, origin, owner)).cookie;
    expect((await get(gw, '/v1/session/projects', { cookie: mine })).status).toBe(200);
    const noOrigin = await postJson(gw, '/sign-out', {}, { cookie: mine });
    expect(noOrigin.status).toBe(403);
    const out = await fetch(`${gw}/sign-out`, { method: 'POST', headers: { cookie: mine, origin } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe('svc_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    const after = await get(gw, '/v1/session/projects', { cookie: mine });
    expect(after.status).toBe(401);
    expect((await get(gw, '/session', { cookie: mine })).status).toBe(401);
  });

  it('a session revoked or expired in the store is 401', async () => {
    const revoked = (await signIn(gw, origin, owner)).cookie;
    await seed(dbPath, async (accounts) => {
      expect(await accounts.revokeSessionsOf(owner.did)).toBeGreaterThan(0);
    });
    expect((await get(gw, '/v1/session/projects', { cookie: revoked })).status).toBe(401);
    // An expired one: a session whose idle lifetime is one second, created in the store.
    const id = 'E'.repeat(43);
    await seed(dbPath, async (accounts) => {
      await accounts.createSession({ idDigest: tokenDigest(id), subject: owner.did, idleSeconds: 1, absoluteSeconds: 60 });
    });
    expect((await get(gw, '/session', { cookie: `svc_session=${id}` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_300));
    expect((await get(gw, '/v1/session/projects', { cookie: `svc_session=${id}` })).status).toBe(401);
  });

  it('the owner page lists the projects, their watches and newest events when signed in, explains svc owner login otherwise', async () => {
    const mine = (await signIn(gw, origin, owner)).cookie;
    const page = await get(gw, '/', { cookie: mine });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain(projects[0]);
    expect(page.text).toContain('alpha');
    expect(page.text).toContain('No watches.');
    // A watch and an event of it: the page shows both, escaped; never another owner's.
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const added = await postJson(gw, `/v1/session/projects/${projects[0]}/watches`, { did }, { origin, cookie: mine });
    expect(added.status).toBe(201);
    const watchRow = Number(String(added.body.watch.id).slice('wch_'.length));
    const db = new Database(dbPath);
    db.pragma('busy_timeout = 5000');
    const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const eventRow = db
      .prepare(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status) VALUES (?, ?, 'identity.deactivated', '{}', ?, 'PENDING') RETURNING id`,
      )
      .pluck()
      .get(watchRow, did, at) as number;
    db.close();
    const withWatch = await get(gw, '/', { cookie: mine });
    expect(withWatch.text).toContain(added.body.watch.id);
    expect(withWatch.text).toContain(did);
    expect(withWatch.text).toContain(`evt_${eventRow}`);
    expect(withWatch.text).toContain('identity.deactivated');
    const theirs = (await signIn(gw, origin, other)).cookie;
    const otherPage = await get(gw, '/', { cookie: theirs });
    expect(otherPage.text).toContain(otherProjects[0]);
    expect(otherPage.text).not.toContain(added.body.watch.id);
    expect(otherPage.text).not.toContain(`evt_${eventRow}`);
    const anonymous = await get(gw, '/');
    expect(anonymous.text).toContain('svc owner login');
    expect(anonymous.text).not.toContain(projects[0]);
  });
});

describe('housekeeping', () => {
  it('the access log names gateway routes by template, never a path id, cookie or header', async () => {
    const cookie = (await signIn(gw, origin, owner)).cookie;
    const forwarded = await get(gw, `/v1/session/projects/${projects[0]}/keys`, { cookie, 'x-request-id': 'gw-check-1' });
    expect(forwarded.headers.get('x-request-id')).toBe('gw-check-1');
    const notFound = await get(gw, '/nowhere', { 'x-request-id': 'two words' });
    const madeId = notFound.headers.get('x-request-id');
    expect(madeId).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    expect(notFound.body.requestId).toBe(madeId);
    await new Promise((r) => setTimeout(r, 100));
    const lines = daemon
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{') && l.includes('"access":true'))
      .map((l) => JSON.parse(l) as { route: string | null; status: number; method: string; requestId: string });
    const routes = lines.map((l) => l.route);
    // The gateway passes its id on: its line and the daemon's line of the forwarded request share it.
    expect(
      lines
        .filter((l) => l.requestId === 'gw-check-1')
        .map((l) => l.route)
        .sort(),
    ).toEqual(['/v1/session/projects/:project/keys', 'gateway /v1/session/projects/{project}/keys']);
    expect(lines.filter((l) => l.requestId === madeId).map((l) => l.status)).toEqual([404]);
    expect(daemon.stderr()).not.toContain('two words');
    expect(routes).toContain('gateway /sign-in');
    expect(routes).toContain('gateway /v1/session/projects/{project}/keys');
    expect(lines.find((l) => l.route === 'gateway /sign-in' && l.status === 200)).toBeTruthy();
    expect(daemon.stderr()).not.toContain(cookie.slice('svc_session='.length));
    expect(daemon.stderr()).not.toContain(projects[0]);
  });

  it('sessions expired more than a day ago are swept while the gateway runs', async () => {
    const db = new Database(dbPath, { readonly: true });
    try {
      const count = () => (db.prepare('SELECT count(*) AS n FROM owner_sessions WHERE id_digest = ?').get(tokenDigest('O'.repeat(43))) as { n: number }).n;
      const deadline = Date.now() + 5_000;
      while (count() !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(count()).toBe(0);
      // Live sessions stay.
      expect(
        (db.prepare('SELECT count(*) AS n FROM owner_sessions WHERE revoked_at_ms IS NULL AND expires_at_ms > ?').get(Date.now()) as { n: number }).n,
      ).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});

describe('svc serve refuses a gateway it may not start', () => {
  it('a non-loopback --gateway-host: exit 2, saying why', async () => {
    const result = await svc(
      ['serve', '--memory', '--port', '0', '--gateway-port', '0', '--gateway-host', '0.0.0.0'],
      cleanEnv({ SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_COMMERCIAL: 'on', SVC_COMMERCIAL_ORIGIN: 'http://127.0.0.1:9' }),
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('loopback only');
    expect(result.stderr).toContain('0.0.0.0');
    expect(result.stderr).not.toContain('listening on');
  });

  it('a gateway port in use: exit 4 naming that port', async () => {
    const port = Number(new URL(gw).port);
    const result = await svc(
      ['serve', '--memory', '--port', '0', '--gateway-port', String(port)],
      cleanEnv({ SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_COMMERCIAL: 'on', SVC_COMMERCIAL_ORIGIN: `http://127.0.0.1:${port}` }),
    );
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`127.0.0.1:${port}: the port is in use`);
  });

  it('the commercial mode off: exit 2, saying why', async () => {
    const result = await svc(['serve', '--memory', '--port', '0', '--gateway-port', '0'], cleanEnv({ SVC_ADMIN_TOKEN: ADMIN_TOKEN }));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('commercial mode');
    expect(result.stderr).toContain('SVC_COMMERCIAL is not on');
  });
});
