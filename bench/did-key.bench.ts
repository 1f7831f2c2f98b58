/**
 * did:key resolution throughput: svc's `resolve()` against the reference peer, did-resolver's
 * `Resolver` with key-did-resolver's driver, in the same process.
 *
 *  - fresh DIDs: pools of distinct, freshly generated keys resolved without any cache on
 *    either side (svc `{ noCache: true }`, did-resolver's default no-cache), so every call
 *    decodes the key, builds the document and, for svc, validates the curve points;
 *  - repeated DID: one DID resolved over and over, svc answering from its in-process cache.
 *
 * Before timing, every DID of every pool is resolved once by both sides and the answers are
 * checked (document id, keys valid); during timing each answer is checked for a document.
 * A broken side makes the benchmark throw instead of reporting a figure.
 */
import { Resolver, type DIDResolutionResult } from 'did-resolver';
import { getResolver } from 'key-did-resolver';
import { resolve } from '../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../src/core/resolve/types.js';
import { KEY_CHECK_MEMO } from '../src/core/keys/curves.js';
import type { Runtime } from '../src/core/runtime.js';
import { createRuntime } from '../src/runtime/node.js';
import { compareThroughput, ed25519DidKeys, median, p256DidKeys, shuffle, type BenchRow } from './lib.js';

const ED25519_POOL = 2000;
const P256_POOL = 2000;
const PEER = 'did-resolver + key-did-resolver';

function checkSvc(did: string, r: EnrichedResolution, deep: boolean): void {
  if (!r?.didDocument) throw new Error(`svc returned no didDocument for ${did}`);
  if (!deep) return;
  if (r.didDocument.id !== did) throw new Error(`svc returned a document for ${String(r.didDocument.id)}, not ${did}`);
  const keys = r.evidence.keys;
  if (keys.length === 0) throw new Error(`svc validated no keys for ${did}`);
  const bad = keys.find((k) => k.status !== 'VALID_KEY');
  if (bad) throw new Error(`svc reports ${bad.id} as ${bad.status}: ${bad.detail ?? ''}`);
}

function checkPeer(did: string, r: DIDResolutionResult, deep: boolean): void {
  if (r.didResolutionMetadata.error || !r.didDocument) {
    throw new Error(`peer failed on ${did}: ${r.didResolutionMetadata.error ?? 'no didDocument'} ${String(r.didResolutionMetadata['message'] ?? '')}`);
  }
  if (!deep) return;
  if (r.didDocument.id !== did) throw new Error(`peer returned a document for ${r.didDocument.id}, not ${did}`);
  if (!r.didDocument.verificationMethod?.length) throw new Error(`peer returned no verification method for ${did}`);
}

/** Resolves every DID once on both sides and checks the answers (also warms both up). */
async function validatePool(pool: readonly string[], runtime: Runtime, peer: Resolver): Promise<void> {
  for (const did of pool) {
    checkSvc(did, await resolve(did, runtime, { noCache: true }), true);
    checkPeer(did, await peer.resolve(did), true);
  }
}

async function fresh(operation: string, pool: readonly string[], runtime: Runtime, peer: Resolver): Promise<BenchRow> {
  const n = pool.length;
  const [svc, other] = await compareThroughput([
    async (i) => {
      const did = pool[i % n]!;
      checkSvc(did, await resolve(did, runtime, { noCache: true }), false);
    },
    async (i) => {
      const did = pool[i % n]!;
      checkPeer(did, await peer.resolve(did), false);
    },
  ]);
  return {
    operation,
    unit: 'ops/s',
    svc: median(svc!),
    peer: `${PEER} (no cache)`,
    peerValue: median(other!),
    goal: { op: '>=', ratio: 1.0 },
    status: 'ok',
    samples: { svc: svc!, peer: other! },
  };
}

export async function run(): Promise<BenchRow[]> {
  const ed = await ed25519DidKeys(ED25519_POOL);
  const p256 = await p256DidKeys(P256_POOL);
  const mixed = shuffle([...ed.slice(0, ED25519_POOL / 2), ...p256.slice(0, P256_POOL / 2)]);
  // svc remembers its last KEY_CHECK_MEMO key checks: pools visited in a cycle and larger than
  // that never hit it, so every svc resolution here checks its key afresh.
  for (const pool of [ed, p256, mixed]) {
    if (pool.length <= KEY_CHECK_MEMO) throw new Error(`a pool of ${pool.length} DIDs would be served from svc's key check memo (${KEY_CHECK_MEMO})`);
  }
  if (new Set(ed).size !== ed.length || new Set(p256).size !== p256.length) throw new Error('generated DIDs are not distinct');

  // Default production settings, independent of the caller's SVC_* environment.
  const runtime = createRuntime({});
  const peer = new Resolver(getResolver());
  await validatePool(ed, runtime, peer);
  await validatePool(p256, runtime, peer);

  const rows: BenchRow[] = [];
  rows.push(await fresh(`did:key resolve, fresh DIDs (cold, full key validation), Ed25519 ×${ed.length}`, ed, runtime, peer));
  rows.push(await fresh(`did:key resolve, fresh DIDs (cold, full key validation), P-256 ×${p256.length}`, p256, runtime, peer));
  rows.push(await fresh(`did:key resolve, fresh DIDs (cold, full key validation), 50/50 Ed25519+P-256 ×${mixed.length}`, mixed, runtime, peer));

  // Repeated DID: svc from its cache; the peer uncached (its default) and with its own cache.
  const did = ed[0]!;
  const cachedRuntime = createRuntime({});
  const peerCached = new Resolver(getResolver(), { cache: true });
  checkSvc(did, await resolve(did, cachedRuntime), true);
  const again = await resolve(did, cachedRuntime);
  checkSvc(did, again, true);
  if (!again.cached) throw new Error('svc did not answer the repeated DID from its cache');
  const first = await peerCached.resolve(did);
  checkPeer(did, first, true);
  if ((await peerCached.resolve(did)) !== first) throw new Error('did-resolver {cache: true} did not answer from its cache');

  const [svcCached, peerCold, peerWarm] = await compareThroughput([
    async () => {
      const r = await resolve(did, cachedRuntime);
      if (!r.cached) throw new Error('svc cache miss on the repeated DID');
      checkSvc(did, r, false);
    },
    async () => checkPeer(did, await peer.resolve(did), false),
    async () => checkPeer(did, await peerCached.resolve(did), false),
  ]);
  rows.push({
    operation: 'did:key resolve, repeated DID (svc in-process cache vs peer cold)',
    unit: 'ops/s',
    svc: median(svcCached!),
    peer: `${PEER} (no cache, its default)`,
    peerValue: median(peerCold!),
    goal: { op: '>=', ratio: 20 },
    status: 'ok',
    note: 'Goal row ("≥ 20× cached"): svc answering from its LRU cache vs the peer\'s cold figure, i.e. the peer re-deriving the same DID each call.',
    samples: { svc: svcCached!, peer: peerCold! },
  });
  rows.push({
    operation: 'did:key resolve, repeated DID (svc in-process cache vs peer {cache: true})',
    unit: 'ops/s',
    svc: median(svcCached!),
    peer: `${PEER} ({cache: true}, its best)`,
    peerValue: median(peerWarm!),
    goal: null,
    status: 'ok',
    note: "Informational: both sides cached. did-resolver's cache returns the same stored object; so does svc (a deep-frozen entry, looked up before parsing).",
    samples: { svc: svcCached!, peer: peerWarm! },
  });
  return rows;
}
