/**
 * The daemon under a body flood: one client floods POST /v1/credentials/verify with
 * 500 KiB malformed JSON bodies on 8 connections, at the default direct budget (120/min), while
 * other clients measure `/health` and `/v1/fast-verify/did/<did:key>` (cached) latency. The same
 * probes without the flood, in the same run, are the baseline: goal p99 under the flood within
 * 2× of the quiet figure.
 *
 * Quiet and flood rounds alternate (the flooder stopped with SIGSTOP and let go with SIGCONT),
 * so that the machine's own noise falls on both sides, and each side's p99 is read from all its
 * rounds' samples together (a p99 of 100 samples is their largest but one). The first quiet
 * round runs before the flood ever starts; each later one after a pause for the last flood's
 * connections to be answered and closed.
 *
 * The flooder is a child process of its own (so its writes do not share the probe's event
 * loop); clients are told apart by their loopback source address (127.0.0.1 floods; each probe
 * round its own address, so that the verdict probes stay inside one client's budget). Needs the
 * built CLI (dist/cli.js).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { percentile, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
/** /health is not budgeted; the verdict probes stay inside one client's 120/min. */
const HEALTH_PROBES = 200;
const VERDICT_PROBES = 100;
const CONNECTIONS = 8;
/** Quiet and flood rounds, alternating. */
const ROUNDS = 4;
/** After the flooder is stopped or let go, before a round's probes. */
const SETTLE_MS = 400;

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
const report = () => process.stderr.write(JSON.stringify({ sent, answered, limited }) + '\\n');
setInterval(report, 500);
process.stdin.on('data', report);
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

/** User and system CPU of a process so far, ms (Linux /proc); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return null;
  }
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
    const samples = async (probeAddress: string, into: { health: number[]; verdict: number[] }) => {
      into.health.push(...(await probe(`${url}/health`, probeAddress, HEALTH_PROBES)));
      into.verdict.push(...(await probe(`${url}/v1/fast-verify/did/${DID}`, probeAddress, VERDICT_PROBES)));
    };
    const figures = ({ health, verdict }: { health: number[]; verdict: number[] }) => [
      percentile(health, 0.5),
      percentile(health, 0.99),
      percentile(verdict, 0.5),
      percentile(verdict, 0.99),
    ];
    const quiet = { health: [] as number[], verdict: [] as number[] };
    const flood = { health: [] as number[], verdict: [] as number[] };
    await samples('127.0.0.4', { health: [], verdict: [] }); // warm-up (JIT, the cached verdict), untimed
    await samples('127.0.0.10', quiet);

    flooder = spawn(process.execPath, ['--input-type=module', '-e', FLOOD, String(port), String(CONNECTIONS)], {
      cwd: root,
      env: plainEnv(),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let last = { sent: 0, answered: 0, limited: 0 };
    let reported: (() => void) | null = null;
    flooder.stderr!.setEncoding('utf8');
    flooder.stderr!.on('data', (chunk: string) => {
      const line = chunk.trim().split('\n').at(-1);
      try {
        if (line) last = JSON.parse(line) as typeof last;
        reported?.();
      } catch {
        // a partial line; the next one will do
      }
    });
    const counts = async () => {
      await new Promise<void>((r) => {
        reported = r;
        flooder!.stdin!.write('\n');
      });
      reported = null;
      return last;
    };
    const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
    await new Promise((r) => setTimeout(r, 1_500)); // the flood under way, its budget used up
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        flooder.kill('SIGCONT');
        await settle();
      }
      await samples(`127.0.0.${20 + round}`, flood);
      flooder.kill('SIGSTOP');
      if (round < ROUNDS - 1) {
        await settle();
        await samples(`127.0.0.${11 + round}`, quiet);
      }
    }
    // The daemon's CPU per flood request, the flood alone (no probes): what one refusal costs it.
    flooder.kill('SIGCONT');
    await settle();
    const before = { cpu: cpuMs(daemon.pid), ...(await counts()) };
    await new Promise((r) => setTimeout(r, 1_000));
    const after = { cpu: cpuMs(daemon.pid), ...(await counts()) };
    const answered = after.answered - before.answered;
    const perRequest = before.cpu !== null && after.cpu !== null && answered > 0 ? (after.cpu - before.cpu) / answered : null;
    const note = `${ROUNDS} flood and ${ROUNDS} quiet rounds, alternating, each ${HEALTH_PROBES} /health and ${VERDICT_PROBES} fast-verify sequential probes on a kept-alive connection (p99 of all rounds' samples); the flooder sent ${after.sent} bodies, ${after.answered} answered (${after.limited} of them 429 before their body was read)`;
    return [
      ...rowsOf(figures(flood), figures(quiet), note),
      {
        operation: 'daemon under a 500 KiB body flood (8 connections): its CPU per flood request answered, the flood alone',
        unit: 'ms',
        svc: perRequest,
        peer: 'no peer (what one refusal costs the daemon)',
        peerValue: null,
        goal: null,
        status: perRequest === null ? 'not built' : 'ok',
        note: `${answered} flood requests answered in 1 s (${after.limited - before.limited} of them 429); CPU from /proc`,
      },
    ];
  } finally {
    flooder?.kill('SIGKILL');
    daemon.kill('SIGKILL');
  }
}
