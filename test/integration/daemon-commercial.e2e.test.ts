/**
 * The commercial mode on the daemon: the operator's control routes (tenants,
 * projects, owners, usage), the session core's key routes and keyed requests, on SQLite and on
 * PostgreSQL.
 *
 * Daemons started as `svc serve` would be (in this process, from the command line) show over
 * real HTTP what the network sees: the mode off (501 on every route, even
 * with the token), `--public` (404: not mounted; an Authorization header changes nothing), the
 * operator token (401 without it), the session core refusing anyone without the bridge secret
 * (a client-sent X-SVC-Subject does nothing). The key routes WITH the bridge need the secret,
 * which lives only in the daemon's memory: for them the daemon is built in this process with
 * serve() on a real port, so the test can read it, as the in-process cookie gateway does.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/core/runtime.js';
import { createRuntime } from '../../src/runtime/node.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { SvcClient, SvcError } from '../../src/client/index.js';
import { cleanEnv, svc } from '../support/cli.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectJson, expectProblem, startInProcessDaemonFor, until, type Answer } from '../support/daemon-client.js';
import { ED25519_DID } from '../support/dids.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';

const TOKEN = 'operator-token-0123456789-abcdef';
const ORIGIN = 'http://127.0.0.1:8081';
const ON = { SVC_ADMIN_TOKEN: TOKEN, SVC_COMMERCIAL: 'on', SVC_COMMERCIAL_ORIGIN: ORIGIN };
const ALICE = 'did:web:alice.example';
const BOB = 'did:web:bob.example';
const FAST = `/v1/fast-verify/did/${ED25519_DID}`;

const operator = { authorization: `Bearer ${TOKEN}` };
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Every route of the mode, with a body where it takes one. */
const ROUTES: Array<{ method: string; path: string; body?: unknown }> = [
  { method: 'POST', path: '/v1/commercial/tenants', body: { name: 'Acme', owner: ALICE } },
  { method: 'GET', path: '/v1/commercial/tenants' },
  { method: 'POST', path: '/v1/commercial/tenants/ten_x/projects', body: { name: 'p' } },
  { method: 'POST', path: '/v1/commercial/tenants/ten_x/owners', body: { subject: BOB } },
  { method: 'DELETE', path: `/v1/commercial/tenants/ten_x/owners/${encodeURIComponent(BOB)}` },
  { method: 'GET', path: '/v1/commercial/projects/prj_x/usage' },
  { method: 'GET', path: '/v1/session/projects/prj_x/keys' },
  { method: 'POST', path: '/v1/session/projects/prj_x/keys', body: {} },
  { method: 'DELETE', path: '/v1/session/projects/prj_x/keys/key_x' },
  { method: 'POST', path: '/v1/session/projects/prj_x/keys/key_x/rotate', body: {} },
  { method: 'GET', path: '/v1/session/projects' },
  { method: 'GET', path: '/v1/session/projects/prj_x/watches' },
  { method: 'POST', path: '/v1/session/projects/prj_x/watches', body: { did: ALICE } },
  { method: 'DELETE', path: '/v1/session/projects/prj_x/watches/wch_1' },
  { method: 'GET', path: '/v1/session/projects/prj_x/watches/wch_1/events' },
  { method: 'POST', path: '/v1/session/projects/prj_x/watches/wch_1/event-page', body: { limit: 10 } },
  { method: 'POST', path: '/v1/session/projects/prj_x/watches/wch_1/report', body: {} },
  { method: 'GET', path: '/v1/session/projects/prj_x/webhook' },
  { method: 'POST', path: '/v1/session/projects/prj_x/webhook', body: { url: 'https://hooks.example/svc' } },
  { method: 'DELETE', path: '/v1/session/projects/prj_x/webhook' },
  { method: 'GET', path: '/v1/session/projects/prj_x/webhook-deliveries' },
  { method: 'GET', path: '/v1/session/scheduled-usage' },
  { method: 'GET', path: '/v1/commercial/plans' },
  { method: 'POST', path: '/v1/commercial/plans', body: { id: 'p', name: 'P', currency: 'EUR', monthlyPriceMinor: 0, includedRequests: 0 } },
  { method: 'POST', path: '/v1/commercial/tenants/ten_x/subscription', body: { plan: 'p' } },
  { method: 'POST', path: '/v1/commercial/tenants/ten_x/close-period', body: { period: '2026-01' } },
  { method: 'GET', path: '/v1/commercial/tenants/ten_x/billing' },
];

function send(base: string, route: { method: string; path: string; body?: unknown }, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${base}${route.path}`, {
    method: route.method,
    headers: { ...headers, ...(route.body !== undefined ? JSON_HEADERS : {}) },
    ...(route.body !== undefined ? { body: JSON.stringify(route.body) } : {}),
  });
}

const post = (base: string, route: string, body: unknown, headers: Record<string, string> = {}) =>
  call(`${base}${route}`, { method: 'POST', headers: { ...headers, ...JSON_HEADERS }, body: JSON.stringify(body) });

interface Backend {
  name: string;
  describe: (name: string, fn: () => void) => void;
  /** A database for one daemon (a file path or a postgres:// URL) and its cleanup. */
  database(): Promise<{ db: string; drop(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    describe,
    async database() {
      const dir = mkdtempSync(path.join(tmpdir(), 'svc-commercial-'));
      return { db: path.join(dir, 'svc.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    describe: describePostgres,
    async database() {
      const database = await freshDatabase();
      return { db: database.url, drop: database.drop };
    },
  },
];

for (const backend of BACKENDS) {
  backend.describe(`commercial mode, daemons from the command line (${backend.name})`, () => {
    const daemons: DaemonHandle[] = [];
    const drops: Array<() => Promise<void>> = [];
    let off: DaemonHandle;
    let pub: DaemonHandle;
    let on: DaemonHandle;
    const start = async (args: string[], env: Record<string, string>) => {
      const { db, drop } = await backend.database();
      drops.push(drop);
      const daemon = await startInProcessDaemonFor(null, { noDb: true, args: ['--db', db, ...args], env });
      daemons.push(daemon);
      return daemon;
    };
    beforeAll(async () => {
      [off, pub, on] = await Promise.all([start([], { SVC_ADMIN_TOKEN: TOKEN }), start(['--public'], { ...ON, SVC_TRUST_PROXY: '127.0.0.1' }), start([], ON)]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all(daemons.map((d) => d.stop()));
      for (const drop of drops) await drop();
    });

    it('mode off: every route answers 501 COMMERCIAL_DISABLED, with or without the token; /v1/status says console and billing are disabled', async () => {
      for (const route of ROUTES) {
        expectProblem(await send(off.url, route), 501, 'COMMERCIAL_DISABLED');
        expectProblem(await send(off.url, route, operator), 501, 'COMMERCIAL_DISABLED');
      }
      const status = expectJson(await call(`${off.url}/v1/status`), 200);
      expect(status.components.console).toEqual({ status: 'disabled' });
      expect(status.components.billing).toEqual({ status: 'disabled' });
      // No mode, no keys: a svck_ header is just a header.
      expectJson(await call(`${off.url}${FAST}`, { headers: { authorization: 'Bearer svck_nothing' } }), 200);
      expect(off.stderr()).not.toContain('commercial mode is off');
    });

    it('--public: the routes are not mounted (404, no CORS preflight) and an Authorization header changes nothing', async () => {
      // One forwarded client address per route: the public budget (20 a minute) is not what this tests.
      for (const [i, route] of ROUTES.entries()) {
        expectProblem(await send(pub.url, route, { ...operator, 'x-forwarded-for': `192.0.2.${i + 1}` }), 404, 'NOT_FOUND');
      }
      const preflight = await fetch(`${pub.url}/v1/commercial/tenants`, {
        method: 'OPTIONS',
        headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(404);
      expectJson(await call(`${pub.url}${FAST}`, { headers: { authorization: 'Bearer svck_malformed' } }), 200);
      const status = expectJson(await call(`${pub.url}/v1/status`), 200);
      expect(status.components.console).toEqual({ status: 'disabled' });
      expect(pub.stderr()).toContain('the commercial mode is off');
    });

    it('mode on: the operator routes need the token (401), the session core the bridge secret (401 whatever else is sent)', async () => {
      for (const route of ROUTES.filter((r) => r.path.startsWith('/v1/commercial'))) {
        expectProblem(await send(on.url, route), 401, 'UNAUTHORIZED');
        expectProblem(await send(on.url, route, { authorization: `Bearer ${TOKEN}x` }), 401, 'UNAUTHORIZED');
      }
      for (const route of ROUTES.filter((r) => r.path.startsWith('/v1/session'))) {
        expectProblem(await send(on.url, route), 401, 'UNAUTHORIZED');
        expectProblem(await send(on.url, route, { 'x-svc-subject': ALICE }), 401, 'UNAUTHORIZED');
        expectProblem(await send(on.url, route, { 'x-svc-subject': ALICE, 'x-svc-bridge': 'guess', ...operator }), 401, 'UNAUTHORIZED');
      }
      const status = expectJson(await call(`${on.url}/v1/status`), 200);
      expect(status.components.console).toEqual({ status: 'enabled' });
      expect(status.components.billing).toEqual({ status: 'mock' });
    });

    it('mode on: tenants, projects, owners and usage through the operator routes', async () => {
      const created = expectJson(await post(on.url, '/v1/commercial/tenants', { name: 'Acme', owner: ALICE }, operator), 201);
      expect(created.tenant).toEqual({ id: expect.stringMatching(/^ten_/), name: 'Acme', owner: ALICE, createdAt: expect.any(String), owners: [ALICE] });
      const tenant = created.tenant.id as string;
      expectProblem(await post(on.url, '/v1/commercial/tenants', { name: 'Acme', owner: 'not-a-did' }, operator), 400, 'INVALID_DID');
      expectProblem(await post(on.url, '/v1/commercial/tenants', { name: '', owner: ALICE }, operator), 400, 'INVALID_REQUEST');
      expectProblem(await post(on.url, '/v1/commercial/tenants', { name: 'x'.repeat(101), owner: ALICE }, operator), 400, 'INVALID_REQUEST');
      expectProblem(await post(on.url, '/v1/commercial/tenants', { name: 'x', owner: ALICE, extra: 1 }, operator), 400, 'INVALID_REQUEST');

      const project = expectJson(await post(on.url, `/v1/commercial/tenants/${tenant}/projects`, { name: 'web' }, operator), 201).project;
      expect(project).toEqual({ id: expect.stringMatching(/^prj_/), tenantId: tenant, name: 'web', createdAt: expect.any(String) });
      // A duplicate name: 400 INVALID_REQUEST (there is no conflict code); an unknown tenant: 404.
      expectProblem(await post(on.url, `/v1/commercial/tenants/${tenant}/projects`, { name: 'web' }, operator), 400, 'INVALID_REQUEST');
      expectProblem(await post(on.url, '/v1/commercial/tenants/ten_none/projects', { name: 'web' }, operator), 404, 'NOT_FOUND');

      const attached = expectJson(await post(on.url, `/v1/commercial/tenants/${tenant}/owners`, { subject: BOB }, operator), 200);
      expect(attached).toEqual({ tenantId: tenant, owners: [ALICE, BOB] });
      expect(expectJson(await post(on.url, `/v1/commercial/tenants/${tenant}/owners`, { subject: BOB }, operator), 200).owners).toEqual([ALICE, BOB]);
      expectProblem(await post(on.url, '/v1/commercial/tenants/ten_none/owners', { subject: BOB }, operator), 404, 'NOT_FOUND');
      expectProblem(await post(on.url, `/v1/commercial/tenants/${tenant}/owners`, { subject: 'bob' }, operator), 400, 'INVALID_DID');

      const list = expectJson(await call(`${on.url}/v1/commercial/tenants`, { headers: operator }), 200);
      expect(list.tenants).toEqual([{ ...created.tenant, owners: [ALICE, BOB], projects: [project] }]);

      const detach = (subject: string) =>
        call(`${on.url}/v1/commercial/tenants/${tenant}/owners/${encodeURIComponent(subject)}`, { method: 'DELETE', headers: operator });
      expect((await detach(BOB)).status).toBe(204);
      expectProblem(await detach(BOB), 404, 'NOT_FOUND');
      expect(expectJson(await call(`${on.url}/v1/commercial/tenants`, { headers: operator }), 200).tenants[0].owners).toEqual([ALICE]);

      expect(expectJson(await call(`${on.url}/v1/commercial/projects/${project.id}/usage`, { headers: operator }), 200)).toEqual({
        projectId: project.id,
        usage: [],
      });
      expectProblem(await call(`${on.url}/v1/commercial/projects/prj_none/usage`, { headers: operator }), 404, 'NOT_FOUND');
    });

    it('svc owner drives the operator routes (token from SVC_ADMIN_TOKEN, --json, exit codes)', async () => {
      const env = cleanEnv({ SVC_ADMIN_TOKEN: TOKEN, SVC_DAEMON_URL: on.url });
      const created = await svc(['owner', 'tenant-create', '--name', 'CLI Co', '--owner', ALICE, '--json'], env);
      expect(created.exitCode, created.stderr).toBe(0);
      const tenant = JSON.parse(created.stdout).tenant.id as string;
      const project = await svc(['owner', 'project-create', '--tenant', tenant, '--name', 'cli', '-q'], env);
      expect(project.exitCode, project.stderr).toBe(0);
      expect(project.stdout.trim()).toMatch(/^prj_/);
      expect((await svc(['owner', 'attach', '--tenant', tenant, '--subject', BOB], env)).stdout).toContain(BOB);
      const listed = await svc(['owner', 'tenants'], env);
      expect(listed.exitCode).toBe(0);
      expect(listed.stdout).toContain('CLI Co');
      expect(listed.stdout).toContain(project.stdout.trim());
      expect((await svc(['owner', 'detach', '--tenant', tenant, '--subject', BOB], env)).exitCode).toBe(0);
      const again = await svc(['owner', 'detach', '--tenant', tenant, '--subject', BOB], env);
      expect(again.exitCode).toBe(4);
      expect(again.stderr).toContain('NOT_FOUND');
      const usage = await svc(['owner', 'usage', '--project', project.stdout.trim(), '--json'], env);
      expect(JSON.parse(usage.stdout)).toEqual({ projectId: project.stdout.trim(), usage: [] });
      const duplicate = await svc(['owner', 'project-create', '--tenant', tenant, '--name', 'cli'], env);
      expect(duplicate.exitCode).toBe(4);
      expect(duplicate.stderr).toContain('INVALID_REQUEST');
      // No token: a usage error before any call; mode off: COMMERCIAL_DISABLED, exit 4.
      expect((await svc(['owner', 'tenants'], cleanEnv({ SVC_DAEMON_URL: on.url }))).exitCode).toBe(2);
      const disabled = await svc(['owner', 'tenants', '--daemon', off.url], env);
      expect(disabled.exitCode).toBe(4);
      expect(disabled.stderr).toContain('COMMERCIAL_DISABLED');
      expect(`${created.stdout}${created.stderr}${listed.stdout}`).not.toContain(TOKEN);
    });

    it('the TypeScript client: the operator calls send the adminToken, projectKey goes on public calls only', async () => {
      const client = new SvcClient({ baseUrl: on.url, adminToken: TOKEN, projectKey: `svck_${'B'.repeat(43)}` });
      const { tenant } = await client.createTenant({ name: 'TS', owner: ALICE });
      const { project } = await client.createProject(tenant.id, 'ts');
      expect((await client.attachOwner(tenant.id, BOB)).owners).toEqual([ALICE, BOB]);
      await client.removeOwner(tenant.id, BOB);
      expect((await client.listTenants()).tenants.find((t) => t.id === tenant.id)?.projects).toEqual([project]);
      expect(await client.projectUsage(project.id)).toEqual({ projectId: project.id, usage: [] });
      // The (unknown) project key is sent on the public call: refused, not anonymous.
      const refused = await client.fastVerifyDid(ED25519_DID).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(SvcError);
      expect((refused as SvcError).code).toBe('UNAUTHORIZED');
      expect((await new SvcClient({ baseUrl: on.url }).fastVerifyDid(ED25519_DID)).did).toBe(ED25519_DID);
    });

    it('mode on: an unknown or malformed svck_ key is 401 on a public route, never anonymous; another bearer token stays anonymous', async () => {
      const fake = `svck_${'A'.repeat(43)}`;
      expectProblem(await call(`${on.url}${FAST}`, { headers: { authorization: `Bearer ${fake}` } }), 401, 'UNAUTHORIZED');
      expectProblem(await call(`${on.url}${FAST}`, { headers: { authorization: 'Bearer svck_short' } }), 401, 'UNAUTHORIZED');
      expectProblem(await call(`${on.url}/v1/resolve/${ED25519_DID}`, { headers: { authorization: `Bearer ${fake}` } }), 401, 'UNAUTHORIZED');
      expectJson(await call(`${on.url}${FAST}`, { headers: { authorization: 'Bearer something-else' } }), 200);
      expectJson(await call(`${on.url}${FAST}`, { headers: { authorization: `Basic ${fake}` } }), 200);
      // The explorer stays anonymous; the probes take no budget and no key.
      expect((await fetch(`${on.url}/`, { headers: { authorization: `Bearer ${fake}` } })).status).toBe(200);
      expectJson(await call(`${on.url}/health`, { headers: { authorization: `Bearer ${fake}` } }), 200);
      // The access log records no header: not the key, not the operator token.
      await new Promise((r) => setTimeout(r, 50));
      expect(on.stderr()).not.toContain(fake);
      expect(on.stderr()).not.toContain(TOKEN);
    });
  });
}

/* ---------------------------------------------------------------- in process: the key routes */

interface InProcess {
  server: RunningServer;
  runtime: Runtime;
  bridge: Record<string, string>;
}

async function startInProcess(db: string, perMinute: number): Promise<InProcess> {
  let runtime!: Runtime;
  const server = await serve(
    (storage) => {
      runtime = createRuntime({ ...process.env, SVC_LOG_LEVEL: 'error' });
      Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
      return runtime;
    },
    {
      host: '127.0.0.1',
      port: 0,
      profile: 'direct',
      dbPath: db,
      production: false,
      limits: { ...DEFAULT_LIMITS, directPerMinute: perMinute },
      announce: () => undefined,
      adminToken: TOKEN,
      commercial: { setting: 'on', origin: ORIGIN },
    },
  );
  if (!server.commercial.enabled) throw new Error(`the commercial mode is off: ${server.commercial.reason}`);
  return { server, runtime, bridge: { 'x-svc-bridge': server.commercial.bridgeSecret } };
}

for (const backend of BACKENDS) {
  backend.describe(`commercial mode, the key routes through the bridge (${backend.name}, in process)`, () => {
    /** The budget test's own daemon (on the same database) has a small bucket; this one is out of the way. */
    const PER_MINUTE = 8;
    let d: InProcess;
    let base: string;
    let drop: () => Promise<void>;
    let dbLocation: string;
    let project: string;
    let otherProject: string;
    /** Every answer body of the key routes, to look for digests in. */
    const bodies: string[] = [];
    const as = (subject: string) => ({ ...d.bridge, 'x-svc-subject': subject });
    const keys = (_subject: string, project: string) => `${base}/v1/session/projects/${project}/keys`;
    const issue = async (subject: string, p: string, label?: string) => {
      const answer = await post(base, `/v1/session/projects/${p}/keys`, label === undefined ? {} : { label }, as(subject));
      bodies.push(answer.text);
      return answer;
    };
    const list = async (subject: string, p: string) => {
      const answer = await call(keys(subject, p), { headers: as(subject) });
      bodies.push(answer.text);
      return answer;
    };
    const keyed = (secret: string, route = FAST) => call(`${base}${route}`, { headers: { authorization: `Bearer ${secret}` } });
    const usage = async (p: string) => expectJson(await call(`${base}/v1/commercial/projects/${p}/usage`, { headers: operator }), 200).usage;
    const requestsOf = async (p: string) => (await usage(p)).find((u: { metric: string }) => u.metric === 'requests')?.count ?? 0;

    beforeAll(async () => {
      const database = await backend.database();
      drop = database.drop;
      dbLocation = database.db;
      d = await startInProcess(database.db, 100_000);
      base = d.server.url;
      const tenant = expectJson(await post(base, '/v1/commercial/tenants', { name: 'Acme', owner: ALICE }, operator), 201).tenant.id;
      project = expectJson(await post(base, `/v1/commercial/tenants/${tenant}/projects`, { name: 'main' }, operator), 201).project.id;
      const bobs = expectJson(await post(base, '/v1/commercial/tenants', { name: 'Bob Ltd', owner: BOB }, operator), 201).tenant.id;
      otherProject = expectJson(await post(base, `/v1/commercial/tenants/${bobs}/projects`, { name: 'bob' }, operator), 201).project.id;
    }, 60_000);
    afterAll(async () => {
      await d?.server.shutdown('test over');
      await drop?.();
    });

    it('issues a key whose secret is shown once; the listing never shows it nor its digest', async () => {
      const issued = expectJson(await issue(ALICE, project, 'ci'), 201);
      expect(issued.secret).toMatch(/^svck_[A-Za-z0-9_-]{43}$/);
      expect(issued.key).toEqual({
        id: expect.stringMatching(/^key_/),
        projectId: project,
        prefix: issued.secret.slice(0, 12),
        label: 'ci',
        status: 'ACTIVE',
        createdAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: null,
        replacesKeyId: null,
      });
      const listed = expectJson(await list(ALICE, project), 200);
      expect(listed.keys).toEqual([issued.key]);
      expect(JSON.stringify(listed)).not.toContain(issued.secret);
      expectProblem(await post(base, `/v1/session/projects/${project}/keys`, { label: 'x'.repeat(101) }, as(ALICE)), 400, 'INVALID_REQUEST');
      expectProblem(await post(base, `/v1/session/projects/${project}/keys`, { name: 'x' }, as(ALICE)), 400, 'INVALID_REQUEST');
      // The key works at once, on its project's account.
      expectJson(await keyed(issued.secret), 200);
    });

    it("another owner's project and a project that does not exist are the same 404", async () => {
      const a = expectProblem(await list(ALICE, otherProject), 404, 'NOT_FOUND');
      const b = expectProblem(await list(ALICE, 'prj_none'), 404, 'NOT_FOUND');
      expect(a.detail).toBe(b.detail);
      expectProblem(await issue(ALICE, otherProject), 404, 'NOT_FOUND');
      const bobKey = expectJson(await issue(BOB, otherProject), 201).key.id;
      expectProblem(await call(`${keys(ALICE, otherProject)}/${bobKey}`, { method: 'DELETE', headers: as(ALICE) }), 404, 'NOT_FOUND');
      expectProblem(await post(base, `/v1/session/projects/${otherProject}/keys/${bobKey}/rotate`, {}, as(ALICE)), 404, 'NOT_FOUND');
      // The bridge secret without a subject that is a DID is refused too.
      expectProblem(await call(keys(ALICE, project), { headers: d.bridge }), 401, 'UNAUTHORIZED');
      expectProblem(await call(keys(ALICE, project), { headers: { ...d.bridge, 'x-svc-subject': 'alice' } }), 401, 'UNAUTHORIZED');
    });

    it('rotation returns a new secret: the old key stops working, the new one works', async () => {
      const old = expectJson(await issue(ALICE, project, 'rotating'), 201);
      expectJson(await keyed(old.secret), 200);
      const answer = await post(base, `/v1/session/projects/${project}/keys/${old.key.id}/rotate`, {}, as(ALICE));
      bodies.push(answer.text);
      const rotated = expectJson(answer, 201);
      expect(rotated.secret).not.toBe(old.secret);
      expect(rotated.key).toMatchObject({ status: 'ACTIVE', replacesKeyId: old.key.id, label: 'rotating' });
      expect(rotated.replaced).toMatchObject({ id: old.key.id, status: 'ROTATED', revokedAt: expect.any(String) });
      expectProblem(await keyed(old.secret), 401, 'UNAUTHORIZED');
      expectJson(await keyed(rotated.secret), 200);
      // A rotated key does not rotate again.
      expectProblem(await post(base, `/v1/session/projects/${project}/keys/${old.key.id}/rotate`, {}, as(ALICE)), 404, 'NOT_FOUND');
      expectProblem(await post(base, `/v1/session/projects/${project}/keys/${rotated.key.id}/rotate`, { x: 1 }, as(ALICE)), 400, 'INVALID_REQUEST');
    });

    it('revoking a key refuses it at once (401)', async () => {
      const k = expectJson(await issue(ALICE, project, 'revoked'), 201);
      expectJson(await keyed(k.secret), 200);
      const revoke = await call(`${keys(ALICE, project)}/${k.key.id}`, { method: 'DELETE', headers: as(ALICE) });
      expect(revoke.status).toBe(204);
      expectProblem(await keyed(k.secret), 401, 'UNAUTHORIZED');
      expectProblem(await call(`${keys(ALICE, project)}/key_none`, { method: 'DELETE', headers: as(ALICE) }), 404, 'NOT_FOUND');
      const listed = expectJson(await list(ALICE, project), 200).keys.find((x: { id: string }) => x.id === k.key.id);
      expect(listed).toMatchObject({ status: 'REVOKED', revokedAt: expect.any(String) });
    });

    it('usage counts keyed requests and not anonymous ones', async () => {
      const k = expectJson(await issue(ALICE, project, 'usage'), 201);
      await until('earlier counts written', async () => (await requestsOf(project)) > 0);
      const before = await requestsOf(project);
      for (let i = 0; i < 3; i++) expectJson(await keyed(k.secret), 200);
      for (let i = 0; i < 3; i++) expectJson(await call(`${base}${FAST}`), 200);
      // Written within a second, and before the operator's read on this daemon.
      const rows = await usage(project);
      expect(rows).toEqual([{ metric: 'requests', period: new Date().toISOString().slice(0, 7), count: before + 3 }]);
      expect(await usage(otherProject)).toEqual([]);
    });

    it('mock billing: a plan, a subscription, a month closed once into an OPEN invoice whose CHARGE states the keyed requests (through the TS client)', async () => {
      const client = new SvcClient({ baseUrl: base, adminToken: TOKEN });
      const { tenant } = await client.createTenant({ name: 'Billed', owner: ALICE });
      const billed = (await client.createProject(tenant.id, 'billed')).project.id;
      const { plan } = await client.savePlan({ id: 'starter', name: 'Starter', currency: 'EUR', monthlyPriceMinor: 1900, includedRequests: 2 });
      expect(plan).toMatchObject({ id: 'starter', active: true, monthlyPriceMinor: 1900 });
      expect((await client.listPlans()).plans.map((p) => p.id)).toContain('starter');
      const bad = await client.savePlan({ id: 'x', name: 'X', currency: 'euro', monthlyPriceMinor: 1, includedRequests: 1 }).catch((e: unknown) => e);
      expect((bad as SvcError).code).toBe('INVALID_REQUEST');
      const noPlan = await client.subscribeTenant(tenant.id, 'nope').catch((e: unknown) => e);
      expect((noPlan as SvcError).status).toBe(404);
      const noSubscription = await client.closePeriod(tenant.id, '2026-01').catch((e: unknown) => e);
      expect((noSubscription as SvcError).status).toBe(404);
      expect((await client.subscribeTenant(tenant.id, 'starter')).subscription).toMatchObject({ tenantId: tenant.id, planId: 'starter' });

      const k = expectJson(await issue(ALICE, billed, 'billed'), 201);
      for (let i = 0; i < 3; i++) expectJson(await keyed(k.secret), 200);
      const month = new Date().toISOString().slice(0, 7);
      // The daemon's pending usage counts are written before the month is read.
      const closed = await client.closePeriod(tenant.id, month);
      expect(closed.invoice).toMatchObject({ tenantId: tenant.id, totalMinor: 1900, currency: 'EUR', status: 'OPEN', periodStart: `${month}-01T00:00:00Z` });
      expect(closed.entries).toEqual([expect.objectContaining({ kind: 'CHARGE', amountMinor: 1900, invoiceId: closed.invoice.id })]);
      expect(closed.entries[0]!.description).toBe(
        `Plan Starter (starter) for ${month}: 3 keyed requests of 2 included; 1 over, not charged (the plan sets no overage price)`,
      );
      const again = await client.closePeriod(tenant.id, month).catch((e: unknown) => e);
      expect((again as SvcError).code).toBe('INVALID_REQUEST');
      const billing = await client.tenantBilling(tenant.id);
      expect(billing).toMatchObject({ tenantId: tenant.id, plan: { id: 'starter' }, invoices: [{ id: closed.invoice.id }], ledger: [{ kind: 'CHARGE' }] });
      const unknown = await client.tenantBilling('ten_none').catch((e: unknown) => e);
      expect((unknown as SvcError).status).toBe(404);
      expectProblem(await post(base, `/v1/commercial/tenants/${tenant.id}/close-period`, { period: '2026-13' }, operator), 400, 'INVALID_REQUEST');
    });

    it('a keyed request has its own budget: the project bucket and an anonymous client are independent', async () => {
      const k = expectJson(await issue(ALICE, project, 'budget'), 201);
      // A second daemon on the same database, with SVC_RATE_LIMIT_PER_MIN small.
      const small = await startInProcess(dbLocation, PER_MINUTE);
      try {
        const url = `${small.server.url}${FAST}`;
        for (let i = 0; i < PER_MINUTE; i++) expectJson(await call(url, { headers: { authorization: `Bearer ${k.secret}` } }), 200);
        const refused = await call(url, { headers: { authorization: `Bearer ${k.secret}` } });
        expectProblem(refused, 429, 'RATE_LIMITED');
        expect(refused.header('retry-after')).toBe('1');
        expect(refused.json().detail).toContain("project's budget");
        // The same client, anonymous: its own bucket is untouched by the keyed requests…
        for (let i = 0; i < PER_MINUTE; i++) expectJson(await call(url), 200);
        expectProblem(await call(url), 429, 'RATE_LIMITED');
        // …and the anonymous client's empty bucket does not stop the project either (still empty: 429 from its own bucket).
        expect((await call(url, { headers: { authorization: `Bearer ${k.secret}` } })).json().detail).toContain("project's budget");
      } finally {
        await small.server.shutdown('test over');
      }
    });

    it("the session core charges each bridged owner its own budget, not the loopback client's", async () => {
      const small = await startInProcess(dbLocation, PER_MINUTE);
      try {
        const keysOf = (subject: string, p: string) =>
          call(`${small.server.url}/v1/session/projects/${p}/keys`, { headers: { ...small.bridge, 'x-svc-subject': subject } });
        for (let i = 0; i < PER_MINUTE; i++) expectJson(await keysOf(ALICE, project), 200);
        expectProblem(await keysOf(ALICE, project), 429, 'RATE_LIMITED');
        // Another owner through the same gateway (the same loopback address) is not held back…
        expectJson(await keysOf(BOB, otherProject), 200);
        // …nor is the loopback client's own budget spent.
        expectJson(await call(`${small.server.url}${FAST}`), 200);
        // Without the bridge secret a subject header buys nothing: the client's own bucket, then 401.
        expectProblem(
          await call(`${small.server.url}/v1/session/projects/${project}/keys`, { headers: { 'x-svc-subject': 'did:web:carol.example' } }),
          401,
          'UNAUTHORIZED',
        );
      } finally {
        await small.server.shutdown('test over');
      }
    });

    it('the 11th active key is 429 KEY_CAPACITY_EXHAUSTED naming the cap, without Retry-After', async () => {
      // A project of its own: at most 10 ACTIVE keys.
      const tenant = expectJson(await post(base, '/v1/commercial/tenants', { name: 'Caps', owner: ALICE }, operator), 201).tenant.id;
      const p = expectJson(await post(base, `/v1/commercial/tenants/${tenant}/projects`, { name: 'caps' }, operator), 201).project.id;
      for (let i = 0; i < 10; i++) expectJson(await issue(ALICE, p, `k${i}`), 201);
      const full = await issue(ALICE, p, 'eleventh');
      const problem = expectProblem(full, 429, 'KEY_CAPACITY_EXHAUSTED');
      expect(problem.detail).toContain('10 active keys');
      expect(full.header('retry-after')).toBe('');
    });

    it('a forced rotation failure (the retained cap) leaves the old key working', async () => {
      const tenant = expectJson(await post(base, '/v1/commercial/tenants', { name: 'Retained', owner: ALICE }, operator), 201).tenant.id;
      const p = expectJson(await post(base, `/v1/commercial/tenants/${tenant}/projects`, { name: 'retained' }, operator), 201).project.id;
      // 99 rows revoked as they come, then one ACTIVE: 100 retained.
      for (let i = 0; i < 99; i++) {
        const k = expectJson(await issue(ALICE, p), 201);
        expect((await call(`${keys(ALICE, p)}/${k.key.id}`, { method: 'DELETE', headers: as(ALICE) })).status).toBe(204);
      }
      const last = expectJson(await issue(ALICE, p, 'last'), 201);
      const refused = await post(base, `/v1/session/projects/${p}/keys/${last.key.id}/rotate`, {}, as(ALICE));
      expect(expectProblem(refused, 429, 'KEY_CAPACITY_EXHAUSTED').detail).toContain('100 keys');
      expectJson(await keyed(last.secret), 200);
      const keysNow = expectJson(await list(ALICE, p), 200).keys as Array<{ id: string; status: string }>;
      expect(keysNow).toHaveLength(100);
      expect(keysNow.filter((k) => k.status === 'ACTIVE')).toEqual([expect.objectContaining({ id: last.key.id })]);
    }, 60_000);

    it('no answer of the key routes holds a digest, and (SQLite) the database file holds no secret', async () => {
      const secrets = bodies.flatMap((b) => {
        try {
          const parsed = JSON.parse(b) as { secret?: string };
          return parsed.secret ? [parsed.secret] : [];
        } catch {
          return [];
        }
      });
      expect(secrets.length).toBeGreaterThan(100);
      const { createHash } = await import('node:crypto');
      const all = bodies.join('\n');
      for (const secret of secrets) {
        const digest = createHash('sha256').update(secret, 'utf8').digest('hex');
        expect(all).not.toContain(digest);
        // A secret appears in exactly the one answer that issued it.
        expect(bodies.filter((b) => b.includes(secret))).toHaveLength(1);
      }
      if (backend.name === 'SQLite') {
        await d.server.shutdown('dump check');
        const bytes = Buffer.concat([
          readFileSync(dbLocation),
          ...['-wal'].flatMap((s) => {
            try {
              return [readFileSync(dbLocation + s)];
            } catch {
              return [];
            }
          }),
        ]).toString('latin1');
        expect(bytes.length).toBeGreaterThan(0);
        for (const secret of secrets) {
          expect(bytes).not.toContain(secret);
          expect(bytes).toContain(createHash('sha256').update(secret, 'utf8').digest('hex'));
        }
      }
    });
  });
}
