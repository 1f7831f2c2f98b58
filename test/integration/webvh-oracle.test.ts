/**
 * did:webvh v1.0: svc against an independent implementation, didwebvh-ts 2.8.0 (the oracle).
 *
 * Every log is made at test time by didwebvh-ts itself (test/support/webvh-ts.ts: fixed keys,
 * explicit timestamps one day apart from 2024-01-01), served from a real loopback HTTPS host
 * as `https://<domain>[/<path>]/did.jsonl` (`text/jsonl`) and, when there is one,
 * `did-witness.json`; svc resolves it through the whole pipeline (DNS table → egress check →
 * pinned TLS connection → log verification → selection), and the oracle resolves the same
 * bytes with resolveDIDFromLog. For every version n of every scenario the two must serve the
 * same document (deep equal, implicit #files/#whois services included), the same versionId and
 * the same deactivated flag (but see below), for each way of asking: versionNumber n, versionId of n, a
 * versionTime exactly n's, a versionTime between n and n+1; and per scenario a versionTime after
 * the last entry, one before creation (both: not found) and the latest version.
 *
 * Where didwebvh-ts departs from the spec the test states both answers instead of skipping:
 *  - The implicit `#files` service: didwebvh-ts's endpoint is `https://example.com`, the spec's
 *    example and svc's `https://example.com/` (see withSpecFilesEndpoint).
 *  - An exact versionTime: didwebvh-ts selects with `options.versionTime > new Date(meta.updated)`
 *    (strict; resolveDIDFromLog in its src/method_versions/method.v1.0.ts), so asking for the
 *    instant an entry was published gives notFound. The spec's "the version active at that time" includes
 *    it; svc serves entry n, which the test compares with the oracle's answer for versionNumber n.
 *  - The current version of a deactivated DID: didwebvh-ts returns doc null (with
 *    meta.deactivated); svc returns the last document with deactivated metadata and the
 *    DEACTIVATED outcome. The document is compared with the oracle's versionNumber answer.
 *  - `deactivated` for an earlier version of a deactivated DID: didwebvh-ts reports the
 *    version's own state (false), svc the DID's (true; see expectSameVersion).
 *  - A witness threshold not met by a later entry: didwebvh-ts marks *every* version invalidDid
 *    (its witnessThresholdFailure flag also applies to explicit selectors) or throws. The spec
 *    says earlier valid versions are still returned, and so do svc and the python reference
 *    (didwebvh-test-suite resolver-suite "missing-witness"); for those versions svc is compared
 *    with the oracle on the log cut before the unapproved entry.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError, type ProblemCode } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import { startDidWebHost, tableLookup, type DidWebHost, type Handler } from '../support/did-web-host.js';
import { json, raw } from '../support/https-server.js';
import {
  addMs,
  createLog,
  deactivateLog,
  ONE_DAY_MS,
  oracleResolve,
  parseJsonl,
  TestSigner,
  toJsonl,
  updateLog,
  versionTime,
  witnessApproval,
  witnessFile,
  type DIDDoc,
  type DIDLog,
  type OracleQuery,
  type OracleResult,
  type TestWitnessRule,
  type WitnessProofFileEntry,
} from '../support/webvh-ts.js';

// ---------------------------------------------------------------------------------------------
// Scenarios (built by didwebvh-ts in beforeAll)
// ---------------------------------------------------------------------------------------------

interface Generated {
  did: string;
  log: DIDLog;
  /** did-witness.json items, or null: the file is not published (404). */
  witness: WitnessProofFileEntry[] | null;
}

interface ScenarioSpec {
  name: string;
  /** Number of log entries `build` makes (the test list is fixed before the logs exist). */
  versions: number;
  /** First version whose witness threshold the published did-witness.json does not meet. */
  unapprovedFrom?: number;
  build(): Promise<Generated>;
}

const service = (id: string, endpoint: string) => ({ id, type: 'LinkedDomains', serviceEndpoint: endpoint });
const key = (scenario: string, label: string) => new TestSigner(`${scenario}: ${label}`);

/** Witnesses approve each entry as it is published (updateDID re-resolves the log and needs them). */
async function approvedSoFar(log: DIDLog, rule: TestWitnessRule): Promise<WitnessProofFileEntry[]> {
  const last = log[log.length - 1]!;
  return [await witnessApproval(last.versionId, rule.witnesses, last.versionTime)];
}

/** v1 created under a 2-of-3 witness rule, then three witnessed updates. */
async function witnessedLog(scenario: string, domain: string) {
  const controller = key(scenario, 'controller');
  const witnesses = [1, 2, 3].map((i) => key(scenario, `witness ${i}`));
  const rule: TestWitnessRule = { threshold: 2, witnesses };
  let { did, log } = await createLog({ signer: controller, domain, created: versionTime(0), witness: rule });
  for (let i = 1; i <= 3; i++) {
    ({ log } = await updateLog(log, {
      signer: controller,
      updated: versionTime(i),
      witness: rule,
      witnessProofs: await approvedSoFar(log, rule),
      services: [service(`#site-${i}`, `https://${domain}/v${i}`)],
    }));
  }
  const [w1, w2, w3] = witnesses as [TestSigner, TestSigner, TestSigner];
  return { did, log, w1, w2, w3, outsider: key(scenario, 'not a witness') };
}

const SCENARIOS: ScenarioSpec[] = [
  {
    name: 'plain create',
    versions: 1,
    async build() {
      const { did, log } = await createLog({ signer: key('plain', 'controller'), domain: 'example.com', created: versionTime(0) });
      return { did, log, witness: null };
    },
  },
  {
    name: 'several updates (services, a second key, alsoKnownAs, services removed)',
    versions: 5,
    async build() {
      const domain = 'updates.example.com';
      const k = key('updates', 'controller');
      const second = key('updates', 'second verification key');
      let { did, log } = await createLog({ signer: k, domain, created: versionTime(0) });
      ({ log } = await updateLog(log, { signer: k, updated: versionTime(1), services: [service('#site', `https://${domain}/`)] }));
      ({ log } = await updateLog(log, { signer: k, updated: versionTime(2), keys: [k, second] }));
      ({ log } = await updateLog(log, { signer: k, updated: versionTime(3), alsoKnownAs: [`https://${domain}/about`] }));
      ({ log } = await updateLog(log, { signer: k, updated: versionTime(4), services: [] }));
      return { did, log, witness: null };
    },
  },
  {
    name: 'key rotation (old key signs the new updateKeys, new key signs the next entries; DID with a path)',
    versions: 4,
    async build() {
      const [k1, k2, k3] = ['key 1', 'key 2', 'key 3'].map((l) => key('rotation', l)) as [TestSigner, TestSigner, TestSigner];
      let { did, log } = await createLog({ signer: k1, domain: 'example.com', paths: ['people', 'alice'], created: versionTime(0) });
      ({ log } = await updateLog(log, { signer: k1, updated: versionTime(1), updateKeys: [k2], keys: [k2] }));
      ({ log } = await updateLog(log, { signer: k2, updated: versionTime(2), services: [service('#blog', 'https://example.com/alice')] }));
      ({ log } = await updateLog(log, { signer: k2, updated: versionTime(3), updateKeys: [k3], keys: [k3] }));
      return { did, log, witness: null };
    },
  },
  {
    name: 'pre-rotation (nextKeyHashes consumed twice, then ended)',
    versions: 4,
    async build() {
      const [k1, k2, k3] = ['key 1', 'key 2', 'key 3'].map((l) => key('prerotation', l)) as [TestSigner, TestSigner, TestSigner];
      let { did, log } = await createLog({ signer: k1, domain: 'prerotation.example.com', created: versionTime(0), nextKeys: [k2] });
      // With pre-rotation the entry is signed by one of its own updateKeys, committed to before.
      ({ log } = await updateLog(log, { signer: k2, updated: versionTime(1), updateKeys: [k2], keys: [k2], nextKeys: [k3] }));
      ({ log } = await updateLog(log, { signer: k3, updated: versionTime(2), updateKeys: [k3], keys: [k3], nextKeys: [] }));
      // Pre-rotation over: the previous entry's key signs again.
      ({ log } = await updateLog(log, { signer: k3, updated: versionTime(3), services: [service('#site', 'https://prerotation.example.com/')] }));
      return { did, log, witness: null };
    },
  },
  {
    name: 'deactivation',
    versions: 3,
    async build() {
      const k = key('deactivation', 'controller');
      let { did, log } = await createLog({ signer: k, domain: 'deactivated.example.com', created: versionTime(0) });
      ({ log } = await updateLog(log, { signer: k, updated: versionTime(1), services: [service('#site', 'https://deactivated.example.com/')] }));
      ({ log } = await deactivateLog(log, { signer: k, at: versionTime(2) }));
      return { did, log, witness: null };
    },
  },
  {
    name: 'witnesses, threshold 2 of 3, every entry approved',
    versions: 4,
    async build() {
      const { did, log, w1, w2, w3, outsider } = await witnessedLog('witnessed', 'witnessed.example.com');
      const [v1, v2, , v4] = log as [DIDLog[number], DIDLog[number], DIDLog[number], DIDLog[number]];
      // A proof for version k approves k and every earlier entry: v1, v2 get w1 w2 (w3 via v4);
      // v3 has no item of its own and is approved by w2 w3 through v4. The outsider's proof and
      // the proof for a versionId that is not in the log count for nothing.
      const v4Item = await witnessApproval(v4.versionId, [w2, w3, outsider], v4.versionTime);
      const witness = [
        await witnessApproval(v1.versionId, [w1], v1.versionTime),
        await witnessApproval(v2.versionId, [w1, w2], v2.versionTime),
        v4Item,
        await witnessApproval('5-QmUnpublishedEntryHash1111111111111111111111', [w1], addMs(v4.versionTime, 3_600_000)),
      ];
      return { did, log, witness };
    },
  },
  {
    name: 'witnesses, threshold 2 of 3, entries from version 3 on short of approvals',
    versions: 4,
    unapprovedFrom: 3,
    async build() {
      const { did, log, w1, w2, w3 } = await witnessedLog('unapproved', 'unapproved.example.com');
      // v1, v2: w1 w2. v3, v4: w3 only (one of the two needed).
      const witness = [
        await witnessApproval(log[1]!.versionId, [w1, w2], log[1]!.versionTime),
        await witnessApproval(log[3]!.versionId, [w3], log[3]!.versionTime),
      ];
      return { did, log, witness };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// The host
// ---------------------------------------------------------------------------------------------

interface Built extends Generated {
  spec: ScenarioSpec;
  /** The served did.jsonl, and the log parsed back from it (what both sides read). */
  jsonl: string;
  witnessJson: string | null;
}

const HOSTS = ['example.com', 'updates.example.com', 'prerotation.example.com', 'deactivated.example.com', 'witnessed.example.com', 'unapproved.example.com'];

let host: DidWebHost;
let runtime: Runtime;
const built = new Map<string, Built>();
/** path → host name → handler: one server answers for every name. */
const routes = new Map<string, Map<string, Handler>>();
const notFound = json({ error: 'not found' }, { status: 404 });

function serve(hostname: string, path: string, handler: Handler): void {
  let byHost = routes.get(path);
  if (!byHost) {
    const table = new Map<string, Handler>();
    byHost = table;
    routes.set(path, table);
    host.server.route(path, (req: IncomingMessage, res: ServerResponse) => {
      const name = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      (table.get(name) ?? notFound)(req, res);
    });
  }
  byHost.set(hostname, handler);
}

/** `did:webvh:<scid>:<domain>[:path…]` → its host name and did.jsonl path. */
function location(did: string): { hostname: string; logPath: string; witnessPath: string } {
  const [, , , domain = '', ...segments] = did.split(':');
  const dir = segments.length === 0 ? '/.well-known' : `/${segments.join('/')}`;
  return { hostname: domain, logPath: `${dir}/did.jsonl`, witnessPath: `${dir}/did-witness.json` };
}

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: HOSTS });
  runtime = host.runtime({
    lookup: tableLookup(Object.fromEntries(HOSTS.map((h) => [h, ['127.0.0.1']]))),
    connectTo: (_host, port) => (port === 443 ? host.server.port : undefined),
  });
  for (const spec of SCENARIOS) {
    const generated = await spec.build();
    const jsonl = toJsonl(generated.log);
    const witnessJson = generated.witness ? witnessFile(generated.witness) : null;
    const where = location(generated.did);
    serve(where.hostname, where.logPath, raw(jsonl, { contentType: 'text/jsonl' }));
    if (witnessJson !== null) serve(where.hostname, where.witnessPath, raw(witnessJson, { contentType: 'application/json' }));
    built.set(spec.name, { ...generated, log: parseJsonl(jsonl), spec, jsonl, witnessJson });
  }
}, 120_000);

afterAll(async () => {
  await host?.close();
});

// ---------------------------------------------------------------------------------------------
// Asking both sides
// ---------------------------------------------------------------------------------------------

interface Query {
  versionNumber?: number;
  versionId?: string;
  versionTime?: string;
}

function scenario(spec: ScenarioSpec): Built {
  const s = built.get(spec.name);
  if (!s) throw new Error(`scenario ${spec.name} was not built`);
  return s;
}

async function svc(s: Built, query: Query): Promise<EnrichedResolution | ProblemError> {
  try {
    return await resolve(s.did, runtime, { ...query, noCache: true });
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
}

function served(answer: EnrichedResolution | ProblemError, query: Query): EnrichedResolution {
  if (answer instanceof ProblemError) expect.fail(`svc refused ${JSON.stringify(query)}: ${answer.code}: ${answer.detail}`);
  return answer;
}

/**
 * The log the oracle is asked about for version n: the whole log, except that where a later
 * entry is short of witness approvals it is cut before that entry (didwebvh-ts would otherwise
 * mark every version invalid; see the header).
 */
function oracleLog(s: Built, n: number): DIDLog {
  const u = s.spec.unapprovedFrom;
  return u !== undefined && n < u ? s.log.slice(0, u - 1) : s.log;
}

async function oracle(s: Built, n: number, query: Omit<OracleQuery, 'witness'>): Promise<OracleResult> {
  return oracleResolve(oracleLog(s, n), { ...query, witness: s.witnessJson });
}

/**
 * The oracle's document with its implicit `#files` endpoint written as the spec writes it. The
 * spec's example (§"DID URL Path Resolution") is `"serviceEndpoint": "https://example.com/"`,
 * with a trailing slash, so that relative references resolve under the DID's location; svc
 * follows it (so do the python and java implementations in didwebvh-test-suite). didwebvh-ts
 * (and the rust one) write `https://example.com`, without it. The test asserts that this is the
 * only difference: the oracle's endpoint is the location without the slash, svc's with it.
 */
function withSpecFilesEndpoint(doc: DIDDoc, entry: DIDLog[number]): DIDDoc {
  const declared = (entry.state.service ?? []).some((svc) => svc.id === '#files' || svc.id === `${entry.state.id}#files`);
  if (declared || !Array.isArray(doc.service)) return doc;
  return {
    ...doc,
    service: doc.service.map((svc) => {
      if (svc.id !== '#files') return svc;
      expect(svc.serviceEndpoint).toEqual(expect.stringMatching(/^https:\/\/[^/]+(\/.*[^/])?$/));
      return { ...svc, serviceEndpoint: `${String(svc.serviceEndpoint)}/` };
    }),
  };
}

/** Both serve version n: same document, versionId, deactivated flag (and svc's metadata is n's). */
function expectSameVersion(ours: EnrichedResolution, theirs: OracleResult, s: Built, n: number): void {
  if (!theirs.ok) expect.fail(`didwebvh-ts threw: ${theirs.error}`);
  const entry = s.log[n - 1]!;
  expect(theirs.meta.error).toBeUndefined();
  expect(theirs.meta.versionId).toBe(entry.versionId);
  if (theirs.doc === null) expect.fail('didwebvh-ts returned no document');

  expect(ours.didDocument).toStrictEqual(withSpecFilesEndpoint(theirs.doc, entry));
  expect(ours.didDocumentMetadata['versionId']).toBe(theirs.meta.versionId);
  // deactivated: didwebvh-ts reports the selected version's own state; svc reports the DID's
  // (DID Core's `deactivated` is a property of the DID: version 1 of a DID deactivated in
  // version 3 is served with deactivated: true and the DEACTIVATED outcome). The two agree on
  // every version of a DID that is not deactivated, and on the deactivating version itself.
  const deactivatedIn = s.log.findIndex((e) => e.parameters['deactivated'] === true) + 1;
  expect(theirs.meta.deactivated === true).toBe(deactivatedIn > 0 && n >= deactivatedIn);
  expect(ours.didDocumentMetadata['deactivated'] === true).toBe(deactivatedIn > 0);
  expect(ours.verdict.outcome === 'DEACTIVATED').toBe(deactivatedIn > 0);

  expect(ours.didDocumentMetadata['versionNumber']).toBe(n);
  expect(ours.didDocumentMetadata['versionTime']).toBe(entry.versionTime);
  expect(ours.didDocumentMetadata['created']).toBe(theirs.meta.created);
  expect(ours.evidence.history?.selectedVersion).toBe(n);
}

/** svc serves version n for `query`; the oracle, asked `oracleQuery` (default: the same), too. */
async function expectBothServe(s: Built, query: Query, n: number, oracleQuery: Omit<OracleQuery, 'witness'> = query): Promise<EnrichedResolution> {
  const ours = served(await svc(s, query), query);
  expectSameVersion(ours, await oracle(s, n, oracleQuery), s, n);
  const u = s.spec.unapprovedFrom;
  if (u !== undefined) {
    // The documented difference: on the whole log didwebvh-ts refuses even this earlier version.
    const whole = await oracleResolve(s.log, { ...oracleQuery, witness: s.witnessJson });
    expect(whole.ok && whole.meta.error).toBe('invalidDid');
    // svc serves it and reports where the log stops verifying.
    expect(ours.evidence.history?.failure).toMatchObject({ versionNumber: u, check: 'witness' });
    expect(ours.evidence.history?.verifiedEntries).toBe(u - 1);
  }
  return ours;
}

/** svc answers `code`; the oracle does not serve a document either. */
async function expectBothRefuse(s: Built, query: Query, code: ProblemCode): Promise<OracleResult> {
  const ours = await svc(s, query);
  if (!(ours instanceof ProblemError))
    expect.fail(`svc served version ${String(ours.didDocumentMetadata['versionNumber'])} for ${JSON.stringify(query)}; expected ${code}`);
  expect(ours.code).toBe(code);
  const theirs = await oracleResolve(s.log, { ...query, witness: s.witnessJson });
  expect(theirs.ok && theirs.doc !== null && theirs.meta.error === undefined).toBe(false);
  if (s.spec.unapprovedFrom !== undefined) {
    // didwebvh-ts throws when nothing was selected before its witness check failed.
    if (theirs.ok) expect(theirs.meta.error).toBe('invalidDid');
    else expect(theirs.error).toMatch(/Witness threshold not met/);
  } else if (code === 'NOT_FOUND') {
    expect(theirs.ok && theirs.meta.error).toBe('notFound');
  }
  return theirs;
}

/**
 * What svc must answer when the version active for a query is n. With an unapproved later entry
 * u, versions from u on are INVALID_DID_DOCUMENT; and a versionTime whose active version is the
 * last valid one (u − 1) is refused too: svc does not let a time after the last verified entry
 * stand for it when the entry after it failed (src/core/webvh/select.ts).
 */
function verdictFor(s: Built, n: number, by: 'selector' | 'time'): 'serve' | 'INVALID_DID_DOCUMENT' {
  const u = s.spec.unapprovedFrom;
  if (u === undefined) return 'serve';
  if (n >= u) return 'INVALID_DID_DOCUMENT';
  return by === 'time' && n === u - 1 ? 'INVALID_DID_DOCUMENT' : 'serve';
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

for (const spec of SCENARIOS) {
  describe(spec.name, () => {
    it(`didwebvh-ts made ${spec.versions} entries, served as did.jsonl`, () => {
      const s = scenario(spec);
      expect(s.log).toHaveLength(spec.versions);
      expect(s.log.map((e) => e.versionId.split('-')[0])).toEqual(s.log.map((_, i) => String(i + 1)));
      expect(s.log.map((e) => e.versionTime)).toEqual(s.log.map((_, i) => versionTime(i)));
      expect(s.jsonl.endsWith('\n')).toBe(true);
    });

    for (let n = 1; n <= spec.versions; n++) {
      it(`version ${n} by versionNumber`, async () => {
        const s = scenario(spec);
        if (verdictFor(s, n, 'selector') === 'serve') await expectBothServe(s, { versionNumber: n }, n);
        else await expectBothRefuse(s, { versionNumber: n }, 'INVALID_DID_DOCUMENT');
      });

      it(`version ${n} by versionId`, async () => {
        const s = scenario(spec);
        const versionId = s.log[n - 1]!.versionId;
        if (verdictFor(s, n, 'selector') === 'serve') await expectBothServe(s, { versionId }, n);
        else await expectBothRefuse(s, { versionId }, 'INVALID_DID_DOCUMENT');
      });

      it(`version ${n} by a versionTime exactly its own (didwebvh-ts: notFound, its strict >)`, async () => {
        const s = scenario(spec);
        const at = s.log[n - 1]!.versionTime;
        if (verdictFor(s, n, 'time') === 'serve') {
          // svc: the entry is active from its own versionTime on. Compared with the oracle's
          // answer for versionNumber n, because the oracle's answer for this time is notFound:
          await expectBothServe(s, { versionTime: at }, n, { versionNumber: n });
          const exact = await oracle(s, n, { versionTime: at });
          expect(exact.ok && exact.meta.error).toBe('notFound');
          expect(exact.ok && exact.doc).toBeNull();
        } else {
          await expectBothRefuse(s, { versionTime: at }, 'INVALID_DID_DOCUMENT');
        }
      });

      if (n < spec.versions) {
        it(`version ${n} by a versionTime between it and version ${n + 1}`, async () => {
          const s = scenario(spec);
          const between = addMs(s.log[n - 1]!.versionTime, ONE_DAY_MS / 2);
          expect(Date.parse(between)).toBeLessThan(Date.parse(s.log[n]!.versionTime));
          if (verdictFor(s, n, 'time') === 'serve') await expectBothServe(s, { versionTime: between }, n);
          else await expectBothRefuse(s, { versionTime: between }, 'INVALID_DID_DOCUMENT');
        });
      }
    }

    it('a versionTime after the last entry: the last version', async () => {
      const s = scenario(spec);
      const n = spec.versions;
      const after = addMs(s.log[n - 1]!.versionTime, ONE_DAY_MS);
      if (verdictFor(s, n, 'time') === 'serve') await expectBothServe(s, { versionTime: after }, n);
      else await expectBothRefuse(s, { versionTime: after }, 'INVALID_DID_DOCUMENT');
    });

    it('a versionTime before creation: not found on both sides', async () => {
      const s = scenario(spec);
      await expectBothRefuse(s, { versionTime: addMs(s.log[0]!.versionTime, -ONE_DAY_MS) }, 'NOT_FOUND');
      await expectBothRefuse(s, { versionTime: addMs(s.log[0]!.versionTime, -1000) }, 'NOT_FOUND');
    });

    it('latest (no selector)', async () => {
      const s = scenario(spec);
      const n = spec.versions;
      const u = spec.unapprovedFrom;
      if (u !== undefined) {
        const theirs = await expectBothRefuse(s, {}, 'INVALID_DID_DOCUMENT');
        expect(theirs.ok).toBe(false);
        // What svc shows of the log, read from an earlier version it still serves.
        const first = served(await svc(s, { versionNumber: 1 }), { versionNumber: 1 });
        const history = first.evidence.history!;
        expect(history.entries.map((e) => e.status)).toEqual(s.log.map((_, i) => (i + 1 < u ? 'VERIFIED' : i + 1 === u ? 'FAILED' : 'UNVERIFIED')));
        expect(history.entries[u - 1]).toMatchObject({ check: 'witness', witness: { threshold: 2, approvals: 1 } });
        expect(history.witness.status).toBe('FOUND');
        return;
      }

      const ours = served(await svc(s, {}), {});
      const latest = await oracle(s, n, {});
      if (!latest.ok) expect.fail(`didwebvh-ts threw: ${latest.error}`);
      if (latest.meta.deactivated) {
        // didwebvh-ts: no document for a deactivated DID unless a version is asked for.
        expect(latest.doc).toBeNull();
        expect(latest.meta.versionId).toBe(s.log[n - 1]!.versionId);
        expectSameVersion(ours, await oracle(s, n, { versionNumber: n }), s, n);
        expect(ours.verdict.outcome).toBe('DEACTIVATED');
      } else {
        expectSameVersion(ours, latest, s, n);
        expect(ours.verdict.outcome).not.toBe('DEACTIVATED');
      }

      const history = ours.evidence.history!;
      expect(history.scid).toBe(s.did.split(':')[2]);
      expect(history.entries.map((e) => e.versionId)).toEqual(s.log.map((e) => e.versionId));
      expect(history.entries.every((e) => e.status === 'VERIFIED')).toBe(true);
      expect(history.verifiedEntries).toBe(n);
      expect(history.failure).toBeNull();
      if (s.witnessJson === null) return;

      // Witnessed: v3 and v4 are approved by exactly w2 and w3 (w1 approved nothing after v2).
      expect(history.witness.status).toBe('FOUND');
      for (const e of history.entries) expect(e.witness!.approvals).toBeGreaterThanOrEqual(e.witness!.threshold);
      expect(history.entries.slice(2).map((e) => e.witness)).toEqual([
        { threshold: 2, approvals: 2 },
        { threshold: 2, approvals: 2 },
      ]);
      const outsider = key('witnessed', 'not a witness').verificationMethodId;
      expect(history.witness.discarded.some((d) => d.verificationMethod === outsider)).toBe(true);
      expect(history.witness.discarded.some((d) => d.versionId?.startsWith('5-') === true)).toBe(true);
    });
  });
}
