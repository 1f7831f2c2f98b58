/**
 * The evidence graph of a resolution (level 2 of the web dossier): a server-side SVG drawn in
 * fixed columns, and the same edges as a table (its text alternative).
 *
 * Columns follow the node kinds the core creates (src/core/resolve/graph.ts): the subject on the
 * left; the document, the origin that serves it and the linkage credentials the origin publishes
 * in the middle; keys, services and TLS on the right. Edges between the same two nodes in the
 * same state share one drawn line; every edge of `graph.edges` keeps a label of its own
 * (`<g class="edge" data-from data-to data-relation data-state>`), stacked in the gap next to the
 * node it concerns, so the markup can be checked edge by edge and nothing depends on colour:
 * VERIFIED is solid, OBSERVED dashed, DECLARED dotted, FAILED thick and red with the word FAILED.
 *
 * Styles are presentation attributes (stroke, stroke-dasharray, font-size…) as well as classes:
 * the page's CSP allows no `style` attribute, and the SVG must read correctly without the CSS.
 * Every piece of outside text goes through `html`, which escapes it. No randomness, no clock:
 * the same graph gives the same bytes.
 */
import { graphNodeName as nodeName, printable } from '../cli/output/dossier.js';
import { EDGE_STATES, type EdgeState, type Graph, type GraphEdge, type GraphNode } from '../core/resolve/types.js';
import { anchorId, html, join, type Html } from './html.js';

export interface GraphSvgOptions {
  /** Where a node's evidence is (level 4 of the dossier); null: the node is not a link. */
  evidenceHref?: (node: GraphNode) => string | null;
}

/** The anchors of level 4 that hold each node's evidence. */
export function defaultEvidenceHref(node: GraphNode): string | null {
  switch (node.kind) {
    case 'subject':
      return '#level-1';
    case 'document':
      return '#evidence-document';
    case 'origin':
      return '#evidence-source';
    case 'tls':
      return '#evidence-tls';
    case 'linkage':
      return '#evidence-domain-binding';
    case 'key':
      return `#${anchorId('key', node.id)}`;
    case 'service':
      return `#${anchorId('service', node.id)}`;
    default:
      return null;
  }
}

/* ------------------------------------------------------------------ names */

/** A node as the terminal's evidence graph names it: one function for both (src/cli/output/dossier.ts). */
export { nodeName };

/* ------------------------------------------------------------------ look */

interface StateLook {
  word: EdgeState;
  colour: string;
  width: number;
  /** null: a solid line. */
  dash: string | null;
  linecap: 'butt' | 'round';
  legend: string;
}

const STATE_LOOKS: Readonly<Record<EdgeState, StateLook>> = {
  VERIFIED: { word: 'VERIFIED', colour: '#1a7f37', width: 2, dash: null, linecap: 'butt', legend: 'solid line: svc checked it' },
  OBSERVED: { word: 'OBSERVED', colour: '#0969da', width: 2, dash: '7 4', linecap: 'butt', legend: 'dashed line: svc saw it, nothing to check' },
  DECLARED: { word: 'DECLARED', colour: '#57606a', width: 2, dash: '0.5 5', linecap: 'round', legend: 'dotted line: the document says so' },
  FAILED: { word: 'FAILED', colour: '#cf222e', width: 4, dash: null, linecap: 'butt', legend: 'thick red line: a check failed' },
};

const KIND_FILLS: Readonly<Record<string, string>> = {
  subject: '#fff8c5',
  document: '#ddf4ff',
  origin: '#fbefff',
  linkage: '#fbefff',
  tls: '#dafbe1',
  key: '#f6f8fa',
  service: '#f6f8fa',
};

const KIND_WORDS: Readonly<Record<string, string>> = {
  subject: 'subject',
  document: 'document',
  origin: 'origin',
  tls: 'TLS',
  key: 'key',
  service: 'service',
  linkage: 'domain linkage',
};

const lower = (state: EdgeState): string => state.toLowerCase();
const lookOf = (state: string): StateLook => STATE_LOOKS[state as EdgeState] ?? STATE_LOOKS.FAILED;

/* ------------------------------------------------------------------ geometry */

const MARGIN = 16;
const NODE_W = 176;
const NODE_H = 50;
/** Widths of the gaps after column 0 and column 1: the edge labels live there. */
const GAPS = [176, 204] as const;
const COL_X = [MARGIN, MARGIN + NODE_W + GAPS[0], MARGIN + 2 * NODE_W + GAPS[0] + GAPS[1]] as const;
const WIDTH = COL_X[2] + NODE_W + MARGIN;
const ROW_GAP = 22;
/** Space above the middle column through which the subject's edges to the right column pass. */
const LANE = 24;
const LABEL_SIZE = 11;
const LINE_H = 13;
const NAME_SIZE = 13;
const CAPTION_SIZE = 11;
const NODE_PAD = 10;
/** Vertical edges within a column run this far in from the column's left edge, 14 apart. */
const VERTICAL_X = 18;
const VERTICAL_STEP = 14;

/** A rough width of text in a sans-serif face, on the wide side so truncated text fits. */
function textWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) {
    if (/[ .,:;'!|iljtf()[\]]/.test(ch)) em += 0.32;
    else if (/[A-Zmw@%&#…—→]/.test(ch)) em += 0.74;
    else if (ch.charCodeAt(0) < 0x80) em += 0.57;
    else em += 1;
  }
  return em * size;
}

/** Text cut to fit `width`, ending in "…" when cut. */
function fit(text: string, width: number, size: number): string {
  if (textWidth(text, size) <= width) return text;
  const chars = [...text];
  let out = '';
  for (const ch of chars) {
    if (textWidth(`${out}${ch}…`, size) > width) break;
    out += ch;
  }
  return `${out}…`;
}

const n = (value: number): number => Math.round(value * 10) / 10;

/* ------------------------------------------------------------------ layout model */

interface LaidNode {
  id: string;
  kind: string;
  /** The node as given; undefined for an id only an edge names. */
  node: GraphNode | undefined;
  index: number;
  col: number;
  order: number;
  x: number;
  y: number;
  /** Labels stacked in the gap to the node's left (on its right for column 0). */
  stack: Label[];
}

interface Label {
  edge: GraphEdge;
  lines: string[];
  title: string;
}

type Route = 'right' | 'left' | 'down' | 'up' | 'bulge' | 'self';

interface Line {
  from: LaidNode;
  to: LaidNode;
  state: EdgeState;
  route: Route;
  labels: Label[];
  /** Attachment points, set once nodes are placed. */
  start: { x: number; y: number };
  end: { x: number; y: number };
}

const COLUMNS: Readonly<Record<string, { col: number; rank: number }>> = {
  subject: { col: 0, rank: 0 },
  document: { col: 1, rank: 0 },
  origin: { col: 1, rank: 1 },
  linkage: { col: 1, rank: 2 },
  key: { col: 2, rank: 0 },
  service: { col: 2, rank: 1 },
  tls: { col: 2, rank: 2 },
};
const UNKNOWN_PLACE = { col: 1, rank: 3 };

function labelLines(edge: GraphEdge, maxWidth: number): string[] {
  const relation = printable(edge.relation);
  const whole = `${relation} · ${edge.state}`;
  if (textWidth(whole, LABEL_SIZE) <= maxWidth) return [whole];
  return [fit(relation, maxWidth, LABEL_SIZE), `· ${edge.state}`];
}

interface Layout {
  nodes: LaidNode[];
  lines: Line[];
  /** Bottom of the lowest node slot. */
  height: number;
  verticalLabels: Array<{ label: Label; x: number; y: number }>;
  stackLabels: Array<{ label: Label; x: number; y: number; anchor: 'start' | 'end' }>;
}

function layout(graph: Graph, did: string): Layout {
  const byId = new Map<string, LaidNode>();
  const add = (id: string, node: GraphNode | undefined): void => {
    if (byId.has(id)) return;
    const place = (node && COLUMNS[node.kind]) ?? UNKNOWN_PLACE;
    byId.set(id, { id, kind: node?.kind ?? 'unknown', node, index: byId.size, col: place.col, order: place.rank, x: COL_X[place.col as 0 | 1 | 2], y: 0, stack: [] });
  };
  for (const node of graph.nodes) add(node.id, node);
  for (const edge of graph.edges) {
    add(edge.from, undefined);
    add(edge.to, undefined);
  }
  const nodes = [...byId.values()];
  const columns: LaidNode[][] = [[], [], []];
  for (const node of nodes) columns[node.col]!.push(node);
  for (const column of columns) {
    column.sort((a, b) => a.order - b.order || a.index - b.index);
    column.forEach((node, i) => (node.order = i));
  }

  // One drawn line per (from, to, state), in order of first appearance.
  const lines: Line[] = [];
  const lineOf = new Map<string, Line>();
  const names = new Map(nodes.map((node) => [node.id, nodeName(node.node, node.id, did)]));
  for (const edge of graph.edges) {
    const key = JSON.stringify([edge.from, edge.to, edge.state]);
    let line = lineOf.get(key);
    if (line === undefined) {
      const from = byId.get(edge.from)!;
      const to = byId.get(edge.to)!;
      let route: Route;
      if (from === to) route = 'self';
      else if (to.col > from.col) route = 'right';
      else if (to.col < from.col) route = 'left';
      else if (to.order === from.order + 1) route = 'down';
      else if (to.order === from.order - 1) route = 'up';
      else route = 'bulge';
      line = { from, to, state: edge.state, route, labels: [], start: { x: 0, y: 0 }, end: { x: 0, y: 0 } };
      lineOf.set(key, line);
      lines.push(line);
    }
    const vertical = line.route === 'down' || line.route === 'up';
    const owner = line.route === 'left' ? line.from : line.to;
    const maxWidth = vertical ? NODE_W - VERTICAL_X - 14 : GAPS[Math.max(0, Math.min(1, owner.col - 1)) as 0 | 1] - 16;
    const label: Label = {
      edge,
      lines: labelLines(edge, maxWidth),
      title: `${names.get(edge.from)} —${printable(edge.relation)}→ ${names.get(edge.to)}: ${edge.state}`,
    };
    line.labels.push(label);
    // Labels of a line go next to the node it concerns: the target when it points right (or
    // around), the source when it points back left.
    if (!vertical) owner.stack.push(label);
  }

  // Lines between neighbours of a column, by the upper node.
  const verticals = new Map<LaidNode, Line[]>();
  for (const line of lines) {
    if (line.route !== 'down' && line.route !== 'up') continue;
    const upper = line.route === 'down' ? line.from : line.to;
    verticals.set(upper, [...(verticals.get(upper) ?? []), line]);
  }
  const labelCount = (labels: Label[]): number => labels.reduce((sum, l) => sum + l.lines.length, 0);
  const verticalHeight = (upper: LaidNode): number => {
    const count = labelCount((verticals.get(upper) ?? []).flatMap((l) => l.labels));
    return count === 0 ? 0 : count * LINE_H + 8;
  };

  // Stack each column; a node's slot is as tall as the labels beside it.
  const crossing = lines.some((l) => l.route === 'right' && l.to.col - l.from.col > 1);
  let bottom = MARGIN;
  for (const [c, column] of columns.entries()) {
    let cursor = MARGIN;
    if (c === 1 && crossing && columns[0]!.length > 0) {
      // The subject's lines to the right column pass above the middle column.
      const first = columns[0]![0]!;
      cursor = Math.max(cursor, first.y + NODE_H + LANE);
    }
    for (const node of column) {
      const need = Math.max(NODE_H, labelCount(node.stack) * LINE_H + 6);
      node.y = cursor + (need - NODE_H) / 2;
      cursor += need;
      bottom = Math.max(bottom, cursor);
      cursor += ROW_GAP + verticalHeight(node);
    }
  }

  // Attachment points: lines on one side of a node spread along it, ordered by the other end.
  const sides = new Map<string, Array<{ line: Line; end: 'start' | 'end'; other: LaidNode }>>();
  const attach = (node: LaidNode, side: string, line: Line, end: 'start' | 'end', other: LaidNode): void => {
    const key = `${node.index}:${side}`;
    sides.set(key, [...(sides.get(key) ?? []), { line, end, other }]);
  };
  for (const line of lines) {
    switch (line.route) {
      case 'right':
        attach(line.from, 'R', line, 'start', line.to);
        attach(line.to, 'L', line, 'end', line.from);
        break;
      case 'left':
        // Back to the left: into the node's bottom, clear of the lines it sends right.
        attach(line.from, 'L', line, 'start', line.to);
        attach(line.to, 'B', line, 'end', line.from);
        break;
      case 'bulge':
        attach(line.from, 'L', line, 'start', line.to);
        attach(line.to, 'L', line, 'end', line.from);
        break;
      default:
        break;
    }
  }
  for (const [key, list] of sides) {
    const node = nodes[Number(key.split(':')[0])]!;
    const side = key.split(':')[1];
    list.sort((a, b) => a.other.y - b.other.y || a.other.col - b.other.col || a.other.index - b.other.index);
    list.forEach((a, i) => {
      if (side === 'B') {
        // The right half of the bottom; the left half is for lines down the column.
        a.line[a.end] = { x: node.x + NODE_W / 2 + ((NODE_W / 2 - 12) * (i + 1)) / (list.length + 1), y: node.y + NODE_H };
        return;
      }
      const y = node.y + (NODE_H * (i + 1)) / (list.length + 1);
      const x = side === 'R' ? node.x + NODE_W : node.x;
      a.line[a.end] = { x, y };
    });
  }
  for (const [upper, list] of verticals) {
    list.forEach((line, i) => {
      const x = upper.x + VERTICAL_X + i * VERTICAL_STEP;
      const lowerNode = line.route === 'down' ? line.to : line.from;
      const top = { x, y: upper.y + NODE_H };
      const low = { x, y: lowerNode.y };
      line.start = line.route === 'down' ? top : low;
      line.end = line.route === 'down' ? low : top;
    });
  }
  for (const line of lines) {
    if (line.route === 'self') {
      line.start = { x: line.from.x + NODE_W - 24, y: line.from.y };
      line.end = { x: line.from.x + NODE_W, y: line.from.y + 16 };
    }
  }

  // Label positions: stacks centred on their node, vertical labels beside their lines.
  const stackLabels: Layout['stackLabels'] = [];
  for (const node of nodes) {
    const ordered = [...node.stack].sort((a, b) => {
      const la = lineOf.get(JSON.stringify([a.edge.from, a.edge.to, a.edge.state]))!;
      const lb = lineOf.get(JSON.stringify([b.edge.from, b.edge.to, b.edge.state]))!;
      const ya = la.to === node ? la.end.y : la.start.y;
      const yb = lb.to === node ? lb.end.y : lb.start.y;
      return ya - yb || lines.indexOf(la) - lines.indexOf(lb) || la.labels.indexOf(a) - lb.labels.indexOf(b);
    });
    let y = node.y + NODE_H / 2 - (labelCount(ordered) * LINE_H) / 2 + LABEL_SIZE - 1;
    const left = node.col > 0;
    for (const label of ordered) {
      stackLabels.push({ label, x: left ? node.x - 8 : node.x + NODE_W + 8, y, anchor: left ? 'end' : 'start' });
      y += label.lines.length * LINE_H;
    }
  }
  const verticalLabels: Layout['verticalLabels'] = [];
  for (const [upper, list] of verticals) {
    const labels = list.flatMap((l) => l.labels);
    const x = upper.x + VERTICAL_X + (list.length - 1) * VERTICAL_STEP + 7;
    const lowerNode = list[0]!.route === 'down' ? list[0]!.to : list[0]!.from;
    const gapTop = upper.y + NODE_H;
    let y = (gapTop + lowerNode.y) / 2 - (labelCount(labels) * LINE_H) / 2 + LABEL_SIZE - 1;
    for (const label of labels) {
      verticalLabels.push({ label, x, y });
      y += label.lines.length * LINE_H;
    }
  }
  return { nodes, lines, height: bottom, verticalLabels, stackLabels };
}

function pathOf(line: Line): string {
  const { start: s, end: e } = line;
  const p = (x: number, y: number): string => `${n(x)} ${n(y)}`;
  switch (line.route) {
    case 'right': {
      // Across a whole column: straight along the lane above it, then curve down.
      const passX = COL_X[(line.to.col - 1) as 0 | 1 | 2] + NODE_W;
      const x0 = line.to.col - line.from.col > 1 ? passX : s.x;
      const dx = (e.x - x0) / 2;
      const lead = x0 > s.x ? ` H ${n(x0)}` : '';
      return `M ${p(s.x, s.y)}${lead} C ${p(x0 + dx, s.y)} ${p(e.x - dx, e.y)} ${p(e.x, e.y)}`;
    }
    case 'left': {
      // Leaves the source's left side level, arrives upwards into the target's bottom.
      const dx = (s.x - e.x) / 2;
      const dy = Math.max(24, (s.y - e.y) / 2);
      return `M ${p(s.x, s.y)} C ${p(s.x - dx, s.y)} ${p(e.x, e.y + dy)} ${p(e.x, e.y)}`;
    }
    case 'bulge': {
      const out = Math.max(4, s.x - 56);
      return `M ${p(s.x, s.y)} C ${p(out, s.y)} ${p(out, e.y)} ${p(e.x, e.y)}`;
    }
    case 'self':
      return `M ${p(s.x, s.y)} C ${p(s.x, s.y - 30)} ${p(e.x + 30, e.y)} ${p(e.x, e.y)}`;
    default:
      return `M ${p(s.x, s.y)} L ${p(e.x, e.y)}`;
  }
}

/* ------------------------------------------------------------------ rendering */

function strokeAttributes(state: EdgeState): Html {
  const look = lookOf(state);
  return html`stroke="${look.colour}" stroke-width="${look.width}" stroke-dasharray="${look.dash ?? 'none'}" stroke-linecap="${look.linecap}"`;
}

function markers(): Html {
  return join(
    EDGE_STATES.map(
      (state) =>
        html`<marker id="${`eg-arrow-${lower(state)}`}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="${lookOf(state).colour}"/></marker>`,
    ),
  );
}

function lineMarkup(line: Line): Html {
  const state = lower(line.state);
  return html`<path class="${`edge-line edge-line-${state}`}" data-from="${line.from.id}" data-to="${line.to.id}" data-state="${line.state}" data-relations="${line.labels.map((l) => l.edge.relation).join(' ')}" d="${pathOf(line)}" fill="none" ${strokeAttributes(line.state)} marker-end="${`url(#eg-arrow-${state})`}"/>`;
}

function labelMarkup(label: Label, x: number, y: number, anchor: 'start' | 'end'): Html {
  const { edge } = label;
  const look = lookOf(edge.state);
  const weight = edge.state === 'FAILED' ? '700' : '400';
  const texts = label.lines.map(
    (text, i) =>
      html`<text x="${n(x)}" y="${n(y + i * LINE_H)}" text-anchor="${anchor}" font-size="${LABEL_SIZE}" font-weight="${weight}" fill="${look.colour}" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">${text}</text>`,
  );
  return html`<g class="${`edge edge-${lower(edge.state)}`}" data-from="${edge.from}" data-to="${edge.to}" data-relation="${edge.relation}" data-state="${edge.state}"><title>${label.title}</title>${texts}</g>`;
}

function nodeMarkup(node: LaidNode, did: string, evidenceHref: (node: GraphNode) => string | null): Html {
  const name = nodeName(node.node, node.id, did);
  const kindWord = KIND_WORDS[node.kind] ?? printable(node.kind);
  const detail = node.kind === 'subject' ? node.id : node.kind === 'key' || node.kind === 'service' ? (node.node?.label ?? '') : '';
  const caption = detail ? `${kindWord} · ${printable(detail)}` : kindWord;
  const inner = NODE_W - 2 * NODE_PAD;
  const full = [`${kindWord}: ${printable(node.id)}`, ...(node.node && node.node.label !== node.id ? [printable(node.node.label)] : [])].join('\n');
  const body = html`<g class="${`node node-${node.kind}`}" data-node-id="${node.id}" data-kind="${node.kind}"><title>${full}</title><rect class="node-box" x="${n(node.x)}" y="${n(node.y)}" width="${NODE_W}" height="${NODE_H}" rx="6" fill="${KIND_FILLS[node.kind] ?? '#ffffff'}" stroke="#57606a" stroke-width="1.5"/><text class="node-caption" x="${n(node.x + NODE_PAD)}" y="${n(node.y + 18)}" font-size="${CAPTION_SIZE}" fill="#57606a">${fit(caption, inner, CAPTION_SIZE)}</text><text class="node-name" x="${n(node.x + NODE_PAD)}" y="${n(node.y + 37)}" font-size="${NAME_SIZE}" font-weight="600" fill="#1f2328">${fit(name, inner, NAME_SIZE)}</text></g>`;
  const href = node.node ? safeHref(evidenceHref(node.node)) : null;
  return href === null ? body : html`<a class="node-link" href="${href}">${body}</a>`;
}

/** Links stay within the page or the web: a fragment, a relative path or http(s). */
function safeHref(href: string | null): string | null {
  if (href === null) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href.trim()) && !/^https?:/i.test(href.trim())) return null;
  return href;
}

function legendMarkup(top: number): { markup: Html; height: number } {
  const column = (WIDTH - 2 * MARGIN) / 2;
  const items = EDGE_STATES.map((state, i) => {
    const look = STATE_LOOKS[state];
    const x = MARGIN + (i % 2) * column;
    const y = top + 22 + Math.floor(i / 2) * 22;
    return html`<g class="${`legend-item legend-${lower(state)}`}"><line class="${`edge-line edge-line-${lower(state)}`}" x1="${n(x)}" y1="${n(y - 4)}" x2="${n(x + 40)}" y2="${n(y - 4)}" ${strokeAttributes(state)}/><text x="${n(x + 50)}" y="${n(y)}" font-size="${LABEL_SIZE}" fill="#1f2328"><tspan font-weight="700" fill="${look.colour}">${state}</tspan> ${look.legend}</text></g>`;
  });
  return {
    markup: html`<g class="legend"><text x="${MARGIN}" y="${n(top)}" font-size="${LABEL_SIZE}" font-weight="700" fill="#1f2328">Line styles</text>${items}</g>`,
    height: 22 + 2 * 22,
  };
}

/** "7 nodes, 9 edges: 5 verified, 2 observed, 2 declared, 0 failed". */
export function graphSummary(graph: Graph): string {
  const counts = EDGE_STATES.map((state) => `${graph.edges.filter((e) => e.state === state).length} ${lower(state)}`);
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${plural(graph.nodes.length, 'node')}, ${plural(graph.edges.length, 'edge')}: ${counts.join(', ')}`;
}

/**
 * The evidence graph as inline SVG: `<svg class="evidence-graph" role="group">` with a title, a
 * one-sentence description, the drawn lines (`path.edge-line[data-from][data-to][data-state]`),
 * the nodes (`g.node[data-node-id][data-kind]`, each in an `<a href>` to its evidence), one label
 * group per edge (`g.edge[data-from][data-to][data-relation][data-state]`) and a legend.
 */
export function graphSvg(graph: Graph, did: string, options: GraphSvgOptions = {}): Html {
  const evidenceHref = options.evidenceHref ?? defaultEvidenceHref;
  const laid = layout(graph, did);
  const legendTop = laid.height + 30;
  const legend = legendMarkup(legendTop);
  const height = n(legendTop + legend.height + MARGIN - 14);
  return html`<svg class="evidence-graph" role="group" aria-labelledby="graph-title graph-desc" viewBox="${`0 0 ${WIDTH} ${height}`}" width="100%" font-family="system-ui, sans-serif"><title id="graph-title">${`Evidence graph of ${did}`}</title><desc id="graph-desc">${graphSummary(graph)}</desc><defs>${markers()}</defs><g class="edge-lines">${laid.lines.map(lineMarkup)}</g><g class="nodes">${laid.nodes.map((node) => nodeMarkup(node, did, evidenceHref))}</g><g class="edge-labels">${[
    ...laid.stackLabels.map((s) => labelMarkup(s.label, s.x, s.y, s.anchor)),
    ...laid.verticalLabels.map((v) => labelMarkup(v.label, v.x, v.y, 'start')),
  ]}</g>${legend.markup}</svg>`;
}

/* ------------------------------------------------------------------ edge table */

function nodeCell(id: string, nodes: ReadonlyMap<string, GraphNode>, did: string): Html {
  const name = nodeName(nodes.get(id), id, did);
  const full = name === printable(id) ? '' : html` <code class="node-id">${id}</code>`;
  return html`<td data-node-id="${id}"><span class="node-name">${name}</span>${full}</td>`;
}

/**
 * The edges as a table, in the graph's order: the text alternative of the SVG. Each row is
 * `tr[data-from][data-to][data-relation][data-state]`; nodes are named as in the SVG, with the
 * full id in `<code class="node-id">` when the name is not the id.
 */
export function edgeTable(graph: Graph, did: string): Html {
  const nodes = new Map<string, GraphNode>();
  for (const node of graph.nodes) if (!nodes.has(node.id)) nodes.set(node.id, node);
  const rows = graph.edges.map(
    (edge) =>
      html`<tr data-from="${edge.from}" data-to="${edge.to}" data-relation="${edge.relation}" data-state="${edge.state}">${nodeCell(edge.from, nodes, did)}<td class="relation">${edge.relation}</td>${nodeCell(edge.to, nodes, did)}<td class="${`state state-${lower(edge.state)}`}">${edge.state}</td></tr>`,
  );
  return html`<table id="edge-table" class="edge-table"><caption>Edges of the evidence graph</caption><thead><tr><th scope="col">From</th><th scope="col">Relation</th><th scope="col">To</th><th scope="col">State</th></tr></thead><tbody>${rows}</tbody></table>`;
}
