/**
 * The evidence graph as text, for the terminal dossier and the web graph alike: how a node is
 * named, and the edges grouped by the node they leave.
 */
import type { EdgeState, Graph, GraphNode } from '../core/resolve/types.js';
import { displayKeyId, printable, shortKey, type Tone } from './text.js';

/** One edge of the evidence graph as text: `—assertionMethod→ #key-1  DECLARED`. */
export interface GraphEdgeRow {
  /** The relations from one node to another in one state, e.g. all of a key's relationships. */
  relations: string[];
  target: string;
  state: EdgeState;
  tone: Tone;
}

/** The edges leaving one node, under that node's name. */
export interface GraphGroup {
  source: string;
  edges: GraphEdgeRow[];
}

/** The same colours as `svc graph`: what svc checked is green, what the document merely says is dim. */
const EDGE_TONES: Readonly<Record<EdgeState, Tone>> = {
  VERIFIED: 'good',
  OBSERVED: 'accent',
  DECLARED: 'muted',
  FAILED: 'bad',
};

/**
 * A node as the graph names it: the subject as "this DID" (it heads the dossier), the DID's own
 * keys and services by their fragment (a long one cut to its ends unless `whole`; the Keys
 * section has it whole), anything else by its id or label, whole.
 */
export function graphNodeName(node: GraphNode | undefined, id: string, did: string, options: { whole?: boolean } = {}): string {
  if (id === did) return 'this DID';
  const shown = printable(displayKeyId(id, did));
  if (node === undefined) return shown;
  switch (node.kind) {
    case 'key':
    case 'service':
      return shown.startsWith('#') && !options.whole ? `#${shortKey(shown.slice(1))}` : shown;
    case 'document':
    case 'tls':
      return printable(node.label);
    case 'linkage':
      return printable(`#${id.replace(/^linkage:/, '')} ${node.label}`);
    default:
      return printable(node.id);
  }
}

/**
 * The evidence graph grouped by the node the edges leave, in the order they first appear; the
 * relations one node asserts about another in one state share a line (a key's relationships).
 */
export function graphView(graph: Graph, did: string): GraphGroup[] {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const groups = new Map<string, { group: GraphGroup; rows: Map<string, GraphEdgeRow> }>();
  for (const edge of graph.edges) {
    let entry = groups.get(edge.from);
    if (entry === undefined) {
      entry = { group: { source: graphNodeName(nodes.get(edge.from), edge.from, did), edges: [] }, rows: new Map() };
      groups.set(edge.from, entry);
    }
    const key = JSON.stringify([edge.to, edge.state]);
    const row = entry.rows.get(key);
    if (row !== undefined) row.relations.push(printable(edge.relation));
    else {
      const added: GraphEdgeRow = {
        relations: [printable(edge.relation)],
        target: graphNodeName(nodes.get(edge.to), edge.to, did),
        state: edge.state,
        tone: EDGE_TONES[edge.state],
      };
      entry.rows.set(key, added);
      entry.group.edges.push(added);
    }
  }
  return [...groups.values()].map((e) => e.group);
}
