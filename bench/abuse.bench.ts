/**
 * The daemon under a body flood: one client floods POST /v1/credentials/verify with
 * 500 KiB malformed JSON bodies on 8 connections, at the default direct budget (120/min), while
 * a second and third client measure `/health` and `/v1/fast-verify/did/<did:key>` (cached)
 * latency. The same probes without the flood, in the same run, are the baseline: goal p99 under
 * the flood within 2× of the quiet figure.
 *
 * The flooder is a child process of its own (so its writes do not share the probe's event
 * loop); clients are told apart by their loopback source address (127.0.0.1 floods, 127.0.0.2
 * and 127.0.0.3 probe). Needs the built CLI (dist/cli.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { percentile, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
/** /health is not budgeted; the verdict probes stay inside one client's 120/min. */
const HEALTH_PROBES = 200;
const VERDICT_PROBES = 100;
const CONNECTIONS = 8;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** The flooder: 8 connections, each sending one 500 KiB malformed body after another. */
const FLOOD = `
import net from 'node:net';
const [port, connections] = [Number(process.argv[1]), Number(process.argv[2])];
const body = '{"credential": ' + '['.repeat(Number(process.env.FLOOD_BYTES ?? 500 * 1024) - 20);
const head = 'POST /v1/credentials/verify HTTP/1.1\\r\\nHost: svc\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n';
let sent = 0, answered = 0, limited = 0;
function loop() {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (c) => { text += c; });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (text.startsWith('HTTP/1.1 ')) { answered++; if (text.startsWith('HTTP/1.1 429')) limited++; }
    setImmediate(loop);
  });
  socket.write(head);
  socket.end(body);
  sent++;
}
for (let i = 0; i < connections; i++) loop();
setInterval(() => process.stderr.write(JSON.stringify({ sent, answered, limited }) + '\\n'), 500);
`;

/** One GET from `localAddress` on a kept-alive agent; its latency in ms. */
function timedGet(url: string, agent: http.Agent): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${url} answered ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

async function probe(url: string, localAddress: string, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, localAddress } as http.AgentOptions & { localAddress: string });
  try {
    await timedGet(url, agent); // connection set up, untimed
    const samples: number[] = [];
    for (let i = 0; i < count; i++) samples.push(await timedGet(url, agent));
    return samples;
  } finally {
    agent.destroy();
  }
}

export async function run(): Promise<BenchRow[]> {
  const operations = ['/health p50', '/health p99', 'second client /v1/fast-verify/did p50', 'second client /v1/fast-verify/did p99'];
  const rowsOf = (flood: number[] | null, quiet: number[] | null, note: string): BenchRow[] =>
    operations.map((op, i) => ({
      operation: `daemon under a 500 KiB body flood (8 connections): ${op}`,
      unit: 'ms',
      svc: flood?.[i] ?? null,
      peer: 'same probe, no flood',
      peerValue: quiet?.[i] ?? null,
      goal: op.endsWith('p99') ? { op: '<=', ratio: 2 } : null,
      status: flood === null ? 'not built' : 'ok',
      note,
    }));
  if (!existsSync(cli)) return rowsOf(null, null, 'run `npm run build` first');

  // The default direct budget (120/min) and the access log on, as an operator runs it.
  const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: undefined, SVC_ACCESS_LOG: 'json' };
  const daemon = spawn(process.execPath, [bin, 'serve', '--port', '0', '--memory'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let flooder: ChildProcess | null = null;
  try {
    const url = await serverStarted(daemon);
    const port = Number(new URL(url).port);
    const figures = async (probeAddress: string) => {
      const health = await probe(`${url}/health`, probeAddress, HEALTH_PROBES);
      const verdict = await probe(`${url}/v1/fast-verify/did/${DID}`, probeAddress, VERDICT_PROBES);
      return [percentile(health, 0.5), percentile(health, 0.99), percentile(verdict, 0.5), percentile(verdict, 0.99)];
    };
    await figures('127.0.0.4'); // warm-up (JIT, the cached verdict), untimed
    const quiet = await figures('127.0.0.2');

    flooder = spawn(process.execPath, ['--input-type=module', '-e', FLOOD, String(port), String(CONNECTIONS)], {
      cwd: root,
      env: plainEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let last = { sent: 0, answered: 0, limited: 0 };
    flooder.stderr!.setEncoding('utf8');
    flooder.stderr!.on('data', (chunk: string) => {
      const line = chunk.trim().split('\n').at(-1);
      try {
        if (line) last = JSON.parse(line) as typeof last;
      } catch {
        // a partial line; the next one will do
      }
    });
    await new Promise((r) => setTimeout(r, 1_500)); // the flood under way, its budget used up
    const flood = await figures('127.0.0.3');
    return rowsOf(
      flood,
      quiet,
      `${HEALTH_PROBES} /health and ${VERDICT_PROBES} fast-verify sequential probes on a kept-alive connection; the flooder sent ${last.sent} bodies, ${last.answered} answered (${last.limited} of them 429 before their body was read)`,
    );
  } finally {
    flooder?.kill('SIGKILL');
    daemon.kill('SIGKILL');
  }
}
