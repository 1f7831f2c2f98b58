/**
 * The SQLite observation store's group commit builds the row of a new observation from the
 * values it bound instead of reading it back: the row a record() resolves to must be the row
 * the table holds, key for key and in the same order, for every shape of value (latency null,
 * whole or fractional; a domain-binding status or none), within a group and alone; and a
 * record that fails inside a group rejects alone while the others of its group are written. The
 * same through the daemon's writer thread, whose rows cross from its connection to the event loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewObservation } from '../../src/core/history/store.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-record-row-'));
const opened: SqliteStore[] = [];
afterAll(() => {
  for (const store of opened) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function observation(i: number, extra: Partial<NewObservation> = {}): NewObservation {
  const did = `did:example:row${i}`;
  return {
    did,
    documentHash: `${i.toString(16).padStart(64, '0')}`,
    document: { '@context': 'https://www.w3.org/ns/did/v1', id: did, alsoKnownAs: [`n${i}`] } as NewObservation['document'],
    observedAt: `2026-03-01T10:00:${String(i % 60).padStart(2, '0')}Z`,
    latencyMs: [null, 0, 12, 3.25][i % 4]!,
    resolverVersion: `svc/${i % 3}`,
    domainBindingStatus: i % 5 === 0 ? 'VERIFIED' : null,
    summary: `summary ${i}`,
    ...extra,
  } as NewObservation;
}

describe.each([
  ['a file', () => path.join(dir, `${opened.length}.db`), false],
  ['a file, written by the writer thread', () => path.join(dir, `${opened.length}.db`), true],
  ['memory', () => ':memory:', false],
])('SQLite observations on %s', (_, where, recordThread) => {
  it('a recorded row is the stored row, within a group commit, alone, and when a row is evicted', async () => {
    for (const recordBatch of [64, 1]) {
      const store = openSqliteStore({ path: where(), recordBatch, maxObservations: 40, recordThread });
      opened.push(store);
      const recorded = await Promise.all(Array.from({ length: 60 }, (_, i) => store.observations.record(observation(i))));
      // Again with the same hashes: coalesced into the rows above, read back as before.
      recorded.push(...(await Promise.all(Array.from({ length: 14 }, (_, i) => store.observations.record(observation(i + 46, { latencyMs: i }))))));
      expect(new Set(recorded.map((r) => r.outcome))).toEqual(new Set(['stored', 'evicted', 'coalesced']));
      for (const { row } of recorded) {
        const stored = (await store.observations.list(row!.did, 1000)).find((r) => r.id === row!.id);
        if (stored === undefined) continue; // evicted since by a later record
        if (recorded.some((r) => r.row!.id === row!.id && r.row!.seenCount > row!.seenCount)) continue;
        expect(Object.entries(row!)).toEqual(Object.entries(stored));
      }
    }
  });

  it('a record that fails rejects alone; the rest of its group is written', async () => {
    const store = openSqliteStore({ path: where(), recordThread });
    opened.push(store);
    const bad = observation(3, { summary: null as unknown as string });
    const results = await Promise.allSettled([observation(1), bad, observation(2)].map((o) => store.observations.record(o)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.observations.count(observation(1).did)).toBe(1);
    expect(await store.observations.count(observation(2).did)).toBe(1);
    expect(await store.observations.count(bad.did)).toBe(0);
  });
});
