/**
 * Evidence bundles: what keeping the bytes costs, and what checking them offline costs, next to
 * the online resolution they record, in one run, on loopback HTTPS hosts of one throw-away CA.
 *
 *  - (a) did:web with domain linkage: the host serves the DID document and a DID configuration
 *    holding an eddsa-jcs-2022 DomainLinkageCredential for its origin (binding VERIFIED);
 *  - (b) did:webvh with a 120-entry log (test/support/webvh-log.ts, one Ed25519 key, entries a
 *    day apart), served at /.well-known/did.jsonl of its host (no witnesses, no configuration).
 *
 * For each, sides interleaved with a rotating order after warm-up rounds, sequential:
 *  - online: `resolve(did, runtime, { noCache: true })` — the work a bundle records;
 *  - write: the same resolution through `recordingRuntime`, then `makeBundle` + `encodeBundle`
 *    (the bytes `--bundle` writes, the file write itself left out);
 *  - verify offline: `decodeBundle` + `verifyBundle` of those bytes (digests, each TLS chain at
 *    observation and now, the work re-run from the bytes at the bundle's time and now), with
 *    the CA as the one trust anchor (parsed once, as the CLI parses its store once per process).
 * And the bundle's size. Every answer is checked: online RESOLVED with the expected version or
 * binding, the bundle VERIFIED.
 */
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import { decodeBundle, encodeBundle } from '../src/core/bundle/format.js';
import { asRecordedResult, bundleKind } from '../src/core/bundle/kinds.js';
import { recordingRuntime, replayRuntime } from '../src/core/bundle/record.js';
import { anchorsFor, parseAnchors } from '../src/core/bundle/tls.js';
import { makeBundle, verifyBundle } from '../src/core/bundle/verify.js';
import { resolve } from '../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../src/core/resolve/types.js';
import type { Runtime } from '../src/core/runtime.js';
import { startDidWebHost, type DidWebHost } from '../test/support/did-web-host.js';
import { json, raw } from '../test/support/https-server.js';
import { createTestCa } from '../test/support/pki.js';
import { didConfiguration, linkageCredentialDi } from '../test/support/signing.js';
import { createWebvhLog } from '../test/support/webvh-log.js';
import { median, type BenchRow } from './lib.js';

const WARMUP_ROUNDS = 5;
const ROUNDS = 30;
const LOG_ENTRIES = 120;

interface Subject {
  name: string;
  did: string;
  runtime: Runtime;
  /** A Runtime with nothing pooled: a resolution as a new svc process makes it (DNS, TCP and TLS first). */
  fresh(): Runtime;
  check(r: EnrichedResolution): void;
}

interface Figures {
  online: number[];
  /** The online resolution on a fresh Runtime: new connections, as `svc resolve` makes it. */
  cold: number[];
  write: number[];
  verify: number[];
  /** CPU time (user + system, this process: the loopback host's side too) of each sample, ms. */
  cpu: { online: number[]; write: number[]; verify: number[] };
  bytes: number;
  resources: number;
  /** decodeBundle alone, ms. */
  decode: number[];
  /** One re-run of the work from the bytes (at the bundle's time), ms: verifyBundle makes two. */
  rerun: number[];
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const outcomeOf = (r: EnrichedResolution) => `${r.verdict.outcome}`;

async function writeBundle(subject: Subject): Promise<Uint8Array> {
  const observedAt = subject.runtime.clock.now();
  const { runtime, recorder } = recordingRuntime(subject.runtime);
  const result = await resolve(subject.did, runtime, { noCache: true });
  subject.check(result);
  return encodeBundle(makeBundle({ command: { kind: 'resolve', subject: subject.did, options: {} }, observedAt, recorder, result: asRecordedResult(result) }));
}

async function measure(subject: Subject, anchors: ReturnType<typeof parseAnchors>): Promise<Figures> {
  const figures: Figures = {
    online: [],
    cold: [],
    write: [],
    verify: [],
    cpu: { online: [], write: [], verify: [] },
    bytes: 0,
    resources: 0,
    decode: [],
    rerun: [],
  };
  let bytes = await writeBundle(subject);
  const sides: Array<(timed: boolean) => Promise<void>> = [
    async (timed) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await resolve(subject.did, subject.runtime, { noCache: true });
      const ms = performance.now() - t0;
      const cpu = cpuMs(c0);
      subject.check(r);
      if (timed) {
        figures.online.push(ms);
        figures.cpu.online.push(cpu);
      }
    },
    async (timed) => {
      const runtime = subject.fresh();
      try {
        const t0 = performance.now();
        const r = await resolve(subject.did, runtime, { noCache: true });
        const ms = performance.now() - t0;
        subject.check(r);
        if (timed) figures.cold.push(ms);
      } finally {
        runtime.net.close();
      }
    },
    async (timed) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      bytes = await writeBundle(subject);
      const ms = performance.now() - t0;
      if (timed) {
        figures.write.push(ms);
        figures.cpu.write.push(cpuMs(c0));
      }
    },
    async (timed) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const bundle = decodeBundle(bytes);
      const t1 = performance.now();
      const v = await verifyBundle(bundle, { runtime: subject.runtime, trustAnchors: anchors });
      const ms = performance.now() - t0;
      const cpu = cpuMs(c0);
      if (v.outcome !== 'VERIFIED') throw new Error(`${subject.name}: the bundle is ${v.outcome}: ${v.summary}`);
      if (timed) {
        figures.verify.push(ms);
        figures.cpu.verify.push(cpu);
        figures.decode.push(t1 - t0);
      }
    },
    async (timed) => {
      const bundle = decodeBundle(bytes);
      const t0 = performance.now();
      const replay = replayRuntime(subject.runtime, bundle, new Date(bundle.observedAt), true);
      await bundleKind('resolve')!.rerun(replay.runtime, bundle.command, new Map());
      if (timed) figures.rerun.push(performance.now() - t0);
    },
  ];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (let k = 0; k < sides.length; k++) await sides[(round + k) % sides.length]!(round >= WARMUP_ROUNDS);
  }
  figures.bytes = bytes.length;
  figures.resources = decodeBundle(bytes).resources.length;
  return figures;
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

function rows(name: string, f: Figures): BenchRow[] {
  const online = median(f.online);
  const cold = median(f.cold);
  return [
    {
      operation: `bundle of ${name}: size`,
      unit: 'KB',
      svc: f.bytes / 1024,
      peer: '—',
      peerValue: null,
      goal: null,
      status: 'ok',
      note: `Informational: ${f.bytes} bytes, ${f.resources} resource${f.resources === 1 ? '' : 's'} (bodies and TLS chains base64, the result as reported).`,
    },
    {
      operation: `bundle of ${name}: write (record + encode), p50`,
      unit: 'ms',
      svc: median(f.write),
      peer: 'the online resolution alone',
      peerValue: online,
      goal: null,
      status: 'ok',
      note: `Informational: the resolution through a recording Net, then makeBundle and encodeBundle (canonical JSON), next to the same resolution unrecorded. CPU (user + system, host included) ${f2(median(f.cpu.write))} vs ${f2(median(f.cpu.online))} ms.`,
      samples: { svc: f.write, peer: f.online },
    },
    {
      operation: `bundle of ${name}: verify offline (decode + verifyBundle), p50`,
      unit: 'ms',
      svc: median(f.verify),
      peer: 'the original resolution (new connections, as svc resolve)',
      peerValue: cold,
      goal: { op: '<=', ratio: 1 },
      status: 'ok',
      note: `Digests, every TLS chain at observation and now, the resolution re-run from the bytes at the bundle's time and now; nothing fetched. decodeBundle alone ${f2(median(f.decode))} ms; one re-run alone ${f2(median(f.rerun))} ms (verifyBundle makes two; the one now resumes a did:webvh log the first verified). The peer: one resolution on a fresh Runtime — DNS lookup, TCP and TLS handshake, then the work — as a new svc process makes it, on loopback (a real host adds its round trips). CPU (user + system) ${f2(median(f.cpu.verify))} ms. Goal: faster than fetching and checking online.`,
      samples: { svc: f.verify, peer: f.cold },
    },
    {
      operation: `bundle of ${name}: verify offline vs a resolution over kept connections, p50`,
      unit: 'ms',
      svc: median(f.verify),
      peer: 'the online resolution, connections kept',
      peerValue: online,
      goal: null,
      status: 'ok',
      note: `Informational: the same verification next to a resolution that reuses pooled loopback connections (no handshake): what is left is the work, which verifying runs twice (then and now). CPU (user + system; the loopback host's side included) ${f2(median(f.cpu.verify))} vs ${f2(median(f.cpu.online))} ms.`,
      samples: { svc: f.verify, peer: f.online },
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const ca = createTestCa();
  const hosts: DidWebHost[] = [];
  try {
    const web = await startDidWebHost({ ca });
    hosts.push(web);
    const webDid = web.did();
    web.publish(webDid);
    const origin = `https://localhost:${web.server.port}`;
    web.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(webDid, origin, web.key, `${webDid}#key-1`))));

    const vh = await startDidWebHost({ ca });
    hosts.push(vh);
    const log = createWebvhLog({ key: vh.key, domain: `localhost%3A${vh.server.port}`, time: '2020-01-01T00:00:00Z' });
    while (log.entries.length < LOG_ENTRIES) log.append({});
    const logText = log.text();
    vh.server.route('/.well-known/did.jsonl', raw(logText, { contentType: 'text/jsonl' }));
    const lastVersion = log.entries[LOG_ENTRIES - 1]!['versionId'] as string;

    const subjects: Subject[] = [
      {
        name: 'did:web + DID configuration',
        did: webDid,
        runtime: web.runtime(),
        fresh: () => web.runtime(),
        check(r) {
          if (outcomeOf(r) !== 'RESOLVED') throw new Error(`did:web: ${outcomeOf(r)}`);
          const binding = JSON.stringify(r.evidence).includes('"VERIFIED"');
          if (!binding) throw new Error('did:web: the domain linkage is not VERIFIED');
        },
      },
      {
        name: `did:webvh, ${LOG_ENTRIES}-entry log`,
        did: log.did,
        runtime: vh.runtime(),
        fresh: () => vh.runtime(),
        check(r) {
          if (r.didDocumentMetadata['versionId'] !== lastVersion)
            throw new Error(`did:webvh resolved ${String(r.didDocumentMetadata['versionId'])}, not ${lastVersion}`);
        },
      },
    ];
    const anchors = parseAnchors([ca.certPem]);
    const out: BenchRow[] = [];
    for (const subject of subjects) {
      process.stderr.write(`bench: bundle of ${subject.name} …\n`);
      const figures = await measure(subject, anchors);
      const named = subject.name === subjects[1]!.name ? `${subject.name} (${f1(logText.length / 1024)} KiB)` : subject.name;
      out.push(...rows(named, figures));
    }
    // What svc verify-bundle pays once per process for this machine's trust store: every root
    // parsed (as before) next to anchorsFor, which hashes them and parses only the chains' anchors.
    const store = [...rootCertificates, ca.certPem];
    const chains = decodeBundle(await writeBundle(subjects[0]!)).resources.flatMap((r) => (r.tls ? [r.tls.chain] : []));
    const parsedAll: number[] = [];
    const hashed: number[] = [];
    let kept = 0;
    for (let i = 0; i < 5; i++) {
      let t0 = performance.now();
      parseAnchors(store);
      parsedAll.push(performance.now() - t0);
      t0 = performance.now();
      kept = anchorsFor(chains, store).length;
      hashed.push(performance.now() - t0);
    }
    out.push({
      operation: `bundle: this machine's trust store (${store.length} certificates), once per svc verify-bundle`,
      unit: 'ms',
      svc: median(hashed),
      peer: 'every certificate parsed',
      peerValue: median(parsedAll),
      goal: null,
      status: 'ok',
      note: `Informational, 5 samples: anchorsFor hashes each certificate's DER and parses the ${kept} the chains end in (the certificate memo of tls.ts keeps them after the first sample); the verify rows above use the test CA alone.`,
    });
    return out;
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
  }
}
