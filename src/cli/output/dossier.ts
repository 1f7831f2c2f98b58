/**
 * The dossier: what `svc resolve` prints for a person. One view model (`buildDossierView`)
 * decides grouping, markers and colours, and one layout (`layoutDossier`, wrapping with the
 * shared helpers of layout.ts) decides the lines for a width. The plain-text renderer here prints
 * those lines and the ink renderer (src/cli/ui/dossier.tsx) draws them, only the verdict in a
 * box of its own, so the two cannot drift apart.
 *
 * Pure: no ink, no react, no chalk. Colour comes in through a `Style`.
 */
import type { KeyStatus } from '../../core/keys/types.js';
import type { DomainBindingStatus } from '../../core/linkage/types.js';
import {
  CLASS_LABELS,
  STATE_CLASSES,
  stateClass,
  type Dimension,
  type DimensionId,
  type DimensionState,
  type EdgeState,
  type EnrichedResolution,
  type Graph,
  type GraphNode,
  type KeyEvidence,
  type Outcome,
  type ServiceEvidence,
  type StageStatus,
  type StateClass,
  type TraceStage,
} from '../../core/resolve/types.js';
import type { HistoryEvidence, WebvhEntryEvidence, WebvhWitnessFileEvidence } from '../../core/webvh/types.js';
import {
  DEFAULT_WIDTH,
  columns,
  fieldLines,
  hang,
  paintLines,
  phrase,
  printable,
  words,
  type Field,
  type Line,
  type Span,
  type Style,
  type Tone,
  type Word,
} from './layout.js';

export { TONE_COLORS, paint, plainStyle, printable, wrapWords, type Field, type Style, type Tone, type ToneColor } from './layout.js';

const OUTCOME_TONES: Readonly<Record<Outcome, Tone>> = {
  RESOLVED: 'good',
  RESOLVED_WITH_WARNINGS: 'warn',
  DEACTIVATED: 'bad',
};

const KEY_STATUS_TONES: Readonly<Record<KeyStatus, Tone>> = {
  VALID_KEY: 'good',
  INVALID_KEY: 'bad',
  UNSUPPORTED_KEY: 'warn',
};

const CLASS_MARKERS: Readonly<Record<StateClass, string>> = {
  confirmed: '✔',
  attention: '!',
  notConfirmed: '·',
};

export function outcomeTone(outcome: Outcome): Tone {
  return OUTCOME_TONES[outcome];
}

export function keyStatusTone(status: KeyStatus): Tone {
  return KEY_STATUS_TONES[status];
}

/** A failure is worse than not knowing, so within "Needs attention" only FAILED is red. */
export function dimensionTone(state: DimensionState): Tone {
  const cls = stateClass(state);
  if (cls === 'confirmed') return 'good';
  if (cls === 'notConfirmed') return 'muted';
  return state === 'FAILED' ? 'bad' : 'warn';
}

export function classMarker(cls: StateClass): string {
  return CLASS_MARKERS[cls];
}

export interface DimensionRow {
  id: DimensionId;
  label: string;
  state: DimensionState;
  statement: string;
  marker: string;
  tone: Tone;
}

export interface DimensionGroup {
  cls: StateClass;
  title: string;
  rows: DimensionRow[];
}

export interface KeyRow {
  /** The id as shown: the fragment when the id belongs to the DID, otherwise the whole id. */
  displayId: string;
  id: string;
  status: KeyStatus;
  fields: Field[];
}

/** Evidence beyond keys, as labelled fields: where the document came from, TLS, domain binding. */
export interface EvidenceSection {
  title: string;
  fields: Field[];
}

/** A piece of text with its meaning (notes of a timeline entry, single lines). */
export interface Note {
  text: string;
  tone: Tone;
  /** Kept on one line (short notes such as `◀ served`, `2/3 witnesses`). */
  nowrap?: boolean;
}

/** One did:webvh log entry on the timeline. */
export interface TimelineEntry {
  kind: 'entry';
  versionNumber: number;
  /** ✓ verified, ✗ failed, · unverified. */
  marker: string;
  markerTone: Tone;
  /** Version number and time, padded to the columns of the shown entries: `  2  2025-01-02T00:00:00Z`. */
  when: string;
  whenTone: Tone;
  /** What changed, who signed, witnesses, deactivation, a move, `◀ served`; shown two spaces apart. */
  notes: Note[];
  served: boolean;
}

/** Entries left out of a long log: `… 31 more …`. */
export interface TimelineGap {
  kind: 'gap';
  count: number;
  text: string;
}

export type TimelineRow = TimelineEntry | TimelineGap;

/** The did:webvh history: summary, timeline, then where verification stopped and the witness file. */
export interface HistoryView {
  title: string;
  /** SCID and the log's size. */
  summary: Field[];
  timeline: TimelineRow[];
  /** `Entry 3 failed (proof): …`, or null when the log verified to its end. */
  failure: Note | null;
  /** The witness file and its proofs. */
  witness: Field[];
  /** `12 entries verified earlier, reused`, or null. */
  reused: Note | null;
}

export interface DossierView {
  did: string;
  method: string;
  observedAt: string;
  cached: boolean;
  /** The served version from didDocumentMetadata (`version 2-Qm… (2025-01-02T00:00:00Z)`), or null. */
  version: string | null;
  verdict: { outcome: Outcome; tone: Tone; headline: string };
  /** Non-empty groups only, in the order of STATE_CLASSES. */
  groups: DimensionGroup[];
  keys: KeyRow[];
  /** Source, transport and origin-binding evidence (fetched documents only). */
  evidence: EvidenceSection[];
  /** The did:webvh log as a timeline; null for other methods. */
  history: HistoryView | null;
  services: ServiceRow[];
  graph: GraphGroup[];
  /** Every stage of the resolution; shown with --verbose only. */
  trace: TraceRow[];
  warnings: string[];
  limitations: string[];
}

/** A service of the document: its id as shown, type and endpoint. */
export interface ServiceRow {
  displayId: string;
  id: string;
  fields: Field[];
}

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

/** One stage of the trace: mark, name, duration and what it found. */
export interface TraceRow {
  marker: string;
  tone: Tone;
  stage: string;
  duration: string;
  text: string;
}

/** The fragment (`#…`) is enough when the id is the DID's own; anything else stays whole. */
export function displayKeyId(id: string, did: string): string {
  return id.startsWith(`${did}#`) ? id.slice(did.length) : id;
}

function dimensionRow(d: Dimension): DimensionRow {
  return {
    id: d.id,
    label: d.label,
    state: d.state,
    statement: printable(d.statement),
    marker: classMarker(stateClass(d.state)),
    tone: dimensionTone(d.state),
  };
}

/** Groups in STATE_CLASSES order, keeping the dimensions' own order inside each group. */
export function groupDimensions(dimensions: Dimension[]): DimensionGroup[] {
  const classes = Object.keys(STATE_CLASSES) as StateClass[];
  return classes
    .map((cls) => ({
      cls,
      title: CLASS_LABELS[cls],
      rows: dimensions.filter((d) => stateClass(d.state) === cls).map(dimensionRow),
    }))
    .filter((g) => g.rows.length > 0);
}

const NONE = '(none)';

export function keyRow(key: KeyEvidence, did: string): KeyRow {
  const fields: Field[] = [
    { label: 'curve', value: printable(key.curve ?? 'unknown'), tone: 'plain' },
    { label: 'status', value: key.status, tone: keyStatusTone(key.status) },
    { label: 'relationships', value: key.relationships.length > 0 ? key.relationships.join(', ') : NONE, tone: 'plain' },
    { label: 'jwk thumbprint', value: printable(key.jwkThumbprint ?? NONE), tone: 'plain' },
  ];
  if (key.detail !== null) fields.push({ label: 'detail', value: printable(key.detail), tone: 'plain' });
  return { displayId: printable(displayKeyId(key.id, did)), id: key.id, status: key.status, fields };
}

const BINDING_TONES: Readonly<Record<DomainBindingStatus, Tone>> = {
  VERIFIED: 'good',
  NOT_CONFIGURED: 'muted',
  NOT_LINKED: 'muted',
  INVALID_PROOF: 'bad',
  MALFORMED: 'bad',
  UNSUPPORTED_PROOF: 'warn',
  UNREACHABLE: 'warn',
};

const field = (label: string, value: string, tone: Tone = 'plain'): Field => ({ label, value: printable(value), tone });

export function evidenceSections(result: EnrichedResolution): EvidenceSection[] {
  const { source, tls, domainBinding } = result.evidence;
  const sections: EvidenceSection[] = [];
  if (source.kind === 'HTTPS') {
    const fields = [field('url', source.url ?? NONE)];
    for (const hop of source.redirects) fields.push(field('redirect', `${hop.status} ${hop.from} → ${hop.to}`, 'warn'));
    if (source.httpStatus === null) {
      // Verify from files: the bytes stood in for the URL; no exchange took place (see Limitations).
      fields.push(
        field('response', `none: supplied from a file, not fetched; ${source.bytes ?? '?'} bytes, ${source.contentType ?? 'no content type'}`, 'warn'),
        field('sha256', source.sha256 ?? NONE),
      );
    } else {
      fields.push(
        field('response', `HTTP ${source.httpStatus}, ${source.bytes ?? '?'} bytes, ${source.contentType ?? 'no content type'}`),
        field('pinned address', source.peerAddress ?? NONE),
        field('sha256', source.sha256 ?? NONE),
        field('latency', `${source.latencyMs ?? '?'} ms`),
      );
    }
    sections.push({ title: 'Source', fields });
  }
  if (tls) {
    const { certificate } = tls;
    const days = tls.daysUntilExpiry;
    sections.push({
      title: 'Transport',
      fields: [
        field('protocol', `${tls.protocol}, ${tls.cipher}`),
        field('certificate', certificate.subject || '(empty subject)'),
        field('names', certificate.subjectAltNames.join(', ') || NONE, tls.hostnameInSan ? 'plain' : 'bad'),
        field('host in SAN', tls.hostnameInSan ? `yes (${tls.host})` : `no (${tls.host})`, tls.hostnameInSan ? 'good' : 'bad'),
        field('issuer', certificate.issuer),
        field('trust anchor', tls.validatedBy),
        field('valid', `${certificate.validFrom} to ${certificate.validTo} (${days} day${days === 1 ? '' : 's'} left)`, days < 0 ? 'bad' : days < 14 ? 'warn' : 'plain'),
        field('fingerprint', certificate.sha256Fingerprint),
      ],
    });
  }
  if (domainBinding) {
    const fields = [
      field('status', domainBinding.status, BINDING_TONES[domainBinding.status]),
      field('configuration', domainBinding.configurationUrl),
      field('reason', domainBinding.reason),
    ];
    for (const credential of domainBinding.credentials) {
      const proof = credential.proof ? ` ${credential.proof}` : '';
      fields.push(field(`#${credential.index} ${credential.format}${proof}`, `${credential.status}: ${credential.reason}`, BINDING_TONES[credential.status]));
    }
    sections.push({ title: 'Origin binding', fields });
  }
  return sections;
}

/* ------------------------------------------------------------------ did:webvh history */

/** Logs up to this many entries are shown whole. */
const FULL_TIMELINE = 12;
/** Of a longer log: the first entry, the last TIMELINE_TAIL, the served and the failed one. */
const TIMELINE_TAIL = 8;

const ENTRY_MARKERS: Readonly<Record<WebvhEntryEvidence['status'], { marker: string; tone: Tone }>> = {
  VERIFIED: { marker: '✓', tone: 'good' },
  FAILED: { marker: '✗', tone: 'bad' },
  UNVERIFIED: { marker: '·', tone: 'muted' },
};

export const SERVED_MARK = '◀ served';

/**
 * A multikey (or a did:key verification method) cut to its ends, e.g. `z6MkhaXg…2doK`: enough to
 * tell keys apart in a timeline line; the whole keys are in --json.
 */
export function shortKey(key: string): string {
  const hash = key.indexOf('#');
  const id = printable(key.startsWith('did:key:') && hash > 0 ? key.slice(hash + 1) : key);
  const chars = [...id];
  return chars.length > 16 ? `${chars.slice(0, 8).join('')}…${chars.slice(-4).join('')}` : id;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * Indexes of the entries to show: all of a short log; of a long one the first, the last
 * TIMELINE_TAIL, the served and the failed entry. A gap of a single entry is shown instead of
 * being summarised.
 */
export function timelineIndexes(count: number, keep: ReadonlyArray<number>): number[] {
  if (count <= FULL_TIMELINE) return Array.from({ length: count }, (_, i) => i);
  const shown = new Set<number>([0, ...keep.filter((i) => i >= 0 && i < count)]);
  for (let i = Math.max(0, count - TIMELINE_TAIL); i < count; i++) shown.add(i);
  const sorted = [...shown].sort((a, b) => a - b);
  for (let k = 1; k < sorted.length; k++) if (sorted[k]! - sorted[k - 1]! === 2) shown.add(sorted[k]! - 1);
  return [...shown].sort((a, b) => a - b);
}

/** Notes up to this long stay on one line; longer ones wrap between words. */
const NOWRAP_NOTE = 40;

function note(text: string, tone: Tone): Note {
  return [...text].length <= NOWRAP_NOTE ? { text, tone, nowrap: true } : { text, tone };
}

/** Where a portable DID moved: its location after the SCID when the SCID is the log's, else the whole id. */
function movedTo(documentId: string, scid: string): string {
  const prefix = `did:webvh:${scid}:`;
  return printable(documentId.startsWith(prefix) ? documentId.slice(prefix.length) : documentId);
}

function entryNotes(entry: WebvhEntryEvidence, index: number, previous: WebvhEntryEvidence | undefined, served: boolean, scid: string): Note[] {
  const unverified = entry.status === 'UNVERIFIED';
  const tone = (t: Tone): Tone => (unverified ? 'muted' : t);
  const notes: Note[] = [];
  if (entry.versionId === null) notes.push(note('unreadable entry', tone('bad')));
  // After a failure nothing in an entry is trusted, so nothing of it is described.
  else if (unverified) notes.push(note('not verified', tone('muted')));
  else if (index === 0) notes.push(note('created', tone('plain')));
  else {
    // A deactivation is marked on its own (in red), not listed among the parameters.
    const changes = entry.deactivated ? entry.changes.filter((c) => c !== 'deactivated') : entry.changes;
    if (changes.length > 0) notes.push(note(printable(changes.join(', ')), tone('plain')));
    // No parameter set: the entry publishes a new version of the document only.
    else if (!entry.deactivated) notes.push(note('document update', tone('plain')));
  }
  if (entry.signedBy !== null) notes.push(note(`by ${shortKey(entry.signedBy)}`, tone('plain')));
  if (entry.witness !== null) {
    const { approvals, threshold } = entry.witness;
    notes.push(note(`${approvals}/${threshold} witnesses`, tone(approvals >= threshold ? 'good' : 'bad')));
  }
  if (entry.deactivated) notes.push(note('deactivated', tone('bad')));
  if (entry.documentId !== null && previous?.documentId != null && entry.documentId !== previous.documentId) {
    notes.push(note(`moved to ${movedTo(entry.documentId, scid)}`, tone('warn')));
  }
  if (entry.status === 'FAILED') notes.push(note(`failed (${entry.check ?? 'unknown check'})`, 'bad'));
  if (served) notes.push(note(SERVED_MARK, 'accent'));
  return notes;
}

function witnessFields(witness: WebvhWitnessFileEvidence): Field[] {
  const url = printable(witness.url);
  const fields: Field[] = [];
  switch (witness.status) {
    case 'NOT_REQUIRED':
      fields.push({ label: 'witness file', value: 'NOT_REQUIRED (no verified entry needs witnessing)', tone: 'muted' });
      break;
    case 'FOUND':
      fields.push({ label: 'witness file', value: `FOUND ${url}`, tone: 'good' });
      break;
    case 'NOT_PUBLISHED':
      fields.push({ label: 'witness file', value: `NOT_PUBLISHED ${url}${witness.httpStatus !== null ? ` (HTTP ${witness.httpStatus})` : ''}`, tone: 'warn' });
      break;
    case 'INVALID':
      fields.push({ label: 'witness file', value: `INVALID ${url}: ${printable(witness.reason ?? 'unreadable')}`, tone: 'bad' });
      break;
  }
  const discarded = witness.discarded.length;
  if (witness.status !== 'NOT_REQUIRED' && (witness.acceptedProofs > 0 || discarded > 0 || witness.status === 'FOUND')) {
    fields.push({
      label: 'witness proofs',
      value: `${witness.acceptedProofs} accepted, ${discarded} discarded`,
      tone: discarded > 0 ? 'warn' : 'plain',
    });
  }
  return fields;
}

/** The did:webvh log as the dossier shows it (SPEC §2.3 `evidence.history`). */
export function historyView(history: HistoryEvidence): HistoryView {
  const { entries } = history;
  // The served version is a verified entry; in a broken log a number may appear twice.
  const verifiedServed = entries.findIndex((e) => e.versionNumber === history.selectedVersion && e.status === 'VERIFIED');
  const servedAt = verifiedServed >= 0 ? verifiedServed : entries.findIndex((e) => e.versionNumber === history.selectedVersion);
  const failedAt = entries.findIndex((e) => e.status === 'FAILED');
  const indexes = timelineIndexes(entries.length, [servedAt, failedAt]);

  const numberWidth = Math.max(0, ...indexes.map((i) => String(entries[i]!.versionNumber).length));
  const times = new Map(indexes.map((i) => [i, printable(entries[i]!.versionTime ?? '(no time)')]));
  const timeWidth = Math.max(0, ...[...times.values()].map((t) => [...t].length));

  const timeline: TimelineRow[] = [];
  let last = -1;
  for (const i of indexes) {
    if (i - last > 1) timeline.push({ kind: 'gap', count: i - last - 1, text: `… ${i - last - 1} more …` });
    last = i;
    const entry = entries[i]!;
    const { marker, tone } = ENTRY_MARKERS[entry.status];
    const time = times.get(i)!;
    timeline.push({
      kind: 'entry',
      versionNumber: entry.versionNumber,
      marker,
      markerTone: tone,
      when: `${String(entry.versionNumber).padStart(numberWidth)}  ${time}${' '.repeat(timeWidth - [...time].length)}`,
      whenTone: entry.status === 'UNVERIFIED' ? 'muted' : 'plain',
      notes: entryNotes(entry, i, entries[i - 1], i === servedAt, history.scid),
      served: i === servedAt,
    });
  }
  if (entries.length - 1 - last > 0) {
    const count = entries.length - 1 - last;
    timeline.push({ kind: 'gap', count, text: `… ${count} more …` });
  }

  const failure = history.failure;
  const verifiedAll = history.verifiedEntries === entries.length && failure === null;
  return {
    title: 'History',
    summary: [
      field('scid', history.scid),
      field(
        'log',
        `${plural(entries.length, 'entry', 'entries')}, ${verifiedAll ? 'all verified' : `${history.verifiedEntries} verified`}`,
        // Red when an entry failed; entries merely not verified (no failure) need attention.
        verifiedAll ? 'good' : failure !== null ? 'bad' : 'warn',
      ),
    ],
    timeline,
    failure:
      failure === null
        ? null
        : { text: printable(`Entry ${failure.versionNumber} failed (${failure.check}): ${failure.reason}`), tone: 'bad' },
    witness: witnessFields(history.witness),
    reused:
      history.reusedEntries > 0
        ? { text: `${plural(history.reusedEntries, 'entry', 'entries')} verified earlier, reused`, tone: 'muted' }
        : null,
  };
}

/** `version 2-Qm… (2025-01-02T00:00:00Z)` from didDocumentMetadata, when the method reports versions. */
export function versionLine(metadata: Record<string, unknown>): string | null {
  const { versionId, versionTime } = metadata;
  if (typeof versionId !== 'string') return null;
  return printable(`version ${versionId}${typeof versionTime === 'string' ? ` (${versionTime})` : ''}`);
}

/** A service endpoint as text: a URL as is, a list item after item, a map as compact JSON. */
function endpointText(endpoint: unknown): string {
  if (typeof endpoint === 'string') return endpoint;
  if (Array.isArray(endpoint)) return endpoint.map(endpointText).join(', ');
  return JSON.stringify(endpoint) ?? NONE;
}

export function serviceRow(service: ServiceEvidence, did: string): ServiceRow {
  const type = Array.isArray(service.type) ? service.type.join(', ') : (service.type ?? NONE);
  return {
    displayId: printable(displayKeyId(service.id, did)),
    id: service.id,
    fields: [field('type', type), field('endpoint', endpointText(service.serviceEndpoint))],
  };
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
      const added: GraphEdgeRow = { relations: [printable(edge.relation)], target: graphNodeName(nodes.get(edge.to), edge.to, did), state: edge.state, tone: EDGE_TONES[edge.state] };
      entry.rows.set(key, added);
      entry.group.edges.push(added);
    }
  }
  return [...groups.values()].map((e) => e.group);
}

const STAGE_MARKS: Readonly<Record<StageStatus, { marker: string; tone: Tone }>> = {
  PASS: { marker: '✓', tone: 'good' },
  FAIL: { marker: '✗', tone: 'bad' },
  WARN: { marker: '!', tone: 'warn' },
  SKIP: { marker: '-', tone: 'muted' },
};

/** `0.4 ms`, `25.8 ms` below ten milliseconds, whole milliseconds above. */
export function durationText(us: number): string {
  const ms = us / 1000;
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

export function traceView(trace: readonly TraceStage[]): TraceRow[] {
  return trace.map((stage) => ({
    ...STAGE_MARKS[stage.status],
    stage: printable(stage.stage),
    duration: durationText(stage.durationUs),
    text: printable(stage.detail ? `${stage.label}: ${stage.detail}` : stage.label),
  }));
}

export function buildDossierView(result: EnrichedResolution): DossierView {
  const { history } = result.evidence;
  return {
    did: printable(result.did),
    method: printable(result.method),
    observedAt: result.observedAt,
    cached: result.cached,
    version: versionLine(result.didDocumentMetadata),
    verdict: {
      outcome: result.verdict.outcome,
      tone: outcomeTone(result.verdict.outcome),
      headline: printable(result.verdict.headline),
    },
    groups: groupDimensions(result.dimensions),
    keys: result.evidence.keys.map((k) => keyRow(k, result.did)),
    evidence: evidenceSections(result),
    history: history ? historyView(history) : null,
    services: result.evidence.services.map((service) => serviceRow(service, result.did)),
    graph: graphView(result.graph, result.did),
    trace: traceView(result.trace),
    warnings: result.evidence.document.warnings.map(printable),
    limitations: result.limitations.map(printable),
  };
}

/* ------------------------------------------------------------------ layout */

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

