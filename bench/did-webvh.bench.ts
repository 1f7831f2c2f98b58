/**
 * did:webvh log verification: svc's pure verifier (`verifyWebvhLog`, no I/O) next to
 * didwebvh-ts 2.8.0's `resolveDIDFromLog` (the peer), on the same bytes, in the same process.
 *
 * The log is the shape of the "How fast is did:webvh?" figure on didwebvh.info: 120 entries
 * (one per day from 2024-01-01), each rotating the update key under pre-rotation (entry n is
 * signed by key n, names key n as its updateKey and verification method, and commits to key
 * n+1), 4 witnesses with threshold 3 stated in every entry; ~200 KB of did.jsonl. The
 * did-witness.json holds, as a controller keeps it, each witness's latest proof: witnesses 1–3
 * approved the last entry, witness 4 entry 118 (a proof for version k approves every earlier
 * entry, so every entry has 3 or 4 approvals).
 *
 * Building it with didwebvh-ts's updateDID costs O(n²) (each call re-resolves the whole log:
 * ~19 s for 120 entries), so entry 1 is made by createDID, entries 2–4 by both updateDID and
 * appendEntryFast (which must give the same bytes, else this throws), and the rest by
 * appendEntryFast; the whole log is then resolved once by didwebvh-ts, which must accept it.
 * Generation takes well under a second, so nothing is cached on disk.
 *
 * Measured, sides interleaved with a rotating order after warm-up rounds, sequential:
 *  - full verification of the 120-entry log with its witness file: svc vs peer;
 *  - the log grown by one entry (and the witness file updated for it): svc resuming from the
 *    verified prefix of the previous verification (`resume: previous.prefix`) vs the peer,
 *    which has no such state and verifies all 121 entries again.
 * Every answer is checked (svc: no failure, every version verified, the expected versionId;
 * peer: no error, the expected versionId).
 *
 * And the cost of the specification version: a did:webvh v0.5 log beside a v1.0 log of the same
 * shape and length (120 entries, key rotated under pre-rotation in every entry, no witnesses),
 * both written by svc's test log writer (test/support/webvh-log.ts; didwebvh-ts's v0.5 updateDID
 * does not chain entry hashes as the v0.5 spec says), each verified by svc.
 */
import { performance } from 'node:perf_hooks';
import { verifyWebvhLog } from '../src/core/webvh/verify.js';
import {
  appendEntryFast,
  createLog,
  oracleResolve,
  parseJsonl,
  TestSigner,
  toJsonl,
  updateLog,
  versionTime,
  witnessApproval,
  witnessFile,
  type DIDLog,
  type TestWitnessRule,
} from '../test/support/webvh-ts.js';
import { preRotationHash } from '../src/core/webvh/hash.js';
import { generateTestKey } from '../test/support/signing.js';
import { createWebvhLog } from '../test/support/webvh-log.js';
import { median, percentile, type BenchRow } from './lib.js';

const ENTRIES = 120;
const WITNESSES = 4;
const THRESHOLD = 3;
/** Entries 2..CROSS_CHECK are made both by updateDID and by appendEntryFast and compared. */
const CROSS_CHECK = 4;
const WARMUP_ROUNDS = 3;
const ROUNDS = 30;
const PEER = 'didwebvh-ts 2.8.0 resolveDIDFromLog';

interface Fixture {
  did: string;
  /** did.jsonl with ENTRIES entries, and the same log grown by one. */
  text: string;
  grownText: string;
  witnessText: string;
  grownWitnessText: string;
  lastVersionId: string;
  grownLastVersionId: string;
}

const key = (n: number) => new TestSigner(`bench did:webvh update key ${n}`);

async function generate(): Promise<Fixture> {
  const witnesses = Array.from({ length: WITNESSES }, (_, i) => new TestSigner(`bench did:webvh witness ${i + 1}`));
  const rule: TestWitnessRule = { threshold: THRESHOLD, witnesses };
  const created = await createLog({ signer: key(1), created: versionTime(0), keys: [key(1)], nextKeys: [key(2)], witness: rule });
  const step = (n: number) => ({ signer: key(n), updated: versionTime(n - 1), updateKeys: [key(n)], keys: [key(n)], nextKeys: [key(n + 1)], witness: rule });

  // The fast builder must write exactly what didwebvh-ts's updateDID writes.
  let reference: DIDLog = created.log;
  let log: DIDLog = created.log;
  for (let n = 2; n <= CROSS_CHECK; n++) {
    const last = reference[reference.length - 1]!;
    const approval = await witnessApproval(last.versionId, witnesses.slice(0, THRESHOLD), last.versionTime);
    reference = (await updateLog(reference, { ...step(n), witnessProofs: [approval] })).log;
    log = await appendEntryFast(log, step(n));
  }
  if (toJsonl(log) !== toJsonl(reference)) throw new Error('appendEntryFast does not write what updateDID writes');
  for (let n = CROSS_CHECK + 1; n <= ENTRIES + 1; n++) log = await appendEntryFast(log, step(n));

  const lagging = log[ENTRIES - 3]!; // entry 118: the fourth witness's latest approval
  const fileFor = async (entries: DIDLog) => {
    const last = entries[entries.length - 1]!;
    return witnessFile([
      await witnessApproval(last.versionId, witnesses.slice(0, THRESHOLD), last.versionTime),
      await witnessApproval(lagging.versionId, witnesses.slice(THRESHOLD), lagging.versionTime),
    ]);
  };
  const base = log.slice(0, ENTRIES);
  return {
    did: created.did,
    text: toJsonl(base),
    grownText: toJsonl(log),
    witnessText: await fileFor(base),
    grownWitnessText: await fileFor(log),
    lastVersionId: base[ENTRIES - 1]!.versionId,
    grownLastVersionId: log[ENTRIES]!.versionId,
  };
}

/** The peer's work for one resolution: read the JSON lines, resolve (witness file parsed inside). */
async function peerResolve(text: string, witnessText: string, expected: string): Promise<void> {
  const r = await oracleResolve(parseJsonl(text), { witness: witnessText });
  if (!r.ok) throw new Error(`didwebvh-ts threw: ${r.error}`);
  if (r.meta.error) throw new Error(`didwebvh-ts: ${r.meta.error}: ${r.meta.problemDetails?.detail ?? ''}`);
  if (r.meta.versionId !== expected) throw new Error(`didwebvh-ts resolved ${r.meta.versionId}, not ${expected}`);
}

type SvcResult = Awaited<ReturnType<typeof verifyWebvhLog>>;

function checkSvc(r: SvcResult, entries: number, expected: string): SvcResult {
  if (r.failure) throw new Error(`svc: entry ${r.failure.versionNumber} fails (${r.failure.check}): ${r.failure.reason}`);
  if (r.valid.length !== entries) throw new Error(`svc verified ${r.valid.length} of ${entries} entries`);
  const last = r.valid[r.valid.length - 1]!;
  if (last.versionId !== expected) throw new Error(`svc's last version is ${last.versionId}, not ${expected}`);
  return r;
}

async function time(op: () => unknown): Promise<number> {
  const start = performance.now();
  await op();
  return performance.now() - start;
}

const f1 = (n: number) => n.toFixed(1);

/** A log of `entries` entries under `method`: entry n signed by key n under pre-rotation, naming key n and committing to key n+1. */
function rotatingLog(method: string, entries: number): { did: string; text: string } {
  const keys = Array.from({ length: entries + 1 }, () => generateTestKey('EdDSA'));
  const hash = (n: number) => [preRotationHash(keys[n]!.multikey!)];
  const log = createWebvhLog({ key: keys[0], time: '2024-01-01T00:00:00Z', params: { method, nextKeyHashes: hash(1) } });
  for (let n = 1; n < entries; n++) log.append({ key: keys[n], params: { updateKeys: [keys[n]!.multikey!], nextKeyHashes: hash(n + 1) } });
  return { did: log.did, text: log.text() };
}

/** svc verifying a v0.5 log and a v1.0 log of the same length, interleaved. */
async function versionRows(): Promise<BenchRow[]> {
  const v05 = rotatingLog('did:webvh:0.5', ENTRIES);
  const v10 = rotatingLog('did:webvh:1.0', ENTRIES);
  const now = new Date('2024-06-01T00:00:00Z');
  const check = async (log: { did: string; text: string }, method: string) => {
    const lastVersionId = JSON.parse(log.text.trimEnd().split('\n').at(-1)!).versionId as string;
    const r = checkSvc(await verifyWebvhLog(log.did, log.text, { now }), ENTRIES, lastVersionId);
    if (r.valid[ENTRIES - 1]!.parameters.method !== method)
      throw new Error(`svc verified the log under ${r.valid[ENTRIES - 1]!.parameters.method}, not ${method}`);
  };
  await check(v05, 'did:webvh:0.5');
  await check(v10, 'did:webvh:1.0');
  const sides = [
    { ms: [] as number[], op: () => verifyWebvhLog(v05.did, v05.text, { now }) },
    { ms: [] as number[], op: () => verifyWebvhLog(v10.did, v10.text, { now }) },
  ];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(round + k) % sides.length]!;
      const ms = await time(side.op);
      if (round >= WARMUP_ROUNDS) side.ms.push(ms);
    }
  }
  const [old, current] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`;
  return [
    {
      operation: `did:webvh v0.5 log beside a v1.0 log, ${ENTRIES} entries each (svc, both sides), p50`,
      unit: 'ms',
      svc: median(old.ms),
      peer: `svc verifying a did:webvh:1.0 log of the same shape`,
      peerValue: median(current.ms),
      goal: null,
      status: 'ok',
      note:
        `Informational: the cost of the specification version. Both logs rotate the update key under pre-rotation in every entry, no witnesses ` +
        `(${kb(v05.text)} and ${kb(v10.text)}), written by test/support/webvh-log.ts and verified by verifyWebvhLog with no witness file; p95 ${f1(percentile(old.ms, 0.95))} ms vs ${f1(percentile(current.ms, 0.95))} ms. ` +
        `${ROUNDS} timed runs per side after ${WARMUP_ROUNDS} warm-up rounds, sequential, interleaved with a rotating order.`,
      samples: { svc: old.ms, peer: current.ms },
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const byVersion = await versionRows();
  const t0 = performance.now();
  const fx = await generate();
  const generatedMs = performance.now() - t0;
  const now = new Date();

  // Both sides accept both logs before anything is timed.
  await peerResolve(fx.text, fx.witnessText, fx.lastVersionId);
  await peerResolve(fx.grownText, fx.grownWitnessText, fx.grownLastVersionId);
  const previous = checkSvc(await verifyWebvhLog(fx.did, fx.text, { witnessText: fx.witnessText, now }), ENTRIES, fx.lastVersionId);
  const resumed = checkSvc(
    await verifyWebvhLog(fx.did, fx.grownText, { witnessText: fx.grownWitnessText, now, resume: previous.prefix }),
    ENTRIES + 1,
    fx.grownLastVersionId,
  );
  if (resumed.reusedEntries !== ENTRIES) throw new Error(`svc reused ${resumed.reusedEntries} entries of its verified prefix, not ${ENTRIES}`);

  const sides = {
    svcFull: {
      ms: [] as number[],
      op: async () => checkSvc(await verifyWebvhLog(fx.did, fx.text, { witnessText: fx.witnessText, now }), ENTRIES, fx.lastVersionId),
    },
    peerFull: { ms: [] as number[], op: () => peerResolve(fx.text, fx.witnessText, fx.lastVersionId) },
    svcResume: {
      ms: [] as number[],
      op: async () => {
        const r = await verifyWebvhLog(fx.did, fx.grownText, { witnessText: fx.grownWitnessText, now, resume: previous.prefix });
        if (r.reusedEntries !== ENTRIES) throw new Error(`svc did not resume (${r.reusedEntries} entries reused)`);
        return checkSvc(r, ENTRIES + 1, fx.grownLastVersionId);
      },
    },
    svcGrownFull: {
      ms: [] as number[],
      op: async () => checkSvc(await verifyWebvhLog(fx.did, fx.grownText, { witnessText: fx.grownWitnessText, now }), ENTRIES + 1, fx.grownLastVersionId),
    },
    peerGrown: { ms: [] as number[], op: () => peerResolve(fx.grownText, fx.grownWitnessText, fx.grownLastVersionId) },
  };
  const order = Object.values(sides);
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (let k = 0; k < order.length; k++) {
      const side = order[(round + k) % order.length]!;
      const ms = await time(side.op);
      if (round >= WARMUP_ROUNDS) side.ms.push(ms);
    }
  }

  const { svcFull, peerFull, svcResume, svcGrownFull, peerGrown } = sides;
  const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`;
  const shape =
    `${ENTRIES} entries (${kb(fx.text)} did.jsonl, ${kb(fx.witnessText)} did-witness.json): key rotated in every entry under pre-rotation, ` +
    `${WITNESSES} witnesses with threshold ${THRESHOLD} stated in every entry; generated in ${f1(generatedMs)} ms (didwebvh-ts createDID + ${CROSS_CHECK - 1} updateDID cross-checked against a linear builder)`;
  const both =
    'Both sides verify every entry: JSON, versionId numbering, entry-hash chain, SCID, versionTime, parameters, pre-rotation hashes, the Ed25519 eddsa-jcs-2022 proof, ' +
    'then every witness proof and threshold. Both verify Ed25519 with node:crypto (the peer through the Verifier it is given, as svc does itself). ' +
    'The peer also parses the JSON lines in the timed call (svc receives text). ' +
    'didwebvh-ts memoises its entry/SCID hashes in a module-level Map keyed by JSON.stringify of the hashed object (never evicted), so from its second resolution of the same log on it skips JCS+SHA-256 there; those are its figures.';
  const rounds = `${ROUNDS} timed runs per side after ${WARMUP_ROUNDS} warm-up rounds, sequential, sides interleaved with a rotating order.`;

  return [
    {
      operation: `did:webvh verify ${ENTRIES}-entry log with witnesses (${WITNESSES}, threshold ${THRESHOLD}), p50`,
      unit: 'ms',
      svc: median(svcFull.ms),
      peer: PEER,
      peerValue: median(peerFull.ms),
      goal: { op: '<=', ratio: 0.25 },
      status: 'ok',
      note: `Goal: at most 0.25× the peer's time. svc: verifyWebvhLog (src/core/webvh/verify.ts), pure, no I/O. ${shape}. ${both} ${rounds}`,
      samples: { svc: svcFull.ms, peer: peerFull.ms },
    },
    {
      operation: `did:webvh verify ${ENTRIES}-entry log with witnesses (${WITNESSES}, threshold ${THRESHOLD}), p95`,
      unit: 'ms',
      svc: percentile(svcFull.ms, 0.95),
      peer: PEER,
      peerValue: percentile(peerFull.ms, 0.95),
      goal: null,
      status: 'ok',
      note: 'Informational; same samples as the p50 row (nearest-rank 95th percentile).',
    },
    {
      operation: `did:webvh log grown to ${ENTRIES + 1} entries: svc resumes from its verified prefix, peer re-verifies all, p50`,
      unit: 'ms',
      svc: median(svcResume.ms),
      peer: `${PEER} (no prefix state: all ${ENTRIES + 1} entries)`,
      peerValue: median(peerGrown.ms),
      goal: null,
      status: 'ok',
      note:
        `Informational. svc: verifyWebvhLog(did, grownText, { resume: previous.prefix }) — the prefix of the ${ENTRIES}-entry verification is recognised by length and SHA-256 of its text ` +
        `(${ENTRIES} entries reused, checked before timing), only entry ${ENTRIES + 1} is verified, then the whole (updated) witness file is checked again. ` +
        `For scale: svc verifying the ${ENTRIES + 1} entries from scratch takes ${f1(median(svcGrownFull.ms))} ms (p95 ${f1(percentile(svcGrownFull.ms, 0.95))} ms). ${rounds}`,
      samples: { svc: svcResume.ms, peer: peerGrown.ms },
    },
    {
      operation: `did:webvh log grown to ${ENTRIES + 1} entries: svc resumes from its verified prefix, peer re-verifies all, p95`,
      unit: 'ms',
      svc: percentile(svcResume.ms, 0.95),
      peer: `${PEER} (no prefix state: all ${ENTRIES + 1} entries)`,
      peerValue: percentile(peerGrown.ms, 0.95),
      goal: null,
      status: 'ok',
      note: 'Informational; same samples as the grown-log p50 row (nearest-rank 95th percentile).',
    },
    ...byVersion,
  ];
}
