/**
 * `svc owner login|projects|keys|watches|events|webhook|schedule|logout` against a real daemon and its cookie gateway: the
 * challenge signed with a private JWK file, the cookie kept in a 0600 file under the state
 * directory and never printed; project keys issued, used, rotated and revoked end to end; exit codes.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, svc, svcIn } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { didKeyPrincipal, gatewayUrl, seedOwner, startGatewayDaemon } from '../support/gateway.js';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-owner-'));
const dbPath = path.join(dir, 'svc.db');
const state = path.join(dir, 'state');
const keyFile = path.join(dir, 'owner.jwk');
const strangerKey = path.join(dir, 'stranger.jwk');
const owner = didKeyPrincipal();
const stranger = didKeyPrincipal();
let projects: string[];
let daemon: Daemon;
let gw: string;
const env = () => cleanEnv({ XDG_STATE_HOME: state, NO_COLOR: '1' });
const sessionPath = () => path.join(state, 'svc', 'owner-session.json');

beforeAll(async () => {
  projects = await seedOwner(dbPath, owner.did, ['web']);
  writeFileSync(keyFile, JSON.stringify(owner.privateKey.export({ format: 'jwk' })));
  writeFileSync(strangerKey, JSON.stringify(stranger.privateKey.export({ format: 'jwk' })));
  // Loopback webhook URLs pass the egress policy (nothing is delivered to them in these tests).
  daemon = (await startGatewayDaemon({ dbPath, env: { SVC_EGRESS_ALLOW: '127.0.0.0/8' } })).daemon;
  gw = gatewayUrl(daemon);
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('svc owner', () => {
  it('login signs in and keeps the cookie in a 0600 file, never printed', async () => {
    const run = await svc(['owner', 'login', '--gateway', gw, '--did', owner.did, '--key', keyFile], env());
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`signed in as ${owner.did}`);
    expect(run.stdout).toContain(projects[0]);
    const stored = JSON.parse(readFileSync(sessionPath(), 'utf8')) as { cookie: string };
    expect(stored.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(sessionPath()).mode & 0o777).toBe(0o600);
    expect(run.stdout).not.toContain(stored.cookie);
  });

  it('projects lists the owner projects (text and --json)', async () => {
    const text = await svcIn(['owner', 'projects'], env());
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(projects[0]);
    const json = await svcIn(['owner', 'projects', '--json'], env());
    expect(JSON.parse(json.stdout)).toMatchObject({ subject: owner.did, projects: [{ id: projects[0], name: 'web' }] });
  });

  it('keys end to end through the gateway: issue (the secret once), use, list, rotate, revoke; a foreign Origin is FORBIDDEN', async () => {
    const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const keyed = (key: string) => fetch(`${daemon.url}/v1/fast-verify/did/${DID}`, { headers: { authorization: `Bearer ${key}` } });
    const issue = await svcIn(['owner', 'keys', 'issue', '--project', projects[0]!, '--label', 'ci', '--json'], env());
    expect(issue.stderr).toBe('');
    expect(issue.exitCode).toBe(0);
    const issued = JSON.parse(issue.stdout) as { key: { id: string; prefix: string; label: string; status: string }; secret: string };
    expect(issued.secret).toMatch(/^svck_[A-Za-z0-9_-]{43}$/);
    expect(issued.key).toMatchObject({ label: 'ci', status: 'ACTIVE', prefix: issued.secret.slice(0, 12) });
    expect((await keyed(issued.secret)).status).toBe(200);

    // The text form prints the secret once, with the line saying so; the list never shows it.
    const text = await svcIn(['owner', 'keys', 'issue', '--project', projects[0]!], env());
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('The secret is shown only now');
    const list = await svcIn(['owner', 'keys', 'list', '--project', projects[0]!, '--json'], env());
    expect(list.exitCode).toBe(0);
    expect(list.stdout).not.toContain(issued.secret);
    expect((JSON.parse(list.stdout) as { keys: Array<{ id: string }> }).keys.map((k) => k.id)).toContain(issued.key.id);

    const rotate = await svcIn(['owner', 'keys', 'rotate', '--project', projects[0]!, '--key', issued.key.id, '--json'], env());
    expect(rotate.exitCode).toBe(0);
    const rotated = JSON.parse(rotate.stdout) as { key: { id: string }; secret: string };
    expect((await keyed(issued.secret)).status).toBe(401);
    expect((await keyed(rotated.secret)).status).toBe(200);

    const revoke = await svcIn(['owner', 'keys', 'revoke', '--project', projects[0]!, '--key', rotated.key.id], env());
    expect(revoke.exitCode).toBe(0);
    expect((await keyed(rotated.secret)).status).toBe(401);

    const foreign = await svcIn(['owner', 'keys', 'issue', '--project', projects[0]!, '--origin', 'http://127.0.0.1:1'], env());
    expect(foreign.exitCode).toBe(4);
    expect(foreign.stderr).toContain('FORBIDDEN');
    const missing = await svcIn(['owner', 'keys', 'revoke', '--project', projects[0]!], env());
    expect(missing.exitCode).toBe(2);
  });

  it('watches, events, webhook and schedule through the gateway: the secret printed once, exit 4 for a refusal', async () => {
    const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const project = projects[0]!;
    const added = await svcIn(['owner', 'watches', 'add', '--project', project, '--did', DID, '--json'], env());
    expect(added.exitCode).toBe(0);
    const watch = JSON.parse(added.stdout).watch as { id: string };
    expect(watch.id).toMatch(/^wch_\d+$/);
    const list = await svcIn(['owner', 'watches', 'list', '--project', project], env());
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${watch.id}\\s+${DID}`));
    const events = await svcIn(['owner', 'events', '--project', project, '--watch', watch.id], env());
    expect(events.stdout).toBe('no events in the last 30 days');
    const report = await svcIn(['owner', 'events', '--project', project, '--watch', watch.id, '--report', '--json'], env());
    expect(JSON.parse(report.stdout)).toMatchObject({ eventCount: 0, watch: { id: watch.id } });
    const set = await svcIn(['owner', 'webhook', 'set', '--project', project, '--url', 'https://127.0.0.1:9/hook'], env());
    expect(set.exitCode).toBe(0);
    const secret = /^secret\s+(whsec_\S+)$/m.exec(set.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(set.stdout).toContain('shown only now');
    const shown = await svcIn(['owner', 'webhook', 'show', '--project', project], env());
    expect(shown.stdout).toContain('https://127.0.0.1:9/hook');
    expect(shown.stdout).not.toContain(secret!);
    const quiet = await svcIn(['owner', 'webhook', 'set', '--project', project, '--url', 'https://127.0.0.1:9/other', '-q'], env());
    expect(quiet.stdout).toMatch(/^whsec_\S+$/);
    expect((await svcIn(['owner', 'webhook', 'deliveries', '--project', project], env())).stdout).toBe('no deliveries in the last 30 days');
    // Replays: nothing dead-lettered yet; an unknown delivery is NOT_FOUND; bad usage exits 2.
    const none = await svcIn(['owner', 'webhook', 'replay', '--project', project, '--watch', watch.id, '--since', '2026-01-01T00:00:00Z', '--json'], env());
    expect(none.exitCode, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({ replayed: [], count: 0 });
    const unknown = await svcIn(['owner', 'webhook', 'replay', '--project', project, '--delivery', 'dlv_999_999'], env());
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toMatch(/NOT_FOUND/);
    expect((await svcIn(['owner', 'webhook', 'replay', '--project', project], env())).exitCode).toBe(2);
    expect((await svcIn(['owner', 'webhook', 'replay', '--project', project, '--watch', watch.id, '--since', 'soon'], env())).exitCode).toBe(2);
    const schedule = await svcIn(['owner', 'schedule', '--json'], env());
    expect(JSON.parse(schedule.stdout).projects[0]).toMatchObject({ projectId: project, allowance: 18000, activeWatches: 1 });
    expect((await svcIn(['owner', 'webhook', 'disable', '--project', project], env())).exitCode).toBe(0);
    expect((await svcIn(['owner', 'watches', 'remove', '--project', project, '--watch', watch.id], env())).exitCode).toBe(0);
    const gone = await svcIn(['owner', 'watches', 'remove', '--project', project, '--watch', watch.id], env());
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toMatch(/NOT_FOUND/);
    const webvh = await svcIn(['owner', 'watches', 'add', '--project', project, '--did', 'did:webvh:QmSCID:example.com'], env());
    expect(webvh.exitCode).toBe(4);
    expect(webvh.stderr).toMatch(/INVALID_REQUEST.*did:key, did:jwk and did:web/);
    const noSubject = await svcIn(['owner', 'watches', 'add', '--project', project], env());
    expect(noSubject.exitCode).toBe(2);
    expect(noSubject.stderr).toMatch(/exactly one of --did, --mcp and --a2a/);
    const two = await svcIn(['owner', 'watches', 'add', '--project', project, '--did', DID, '--mcp', 'https://tools.example/mcp'], env());
    expect(two.exitCode).toBe(2);
  });

  it('logout ends the session and removes the file; then projects is a usage error', async () => {
    const cookie = (JSON.parse(readFileSync(sessionPath(), 'utf8')) as { cookie: string }).cookie;
    const out = await svcIn(['owner', 'logout'], env());
    expect(out.exitCode).toBe(0);
    expect(existsSync(sessionPath())).toBe(false);
    const res = await fetch(`${gw}/session`, { headers: { cookie: `svc_session=${cookie}` } });
    expect(res.status).toBe(401);
    const after = await svcIn(['owner', 'projects'], env());
    expect(after.exitCode).toBe(2);
    expect(after.stderr).toContain('no owner session');
  });

  it('a DID owning no project: exit 4 with FORBIDDEN, no session kept', async () => {
    const run = await svcIn(['owner', 'login', '--gateway', gw, '--did', stranger.did, '--key', strangerKey], env());
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain('FORBIDDEN');
    expect(existsSync(sessionPath())).toBe(false);
  });

  it("a key that is not the DID's: exit 2 before the gateway is asked", async () => {
    const run = await svcIn(['owner', 'login', '--gateway', gw, '--did', owner.did, '--key', strangerKey], env());
    expect(run.exitCode).toBe(2);
  });

  it('a bad --gateway is a usage error', async () => {
    const run = await svcIn(['owner', 'login', '--gateway', 'ftp://x', '--did', owner.did, '--key', keyFile], env());
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--gateway');
  });
});
