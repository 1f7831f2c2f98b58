/**
 * Semantic diff of two observed documents (docs/history.md#svc-diff): what a reader of the document
 * cares about — keys, relationships, services, controller, aliases, contexts, domain binding —
 * rather than a line diff. Pure: both documents are read with the same readDocument the resolver
 * uses, so relative and absolute ids, embedded and referenced methods are matched as resolution
 * sees them.
 */
import { canonicalize } from '../canonical.js';
import { readDocument, type DeclaredMethod } from '../resolve/document.js';
import { RELATIONSHIPS, type DidDocument, type ServiceEvidence } from '../resolve/types.js';
import type { DomainBindingStatus } from '../linkage/types.js';
import type { StoredObservation } from './store.js';
import type { RelationshipChange, SemanticDiff } from './types.js';

/**
 * The members of a verification method that carry its key. A method whose id stays while one of
 * these changes has been rotated; other members (controller, extensions) show in changedMembers.
 * publicKeyJwk is compared in its RFC 8785 form, so member order in the JWK does not matter.
 * The legacy forms (hex, PEM, account ids) are listed so that a rotation of them is not missed.
 */
const KEY_MATERIAL_MEMBERS = ['type', 'publicKeyMultibase', 'publicKeyJwk', 'publicKeyBase58', 'publicKeyHex', 'publicKeyPem', 'blockchainAccountId'] as const;

/** Top-level members the specific fields of the diff account for. */
const RELATIONSHIP_MEMBERS: ReadonlySet<string> = new Set(RELATIONSHIPS);

function sorted(values: Iterable<string>): string[] {
  return [...values].sort();
}

/** RFC 8785 text of a member value; absent members get a marker no JSON text can equal. */
function canon(value: unknown): string {
  return value === undefined ? '\u0000absent' : canonicalize(value);
}

function keyMaterial(method: DeclaredMethod): string {
  const material: Record<string, unknown> = {};
  for (const member of KEY_MATERIAL_MEMBERS) {
    if (method.value[member] !== undefined) material[member] = method.value[member];
  }
  return canonicalize(material);
}

/** First declaration wins, as in readDocument (a duplicate id is a warning there). */
function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

/** `controller` and `alsoKnownAs` are sets (DID Core §5.1.2, §5.1.3): order and the single-string form do not matter. */
function asSet(value: unknown): string {
  const entries = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return JSON.stringify([...new Set(entries.map((e) => canonicalize(e)))].sort());
}

/** `@context` is ordered (JSON-LD processes it in order); only the single-string form is normalised. */
function asList(value: unknown): string {
  const entries = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return canonicalize(entries);
}

function serviceFingerprint(service: ServiceEvidence): string {
  return canonicalize({ type: service.type, serviceEndpoint: service.serviceEndpoint });
}

function changedMembersOf(from: DidDocument, to: DidDocument): string[] {
  const names = new Set([...Object.keys(from), ...Object.keys(to)]);
  // Own members only: a "constructor" or "toString" one document lacks must not read Object.prototype.
  const member = (doc: DidDocument, name: string) => (Object.hasOwn(doc, name) ? doc[name] : undefined);
  return sorted([...names].filter((name) => canon(member(from, name)) !== canon(member(to, name))));
}

function count(n: number, noun: string, verb: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'} ${verb}`;
}

function bindingLabel(status: DomainBindingStatus | null): string {
  return status ?? 'not checked';
}

type DiffBody = Omit<SemanticDiff, 'summary'>;

/** Members changed that none of the specific fields explains (e.g. a reordered list, a new top-level member). */
export function unexplainedMembers(diff: DiffBody): string[] {
  const keysChanged = diff.keysAdded.length + diff.keysRemoved.length + diff.keysRotated.length > 0;
  const servicesChanged = diff.servicesAdded.length + diff.servicesRemoved.length + diff.servicesChanged.length > 0;
  const relationships = new Set<string>(diff.relationshipsChanged.map((r) => r.relationship));
  return diff.changedMembers.filter((name) => {
    if (name === 'verificationMethod') return !keysChanged;
    // An embedded method added, removed or rotated changes its relationship member too.
    if (RELATIONSHIP_MEMBERS.has(name)) return !relationships.has(name) && !keysChanged;
    if (name === 'service') return !servicesChanged;
    if (name === 'controller') return !diff.controllerChanged;
    if (name === 'alsoKnownAs') return !diff.alsoKnownAsChanged;
    if (name === '@context') return !diff.contextsChanged;
    return true;
  });
}

function summarise(diff: DiffBody): string {
  const parts: string[] = [];
  if (diff.keysAdded.length) parts.push(count(diff.keysAdded.length, 'key', 'added'));
  if (diff.keysRemoved.length) parts.push(count(diff.keysRemoved.length, 'key', 'removed'));
  if (diff.keysRotated.length) parts.push(count(diff.keysRotated.length, 'key', 'rotated'));
  if (diff.relationshipsChanged.length) {
    parts.push(`${diff.relationshipsChanged.map((r) => r.relationship).join(', ')} changed`);
  }
  if (diff.servicesAdded.length) parts.push(count(diff.servicesAdded.length, 'service', 'added'));
  if (diff.servicesRemoved.length) parts.push(count(diff.servicesRemoved.length, 'service', 'removed'));
  if (diff.servicesChanged.length) parts.push(count(diff.servicesChanged.length, 'service', 'changed'));
  if (diff.controllerChanged) parts.push('controller changed');
  if (diff.alsoKnownAsChanged) parts.push('alsoKnownAs changed');
  if (diff.contextsChanged) parts.push('@context changed');
  const others = unexplainedMembers(diff);
  if (others.length) parts.push(`${others.join(', ')} changed`);

  const document = diff.identical || parts.length === 0 ? 'No change in the document' : parts.join(', ');
  if (!diff.domainBindingChanged) return diff.identical ? `${document}.` : document;
  return `${document}; domain binding ${bindingLabel(diff.domainBindingFrom)} → ${bindingLabel(diff.domainBindingTo)}`;
}

/**
 * Compares the document of `from` with the document of `to` (normally older → newer; the
 * function does not check the order). Methods and services are matched by absolute id; a
 * method whose id stays while its key material changes is rotated, not removed and added.
 * Stored documents were valid when observed, so readDocument does not throw on them; if it
 * does, the store is corrupt and the error propagates as an internal one.
 */
export function semanticDiff(from: StoredObservation, to: StoredObservation): SemanticDiff {
  const before = readDocument(from.did, from.document);
  const after = readDocument(to.did, to.document);

  const methodsBefore = byId(before.methods);
  const methodsAfter = byId(after.methods);
  const keysAdded = sorted([...methodsAfter.keys()].filter((id) => !methodsBefore.has(id)));
  const keysRemoved = sorted([...methodsBefore.keys()].filter((id) => !methodsAfter.has(id)));
  const keysRotated = sorted(
    [...methodsAfter]
      .filter(([id, m]) => {
        const old = methodsBefore.get(id);
        return old !== undefined && keyMaterial(old) !== keyMaterial(m);
      })
      .map(([id]) => id),
  );

  const relationshipsChanged: RelationshipChange[] = [];
  for (const relationship of RELATIONSHIPS) {
    const was = new Set(before.evidence.relationships[relationship]);
    const is = new Set(after.evidence.relationships[relationship]);
    const added = sorted([...is].filter((id) => !was.has(id)));
    const removed = sorted([...was].filter((id) => !is.has(id)));
    if (added.length || removed.length) relationshipsChanged.push({ relationship, added, removed });
  }

  const servicesBefore = byId(before.services);
  const servicesAfter = byId(after.services);
  const servicesAdded = sorted([...servicesAfter.keys()].filter((id) => !servicesBefore.has(id)));
  const servicesRemoved = sorted([...servicesBefore.keys()].filter((id) => !servicesAfter.has(id)));
  const servicesChanged = sorted(
    [...servicesAfter]
      .filter(([id, s]) => {
        const old = servicesBefore.get(id);
        return old !== undefined && serviceFingerprint(old) !== serviceFingerprint(s);
      })
      .map(([id]) => id),
  );

  const changedMembers = changedMembersOf(from.document, to.document);
  const body: DiffBody = {
    did: to.did,
    fromHash: from.documentHash,
    toHash: to.documentHash,
    fromObservedAt: from.observedAt,
    toObservedAt: to.observedAt,
    identical: changedMembers.length === 0,
    keysAdded,
    keysRemoved,
    keysRotated,
    relationshipsChanged,
    servicesAdded,
    servicesRemoved,
    servicesChanged,
    controllerChanged: asSet(from.document['controller']) !== asSet(to.document['controller']),
    alsoKnownAsChanged: asSet(from.document['alsoKnownAs']) !== asSet(to.document['alsoKnownAs']),
    contextsChanged: asList(from.document['@context']) !== asList(to.document['@context']),
    domainBindingFrom: from.domainBindingStatus,
    domainBindingTo: to.domainBindingStatus,
    domainBindingChanged: from.domainBindingStatus !== to.domainBindingStatus,
    changedMembers,
    fromDocument: from.document,
    toDocument: to.document,
  };
  // Keep the documented member order in the serialised object: summary before the documents.
  const { fromDocument, toDocument, ...rest } = body;
  return { ...rest, summary: summarise(body), fromDocument, toDocument };
}
