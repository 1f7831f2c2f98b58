/**
 * The dossier: what `svc resolve` prints for a person. One view model (`buildDossierView`)
 * decides grouping, markers and colours; the plain-text renderer here and the ink renderer
 * (src/cli/ui/dossier.tsx) only lay it out, so the two cannot drift apart.
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
  type EnrichedResolution,
  type KeyEvidence,
  type Outcome,
  type StateClass,
} from '../../core/resolve/types.js';
import type { HistoryEvidence, WebvhEntryEvidence, WebvhWitnessFileEvidence } from '../../core/webvh/types.js';

/** Text decorations; built by the caller from a chalk instance (identity functions at level 0). */
export interface Style {
  bold: (s: string) => string;
  dim: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
  red: (s: string) => string;
  cyan: (s: string) => string;
}

const identity = (s: string): string => s;

export const plainStyle: Style = {
  bold: identity,
  dim: identity,
  green: identity,
  yellow: identity,
  red: identity,
  cyan: identity,
};

/** What a piece of text means; each renderer turns a tone into its own colour mechanism. */
export type Tone = 'good' | 'warn' | 'bad' | 'muted' | 'accent' | 'plain';

export type ToneColor = 'green' | 'yellow' | 'red' | 'cyan' | 'dim' | null;

/** The one colour table of the dossier, shared by the text and ink renderers. */
export const TONE_COLORS: Readonly<Record<Tone, ToneColor>> = {
  good: 'green',
  warn: 'yellow',
  bad: 'red',
  muted: 'dim',
  accent: 'cyan',
  plain: null,
};

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

export interface Field {
  label: string;
  value: string;
  tone: Tone;
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
  warnings: string[];
  limitations: string[];
}

/**
 * Text from a DID document, a tool server or an agent card reaches the terminal (ids, warnings
 * quoting them, tool descriptions). Control characters could drive the terminal, bidi overrides
 * reorder what is read, and invisible format characters (zero-width space and joiners, word
 * joiner, BOM, Unicode tag characters) make one name look like another ("get\u200bweather"), so
 * all of them are shown as escapes; layout whitespace becomes a plain space.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu, (c) => {
    if (c === '\t' || c === '\n' || c === '\r') return ' ';
    const code = c.codePointAt(0)!;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
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
    fields.push(
      field('response', `HTTP ${source.httpStatus ?? '?'}, ${source.bytes ?? '?'} bytes, ${source.contentType ?? 'no content type'}`),
      field('pinned address', source.peerAddress ?? NONE),
      field('sha256', source.sha256 ?? NONE),
      field('latency', `${source.latencyMs ?? '?'} ms`),
    );
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
    warnings: result.evidence.document.warnings.map(printable),
    limitations: result.limitations.map(printable),
  };
}

/** The header's second line, e.g. `did:key  observed 2026-01-01T00:00:00Z  (cached)`. */
export function headerLine(view: Pick<DossierView, 'method' | 'observedAt' | 'cached'>): string {
  return `did:${view.method}  observed ${view.observedAt}${view.cached ? '  (cached)' : ''}`;
}

/* ------------------------------------------------------------------ plain text */

const WIDTH = 80;
/** Below this the text would be one word a line; let it overflow instead. */
const MIN_TEXT_WIDTH = 24;

export function paint(style: Style, tone: Tone, text: string): string {
  const color = TONE_COLORS[tone];
  return color === null ? text : style[color](text);
}

/**
 * Greedy word wrap: the first line holds `firstWidth` columns, the others `width`. A word longer
 * than its line (a DID, a key id, a hash) stays whole on its own line: cutting it would make it
 * impossible to copy.
 */
export function wrapWords(text: string, width: number, firstWidth: number = width): string[] {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const limit = lines.length === 0 ? firstWidth : width;
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= limit) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}

interface HangOptions {
  /** What is printed instead of `prefix` (the same text with styling). */
  styledPrefix?: string;
  /** Indent of continuation lines; by default they hang under the text's first column. */
  indent?: number;
}

/** `prefix` then `text`, wrapped; widths are measured on the unstyled prefix. */
function hang(prefix: string, text: string, paintLine: (s: string) => string, options: HangOptions = {}): string[] {
  const prefixWidth = [...prefix].length;
  const indent = options.indent ?? prefixWidth;
  const lines = wrapWords(text, Math.max(MIN_TEXT_WIDTH, WIDTH - indent), Math.max(MIN_TEXT_WIDTH, WIDTH - prefixWidth));
  return lines.map((line, i) => (i === 0 ? (options.styledPrefix ?? prefix) : ' '.repeat(indent)) + paintLine(line));
}

function headerLines(view: DossierView, style: Style): string[] {
  const lines = [style.bold(view.did), style.dim(headerLine(view))];
  if (view.version !== null) lines.push(...hang('', view.version, style.dim, { indent: 2 }));
  return lines;
}

function verdictLines(view: DossierView, style: Style): string[] {
  const { outcome, tone, headline } = view.verdict;
  return [
    `${style.bold('Verdict')}  ${style.bold(paint(style, tone, outcome))}`,
    ...hang('  ', headline, identity),
  ];
}

function groupLines(group: DimensionGroup, style: Style): string[] {
  const lines = [style.bold(group.title)];
  for (const row of group.rows) {
    lines.push(`  ${paint(style, row.tone, row.marker)} ${style.bold(row.label)}  ${paint(style, row.tone, row.state)}`);
    lines.push(...hang('      ', row.statement, identity));
  }
  return lines;
}

/** Labelled fields in two columns, the label dimmed, the value wrapped under itself. */
function fieldLines(fields: Field[], indent: string, style: Style): string[] {
  const labelWidth = Math.max(...fields.map((f) => f.label.length)) + 2;
  const lines: string[] = [];
  for (const field of fields) {
    const prefix = `${indent}${field.label.padEnd(labelWidth)}`;
    const styledPrefix = `${indent}${style.dim(field.label)}${' '.repeat(labelWidth - field.label.length)}`;
    lines.push(...hang(prefix, field.value, (s) => paint(style, field.tone, s), { styledPrefix }));
  }
  return lines;
}

function keyLines(key: KeyRow, style: Style): string[] {
  return [`  ${style.bold(key.displayId)}`, ...fieldLines(key.fields, '      ', style)];
}

function evidenceLines(section: EvidenceSection, style: Style): string[] {
  return [style.bold(section.title), ...fieldLines(section.fields, '  ', style)];
}

/**
 * Notes wrapped word by word, each word in its note's colour, notes two spaces apart; the first
 * line follows `prefix`, the others hang at `indent`.
 */
function noteLines(prefix: string, styledPrefix: string, notes: Note[], indent: number, style: Style): string[] {
  const width = (first: boolean) => Math.max(MIN_TEXT_WIDTH, WIDTH - (first ? [...prefix].length : indent));
  const lines: string[] = [];
  let plain = '';
  let styled = '';
  notes.forEach((item, n) => {
    const words = item.nowrap ? [item.text] : item.text.split(/\s+/).filter((w) => w.length > 0);
    words.forEach((word, w) => {
      const gap = n > 0 && w === 0 ? '  ' : ' ';
      if (plain === '') {
        plain = word;
        styled = paint(style, item.tone, word);
      } else if ([...plain].length + gap.length + [...word].length <= width(lines.length === 0)) {
        plain += gap + word;
        styled += gap + paint(style, item.tone, word);
      } else {
        lines.push(styled);
        plain = word;
        styled = paint(style, item.tone, word);
      }
    });
  });
  lines.push(styled);
  return lines.map((line, i) => (i === 0 ? styledPrefix : ' '.repeat(indent)) + line);
}

function timelineLines(row: TimelineRow, style: Style): string[] {
  if (row.kind === 'gap') return [`  ${paint(style, 'muted', row.text)}`];
  const prefix = `  ${row.marker} ${row.when}  `;
  const styledPrefix = `  ${paint(style, row.markerTone, row.marker)} ${paint(style, row.whenTone, row.when)}  `;
  return noteLines(prefix, styledPrefix, row.notes, [...prefix].length, style);
}

function historySection(view: DossierView, style: Style): string[] {
  const history = view.history;
  if (history === null) return [];
  const line = (note: Note): string[] => hang('  ', note.text, (s) => paint(style, note.tone, s));
  return [
    style.bold(history.title),
    ...fieldLines(history.summary, '  ', style),
    ...history.timeline.flatMap((row) => timelineLines(row, style)),
    ...(history.failure ? line(history.failure) : []),
    ...(history.witness.length > 0 ? fieldLines(history.witness, '  ', style) : []),
    ...(history.reused ? line(history.reused) : []),
  ];
}

function keysSection(view: DossierView, style: Style): string[] {
  if (view.keys.length === 0) return [style.bold('Keys'), style.dim('  The document publishes no keys.')];
  return [style.bold('Keys'), ...view.keys.flatMap((k) => keyLines(k, style))];
}

function warningsSection(view: DossierView, style: Style): string[] {
  if (view.warnings.length === 0) return [];
  const yellow = (s: string): string => paint(style, 'warn', s);
  return [style.bold('Document warnings'), ...view.warnings.flatMap((w) => hang('  ! ', w, yellow, { styledPrefix: `  ${yellow('!')} ` }))];
}

function limitationsSection(view: DossierView, style: Style): string[] {
  if (view.limitations.length === 0) return [];
  const dim = (s: string): string => paint(style, 'muted', s);
  return [style.bold('Limitations'), ...view.limitations.flatMap((l) => hang('  • ', l, dim, { styledPrefix: `  ${dim('•')} ` }))];
}

/** The dossier as plain text for pipes and dumb terminals; fits 80 columns except unbreakable ids. */
export function dossierText(result: EnrichedResolution, style: Style): string {
  const view = buildDossierView(result);
  const sections = [
    headerLines(view, style),
    verdictLines(view, style),
    ...view.groups.map((g) => groupLines(g, style)),
    keysSection(view, style),
    ...view.evidence.map((section) => evidenceLines(section, style)),
    historySection(view, style),
    warningsSection(view, style),
    limitationsSection(view, style),
  ].filter((s) => s.length > 0);
  return `${sections.map((s) => s.join('\n')).join('\n\n')}\n`;
}

/* ------------------------------------------------------------------ problems */

export interface ProblemTraceStage {
  stage: string;
  status: string;
  detail: string;
  label?: string;
}

export interface ProblemLike {
  code: string;
  title: string;
  detail: string;
  trace?: ProblemTraceStage[];
}

/** The stages to show: only the failing ones, since the rest passed and say nothing new. */
export function failingStages(trace: ProblemTraceStage[] | undefined): ProblemTraceStage[] {
  return (trace ?? []).filter((s) => s.status === 'FAIL');
}

/** A short error block for stderr: `error CODE: detail`, then where it failed. */
export function problemText(problem: ProblemLike, style: Style): string {
  // A detail may quote the document (e.g. its mismatching id), so it is made printable too.
  const detail = printable(problem.detail || problem.title);
  // The reason stays on one line, however long: scripts and logs read it with `head -1`.
  const lines = [`${style.bold(style.red('error'))} ${style.bold(problem.code)}: ${detail}`];
  for (const stage of failingStages(problem.trace)) {
    const name = printable(stage.label ? `${stage.stage} (${stage.label})` : stage.stage);
    lines.push(...hang('  failed at ', name, style.cyan, { styledPrefix: `  ${style.dim('failed at')} ` }));
    // The failing stage usually repeats the problem's own detail; print it only when it adds something.
    if (stage.detail && stage.detail !== problem.detail) lines.push(...hang('    ', printable(stage.detail), style.dim));
  }
  return `${lines.join('\n')}\n`;
}
