/**
 * did:webvh v1.0 hashes (SCID, entry hash, pre-rotation hash) against public logs: the
 * didwebvh-py sample and the didwebvh-test-suite vectors (ts artifacts). Every entry's
 * versionId must be `<n>-<entry hash>` and the genesis entry must commit to its SCID.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeEntryHash, computeScid, preRotationHash, webvhHash } from '../../src/core/webvh/hash.js';
import { describeWithFixtures } from '../support/fixtures.js';

type Entry = Record<string, unknown> & { versionId: string; parameters: Record<string, unknown> };

function readLog(file: string): Entry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Entry);
}

/** Checks the SCID and the hash chain of a whole log; returns what it verified. */
function verifyChain(log: Entry[]): { scid: string; entries: number; rotations: number } {
  const scid = log[0]!.parameters['scid'] as string;
  expect(computeScid(log[0]!, scid)).toBe(scid);
  let previous = scid;
  let nextKeyHashes: string[] = [];
  let rotations = 0;
  log.forEach((entry, i) => {
    const [n, hash] = entry.versionId.split('-');
    expect(Number(n)).toBe(i + 1);
    expect(computeEntryHash(entry, previous)).toBe(hash);
    const updateKeys = entry.parameters['updateKeys'] as string[] | undefined;
    if (nextKeyHashes.length > 0 && updateKeys) {
      for (const key of updateKeys) expect(nextKeyHashes).toContain(preRotationHash(key));
      rotations += 1;
    }
    if (Array.isArray(entry.parameters['nextKeyHashes'])) nextKeyHashes = entry.parameters['nextKeyHashes'] as string[];
    previous = entry.versionId;
  });
  return { scid, entries: log.length, rotations };
}

describe('webvhHash', () => {
  it('is base58btc of a SHA-256 multihash of the JCS form ("Qm…", 46 characters)', () => {
    const hash = webvhHash({ b: 1, a: [true, null] });
    expect(hash).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(webvhHash({ a: [true, null], b: 1 })).toBe(hash);
    expect(webvhHash({ a: [true, null], b: 2 })).not.toBe(hash);
  });

  it('the SCID and the entry hash change when any member changes', () => {
    const entry = { versionId: '{SCID}', versionTime: '2025-01-01T00:00:00Z', parameters: { scid: 'QmX' }, state: { id: 'did:webvh:QmX:example.com' } };
    const scid = computeScid(entry, 'QmX');
    expect(computeScid({ ...entry, versionTime: '2025-01-01T00:00:01Z' }, 'QmX')).not.toBe(scid);
    expect(computeEntryHash(entry, 'QmA')).not.toBe(computeEntryHash(entry, 'QmB'));
    // The proof is not part of either hash.
    expect(computeEntryHash({ ...entry, proof: [{ any: 'thing' }] }, 'QmA')).toBe(computeEntryHash(entry, 'QmA'));
  });
});

describeWithFixtures('did:webvh hash chains of public logs', '.', (fixtures) => {
  it('the didwebvh-py sample: SCID, two entries, pre-rotation', () => {
    const log = readLog(path.join(fixtures, 'didwebvh-py-sample/sample-diddoc/did.jsonl'));
    const result = verifyChain(log);
    expect(result).toEqual({ scid: 'QmNdazvnrgei4agYFMVJjYduyZSYHcYWnHEgNW7A1sMUoU', entries: 2, rotations: 1 });
  });

  it('every positive test-suite vector (ts artifacts) has a valid SCID and hash chain', () => {
    const vectors = path.join(fixtures, 'didwebvh-test-suite/vectors');
    const positive = readdirSync(vectors).filter((name) => !name.startsWith('negative-') && existsSync(path.join(vectors, name, 'ts/did.jsonl')));
    expect(positive.length).toBeGreaterThanOrEqual(13);
    for (const name of positive) {
      const result = verifyChain(readLog(path.join(vectors, name, 'ts/did.jsonl')));
      expect(result.entries, name).toBeGreaterThan(0);
    }
  });

  it('a tampered genesis entry no longer matches its SCID, a tampered later entry breaks the chain', () => {
    const log = readLog(path.join(fixtures, 'didwebvh-py-sample/sample-diddoc/did.jsonl'));
    const scid = log[0]!.parameters['scid'] as string;
    const genesis = { ...log[0]!, versionTime: '2025-05-09T22:33:42Z' };
    expect(computeScid(genesis, scid)).not.toBe(scid);
    const second = { ...log[1]!, versionTime: '2025-05-09T22:33:59Z' };
    expect(computeEntryHash(second, log[0]!.versionId)).not.toBe(log[1]!.versionId.split('-')[1]);
  });
});
