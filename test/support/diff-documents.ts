/**
 * did:web documents and stored observations for the semantic diff's tests (the core's diff and
 * the web dossier's time machine): one DID, Multikey methods, a base document with #key-1 in
 * authentication and assertionMethod and one service, and `diff(from, to)` through the real
 * semanticDiff.
 */
import { jcsSha256 } from '../../src/core/canonical.js';
import { semanticDiff } from '../../src/core/history/diff.js';
import type { DomainBindingStatus } from '../../src/core/linkage/types.js';
import type { DidDocument } from '../../src/core/resolve/types.js';
import type { StoredObservation } from '../../src/core/store.js';
import { generateTestKey, type TestKey } from './signing.js';

export const DID = 'did:web:id.example.com';
export const CONTEXTS = ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'];

export const k1 = generateTestKey();
export const k2 = generateTestKey();
export const k3 = generateTestKey();

export function multikeyMethod(fragment: string, key: TestKey, id = `${DID}#${fragment}`): Record<string, unknown> {
  return { id, type: 'Multikey', controller: DID, publicKeyMultibase: key.multikey };
}

/** A did:web document with #key-1 (k1) in authentication and assertionMethod, one service. */
export function baseDocument(extra: Record<string, unknown> = {}): DidDocument {
  return {
    '@context': CONTEXTS,
    id: DID,
    verificationMethod: [multikeyMethod('key-1', k1)],
    authentication: [`${DID}#key-1`],
    assertionMethod: [`${DID}#key-1`],
    service: [{ id: `${DID}#linked-domain`, type: 'LinkedDomains', serviceEndpoint: 'https://id.example.com' }],
    ...extra,
  };
}

let nextId = 1;

/** A stored observation of `document`, as the store would return it. */
export function stored(document: DidDocument, observedAt: string, domainBindingStatus: DomainBindingStatus | null = 'VERIFIED'): StoredObservation {
  return {
    id: nextId++,
    did: DID,
    documentHash: jcsSha256(document),
    document,
    observedAt,
    lastSeenAt: observedAt,
    seenCount: 1,
    latencyMs: 42,
    resolverVersion: '1.0.0',
    domainBindingStatus,
    summary: 'Resolved a did:web identifier with 1 of 1 key valid (Ed25519).',
  };
}

export function diff(from: DidDocument, to: DidDocument, bindings: [DomainBindingStatus | null, DomainBindingStatus | null] = ['VERIFIED', 'VERIFIED']) {
  return semanticDiff(stored(from, '2026-01-01T00:00:00Z', bindings[0]), stored(to, '2026-02-01T00:00:00Z', bindings[1]));
}
