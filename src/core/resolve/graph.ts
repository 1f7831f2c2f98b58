/** The evidence graph (SPEC §2.3): who asserts what about whom, and what was checked. */
import type { Evidence, Graph, GraphEdge, GraphNode } from './types.js';

export const DOCUMENT_NODE = 'document';

export function buildGraph(did: string, evidence: Evidence): Graph {
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
  for (const service of evidence.services) {
    const type = Array.isArray(service.type) ? service.type.join(', ') : (service.type ?? 'service');
    nodes.push({ id: service.id, kind: 'service', label: type });
    edges.push({ from: DOCUMENT_NODE, to: service.id, relation: 'service', state: 'DECLARED' });
  }
  return { nodes, edges };
}
