/**
 * Keyed requests (commercial mode): autocannon against one `svc serve` (commercial mode on, a SQLite
 * file) on /v1/fast-verify/did/<did:key> (a cached verdict: the HTTP path) anonymous and with
 * `Authorization: Bearer svck_…`, rounds interleaved, in one run. A keyed request costs a key
 * lookup by digest (one indexed read, no cache, so revocation is immediate), its project's bucket
 * and a usage increment (batched: written once a second). Goal: the keyed request's latency
 * ≤ 1.3× the anonymous one's (with a fixed number of connections, latency is the inverse of
 * throughput).
 *
 * The key is issued by writing to the daemon's database from this process (the store's own
 * issueKey, with the daemon's key format): the key routes take the in-process gateway's bridge
 * secret, which never leaves the daemon. Needs the built CLI (dist/cli.js).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { generateProjectKey } from '../src/server/project-keys.js';
import { openStore } from '../src/store/index.js';
import { median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;
const TOKEN = 'bench-operator-token-0123456789';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

async function load(url: string, headers: Record<string, string> = {}): Promise<{ rps: number; latency: number; non2xx: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, headers });
  return { rps: result.requests.average, latency: result.latency.average, non2xx: result.non2xx + result.errors + result.timeouts };
}

export async function run(): Promise<BenchRow[]> {
  // The goal row is the daemon's time per request at saturation (1 / throughput, 16 connections
  // kept busy): autocannon's latency histogram counts whole milliseconds, too coarse for requests
  // of tens of microseconds (its mean is reported below, for what it is worth).
  const rows = (keyed: number | null, anonymous: number | null, note: string): BenchRow[] => [
    {
      operation: 'daemon: keyed GET /v1/fast-verify/did/<did:key> (cached), time per request at saturation (1 / throughput), autocannon',
      unit: 'µs',
      svc: keyed,
      peer: 'the same request, anonymous',
      peerValue: anonymous,
      goal: { op: '<=', ratio: 1.3 },
      status: keyed === null ? 'not built' : 'ok',
      note,
    },
  ];
  if (!existsSync(cli)) return rows(null, null, 'run `npm run build` first');

  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-accounts-'));
  const db = path.join(dir, 'svc.db');
  const env = {
    ...plainEnv(),
    SVC_RATE_LIMIT_PER_MIN: '1000000',
    SVC_ADMIN_TOKEN: TOKEN,
    SVC_COMMERCIAL: 'on',
    SVC_COMMERCIAL_ORIGIN: 'http://127.0.0.1:8081',
    SVC_ACCESS_LOG: 'off',
  };
  const daemon = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const svcUrl = await serverStarted(daemon);
    // A tenant, a project and a key, in the daemon's database.
    const store = openStore({ path: db });
    const owner = 'did:web:bench.example';
    const tenant = await store.accounts.createTenant({ name: 'bench', owner });
    const project = await store.accounts.createProject(tenant.id, { name: 'bench' });
    const { secret, stored } = generateProjectKey('bench');
    await store.accounts.issueKey(owner, project.id, stored);
    store.close();

    const target = `${svcUrl}/v1/fast-verify/did/${DID}`;
    const keyed = { authorization: `Bearer ${secret}` };
    for (const headers of [{}, keyed]) {
      const first = await fetch(target, { headers });
      if (first.status !== 200) throw new Error(`fast-verify answered ${first.status}: ${await first.text()}`);
    }
    const anonLatency: number[] = [];
    const keyedLatency: number[] = [];
    const anonRps: number[] = [];
    const keyedRps: number[] = [];
    let failures = 0;
    let keyedRequests = 1;
    await load(target); // warm-up, untimed
    keyedRequests += (await load(target, keyed)).rps * SECONDS;
    for (let i = 0; i < ROUNDS; i++) {
      const a = await load(target);
      const k = await load(target, keyed);
      anonLatency.push(a.latency);
      keyedLatency.push(k.latency);
      anonRps.push(a.rps);
      keyedRps.push(k.rps);
      keyedRequests += k.rps * SECONDS;
      failures += a.non2xx + k.non2xx;
    }
    if (failures > 0) throw new Error(`${failures} requests failed or were not 2xx under load`);
    // The usage counter holds the keyed requests (flushed within a second; read through the operator route).
    await new Promise((r) => setTimeout(r, 1_500));
    const usage = (await (await fetch(`${svcUrl}/v1/commercial/projects/${project.id}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      usage: Array<{ count: number }>;
    };
    const counted = usage.usage.reduce((n, u) => n + u.count, 0);
    const note = `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, SQLite file; ${counted} keyed requests counted (≈${Math.round(keyedRequests)} sent)`;
    return [
      ...rows(1e6 / median(keyedRps), 1e6 / median(anonRps), note),
      {
        operation: 'daemon: keyed GET /v1/fast-verify/did/<did:key> (cached), mean latency (whole-millisecond histogram), autocannon',
        unit: 'ms',
        svc: median(keyedLatency),
        peer: 'the same request, anonymous',
        peerValue: median(anonLatency),
        goal: null,
        status: 'ok',
        note: 'informational: autocannon counts latency in whole milliseconds',
      },
      {
        operation: 'daemon: keyed GET /v1/fast-verify/did/<did:key> (cached), autocannon',
        unit: 'ops/s',
        svc: median(keyedRps),
        peer: 'the same request, anonymous',
        peerValue: median(anonRps),
        goal: null,
        status: 'ok',
        note: 'the same rounds, as throughput',
      },
    ];
  } finally {
    if (daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise((r) => daemon.once('exit', r));
      daemon.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
