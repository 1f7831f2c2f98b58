/**
 * Document hash prefixes (src/core/history/prefix.ts) against the real SQLite store in memory:
 * the syntax rule (8..64 lower-case hex), resolution within one DID, ambiguity, and the length
 * `svc history` prints. diffOf takes a prefix wherever it takes a whole hash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkHashPrefix, diffOf, documentHashes, expandHashPrefix, historyPrefixLength, uniquePrefixLength } from '../../src/core/history/index.js';
import type { Runtime } from '../../src/core/runtime.js';
import type { RuntimeStore } from '../../src/core/store.js';
import { openStore } from '../../src/store/index.js';
import { problemFrom, problemOf } from '../support/problems.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { sampleObservation } from '../support/store.js';

const DID = 'did:web:prefix.example';
const OTHER = 'did:web:other.example';

// Two hashes sharing their first 10 characters, one apart from them, one of another DID.
const TWIN_A = `0123456789a${'0'.repeat(53)}`;
const TWIN_B = `0123456789b${'1'.repeat(53)}`;
const LONE = `fedcba98${'2'.repeat(56)}`;
const FOREIGN = `0123456789c${'3'.repeat(53)}`;

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

async function runtimeWith(rows: Array<{ did: string; hash: string; at: string }>): Promise<Runtime & { store: RuntimeStore }> {
  const store = openStore({ path: ':memory:' });
  opened.push(store);
  for (const { did, hash, at } of rows) {
    await store.observations.record(
      sampleObservation({
        did,
        documentHash: hash,
        observedAt: at,
        document: { id: did, service: [{ id: '#s', type: 'T', serviceEndpoint: `https://x.example/${hash}` }] },
      }),
    );
  }
  return { ...testRuntime(fixedClock()), store };
}

function seeded(): Promise<Runtime & { store: RuntimeStore }> {
  return runtimeWith([
    { did: DID, hash: TWIN_A, at: '2025-01-01T00:00:00Z' },
    { did: DID, hash: LONE, at: '2025-01-02T00:00:00Z' },
    { did: DID, hash: TWIN_B, at: '2025-01-03T00:00:00Z' },
    { did: DID, hash: LONE, at: '2025-01-04T00:00:00Z' },
    { did: OTHER, hash: FOREIGN, at: '2025-01-05T00:00:00Z' },
  ]);
}

describe('checkHashPrefix', () => {
  it('accepts 8 to 64 lower-case hex characters', () => {
    for (const ok of ['01234567', TWIN_A.slice(0, 12), TWIN_A.slice(0, 63), TWIN_A]) expect(() => checkHashPrefix('from', ok)).not.toThrow();
  });

  it('refuses a short prefix saying at least 8, and anything else naming the rule', () => {
    const short = problemFrom(() => checkHashPrefix('to', '0123456'));
    expect(short.code).toBe('INVALID_OPTIONS');
    expect(short.detail).toBe('"to" is too short: a document hash prefix needs at least 8 hexadecimal characters (7 given).');
    for (const bad of ['0123456789ABCDEF', `${TWIN_A}0`, 'sha256:0123456789', 'g1234567']) {
      const p = problemFrom(() => checkHashPrefix('from', bad));
      expect(p.code).toBe('INVALID_OPTIONS');
      expect(p.detail).toMatch(/^"from" must be a document hash \(64 lower-case hexadecimal characters\) or a unique prefix of one \(at least 8\)\.$/);
    }
  });
});

describe('expandHashPrefix', () => {
  it('resolves a unique prefix within the DID only, and keeps a whole hash as it is', async () => {
    const { store } = await seeded();
    expect(await expandHashPrefix(store, DID, 'from', LONE.slice(0, 8))).toBe(LONE);
    expect(await expandHashPrefix(store, DID, 'from', TWIN_A.slice(0, 11))).toBe(TWIN_A);
    expect(await expandHashPrefix(store, DID, 'to', TWIN_B)).toBe(TWIN_B);
    // FOREIGN shares the twins' first 10 characters but belongs to another DID.
    expect(await expandHashPrefix(store, OTHER, 'from', '0123456789')).toBe(FOREIGN);
  });

  it('an ambiguous prefix is INVALID_OPTIONS naming how many hashes match and how they differ (newest first)', async () => {
    const { store } = await seeded();
    const p = await problemOf(expandHashPrefix(store, DID, 'from', '01234567'));
    expect(p.code).toBe('INVALID_OPTIONS');
    expect(p.detail).toBe(
      `The "from" prefix 01234567 is ambiguous: 2 document hashes observed for ${DID} start with it (0123456789b, 0123456789a); give more characters.`,
    );
  });

  it('a prefix nothing of the DID starts with is NOT_FOUND', async () => {
    const { store } = await seeded();
    const p = await problemOf(expandHashPrefix(store, DID, 'to', 'abcdef01'));
    expect(p.code).toBe('NOT_FOUND');
    expect(p.detail).toBe(`No document hash observed for ${DID} starts with the "to" prefix abcdef01.`);
  });

  it('distinct hashes are listed once, newest first', async () => {
    expect(await documentHashes((await seeded()).store, DID)).toEqual([LONE, TWIN_B, TWIN_A]);
  });
});

describe('uniquePrefixLength', () => {
  it('is 12 unless two hashes share 12 or more characters, then one past their common part', () => {
    expect(uniquePrefixLength([])).toBe(12);
    expect(uniquePrefixLength([TWIN_A, LONE, LONE])).toBe(12);
    const close = `0123456789abcdef${'4'.repeat(48)}`;
    const closer = `0123456789abcdef0${'5'.repeat(47)}`;
    expect(uniquePrefixLength([close, closer, LONE])).toBe(17);
    expect(uniquePrefixLength([TWIN_A, TWIN_B], 8)).toBe(11);
  });
});

describe('historyPrefixLength', () => {
  it('is uniquePrefixLength over every distinct hash of the DID, whatever shares what', async () => {
    // Random histories whose hashes cluster on a few long prefixes, so that neighbours share 0 to
    // 63 characters (some rows repeat a hash, another DID shares the clusters).
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[random(16)]).join('');
    for (let round = 0; round < 40; round++) {
      const stems = Array.from({ length: 1 + random(4) }, () => hex(random(64)));
      const hashes = Array.from({ length: 1 + random(30) }, () => {
        const stem = stems[random(stems.length)]!;
        return (stem + hex(64)).slice(0, 64);
      });
      const rows = hashes.map((hash, i) => ({
        did: i % 5 === 4 ? OTHER : DID,
        hash,
        at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString().replace('.000', ''),
      }));
      const { store } = await runtimeWith(rows);
      expect(await historyPrefixLength(store, DID)).toBe(uniquePrefixLength(await documentHashes(store, DID)));
    }
  });

  it('is 12 for a DID with no history, and longer when two hashes share 12 characters or more', async () => {
    const close = `0123456789abcdef${'4'.repeat(48)}`;
    const closer = `0123456789abcdef0${'5'.repeat(47)}`;
    const { store } = await runtimeWith([
      { did: DID, hash: close, at: '2025-01-01T00:00:00Z' },
      { did: DID, hash: LONE, at: '2025-01-02T00:00:00Z' },
      { did: DID, hash: closer, at: '2025-01-03T00:00:00Z' },
    ]);
    expect(await historyPrefixLength(store, 'did:web:none.example')).toBe(12);
    expect(await historyPrefixLength(store, DID)).toBe(17);
    expect(await historyPrefixLength((await seeded()).store, DID)).toBe(12);
  });
});

describe('diffOf with prefixes', () => {
  it('gives the same diff for an 8-character prefix as for the whole hashes', async () => {
    const runtime = await seeded();
    const whole = await diffOf(DID, runtime, { from: TWIN_A, to: TWIN_B });
    expect(await diffOf(DID, runtime, { from: TWIN_A.slice(0, 11), to: TWIN_B.slice(0, 11) })).toEqual(whole);
    expect(await diffOf(DID, runtime, { from: LONE.slice(0, 8) })).toEqual(await diffOf(DID, runtime, { from: LONE }));
    expect(await diffOf(DID, runtime, { to: LONE.slice(0, 8) })).toEqual(await diffOf(DID, runtime, { to: LONE }));
  });

  it('refuses an ambiguous or short prefix before comparing anything', async () => {
    const runtime = await seeded();
    expect((await problemOf(diffOf(DID, runtime, { to: '0123456789' }))).detail).toMatch(/^The "to" prefix 0123456789 is ambiguous: 2 document hashes/);
    expect((await problemOf(diffOf(DID, runtime, { from: 'fedc' }))).detail).toMatch(/^"from" is too short/);
  });
});

describe('diffOf reads only what the diff needs', () => {
  /** Wraps the observation store: how often each method was called, and how many documents came back. */
  function counting(runtime: Runtime & { store: RuntimeStore }): { calls: Record<string, number>; documents: () => number } {
    const calls: Record<string, number> = {};
    let documents = 0;
    const observations = runtime.store.observations;
    const counted = new Proxy(observations, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          calls[String(property)] = (calls[String(property)] ?? 0) + 1;
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          const rows = Array.isArray(result) ? result : result === undefined ? [] : [result];
          documents += rows.filter((row) => typeof row === 'object' && row !== null && 'document' in row).length;
          return result;
        };
      },
    });
    // An own property over the store's lazy getter (src/store/index.ts).
    Object.defineProperty(runtime.store, 'observations', { value: counted });
    return { calls, documents: () => documents };
  }

  it('diff --to <old prefix> and --from/--to read two observations, whatever the length of the history', async () => {
    // 300 observations alternating between documents: every hash has many rows.
    const hash = (i: number) => `${String(i % 7).repeat(8)}${'0'.repeat(56)}`;
    const rows = Array.from({ length: 300 }, (_, i) => ({
      did: DID,
      hash: hash(i),
      at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString().replace('.000', ''),
    }));
    const runtime = await runtimeWith(rows);
    const reference = await diffOf(DID, runtime, { from: hash(1), to: hash(2) });

    const { calls, documents } = counting(runtime);
    // `to` alone: its latest row (index 296 → hash(2)) and the row just before it (hash(1)).
    const toOnly = await diffOf(DID, runtime, { to: hash(2).slice(0, 8) });
    expect(toOnly).toEqual(reference);
    expect(calls).toEqual({ hashesWithPrefix: 1, findByHash: 1, olderThan: 1 });
    expect(documents()).toBe(2);

    const both = await diffOf(DID, runtime, { from: hash(1).slice(0, 8), to: hash(2).slice(0, 8) });
    expect(both).toEqual(reference);
    expect(calls).toEqual({ hashesWithPrefix: 3, findByHash: 3, olderThan: 1 });
    expect(documents()).toBe(4);
  });

  it('the oldest observation as `to` is still NOT_FOUND, worded as before', async () => {
    const runtime = await seeded();
    expect((await problemOf(diffOf(DID, runtime, { to: TWIN_A.slice(0, 11) }))).detail).toBe(
      `No observation of ${DID} is older than the one with document hash ${TWIN_A}; a diff needs two.`,
    );
  });
});
