/**
 * Observation history and diff against the real SQLite store (in memory): what a resolution
 * records, what is skipped, how history lists it and how diff picks the two observations.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { jcsSha256 } from '../../src/core/canonical.js';
import { diffOf, historyOf, HISTORY_NOTE, observationOf, observedChanges, recordObservation } from '../../src/core/history/index.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { DidDocument, EnrichedResolution } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import type { NewObservation, RuntimeStore } from '../../src/core/store.js';
import { openStore } from '../../src/store/index.js';
import { RESOLVER } from '../../src/version.js';
import { ED25519_DID } from '../support/dids.js';
import { problemOf } from '../support/problems.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, type TestKey } from '../support/signing.js';

const WEB_DID = 'did:web:id.example.com';
const HASH_RE = /^[0-9a-f]{64}$/;

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** A fresh in-memory store, closed after the test. */
function memoryStore(): RuntimeStore {
  const store = openStore({ path: ':memory:' });
  opened.push(store);
  return store;
}

function runtimeWithStore(): Runtime & { store: RuntimeStore } {
  return { ...testRuntime(fixedClock('2026-03-01T10:00:00.000Z')), store: memoryStore() };
}

function webDocument(key: TestKey, extra: Record<string, unknown> = {}): DidDocument {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: WEB_DID,
    verificationMethod: [{ id: `${WEB_DID}#key-1`, type: 'Multikey', controller: WEB_DID, publicKeyMultibase: key.multikey }],
    authentication: [`${WEB_DID}#key-1`],
    assertionMethod: [`${WEB_DID}#key-1`],
    ...extra,
  };
}

function observation(document: DidDocument, observedAt: string, domainBindingStatus: NewObservation['domainBindingStatus'] = 'VERIFIED'): NewObservation {
  return {
    did: WEB_DID,
    documentHash: jcsSha256(document),
    document,
    observedAt,
    latencyMs: 25,
    resolverVersion: RESOLVER.version,
    domainBindingStatus,
    summary: 'Resolved a did:web identifier with 1 of 1 key valid (Ed25519).',
  };
}

const k1 = generateTestKey();
const k2 = generateTestKey();
const k3 = generateTestKey();
const doc1 = webDocument(k1);
const doc2 = webDocument(k2);
const doc3 = webDocument(k2, { service: [{ id: '#files', type: 'relativeRef', serviceEndpoint: 'https://id.example.com/files' }] });
const hash1 = jcsSha256(doc1);
const hash2 = jcsSha256(doc2);
const hash3 = jcsSha256(doc3);

/** Three distinct snapshots of WEB_DID: k1, then k2 (rotated), then k2 plus a service. */
async function storeWithThree(): Promise<Runtime & { store: RuntimeStore }> {
  const runtime = runtimeWithStore();
  await runtime.store.observations.record(observation(doc1, '2026-01-01T00:00:00Z'));
  await runtime.store.observations.record(observation(doc2, '2026-01-02T00:00:00Z'));
  await runtime.store.observations.record(observation(doc3, '2026-01-03T00:00:00Z', 'NOT_LINKED'));
  return runtime;
}

describe('observationOf', () => {
  it('takes hash, time, latency, version, binding and headline from a did:key resolution', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    const o = observationOf(result);
    expect(o).toEqual({
      did: ED25519_DID,
      documentHash: result.evidence.document.jcsSha256,
      document: result.didDocument,
      observedAt: '2025-03-04T05:06:07Z',
      latencyMs: result.didResolutionMetadata.durationMs,
      resolverVersion: RESOLVER.version,
      domainBindingStatus: null,
      summary: result.verdict.headline,
    });
    expect(o.documentHash).toBe(jcsSha256(result.didDocument));
    expect(o.documentHash).toMatch(HASH_RE);
    // did:key derives its document: there is no fetch latency, so the duration stands in.
    expect(result.evidence.source.latencyMs).toBeNull();
  });

  it('prefers the fetch latency and records the domain binding status when there is one', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    const fetched: EnrichedResolution = {
      ...result,
      evidence: {
        ...result.evidence,
        source: { ...result.evidence.source, latencyMs: 137 },
        domainBinding: {
          status: 'NOT_LINKED',
          origin: 'https://id.example.com',
          configurationUrl: 'https://id.example.com/.well-known/did-configuration.json',
          reason: 'No credential links the DID.',
          credentials: [],
        },
      },
    };
    const o = observationOf(fetched);
    expect(o.latencyMs).toBe(137);
    expect(o.domainBindingStatus).toBe('NOT_LINKED');
  });
});

describe('recordObservation', () => {
  it('returns null and records nothing without a store', async () => {
    const runtime = testRuntime();
    expect(runtime.store).toBeUndefined();
    const result = await resolve(ED25519_DID, runtime);
    expect(await recordObservation(runtime, result)).toBeNull();
  });

  it('records a retrieval, coalesces an unchanged one and skips cache hits', async () => {
    const runtime = runtimeWithStore();
    const first = await resolve(ED25519_DID, runtime);
    const recorded = (await recordObservation(runtime, first))?.row;
    expect(recorded).toMatchObject({
      did: ED25519_DID,
      documentHash: first.evidence.document.jcsSha256,
      observedAt: '2026-03-01T10:00:00Z',
      lastSeenAt: '2026-03-01T10:00:00Z',
      seenCount: 1,
      resolverVersion: RESOLVER.version,
      domainBindingStatus: null,
      summary: first.verdict.headline,
    });

    const hit = await resolve(ED25519_DID, runtime);
    expect(hit.cached).toBe(true);
    expect(await recordObservation(runtime, hit)).toBeNull();
    expect(await runtime.store.observations.count(ED25519_DID)).toBe(1);
    expect((await runtime.store.observations.list(ED25519_DID, 10))[0]?.seenCount).toBe(1);

    const again = await resolve(ED25519_DID, runtime, { noCache: true });
    expect(again.cached).toBe(false);
    const coalesced = (await recordObservation(runtime, again))?.row;
    expect(coalesced?.id).toBe(recorded?.id);
    expect(coalesced?.seenCount).toBe(2);
    expect(await runtime.store.observations.count(ED25519_DID)).toBe(1);
  });

  it('skips versioned resolutions', async () => {
    const runtime = runtimeWithStore();
    const result = await resolve(ED25519_DID, runtime);
    expect(await recordObservation(runtime, result, { versioned: true })).toBeNull();
    expect(await runtime.store.observations.count(ED25519_DID)).toBe(0);
    expect(await recordObservation(runtime, result, { versioned: false })).not.toBeNull();
    expect(await runtime.store.observations.count(ED25519_DID)).toBe(1);
  });
});

describe('historyOf', () => {
  it('lists the observations newest first, with the count and the note', async () => {
    const runtime = await storeWithThree();
    const h = await historyOf(WEB_DID, runtime);
    expect(h.did).toBe(WEB_DID);
    expect(h.count).toBe(3);
    expect(h.history.map((o) => o.documentHash)).toEqual([hash3, hash2, hash1]);
    expect(h.history.map((o) => o.observedAt)).toEqual(['2026-01-03T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z']);
    expect(h.history[0]?.domainBindingStatus).toBe('NOT_LINKED');
    expect(h.note).toBe(HISTORY_NOTE);
    expect(h.note).toContain('not proofs of history');
    expect(h.note).toContain('coalesced');
    expect(h.note).toContain('seenCount');
    expect(h.note).toContain('lastSeenAt');
    // Exactly the documented members: the stored document does not leak into the list.
    expect(Object.keys(h.history[0]!).sort()).toEqual([
      'did',
      'documentHash',
      'domainBindingStatus',
      'id',
      'lastSeenAt',
      'latencyMs',
      'observedAt',
      'resolverVersion',
      'seenCount',
      'summary',
    ]);
  });

  it('shows coalesced snapshots as one row with seenCount and lastSeenAt', async () => {
    const runtime = runtimeWithStore();
    await runtime.store.observations.record(observation(doc1, '2026-01-01T00:00:00Z'));
    await runtime.store.observations.record(observation(doc1, '2026-01-05T00:00:00Z'));
    const h = await historyOf(WEB_DID, runtime);
    expect(h.count).toBe(1);
    expect(h.history).toHaveLength(1);
    expect(h.history[0]).toMatchObject({ documentHash: hash1, observedAt: '2026-01-01T00:00:00Z', lastSeenAt: '2026-01-05T00:00:00Z', seenCount: 2 });
  });

  it('limits the list but counts every row', async () => {
    const h = await historyOf(WEB_DID, await storeWithThree(), 2);
    expect(h.count).toBe(3);
    expect(h.history.map((o) => o.documentHash)).toEqual([hash3, hash2]);
  });

  it('refuses a limit outside 1..1000', async () => {
    const runtime = await storeWithThree();
    for (const limit of [0, -1, 1.5, 1001]) expect((await problemOf(historyOf(WEB_DID, runtime, limit))).code).toBe('INVALID_OPTIONS');
  });

  it('answers an unknown DID with an empty history, not NOT_FOUND', async () => {
    const h = await historyOf('did:web:never.example.com', await storeWithThree());
    expect(h).toEqual({ did: 'did:web:never.example.com', count: 0, history: [], note: HISTORY_NOTE });
  });

  it('rejects an invalid DID and a DID URL with INVALID_DID', async () => {
    const runtime = await storeWithThree();
    expect((await problemOf(historyOf('not-a-did', runtime))).code).toBe('INVALID_DID');
    const url = await problemOf(historyOf(`${WEB_DID}#key-1`, runtime));
    expect(url.code).toBe('INVALID_DID');
    expect(url.status).toBe(400);
  });

  it('needs a store: FEATURE_NOT_SUPPORTED without one', async () => {
    const p = await problemOf(historyOf(WEB_DID, testRuntime()));
    expect(p.code).toBe('FEATURE_NOT_SUPPORTED');
    expect(p.detail).toBe('No observation store is configured; history needs one.');
  });
});

describe('diffOf', () => {
  it('compares the latest two observations by default, older → newer', async () => {
    const d = await diffOf(WEB_DID, await storeWithThree(), {});
    expect(d.fromHash).toBe(hash2);
    expect(d.toHash).toBe(hash3);
    expect(d.fromObservedAt).toBe('2026-01-02T00:00:00Z');
    expect(d.toObservedAt).toBe('2026-01-03T00:00:00Z');
    expect(d.servicesAdded).toEqual([`${WEB_DID}#files`]);
    expect(d.keysRotated).toEqual([]);
    expect(d.domainBindingFrom).toBe('VERIFIED');
    expect(d.domainBindingTo).toBe('NOT_LINKED');
    expect(d.fromDocument).toEqual(doc2);
    expect(d.toDocument).toEqual(doc3);
    expect(d.summary).toBe('1 service added; domain binding VERIFIED → NOT_LINKED');
  });

  it('compares the observations named by from and to', async () => {
    const d = await diffOf(WEB_DID, await storeWithThree(), { from: hash1, to: hash2 });
    expect([d.fromHash, d.toHash]).toEqual([hash1, hash2]);
    expect(d.keysRotated).toEqual([`${WEB_DID}#key-1`]);
    expect(d.servicesAdded).toEqual([]);
    expect(d.fromDocument).toEqual(doc1);
  });

  it('with only from, compares it with the latest observation', async () => {
    const d = await diffOf(WEB_DID, await storeWithThree(), { from: hash1 });
    expect([d.fromHash, d.toHash]).toEqual([hash1, hash3]);
    expect(d.keysRotated).toEqual([`${WEB_DID}#key-1`]);
    expect(d.servicesAdded).toEqual([`${WEB_DID}#files`]);
  });

  it('with only to, compares it with the observation just before it', async () => {
    const runtime = await storeWithThree();
    const d = await diffOf(WEB_DID, runtime, { to: hash2 });
    expect([d.fromHash, d.toHash]).toEqual([hash1, hash2]);
    const oldest = await problemOf(diffOf(WEB_DID, runtime, { to: hash1 }));
    expect(oldest.code).toBe('NOT_FOUND');
    expect(oldest.detail).toContain(hash1);
  });

  it('diffs two observations of the same document whose domain binding changed', async () => {
    const runtime = runtimeWithStore();
    await runtime.store.observations.record(observation(doc1, '2026-01-01T00:00:00Z', 'VERIFIED'));
    await runtime.store.observations.record(observation(doc1, '2026-01-02T00:00:00Z', 'UNREACHABLE'));
    const d = await diffOf(WEB_DID, runtime, {});
    expect(d.identical).toBe(true);
    expect(d.fromHash).toBe(d.toHash);
    expect(d.domainBindingChanged).toBe(true);
    expect(d.summary).toBe('No change in the document; domain binding VERIFIED → UNREACHABLE');
  });

  it('rejects a hash that is not lower-case hex, or longer than 64 characters, with INVALID_OPTIONS', async () => {
    const runtime = await storeWithThree();
    for (const bad of [hash1.toUpperCase(), `${hash1}0`, 'sha256:abc']) {
      const p = await problemOf(diffOf(WEB_DID, runtime, { from: bad }));
      expect(p.code).toBe('INVALID_OPTIONS');
      expect(p.detail).toBe('"from" must be a document hash (64 lower-case hexadecimal characters) or a unique prefix of one (at least 8).');
    }
    // Shorter hex is a prefix (test/unit/history-prefix.test.ts); below 8 characters it is refused.
    expect((await problemOf(diffOf(WEB_DID, runtime, { from: '' }))).detail).toMatch(/^"from" is too short: .* at least 8 /);
    const p = await problemOf(diffOf(WEB_DID, runtime, { from: hash1, to: 'xyz' }));
    expect(p.code).toBe('INVALID_OPTIONS');
    expect(p.detail).toContain('"to"');
  });

  it('answers a hash never observed for the DID with NOT_FOUND naming it', async () => {
    const runtime = await storeWithThree();
    const unknown = jcsSha256({ id: 'did:web:elsewhere.example.com' });
    const p = await problemOf(diffOf(WEB_DID, runtime, { from: hash1, to: unknown }));
    expect(p.code).toBe('NOT_FOUND');
    expect(p.status).toBe(404);
    expect(p.detail).toBe(`The "to" document hash ${unknown} was never observed for ${WEB_DID}.`);
    // A hash observed for another DID is not an observation of this one.
    const other = await problemOf(diffOf('did:web:other.example.com', runtime, { from: hash1 }));
    expect(other.code).toBe('NOT_FOUND');
    expect(other.detail).toContain(hash1);
  });

  it('needs two observations: NOT_FOUND with the count', async () => {
    const runtime = runtimeWithStore();
    const none = await problemOf(diffOf(WEB_DID, runtime, {}));
    expect(none.code).toBe('NOT_FOUND');
    expect(none.detail).toBe(`${WEB_DID} has 0 observations; a diff needs two.`);
    await runtime.store.observations.record(observation(doc1, '2026-01-01T00:00:00Z'));
    await runtime.store.observations.record(observation(doc1, '2026-01-02T00:00:00Z'));
    const one = await problemOf(diffOf(WEB_DID, runtime, {}));
    expect(one.code).toBe('NOT_FOUND');
    expect(one.detail).toBe(`${WEB_DID} has 1 observation; a diff needs two.`);
  });

  it('validates the DID and needs a store', async () => {
    expect((await problemOf(diffOf('did:web', await storeWithThree(), {}))).code).toBe('INVALID_DID');
    expect((await problemOf(diffOf(WEB_DID, testRuntime(), {}))).code).toBe('FEATURE_NOT_SUPPORTED');
  });

  it('diffs from and to in the order given, even newer → older', async () => {
    const runtime = await storeWithThree();
    await runtime.store.observations.record(observation(webDocument(k3), '2026-01-04T00:00:00Z'));
    const d = await diffOf(WEB_DID, runtime, { from: hash3, to: hash1 });
    expect([d.fromHash, d.toHash]).toEqual([hash3, hash1]);
    expect(d.keysRotated).toEqual([`${WEB_DID}#key-1`]);
    expect(d.servicesRemoved).toEqual([`${WEB_DID}#files`]);
  });
});

describe('observedChanges', () => {
  it('the observations with the diff of the latest two, or of the pair asked for; an unknown hash is a reason, not an error', async () => {
    const runtime = await storeWithThree();
    const latest = await observedChanges(WEB_DID, runtime);
    expect(latest.history.count).toBe(3);
    expect(latest.diff).toEqual(await diffOf(WEB_DID, runtime));
    expect(latest.diffProblem).toBeNull();
    const asked = await observedChanges(WEB_DID, runtime, { from: jcsSha256(doc1), to: jcsSha256(doc2) });
    expect([asked.diff?.fromHash, asked.diff?.toHash]).toEqual([jcsSha256(doc1), jcsSha256(doc2)]);
    const unknown = await observedChanges(WEB_DID, runtime, { from: 'ab'.repeat(32) });
    expect(unknown.diff).toBeNull();
    expect(unknown.diffProblem).toMatch(/never observed/);
    expect(unknown.history.count).toBe(3);
  });

  it('one observation: no diff and no reason', async () => {
    const runtime = runtimeWithStore();
    await runtime.store.observations.record(observation(doc1, '2026-01-01T00:00:00Z'));
    expect(await observedChanges(WEB_DID, runtime)).toMatchObject({ diff: null, diffProblem: null, history: { count: 1 } });
  });
});
