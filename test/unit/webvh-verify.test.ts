/**
 * did:webvh log verification and version selection without I/O (src/core/webvh/verify.ts,
 * select.ts), on logs written by test/support/webvh-log.ts: each rule of the v1.0 "Read"
 * algorithm broken once, witness counting, selection, and prefix reuse.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { preRotationHash } from '../../src/core/webvh/hash.js';
import { selectVersion } from '../../src/core/webvh/select.js';
import { verifyWebvhLog, type LogVerification } from '../../src/core/webvh/verify.js';
import { problemFrom } from '../support/problems.js';
import { generateTestKey } from '../support/signing.js';
import { createWebvhLog, witnessFileText, witnessProof, type WebvhTestLog } from '../support/webvh-log.js';

const NOW = new Date('2024-06-01T00:00:00Z');

function verify(log: WebvhTestLog, witnessText?: string, now = NOW): Promise<LogVerification> {
  return verifyWebvhLog(log.did, log.text(), { now, ...(witnessText !== undefined ? { witnessText } : {}) });
}

function failureOf(result: LogVerification) {
  expect(result.failure).not.toBeNull();
  return result.failure!;
}

describe('did:webvh entries', () => {
  it('verifies a log of three entries, with the evidence of each', async () => {
    const log = createWebvhLog();
    log.append({ params: { ttl: 60 } });
    log.append({ state: (doc) => ({ ...doc, alsoKnownAs: ['https://example.com'] }) });
    const result = await verify(log);
    expect(result.failure).toBeNull();
    expect(result.valid.map((v) => v.versionNumber)).toEqual([1, 2, 3]);
    expect(result.entries.map((e) => e.status)).toEqual(['VERIFIED', 'VERIFIED', 'VERIFIED']);
    expect(result.entries[0]!.changes).toEqual(['created']);
    expect(result.entries[1]!.changes).toEqual(['ttl']);
    expect(result.entries[2]!.changes).toEqual([]);
    expect(result.entries[0]!.signedBy).toBe(log.entries[0]!['parameters'].updateKeys[0]);
    expect(result.valid[2]!.parameters.ttl).toBe(60);
    expect(result.witness.status).toBe('NOT_REQUIRED');
  });

  it('applies the v1.0 defaults and reads a null parameter as its default', async () => {
    const log = createWebvhLog({ params: { watchers: null, ttl: null } });
    const p = (await verify(log)).valid[0]!.parameters;
    expect(p).toMatchObject({ nextKeyHashes: [], witness: null, watchers: [], portable: false, deactivated: false, ttl: 3600 });
  });

  it.each([
    ['an edited state after signing', { afterSign: (e: Record<string, any>) => (e['state'].alsoKnownAs = ['did:web:evil.example']) }, 'entryHash'],
    ['a versionId chained to the wrong predecessor', { chainFrom: '1-QmWrongWrongWrongWrongWrongWrongWrongWrongWrong' }, 'entryHash'],
    ['a gap in the numbering', { beforeSign: (e: Record<string, any>) => (e['versionId'] = e['versionId'].replace(/^2-/, '3-')) }, 'versionId'],
    ['two dashes in the versionId', { beforeSign: (e: Record<string, any>) => (e['versionId'] = `${e['versionId']}-x`) }, 'versionId'],
    ['the same versionTime as the previous entry', { time: '2024-01-01T00:00:00Z' }, 'versionTime'],
    ['a versionTime with a non-UTC offset', { time: '2024-01-02T01:00:00+01:00' }, 'versionTime'],
    ['a versionTime more than 5 minutes ahead', { time: '2024-06-01T00:05:01Z' }, 'versionTime'],
    ['an unknown parameter', { params: { weight: 1 } }, 'parameters'],
    ['scid outside the first entry', { params: { scid: 'QmX' } }, 'parameters'],
    ['portable: true after the first entry', { params: { portable: true } }, 'parameters'],
    ['a method downgrade to an earlier version', { params: { method: 'did:webvh:0.5' } }, 'parameters'],
    ['a ttl beyond 2^31', { params: { ttl: 2 ** 31 + 1 } }, 'parameters'],
    [
      'a witness threshold above the number of witnesses',
      { params: { witness: { threshold: 2, witnesses: [{ id: `did:key:${generateTestKey().multikey}` }] } } },
      'parameters',
    ],
    ['a witness that is not an Ed25519 did:key', { params: { witness: { threshold: 1, witnesses: [{ id: 'did:web:example.com' }] } } }, 'parameters'],
    ['a signature by a key that is not an update key', { key: generateTestKey() }, 'proof'],
    [
      'a move of a DID that is not portable',
      { state: (d: Record<string, any>) => ({ ...d, id: d['id'].replace('example.com', 'example.org'), alsoKnownAs: [d['id']] }) },
      'stateId',
    ],
  ])('stops at entry 2 for %s (%s)', async (_label, options, check) => {
    const log = createWebvhLog();
    log.append(options as Parameters<WebvhTestLog['append']>[0]);
    log.append({});
    const result = await verify(log);
    expect(failureOf(result)).toMatchObject({ versionNumber: 2, check });
    expect(result.valid.map((v) => v.versionNumber)).toEqual([1]);
    expect(result.entries.map((e) => e.status)).toEqual(['VERIFIED', 'FAILED', 'UNVERIFIED']);
    expect(result.entries[1]!.reason).toBe(result.failure!.reason);
  });

  it('accepts a versionTime exactly 5 minutes ahead', async () => {
    const log = createWebvhLog();
    log.append({ time: '2024-06-01T00:05:00Z' });
    expect((await verify(log)).failure).toBeNull();
  });

  it('refuses proofs that are not eddsa-jcs-2022 assertionMethod proofs, even when they verify', async () => {
    for (const change of [
      (p: Record<string, any>) => (p['cryptosuite'] = 'eddsa-rdfc-2022'),
      (p: Record<string, any>) => (p['proofPurpose'] = 'authentication'),
      (p: Record<string, any>) => (p['verificationMethod'] = p['verificationMethod'].split('#')[0]),
    ]) {
      const fresh = createWebvhLog();
      const proof = fresh.entries[0]!['proof'][0];
      change(proof);
      expect(failureOf(await verify(fresh)).check).toBe('proof');
    }
  });

  it('refuses an entry without a proof, and one after deactivation', async () => {
    const unsigned = createWebvhLog();
    unsigned.append({ afterSign: (e) => delete e['proof'] });
    expect(failureOf(await verify(unsigned))).toMatchObject({ versionNumber: 2, check: 'proof', reason: 'the entry has no proof' });

    const deactivated = createWebvhLog();
    deactivated.append({ params: { deactivated: true, updateKeys: [] } });
    expect((await verify(deactivated)).valid[1]!.parameters.deactivated).toBe(true);
    deactivated.append({});
    expect(failureOf(await verify(deactivated))).toMatchObject({ versionNumber: 3, check: 'deactivated' });
  });

  it('rotates keys: the previous update keys sign the entry that replaces them', async () => {
    const first = generateTestKey();
    const second = generateTestKey();
    const log = createWebvhLog({ key: first });
    log.append({ key: first, params: { updateKeys: [second.multikey!] } });
    log.append({ key: second });
    expect((await verify(log)).failure).toBeNull();

    const selfAuthorised = createWebvhLog({ key: first });
    selfAuthorised.append({ key: second, params: { updateKeys: [second.multikey!] } });
    expect(failureOf(await verify(selfAuthorised))).toMatchObject({ versionNumber: 2, check: 'proof' });
  });

  it('pre-rotation: the next keys must be committed, stated explicitly, and sign their own entry', async () => {
    const first = generateTestKey();
    const next = generateTestKey();
    const other = generateTestKey();
    const log = createWebvhLog({ key: first, params: { nextKeyHashes: [preRotationHash(next.multikey!)] } });
    log.append({ key: next, params: { updateKeys: [next.multikey!], nextKeyHashes: [] } });
    const ok = await verify(log);
    expect(ok.failure).toBeNull();
    expect(ok.entries[0]!.preRotation).toBe(true);

    const uncommitted = createWebvhLog({ key: first, params: { nextKeyHashes: [preRotationHash(next.multikey!)] } });
    uncommitted.append({ key: other, params: { updateKeys: [other.multikey!] } });
    expect(failureOf(await verify(uncommitted))).toMatchObject({ versionNumber: 2, check: 'preRotation' });

    const inherited = createWebvhLog({ key: first, params: { nextKeyHashes: [preRotationHash(first.multikey!)] } });
    inherited.append({ key: first });
    expect(failureOf(await verify(inherited))).toMatchObject({ versionNumber: 2, check: 'preRotation' });
  });

  it('a portable DID may move, naming its old DID in alsoKnownAs; the SCID stays', async () => {
    const log = createWebvhLog({ params: { portable: true } });
    log.append({ state: (d) => ({ ...d, id: d['id'].replace('example.com', 'example.org'), alsoKnownAs: [d['id']] }) });
    const result = await verify(log);
    expect(result.failure).toBeNull();
    expect(result.entries[1]!.documentId).toBe(log.did.replace('example.com', 'example.org'));

    const noAlias = createWebvhLog({ params: { portable: true } });
    noAlias.append({ state: (d) => ({ ...d, id: d['id'].replace('example.com', 'example.org') }) });
    expect(failureOf(await verify(noAlias))).toMatchObject({ versionNumber: 2, check: 'stateId' });
  });

  it('reports unreadable lines as failures, never throws', async () => {
    const log = createWebvhLog();
    const text = `${log.text()}{"versionId": "2-x", "versionId": "2-y"}\n`;
    const result = await verifyWebvhLog(log.did, text, { now: NOW });
    expect(failureOf(result)).toMatchObject({ versionNumber: 2, check: 'json' });
    expect(result.failure!.reason).toContain('duplicate member "versionId"');
    const blank = await verifyWebvhLog(log.did, `\n${log.text()}`, { now: NOW });
    expect(failureOf(blank)).toMatchObject({ versionNumber: 1, check: 'json', reason: 'entry 1 is an empty line' });
  });

  it('refuses a log for another SCID', async () => {
    const log = createWebvhLog();
    const other = createWebvhLog();
    const result = await verifyWebvhLog(other.did, log.text(), { now: NOW });
    expect(failureOf(result)).toMatchObject({ versionNumber: 1, check: 'scid' });
  });
});

describe('did:webvh witnesses', () => {
  const w1 = generateTestKey();
  const w2 = generateTestKey();
  const w3 = generateTestKey();
  const rule = (threshold: number, ...keys: (typeof w1)[]) => ({ threshold, witnesses: keys.map((k) => ({ id: `did:key:${k.multikey}` })) });

  it('counts one approval per witness; a proof for a later version approves the earlier ones', async () => {
    const log = createWebvhLog({ params: { witness: rule(2, w1, w2, w3) } });
    log.append({});
    const [v1, v2] = log.entries.map((e) => e['versionId'] as string);
    const text = witnessFileText([
      { versionId: v1!, by: [w1] },
      { versionId: v2!, by: [w2, w3] },
    ]);
    const result = await verify(log, text);
    expect(result.failure).toBeNull();
    expect(result.entries.map((e) => e.witness)).toEqual([
      { threshold: 2, approvals: 3 },
      { threshold: 2, approvals: 2 },
    ]);
    expect(result.witness).toMatchObject({ status: 'FOUND', acceptedProofs: 3 });

    const twice = JSON.stringify([{ versionId: v2, proof: [witnessProof(v2!, w1), witnessProof(v2!, w1)] }]);
    const counted = await verify(log, twice);
    expect(failureOf(counted)).toMatchObject({ versionNumber: 1, check: 'witness' });
    expect(counted.witness.discarded.map((d) => d.reason)).toContain(`did:key:${w1.multikey} already approved ${v2}`);
  });

  it('ignores proofs for unpublished versions, by unlisted witnesses, or that do not verify', async () => {
    const outsider = generateTestKey();
    const log = createWebvhLog({ params: { witness: rule(1, w1) } });
    const v1 = log.entries[0]!['versionId'] as string;
    const bad = witnessProof(v1, w1);
    bad['proofValue'] = witnessProof('1-QmOther', w1)['proofValue'];
    const text = JSON.stringify([
      { versionId: '2-QmNotPublishedYet', proof: [witnessProof('2-QmNotPublishedYet', w1)] },
      { versionId: v1, proof: [witnessProof(v1, outsider), bad] },
    ]);
    const result = await verify(log, text);
    expect(failureOf(result)).toMatchObject({ versionNumber: 1, check: 'witness' });
    expect(result.witness.discarded.map((d) => d.reason)).toEqual([
      'the versionId is not in the log',
      `did:key:${outsider.multikey} is not a listed witness`,
      `the Ed25519 signature by ${w1.multikey} does not verify`,
    ]);
  });

  it('a change of the witness list is governed by the previous list', async () => {
    const log = createWebvhLog({ params: { witness: rule(2, w1, w2) } });
    log.append({ params: { witness: rule(1, w3) } });
    const [v1, v2] = log.entries.map((e) => e['versionId'] as string);
    const byNewList = await verify(
      log,
      witnessFileText([
        { versionId: v1!, by: [w1, w2] },
        { versionId: v2!, by: [w3] },
      ]),
    );
    expect(failureOf(byNewList)).toMatchObject({ versionNumber: 2, check: 'witness' });
    expect(byNewList.valid).toHaveLength(1);
    const byOldList = await verify(log, witnessFileText([{ versionId: v2!, by: [w1, w2] }]));
    expect(byOldList.failure).toBeNull();
    expect(byOldList.valid[1]!.parameters.witness!.witnesses).toEqual([`did:key:${w3.multikey}`]);
  });

  it('witnessing that starts in a later entry governs that entry at once', async () => {
    const log = createWebvhLog();
    log.append({ params: { witness: rule(1, w1) } });
    expect(failureOf(await verify(log))).toMatchObject({ versionNumber: 2, check: 'witness' });
    expect((await verify(log)).witness.status).toBe('NOT_PUBLISHED');
    const v2 = log.entries[1]!['versionId'] as string;
    expect((await verify(log, witnessFileText([{ versionId: v2, by: [w1] }]))).failure).toBeNull();
  });

  it('an unreadable witness file means no approvals', async () => {
    const log = createWebvhLog({ params: { witness: rule(1, w1) } });
    const result = await verify(log, '{"not": "an array"}');
    expect(result.witness).toMatchObject({ status: 'INVALID', reason: 'the witness file is not a JSON array' });
    expect(failureOf(result).check).toBe('witness');
  });
});

describe('did:webvh version selection', () => {
  const log = createWebvhLog();
  log.append({});
  log.append({});
  let result: LogVerification;
  beforeAll(async () => {
    result = await verify(log);
  });
  const times = log.entries.map((e) => e['versionTime'] as string);
  const ids = log.entries.map((e) => e['versionId'] as string);

  it('selects by versionId, versionNumber and versionTime; an entry is active from its own versionTime', async () => {
    expect(selectVersion(result, {}).versionNumber).toBe(3);
    expect(selectVersion(result, { versionId: ids[1]! }).versionNumber).toBe(2);
    expect(selectVersion(result, { versionNumber: 1 }).versionNumber).toBe(1);
    expect(selectVersion(result, { versionTime: times[1]! }).versionNumber).toBe(2);
    expect(selectVersion(result, { versionTime: '2024-01-02T12:00:00Z' }).versionNumber).toBe(2);
    expect(selectVersion(result, { versionTime: '2030-01-01T00:00:00Z' }).versionNumber).toBe(3);
    expect(selectVersion(result, { versionId: ids[0]!, versionNumber: 1, versionTime: times[0]! }).versionNumber).toBe(1);
  });

  it('answers NOT_FOUND for absent versions and disagreeing selectors, INVALID_OPTIONS for a bad time', async () => {
    expect(problemFrom(() => selectVersion(result, { versionNumber: 4 })).code).toBe('NOT_FOUND');
    expect(problemFrom(() => selectVersion(result, { versionNumber: 0 })).code).toBe('NOT_FOUND');
    expect(problemFrom(() => selectVersion(result, { versionId: '1-invalid' })).code).toBe('NOT_FOUND');
    expect(problemFrom(() => selectVersion(result, { versionTime: '2023-12-31T23:59:59Z' })).code).toBe('NOT_FOUND');
    const conflict = problemFrom(() => selectVersion(result, { versionNumber: 1, versionId: ids[1]! }));
    expect(conflict.code).toBe('NOT_FOUND');
    expect(conflict.detail).toContain('name different versions');
    expect(problemFrom(() => selectVersion(result, { versionTime: 'yesterday' })).code).toBe('INVALID_OPTIONS');
  });

  it('serves versions before a broken entry; the broken one and the current one are no answer', async () => {
    const broken = createWebvhLog();
    broken.append({});
    broken.append({ afterSign: (e) => (e['state'].id = 'did:webvh:tampered') });
    const verified = await verify(broken);
    expect(selectVersion(verified, { versionNumber: 2 }).versionNumber).toBe(2);
    expect(selectVersion(verified, { versionTime: broken.entries[0]!['versionTime'] }).versionNumber).toBe(1);
    for (const selectors of [{}, { versionNumber: 3 }, { versionId: broken.entries[2]!['versionId'] as string }, { versionTime: '2030-01-01T00:00:00Z' }]) {
      const problem = problemFrom(() => selectVersion(verified, selectors));
      expect(problem.code, JSON.stringify(selectors)).toBe('INVALID_DID_DOCUMENT');
      expect(problem.detail).toContain('entry 3 of the DID log fails verification (entryHash');
    }
    expect(problemFrom(() => selectVersion(verified, { versionNumber: 9 })).code).toBe('NOT_FOUND');
  });
});

describe('did:webvh verified prefixes', () => {
  it('verifies only the new entries of a log that grew, and nothing of a log that changed', async () => {
    const log = createWebvhLog();
    for (let i = 0; i < 5; i++) log.append({});
    const first = await verify(log);
    expect(first.reusedEntries).toBe(0);
    log.append({});
    const grown = await verifyWebvhLog(log.did, log.text(), { now: NOW, resume: first.prefix });
    expect(grown.reusedEntries).toBe(6);
    expect(grown.valid).toHaveLength(7);
    expect(grown.entries[6]!.status).toBe('VERIFIED');

    // A rewritten history starts over (and fails where it was rewritten).
    const rewritten = log.text().replace('"2024-01-02T00:00:00Z"', '"2024-01-02T00:00:01Z"');
    const again = await verifyWebvhLog(log.did, rewritten, { now: NOW, resume: grown.prefix });
    expect(again.reusedEntries).toBe(0);
    expect(again.failure).toMatchObject({ versionNumber: 2, check: 'entryHash' });

    // A prefix is never applied to another DID's log.
    const other = createWebvhLog();
    expect((await verifyWebvhLog(other.did, other.text(), { now: NOW, resume: grown.prefix })).reusedEntries).toBe(0);
  });

  it('re-verifies a prefix whose proof has expired since, and fails where it expired', async () => {
    const log = createWebvhLog();
    log.append({ proof: { expires: '2024-06-01T01:00:00Z' } });
    log.append({});
    const first = await verify(log);
    expect(first.failure).toBeNull();
    expect(first.prefix.versions[1]!.proofsExpireMs).toBe(Date.parse('2024-06-01T01:00:00Z'));
    log.append({});
    // Still inside the window (and its 60 s skew): resumed.
    const soon = await verifyWebvhLog(log.did, log.text(), { now: new Date('2024-06-01T01:00:30Z'), resume: first.prefix });
    expect(soon.reusedEntries).toBe(3);
    expect(soon.failure).toBeNull();
    // Past it: nothing resumed; entry 2's proof has expired.
    const later = await verifyWebvhLog(log.did, log.text(), { now: new Date('2024-06-02T00:00:00Z'), resume: first.prefix });
    expect(later.reusedEntries).toBe(0);
    expect(later.failure).toMatchObject({ versionNumber: 2, check: 'proof' });
    expect(later.failure!.reason).toContain('expired');
  });

  it('keeps only verified entries in the prefix', async () => {
    const log = createWebvhLog();
    log.append({});
    log.append({ key: generateTestKey() });
    const result = await verify(log);
    expect(result.prefix.versions).toHaveLength(2);
    const resumed = await verifyWebvhLog(log.did, log.text(), { now: NOW, resume: result.prefix });
    expect(resumed.reusedEntries).toBe(2);
    expect(resumed.failure).toMatchObject({ versionNumber: 3, check: 'proof' });
  });
});
