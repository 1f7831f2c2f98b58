/**
 * Plain-text (optionally coloured) view of the evidence graph of a resolution, laid out for a
 * width with the shared layout (cmdutil/layout.ts): its nodes by kind, then each node's outgoing edges
 * with the state of what they assert (VERIFIED, OBSERVED, DECLARED, FAILED). Node ids and labels
 * come from the document and its host: all `printable`.
 */
import type { EdgeState, EnrichedResolution, GraphEdge, GraphNode, Verdict } from '../../../core/resolve/types.js';
import { outcomeTone } from '../../../present/dossier.js';
import { displayKeyId, printable, type Tone } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, columns, phrase, words, type Style, type Word } from '../../cmdutil/layout.js';

/** What `svc graph --json` prints: the body of GET /v1/graph/{did}. */
export interface GraphResponse {
  did: string;
  observedAt: string;
  verdict: Verdict;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export function graphResponse(result: EnrichedResolution): GraphResponse {
  return { did: result.did, observedAt: result.observedAt, verdict: result.verdict, nodes: result.graph.nodes, edges: result.graph.edges };
}

const EDGE_TONES: Readonly<Record<EdgeState, Tone>> = {
  VERIFIED: 'good',
  OBSERVED: 'accent',
  DECLARED: 'muted',
  FAILED: 'bad',
};

const LEGEND = 'VERIFIED: checked by svc. OBSERVED: seen as retrieved. DECLARED: what the document says, not checked. FAILED: a check failed.';

/** A node as the text names it: the DID's own ids by their fragment, the rest whole. */
function nodeName(id: string, did: string): string {
  return printable(id === did ? id : displayKeyId(id, did));
}

export function graphText(graph: GraphResponse, style: Style, width: number = DEFAULT_WIDTH): string {
  const { did, verdict } = graph;
  const out = new Report(width);
  out.line({ text: printable(did), bold: true });
  out.line({ text: `observed ${graph.observedAt}`, tone: 'muted' });
  out.blank();
  out.line({ text: 'Verdict', bold: true }, { text: '  ' }, { text: verdict.outcome, tone: outcomeTone(verdict.outcome), bold: true });
  out.hang('  ', printable(verdict.headline));

  out.blank().line({ text: `Nodes (${graph.nodes.length})`, bold: true });
  const kindWidth = Math.max(...graph.nodes.map((n) => columns(n.kind)));
  for (const node of graph.nodes) {
    // The document node's id is the word "document" itself: its label says more.
    const body: Word[] = node.id === node.kind ? [] : [phrase(nodeName(node.id, did), 'accent')];
    if (node.label !== node.id) body.push(...words(printable(node.label), 'muted').map((w, i) => (i === 0 && body.length > 0 ? { ...w, gap: '  ' } : w)));
    out.hang(`  ${node.kind.padEnd(kindWidth)}  `, body);
  }

  out.blank().line({ text: `Edges (${graph.edges.length})`, bold: true });
  const relationWidth = Math.max(0, ...graph.edges.map((e) => columns(printable(e.relation))));
  // Grouped by the node they leave, in the order the nodes are listed.
  const sources = [...new Set([...graph.nodes.map((n) => n.id), ...graph.edges.map((e) => e.from)])];
  for (const source of sources) {
    const outgoing = graph.edges.filter((e) => e.from === source);
    if (outgoing.length === 0) continue;
    out.line({ text: '  ' }, { text: nodeName(source, did), tone: 'accent' });
    for (const edge of outgoing) {
      out.hang(
        `    ${printable(edge.relation).padEnd(relationWidth)}  → `,
        [phrase(nodeName(edge.to, did)), phrase(edge.state, EDGE_TONES[edge.state], '  ')],
        { indent: 6 },
      );
    }
  }
  out.blank().hang('', words(LEGEND, 'muted'));
  return out.text(style);
}
