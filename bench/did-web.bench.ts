/**
 * did:web resolution latency against a loopback HTTPS host: svc's `resolve()` next to the
 * reference peer, did-resolver's `Resolver` with web-did-resolver's driver, in the same process,
 * on the same hosts, in the same run.
 *
 * Two did:web hosts (real HTTPS servers on 127.0.0.1, one throw-away CA, `test/support`):
 *
 *  - "plain" serves only the DID document; svc's domain-binding fetch of
 *    `/.well-known/did-configuration.json` gets a 404 (NOT_CONFIGURED);
 *  - "bound" also serves a DID configuration with an eddsa-jcs-2022 DomainLinkageCredential for
 *    its origin, which svc fetches beside the document and verifies (VERIFIED).
 *
 * The peer fetches only the document (it never looks at the configuration). Sides, interleaved
 * sequentially with a rotating order (so noise hits all of them): svc and the peer on each host,
 * plus the peer on a fresh TLS connection per request (no keep-alive, no TLS session reuse), to
 * separate connection cost from checking cost. Every answer is checked: svc RESOLVED with TLS evidence, peer address
 * 127.0.0.1 and the expected domain-binding status; the peer with a document and no error.
 *
 * Trust: both sides trust the test CA the way production takes extra anchors, through
 * NODE_EXTRA_CA_CERTS, which Node reads only at start-up; so `run()` issues the CA and the
 * server's certificate, writes them to a temporary directory and measures in a child process
 * (this same file) started with NODE_EXTRA_CA_CERTS. Not `host.runtime()`'s `trustAnchors`:
 * that test seam is not what production runs (it builds its own SecureContext from Node's ~140
 * roots plus the CA), and it cannot reach the peer.
 */
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Resolver, type DIDResolutionResult, type ResolverRegistry } from 'did-resolver';
import { getResolver } from 'web-did-resolver';
import { resolve } from '../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../src/core/resolve/types.js';
import type { Runtime } from '../src/core/runtime.js';
import { CONNECTION_POOL } from '../src/net/fetch.js';
import { startDidWebHost, type DidWebHost } from '../test/support/did-web-host.js';
import { json, type TestHttpsServer } from '../test/support/https-server.js';
import { createTestCa, type CertifiedKey, type TestCa } from '../test/support/pki.js';
import { didConfiguration, linkageCredentialDi } from '../test/support/signing.js';
import { median, percentile, plainEnv, type BenchRow } from './lib.js';

const WARMUP_ROUNDS = 30;
const ROUNDS = 300;
const IN_FLIGHT = 8;
const THROUGHPUT_WARMUP_MS = 300;
const THROUGHPUT_SAMPLE_MS = 400;
const THROUGHPUT_SAMPLES = 5;
const CHILD_TIMEOUT_MS = 120_000;

const PEER = 'did-resolver + web-did-resolver';
const CONFIG_PATH = '/.well-known/did-configuration.json';
const CHILD_FLAG = 'SVC_BENCH_DID_WEB_CHILD';
const ROWS_MARKER = '@@svc-bench-rows ';

// ---------------------------------------------------------------------------------------------
// Parent: issue the PKI, run the measurement in a child that trusts the CA via NODE_EXTRA_CA_CERTS
// ---------------------------------------------------------------------------------------------

interface PkiFiles {
  ca: { name: string; certPem: string; keyPem: string; subjectDer: string };
  leaf: { certPem: string; keyPem: string };
}

export async function run(): Promise<BenchRow[]> {
  const ca = createTestCa('svc bench CA');
  // The certificate startDidWebHost asks for: localhost and 127.0.0.1.
  const leaf = ca.issue({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-did-web-'));
  try {
    const caFile = join(dir, 'ca.pem');
    const pkiFile = join(dir, 'pki.json');
    writeFileSync(caFile, ca.certPem);
    const pki: PkiFiles = {
      ca: { name: ca.name, certPem: ca.certPem, keyPem: ca.keyPem, subjectDer: Buffer.from(ca.subjectDer).toString('base64') },
      leaf: { certPem: leaf.certPem, keyPem: leaf.keyPem },
    };
    writeFileSync(pkiFile, JSON.stringify(pki));
    return await runChild({ NODE_EXTRA_CA_CERTS: caFile, [CHILD_FLAG]: pkiFile });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(extraEnv: Record<string, string>): Promise<BenchRow[]> {
  const file = fileURLToPath(import.meta.url);
  const root = fileURLToPath(new URL('..', import.meta.url));
  return new Promise<BenchRow[]>((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...plainEnv(), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let lastErr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      lastErr = (lastErr + chunk).slice(-2000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(ROWS_MARKER));
      if (code !== 0 || line === undefined) {
        const why = lastErr.trim().split('\n').filter(Boolean).pop() ?? '';
        fail(new Error(`the did:web measurement process ended with ${signal ?? `exit ${code}`}${why ? `: ${why}` : ''}`));
        return;
      }
      done(JSON.parse(line.slice(ROWS_MARKER.length)) as BenchRow[]);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Child: hosts, sides, measurement
// ---------------------------------------------------------------------------------------------

/** The parent's CA; `issue` hands out the leaf the parent already issued for localhost/127.0.0.1. */
function restoreCa(pki: PkiFiles): TestCa {
  const leaf: CertifiedKey = { ...pki.leaf, cert: new X509Certificate(pki.leaf.certPem) };
  return {
    name: pki.ca.name,
    certPem: pki.ca.certPem,
    keyPem: pki.ca.keyPem,
    cert: new X509Certificate(pki.ca.certPem),
    subjectDer: new Uint8Array(Buffer.from(pki.ca.subjectDer, 'base64')),
    issue: () => leaf,
  };
}

interface Side {
  name: string;
  server: TestHttpsServer;
  /** Per-resolution latency of the timed rounds, ms. */
  ms: number[];
  calls: number;
  /** New TCP connections the server accepted during this side's calls (warm-up included). */
  connections: number;
  /** One resolution, checked; returns its latency in ms (the check is not timed). */
  once(): Promise<number>;
}

function side<T>(name: string, server: TestHttpsServer, op: () => Promise<T>, check: (result: T) => void): Side {
  const s: Side = {
    name,
    server,
    ms: [],
    calls: 0,
    connections: 0,
    async once() {
      const before = server.connections;
      const start = performance.now();
      const result = await op();
      const ms = performance.now() - start;
      s.connections += server.connections - before;
      s.calls++;
      check(result);
      return ms;
    },
  };
  return s;
}

function checkSvc(did: string, binding: 'NOT_CONFIGURED' | 'VERIFIED', r: EnrichedResolution): void {
  if (!r?.didDocument || r.didDocument.id !== did) throw new Error(`svc returned no document for ${did}`);
  if (r.verdict.outcome !== 'RESOLVED') throw new Error(`svc: ${did} → ${r.verdict.outcome}: ${r.verdict.headline}`);
  if (!r.evidence.tls) throw new Error(`svc: no TLS evidence for ${did}`);
  if (r.evidence.source.peerAddress !== '127.0.0.1') throw new Error(`svc: peer address ${String(r.evidence.source.peerAddress)}, not 127.0.0.1`);
  const status = r.evidence.domainBinding?.status;
  if (status !== binding) throw new Error(`svc: domain binding of ${did} is ${String(status)}, not ${binding}: ${r.evidence.domainBinding?.reason ?? ''}`);
  if (r.evidence.keys.some((k) => k.status !== 'VALID_KEY')) throw new Error(`svc: a key of ${did} is not valid`);
}

/** Per-resolution stage durations (ms) of svc's trace, collected during the timed rounds. */
class StageTimes {
  readonly #byStage = new Map<string, number[]>();
  /** Sum of the stages that run after the bytes arrived (svc's own checks), per resolution. */
  readonly local: number[] = [];
  record(r: EnrichedResolution): void {
    let local = 0;
    for (const stage of r.trace) {
      const ms = stage.durationUs / 1000;
      const list = this.#byStage.get(stage.stage) ?? [];
      list.push(ms);
      this.#byStage.set(stage.stage, list);
      if (LOCAL_STAGES.has(stage.stage)) local += ms;
    }
    this.local.push(local);
  }
  median(stage: string): number {
    return median(this.#byStage.get(stage) ?? []);
  }
  /** "tls.handshake 5.12 ms, web.fetch 1.80 ms, linkage.fetch 6.50 ms (whole, in parallel), checks 0.45 ms". */
  summary(): string {
    const m = (stage: string) => `${stage} ${f2(this.median(stage))} ms`;
    return `${m('dns.resolve')}, ${m('tls.handshake')}, ${m('web.fetch')}; ${m('linkage.fetch')} (whole configuration fetch, beside the document); svc's own work once the bytes are in (parse, inspect, key validation, evaluation${this.#byStage.has('linkage.verify_proof') ? ', linkage proof verification' : ''}) ${f2(median(this.local))} ms`;
  }
}

/** Stages that do not wait for the network. */
const LOCAL_STAGES = new Set(['syntax.parse', 'document.parse', 'linkage.verify_proof', 'document.inspect', 'crypto.validate_keys', 'evidence.evaluate']);

let timedRound = false;

function checkPeer(did: string, r: DIDResolutionResult): void {
  if (r.didResolutionMetadata.error || !r.didDocument) {
    throw new Error(`peer failed on ${did}: ${r.didResolutionMetadata.error ?? 'no didDocument'} ${String(r.didResolutionMetadata['message'] ?? '')}`);
  }
  if (r.didDocument.id !== did) throw new Error(`peer returned a document for ${r.didDocument.id}, not ${did}`);
}

/** Completed operations (and their rate per second) with `concurrency` calls in flight for about `ms`. */
async function inFlight(op: () => Promise<void>, concurrency: number, ms: number): Promise<{ done: number; perSecond: number }> {
  const start = performance.now();
  const end = start + ms;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await op();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, perSecond: (done * 1000) / (performance.now() - start) };
}

const f2 = (n: number) => n.toFixed(2);

/** "0 new connections in 330 resolutions" / "2.00 new connections per resolution". */
function connectionText(s: Side): string {
  const per = s.connections / s.calls;
  return per >= 0.995 ? `${f2(per)} new TLS connections per resolution` : `${s.connections} new TLS connection(s) in ${s.calls} resolutions`;
}

async function measure(pki: PkiFiles): Promise<BenchRow[]> {
  const ca = restoreCa(pki);
  const hosts: DidWebHost[] = [];
  const fresh = new https.Agent({ keepAlive: false, maxCachedSessions: 0 });
  const globalAgent = https.globalAgent;
  try {
    const plain = await startDidWebHost({ ca });
    hosts.push(plain);
    const bound = await startDidWebHost({ ca });
    hosts.push(bound);

    const plainDid = plain.did();
    plain.publish(plainDid);
    const boundDid = bound.did();
    bound.publish(boundDid);
    const boundOrigin = `https://localhost:${bound.server.port}`;
    bound.server.route(CONFIG_PATH, json(didConfiguration(linkageCredentialDi(boundDid, boundOrigin, bound.key, `${boundDid}#key-1`))));

    // host.runtime(): system clock, 127.0.0.0/8 allowed, DNS table with localhost; trust as in
    // production (Node's store + NODE_EXTRA_CA_CERTS) instead of the per-connection test seam.
    const plainRuntime: Runtime = plain.runtime({ trustAnchors: undefined });
    const boundRuntime: Runtime = bound.runtime({ trustAnchors: undefined });
    // web-did-resolver → cross-fetch → node-fetch 2 → https.request with no agent, i.e.
    // https.globalAgent (keep-alive on in Node ≥ 19), which trusts NODE_EXTRA_CA_CERTS too.
    // web-did-resolver 2.0.32 is typed against its own did-resolver 4 (nested in its
    // node_modules); the driver's call signature is the same in did-resolver 6.
    const peer = new Resolver(getResolver() as unknown as ResolverRegistry);

    const plainStages = new StageTimes();
    const boundStages = new StageTimes();
    const sides = {
      svcPlain: side(
        'svc, no configuration',
        plain.server,
        () => resolve(plainDid, plainRuntime, { noCache: true }),
        (r) => {
          checkSvc(plainDid, 'NOT_CONFIGURED', r);
          if (timedRound) plainStages.record(r);
        },
      ),
      peerPlain: side(
        'peer',
        plain.server,
        () => peer.resolve(plainDid),
        (r) => checkPeer(plainDid, r),
      ),
      svcBound: side(
        'svc, verified binding',
        bound.server,
        () => resolve(boundDid, boundRuntime, { noCache: true }),
        (r) => {
          checkSvc(boundDid, 'VERIFIED', r);
          if (timedRound) boundStages.record(r);
        },
      ),
      peerBound: side(
        'peer',
        bound.server,
        () => peer.resolve(boundDid),
        (r) => checkPeer(boundDid, r),
      ),
      // node-fetch reads https.globalAgent per request: swap in an agent without keep-alive or
      // TLS session cache for this side's calls only (calls are sequential here).
      peerFresh: side(
        'peer, fresh connection',
        plain.server,
        async () => {
          https.globalAgent = fresh;
          try {
            return await peer.resolve(plainDid);
          } finally {
            https.globalAgent = globalAgent;
          }
        },
        (r) => checkPeer(plainDid, r),
      ),
    };
    const order: Side[] = Object.values(sides);

    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      timedRound = round >= WARMUP_ROUNDS;
      for (let k = 0; k < order.length; k++) {
        const s = order[(round + k) % order.length]!;
        const ms = await s.once();
        if (timedRound) s.ms.push(ms);
      }
    }
    timedRound = false;
    if (sides.peerFresh.connections !== sides.peerFresh.calls) {
      throw new Error(`the fresh-connection peer opened ${sides.peerFresh.connections} connections for ${sides.peerFresh.calls} calls`);
    }

    // Throughput with IN_FLIGHT concurrent resolutions (no configuration host, peer keep-alive).
    const tpSvc: number[] = [];
    const tpPeer: number[] = [];
    const svcOp = async () => checkSvc(plainDid, 'NOT_CONFIGURED', await resolve(plainDid, plainRuntime, { noCache: true }));
    const peerOp = async () => checkPeer(plainDid, await peer.resolve(plainDid));
    const tpConnBefore = plain.server.connections;
    await inFlight(svcOp, IN_FLIGHT, THROUGHPUT_WARMUP_MS);
    const peerConnBefore = plain.server.connections;
    await inFlight(peerOp, IN_FLIGHT, THROUGHPUT_WARMUP_MS);
    let peerTpConnections = plain.server.connections - peerConnBefore;
    for (let s = 0; s < THROUGHPUT_SAMPLES; s++) {
      tpSvc.push((await inFlight(svcOp, IN_FLIGHT, THROUGHPUT_SAMPLE_MS)).perSecond);
      const before = plain.server.connections;
      const requestsBefore = plain.server.requests.length;
      const peerSample = await inFlight(peerOp, IN_FLIGHT, THROUGHPUT_SAMPLE_MS);
      // Every peer resolution must have reached the server (no cache anywhere on the peer's path).
      const served = plain.server.requests.length - requestsBefore;
      if (served !== peerSample.done) throw new Error(`the peer completed ${peerSample.done} resolutions but the server saw ${served} requests`);
      tpPeer.push(peerSample.perSecond);
      peerTpConnections += plain.server.connections - before;
    }
    const tpAllConnections = plain.server.connections - tpConnBefore;

    const { svcPlain, peerPlain, svcBound, peerBound, peerFresh } = sides;
    const peerKeepAlive = `peer (keep-alive, Node's default): ${connectionText(peerPlain)} on the plain host, ${connectionText(peerBound)} on the bound one`;
    const svcBuys =
      'svc per resolution: DNS lookup with every address checked against the egress policy, a TCP+TLS connection pinned to the checked address ' +
      '(kept ~2 s for reuse only after a fresh lookup pins the same address again), TLS evidence (chain anchor, SAN, expiry, protocol) read from the socket that carried the answer, ' +
      'per-phase time limits and a 512 KiB streamed size cap, strict UTF-8/JSON (duplicate members rejected), every key validated on its curve, ' +
      'seven evidence dimensions and a stage trace; and the DID configuration fetched beside the document (2 HTTPS fetches in parallel)';
    const peerDoes =
      'The peer: one GET through node-fetch, JSON.parse, id comparison; no egress check, no TLS evidence, no size or time cap, no key validation, no configuration fetch';

    const rows: BenchRow[] = [
      {
        operation: 'did:web resolve (loopback), no DID configuration, p50',
        unit: 'ms',
        svc: median(svcPlain.ms),
        peer: `${PEER} (keep-alive)`,
        peerValue: median(peerPlain.ms),
        goal: null,
        status: 'ok',
        note:
          `Informational. ${svcBuys}, here answered 404 → NOT_CONFIGURED. ${peerDoes}. ` +
          `Connections: svc ${connectionText(svcPlain)}; ${peerKeepAlive}, so after the first call the peer pays no TCP or TLS handshake at all. ` +
          `Where svc's time goes (medians): ${plainStages.summary()}. ` +
          `${ROUNDS} timed resolutions per side after ${WARMUP_ROUNDS} warm-up rounds, sequential, sides interleaved; client and server share one process.`,
        samples: { svc: svcPlain.ms, peer: peerPlain.ms },
      },
      {
        operation: 'did:web resolve (loopback), no DID configuration, p95',
        unit: 'ms',
        svc: percentile(svcPlain.ms, 0.95),
        peer: `${PEER} (keep-alive)`,
        peerValue: percentile(peerPlain.ms, 0.95),
        goal: null,
        status: 'ok',
        note: 'Informational; same samples as the no-configuration p50 row (nearest-rank 95th percentile).',
      },
      {
        operation: 'did:web resolve (loopback), verified domain binding, p50',
        unit: 'ms',
        svc: median(svcBound.ms),
        peer: `${PEER} (keep-alive)`,
        peerValue: median(peerBound.ms),
        goal: null,
        status: 'ok',
        note:
          'Informational. As the no-configuration row, but the host serves a DID configuration: svc also parses it and verifies the ' +
          'eddsa-jcs-2022 DomainLinkageCredential (JCS canonicalisation, SHA-256, Ed25519 signature) against the key in the document → ' +
          `domain binding VERIFIED, origin dimension ESTABLISHED. The peer fetches the same document and ignores the configuration. ` +
          `Connections: svc ${connectionText(svcBound)}; peer ${connectionText(peerBound)}. Where svc's time goes (medians): ${boundStages.summary()}.`,
        samples: { svc: svcBound.ms, peer: peerBound.ms },
      },
      {
        operation: 'did:web resolve (loopback), verified domain binding, p95',
        unit: 'ms',
        svc: percentile(svcBound.ms, 0.95),
        peer: `${PEER} (keep-alive)`,
        peerValue: percentile(peerBound.ms, 0.95),
        goal: null,
        status: 'ok',
        note: 'Informational; same samples as the verified-binding p50 row (nearest-rank 95th percentile).',
      },
      {
        operation: 'did:web resolve (loopback), no DID configuration, p50, peer without connection reuse',
        unit: 'ms',
        svc: median(svcPlain.ms),
        peer: `${PEER} (new TLS connection per request)`,
        peerValue: median(peerFresh.ms),
        goal: null,
        status: 'ok',
        note:
          `Informational, to separate connection cost from checking cost: the peer through an https.Agent with keepAlive off and maxCachedSessions 0, ` +
          `so it too makes a full TCP+TLS handshake per resolution (${connectionText(peerFresh)}; p95 ${f2(percentile(peerFresh.ms, 0.95))} ms) — ` +
          `svc samples are those of the no-configuration p50 row (svc reuses its kept connections, after re-checking the address).`,
        samples: { svc: svcPlain.ms, peer: peerFresh.ms },
      },
      {
        operation: `did:web resolve (loopback), no DID configuration, ${IN_FLIGHT} in flight`,
        unit: 'ops/s',
        svc: median(tpSvc),
        peer: `${PEER} (keep-alive)`,
        peerValue: median(tpPeer),
        goal: { op: '>=', ratio: 0.5 },
        status: 'ok',
        note:
          `Goal: at least half the peer's rate. ${IN_FLIGHT} concurrent resolutions for ${THROUGHPUT_SAMPLE_MS} ms per sample, median of ${THROUGHPUT_SAMPLES}, sides alternating. ` +
          `svc opened ${tpAllConnections - peerTpConnections} new connections in this phase (${IN_FLIGHT} resolutions hold ${2 * IN_FLIGHT} connections, document and configuration; ` +
          `up to ${CONNECTION_POOL.maxIdlePerKey} idle ones per host and pinned address are kept and reused, each after a fresh lookup re-checked the address); the peer keeps up to ${IN_FLIGHT} sockets alive ` +
          `(${peerTpConnections} new connections in this phase). The server's TLS and HTTP work runs in the same process and is counted on both sides.`,
        samples: { svc: tpSvc, peer: tpPeer },
      },
    ];
    return rows;
  } finally {
    https.globalAgent = globalAgent;
    fresh.destroy();
    globalAgent.destroy();
    for (const host of hosts) await host.close();
  }
}

const isChild = process.env[CHILD_FLAG] !== undefined && process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isChild) {
  try {
    const pki = JSON.parse(readFileSync(process.env[CHILD_FLAG]!, 'utf8')) as PkiFiles;
    const rows = await measure(pki);
    process.stdout.write(`${ROWS_MARKER}${JSON.stringify(rows)}\n`);
  } catch (err) {
    process.stderr.write(`did-web bench: ${err instanceof Error && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  }
}
