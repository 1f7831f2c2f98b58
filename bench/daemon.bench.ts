/**
 * The daemon under load: autocannon against `svc serve`'s /v1/fast-verify/did/<did:key> (a
 * cached verdict, so this measures the HTTP path: routing, budgets, headers, serialisation),
 * against /v1/resolve/<did:key> (the cached, full EnrichedResolution: its bytes, made once with
 * JSON.stringify and kept beside the cached result) and against a bare Fastify route in a separate
 * process, in the same run, rounds interleaved. Also what serialising the full result with its
 * schema (fast-json-stringify, as the daemon did before it wrote this result with JSON.stringify)
 * costs next to JSON.stringify, in this process; and the daemon's resident
 * memory idle and at its peak under load (goal ≤ 120 MB idle).
 *
 * Needs the built CLI (dist/cli.js). Both servers are child processes on loopback; autocannon
 * runs in this process, so all three share the machine's cores.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import Type from 'typebox';
import { resolve } from '../src/core/resolve/resolve.js';
import { createRuntime } from '../src/index.js';
import { schemaCompilers } from '../src/server/compilers.js';
import { ALL_SCHEMAS } from '../src/server/schemas/index.js';
import { median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** The peer: Fastify with one JSON route and nothing else, as its docs start. */
const BARE = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true, did: ${JSON.stringify(DID)} }));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stderr.write('listening on ' + url + '\\n');
`;

/** Resident set size of a process, MB (Linux /proc). */
function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function load(url: string): Promise<{ rps: number; non2xx: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
  return { rps: result.requests.average, non2xx: result.non2xx + result.errors + result.timeouts };
}

/**
 * Serialisations of one full EnrichedResolution per second: with its response schema
 * (fast-json-stringify, compiled once), and with JSON.stringify as the daemon writes it, samples
 * interleaved. Both must give the same JSON value, or the figures mean nothing.
 */
async function serialisation(): Promise<{ schema: number; plain: number; bytes: number }> {
  const { serializerCompiler } = schemaCompilers(ALL_SCHEMAS);
  const withSchema = serializerCompiler({ schema: Type.Ref('EnrichedResolution'), method: 'GET', url: '/v1/resolve/*', httpStatus: '200' }) as (
    data: unknown,
  ) => string;
  const result = await resolve(DID, createRuntime());
  const a = withSchema(result);
  const b = JSON.stringify(result);
  if (!isDeepStrictEqual(JSON.parse(a), JSON.parse(b))) {
    throw new Error('the schema serialisation of the result differs from JSON.stringify');
  }
  const rate = (f: () => string) => {
    const n = 4000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    return (n / (performance.now() - t0)) * 1000;
  };
  const schema: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < 7; i++) {
    schema.push(rate(() => withSchema(result)));
    plain.push(rate(() => JSON.stringify(result)));
  }
  return { schema: median(schema.slice(2)), plain: median(plain.slice(2)), bytes: Buffer.byteLength(b) };
}

export async function run(): Promise<BenchRow[]> {
  const rows = (svc: number | null, peerValue: number | null, note: string): BenchRow[] => [
    {
      operation: 'daemon: GET /v1/fast-verify/did/<did:key> (cached), autocannon',
      unit: 'ops/s',
      svc,
      peer: 'bare Fastify route',
      peerValue,
      goal: { op: '>=', ratio: 0.5 },
      status: svc === null ? 'not built' : 'ok',
      note,
    },
  ];
  if (!existsSync(cli)) return rows(null, null, 'run `npm run build` first');

  const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000' };
  const daemon = spawn(process.execPath, [bin, 'serve', '--port', '0', '--memory'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const bare = spawn(process.execPath, ['--input-type=module', '-e', BARE], { cwd: root, env: plainEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const [svcUrl, bareUrl] = await Promise.all([serverStarted(daemon), serverStarted(bare)]);
    const target = `${svcUrl}/v1/fast-verify/did/${DID}`;
    const first = await fetch(target);
    const body = (await first.json()) as { did?: string; cached?: boolean };
    if (first.status !== 200 || body.did !== DID) throw new Error(`fast-verify answered ${first.status}`);
    const full = `${svcUrl}/v1/resolve/${DID}`;
    const resolved = await fetch(full);
    const fullBytes = Buffer.byteLength(await resolved.text());
    if (resolved.status !== 200) throw new Error(`resolve answered ${resolved.status}`);
    // Idle: after start and one request, with a moment to settle.
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssMb(daemon.pid!);
    const bareIdle = rssMb(bare.pid!);

    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(daemon.pid!) ?? 0);
    }, 100);
    const svcRps: number[] = [];
    const fullRps: number[] = [];
    const bareRps: number[] = [];
    let failures = 0;
    await load(`${bareUrl}/bare`); // warm-up, untimed
    await load(target);
    await load(full);
    for (let i = 0; i < ROUNDS; i++) {
      const b = await load(`${bareUrl}/bare`);
      const s = await load(target);
      const f = await load(full);
      bareRps.push(b.rps);
      svcRps.push(s.rps);
      fullRps.push(f.rps);
      failures += b.non2xx + s.non2xx + f.non2xx;
    }
    clearInterval(sampler);
    if (failures > 0) throw new Error(`${failures} requests failed or were not 2xx under load`);

    const bytes = Buffer.byteLength(JSON.stringify(body));
    const serialised = await serialisation();
    return [
      ...rows(
        median(svcRps),
        median(bareRps),
        `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s; svc answers ${bytes} bytes of JSON with budgets, CORS and security headers, the bare route 90 bytes`,
      ),
      {
        operation: 'daemon: GET /v1/resolve/<did:key> (cached, full result), autocannon',
        unit: 'ops/s',
        svc: median(fullRps),
        peer: 'bare Fastify route',
        peerValue: median(bareRps),
        goal: null,
        status: 'ok',
        note: `the same rounds; svc answers the ${fullBytes}-byte EnrichedResolution, its bytes kept beside the cached result (made once)`,
      },
      {
        operation: 'serialise an EnrichedResolution (did:key) with its response schema',
        unit: 'ops/s',
        svc: serialised.schema,
        peer: 'JSON.stringify',
        peerValue: serialised.plain,
        goal: null,
        status: 'ok',
        note: `the daemon's own serializer compiler (fast-json-stringify from the route schema); ${serialised.bytes} bytes; in this process, 5 interleaved samples of 4000`,
      },
      {
        operation: 'daemon: resident memory, idle',
        unit: 'MB',
        svc: idle,
        peer: 'bare Fastify process',
        peerValue: bareIdle,
        goal: { op: '<=', ratio: 120, absolute: true },
        status: 'ok',
      },
      {
        operation: 'daemon: resident memory, peak under load',
        unit: 'MB',
        svc: peak || null,
        peer: '—',
        peerValue: null,
        goal: null,
        status: 'ok',
      },
    ];
  } finally {
    daemon.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
}
