/**
 * The evidence graph (docs/evidence.md#dereferencing-and-the-graph): who asserts what about whom,
 * and what was checked.
 */
import { noteFor, type SuppliedNote } from '../supplied/resources.js';
import type { Evidence, Graph, GraphEdge, GraphNode } from './types.js';

export const DOCUMENT_NODE = 'document';

/**
 * `supplied` (verifying from files): a resource supplied in place of a fetch was not seen at its
 * origin, so "serves" and "publishes" are DECLARED (by whoever supplied it), not OBSERVED.
 */
export function buildGraph(did: string, evidence: Evidence, supplied: readonly SuppliedNote[] = []): Graph {
  const nodes: GraphNode[] = [
    { id: did, kind: 'subject', label: did },
    { id: DOCUMENT_NODE, kind: 'document', label: `DID document (sha256 ${evidence.document.jcsSha256.slice(0, 12)}…)` },
  ];
  const edges: GraphEdge[] = [
    {
      from: did,
      to: DOCUMENT_NODE,
      relation: evidence.source.kind === 'DERIVED' ? 'expandsTo' : 'resolvesTo',
      state: evidence.source.kind === 'DERIVED' && evidence.document.idMatches ? 'VERIFIED' : evidence.document.idMatches ? 'OBSERVED' : 'FAILED',
    },
  ];
  for (const key of evidence.keys) {
    nodes.push({ id: key.id, kind: 'key', label: `${key.curve ?? key.type ?? 'key'} (${key.status})` });
    edges.push({
      from: DOCUMENT_NODE,
      to: key.id,
      relation: 'publishes',
      state: key.status === 'VALID_KEY' ? 'VERIFIED' : key.status === 'INVALID_KEY' ? 'FAILED' : 'DECLARED',
    });
    for (const rel of key.relationships) edges.push({ from: did, to: key.id, relation: rel, state: 'DECLARED' });
  }
  const { tls, domainBinding, source } = evidence;
  if (source.kind === 'HTTPS' && source.url) {
    const origin = new URL(source.url).origin;
    nodes.push({ id: origin, kind: 'origin', label: origin });
    edges.push({ from: did, to: origin, relation: 'hostedAt', state: 'DECLARED' });
    edges.push({ from: origin, to: DOCUMENT_NODE, relation: 'serves', state: noteFor(supplied, source.url)?.source ? 'DECLARED' : 'OBSERVED' });
    if (tls) {
      const tlsNode = `tls:${tls.host}`;
      nodes.push({ id: tlsNode, kind: 'tls', label: `${tls.protocol}, certificate by ${tls.certificate.issuer}` });
      edges.push({ from: origin, to: tlsNode, relation: 'securedBy', state: tls.hostnameInSan && tls.daysUntilExpiry >= 0 ? 'VERIFIED' : 'FAILED' });
    }
  }
  if (domainBinding) {
    const origin = domainBinding.origin;
    const published = noteFor(supplied, domainBinding.configurationUrl)?.source ? 'DECLARED' : 'OBSERVED';
    if (!nodes.some((n) => n.id === origin)) nodes.push({ id: origin, kind: 'origin', label: origin });
    for (const credential of domainBinding.credentials) {
      const id = `linkage:${credential.index}`;
      nodes.push({ id, kind: 'linkage', label: `${credential.format} domain linkage credential (${credential.status})` });
      edges.push({ from: origin, to: id, relation: 'publishes', state: published });
      const concernsDid = credential.issuer === did || credential.subject === did;
      if (concernsDid) {
        edges.push({
          from: id,
          to: did,
          relation: 'linksDomain',
          state: credential.status === 'VERIFIED' ? 'VERIFIED' : credential.status === 'UNSUPPORTED_PROOF' ? 'DECLARED' : 'FAILED',
        });
      }
    }
  }
  for (const service of evidence.services) {
    const type = Array.isArray(service.type) ? service.type.join(', ') : (service.type ?? 'service');
    nodes.push({ id: service.id, kind: 'service', label: type });
    edges.push({ from: DOCUMENT_NODE, to: service.id, relation: 'service', state: 'DECLARED' });
  }
  return { nodes, edges };
}
