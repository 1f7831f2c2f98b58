/**
 * The web dossier: the server's render time of /d/<did:key> (cached) next to
 * /v1/resolve/<did:key> JSON, in one run, requests interleaved — over HTTP against `svc serve`
 * (median latency of sequential requests on one connection) and in this process (the page built
 * from a cached result next to the result serialised with its response schema, as the daemon
 * does); and the JavaScript and CSS a browser downloads, gzipped as the daemon serves them.
 *
 * Needs the built CLI (dist/cli.js and dist/web/).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import Type from 'typebox';
import { fileURLToPath } from 'node:url';
import { resolve } from '../src/core/resolve/resolve.js';
import { createRuntime } from '../src/index.js';
import { schemaCompilers } from '../src/server/compilers.js';
import { ALL_SCHEMAS } from '../src/server/schemas/index.js';
import { webAssets } from '../src/web/assets.js';
import { dossierPage } from '../src/web/dossier.js';
import { median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 5;
const PER_ROUND = 200;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const built = fileURLToPath(new URL('../dist/web/dossier.css', import.meta.url));

async function timed(url: string, accept: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { accept, 'accept-encoding': 'identity' } });
  await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

/** Median ms per request of each URL, PER_ROUND requests of one then the other, ROUNDS times. */
async function latencies(page: string, json: string): Promise<{ page: number[]; json: number[]; pageBytes: number; jsonBytes: number }> {
  const out = { page: [] as number[], json: [] as number[], pageBytes: 0, jsonBytes: 0 };
  out.pageBytes = Buffer.byteLength(await (await fetch(page)).text());
  out.jsonBytes = Buffer.byteLength(await (await fetch(json)).text());
  for (let i = 0; i < 50; i++) await Promise.all([timed(page, 'text/html'), timed(json, 'application/json')]); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    const p: number[] = [];
    const j: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      p.push(await timed(page, 'text/html'));
      j.push(await timed(json, 'application/json'));
    }
    out.page.push(median(p));
    out.json.push(median(j));
  }
  return out;
}

/**
 * In this process, ms per page: built from fresh result objects (every part rendered), and from
 * the cached one (the parts kept per result object, only the time machine rendered); and per
 * serialisation of the result with its response schema.
 */
async function inProcess(): Promise<{ fresh: number[]; kept: number[]; json: number[] }> {
  const runtime = createRuntime(plainEnv());
  await resolve(DID, runtime);
  const result = await resolve(DID, runtime); // the cached, frozen result
  const serialize = schemaCompilers(ALL_SCHEMAS).serializerCompiler({
    schema: Type.Ref('EnrichedResolution'),
    method: 'GET',
    url: '/v1/resolve/*',
    httpStatus: '200',
  }) as (data: unknown) => string;
  const timeMachine = { history: null, diff: null, selected: null, unavailable: 'not recorded' };
  const out = { fresh: [] as number[], kept: [] as number[], json: [] as number[] };
  const N = 300;
  for (let s = 0; s < 7; s++) {
    const copies = Array.from({ length: N }, () => structuredClone(result));
    let t0 = performance.now();
    for (const copy of copies) dossierPage({ result: copy, timeMachine, mode: 'served' });
    out.fresh.push((performance.now() - t0) / N);
    t0 = performance.now();
    for (let i = 0; i < N; i++) dossierPage({ result, timeMachine, mode: 'served' });
    out.kept.push((performance.now() - t0) / N);
    t0 = performance.now();
    for (let i = 0; i < N; i++) serialize(result);
    out.json.push((performance.now() - t0) / N);
  }
  return { fresh: out.fresh.slice(2), kept: out.kept.slice(2), json: out.json.slice(2) };
}

export async function run(): Promise<BenchRow[]> {
  if (!existsSync(built)) {
    return [
      { operation: 'web dossier', unit: 'ms', svc: null, peer: '—', peerValue: null, goal: null, status: 'not built', note: 'run `npm run build` first' },
    ];
  }
  const { css, js, claim } = webAssets();
  const kb = (n: number) => n / 1024;
  const assetRows: BenchRow[] = [
    {
      operation: 'web: JavaScript + CSS shipped to a browser, gzipped',
      unit: 'KB',
      svc: kb(css.gzip.length + js.gzip.length + claim.gzip.length),
      peer: '—',
      peerValue: null,
      goal: { op: '<=', ratio: 60, absolute: true },
      status: 'ok',
      note: `dossier.css ${kb(css.body.length).toFixed(1)} KB (${kb(css.gzip.length).toFixed(1)} KB gzipped), live.js ${kb(js.body.length).toFixed(1)} KB (${kb(js.gzip.length).toFixed(1)} KB gzipped), claim.js ${kb(claim.body.length).toFixed(1)} KB (${kb(claim.gzip.length).toFixed(1)} KB gzipped); no font, no framework, no third-party origin`,
    },
  ];

  const own = await inProcess();
  const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_ACCESS_LOG: 'off' };
  const daemon = spawn(process.execPath, [bin, 'serve', '--port', '0', '--memory'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await serverStarted(daemon);
    const http = await latencies(`${url}/d/${DID}`, `${url}/v1/resolve/${DID}`);
    return [
      {
        operation: 'daemon: GET /d/<did:key> (cached), median latency',
        unit: 'ms',
        svc: median(http.page),
        peer: 'GET /v1/resolve/<did:key> JSON',
        peerValue: median(http.json),
        goal: { op: '<=', ratio: 2 },
        status: 'ok',
        note: `sequential requests on loopback, ${ROUNDS} interleaved rounds of ${PER_ROUND} each; the page is ${http.pageBytes} bytes of HTML (its levels kept per cached result; the time machine read from the store and rendered on every request), the JSON ${http.jsonBytes} bytes (serialised once and kept)`,
        samples: { svc: http.page, peer: http.json },
      },
      {
        operation: 'build the dossier page of a fresh did:key result (in process)',
        unit: 'ms',
        svc: median(own.fresh),
        peer: 'serialise the result with its response schema',
        peerValue: median(own.json),
        goal: null,
        status: 'ok',
        note: 'every level rendered (the SVG graph, the inspector, the trace); 5 samples of 300 after 2 warm-up samples, without HTTP',
        samples: { svc: own.fresh, peer: own.json },
      },
      {
        operation: 'build the dossier page of the cached did:key result (in process)',
        unit: 'ms',
        svc: median(own.kept),
        peer: 'serialise the result with its response schema',
        peerValue: median(own.json),
        goal: null,
        status: 'ok',
        note: 'all but the time machine is kept per (frozen) result object, as the daemon does for cache hits',
        samples: { svc: own.kept, peer: own.json },
      },
      ...assetRows,
    ];
  } finally {
    daemon.kill('SIGTERM');
  }
}
