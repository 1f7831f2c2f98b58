/**
 * `svc monitor` against a real daemon (the built binary on both sides) and `svc webhook listen`
 * receiving signed deliveries, as an operator runs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { customerHeaders, customerWebhookSecret, sealCustomerDelivery } from '../../src/core/monitoring/customer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, expectUsageError, onlyJson, parseCliError, repoRoot, svc, svcBin, type Run } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { startDaemonFor } from '../support/daemon-client.js';

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
  return svc(['monitor', ...args, '--daemon', daemon.url], cleanEnv({ ...env } as Record<string, string>));
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
    expect(list.stdout).toMatch(/^ID +DID +INTERVAL/);
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
    const r = await svc(['monitor', 'status', '--daemon', 'http://127.0.0.1:1'], cleanEnv({ SVC_ADMIN_TOKEN: TOKEN }));
    expectNoAnswer(r, 'DAEMON_UNREACHABLE');
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('a bad --daemon or --interval: usage errors (exit 2)', async () => {
    expectUsageError(await svc(['monitor', 'watch', 'list', '--daemon', 'ftp://x'], cleanEnv({ SVC_ADMIN_TOKEN: TOKEN })), /--daemon must be/);
    expectUsageError(await svc(['monitor', 'status'], cleanEnv({ SVC_ADMIN_TOKEN: TOKEN, SVC_DAEMON_URL: 'nope' })), /^SVC_DAEMON_URL must be/);
    expectUsageError(await monitor(['watch', 'add', DID, HOOK, '--interval', 'soon']), /--interval/);
  });

  it('every subcommand has help with its exit status', async () => {
    for (const args of [['monitor'], ['monitor', 'watch'], ['monitor', 'watch', 'add'], ['monitor', 'watch', 'list'], ['monitor', 'watch', 'rm'], ['monitor', 'watch', 'check'], ['monitor', 'events'], ['monitor', 'status'], ['webhook'], ['webhook', 'listen']]) {
      const r = await svc([...args, '--help']);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Exit status: 0 /m);
      expect(r.stdout).not.toMatch(/SPEC|§/);
    }
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
      headers: { 'content-type': 'application/json', 'x-svc-event': 'identity.document.changed', 'x-svc-event-id': 'evt_7', 'x-svc-timestamp': ts, 'x-svc-signature-256': signature },
      body,
    });
  }

  async function waitForLines(n: number): Promise<string[]> {
    for (let i = 0; i < 100 && out.split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 50));
    return out.split('\n').filter(Boolean);
  }

  it('answers 204 to a correctly signed delivery and 401 to a wrongly signed one, one line each; SIGTERM exits 0', async () => {
    const body = JSON.stringify({ id: 'evt_7', type: 'identity.document.changed', did: DID, watchId: 'w_1', createdAt: new Date().toISOString(), data: { headline: 'changed' } });
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
  const url = /listening for webhooks on (http:\/\/\S+)/.exec(err)?.[1];
  if (url === undefined) {
    child.kill('SIGKILL');
    throw new Error(`svc webhook listen did not start:\n${err}`);
  }
  /** The JSON lines printed so far, waiting for `n` of them (5 s at most). */
  const lines = async (n: number) => {
    for (let i = 0; i < 100 && out.split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 50));
    return out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  return { child, url, exited, lines, out: () => out };
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
      const event = { id: 'evt_11', type: 'identity.document.changed' as const, projectId: 'prj_x', watchId: 'wch_3', did: DID, createdAt, data: { headline: 'changed' } };
      const { body, signature } = sealCustomerDelivery(event, secret);
      const headers = customerHeaders(event.id, signature);
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
      expect((await fetch(url, { method: 'POST', headers: { ...headers, 'x-svc-signature': signature.replace(/v1=.*/, `v1=${'0'.repeat(64)}`) }, body })).status).toBe(401);
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
