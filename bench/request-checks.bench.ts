/**
 * The checks every request pays for: the Host rule (one Host, agreeing with an
 * absolute target) and the client's identity (only an address forwarded by a trusted proxy names
 * a client, worked out once per request). autocannon against `svc serve`'s cached
 * /v1/fast-verify/did/<did:key>, this build next to a baseline build in the same run, rounds
 * interleaved: directly, and through a trusted proxy with X-Forwarded-For on every request.
 *
 * The baseline is another checkout's built CLI, named by SVC_BENCH_BASELINE (its bin/svc.js),
 * e.g. a worktree of the commit before the change:
 *
 *   git worktree add --detach /tmp/svc-base <commit> && (cd /tmp/svc-base && npm ci && npx tsup)
 *   SVC_BENCH_BASELINE=/tmp/svc-base/bin/svc.js npx tsx bench/run.ts request-checks
 *
 * Without it the rows carry this build's figures only.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, serverStarted, startMemoryServe, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const start = startMemoryServe;

async function load(url: string, headers: Record<string, string>): Promise<{ rps: number; bad: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, headers });
  return { rps: result.requests.average, bad: result.non2xx + result.errors + result.timeouts };
}

export async function run(): Promise<BenchRow[]> {
  const baselineBin = process.env['SVC_BENCH_BASELINE'];
  const cases: Array<{ name: string; env: Record<string, string>; headers: Record<string, string> }> = [
    { name: 'direct', env: {}, headers: {} },
    {
      name: 'through a trusted proxy, X-Forwarded-For on every request',
      env: { SVC_TRUST_PROXY: '127.0.0.1' },
      headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.9' },
    },
  ];
  const row = (name: string, svc: number | null, peerValue: number | null, note: string): BenchRow => ({
    operation: `daemon: GET /v1/fast-verify/did/<did:key> (cached), ${name}, autocannon`,
    unit: 'ops/s',
    svc,
    peer: baselineBin ? `baseline build (${baselineBin})` : '— (set SVC_BENCH_BASELINE)',
    peerValue,
    goal: baselineBin ? { op: '>=', ratio: 0.95 } : null,
    status: svc === null ? 'not built' : 'ok',
    note,
  });
  if (!existsSync(cli)) return cases.map((c) => row(c.name, null, null, 'run `npm run build` first'));
  if (baselineBin !== undefined && !existsSync(baselineBin)) throw new Error(`SVC_BENCH_BASELINE=${baselineBin} does not exist`);

  const rows: BenchRow[] = [];
  for (const c of cases) {
    const mine = start(bin, c.env);
    const base = baselineBin ? start(baselineBin, c.env) : null;
    try {
      const [mineUrl, baseUrl] = await Promise.all([serverStarted(mine), base ? serverStarted(base) : Promise.resolve(null)]);
      const targets = [`${mineUrl}/v1/fast-verify/did/${DID}`, ...(baseUrl ? [`${baseUrl}/v1/fast-verify/did/${DID}`] : [])];
      for (const target of targets) {
        const first = await fetch(target, { headers: c.headers });
        if (first.status !== 200) throw new Error(`fast-verify answered ${first.status}`);
        await load(target, c.headers); // warm-up, untimed
      }
      const mineRps: number[] = [];
      const baseRps: number[] = [];
      let bad = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const m = await load(targets[0]!, c.headers);
        mineRps.push(m.rps);
        bad += m.bad;
        if (targets[1]) {
          const b = await load(targets[1], c.headers);
          baseRps.push(b.rps);
          bad += b.bad;
        }
      }
      if (bad > 0) throw new Error(`${bad} requests failed or were not 2xx under load`);
      rows.push(
        row(
          c.name,
          median(mineRps),
          baseRps.length > 0 ? median(baseRps) : null,
          `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each; both daemons --memory, access log off`,
        ),
      );
    } finally {
      mine.kill('SIGTERM');
      base?.kill('SIGTERM');
    }
  }
  return rows;
}
