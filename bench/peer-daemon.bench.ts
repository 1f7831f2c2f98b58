/**
 * svc's daemon against the daemon a team would write itself in an afternoon: Fastify +
 * did-resolver + key-did-resolver + web-did-resolver answering `/1.0/identifiers/:did` (built
 * here from the npm registry's packages, PEER below). autocannon against each, rounds
 * interleaved, at 1, 16 and 64 connections:
 *
 * svc answers on the peer's own route, /1.0/identifiers/:did (the W3C DID Resolution HTTPS
 * binding, which svc serves too), asked for the DID resolution result (application/did-resolution)
 * as the peer returns it: the same request, the same answer, svc's evidence made and recorded
 * all the same. Two more rows show svc's own route, /v1/resolve (the enriched result, some 7x
 * the bytes), at 16 connections. Cases:
 *
 *   did:key, uncached   svc with SVC_CACHE_TTL=0 (each resolution recorded in its SQLite store),
 *                       the peer without its cache; a different DID per request
 *   did:web, uncached   the same; DIDs of one loopback HTTPS origin (the test host, its CA trusted
 *                       by both through NODE_EXTRA_CA_CERTS), cycled
 *   cached              svc's resolution cache on (the default TTL), the peer's `cache: true`;
 *                       a handful of DIDs
 *
 * and, for did:web, the new TLS connections the test host accepted per resolution (goal ≤ 0.01).
 * Needs the built CLI (dist/cli.js). The daemons are child processes on loopback; autocannon and
 * the HTTPS host run in this process, so everything shares the machine's cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startDidWebHost, type DidWebHost } from '../test/support/did-web-host.js';
import { createTestCa } from '../test/support/pki.js';
import { ed25519DidKeys, median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const ROUNDS = Number(process.env['SVC_BENCH_PEER_ROUNDS'] ?? 2);
const SECONDS = Number(process.env['SVC_BENCH_PEER_SECONDS'] ?? 3);
const CONNECTIONS = [1, 16, 64] as const;
const KEY_DIDS = 20_000;
const WEB_DIDS = 2_000;
const CACHED_DIDS = 32;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const PEER_NAME = 'Fastify + did-resolver + key-did-resolver + web-did-resolver';

/**
 * The peer daemon, as its packages' READMEs put it together: one Resolver with both drivers, a
 * Universal-Resolver-style route, the DID resolution result as JSON (404 when not found).
 * PEER_CACHE=on: did-resolver's in-memory cache.
 */
const PEER = `
import Fastify from 'fastify';
import { Resolver } from 'did-resolver';
import KeyResolver from 'key-did-resolver';
import { getResolver as webResolver } from 'web-did-resolver';
const resolver = new Resolver({ ...KeyResolver.getResolver(), ...webResolver() }, { cache: process.env.PEER_CACHE === 'on' });
const app = Fastify({ logger: false });
app.get('/1.0/identifiers/:did', async (request, reply) => {
  const result = await resolver.resolve(request.params.did);
  if (result.didResolutionMetadata.error) reply.code(result.didResolutionMetadata.error === 'notFound' ? 404 : 400);
  return result;
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stderr.write('listening on ' + url + '\\n');
`;

interface Load {
  rps: number;
  completed: number;
  failed: number;
}

/** autocannon at `connections`, each request a path from `paths` (cycled, in order). */
async function load(origin: string, paths: readonly string[], connections: number, headers: Record<string, string> = {}): Promise<Load> {
  let next = 0;
  const result = await autocannon({
    url: origin,
    connections,
    duration: SECONDS,
    pipelining: 1,
    headers,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, completed: result.requests.total - result.non2xx, failed };
}

/** svc's own answer: the enriched resolution (evidence, dimensions, verdict, the document). */
function svcPath(did: string): string {
  return `/v1/resolve/${encodeURIComponent(did)}`;
}

/**
 * The peer's route, served by svc too (the W3C DID Resolution HTTPS binding): the same request
 * and the same answer — the DID resolution result — for the rows held to a goal.
 */
const W3C_HEADERS = { accept: 'application/did-resolution' };

function peerPath(did: string): string {
  return `/1.0/identifiers/${encodeURIComponent(did)}`;
}

async function spawnServer(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    return { child, url: await serverStarted(child) };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}

interface Case {
  label: string;
  method: 'key' | 'web';
  cached: boolean;
  dids: readonly string[];
  /** svc in memory (no SQLite recording): what the fetch path costs without the store's. */
  memory?: boolean;
  /** svc answers on /v1/resolve (its enriched result, some 7x the bytes) instead of the peer's route. */
  enriched?: boolean;
  connections?: readonly number[];
}

export async function run(): Promise<BenchRow[]> {
  if (!existsSync(cli)) {
    return [
      {
        operation: 'daemon vs peer daemon',
        unit: 'ops/s',
        svc: null,
        peer: PEER_NAME,
        peerValue: null,
        goal: null,
        status: 'not built',
        note: 'run `npm run build` first',
      },
    ];
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-peer-'));
  const ca = createTestCa();
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  let host: DidWebHost | undefined;
  const children: ChildProcess[] = [];
  try {
    host = await startDidWebHost({ ca, keepAliveTimeoutMs: 60_000 });
    const webDids = Array.from({ length: WEB_DIDS }, (_, i) => host!.did('u', `${i}`));
    for (const did of webDids) host.publish(did);
    const keyDids = await ed25519DidKeys(KEY_DIDS);

    // Both trust the test CA the way production does (NODE_EXTRA_CA_CERTS); svc may reach loopback.
    const base = { ...plainEnv(), NODE_EXTRA_CA_CERTS: caFile };
    // Capacity above the 64 connections: at exactly 64 slots, a connection's next request can
    // arrive before the previous one's slot is released, and is refused (503), which the peer never does.
    const svcEnv = {
      ...base,
      SVC_RATE_LIMIT_PER_MIN: '1000000',
      SVC_MAX_CONCURRENCY: '256',
      SVC_EGRESS_ALLOW: '127.0.0.0/8',
      SVC_ACCESS_LOG: 'off',
    };
    const start = async (args: string[], env: NodeJS.ProcessEnv) => {
      const server = await spawnServer(args, env);
      children.push(server.child);
      return server.url;
    };
    const [svcUncached, svcMemory, svcCached, peerUncached, peerCached] = await Promise.all([
      start([bin, 'serve', '--port', '0'], { ...svcEnv, SVC_CACHE_TTL: '0', XDG_STATE_HOME: mkdtempSync(path.join(dir, 'state-')) }),
      start([bin, 'serve', '--port', '0', '--memory'], { ...svcEnv, SVC_CACHE_TTL: '0', XDG_STATE_HOME: mkdtempSync(path.join(dir, 'state-')) }),
      start([bin, 'serve', '--port', '0'], { ...svcEnv, XDG_STATE_HOME: mkdtempSync(path.join(dir, 'state-')) }),
      start(['--input-type=module', '-e', PEER], { ...base, PEER_CACHE: 'off' }),
      start(['--input-type=module', '-e', PEER], { ...base, PEER_CACHE: 'on' }),
    ]);

    // Both answer the same DIDs before anything is measured, svc on both of its routes.
    for (const did of [keyDids[0]!, webDids[0]!]) {
      const b = await fetch(`${peerUncached}${peerPath(did)}`);
      const peerDoc = ((await b.json()) as { didDocument?: { id?: string } }).didDocument;
      for (const [route, headers] of [
        [svcPath(did), {}],
        [peerPath(did), W3C_HEADERS],
      ] as const) {
        const a = await fetch(`${svcUncached}${route}`, { headers });
        const doc = ((await a.json()) as { didDocument?: { id?: string } }).didDocument;
        if (a.status !== 200 || b.status !== 200 || doc?.id !== did || peerDoc?.id !== did) {
          throw new Error(`${did}: svc answered ${a.status} (${doc?.id}) on ${route}, the peer ${b.status} (${peerDoc?.id})`);
        }
      }
    }

    const cases: Case[] = [
      { label: 'did:key, uncached', method: 'key', cached: false, dids: keyDids },
      { label: 'did:web, uncached', method: 'web', cached: false, dids: webDids },
      { label: "did:key, uncached, svc's /v1/resolve", method: 'key', cached: false, dids: keyDids, enriched: true, connections: [16] },
      { label: "did:web, uncached, svc's /v1/resolve", method: 'web', cached: false, dids: webDids, enriched: true, connections: [16] },
      { label: 'did:web, uncached, svc --memory', method: 'web', cached: false, dids: webDids, memory: true, connections: [16, 64] },
      { label: 'did:key, cached', method: 'key', cached: true, dids: keyDids.slice(0, CACHED_DIDS) },
      { label: 'did:web, cached', method: 'web', cached: true, dids: webDids.slice(0, CACHED_DIDS) },
    ];
    const rows: BenchRow[] = [];
    for (const c of cases) {
      const svcUrl = c.cached ? svcCached : c.memory ? svcMemory : svcUncached;
      const peerUrl = c.cached ? peerCached : peerUncached;
      const svcPaths = c.dids.map(c.enriched ? svcPath : peerPath);
      const svcHeaders = c.enriched ? {} : W3C_HEADERS;
      const peerPaths = c.dids.map(peerPath);
      for (const connections of c.connections ?? CONNECTIONS) {
        const svc: number[] = [];
        const peer: number[] = [];
        let failed = 0;
        let svcResolutions = 0;
        let svcHandshakes = 0;
        let peerResolutions = 0;
        let peerHandshakes = 0;
        // Warm-up, untimed: connections opened, code paths compiled.
        await load(svcUrl, svcPaths, connections, svcHeaders);
        await load(peerUrl, peerPaths, connections);
        for (let round = 0; round < ROUNDS; round++) {
          let before = host.server.connections;
          const s = await load(svcUrl, svcPaths, connections, svcHeaders);
          svcHandshakes += host.server.connections - before;
          before = host.server.connections;
          const p = await load(peerUrl, peerPaths, connections);
          peerHandshakes += host.server.connections - before;
          svc.push(s.rps);
          peer.push(p.rps);
          svcResolutions += s.completed;
          peerResolutions += p.completed;
          failed += s.failed + p.failed;
        }
        const goal = !c.cached && !c.memory && !c.enriched && connections > 1 ? { op: '>=' as const, ratio: 1.0 } : null;
        rows.push({
          operation: `daemon vs peer daemon: ${c.label}, ${connections} connection${connections === 1 ? '' : 's'}`,
          unit: 'ops/s',
          svc: median(svc),
          peer: PEER_NAME,
          peerValue: median(peer),
          goal,
          status: failed > 0 ? 'error' : 'ok',
          note:
            `${ROUNDS} interleaved rounds of ${SECONDS} s after a warm-up; ${c.dids.length} DIDs cycled` +
            (failed > 0 ? `; ${failed} requests failed or were not 2xx` : ''),
          samples: { svc, peer },
        });
        if (c.method === 'web') {
          rows.push({
            operation: `daemon vs peer daemon: ${c.label}, ${connections} connection${connections === 1 ? '' : 's'}: new TLS connections per resolution`,
            unit: 'per op',
            svc: svcResolutions > 0 ? svcHandshakes / svcResolutions : null,
            peer: PEER_NAME,
            peerValue: peerResolutions > 0 ? peerHandshakes / peerResolutions : null,
            goal: c.cached || c.memory || c.enriched ? null : { op: '<=', ratio: 0.01, absolute: true },
            status: 'ok',
            // autocannon closes its connections at the end of a round; svc cancels the resolutions
            // of a client that left, fetches and their connections included (the peer lets them
            // run on), so up to `connections` new ones per round are that, not the pool.
            note: `connections the test host accepted during the timed rounds ÷ 2xx answers (svc ${svcHandshakes} / ${svcResolutions}, the peer ${peerHandshakes} / ${peerResolutions})`,
          });
        }
      }
    }
    return rows;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
