/**
 * What the Prometheus metrics cost (docs/operations.md#metrics): autocannon against two `svc serve`
 * processes started alike (a SQLite file each) but for SVC_METRICS — off (nothing measured,
 * prom-client not loaded) and on (the default: each request a counted span, its stages and
 * database calls observed) — on /v1/fast-verify/did/<did:key> (a cached verdict: the cheapest
 * request, where the per-request cost of metrics weighs most), rounds interleaved, in one run.
 * Goal: with metrics on, at least 0.85× the throughput with them off. A scrape is not part of the
 * load. Needs the built CLI (dist/cli.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;
const TOKEN = 'bench-metrics-operator-token-4f7c9a1d2b3e';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

async function load(url: string): Promise<{ rps: number; failed: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
  return { rps: result.requests.average, failed: result.non2xx + result.errors + result.timeouts };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function run(): Promise<BenchRow[]> {
  const row = (on: number | null, off: number | null, note: string): BenchRow => ({
    operation: 'daemon: GET /v1/fast-verify/did/<did:key> (cached) with SVC_METRICS=on, autocannon',
    unit: 'ops/s',
    svc: on,
    peer: 'the same daemon with SVC_METRICS=off',
    peerValue: off,
    goal: { op: '>=', ratio: 0.85 },
    status: on === null ? 'not built' : 'ok',
    note,
  });
  if (!existsSync(cli)) return [row(null, null, 'run `npm run build` first')];

  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-metrics-'));
  const start = (setting: 'on' | 'off') =>
    spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', path.join(dir, `${setting}.db`)], {
      cwd: root,
      env: { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_ACCESS_LOG: 'off', SVC_ADMIN_TOKEN: TOKEN, SVC_METRICS: setting },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  const daemons = { off: start('off'), on: start('on') };
  try {
    const urls = { off: await serverStarted(daemons.off), on: await serverStarted(daemons.on) };
    const targets = { off: `${urls.off}/v1/fast-verify/did/${DID}`, on: `${urls.on}/v1/fast-verify/did/${DID}` };
    for (const target of Object.values(targets)) {
      const first = await fetch(target);
      if (first.status !== 200) throw new Error(`fast-verify answered ${first.status}: ${await first.text()}`);
    }
    // Warm-up, untimed: both JITs settle before the first measured round.
    await load(targets.off);
    await load(targets.on);
    const rps = { off: [] as number[], on: [] as number[] };
    let failures = 0;
    for (let i = 0; i < ROUNDS; i++) {
      for (const setting of i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const result = await load(targets[setting]);
        rps[setting].push(result.rps);
        failures += result.failed;
      }
    }
    if (failures > 0) throw new Error(`${failures} requests failed or were not 2xx under load`);
    // The metrics daemon counted what it served; the other has no metrics to show.
    const scrape = await (await fetch(`${urls.on}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const counted = /svc_http_requests_total\{method="GET",route="\/v1\/fast-verify\/did\/\*",status="200"\} (\d+)/.exec(scrape)?.[1];
    const off = await fetch(`${urls.off}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (off.status !== 404) throw new Error(`the daemon with SVC_METRICS=off answered /metrics with ${off.status}`);
    return [
      row(
        median(rps.on),
        median(rps.off),
        `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per daemon, SQLite files; the metrics daemon counted ${counted ?? '?'} such requests`,
      ),
    ];
  } finally {
    await Promise.all([stop(daemons.off), stop(daemons.on)]);
    rmSync(dir, { recursive: true, force: true });
  }
}
