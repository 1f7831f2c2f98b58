/**
 * Both API clients' owner-session calls against a real daemon and its cookie gateway: the
 * challenge, sign-in (the cookie read from Set-Cookie), the session, the owner's projects and
 * sign-out; the key calls (issue, list, rotate, revoke) with the keys used on the daemon; the
 * customer monitor's calls (watches, events, event pages, report, webhook, deliveries, usage).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient, SvcError } from '../../src/client/index.js';
import { repoRoot } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { didKeyPrincipal, gatewayUrl, postJson, seedOwner, signStatement, startGatewayDaemon } from '../support/gateway.js';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-client-owner-'));
const dbPath = path.join(dir, 'svc.db');
const owner = didKeyPrincipal();
let projects: string[];
let daemon: Daemon;
let gw: string;
let origin: string;

beforeAll(async () => {
  projects = await seedOwner(dbPath, owner.did, ['one']);
  // Loopback webhook URLs pass the egress policy (the calls below set one; nothing is delivered).
  const started = await startGatewayDaemon({ dbPath, env: { SVC_EGRESS_ALLOW: '127.0.0.0/8' } });
  daemon = started.daemon;
  origin = started.origin;
  gw = gatewayUrl(daemon);
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('TypeScript client', () => {
  it('signs in, reads the session and the projects, signs out', async () => {
    const anonymous = new SvcClient({ baseUrl: gw });
    const challenge = await anonymous.signInChallenge(owner.did);
    expect(challenge.statement).toContain(`"origin":"${origin}"`);
    const signed = await anonymous.signIn({ did: owner.did, challenge: challenge.challenge, jws: signStatement(owner, challenge.statement) });
    expect(signed.subject).toBe(owner.did);
    expect(signed.sessionCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const client = new SvcClient({ baseUrl: gw, sessionCookie: signed.sessionCookie });
    expect((await client.session()).subject).toBe(owner.did);
    const list = await client.listOwnerProjects();
    expect(list.projects.map((p) => p.id)).toEqual(projects);
    await client.signOut();
    const after = await client.listOwnerProjects().catch((err: unknown) => err);
    expect(after).toBeInstanceOf(SvcError);
    expect((after as SvcError).code).toBe('UNAUTHORIZED');
    expect((after as SvcError).status).toBe(401);
    // The cookie never shows in an error.
    expect(String((after as SvcError).message)).not.toContain(signed.sessionCookie);
  });

  it('issues, lists, rotates and revokes project keys; each secret works on the daemon until replaced or revoked', async () => {
    const anonymous = new SvcClient({ baseUrl: gw });
    const challenge = await anonymous.signInChallenge(owner.did);
    const signed = await anonymous.signIn({ did: owner.did, challenge: challenge.challenge, jws: signStatement(owner, challenge.statement) });
    const client = new SvcClient({ baseUrl: gw, sessionCookie: signed.sessionCookie });
    const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const works = async (secret: string) =>
      new SvcClient({ baseUrl: daemon.url, projectKey: secret }).fastVerifyDid(DID).then(
        () => true,
        (err: SvcError) => err.code,
      );
    const issued = await client.issueProjectKey(projects[0]!, { label: 'ts' });
    expect(issued.secret).toMatch(/^svck_/);
    expect(await works(issued.secret)).toBe(true);
    const listed = await client.listProjectKeys(projects[0]!);
    expect(listed.keys.map((k) => k.id)).toContain(issued.key.id);
    expect(JSON.stringify(listed)).not.toContain(issued.secret);
    const rotated = await client.rotateProjectKey(projects[0]!, issued.key.id);
    expect(await works(issued.secret)).toBe('UNAUTHORIZED');
    expect(await works(rotated.secret)).toBe(true);
    await client.revokeProjectKey(projects[0]!, rotated.key.id);
    expect(await works(rotated.secret)).toBe('UNAUTHORIZED');
    await client.signOut();
  });

  it('the customer monitor calls: a watch, its empty events, page and report, the webhook (secret once), deliveries, usage', async () => {
    const anonymous = new SvcClient({ baseUrl: gw });
    const challenge = await anonymous.signInChallenge(owner.did);
    const signed = await anonymous.signIn({ did: owner.did, challenge: challenge.challenge, jws: signStatement(owner, challenge.statement) });
    const client = new SvcClient({ baseUrl: gw, sessionCookie: signed.sessionCookie });
    const project = projects[0]!;
    const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const added = await client.addProjectWatch(project, DID);
    expect(added.watch).toMatchObject({ id: expect.stringMatching(/^wch_\d+$/), projectId: project, did: DID, lastStatus: null });
    expect(added.workerActive).toBe(true);
    expect((await client.addProjectWatch(project, DID)).watch.id).toBe(added.watch.id);
    const listed = await client.listProjectWatches(project);
    expect(listed).toMatchObject({ workerActive: true, intervalSeconds: 3600, limit: 100 });
    expect(listed.watches.map((w) => w.id)).toEqual([added.watch.id]);
    expect((await client.listWatchEvents(project, added.watch.id)).events).toEqual([]);
    expect(await client.watchEventPage(project, added.watch.id, { limit: 10 })).toEqual({
      events: [],
      snapshotEventId: null,
      asOf: null,
      hasMore: false,
      next: null,
    });
    expect(await client.watchReport(project, added.watch.id)).toMatchObject({ watch: { id: added.watch.id }, eventCount: 0, events: [], eventsByType: {} });
    const hook = await client.setProjectWebhook(project, 'https://127.0.0.1:9/hooks/ts');
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.config).toMatchObject({ id: expect.stringMatching(/^whk_/), url: 'https://127.0.0.1:9/hooks/ts', active: true, disabledAt: null });
    const shown = await client.getProjectWebhook(project);
    expect(shown).toEqual({ config: hook.config, workerActive: true });
    expect(JSON.stringify(shown)).not.toContain(hook.secret);
    expect((await client.listWebhookDeliveries(project)).deliveries).toEqual([]);
    const usage = await client.scheduledUsage();
    expect(usage).toMatchObject({ workerActive: true, intervalSeconds: 3600 });
    const mine = usage.projects.find((p) => p.projectId === project)!;
    // The worker may have checked the watch already (an attempt): remaining is what the window leaves.
    expect(mine).toMatchObject({ allowance: 18000, remaining: 18000 - mine.used, skipped: 0, activeWatches: 1 });
    await client.disableProjectWebhook(project);
    expect((await client.getProjectWebhook(project)).config).toBeNull();
    await client.removeProjectWatch(project, added.watch.id);
    expect((await client.listProjectWatches(project)).watches).toEqual([]);
    const refused = async (call: Promise<unknown>) =>
      (
        (await call.then(
          () => null,
          (e: unknown) => e,
        )) as SvcError | null
      )?.code;
    expect(await refused(client.listProjectWatches('prj_not_mine'))).toBe('NOT_FOUND');
    expect(await refused(client.addProjectWatch(project, 'did:webvh:QmSCID:example.com'))).toBe('INVALID_REQUEST');
    expect(await refused(client.listWatchEvents(project, added.watch.id.replace(/\d+$/, '999999')))).toBe('NOT_FOUND');
    await client.signOut();
  });

  it('a refused sign-in is a SvcError with the problem', async () => {
    const client = new SvcClient({ baseUrl: gw });
    const err = await client.signIn({ did: owner.did, challenge: 'Z'.repeat(43), jws: 'a.b.c' }).catch((e: unknown) => e);
    expect((err as SvcError).code).toBe('UNAUTHORIZED');
    expect(() => new SvcClient({ baseUrl: gw, sessionCookie: 'short' })).toThrow(TypeError);
  });
});

describe('Python client', () => {
  const python = spawnSync('python3', ['--version']);
  it.skipIf(python.status !== 0)('signs in, reads the session and the projects, signs out', async () => {
    const challenge = await postJson(gw, '/sign-in/challenge', { did: owner.did });
    const jws = signStatement(owner, challenge.body.statement);
    const script = `
import json, sys
from svc_client import SvcClient, SvcError
gw, did, challenge, jws = sys.argv[1:5]
c = SvcClient(gw).sign_in_challenge(did)
assert c["statement"].startswith('{"aud":"svc-sign-in"'), c
signed = SvcClient(gw).sign_in(did, challenge, jws)
client = SvcClient(gw, session_cookie=signed["sessionCookie"])
out = {"subject": client.session()["subject"], "projects": [p["id"] for p in client.list_owner_projects()["projects"]]}
assert "svc_session" not in repr(client)
issued = client.issue_project_key(sys.argv[5], label="py")
assert issued["secret"].startswith("svck_"), issued
out["listed"] = issued["key"]["id"] in [k["id"] for k in client.list_project_keys(sys.argv[5])["keys"]]
rotated = client.rotate_project_key(sys.argv[5], issued["key"]["id"])
client.revoke_project_key(sys.argv[5], rotated["key"]["id"])
statuses = {k["id"]: k["status"] for k in client.list_project_keys(sys.argv[5])["keys"]}
out["statuses"] = [statuses[issued["key"]["id"]], statuses[rotated["key"]["id"]]]
w = client.add_project_watch(sys.argv[5], "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK")["watch"]
out["watch"] = [x["id"] for x in client.list_project_watches(sys.argv[5])["watches"]] == [w["id"]]
out["events"] = client.list_watch_events(sys.argv[5], w["id"])["events"]
out["page"] = client.watch_event_page(sys.argv[5], w["id"], 5)
out["report"] = client.watch_report(sys.argv[5], w["id"])["eventCount"]
hook = client.set_project_webhook(sys.argv[5], "https://127.0.0.1:9/hooks/py")
out["secret"] = hook["secret"].startswith("whsec_") and hook["secret"] not in json.dumps(client.get_project_webhook(sys.argv[5]))
out["deliveries"] = client.list_webhook_deliveries(sys.argv[5])["deliveries"]
out["usage"] = [p["activeWatches"] for p in client.scheduled_usage()["projects"]]
client.disable_project_webhook(sys.argv[5])
client.remove_project_watch(sys.argv[5], w["id"])
try:
    client.watch_event_page(sys.argv[5], w["id"], 0)
    out["badLimit"] = "accepted"
except SvcError as err:
    out["badLimit"] = err.code
client.sign_out()
try:
    client.session()
    out["after"] = "still signed in"
except SvcError as err:
    out["after"] = err.code
print(json.dumps(out))
`;
    const run = spawnSync('python3', ['-c', script, gw, owner.did, challenge.body.challenge, jws, projects[0]!], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: path.join(repoRoot, 'clients/python') },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      subject: owner.did,
      projects,
      listed: true,
      statuses: ['ROTATED', 'REVOKED'],
      watch: true,
      events: [],
      page: { events: [], snapshotEventId: null, asOf: null, hasMore: false, next: null },
      report: 0,
      secret: true,
      deliveries: [],
      usage: [1],
      badLimit: 'INVALID_REQUEST',
      after: 'UNAUTHORIZED',
    });
  });
});
