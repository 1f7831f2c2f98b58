/**
 * What tracing costs a request: autocannon against `svc serve`'s cached
 * /v1/fast-verify/did/<did:key>, one daemon with tracing off next to one with SVC_OTEL_ENDPOINT
 * pointed at a loopback OTLP/HTTP receiver in this process that takes every export and discards
 * it (as a collector would, minus its work), rounds interleaved in the same run.
 *
 * With SVC_BENCH_BASELINE (another build's bin/svc.js, e.g. the commit before the telemetry seam)
 * a third row compares this build with tracing off against that build: what the seam itself
 * costs when nothing is measured.
 *
 *   SVC_BENCH_BASELINE=/tmp/svc-base/bin/svc.js npx tsx bench/run.ts tracing
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { otlpReceiver } from '../test/support/otlp-receiver.js';
import { median, serverStarted, startMemoryServe, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const start = startMemoryServe;

async function load(url: string): Promise<{ rps: number; bad: number; count: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
  return { rps: result.requests.average, bad: result.non2xx + result.errors + result.timeouts, count: result.requests.total };
}

export async function run(): Promise<BenchRow[]> {
  const baselineBin = process.env['SVC_BENCH_BASELINE'];
  const operation = 'daemon: GET /v1/fast-verify/did/<did:key> (cached), autocannon';
  const note = `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each; --memory, access log off`;
  if (!existsSync(cli)) {
    return [{ operation, unit: 'ops/s', svc: null, peer: '—', peerValue: null, goal: null, status: 'not built', note: 'run `npm run build` first' }];
  }
  if (baselineBin !== undefined && !existsSync(baselineBin)) throw new Error(`SVC_BENCH_BASELINE=${baselineBin} does not exist`);

  const receiver = await otlpReceiver({ discard: true });
  const off = start(bin, {});
  const on = start(bin, { SVC_OTEL_ENDPOINT: receiver.url });
  const base = baselineBin ? start(baselineBin, {}) : null;
  try {
    const urls = await Promise.all([serverStarted(off), serverStarted(on), ...(base ? [serverStarted(base)] : [])]);
    const targets = urls.map((url) => `${url}/v1/fast-verify/did/${DID}`);
    for (const target of targets) {
      const first = await fetch(target);
      if (first.status !== 200) throw new Error(`fast-verify answered ${first.status}`);
      await load(target); // warm-up, untimed
    }
    const samples: number[][] = targets.map(() => []);
    let bad = 0;
    let tracedRequests = 0;
    const spansBefore = receiver.count;
    for (let i = 0; i < ROUNDS; i++) {
      for (const [index, target] of targets.entries()) {
        const result = await load(target);
        samples[index]!.push(result.rps);
        bad += result.bad;
        if (index === 1) tracedRequests += result.count;
      }
    }
    if (bad > 0) throw new Error(`${bad} requests failed or were not 2xx under load`);
    // What was sent in the timed rounds reaches the receiver within the exporter's second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const spans = receiver.count - spansBefore;
    if (spans < tracedRequests) throw new Error(`the receiver took ${spans} spans for ${tracedRequests} traced requests`);
    const [offRps, onRps, baseRps] = samples.map((s) => median(s));
    const rows: BenchRow[] = [
      {
        operation: `${operation}, tracing on (loopback OTLP receiver) vs off`,
        unit: 'ops/s',
        svc: onRps!,
        peer: 'the same build, tracing off',
        peerValue: offRps!,
        // No goal: the price of every span of a request (AsyncLocalStorage's promise hooks
        // included), to be read next to what the traces give.
        goal: null,
        status: 'ok',
        note: `${note}; ${(spans / tracedRequests).toFixed(1)} spans per traced request reached the receiver`,
      },
    ];
    if (baseRps !== undefined) {
      rows.push({
        operation: `${operation}, tracing off vs a build without the telemetry seam`,
        unit: 'ops/s',
        svc: offRps!,
        peer: `baseline build (${baselineBin})`,
        peerValue: baseRps,
        goal: { op: '>=', ratio: 0.97 },
        status: 'ok',
        note,
      });
    }
    return rows;
  } finally {
    off.kill('SIGTERM');
    on.kill('SIGTERM');
    base?.kill('SIGTERM');
    await receiver.close();
  }
}
