/**
 * The dossier in the terminal: what `svc resolve` prints for a person. The view model
 * (src/present/dossier.ts, shared with the web dossier) decides grouping, markers and colours; one
 * layout here (`layoutDossier`, wrapping with the shared helpers of cmdutil/layout.ts) decides the lines
 * for a width. The plain-text renderer here prints those lines and the ink renderer
 * (render-ink.tsx) draws them, only the verdict in a box of its own, so the two cannot
 * drift apart.
 *
 * Pure: no ink, no react, no chalk. Colour comes in through a `Style`.
 */
import type { EnrichedResolution } from '../../../core/resolve/types.js';
import { buildDossierView, type DimensionGroup, type DossierView, type EvidenceSection } from '../../../present/dossier.js';
import type { GraphEdgeRow } from '../../../present/graph.js';
import type { Note, RewriteView, TimelineRow } from '../../../present/history.js';
import type { Field } from '../../../present/text.js';
import { DEFAULT_WIDTH, columns, fieldLines, hang, paintLines, phrase, words, type Line, type Span, type Style, type Word } from '../../cmdutil/layout.js';

export interface DossierOptions {
  /** Show every stage of the resolution with its duration (--verbose). */
  verbose?: boolean;
}

/**
 * The dossier laid out for a width: the header, the verdict (the ink renderer draws it in a box,
 * the text one as `Verdict  OUTCOME`) and the sections, each a block of lines. Both renderers
 * print these same lines.
 */
export interface DossierLayout {
  header: Line[];
  verdict: DossierView['verdict'];
  sections: Line[][];
}

const bold = (text: string): Span => ({ text, bold: true });

/** The DID, then e.g. `did:key  observed 2026-01-01T00:00:00Z  (cached)` and the served version. */
function headerLines(view: DossierView, width: number): Line[] {
  const meta: Word[] = [
    phrase(`did:${view.method}`, 'muted'),
    phrase('observed', 'muted', '  '),
    phrase(view.observedAt, 'muted'),
    ...(view.cached ? [phrase('(cached)', 'muted', '  ')] : []),
  ];
  return [
    [bold(view.did)],
    ...hang('', meta, width, { indent: 2 }),
    ...(view.version !== null ? hang('', words(view.version, 'muted'), width, { indent: 2 }) : []),
  ];
}

/** The verdict as text; `headline` wraps under itself. */
export function verdictLines(view: DossierView, width: number): Line[] {
  const { outcome, tone, headline } = view.verdict;
  return [[bold('Verdict'), { text: '  ' }, { text: outcome, tone, bold: true }], ...hang('  ', headline, width)];
}

function groupLines(group: DimensionGroup, width: number): Line[] {
  return [
    [bold(group.title)],
    ...group.rows.flatMap((row) => [
      [{ text: '  ' }, { text: row.marker, tone: row.tone }, { text: ' ' }, bold(row.label), { text: '  ' }, { text: row.state, tone: row.tone }],
      ...hang('      ', row.statement, width),
    ]),
  ];
}

/** A key or a service: its id, then its fields. */
function itemLines(displayId: string, fields: Field[], width: number): Line[] {
  return [[{ text: '  ' }, bold(displayId)], ...fieldLines(fields, '      ', width)];
}

function evidenceLines(section: EvidenceSection, width: number): Line[] {
  return [[bold(section.title)], ...fieldLines(section.fields, '  ', width)];
}

/** Notes as words, each in its note's colour, notes two spaces apart; a `nowrap` note stays whole. */
function noteWords(notes: Note[]): Word[] {
  return notes.flatMap((note, n) => {
    const gap = n > 0 ? '  ' : ' ';
    if (note.nowrap) return [phrase(note.text, note.tone, gap)];
    return words(note.text, note.tone).map((word, w) => (w === 0 ? { ...word, gap } : word));
  });
}

function timelineLines(row: TimelineRow, width: number): Line[] {
  if (row.kind === 'gap') return [[{ text: '  ' }, { text: row.text, tone: 'muted' }]];
  const prefix: Line = [{ text: '  ' }, { text: row.marker, tone: row.markerTone }, { text: ' ' }, { text: row.when, tone: row.whenTone }, { text: '  ' }];
  return hang(prefix, noteWords(row.notes), width);
}

function historySection(view: DossierView, width: number): Line[] {
  const history = view.history;
  if (history === null) return [];
  const line = (note: Note): Line[] => hang('  ', words(note.text, note.tone), width);
  return [
    [bold(history.title)],
    ...fieldLines(history.summary, '  ', width),
    ...history.timeline.flatMap((row) => timelineLines(row, width)),
    ...(history.failure ? line(history.failure) : []),
    ...(history.witness.length > 0 ? fieldLines(history.witness, '  ', width) : []),
    ...(history.reused ? line(history.reused) : []),
    ...(history.kept ? line(history.kept) : []),
    ...(history.rewrite ? rewriteLines(history.rewrite, width) : []),
  ];
}

/** The kept entry and the served one side by side; one above the other when the width is too small for both. */
function rewriteLines(rewrite: RewriteView, width: number): Line[] {
  const labelWidth = Math.max(...rewrite.rows.map((r) => r.label.length));
  const keptWidth = Math.max(rewrite.columns[0].length, ...rewrite.rows.map((r) => [...r.kept].length));
  const servedWidth = Math.max(rewrite.columns[1].length, ...rewrite.rows.map((r) => [...r.served].length));
  const head = hang('  ', words(rewrite.headline.text, rewrite.headline.tone), width);
  if (2 + labelWidth + 2 + keptWidth + 2 + servedWidth <= width) {
    const pad = (text: string, n: number) => text + ' '.repeat(Math.max(0, n - [...text].length));
    return [
      ...head,
      [
        { text: `  ${' '.repeat(labelWidth)}  ` },
        { text: pad(rewrite.columns[0], keptWidth), tone: 'muted' },
        { text: '  ' },
        { text: rewrite.columns[1], tone: 'muted' },
      ],
      ...rewrite.rows.map(
        (r): Line => [
          { text: `  ${pad(r.label, labelWidth)}  ` },
          { text: pad(r.kept, keptWidth), tone: 'good' },
          { text: '  ' },
          { text: r.served, tone: 'bad' },
        ],
      ),
    ];
  }
  // Stacked: one line per side, the value below its label when both do not fit (an entry hash).
  const side = (label: string, value: string, tone: 'good' | 'bad'): Line[] =>
    2 + label.length + 1 + [...value].length <= width
      ? [[{ text: `  ${label} ` }, { text: value, tone }]]
      : [[{ text: `  ${label}` }], [{ text: '    ' }, { text: value, tone }]];
  return [
    ...head,
    ...rewrite.rows.flatMap((r): Line[] => [
      ...side(`${r.label} (${rewrite.columns[0]})`, r.kept, 'good'),
      ...side(`${r.label} (${rewrite.columns[1]})`, r.served, 'bad'),
    ]),
  ];
}

function keysSection(view: DossierView, width: number): Line[] {
  if (view.keys.length === 0) return [[bold('Keys')], [{ text: '  The document publishes no keys.', tone: 'muted' }]];
  return [[bold('Keys')], ...view.keys.flatMap((k) => itemLines(k.displayId, k.fields, width))];
}

/** Nothing for a document without services (every did:key): there is nothing to say. */
function servicesSection(view: DossierView, width: number): Line[] {
  if (view.services.length === 0) return [];
  return [[bold('Services')], ...view.services.flatMap((s) => itemLines(s.displayId, s.fields, width))];
}

/** `—authentication, assertionMethod→ #z6MkhaXg…2doK  DECLARED`, continuation lines further in. */
function edgeWords(edge: GraphEdgeRow): Word[] {
  return [...words(`—${edge.relations.join(', ')}→`), ...words(edge.target), phrase(edge.state, edge.tone, '  ')];
}

function graphSection(view: DossierView, width: number): Line[] {
  if (view.graph.length === 0) return [];
  return [
    [bold('Evidence graph')],
    ...view.graph.flatMap((group) => [
      ...hang('  ', words(group.source, 'plain', true), width),
      ...group.edges.flatMap((edge) => hang('    ', edgeWords(edge), width, { indent: 6 })),
    ]),
  ];
}

function warningsSection(view: DossierView, width: number): Line[] {
  if (view.warnings.length === 0) return [];
  const marker: Line = [{ text: '  ' }, { text: '!', tone: 'warn' }, { text: ' ' }];
  return [[bold('Document warnings')], ...view.warnings.flatMap((w) => hang(marker, words(w, 'warn'), width))];
}

/** Each stage: mark, name and duration in columns, then what it did. */
function traceSection(view: DossierView, width: number): Line[] {
  if (view.trace.length === 0) return [];
  const stageWidth = Math.max(...view.trace.map((row) => columns(row.stage)));
  const durationWidth = Math.max(...view.trace.map((row) => columns(row.duration)));
  return [
    [bold('Trace')],
    ...view.trace.flatMap((row) =>
      hang(
        [
          { text: '  ' },
          { text: row.marker, tone: row.tone },
          { text: ` ${row.stage.padEnd(stageWidth)}  ` },
          { text: row.duration.padStart(durationWidth), tone: 'muted' },
          { text: '  ' },
        ],
        row.text,
        width,
      ),
    ),
  ];
}

function limitationsSection(view: DossierView, width: number): Line[] {
  if (view.limitations.length === 0) return [];
  const marker: Line = [{ text: '  ' }, { text: '•', tone: 'muted' }, { text: ' ' }];
  return [[bold('Limitations')], ...view.limitations.flatMap((l) => hang(marker, words(l, 'muted'), width))];
}

export function layoutDossier(view: DossierView, width: number, options: DossierOptions = {}): DossierLayout {
  const sections = [
    ...view.groups.map((g) => groupLines(g, width)),
    keysSection(view, width),
    servicesSection(view, width),
    ...view.evidence.map((section) => evidenceLines(section, width)),
    historySection(view, width),
    graphSection(view, width),
    warningsSection(view, width),
    options.verbose ? traceSection(view, width) : [],
    limitationsSection(view, width),
  ];
  return { header: headerLines(view, width), verdict: view.verdict, sections: sections.filter((s) => s.length > 0) };
}

/** The dossier as text for pipes and dumb terminals, laid out for `width` columns. */
export function dossierText(result: EnrichedResolution, style: Style, width: number = DEFAULT_WIDTH, options: DossierOptions = {}): string {
  const view = buildDossierView(result);
  const layout = layoutDossier(view, width, options);
  const blocks = [layout.header, verdictLines(view, width), ...layout.sections];
  return `${blocks.map((lines) => paintLines(lines, style)).join('\n')}`;
}
