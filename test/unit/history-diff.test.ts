/**
 * The semantic diff on plain did:web documents: what changed for a reader of the
 * document — keys, relationships, services, controller, aliases, contexts, domain binding.
 */
import { describe, expect, it } from 'vitest';
import { semanticDiff } from '../../src/core/history/diff.js';
import type { DidDocument } from '../../src/core/resolve/types.js';
import { CONTEXTS, DID, baseDocument, diff, k1, k2, k3, multikeyMethod, stored } from '../support/diff-documents.js';
import { generateTestKey } from '../support/signing.js';

const p256 = generateTestKey('ES256');

describe('semanticDiff', () => {
  it('reports identical documents as identical, with every list empty', () => {
    const doc = baseDocument();
    const from = stored(doc, '2026-01-01T00:00:00Z');
    const to = stored(structuredClone(doc), '2026-02-01T00:00:00Z');
    const d = semanticDiff(from, to);
    expect(d).toEqual({
      did: DID,
      fromHash: from.documentHash,
      toHash: to.documentHash,
      fromObservedAt: '2026-01-01T00:00:00Z',
      toObservedAt: '2026-02-01T00:00:00Z',
      identical: true,
      keysAdded: [],
      keysRemoved: [],
      keysRotated: [],
      relationshipsChanged: [],
      servicesAdded: [],
      servicesRemoved: [],
      servicesChanged: [],
      controllerChanged: false,
      alsoKnownAsChanged: false,
      contextsChanged: false,
      domainBindingFrom: 'VERIFIED',
      domainBindingTo: 'VERIFIED',
      domainBindingChanged: false,
      changedMembers: [],
      summary: 'No change in the document.',
      fromDocument: from.document,
      toDocument: to.document,
    });
    expect(Object.keys(d)).toEqual([
      'did',
      'fromHash',
      'toHash',
      'fromObservedAt',
      'toObservedAt',
      'identical',
      'keysAdded',
      'keysRemoved',
      'keysRotated',
      'relationshipsChanged',
      'servicesAdded',
      'servicesRemoved',
      'servicesChanged',
      'controllerChanged',
      'alsoKnownAsChanged',
      'contextsChanged',
      'domainBindingFrom',
      'domainBindingTo',
      'domainBindingChanged',
      'changedMembers',
      'summary',
      'fromDocument',
      'toDocument',
    ]);
  });

  it('returns the stored documents themselves as fromDocument and toDocument', () => {
    const from = stored(baseDocument(), '2026-01-01T00:00:00Z');
    const to = stored(baseDocument({ verificationMethod: [multikeyMethod('key-1', k2)] }), '2026-02-01T00:00:00Z');
    const d = semanticDiff(from, to);
    expect(d.fromDocument).toBe(from.document);
    expect(d.toDocument).toBe(to.document);
    expect(d.fromHash).toBe(from.documentHash);
    expect(d.toHash).toBe(to.documentHash);
    expect(d.fromHash).not.toBe(d.toHash);
  });

  it('reports a key whose id stays while its material changes as rotated, not added and removed', () => {
    const d = diff(baseDocument(), baseDocument({ verificationMethod: [multikeyMethod('key-1', k2)] }));
    expect(d.identical).toBe(false);
    expect(d.keysRotated).toEqual([`${DID}#key-1`]);
    expect(d.keysAdded).toEqual([]);
    expect(d.keysRemoved).toEqual([]);
    expect(d.relationshipsChanged).toEqual([]);
    expect(d.changedMembers).toEqual(['verificationMethod']);
    expect(d.summary).toBe('1 key rotated');
  });

  it('reports a change of method type as a rotation', () => {
    const legacy = { ...multikeyMethod('key-1', k1), type: 'Ed25519VerificationKey2020' };
    const d = diff(baseDocument(), baseDocument({ verificationMethod: [legacy] }));
    expect(d.keysRotated).toEqual([`${DID}#key-1`]);
  });

  it('does not report a change of controller alone as a rotation, but names the member', () => {
    const moved = { ...multikeyMethod('key-1', k1), controller: 'did:web:other.example' };
    const d = diff(baseDocument(), baseDocument({ verificationMethod: [moved] }));
    expect(d.keysRotated).toEqual([]);
    expect(d.changedMembers).toEqual(['verificationMethod']);
    expect(d.summary).toBe('verificationMethod changed');
  });

  it('reports a key added and a key removed by id', () => {
    const from = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1), multikeyMethod('key-2', k2)],
    });
    const to = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1), multikeyMethod('key-3', k3)],
    });
    const d = diff(from, to);
    expect(d.keysAdded).toEqual([`${DID}#key-3`]);
    expect(d.keysRemoved).toEqual([`${DID}#key-2`]);
    expect(d.keysRotated).toEqual([]);
    expect(d.relationshipsChanged).toEqual([]);
    expect(d.summary).toBe('1 key added, 1 key removed');
  });

  it('sorts several added keys and counts them in the summary', () => {
    const to = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1), multikeyMethod('key-z', k3), multikeyMethod('key-a', k2)],
    });
    const d = diff(baseDocument(), to);
    expect(d.keysAdded).toEqual([`${DID}#key-a`, `${DID}#key-z`]);
    expect(d.summary).toBe('2 keys added');
  });

  it('treats a relative #key-1 and the absolute id as the same method', () => {
    const relative = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1, '#key-1')],
      authentication: ['#key-1'],
      assertionMethod: ['#key-1'],
    });
    const d = diff(relative, baseDocument());
    expect(d.keysAdded).toEqual([]);
    expect(d.keysRemoved).toEqual([]);
    expect(d.keysRotated).toEqual([]);
    expect(d.relationshipsChanged).toEqual([]);
    // The text differs, so the document is not identical, but nothing a reader relies on changed.
    expect(d.identical).toBe(false);
    expect(d.changedMembers).toEqual(['assertionMethod', 'authentication', 'verificationMethod']);
  });

  it('sees a rotation through a relative id', () => {
    const relative = baseDocument({ verificationMethod: [multikeyMethod('key-1', k1, '#key-1')] });
    const d = diff(relative, baseDocument({ verificationMethod: [multikeyMethod('key-1', k2)] }));
    expect(d.keysRotated).toEqual([`${DID}#key-1`]);
    expect(d.keysAdded).toEqual([]);
  });

  it('compares publicKeyJwk canonically: reordered members are not a rotation', () => {
    const { kty, crv, x, y } = p256.publicJwk;
    const jwkMethod = (jwk: Record<string, unknown>) => ({ id: `${DID}#jwk-1`, type: 'JsonWebKey', controller: DID, publicKeyJwk: jwk });
    const from = baseDocument({ verificationMethod: [multikeyMethod('key-1', k1), jwkMethod({ kty, crv, x, y })] });
    const to = baseDocument({ verificationMethod: [multikeyMethod('key-1', k1), jwkMethod({ y, x, crv, kty })] });
    const d = diff(from, to);
    expect(d.keysRotated).toEqual([]);
    expect(d.identical).toBe(true);
    expect(d.changedMembers).toEqual([]);
    expect(d.summary).toBe('No change in the document.');

    const other = generateTestKey('ES256').publicJwk;
    const rotated = diff(from, baseDocument({ verificationMethod: [multikeyMethod('key-1', k1), jwkMethod({ ...other })] }));
    expect(rotated.keysRotated).toEqual([`${DID}#jwk-1`]);
  });

  it('reports exactly the relationship changes: authentication gains a key, assertionMethod loses one', () => {
    const from = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1), multikeyMethod('key-2', k2)],
      authentication: [`${DID}#key-1`],
      assertionMethod: [`${DID}#key-1`, `${DID}#key-2`],
      capabilityInvocation: [`${DID}#key-1`],
    });
    const to = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1), multikeyMethod('key-2', k2)],
      authentication: ['#key-1', '#key-2'],
      assertionMethod: [`${DID}#key-1`],
      capabilityInvocation: [`${DID}#key-1`],
    });
    const d = diff(from, to);
    expect(d.relationshipsChanged).toEqual([
      { relationship: 'authentication', added: [`${DID}#key-2`], removed: [] },
      { relationship: 'assertionMethod', added: [], removed: [`${DID}#key-2`] },
    ]);
    expect(d.keysAdded).toEqual([]);
    expect(d.keysRemoved).toEqual([]);
    expect(d.keysRotated).toEqual([]);
    expect(d.changedMembers).toEqual(['assertionMethod', 'authentication']);
    expect(d.summary).toBe('authentication, assertionMethod changed');
  });

  it('counts embedded methods as keys and their relationship as changed', () => {
    const embedded = { id: `${DID}#auth-1`, type: 'Multikey', controller: DID, publicKeyMultibase: k3.multikey };
    const d = diff(baseDocument(), baseDocument({ authentication: [`${DID}#key-1`, embedded] }));
    expect(d.keysAdded).toEqual([`${DID}#auth-1`]);
    expect(d.relationshipsChanged).toEqual([{ relationship: 'authentication', added: [`${DID}#auth-1`], removed: [] }]);
    expect(d.changedMembers).toEqual(['authentication']);
    expect(d.summary).toBe('1 key added, authentication changed');

    const rotated = diff(
      baseDocument({ authentication: [`${DID}#key-1`, embedded] }),
      baseDocument({ authentication: [`${DID}#key-1`, { ...embedded, publicKeyMultibase: k2.multikey }] }),
    );
    expect(rotated.keysRotated).toEqual([`${DID}#auth-1`]);
    expect(rotated.relationshipsChanged).toEqual([]);
    expect(rotated.summary).toBe('1 key rotated');
  });

  it('reports services added, removed and changed by absolute id', () => {
    const from = baseDocument({
      service: [
        { id: '#linked-domain', type: 'LinkedDomains', serviceEndpoint: 'https://id.example.com' },
        { id: `${DID}#hub`, type: 'IdentityHub', serviceEndpoint: { nodes: ['https://hub.example.com'] } },
        { id: `${DID}#old`, type: 'Legacy', serviceEndpoint: 'https://old.example.com' },
      ],
    });
    const to = baseDocument({
      service: [
        { id: `${DID}#linked-domain`, type: 'LinkedDomains', serviceEndpoint: 'https://id.example.com' },
        { id: `${DID}#hub`, type: 'IdentityHub', serviceEndpoint: { nodes: ['https://hub2.example.com'] } },
        { id: `${DID}#new`, type: 'DIDCommMessaging', serviceEndpoint: 'https://didcomm.example.com' },
      ],
    });
    const d = diff(from, to);
    expect(d.servicesAdded).toEqual([`${DID}#new`]);
    expect(d.servicesRemoved).toEqual([`${DID}#old`]);
    expect(d.servicesChanged).toEqual([`${DID}#hub`]);
    expect(d.changedMembers).toEqual(['service']);
    expect(d.keysAdded).toEqual([]);
    expect(d.summary).toBe('1 service added, 1 service removed, 1 service changed');
  });

  it('reports a service whose type changes, and not one whose endpoint object is reordered', () => {
    const endpoint = { uri: 'https://hub.example.com', accept: ['didcomm/v2'] };
    const service = (type: unknown, serviceEndpoint: unknown) => baseDocument({ service: [{ id: `${DID}#hub`, type, serviceEndpoint }] });
    expect(diff(service('A', endpoint), service('B', endpoint)).servicesChanged).toEqual([`${DID}#hub`]);
    const reordered = diff(service('A', endpoint), service('A', { accept: ['didcomm/v2'], uri: 'https://hub.example.com' }));
    expect(reordered.servicesChanged).toEqual([]);
    expect(reordered.identical).toBe(true);
  });

  it('reports controller, alsoKnownAs and @context changes', () => {
    const from = baseDocument({ controller: DID, alsoKnownAs: ['https://id.example.com'] });
    const to = baseDocument({
      '@context': [...CONTEXTS, 'https://w3id.org/security/suites/jws-2020/v1'],
      controller: [DID, 'did:web:backup.example.com'],
      alsoKnownAs: ['https://id.example.com', 'did:web:alias.example.com'],
    });
    const d = diff(from, to);
    expect(d.controllerChanged).toBe(true);
    expect(d.alsoKnownAsChanged).toBe(true);
    expect(d.contextsChanged).toBe(true);
    expect(d.changedMembers).toEqual(['@context', 'alsoKnownAs', 'controller']);
    expect(d.summary).toBe('controller changed, alsoKnownAs changed, @context changed');
  });

  it('treats controller and alsoKnownAs as sets and a single @context string as a one-element list', () => {
    const from = baseDocument({ '@context': 'https://www.w3.org/ns/did/v1', controller: DID, alsoKnownAs: ['a:1', 'b:2'] });
    const to = baseDocument({ '@context': ['https://www.w3.org/ns/did/v1'], controller: [DID], alsoKnownAs: ['b:2', 'a:1'] });
    const d = diff(from, to);
    expect(d.controllerChanged).toBe(false);
    expect(d.alsoKnownAsChanged).toBe(false);
    expect(d.contextsChanged).toBe(false);
    // The members differ textually, so they are listed, and named in the summary as unexplained.
    expect(d.changedMembers).toEqual(['@context', 'alsoKnownAs', 'controller']);
    expect(d.summary).toBe('@context, alsoKnownAs, controller changed');

    const reordered = diff(baseDocument({ '@context': [...CONTEXTS] }), baseDocument({ '@context': [...CONTEXTS].reverse() }));
    expect(reordered.contextsChanged).toBe(true);
  });

  it('reports a controller added where there was none', () => {
    const d = diff(baseDocument(), baseDocument({ controller: DID }));
    expect(d.controllerChanged).toBe(true);
    expect(d.alsoKnownAsChanged).toBe(false);
    expect(d.changedMembers).toEqual(['controller']);
  });

  it('reports the domain binding before and after, with an unchanged document', () => {
    const d = diff(baseDocument(), baseDocument(), ['VERIFIED', 'NOT_LINKED']);
    expect(d.identical).toBe(true);
    expect(d.domainBindingFrom).toBe('VERIFIED');
    expect(d.domainBindingTo).toBe('NOT_LINKED');
    expect(d.domainBindingChanged).toBe(true);
    expect(d.summary).toBe('No change in the document; domain binding VERIFIED → NOT_LINKED');
  });

  it('joins document and domain binding changes in one summary line', () => {
    const to = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k2)],
      service: [
        { id: `${DID}#linked-domain`, type: 'LinkedDomains', serviceEndpoint: 'https://id.example.com' },
        { id: `${DID}#files`, type: 'relativeRef', serviceEndpoint: 'https://id.example.com/files' },
      ],
    });
    const d = diff(baseDocument(), to, ['VERIFIED', 'NOT_LINKED']);
    expect(d.summary).toBe('1 key rotated, 1 service added; domain binding VERIFIED → NOT_LINKED');
  });

  it('keeps null domain bindings (not checked) as null and unchanged', () => {
    const d = diff(baseDocument(), baseDocument(), [null, null]);
    expect(d.domainBindingFrom).toBeNull();
    expect(d.domainBindingTo).toBeNull();
    expect(d.domainBindingChanged).toBe(false);
    const first = diff(baseDocument(), baseDocument(), [null, 'VERIFIED']);
    expect(first.domainBindingChanged).toBe(true);
    expect(first.summary).toBe('No change in the document; domain binding not checked → VERIFIED');
  });

  it('lists exactly the top-level members that changed, including new and removed ones', () => {
    const from = baseDocument({ alsoKnownAs: ['https://id.example.com'] });
    const to: DidDocument = { ...baseDocument(), deactivated: true };
    delete to['alsoKnownAs'];
    const d = diff(from, to);
    expect(d.changedMembers).toEqual(['alsoKnownAs', 'deactivated']);
    expect(d.alsoKnownAsChanged).toBe(true);
    expect(d.summary).toBe('alsoKnownAs changed, deactivated changed');
  });
});
