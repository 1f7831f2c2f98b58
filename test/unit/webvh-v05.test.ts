/**
 * did:webvh v0.5 logs (spec-v0.5) and versions svc does not implement, without I/O
 * (src/core/webvh/parameters.ts, verify.ts, select.ts), on logs written by
 * test/support/webvh-log.ts: where v0.5's rules differ from v1.0's, each once; a log that moves
 * from v0.5 to v1.0; and an entry of another version, which stops verification as unsupported
 * (FEATURE_NOT_SUPPORTED), never as a broken log.
 */
import { describe, expect, it } from 'vitest';
import { preRotationHash } from '../../src/core/webvh/hash.js';
import { selectVersion } from '../../src/core/webvh/select.js';
import { verifyWebvhLog, type LogVerification } from '../../src/core/webvh/verify.js';
import { problemFrom } from '../support/problems.js';
import { generateTestKey } from '../support/signing.js';
import { createWebvhLog, witnessFileText, type WebvhTestLog } from '../support/webvh-log.js';

const NOW = new Date('2024-06-01T00:00:00Z');
const V05 = 'did:webvh:0.5';

function verify(log: WebvhTestLog, witnessText?: string): Promise<LogVerification> {
  return verifyWebvhLog(log.did, log.text(), { now: NOW, ...(witnessText !== undefined ? { witnessText } : {}) });
}

describe('did:webvh v0.5', () => {
  it('verifies a v0.5 log with its own parameters (null for off, scid restated, prerotation) and names the version of each entry', async () => {
    const log = createWebvhLog({ params: { method: V05, prerotation: false, nextKeyHashes: null, witness: null, ttl: null, portable: false } });
    log.append({ params: { scid: log.scid, method: V05, ttl: 60 } });
    const result = await verify(log);
    expect(result.failure).toBeNull();
    expect(result.entries.map((e) => [e.status, e.method])).toEqual([
      ['VERIFIED', V05],
      ['VERIFIED', V05],
    ]);
    expect(result.entries[1]!.changes).toEqual(['ttl']);
    expect(result.valid[1]!.parameters).toMatchObject({ method: V05, nextKeyHashes: [], witness: null, ttl: 60 });
  });

  it('keeps v1.0 strict where v0.5 is not: scid restated, prerotation', async () => {
    const restated = createWebvhLog();
    restated.append({ params: { scid: restated.scid } });
    expect((await verify(restated)).failure).toMatchObject({ versionNumber: 2, check: 'parameters' });
    const prerotation = createWebvhLog({ params: { prerotation: true } });
    expect((await verify(prerotation)).failure).toMatchObject({ versionNumber: 1, check: 'parameters', reason: expect.stringContaining('did:webvh:1.0') });
  });

  it('refuses a v0.5 scid that changes, and updateKeys: null leaves no key to sign with', async () => {
    const changed = createWebvhLog({ params: { method: V05 } });
    changed.append({ params: { scid: 'QmOtherOtherOtherOtherOtherOtherOtherOtherOthe' } });
    expect((await verify(changed)).failure).toMatchObject({ versionNumber: 2, check: 'parameters', reason: expect.stringContaining('changes') });

    const closed = createWebvhLog({ params: { method: V05 } });
    closed.append({ params: { updateKeys: null, deactivated: true } });
    const result = await verify(closed);
    expect(result.failure).toBeNull();
    expect(result.valid[1]!.parameters.updateKeys).toEqual([]);
  });

  it('pre-rotation: the entry states its updateKeys and its nextKeyHashes (null ends it)', async () => {
    const first = generateTestKey();
    const next = generateTestKey();
    const after = generateTestKey();
    const ok = createWebvhLog({ key: first, params: { method: V05, nextKeyHashes: [preRotationHash(next.multikey!)] } });
    ok.append({ key: next, params: { updateKeys: [next.multikey!], nextKeyHashes: null } });
    ok.append({ key: next, params: { updateKeys: [after.multikey!] } });
    const verified = await verify(ok);
    expect(verified.failure).toBeNull();
    expect(verified.entries.map((e) => e.preRotation)).toEqual([true, false, false]);

    const missing = createWebvhLog({ key: first, params: { method: V05, nextKeyHashes: [preRotationHash(next.multikey!)] } });
    missing.append({ key: next, params: { updateKeys: [next.multikey!] } });
    expect((await verify(missing)).failure).toMatchObject({ versionNumber: 2, check: 'preRotation', reason: expect.stringContaining('nextKeyHashes') });
  });

  it('witnesses: weights count towards the threshold', async () => {
    const [heavy, light1, light2] = [generateTestKey(), generateTestKey(), generateTestKey()];
    const witness = {
      threshold: 3,
      witnesses: [
        { id: `did:key:${heavy.multikey}`, weight: 2 },
        { id: `did:key:${light1.multikey}`, weight: 1 },
        { id: `did:key:${light2.multikey}`, weight: 1 },
      ],
    };
    const log = createWebvhLog({ params: { method: V05, witness } });
    const versionId = log.entries[0]!['versionId'];
    const met = await verify(log, witnessFileText([{ versionId, by: [heavy, light1] }]));
    expect(met.failure).toBeNull();
    expect(met.entries[0]!.witness).toEqual({ threshold: 3, approvals: 3 });
    const short = await verify(log, witnessFileText([{ versionId, by: [light1, light2] }]));
    expect(short.failure).toMatchObject({ versionNumber: 1, check: 'witness' });
    expect(short.entries[0]!.witness).toEqual({ threshold: 3, approvals: 2 });
    // v1.0 defines no weight.
    const v1 = createWebvhLog({ params: { witness } });
    expect((await verify(v1)).failure).toMatchObject({ versionNumber: 1, check: 'parameters', reason: expect.stringContaining('"weight"') });
  });

  it('witnesses: a list set in a later entry takes effect after it (v1.0: at once)', async () => {
    const w = generateTestKey();
    const witness = { threshold: 1, witnesses: [{ id: `did:key:${w.multikey}` }] };
    const v05 = createWebvhLog({ params: { method: V05 } });
    v05.append({ params: { witness } });
    const later = await verify(v05);
    expect(later.failure).toBeNull();
    expect(later.entries[1]!.witness).toBeNull();

    const v1 = createWebvhLog();
    v1.append({ params: { witness } });
    expect((await verify(v1)).failure).toMatchObject({ versionNumber: 2, check: 'witness' });
  });

  it('moves from v0.5 to v1.0 in a later entry, and never back', async () => {
    const log = createWebvhLog({ params: { method: V05 } });
    log.append({ params: { method: 'did:webvh:1.0' } });
    log.append({ params: { watchers: ['https://watcher.example'] } });
    const result = await verify(log);
    expect(result.failure).toBeNull();
    expect(result.entries.map((e) => e.method)).toEqual([V05, 'did:webvh:1.0', 'did:webvh:1.0']);
    // Under v1.0 again, a restated scid is refused.
    log.append({ params: { scid: log.scid } });
    expect((await verify(log)).failure).toMatchObject({ versionNumber: 4, check: 'parameters' });

    const back = createWebvhLog();
    back.append({ params: { method: V05 } });
    expect((await verify(back)).failure).toMatchObject({
      versionNumber: 2,
      check: 'parameters',
      reason: 'the method goes back from did:webvh:1.0 to did:webvh:0.5',
    });
  });
});

describe('did:webvh versions svc does not implement', () => {
  it.each(['did:webvh:2.0', 'did:webvh:0.4', 'did:tdw:0.3', 'did:webvh:99.0'])('stops at a first entry of %s as unsupported, not failed', async (method) => {
    const log = createWebvhLog({ params: { method } });
    const result = await verify(log);
    expect(result.failure).toMatchObject({ versionNumber: 1, check: 'method', unsupportedMethod: method });
    expect(result.entries[0]).toMatchObject({ status: 'UNVERIFIED', check: 'method', method: null });
    expect(result.entries[0]!.reason).toContain(method);
    const problem = problemFrom(() => selectVersion(result, {}));
    expect(problem.code).toBe('FEATURE_NOT_SUPPORTED');
    expect(problem.detail).toContain(method);
  });

  it('recognises the version before checking anything by rules svc knows (a future hash breaks no chain)', async () => {
    const log = createWebvhLog();
    log.append({ params: { method: 'did:webvh:2.0' }, afterSign: (e) => (e['versionId'] = '2-ZZfutureHash') });
    const result = await verify(log);
    expect(result.failure).toMatchObject({ versionNumber: 2, check: 'method', unsupportedMethod: 'did:webvh:2.0' });
    expect(result.valid.map((v) => v.versionNumber)).toEqual([1]);
    // The versions before it are served; the current one is unsupported, not invalid.
    expect(selectVersion(result, { versionNumber: 1 }).versionNumber).toBe(1);
    expect(problemFrom(() => selectVersion(result, {})).code).toBe('FEATURE_NOT_SUPPORTED');
    expect(problemFrom(() => selectVersion(result, { versionNumber: 2 })).code).toBe('FEATURE_NOT_SUPPORTED');
  });

  it('a deactivated DID takes no entry, whatever version it names', async () => {
    const log = createWebvhLog();
    log.append({ params: { deactivated: true } });
    log.append({ params: { method: 'did:webvh:2.0' } });
    expect((await verify(log)).failure).toMatchObject({ versionNumber: 3, check: 'deactivated' });
  });

  it('names a did:tdw log of JSON-array entries (before v0.4) as unsupported', async () => {
    const line = JSON.stringify(['1-QmX', '2024-01-01T00:00:00Z', { method: 'did:tdw:0.3', scid: 'QmX' }, { value: {} }, []]);
    const log = createWebvhLog();
    const result = await verifyWebvhLog(log.did, `${line}\n`, { now: NOW });
    expect(result.failure).toMatchObject({ versionNumber: 1, check: 'method', unsupportedMethod: 'did:tdw:0.3' });
  });

  it('a method that names no version is a broken entry', async () => {
    for (const method of ['didwebvh:1.0', 42]) {
      const result = await verify(createWebvhLog({ params: { method } }));
      expect(result.failure).toMatchObject({ versionNumber: 1, check: 'parameters' });
    }
  });
});
