/** did:webvh history evidence built by hand, for dossier tests (no log is verified here). */
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { HistoryEvidence, WebvhEntryEvidence, WebvhWitnessFileEvidence } from '../../src/core/webvh/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { ED25519_DID } from './dids.js';

export const WEBVH_SCID = 'QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE';
export const WEBVH_DID = `did:webvh:${WEBVH_SCID}:domain.example`;
/** Update keys (multikeys), written in full in the evidence and shortened in the dossier. */
export const KEY_A = 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
export const KEY_B = 'z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';

/** versionTime of entry n: one hour apart from 2025-01-01T00:00:00Z. */
export function versionTime(n: number): string {
  return new Date(Date.UTC(2025, 0, 1, n - 1)).toISOString().replace('.000Z', 'Z');
}

/** A verified entry n signed by KEY_A; entry 1 sets the creation parameters. */
export function entry(n: number, overrides: Partial<WebvhEntryEvidence> = {}): WebvhEntryEvidence {
  return {
    versionId: `${n}-QmEntryHash${String(n).padStart(3, '0')}`,
    versionNumber: n,
    versionTime: versionTime(n),
    status: 'VERIFIED',
    check: null,
    reason: null,
    documentId: WEBVH_DID,
    method: 'did:webvh:1.0',
    signedBy: KEY_A,
    changes: n === 1 ? ['method', 'scid', 'updateKeys'] : [],
    updateKeys: [KEY_A],
    preRotation: false,
    witness: null,
    deactivated: false,
    ...overrides,
  };
}

export function witnessFile(overrides: Partial<WebvhWitnessFileEvidence> = {}): WebvhWitnessFileEvidence {
  return {
    status: 'NOT_REQUIRED',
    url: 'https://domain.example/.well-known/did-witness.json',
    httpStatus: null,
    contentType: null,
    bytes: null,
    sha256: null,
    acceptedProofs: 0,
    discarded: [],
    reason: null,
    ...overrides,
  };
}

/** A fully verified log of `count` entries, serving the last unless overridden. */
export function history(count: number, overrides: Partial<HistoryEvidence> = {}): HistoryEvidence {
  return {
    scid: WEBVH_SCID,
    entries: Array.from({ length: count }, (_, i) => entry(i + 1)),
    witness: witnessFile(),
    verifiedEntries: count,
    selectedVersion: count,
    failure: null,
    reusedEntries: 0,
    ...overrides,
  };
}

/** Three verified entries; version 2 rotates to KEY_B (pre-rotation on) and is served. */
export function servedAtTwo(): HistoryEvidence {
  const h = history(3, { selectedVersion: 2 });
  h.entries[1] = entry(2, { changes: ['updateKeys', 'nextKeyHashes'], signedBy: KEY_A, updateKeys: [KEY_B], preRotation: true });
  h.entries[2] = entry(3, { changes: [], signedBy: KEY_B, updateKeys: [KEY_B] });
  return h;
}

/** Five entries whose third has a bad proof: 1–2 verified, 3 failed, 4–5 unverified; version 2 served. */
export function failingAtThree(): HistoryEvidence {
  const reason = 'The proof does not verify with the update key z6MkrJVn…bTQ2.';
  const h = history(5, { verifiedEntries: 2, selectedVersion: 2, failure: { versionNumber: 3, check: 'proof', reason } });
  h.entries = h.entries.map((e, i) =>
    i === 2
      ? { ...e, status: 'FAILED', check: 'proof', reason, signedBy: null, changes: ['updateKeys'] }
      : i > 2
        ? { ...e, status: 'UNVERIFIED', signedBy: null }
        : e,
  );
  return h;
}

const base = await resolve(ED25519_DID, createRuntime({}));

/**
 * A did:webvh result around `evidence`: the rest (dimensions, keys) is a did:key's, which the
 * history section does not read.
 */
export function webvhResult(evidence: HistoryEvidence, metadata: Record<string, unknown> = {}): EnrichedResolution {
  const served = evidence.entries.find((e) => e.versionNumber === evidence.selectedVersion);
  return {
    ...base,
    did: WEBVH_DID,
    method: 'webvh',
    didDocumentMetadata: { versionId: served?.versionId, versionTime: served?.versionTime, ...metadata },
    evidence: { ...base.evidence, history: evidence },
  };
}
