/** The evidence graph of the web dossier (src/web/graph.ts): SVG and edge table, checked as text. */
import { beforeAll, describe, expect, it } from 'vitest';
import { graphView } from '../../src/present/graph.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EdgeState, Graph, GraphNode } from '../../src/core/resolve/types.js';
import { defaultEvidenceHref, edgeTable, graphSvg, graphSummary, nodeName } from '../../src/web/graph.js';
import { anchorId, breakable, escapeHtml } from '../../src/web/html.js';
import { testRuntime } from '../support/runtime.js';

const KEY_DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const WEB_DID = 'did:web:example.com';
const ORIGIN = 'https://example.com';

/** Shaped as buildGraph makes it for a did:web with TLS, two linkage credentials and services. */
const WEB_GRAPH: Graph = {
  nodes: [
    { id: WEB_DID, kind: 'subject', label: WEB_DID },
    { id: 'document', kind: 'document', label: 'DID document (sha256 0123456789ab…)' },
    { id: `${WEB_DID}#key-1`, kind: 'key', label: 'Ed25519 (VALID_KEY)' },
    { id: `${WEB_DID}#key-2`, kind: 'key', label: 'P-256 (INVALID_KEY)' },
    { id: ORIGIN, kind: 'origin', label: ORIGIN },
    { id: 'tls:example.com', kind: 'tls', label: "TLSv1.3, certificate by CN=R11, O=Let's Encrypt, C=US" },
    { id: 'linkage:0', kind: 'linkage', label: 'JWT domain linkage credential (INVALID_PROOF)' },
    { id: 'linkage:1', kind: 'linkage', label: 'DATA_INTEGRITY domain linkage credential (VERIFIED)' },
    { id: `${WEB_DID}#linked-domain`, kind: 'service', label: 'LinkedDomains' },
    { id: `${WEB_DID}#a-very-long-service-fragment-name-that-goes-on-and-on`, kind: 'service', label: 'DIDCommMessaging, SomethingElse' },
  ],
  edges: [
    { from: WEB_DID, to: 'document', relation: 'resolvesTo', state: 'OBSERVED' },
    { from: 'document', to: `${WEB_DID}#key-1`, relation: 'publishes', state: 'VERIFIED' },
    { from: WEB_DID, to: `${WEB_DID}#key-1`, relation: 'authentication', state: 'DECLARED' },
    { from: WEB_DID, to: `${WEB_DID}#key-1`, relation: 'assertionMethod', state: 'DECLARED' },
    { from: WEB_DID, to: `${WEB_DID}#key-1`, relation: 'capabilityInvocation', state: 'DECLARED' },
    { from: 'document', to: `${WEB_DID}#key-2`, relation: 'publishes', state: 'FAILED' },
    { from: WEB_DID, to: `${WEB_DID}#key-2`, relation: 'keyAgreement', state: 'DECLARED' },
    { from: WEB_DID, to: ORIGIN, relation: 'hostedAt', state: 'DECLARED' },
    { from: ORIGIN, to: 'document', relation: 'serves', state: 'OBSERVED' },
    { from: ORIGIN, to: 'tls:example.com', relation: 'securedBy', state: 'VERIFIED' },
    { from: ORIGIN, to: 'linkage:0', relation: 'publishes', state: 'OBSERVED' },
    { from: 'linkage:0', to: WEB_DID, relation: 'linksDomain', state: 'FAILED' },
    { from: ORIGIN, to: 'linkage:1', relation: 'publishes', state: 'OBSERVED' },
    { from: 'linkage:1', to: WEB_DID, relation: 'linksDomain', state: 'VERIFIED' },
    { from: 'document', to: `${WEB_DID}#linked-domain`, relation: 'service', state: 'DECLARED' },
    { from: 'document', to: `${WEB_DID}#a-very-long-service-fragment-name-that-goes-on-and-on`, relation: 'service', state: 'DECLARED' },
  ],
};

const HOSTILE_DID = 'did:web:evil.example';
const SCRIPT_ID = `${HOSTILE_DID}#<script>alert(1)</script>`;
const IMG_ID = `"><img src=x onerror=alert(1)>`;
const QUOTES_ID = `${HOSTILE_DID}#it's "quoted" & <b>bold</b>`;
const CONTROL_ID = `${HOSTILE_DID}#bell\u0007esc\u001b[31mred`;
const BIDI_ID = `${HOSTILE_DID}#\u202egnp.exe`;

const HOSTILE_GRAPH: Graph = {
  nodes: [
    { id: HOSTILE_DID, kind: 'subject', label: HOSTILE_DID },
    { id: 'document', kind: 'document', label: '</text><script>alert(2)</script>' },
    { id: SCRIPT_ID, kind: 'key', label: '<svg onload=alert(3)>' },
    { id: IMG_ID, kind: 'service', label: `' onmouseover='alert(4)` },
    { id: QUOTES_ID, kind: 'key', label: 'x" style="fill:red' },
    { id: CONTROL_ID, kind: 'service', label: 'ok' },
    { id: BIDI_ID, kind: 'key', label: 'ok' },
  ],
  edges: [
    { from: HOSTILE_DID, to: 'document', relation: 'resolvesTo', state: 'OBSERVED' },
    { from: 'document', to: SCRIPT_ID, relation: '<script>alert(5)</script>', state: 'DECLARED' },
    { from: 'document', to: IMG_ID, relation: `"><img src=x onerror=alert(6)>`, state: 'FAILED' },
    { from: HOSTILE_DID, to: QUOTES_ID, relation: `it's "x"`, state: 'DECLARED' },
    { from: 'document', to: CONTROL_ID, relation: 'service', state: 'DECLARED' },
    { from: HOSTILE_DID, to: BIDI_ID, relation: 'authentication', state: 'VERIFIED' },
  ],
};

const unescapeXml = (text: string): string =>
  text.replace(/&(quot|#39|lt|gt|amp);/g, (_, e: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[e]!);

interface EdgeElement {
  cls: string;
  from: string;
  to: string;
  relation: string;
  state: string;
  text: string;
}

/** Every `<g class="edge …" data-…>`, attribute values as the DOM would read them. */
function edgeElements(svg: string): EdgeElement[] {
  const re = /<g class="edge ([^"]*)" data-from="([^"]*)" data-to="([^"]*)" data-relation="([^"]*)" data-state="([^"]*)">(.*?)<\/g>/g;
  return [...svg.matchAll(re)].map((m) => ({
    cls: m[1]!,
    from: unescapeXml(m[2]!),
    to: unescapeXml(m[3]!),
    relation: unescapeXml(m[4]!),
    state: m[5]!,
    text: unescapeXml([...m[6]!.matchAll(/<text[^>]*>(.*?)<\/text>/g)].map((t) => t[1]).join(' ')),
  }));
}

function nodeElements(svg: string): Array<{ kind: string; id: string; dataKind: string; href: string | null }> {
  const re = /(?:<a class="node-link" href="([^"]*)"><title>[^<]*<\/title>)?<g class="node node-([^"]*)" data-node-id="([^"]*)" data-kind="([^"]*)">/g;
  return [...svg.matchAll(re)].map((m) => ({ href: m[1] === undefined ? null : unescapeXml(m[1]), kind: m[2]!, id: unescapeXml(m[3]!), dataKind: m[4]! }));
}

function rects(svg: string): Array<{ x: number; y: number; w: number; h: number }> {
  const re = /<rect class="node-box" x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"/g;
  return [...svg.matchAll(re)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }));
}

/** The drawn line of each (from, to, state) with its presentation attributes. */
function lines(svg: string): Array<{ from: string; to: string; state: string; attrs: Record<string, string> }> {
  return [...svg.matchAll(/<path( class="edge-line [^"]*"[^>]*)\/>/g)].map((m) => {
    const attrs = Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, unescapeXml(a[2]!)]));
    return { from: attrs['data-from']!, to: attrs['data-to']!, state: attrs['data-state']!, attrs };
  });
}

/** Every start tag: its name and attribute names; the markup is well formed if this accounts for all of it. */
function tags(markup: string): Array<{ name: string; attrs: string[] }> {
  return [...markup.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*\/?>/g)].map((m) => ({
    name: m[1]!,
    attrs: [...m[2]!.matchAll(/([\w:-]+)="/g)].map((a) => a[1]!),
  }));
}

function tableRows(table: string): Array<{ from: string; to: string; relation: string; state: string; cells: string[] }> {
  const re = /<tr data-from="([^"]*)" data-to="([^"]*)" data-relation="([^"]*)" data-state="([^"]*)">(.*?)<\/tr>/g;
  return [...table.matchAll(re)].map((m) => ({
    from: unescapeXml(m[1]!),
    to: unescapeXml(m[2]!),
    relation: unescapeXml(m[3]!),
    state: m[4]!,
    cells: [...m[5]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[0]),
  }));
}

/** Points along a path of M, H, L and C commands (the only ones the renderer writes). */
function samplePath(d: string): Array<[number, number]> {
  const tokens = d.trim().split(/\s+/);
  const points: Array<[number, number]> = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i < tokens.length; ) {
    const command = tokens[i++]!;
    const num = (): number => Number(tokens[i++]);
    if (command === 'M') [x, y] = [num(), num()];
    else if (command === 'H' || command === 'L') {
      const [x1, y1] = command === 'H' ? [num(), y] : [num(), num()];
      for (let t = 0; t <= 1; t += 0.02) points.push([x + (x1 - x) * t, y + (y1 - y) * t]);
      [x, y] = [x1, y1];
    } else if (command === 'C') {
      const [ax, ay, bx, by, cx, cy] = [num(), num(), num(), num(), num(), num()];
      for (let t = 0; t <= 1; t += 0.02) {
        const u = 1 - t;
        points.push([u ** 3 * x + 3 * u * u * t * ax + 3 * u * t * t * bx + t ** 3 * cx, u ** 3 * y + 3 * u * u * t * ay + 3 * u * t * t * by + t ** 3 * cy]);
      }
      [x, y] = [cx, cy];
    } else throw new Error(`unexpected path command ${command}`);
  }
  return points;
}

const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

let keyGraph: Graph;
beforeAll(async () => {
  keyGraph = (await resolve(KEY_DID, testRuntime())).graph;
});

describe('graphSvg', () => {
  it('has the root, title and a one-sentence description of the did:key graph', () => {
    const svg = graphSvg(keyGraph, KEY_DID).toString();
    // Drawn at its natural size (the page's stylesheet lets it shrink, or scroll on a phone).
    expect(svg).toMatch(
      /^<svg class="evidence-graph" role="group" aria-labelledby="graph-title graph-desc" viewBox="0 0 (\d+(?:\.\d)?) (\d+(?:\.\d)?)" width="\1" height="\2"/,
    );
    expect(svg).toContain(`<title id="graph-title">Evidence graph of ${KEY_DID}</title>`);
    const counts = (s: EdgeState): number => keyGraph.edges.filter((e) => e.state === s).length;
    const summary = `${keyGraph.nodes.length} nodes, ${keyGraph.edges.length} edges: ${counts('VERIFIED')} verified, ${counts('OBSERVED')} observed, ${counts('DECLARED')} declared, ${counts('FAILED')} failed`;
    expect(graphSummary(keyGraph)).toBe(summary);
    expect(svg).toContain(`<desc id="graph-desc">${summary}</desc>`);
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  for (const [name, graph, did] of [
    ['did:key (resolved by the core)', () => keyGraph, KEY_DID],
    ['did:web-like (all kinds)', () => WEB_GRAPH, WEB_DID],
  ] as const) {
    describe(name, () => {
      it('has, for every edge, its element with the data attributes, and the relation and state in its label', () => {
        const g = graph();
        const svg = graphSvg(g, did).toString();
        const elements = edgeElements(svg);
        expect(elements).toHaveLength(g.edges.length);
        for (const edge of g.edges) {
          const el = elements.find((e) => e.from === edge.from && e.to === edge.to && e.relation === edge.relation && e.state === edge.state);
          expect(el, JSON.stringify(edge)).toBeDefined();
          expect(el!.cls).toBe(`edge-${edge.state.toLowerCase()}`);
          expect(el!.text).toContain(edge.relation);
          expect(el!.text).toContain(edge.state);
        }
        // One drawn line per (from, to, state), all edges accounted for.
        const drawn = lines(svg);
        const pairs = new Set(g.edges.map((e) => JSON.stringify([e.from, e.to, e.state])));
        expect(drawn.map((l) => JSON.stringify([l.from, l.to, l.state])).sort()).toEqual([...pairs].sort());
        for (const line of drawn) expect(line.attrs['marker-end']).toBe(`url(#eg-arrow-${line.state.toLowerCase()})`);
      });

      it('draws every node once, with id and kind, linked to its evidence, and no two boxes overlap', () => {
        const g = graph();
        const svg = graphSvg(g, did).toString();
        const nodes = nodeElements(svg);
        expect(nodes.map((n) => n.id)).toEqual(expect.arrayContaining(g.nodes.map((n) => n.id)));
        expect(nodes).toHaveLength(g.nodes.length);
        for (const node of g.nodes) {
          const el = nodes.find((n) => n.id === node.id)!;
          expect(el.kind).toBe(node.kind);
          expect(el.dataKind).toBe(node.kind);
          expect(el.href).toBe(defaultEvidenceHref(node));
        }
        const boxes = rects(svg);
        expect(boxes).toHaveLength(g.nodes.length);
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!), `${i} and ${j}`).toBe(false);
        // Inside the viewBox.
        const [, , width, height] = svg
          .match(/viewBox="([^"]*)"/)![1]!
          .split(' ')
          .map(Number);
        for (const b of boxes) {
          expect(b.x).toBeGreaterThanOrEqual(0);
          expect(b.y).toBeGreaterThanOrEqual(0);
          expect(b.x + b.w).toBeLessThanOrEqual(width!);
          expect(b.y + b.h).toBeLessThanOrEqual(height!);
        }
      });

      it('draws no line through a node box', () => {
        const svg = graphSvg(graph(), did).toString();
        const boxes = rects(svg);
        for (const line of lines(svg)) {
          for (const [px, py] of samplePath(line.attrs.d!)) {
            const inside = boxes.find((b) => px > b.x + 1 && px < b.x + b.w - 1 && py > b.y + 1 && py < b.y + b.h - 1);
            expect(inside, `${line.from} → ${line.to} at ${px},${py}`).toBeUndefined();
          }
        }
      });

      it('places labels apart and clear of every line (boxes estimated at 0.62 em a character)', () => {
        const svg = graphSvg(graph(), did).toString();
        const labels = [...svg.matchAll(/<text x="([\d.-]+)" y="([\d.-]+)" text-anchor="(start|end)" font-size="11"[^>]*>([^<]*)<\/text>/g)].map((m) => {
          const [x, y, w] = [Number(m[1]), Number(m[2]), unescapeXml(m[4]!).length * 11 * 0.62];
          return { text: unescapeXml(m[4]!), x: m[3] === 'end' ? x - w : x, y: y - 10, w, h: 13 };
        });
        expect(labels.length).toBeGreaterThan(0);
        for (let i = 0; i < labels.length; i++)
          for (let j = i + 1; j < labels.length; j++) expect(overlaps(labels[i]!, labels[j]!), `${labels[i]!.text} / ${labels[j]!.text}`).toBe(false);
        for (const line of lines(svg)) {
          for (const [px, py] of samplePath(line.attrs.d!)) {
            const hit = labels.find((b) => px > b.x + 1 && px < b.x + b.w - 1 && py > b.y + 1 && py < b.y + b.h - 1);
            expect(hit, `${line.from} → ${line.to} at ${px},${py}`).toBeUndefined();
          }
        }
      });

      it('has no style attribute, script, foreignObject, event handler or external reference', () => {
        const svg = graphSvg(graph(), did).toString();
        expect(svg).not.toMatch(/style=/i);
        expect(svg).not.toMatch(/<script/i);
        expect(svg).not.toMatch(/foreignObject/i);
        for (const tag of tags(svg)) for (const attr of tag.attrs) expect(attr).not.toMatch(/^on/i);
        expect(svg).not.toMatch(/(href|src)="(?!#)/);
        expect([...svg.matchAll(/url\(([^)]*)\)/g)].every((m) => m[1]!.startsWith('#'))).toBe(true);
      });

      it('is deterministic: the same graph gives the same bytes', () => {
        const g = graph();
        const a = graphSvg(g, did).toString();
        expect(graphSvg(structuredClone(g), did).toString()).toBe(a);
        expect(edgeTable(structuredClone(g), did).toString()).toBe(edgeTable(g, did).toString());
      });
    });
  }

  it('lays the did:web kinds out in columns: subject, then document/origin/linkage, then keys/services/TLS', () => {
    const svg = graphSvg(WEB_GRAPH, WEB_DID).toString();
    const boxes = rects(svg);
    const nodes = nodeElements(svg);
    const xOf = (kind: string): number[] => [...new Set(nodes.flatMap((n, i) => (n.kind === kind ? [boxes[i]!.x] : [])))];
    const [c0] = xOf('subject');
    const [c1] = xOf('document');
    const [c2] = xOf('key');
    expect(c0! < c1! && c1! < c2!).toBe(true);
    expect(xOf('origin')).toEqual([c1]);
    expect(xOf('linkage')).toEqual([c1]);
    expect(xOf('service')).toEqual([c2]);
    expect(xOf('tls')).toEqual([c2]);
    // The SVG grows with the node count.
    const height = (s: string): number => Number(s.match(/viewBox="0 0 [\d.]+ ([\d.]+)"/)![1]);
    expect(height(svg)).toBeGreaterThan(height(graphSvg({ nodes: WEB_GRAPH.nodes.slice(0, 3), edges: WEB_GRAPH.edges.slice(0, 5) }, WEB_DID).toString()));
  });

  it('draws every state in its own line style, in presentation attributes and classes; FAILED thick and red, with the word', () => {
    const svg = graphSvg(WEB_GRAPH, WEB_DID).toString();
    const drawn = lines(svg);
    const style = (state: string): string => {
      const line = drawn.find((l) => l.state === state)!;
      expect(line.attrs.class).toBe(`edge-line edge-line-${state.toLowerCase()}`);
      return ['stroke', 'stroke-width', 'stroke-dasharray'].map((a) => line.attrs[a]).join('|');
    };
    const styles = ['VERIFIED', 'OBSERVED', 'DECLARED', 'FAILED'].map(style);
    expect(new Set(styles).size).toBe(4);
    const failed = drawn.find((l) => l.state === 'FAILED')!.attrs;
    const verified = drawn.find((l) => l.state === 'VERIFIED')!.attrs;
    expect(failed['stroke-dasharray']).toBe('none');
    expect(verified['stroke-dasharray']).toBe('none');
    expect(Number(failed['stroke-width'])).toBeGreaterThan(Number(verified['stroke-width']));
    expect(failed.stroke).toBe('#cf222e');
    expect(drawn.find((l) => l.state === 'OBSERVED')!.attrs['stroke-dasharray']).not.toBe('none');
    expect(drawn.find((l) => l.state === 'DECLARED')!.attrs['stroke-dasharray']).not.toBe('none');
    const failedLabel = edgeElements(svg).find((e) => e.state === 'FAILED' && e.relation === 'linksDomain')!;
    expect(failedLabel.text).toContain('FAILED');
    expect(failedLabel.from).toBe('linkage:0');
    expect(failedLabel.to).toBe(WEB_DID);
  });

  it('merges the relationships of one key into one line and keeps a labelled element per relationship', () => {
    const svg = graphSvg(WEB_GRAPH, WEB_DID).toString();
    const toKey = lines(svg).filter((l) => l.from === WEB_DID && l.to === `${WEB_DID}#key-1`);
    expect(toKey).toHaveLength(1);
    expect(toKey[0]!.attrs['data-relations']).toBe('authentication assertionMethod capabilityInvocation');
    const labels = edgeElements(svg).filter((e) => e.from === WEB_DID && e.to === `${WEB_DID}#key-1`);
    expect(labels.map((l) => l.relation)).toEqual(['authentication', 'assertionMethod', 'capabilityInvocation']);
    expect(labels.map((l) => l.text.replace(/\s+/g, ' '))).toEqual([
      'authentication · DECLARED',
      'assertionMethod · DECLARED',
      'capabilityInvocation · DECLARED',
    ]);
  });

  it('has a legend naming the four line styles', () => {
    const svg = graphSvg(keyGraph, KEY_DID).toString();
    const legend = svg.match(/<g class="legend">(.*?)<\/g><\/svg>$/)![1]!;
    for (const state of ['VERIFIED', 'OBSERVED', 'DECLARED', 'FAILED']) {
      expect(legend).toContain(`class="legend-item legend-${state.toLowerCase()}"`);
      expect(legend).toContain(`>${state}</tspan>`);
    }
    for (const word of ['solid', 'dashed', 'dotted', 'thick red']) expect(legend).toContain(word);
    expect(legend).toContain('stroke-dasharray="7 4"');
  });

  it('names nodes as the terminal does, in two lines before cutting with "…"; the whole name and id on hover (title) and focus (aria-label)', () => {
    const svg = graphSvg(keyGraph, KEY_DID).toString();
    const key = keyGraph.nodes.find((n) => n.kind === 'key')!;
    expect(nodeName(key, key.id, KEY_DID)).toMatch(/^#z6Mk.{4}….{4}$/);
    expect(nodeName(key, key.id, KEY_DID, { whole: true })).toBe(key.id.slice(KEY_DID.length));
    expect(svg).toContain(`>${escapeHtml(nodeName(key, key.id, KEY_DID))}</text>`);
    expect(svg).toContain('>this DID</text>');
    const web = graphSvg(WEB_GRAPH, WEB_DID).toString();
    const group = (id: string) =>
      web.match(
        new RegExp(`<a class="node-link" href="[^"]*"><title>([^<]*)</title><g class="node [^"]*" data-node-id="${id}" data-kind="[a-z]+">(.*?)</g></a>`),
      )!;
    const long = `${WEB_DID}#a-very-long-service-fragment-name-that-goes-on-and-on`;
    const [, title, body] = group(long);
    expect(title!.split('\n')).toEqual(['#a-very-long-service-fragment-name-that-goes-on-and-on', `service: ${long}`, 'DIDCommMessaging, SomethingElse']);
    expect(body).toMatch(/class="node-name"[^>]*>#a-very-l…[^<]*<\/text>/);
    expect(body).toMatch(/class="node-caption"[^>]*>service · DIDComm[^<]*…<\/text>/);
    // A name that fits in two lines is shown whole, broken after a separator.
    const id = `${WEB_DID}#signing-key-p256-2026`;
    const two = graphSvg(
      {
        nodes: [WEB_GRAPH.nodes[0]!, { id, kind: 'key', label: 'P-256 (VALID_KEY)' }],
        edges: [{ from: WEB_DID, to: id, relation: 'authentication', state: 'DECLARED' }],
      },
      WEB_DID,
    ).toString();
    const names = [...two.matchAll(/class="node-name"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
    expect(names).toEqual(['this DID', '#signing-key-p256-', '2026']);
  });

  it('uses the same node names as the terminal evidence graph (graphView)', () => {
    for (const [graph, did] of [
      [keyGraph, KEY_DID],
      [WEB_GRAPH, WEB_DID],
      [HOSTILE_GRAPH, HOSTILE_DID],
    ] as const) {
      const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
      const name = (id: string): string => nodeName(nodes.get(id), id, did);
      const view = graphView(graph, did);
      for (const edge of graph.edges) {
        const group = view.find((g) => g.source === name(edge.from));
        expect(group, edge.from).toBeDefined();
        expect(group!.edges.some((row) => row.target === name(edge.to) && row.state === edge.state)).toBe(true);
      }
    }
  });

  it('links nodes where evidenceHref says, leaves a node unlinked for null and refuses script URLs', () => {
    const svg = graphSvg(WEB_GRAPH, WEB_DID, {
      evidenceHref: (node: GraphNode) => (node.kind === 'key' ? `/evidence/${node.id}` : node.kind === 'tls' ? 'javascript:alert(1)' : null),
    }).toString();
    const nodes = nodeElements(svg);
    expect(nodes.find((n) => n.id === `${WEB_DID}#key-1`)!.href).toBe(`/evidence/${WEB_DID}#key-1`);
    expect(nodes.find((n) => n.kind === 'tls')!.href).toBeNull();
    expect(nodes.find((n) => n.kind === 'origin')!.href).toBeNull();
    expect(svg).not.toContain('javascript:');
    expect(defaultEvidenceHref(WEB_GRAPH.nodes[2]!)).toBe(`#${anchorId('key', `${WEB_DID}#key-1`)}`);
    expect(defaultEvidenceHref(WEB_GRAPH.nodes[8]!)).toBe(`#${anchorId('service', `${WEB_DID}#linked-domain`)}`);
    expect(WEB_GRAPH.nodes.map(defaultEvidenceHref).slice(0, 2)).toEqual(['#level-1', '#evidence-document']);
    expect(defaultEvidenceHref(WEB_GRAPH.nodes[4]!)).toBe('#evidence-source');
    expect(defaultEvidenceHref(WEB_GRAPH.nodes[5]!)).toBe('#evidence-tls');
    expect(defaultEvidenceHref(WEB_GRAPH.nodes[6]!)).toBe('#evidence-domain-binding');
  });

  it('shows hostile ids, labels and relations as text', () => {
    const svg = graphSvg(HOSTILE_GRAPH, HOSTILE_DID).toString();
    const table = edgeTable(HOSTILE_GRAPH, HOSTILE_DID).toString();
    for (const out of [svg, table]) {
      expect(out).toContain('&lt;script');
      expect(out).not.toMatch(/<script/i);
      expect(out).not.toMatch(/<img/i);
      expect(out).not.toMatch(/<svg onload/i);
      expect(out).not.toMatch(/<b>/);
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202a-\u202e\u2066-\u2069]/);
      expect(out).toContain('\\u202e');
      expect(out).toContain('\\x1b');
      // Every attribute is one the renderer writes; none is an event handler.
      for (const tag of tags(out)) for (const attr of tag.attrs) expect(attr).not.toMatch(/^(on|style$)/i);
      // Every "<" starts a tag of the renderer's own.
      const names = new Set(tags(out).map((t) => t.name));
      expect(
        [...names].every((n) =>
          [
            'svg',
            'title',
            'desc',
            'defs',
            'marker',
            'path',
            'g',
            'a',
            'rect',
            'text',
            'tspan',
            'line',
            'table',
            'caption',
            'thead',
            'tbody',
            'tr',
            'th',
            'td',
            'span',
            'code',
            'wbr',
          ].includes(n),
        ),
      ).toBe(true);
      expect((out.match(/</g) ?? []).length).toBe(tags(out).length + (out.match(/<\//g) ?? []).length);
    }
    expect(svg).toContain('x&quot; style=&quot;fill:red'); // the hostile key label, as text
    // The DOM would still read the data attributes back as the (printable) originals.
    const elements = edgeElements(svg);
    expect(elements).toHaveLength(HOSTILE_GRAPH.edges.length);
    for (const edge of HOSTILE_GRAPH.edges) {
      expect(
        elements.some(
          (e) =>
            e.from === unescapeXml(escapeHtml(edge.from)) && e.to === unescapeXml(escapeHtml(edge.to)) && e.relation === unescapeXml(escapeHtml(edge.relation)),
        ),
      ).toBe(true);
    }
    expect(nodeElements(svg).map((n) => n.id)).toContain(IMG_ID);
  });

  it('draws an empty graph and says so', () => {
    const svg = graphSvg({ nodes: [], edges: [] }, KEY_DID).toString();
    expect(svg).toContain('<desc id="graph-desc">0 nodes, 0 edges: 0 verified, 0 observed, 0 declared, 0 failed</desc>');
    expect(edgeTable({ nodes: [], edges: [] }, KEY_DID).toString()).toContain('<tbody></tbody>');
  });

  it('draws an edge whose node is missing from graph.nodes instead of failing', () => {
    const graph: Graph = {
      nodes: [{ id: KEY_DID, kind: 'subject', label: KEY_DID }],
      edges: [{ from: KEY_DID, to: 'elsewhere', relation: 'mentions', state: 'OBSERVED' }],
    };
    const svg = graphSvg(graph, KEY_DID).toString();
    expect(edgeElements(svg)).toHaveLength(1);
    expect(nodeElements(svg).map((n) => [n.id, n.kind, n.href])).toEqual([
      [KEY_DID, 'subject', '#level-1'],
      ['elsewhere', 'unknown', null],
    ]);
  });
});

describe('edgeTable', () => {
  it('has the caption, the header and one row per edge in the graph order', () => {
    for (const [graph, did] of [
      [keyGraph, KEY_DID],
      [WEB_GRAPH, WEB_DID],
    ] as const) {
      const table = edgeTable(graph, did).toString();
      expect(table).toMatch(/^<table id="edge-table" class="edge-table"><caption>Edges of the evidence graph<\/caption>/);
      expect(table).toContain(
        '<thead><tr><th scope="col">From</th><th scope="col">Relation</th><th scope="col">To</th><th scope="col">State</th></tr></thead>',
      );
      const rows = tableRows(table);
      expect(rows.map(({ from, to, relation, state }) => ({ from, to, relation, state }))).toEqual(graph.edges);
      const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
      rows.forEach((row, i) => {
        const edge = graph.edges[i]!;
        expect(row.cells).toHaveLength(4);
        // Named whole (never cut), breakable after separators only.
        expect(row.cells[0]).toContain(`<span class="node-name">${breakable(nodeName(nodes.get(edge.from), edge.from, did, { whole: true }))}</span>`);
        expect(row.cells[2]).toContain(`<span class="node-name">${breakable(nodeName(nodes.get(edge.to), edge.to, did, { whole: true }))}</span>`);
        for (const [i, id] of [
          [0, edge.from],
          [2, edge.to],
        ] as const) {
          if (['key', 'service'].includes(nodes.get(id)?.kind ?? '')) expect(row.cells[i]).not.toContain('…');
        }
        expect(row.cells[1]).toBe(`<td class="relation">${escapeHtml(edge.relation)}</td>`);
        expect(row.cells[3]).toBe(`<td class="state state-${edge.state.toLowerCase()}">${edge.state}</td>`);
      });
    }
  });

  it('gives the full id where the name is shorter', () => {
    const table = edgeTable(keyGraph, KEY_DID).toString();
    const key = keyGraph.nodes.find((n) => n.kind === 'key')!;
    expect(table).toContain(`<code class="node-id">${breakable(key.id)}</code>`);
    expect(breakable(key.id).toString()).toBe(key.id.replace(/(?<=.[:#])/g, '<wbr>'));
    expect(table).toContain(`<span class="node-name">this DID</span> <code class="node-id">${breakable(KEY_DID)}</code>`);
    // An origin is named by its id: no second copy.
    expect(edgeTable(WEB_GRAPH, WEB_DID).toString()).toContain(
      `<td data-node-id="${ORIGIN}"><span class="node-name">https:<wbr>/<wbr>/<wbr>example.<wbr>com</span></td>`,
    );
  });
});
