/**
 * `svc monitor` against a real daemon (a process of the built binary; the CLI in the
 * test process, svcIn, but for one run of the built binary) and `svc webhook listen`
 * receiving signed deliveries, as an operator runs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { customerHeaders, customerWebhookSecret, sealCustomerDelivery } from '../../src/core/monitoring/customer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, expectUsageError, onlyJson, parseCliError, repoRoot, svc, svcIn, svcBin, type Run } from '../support/cli.js';
import { startDaemon, type Daemon } from '../support/daemon.js';
import { startDaemonFor, until } from '../support/daemon-client.js';
import { documentPath, startDidWebHost } from '../support/did-web-host.js';
import { freePort } from '../support/gateway.js';
import { didDocument, generateTestKey } from '../support/signing.js';

const TOKEN = 'monitor-cli-test-token-0123456789';
const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const HOOK = 'https://127.0.0.1:9/hook';

let daemon: Daemon;

beforeAll(async () => {
  daemon = await startDaemonFor(null, { env: { SVC_ADMIN_TOKEN: TOKEN, SVC_EGRESS_ALLOW: '127.0.0.0/8', SVC_MONITOR_PERIOD: '3600' } });
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
});

function monitor(args: string[], env: Record<string, string | undefined> = { SVC_ADMIN_TOKEN: TOKEN }): Promise<Run> {
  return svcIn(['monitor', ...args, '--daemon', daemon.url], cleanEnv({ ...env } as Record<string, string>));
}

function expectNoAnswer(r: Run, code: string): void {
  expect(r.exitCode, r.stderr).toBe(4);
  expect(parseCliError(r.stderr).code).toBe(code);
}

describe('svc monitor', () => {
  it('adds a watch, prints its secret once, lists, checks, shows events and status, removes it', async () => {
    const added = await monitor(['watch', 'add', DID, HOOK, '--interval', '600']);
    expect(added.exitCode, added.stderr).toBe(0);
    const secret = /^secret +(whsec_\S+)$/m.exec(added.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(added.stdout.split(secret!)).toHaveLength(2);
    expect(added.stdout).toMatch(/shown only now/);
    const id = /^watch +(\S+)$/m.exec(added.stdout)![1]!;
    expect(`${added.stdout}${added.stderr}`).not.toContain(TOKEN);

    const list = await monitor(['watch', 'list']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ID +SUBJECT +INTERVAL/);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain(DID);
    expect(list.stdout).toContain('600s');
    expect(list.stdout).not.toContain(secret!);
    const listJson = onlyJson(await monitor(['watch', 'list', '--json']));
    expect(listJson.watches.map((w: { id: string }) => w.id)).toContain(id);
    expect(JSON.stringify(listJson)).not.toContain(secret!);

    const check = await monitor(['watch', 'check', id]);
    expect(check.exitCode, check.stderr).toBe(0);
    expect(check.stdout).toMatch(new RegExp(`^watch ${id} checked: `));
    const checkJson = onlyJson(await monitor(['watch', 'check', id, '--json']));
    expect(checkJson).toMatchObject({ changed: expect.any(Boolean), delivery: expect.stringMatching(/^(queued|none)$/) });

    const events = await monitor(['events']);
    expect(events.exitCode, events.stderr).toBe(0);
    expect(Array.isArray(onlyJson(await monitor(['events', '--watch', id, '--json'])).events)).toBe(true);

    const status = await monitor(['status']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^watches +1 of \d+$/m);
    expect(onlyJson(await monitor(['status', '--json']))).toMatchObject({ watches: 1, watchLimit: expect.any(Number) });

    const removed = await monitor(['watch', 'rm', id]);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`watch ${id} removed`);
    const again = await monitor(['watch', 'rm', id]);
    expectNoAnswer(again, 'NOT_FOUND');
    const againJson = await monitor(['watch', 'rm', id, '--json']);
    expectNoAnswer(againJson, 'NOT_FOUND');
    expect(onlyJson(againJson).code).toBe('NOT_FOUND');
    expect((await monitor(['watch', 'list'])).stdout).toBe('no watches');
  }, 60_000);

  it('watch add --json prints the daemon answer; -q only the secret', async () => {
    const json = onlyJson(await monitor(['watch', 'add', DID, HOOK, '--json']));
    expect(json).toMatchObject({ watch: { did: DID, intervalSeconds: 3600 }, secret: expect.stringMatching(/^whsec_/) });
    const quiet = await monitor(['watch', 'add', DID, HOOK, '-q']);
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^whsec_\S+$/);
    for (const w of onlyJson(await monitor(['watch', 'list', '--json'])).watches) expect((await monitor(['watch', 'rm', w.id])).exitCode).toBe(0);
  }, 60_000);

  it('no token: a usage error naming SVC_ADMIN_TOKEN (exit 2)', async () => {
    const r = await monitor(['status'], { SVC_ADMIN_TOKEN: undefined });
    const error = expectUsageError(r, /SVC_ADMIN_TOKEN/);
    expect(error.hint).toMatch(/SVC_ADMIN_TOKEN/);
  });

  it('a wrong token: UNAUTHORIZED (exit 4), the token never printed', async () => {
    const wrong = 'not-the-right-token-at-all-0000';
    const r = await monitor(['watch', 'list'], { SVC_ADMIN_TOKEN: wrong });
    expectNoAnswer(r, 'UNAUTHORIZED');
    expect(`${r.stdout}${r.stderr}`).not.toContain(wrong);
  });

  it('a daemon that cannot be reached: exit 4', async () => {
    const r = await svcIn(['monitor', 'status', '--daemon', 'http://127.0.0.1:1'], cleanEnv({ SVC_ADMIN_TOKEN: TOKEN }));
    expectNoAnswer(r, 'DAEMON_UNREACHABLE');
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('a bad --daemon or --interval: usage errors (exit 2)', async () => {
    expectUsageError(await svcIn(['monitor', 'watch', 'list', '--daemon', 'ftp://x'], cleanEnv({ SVC_ADMIN_TOKEN: TOKEN })), /--daemon must be/);
    expectUsageError(await svcIn(['monitor', 'status'], cleanEnv({ SVC_ADMIN_TOKEN: TOKEN, SVC_DAEMON_URL: 'nope' })), /^SVC_DAEMON_URL must be/);
    expectUsageError(await monitor(['watch', 'add', DID, HOOK, '--interval', 'soon']), /--interval/);
    expectUsageError(await monitor(['watch', 'add', DID, HOOK, '--mcp', 'https://tools.example/mcp']), /with --mcp give only the webhook URL/);
    expectUsageError(await monitor(['watch', 'add', HOOK, '--mcp', 'https://tools.example/mcp', '--a2a', 'https://agent.example']), /not both/);
    expectUsageError(await monitor(['watch', 'add', DID, HOOK, '--baseline', 'b.json']), /--baseline is for --mcp and --a2a/);
    expectUsageError(await monitor(['watch', 'add', HOOK, '--mcp', 'https://tools.example/mcp', '--baseline', '/nonexistent/b.json']), /--baseline/);
  });

  it('replay: a dead letter queued again (exit 0), then CONFLICT naming its state (exit 4); unknown ids, bad usage', async () => {
    const added = onlyJson(await monitor(['watch', 'add', DID, HOOK, '--json']));
    const watchId = Number(added.watch.id);
    // A dead letter, as five failed attempts leave one (the deliverer's part is tested in monitor-replay.e2e.test.ts).
    const db = new Database(daemon.dbPath);
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, last_error)
         VALUES (?, ?, 'identity.document.changed', ?, '2026-11-01T00:00:00Z', 'DEAD_LETTER', 5, 'the receiver answered 500')`,
      ).run(
        watchId,
        DID,
        JSON.stringify({ fromHash: 'a'.repeat(64), toHash: 'b'.repeat(64), domainBinding: null, diff: null, headline: 'changed', problem: null }),
      );
    } finally {
      db.close();
    }
    const evt = onlyJson(await monitor(['events', '--watch', String(watchId), '--json'])).events[0].id as string;

    const replayed = await monitor(['replay', evt]);
    expect(replayed.exitCode, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(`${evt} replayed: PENDING, five fresh attempts (replay 1); receivers see the same id and bytes`);
    const again = await monitor(['replay', evt]);
    expectNoAnswer(again, 'CONFLICT');
    expect(parseCliError(again.stderr).detail).toBe(
      `${evt} is PENDING; only DEAD_LETTER or CANCELLED events can be replayed (it is still being delivered: wait for it to settle).`,
    );
    expect(onlyJson(await monitor(['replay', evt, '--json'])).code).toBe('CONFLICT');
    expect(onlyJson(await monitor(['replay', '--watch', String(watchId), '--since', '2026-11-01T00:00:00Z', '--json']))).toEqual({ replayed: [], count: 0 });
    expect((await monitor(['replay', '--watch', String(watchId), '--since', '2026-11-01T00:00:00Z'])).stdout).toMatch(/nothing replayed/);
    const status = onlyJson(await monitor(['status', '--json']));
    expect(status).toMatchObject({ replays: 1, disabledWebhooks: 0, eventsByType: { 'identity.document.changed': 1, 'tls.certificate.expiring': 0 } });
    expect((await monitor(['status'])).stdout).toMatch(/^replays +1$/m);

    expectNoAnswer(await monitor(['replay', 'evt_999999']), 'NOT_FOUND');
    expectNoAnswer(await monitor(['replay', '--watch', '999999', '--since', '2026-11-01T00:00:00Z']), 'NOT_FOUND');
    expectUsageError(await monitor(['replay']), /name the event to replay/);
    expectUsageError(await monitor(['replay', '--watch', String(watchId)]), /--watch needs --since/);
    expectUsageError(await monitor(['replay', '--since', '2026-11-01T00:00:00Z']), /--since needs --watch/);
    expectUsageError(await monitor(['replay', '--watch', String(watchId), '--since', 'yesterday']), /--since must be an RFC 3339/);
    expectUsageError(await monitor(['replay', evt, '--watch', String(watchId), '--since', '2026-11-01T00:00:00Z']), /not both/);
    expect((await monitor(['watch', 'rm', String(watchId)])).exitCode).toBe(0);
  }, 60_000);

  it('every subcommand has help with its exit status', async () => {
    for (const args of [
      ['monitor'],
      ['monitor', 'watch'],
      ['monitor', 'watch', 'add'],
      ['monitor', 'watch', 'list'],
      ['monitor', 'watch', 'rm'],
      ['monitor', 'watch', 'check'],
      ['monitor', 'watch', 'enable-webhook'],
      ['monitor', 'events'],
      ['monitor', 'attempts'],
      ['monitor', 'replay'],
      ['monitor', 'status'],
      ['webhook'],
      ['webhook', 'listen'],
    ]) {
      const r = await svcIn([...args, '--help']);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Exit status: 0 /m);
      expect(r.stdout).not.toMatch(/SPEC|§/);
    }
    const enable = await svcIn(['monitor', 'watch', 'enable-webhook', '--help']);
    expect(enable.stdout).toMatch(/410 Gone/);
    expect(enable.stdout).toMatch(/\$ svc monitor watch enable-webhook 1 --url https:/);
    const attempts = await svcIn(['monitor', 'attempts', '--help']);
    expect(attempts.stdout).toMatch(/WEBHOOK_DISABLED/);
    expect(attempts.stdout).toMatch(/capped at 3600 s/);
    expect(attempts.stdout).toMatch(/\$ svc monitor attempts evt_12/);
  }, 60_000);

  it("watch enable-webhook enables (a new URL egress-checked); attempts lists an event's attempts; unknown ids are NOT_FOUND (exit 4)", async () => {
    const id = onlyJson(await monitor(['watch', 'add', DID, HOOK, '--json'])).watch.id as string;
    const enabled = await monitor(['watch', 'enable-webhook', id]);
    expect(enabled.exitCode, enabled.stderr).toBe(0);
    expect(enabled.stdout).toBe(`watch ${id}: webhook enabled, ${HOOK}; events from its next check on are delivered`);
    const moved = onlyJson(await monitor(['watch', 'enable-webhook', id, '--url', 'https://127.0.0.1:9/other', '--json']));
    expect(moved.watch).toMatchObject({ id, webhook: 'https://127.0.0.1:9/other', webhookDisabled: null });
    expectNoAnswer(await monitor(['watch', 'enable-webhook', id, '--url', 'http://127.0.0.1:9/plain']), 'EGRESS_BLOCKED');
    expectNoAnswer(await monitor(['watch', 'enable-webhook', '999999']), 'NOT_FOUND');
    const unknown = await monitor(['attempts', 'evt_999999', '--json']);
    expectNoAnswer(unknown, 'NOT_FOUND');
    expect(onlyJson(unknown).code).toBe('NOT_FOUND');
    expectNoAnswer(await monitor(['attempts', 'nonsense']), 'NOT_FOUND');
    expect((await monitor(['watch', 'rm', id])).exitCode).toBe(0);
  }, 60_000);
});

describe('svc webhook listen', () => {
  const secret = 'whsec_dGVzdC1zZWNyZXQtb2YtdGhlLWxpc3RlbmVyLXRlc3Q=';
  let child: ChildProcess;
  let url: string;
  let out = '';
  let err = '';
  let exited: Promise<number | string>;

  beforeAll(async () => {
    child = spawn(process.execPath, [svcBin, 'webhook', 'listen', '--port', '0'], {
      cwd: repoRoot,
      env: { ...process.env, ...cleanEnv({ SVC_WEBHOOK_SECRET: secret }), NO_COLOR: '1' } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`svc webhook listen did not start:\n${err}`)), 15_000);
      child.stderr!.on('data', () => {
        const m = /^svc: listening for webhooks on (http:\/\/\S+)$/m.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
  }, 20_000);

  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  function post(body: string, key: string): Promise<Response> {
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = `sha256=${createHmac('sha256', key).update(`${ts}.${body}`).digest('hex')}`;
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-svc-event': 'identity.document.changed',
        'x-svc-event-id': 'evt_7',
        'x-svc-timestamp': ts,
        'x-svc-signature-256': signature,
      },
      body,
    });
  }

  async function waitForLines(n: number): Promise<string[]> {
    for (let i = 0; i < 100 && out.split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 50));
    return out.split('\n').filter(Boolean);
  }

  it('answers 204 to a correctly signed delivery and 401 to a wrongly signed one, one line each; SIGTERM exits 0', async () => {
    const body = JSON.stringify({
      id: 'evt_7',
      type: 'identity.document.changed',
      did: DID,
      watchId: '1',
      createdAt: new Date().toISOString(),
      data: { headline: 'changed' },
    });
    expect((await post(body, secret)).status).toBe(204);
    expect((await post(body, 'whsec_another')).status).toBe(401);
    const lines = await waitForLines(2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\S+Z  evt_7  identity\\.document\\.changed  ${DID}  verified$`));
    expect(lines[1]).toMatch(/  REJECTED: the signature does not match/);
    expect(out).not.toContain(secret);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});

/** `svc webhook listen` with `args` as a child process, once it says where it listens. */
async function listener(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [svcBin, 'webhook', 'listen', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  for (let i = 0; i < 300 && !/listening for webhooks on/.test(err); i++) await new Promise((r) => setTimeout(r, 50));
  const url = /listening for webhooks on (https?:\/\/\S+)/.exec(err)?.[1];
  if (url === undefined) {
    child.kill('SIGKILL');
    throw new Error(`svc webhook listen did not start:\n${err}`);
  }
  /** The JSON lines printed so far, waiting for `n` of them (5 s at most). */
  const lines = async (n: number) => {
    for (let i = 0; i < 100 && out.split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 50));
    return out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  return { child, url, exited, lines, out: () => out, err: () => err };
}

describe('svc webhook listen --json', () => {
  it('prints one JSON object per delivery; SIGINT exits 130', async () => {
    const secret = 'whsec_anotherSecretForTheJsonListener';
    const { child, url, exited, lines } = await listener(['--port', '0', '--json', '--secret', secret], cleanEnv());
    try {
      const body = JSON.stringify({ id: 'evt_9', type: 'identity.deactivated', did: DID, data: { headline: 'gone' } });
      const ts = String(Math.floor(Date.now() / 1000));
      const sig = `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
      expect((await fetch(url, { method: 'POST', headers: { 'x-svc-timestamp': ts, 'x-svc-signature-256': sig }, body })).status).toBe(204);
      expect((await fetch(url, { method: 'POST', body })).status).toBe(401);
      const [ok, bad] = await lines(2);
      expect(ok).toMatchObject({ id: 'evt_9', type: 'identity.deactivated', did: DID, verified: true, data: { headline: 'gone' } });
      expect(typeof ok!['receivedAt']).toBe('string');
      expect(bad).toMatchObject({ id: 'evt_9', verified: false, data: null, reason: 'no X-Svc-Timestamp header' });
      child.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 30_000);

  it('--customer verifies a customer delivery (X-SVC-Signature, t the creation time: a retry 20 min later still verifies) and names what is wrong', async () => {
    const secret = customerWebhookSecret();
    const { child, url, exited, lines, out } = await listener(['--customer', '--port', '0', '--json'], cleanEnv({ SVC_WEBHOOK_SECRET: secret }));
    try {
      const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 20 * 60_000).toISOString().replace('.000Z', 'Z');
      const event = {
        id: 'evt_11',
        type: 'identity.document.changed' as const,
        projectId: 'prj_x',
        watchId: 'wch_3',
        did: DID,
        createdAt,
        data: { headline: 'changed' },
      };
      const { body, signature } = sealCustomerDelivery(event, secret);
      const headers = customerHeaders(event.id, signature);
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
      expect(
        (await fetch(url, { method: 'POST', headers: { ...headers, 'x-svc-signature': signature.replace(/v1=.*/, `v1=${'0'.repeat(64)}`) }, body })).status,
      ).toBe(401);
      expect((await fetch(url, { method: 'POST', headers: { 'x-svc-signature': signature }, body })).status).toBe(401);
      const [ok, wrong, noId] = await lines(3);
      expect(ok).toMatchObject({ id: 'evt_11', type: 'identity.document.changed', did: DID, verified: true, data: { headline: 'changed' } });
      expect(wrong).toMatchObject({ verified: false, data: null, reason: 'the signature does not match (another secret, or a changed body)' });
      expect(noId).toMatchObject({ verified: false, reason: 'no X-SVC-Event-ID header' });
      expect(out()).not.toContain(secret);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 30_000);

  it('no secret: a usage error (exit 2)', async () => {
    const r = await svc(['webhook', 'listen', '--port', '0'], cleanEnv({ SVC_WEBHOOK_SECRET: '' }));
    expectUsageError(r, /SVC_WEBHOOK_SECRET/);
  });
});

/** A POST over HTTPS trusting exactly `ca`; the status. */
function postTls(url: string, ca: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: 'POST', ca, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('svc webhook listen --tls: the whole loop with a real daemon', () => {
  it("prints the certificate and the daemon's settings; a daemon started with exactly them delivers a change, which the receiver prints verified", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-webhook-tls-'));
    const host = await startDidWebHost();
    let daemon: Daemon | undefined;
    let receiver: Awaited<ReturnType<typeof listener>> | undefined;
    try {
      // The operator's shell already trusts a private CA (the did:web host's) through NODE_EXTRA_CA_CERTS.
      const hostCa = path.join(dir, 'private-ca.pem');
      writeFileSync(hostCa, host.ca.certPem);
      const env = cleanEnv({ XDG_STATE_HOME: path.join(dir, 'state'), NODE_EXTRA_CA_CERTS: hostCa, SVC_WEBHOOK_SECRET: '' });
      const port = await freePort();

      // 1. No secret yet: the certificate, its fingerprint and the daemon's settings, then exit 2.
      const first = await svc(['webhook', 'listen', '--tls', '--port', String(port)], env);
      expect(first.exitCode, first.stderr).toBe(2);
      expect(first.stderr).toMatch(/^svc: USAGE_ERROR: no webhook secret/m);
      expect(first.stderr).not.toMatch(/ at /);
      const certFile = /^ {2}certificate {2}(\S+)$/m.exec(first.stderr)![1]!;
      const fingerprint = /^ {2}SHA-256 {6}(\S+)$/m.exec(first.stderr)![1]!;
      const settings = /^ {2}NODE_EXTRA_CA_CERTS=(\S+) SVC_EGRESS_ALLOW=(\S+) svc serve$/m.exec(first.stderr)!;
      const [trustFile, allow] = [settings[1]!, settings[2]!];
      const url = `https://127.0.0.1:${port}/`;
      expect(first.stderr).toContain(`svc monitor watch add <did> ${url}`);
      expect(first.stderr).toContain(`(or NODE_EXTRA_CA_CERTS as above and: svc serve --egress-allow 127.0.0.1/32)`);
      expect(allow).toBe('127.0.0.1/32');
      expect(certFile).toBe(path.join(dir, 'state', 'svc', 'webhook-listen', 'cert.pem'));
      const cert = new X509Certificate(readFileSync(certFile));
      expect(cert.fingerprint256).toBe(fingerprint);
      expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
      expect(statSync(path.join(path.dirname(certFile), 'key.pem')).mode & 0o777).toBe(0o600);
      // trust.pem: this certificate and the private CA the shell trusted.
      const trust = readFileSync(trustFile, 'utf8');
      expect(trust).toContain(cert.toString().trim());
      expect(trust).toContain(host.ca.certPem.trim());

      // 2. A daemon started with exactly those settings, a watched did:web, its baseline.
      daemon = await startDaemon({
        env: { SVC_ADMIN_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: trustFile, SVC_EGRESS_ALLOW: allow, SVC_MONITOR_PERIOD: '1', SVC_RATE_LIMIT_PER_MIN: '100000' },
      });
      const did = host.did('watched', 'by-tls');
      let document = didDocument(did, generateTestKey('EdDSA'));
      host.server.route(documentPath(did), (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/did+json' });
        res.end(JSON.stringify(document));
      });
      const opsEnv = cleanEnv({ SVC_ADMIN_TOKEN: TOKEN });
      const added = await svc(['monitor', 'watch', 'add', did, url, '--daemon', daemon.url], opsEnv);
      expect(added.exitCode, added.stderr).toBe(0);
      const secret = /^secret +(whsec_\S+)$/m.exec(added.stdout)![1]!;
      const watchId = /^watch +(\S+)$/m.exec(added.stdout)![1]!;
      // The poller's first check sets the baseline (a check of ours could meet it: 503, try again).
      await until(
        'the poller set the baseline',
        async () =>
          (
            onlyJson(await svcIn(['monitor', 'watch', 'list', '--json', '--daemon', daemon!.url], opsEnv)).watches as Array<{
              id: string;
              lastStatus: string | null;
            }>
          ).find((w) => w.id === watchId)?.lastStatus === 'RESOLVED',
        15_000,
      );

      // 3. The receiver with the secret: the same certificate, reused.
      receiver = await listener(['--tls', '--port', String(port), '--json'], { ...env, SVC_WEBHOOK_SECRET: secret });
      expect(receiver.url).toBe(url);
      expect(receiver.err()).toContain(`SHA-256      ${fingerprint}`);
      expect(receiver.err()).toMatch(/\(reused, kept for the next runs until /);
      expect(receiver.err()).not.toContain(secret);

      // 4. A change: the daemon delivers it over HTTPS; the receiver verifies and prints it.
      document = didDocument(did, generateTestKey('EdDSA'));
      const changed = onlyJson(await svcIn(['monitor', 'watch', 'check', watchId, '--json', '--daemon', daemon.url], opsEnv));
      expect(changed).toMatchObject({ changed: true, delivery: 'queued', eventId: expect.stringMatching(/^evt_[0-9]+$/) });
      let lines: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 40 && lines.length === 0; i++) lines = await receiver.lines(1);
      expect(lines[0]).toMatchObject({ id: changed.eventId, type: 'identity.document.changed', did, verified: true });
      expect((lines[0]!['data'] as { toHash: string }).toHash).toMatch(/^[0-9a-f]{64}$/);
      const events = onlyJson(await svcIn(['monitor', 'events', '--watch', watchId, '--json', '--daemon', daemon.url], opsEnv)).events as Array<{
        id: string;
        deliveryStatus: string;
      }>;
      expect(events.find((e) => e.id === changed.eventId)?.deliveryStatus).toBe('DELIVERED');

      // The signature is what decides: the same body signed with another secret is refused.
      const body = JSON.stringify({ id: 'evt_999', type: 'identity.document.changed', did, watchId, createdAt: new Date().toISOString(), data: {} });
      const ts = String(Math.floor(Date.now() / 1000));
      const forged = `sha256=${createHmac('sha256', 'whsec_not-the-secret').update(`${ts}.${body}`).digest('hex')}`;
      expect(await postTls(url, cert.toString(), { 'x-svc-timestamp': ts, 'x-svc-signature-256': forged }, body)).toBe(401);
      const [, rejected] = await receiver.lines(2);
      expect(rejected).toMatchObject({ id: 'evt_999', verified: false, reason: 'the signature does not match (another secret, or a changed body)' });
      receiver.child.kill('SIGTERM');
      expect(await receiver.exited).toBe(0);
    } finally {
      if (receiver && receiver.child.exitCode === null && receiver.child.signalCode === null) receiver.child.kill('SIGKILL');
      await daemon?.stop();
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
