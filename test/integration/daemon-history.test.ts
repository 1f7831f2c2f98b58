/**
 * `svc serve` over real HTTP: observation history and semantic diff of a
 * did:web whose host changes the document between two resolutions — one key rotated (same id,
 * new material), one added, one removed — and the coalescing of unchanged snapshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectJson, expectProblem, startInProcessDaemonFor, W3C_TYPE } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { generateTestKey, type TestKey } from '../support/signing.js';

let host: DidWebHost;
let daemon: DaemonHandle;

beforeAll(async () => {
  host = await startDidWebHost();
  daemon = await startInProcessDaemonFor(host);
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

const get = (path: string) => call(`${daemon.url}${path}`);

/** A document of Ed25519 Multikey methods; relationships name them by relative id, as documents often do. */
function document(did: string, keys: Record<string, TestKey>, relationships: Record<string, string[]>): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: Object.entries(keys).map(([fragment, key]) => ({
      id: `${did}#${fragment}`,
      type: 'Multikey',
      controller: did,
      publicKeyMultibase: key.multikey,
    })),
    ...Object.fromEntries(Object.entries(relationships).map(([name, fragments]) => [name, fragments.map((f) => `#${f}`)])),
  };
}

async function resolveFresh(did: string): Promise<any> {
  return expectJson(await get(`/v1/resolve/${did}?noCache=true`), 200);
}

describe('history and diff of a changing did:web', () => {
  it('records both documents and diffs them: one key rotated, one added, one removed', async () => {
    const did = host.did('history', 'acceptance');
    const [a, a2, b, c] = [generateTestKey(), generateTestKey(), generateTestKey(), generateTestKey()];

    host.publish(did, document(did, { 'key-1': a, 'key-3': c }, { authentication: ['key-1', 'key-3'], assertionMethod: ['key-1'] }));
    const before = await resolveFresh(did);
    host.publish(did, document(did, { 'key-1': a2, 'key-2': b }, { authentication: ['key-1', 'key-2'], assertionMethod: ['key-1', 'key-2'] }));
    const after = await resolveFresh(did);
    const [fromHash, toHash] = [before.evidence.document.jcsSha256, after.evidence.document.jcsSha256];
    expect(fromHash).not.toBe(toHash);

    const history = expectJson(await get(`/v1/history/${did}`), 200);
    expect(Object.keys(history)).toEqual(['did', 'count', 'history', 'note']);
    expect(history.did).toBe(did);
    expect(history.count).toBe(2);
    expect(history.history.map((o: { documentHash: string }) => o.documentHash)).toEqual([toHash, fromHash]);
    for (const row of history.history) {
      expect(Object.keys(row)).toEqual([
        'id',
        'did',
        'documentHash',
        'observedAt',
        'lastSeenAt',
        'seenCount',
        'latencyMs',
        'resolverVersion',
        'domainBindingStatus',
        'summary',
      ]);
      expect(row).toMatchObject({ did, seenCount: 1, domainBindingStatus: 'NOT_CONFIGURED' });
      expect(row.lastSeenAt).toBe(row.observedAt);
    }
    expect(history.history[0].id).toBeGreaterThan(history.history[1].id);
    expect(history.history[0].observedAt).toBe(after.observedAt);
    expect(history.history[1].observedAt).toBe(before.observedAt);

    const diff = expectJson(await get(`/v1/diff/${did}`), 200);
    expect(diff).toMatchObject({
      did,
      fromHash,
      toHash,
      fromObservedAt: before.observedAt,
      toObservedAt: after.observedAt,
      identical: false,
      keysAdded: [`${did}#key-2`],
      keysRemoved: [`${did}#key-3`],
      keysRotated: [`${did}#key-1`],
      relationshipsChanged: [
        { relationship: 'authentication', added: [`${did}#key-2`], removed: [`${did}#key-3`] },
        { relationship: 'assertionMethod', added: [`${did}#key-2`], removed: [] },
      ],
      servicesAdded: [],
      servicesRemoved: [],
      servicesChanged: [],
      controllerChanged: false,
      alsoKnownAsChanged: false,
      contextsChanged: false,
      domainBindingFrom: 'NOT_CONFIGURED',
      domainBindingTo: 'NOT_CONFIGURED',
      domainBindingChanged: false,
      changedMembers: ['assertionMethod', 'authentication', 'verificationMethod'],
    });
    expect(diff.fromDocument).toEqual(before.didDocument);
    expect(diff.toDocument).toEqual(after.didDocument);
    expect(diff.summary).toContain('1 key added, 1 key removed, 1 key rotated');

    // The same pair named by hash; the reverse pair mirrors it.
    const byHash = expectJson(await get(`/v1/diff/${did}?from=${fromHash}&to=${toHash}`), 200);
    expect(byHash).toEqual(diff);
    const reverse = expectJson(await get(`/v1/diff/${encodeURIComponent(did)}?from=${toHash}&to=${fromHash}`), 200);
    expect(reverse).toMatchObject({
      fromHash: toHash,
      toHash: fromHash,
      keysAdded: [`${did}#key-3`],
      keysRemoved: [`${did}#key-2`],
      keysRotated: [`${did}#key-1`],
    });
    expect(expectJson(await get(`/v1/diff/${did}?from=${fromHash}`), 200)).toEqual(diff);
    expect(expectJson(await get(`/v1/diff/${did}?to=${toHash}`), 200)).toEqual(diff);

    // Resolving again without a change coalesces into the newest row.
    await resolveFresh(did);
    const coalesced = expectJson(await get(`/v1/history/${did}`), 200);
    expect(coalesced.count).toBe(2);
    expect(coalesced.history[0]).toMatchObject({ id: history.history[0].id, documentHash: toHash, seenCount: 2 });
    expect(coalesced.history[1]).toMatchObject({ documentHash: fromHash, seenCount: 1 });
  });

  it('a cache hit is not an observation', async () => {
    const did = host.did('history', 'cached');
    host.publish(did);
    await resolveFresh(did);
    expect(expectJson(await get(`/v1/resolve/${did}`), 200).cached).toBe(true);
    expect(expectJson(await get(`/v1/history/${did}`), 200).history).toEqual([expect.objectContaining({ seenCount: 1 })]);
  });

  it('diff options: a malformed hash → 400 INVALID_OPTIONS; an unknown hash → 404; unknown options → 400', async () => {
    const did = host.did('history', 'options');
    host.publish(did);
    await resolveFresh(did);
    const bad = expectProblem(await get(`/v1/diff/${did}?from=not-a-hash`), 400, 'INVALID_OPTIONS');
    expect(bad.type).toBe(W3C_TYPE('INVALID_OPTIONS'));
    expectProblem(await get(`/v1/diff/${did}?to=${'A'.repeat(64)}`), 400, 'INVALID_OPTIONS');
    expectProblem(await get(`/v1/diff/${did}?from=${'0'.repeat(64)}`), 404, 'NOT_FOUND');
    expectProblem(await get(`/v1/diff/${did}?since=yesterday`), 400, 'INVALID_OPTIONS');
    expectProblem(await get(`/v1/history/${did}?limit=5`), 400, 'INVALID_OPTIONS');
  });

  it('a DID with one observation has no diff: 404 NOT_FOUND', async () => {
    const did = host.did('history', 'once');
    host.publish(did);
    await resolveFresh(did);
    expect(expectJson(await get(`/v1/history/${did}`), 200).count).toBe(1);
    const problem = expectProblem(await get(`/v1/diff/${did}`), 404, 'NOT_FOUND');
    expect(problem.type).toBe(W3C_TYPE('NOT_FOUND'));
  });

  it('a DID never observed has an empty history; an invalid DID is 400', async () => {
    const did = host.did('history', 'never');
    expect(expectJson(await get(`/v1/history/${did}`), 200)).toMatchObject({ did, count: 0, history: [] });
    expectProblem(await get(`/v1/diff/${did}`), 404, 'NOT_FOUND');
    expectProblem(await get('/v1/history/not-a-did'), 400, 'INVALID_DID');
    expectProblem(await get('/v1/diff/not-a-did'), 400, 'INVALID_DID');
  });
});
