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
import { graphNodeName as nodeName } from '../present/graph.js';
import { printable } from '../present/text.js';
import { EDGE_STATES, type EdgeState, type Graph, type GraphEdge, type GraphNode } from '../core/resolve/types.js';
import { anchorId, breakable, html, join, preformatted, type Html } from './html.js';

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

/** A node as the terminal's evidence graph names it: one function for both (src/present/graph.ts). */
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
/** A node's least height: its caption and a one-line name; a two-line name makes it NODE_H_TWO. */
const NODE_H = 50;
const NODE_H_TWO = 66;
const ROW_GAP = 22;
/** Space above the middle column through which the subject's edges to the right column pass. */
const LANE = 24;
const LABEL_SIZE = 11;
/** From one label line's baseline to the next: more than the text's height, so lines never touch. */
const LINE_H = 15;
/** A label's last baseline sits this far above the line it labels (the line runs just below it). */
const BASELINE_RISE = 6;
/** Between the bottom of one band of labels (its line) and the top of the next. */
const BAND_GAP = 5;
/** An attachment without labels still keeps this much room from its neighbours. */
const BARE_BAND = 10;
/** Attachment points keep this far from a node's corners. */
const INSET = 6;
/** Between a label's end and the node it stands next to. */
const LEAD_GAP = 8;
/** Where lines curve from one column to the next: at least this wide, left of the labels. */
const CURVE_ZONE = 64;
/** The widest label line; a longer relation is cut with "…" (the title and the table keep it whole). */
const MAX_LABEL_W = 210;
/** The narrowest gap between two columns. */
const MIN_GAP = 120;
const NAME_SIZE = 13;
const CAPTION_SIZE = 11;
const NODE_PAD = 10;
/** How much wider the names' semibold is than the regular text textWidth estimates. */
const BOLD = 1.12;
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

/**
 * A node's name in at most two lines of `width`: whole when it fits in two (broken after a
 * separator near the end of the first line where that leaves a second line that fits), else
 * `short` (the name cut to its ends) on one or two lines, the second cut with "…".
 */
function nameLines(whole: string, short: string, width: number, size: number): string[] {
  if (textWidth(whole, size) <= width) return [whole];
  const split = (text: string, atSeparator: boolean): [string, string] => {
    const chars = [...text];
    let end = 0;
    while (end < chars.length && textWidth(chars.slice(0, end + 1).join(''), size) <= width) end++;
    if (atSeparator) {
      // After a separator in the last third of the first line.
      for (let i = end; i > Math.floor((end * 2) / 3); i--) {
        if (/[-_:/.#\s]/.test(chars[i - 1] ?? '')) {
          end = i;
          break;
        }
      }
    }
    return [chars.slice(0, end).join('').trimEnd(), chars.slice(end).join('').trimStart()];
  };
  for (const atSeparator of [true, false]) {
    const [first, rest] = split(whole, atSeparator);
    if (textWidth(rest, size) <= width) return [first, rest];
  }
  if (textWidth(short, size) <= width) return [short];
  const [first, rest] = split(short, false);
  return [first, fit(rest, width, size)];
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
  height: number;
  /** Whether the node is placed (its column laid out). */
  placed: boolean;
  name: string[];
  /** What comes in or goes out on the node's left side, one band each: labels above the line. */
  bands: Band[];
}

interface Label {
  edge: GraphEdge;
  lines: string[];
  title: string;
}

/**
 * One line's attachment on a node's left side: the line runs level into (or out of) the node at
 * `y`, and the labels it carries there stand right-aligned just above it, between the column's
 * lead x and the node. Bands of one node are stacked without overlap, and so are the nodes of a
 * column, so no two labels can share a place and no line crosses a label: curves stay left of
 * the lead x.
 */
interface Band {
  line: Line;
  end: 'start' | 'end';
  other: LaidNode;
  labels: Label[];
  height: number;
  y: number;
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

const labelWidth = (label: Label): number => Math.max(0, ...label.lines.map((line) => textWidth(line, LABEL_SIZE)));
const lineCount = (labels: readonly Label[]): number => labels.reduce((sum, l) => sum + l.lines.length, 0);

interface Layout {
  nodes: LaidNode[];
  lines: Line[];
  width: number;
  /** Bottom of the lowest node slot. */
  height: number;
  /** Left edge of each column, and where its level lead-ins begin. */
  colX: number[];
  leadX: number[];
  verticalLabels: Array<{ label: Label; x: number; y: number }>;
  bandLabels: Array<{ label: Label; x: number; y: number }>;
}

function layout(graph: Graph, did: string): Layout {
  const byId = new Map<string, LaidNode>();
  const add = (id: string, node: GraphNode | undefined): void => {
    if (byId.has(id)) return;
    const place = (node && COLUMNS[node.kind]) ?? UNKNOWN_PLACE;
    const kind = node?.kind ?? 'unknown';
    const whole = nodeName(node, id, did, { whole: true });
    const name = nameLines(whole, nodeName(node, id, did), (NODE_W - 2 * NODE_PAD) / BOLD, NAME_SIZE);
    byId.set(id, { id, kind, node, index: byId.size, col: place.col, order: place.rank, x: 0, y: 0, height: NODE_H, placed: false, name, bands: [] });
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
  const names = new Map(nodes.map((node) => [node.id, nodeName(node.node, node.id, did, { whole: true })]));
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
    line.labels.push({
      edge,
      lines: labelLines(edge, vertical ? NODE_W - VERTICAL_X - 14 : MAX_LABEL_W),
      title: `${names.get(edge.from)} —${printable(edge.relation)}→ ${names.get(edge.to)}: ${edge.state}`,
    });
  }

  // Bands on the left sides: a line's labels go next to the node it concerns — the target when
  // it points right (or around), the source when it points back left.
  const band = (node: LaidNode, line: Line, end: 'start' | 'end', other: LaidNode, labels: Label[]): void => {
    node.bands.push({ line, end, other, labels, height: labels.length === 0 ? BARE_BAND : lineCount(labels) * LINE_H + 4, y: 0 });
  };
  for (const line of lines) {
    switch (line.route) {
      case 'right':
        band(line.to, line, 'end', line.from, line.labels);
        break;
      case 'left':
        band(line.from, line, 'start', line.to, line.labels);
        break;
      case 'bulge':
        band(line.from, line, 'start', line.to, []);
        band(line.to, line, 'end', line.from, line.labels);
        break;
      case 'self':
        band(line.to, line, 'end', line.from, line.labels);
        break;
      default:
        break;
    }
  }

  // Columns: each gap holds a zone where lines curve, then the labels of the column after it.
  const labelsW = columns.map((column) => Math.max(0, ...column.flatMap((node) => node.bands.flatMap((b) => b.labels.map(labelWidth)))));
  const zone = (c: number): number => (labelsW[c]! > 0 ? labelsW[c]! + LEAD_GAP + 6 : 12);
  const colX: number[] = [];
  colX[0] = n(MARGIN + (labelsW[0]! > 0 ? CURVE_ZONE + zone(0) : 0));
  for (let c = 1; c < 3; c++) colX[c] = n(colX[c - 1]! + NODE_W + Math.max(MIN_GAP, CURVE_ZONE + zone(c)));
  const leadX = colX.map((x, c) => n(x - zone(c)));
  const width = n(colX[2]! + NODE_W + MARGIN);
  for (const node of nodes) node.x = colX[node.col]!;

  // Lines between neighbours of a column, by the upper node.
  const verticals = new Map<LaidNode, Line[]>();
  for (const line of lines) {
    if (line.route !== 'down' && line.route !== 'up') continue;
    const upper = line.route === 'down' ? line.from : line.to;
    verticals.set(upper, [...(verticals.get(upper) ?? []), line]);
  }
  const verticalHeight = (upper: LaidNode): number => {
    const count = lineCount((verticals.get(upper) ?? []).flatMap((l) => l.labels));
    return count === 0 ? 0 : count * LINE_H + 8;
  };

  // Stack each column, left to right (so a band can be ordered by where its other end is): a
  // node's slot holds its bands and its box, the box spanning every band's line.
  const crossing = lines.some((l) => l.route === 'right' && l.to.col - l.from.col > 1);
  const otherY = (b: Band): number => (b.other.placed ? b.other.y + b.other.height / 2 : 1e6 + b.other.col * 1e4 + b.other.order);
  let bottom = MARGIN;
  for (const [c, column] of columns.entries()) {
    let cursor = MARGIN;
    if (c === 1 && crossing && columns[0]!.length > 0) {
      // The subject's lines to the right column pass above the middle column.
      const first = columns[0]![0]!;
      cursor = Math.max(cursor, first.y + first.height + LANE);
    }
    for (const node of column) {
      node.bands.sort((a, b) => otherY(a) - otherY(b) || lines.indexOf(a.line) - lines.indexOf(b.line));
      const least = node.name.length > 1 ? NODE_H_TWO : NODE_H;
      let slotTop = 0;
      let slotBottom = least;
      let top = 0;
      if (node.bands.length > 0) {
        let y = 0;
        node.bands.forEach((b, i) => {
          y += (i === 0 ? 0 : BAND_GAP) + b.height;
          b.y = y;
        });
        const first = node.bands[0]!.y;
        const last = node.bands.at(-1)!.y;
        node.height = Math.max(least, last - first + 2 * INSET);
        top = (first + last) / 2 - node.height / 2;
        slotTop = Math.min(0, top);
        slotBottom = Math.max(last + 3, top + node.height);
      } else {
        node.height = least;
      }
      const offset = cursor - slotTop;
      node.y = top + offset;
      for (const b of node.bands) b.y += offset;
      node.placed = true;
      cursor = slotBottom + offset;
      bottom = Math.max(bottom, cursor);
      cursor += ROW_GAP + verticalHeight(node);
    }
  }

  // Attachment points: bands where they were stacked; lines leaving a right side or arriving at
  // a bottom spread along it, ordered by the other end.
  for (const node of nodes) for (const b of node.bands) b.line[b.end] = { x: node.x, y: b.y };
  const sides = new Map<string, Array<{ line: Line; end: 'start' | 'end'; other: LaidNode }>>();
  const attach = (node: LaidNode, side: string, line: Line, end: 'start' | 'end', other: LaidNode): void => {
    const key = `${node.index}:${side}`;
    sides.set(key, [...(sides.get(key) ?? []), { line, end, other }]);
  };
  for (const line of lines) {
    if (line.route === 'right') attach(line.from, 'R', line, 'start', line.to);
    // Back to the left: into the target's bottom, clear of the lines it sends right.
    if (line.route === 'left') attach(line.to, 'B', line, 'end', line.from);
  }
  for (const [key, list] of sides) {
    const node = nodes[Number(key.split(':')[0])]!;
    const side = key.split(':')[1];
    const endY = (a: { line: Line; end: 'start' | 'end' }): number => {
      const far = a.end === 'start' ? a.line.end : a.line.start;
      return far.y;
    };
    list.sort((a, b) => endY(a) - endY(b) || a.other.col - b.other.col || a.other.index - b.other.index);
    list.forEach((a, i) => {
      if (side === 'B') {
        // The right half of the bottom; the left half is for lines down the column.
        a.line[a.end] = { x: node.x + NODE_W / 2 + ((NODE_W / 2 - 12) * (i + 1)) / (list.length + 1), y: node.y + node.height };
        return;
      }
      a.line[a.end] = { x: node.x + NODE_W, y: node.y + (node.height * (i + 1)) / (list.length + 1) };
    });
  }
  for (const [upper, list] of verticals) {
    list.forEach((line, i) => {
      const x = upper.x + VERTICAL_X + i * VERTICAL_STEP;
      const lowerNode = line.route === 'down' ? line.to : line.from;
      const top = { x, y: upper.y + upper.height };
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

  // Label positions: each band's labels right-aligned above its line; vertical labels beside theirs.
  const bandLabels: Layout['bandLabels'] = [];
  for (const node of nodes) {
    for (const b of node.bands) {
      let y = b.y - BASELINE_RISE - (lineCount(b.labels) - 1) * LINE_H;
      for (const label of b.labels) {
        bandLabels.push({ label, x: node.x - LEAD_GAP, y });
        y += label.lines.length * LINE_H;
      }
    }
  }
  const verticalLabels: Layout['verticalLabels'] = [];
  for (const [upper, list] of verticals) {
    const labels = list.flatMap((l) => l.labels);
    const x = upper.x + VERTICAL_X + (list.length - 1) * VERTICAL_STEP + 7;
    const lowerNode = list[0]!.route === 'down' ? list[0]!.to : list[0]!.from;
    const gapTop = upper.y + upper.height;
    let y = (gapTop + lowerNode.y) / 2 - (lineCount(labels) * LINE_H) / 2 + LABEL_SIZE - 1;
    for (const label of labels) {
      verticalLabels.push({ label, x, y });
      y += label.lines.length * LINE_H;
    }
  }
  return { nodes, lines, width, height: bottom, colX, leadX, verticalLabels, bandLabels };
}

function pathOf(line: Line, laid: Layout): string {
  const { start: s, end: e } = line;
  const p = (x: number, y: number): string => `${n(x)} ${n(y)}`;
  const curve = (x0: number, y0: number, x1: number, y1: number): string => {
    const dx = (x1 - x0) / 2;
    return `C ${p(x0 + dx, y0)} ${p(x1 - dx, y1)} ${p(x1, y1)}`;
  };
  switch (line.route) {
    case 'right': {
      // Across a whole column: straight along the lane above it first. Then a curve to the
      // target column's lead x, and level into the node under its labels.
      const lead = laid.leadX[line.to.col]!;
      const x0 = line.to.col - line.from.col > 1 ? laid.colX[line.to.col - 1]! + NODE_W : s.x;
      const pass = x0 > s.x ? ` H ${n(x0)}` : '';
      return `M ${p(s.x, s.y)}${pass} ${curve(x0, s.y, lead, e.y)} H ${n(e.x)}`;
    }
    case 'left': {
      // Level out of the source under its labels, then up into the target's bottom.
      const lead = laid.leadX[line.from.col]!;
      const dx = (lead - e.x) / 2;
      const dy = Math.max(24, (s.y - e.y) / 2);
      return `M ${p(s.x, s.y)} H ${n(lead)} C ${p(lead - dx, s.y)} ${p(e.x, e.y + dy)} ${p(e.x, e.y)}`;
    }
    case 'bulge': {
      const lead = laid.leadX[line.from.col]!;
      const out = Math.max(4, lead - 40);
      return `M ${p(s.x, s.y)} H ${n(lead)} C ${p(out, s.y)} ${p(out, e.y)} ${p(lead, e.y)} H ${n(e.x)}`;
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

function lineMarkup(line: Line, laid: Layout): Html {
  const state = lower(line.state);
  return html`<path class="${`edge-line edge-line-${state}`}" data-from="${line.from.id}" data-to="${line.to.id}" data-state="${line.state}" data-relations="${line.labels.map((l) => l.edge.relation).join(' ')}" d="${pathOf(line, laid)}" fill="none" ${strokeAttributes(line.state)} marker-end="${`url(#eg-arrow-${state})`}"/>`;
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

/**
 * A node: its box, a caption (its kind and detail) and its name in one or two lines, cut when
 * even two do not hold it. The whole id and label are its `<title>`: the tooltip on hover and,
 * as the first child of its link, the link's accessible name, read on focus (SVG-AAM); the edge
 * table below has them too.
 */
function nodeMarkup(node: LaidNode, did: string, evidenceHref: (node: GraphNode) => string | null): Html {
  const kindWord = KIND_WORDS[node.kind] ?? printable(node.kind);
  const detail = node.kind === 'subject' ? node.id : node.kind === 'key' || node.kind === 'service' ? (node.node?.label ?? '') : '';
  const caption = detail ? `${kindWord} · ${printable(detail)}` : kindWord;
  const inner = NODE_W - 2 * NODE_PAD;
  // The whole name, then what it stands for: the kind and id, and the label where it adds to them.
  const name = nodeName(node.node, node.id, did, { whole: true });
  const id = printable(node.id);
  const label = node.node ? printable(node.node.label) : '';
  const whole = [name, node.id === node.kind ? kindWord : `${kindWord}: ${id}`, ...(label && label !== id && label !== name ? [label] : [])];
  const names = node.name.map(
    (line, i) =>
      html`<text class="node-name" x="${n(node.x + NODE_PAD)}" y="${n(node.y + 37 + i * 16)}" font-size="${NAME_SIZE}" font-weight="600" fill="#1f2328">${line}</text>`,
  );
  const href = node.node ? safeHref(evidenceHref(node.node)) : null;
  const title = html`<title>${preformatted(whole.join('\n'))}</title>`;
  const body = html`<g class="${`node node-${node.kind}`}" data-node-id="${node.id}" data-kind="${node.kind}">${href === null ? title : ''}<rect class="node-box" x="${n(node.x)}" y="${n(node.y)}" width="${NODE_W}" height="${n(node.height)}" rx="6" fill="${KIND_FILLS[node.kind] ?? '#ffffff'}" stroke="#57606a" stroke-width="1.5"/><text class="node-caption" x="${n(node.x + NODE_PAD)}" y="${n(node.y + 18)}" font-size="${CAPTION_SIZE}" fill="#57606a">${fit(caption, inner, CAPTION_SIZE)}</text>${names}</g>`;
  return href === null ? body : html`<a class="node-link" href="${href}">${title}${body}</a>`;
}

/** Links stay within the page or the web: a fragment, a relative path or http(s). */
function safeHref(href: string | null): string | null {
  if (href === null) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href.trim()) && !/^https?:/i.test(href.trim())) return null;
  return href;
}

function legendMarkup(top: number, width: number): { markup: Html; height: number } {
  const column = (width - 2 * MARGIN) / 2;
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
  const legend = legendMarkup(legendTop, laid.width);
  const height = n(legendTop + legend.height + MARGIN - 14);
  return html`<svg class="evidence-graph" role="group" aria-labelledby="graph-title graph-desc" viewBox="${`0 0 ${laid.width} ${height}`}" width="${laid.width}" height="${height}" font-family="system-ui, sans-serif"><title id="graph-title">${`Evidence graph of ${did}`}</title><desc id="graph-desc">${graphSummary(graph)}</desc><defs>${markers()}</defs><g class="edge-lines">${laid.lines.map((line) => lineMarkup(line, laid))}</g><g class="nodes">${laid.nodes.map((node) => nodeMarkup(node, did, evidenceHref))}</g><g class="edge-labels">${[
    ...laid.bandLabels.map((b) => labelMarkup(b.label, b.x, b.y, 'end')),
    ...laid.verticalLabels.map((v) => labelMarkup(v.label, v.x, v.y, 'start')),
  ]}</g>${legend.markup}</svg>`;
}

/* ------------------------------------------------------------------ edge table */

function nodeCell(id: string, nodes: ReadonlyMap<string, GraphNode>, did: string): Html {
  const name = nodeName(nodes.get(id), id, did, { whole: true });
  const full = name === printable(id) ? '' : html` <code class="node-id">${breakable(id)}</code>`;
  return html`<td data-node-id="${id}"><span class="node-name">${breakable(name)}</span>${full}</td>`;
}

/**
 * The edges as a table, in the graph's order: the text alternative of the SVG. Each row is
 * `tr[data-from][data-to][data-relation][data-state]`; nodes are named as in the SVG but never
 * cut, with the full id in `<code class="node-id">` when the name is not the id. Names and ids
 * may wrap after their separators only (`breakable`), relations and states not at all.
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
