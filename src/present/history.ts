/**
 * A did:webvh log as both shells show it (`evidence.history`): the summary, a timeline
 * of entries (a long log cut to its first, last, served and failed entries), where verification
 * stopped and the witness file. The terminal dossier lays it out as lines, the web dossier as a
 * list; the words and marks are these.
 */
import type { HistoryEvidence, KeptLogEvidence, RewriteSide, WebvhEntryEvidence, WebvhWitnessFileEvidence } from '../core/webvh/types.js';
import { field, printable, shortKey, type Field, type Tone } from './text.js';

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
  /** How the log compares with the one svc kept (`kept since …, extends it`), or null without a store. */
  kept: Note | null;
  /** A rewritten log: the kept entry and the served one side by side, or null. */
  rewrite: RewriteView | null;
}

/** The kept entry and the served one at the first divergence of a rewritten log. */
export interface RewriteView {
  /** `The log was rewritten at version 3 (first seen …)`. */
  headline: Note;
  /** Column titles: kept, served. */
  columns: [string, string];
  /** versionId, versionTime, entry hash: the kept value and the served one (`(removed)` when the served log ends before it). */
  rows: Array<{ label: string; kept: string; served: string }>;
}

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

/** The did:webvh log as the dossier shows it (`evidence.history`). */
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
  // An entry of a specification version svc does not implement is not a failure of the log.
  const unsupported = failure?.check === 'method';
  return {
    title: 'History',
    summary: [
      field('scid', history.scid),
      field(
        'log',
        `${plural(entries.length, 'entry', 'entries')}, ${verifiedAll ? 'all verified' : `${history.verifiedEntries} verified`}`,
        // Red when an entry failed; entries merely not verified (no failure) need attention.
        verifiedAll ? 'good' : failure !== null && !unsupported ? 'bad' : 'warn',
      ),
    ],
    timeline,
    failure:
      failure === null
        ? null
        : unsupported
          ? { text: printable(`Entry ${failure.versionNumber} not verified: ${failure.reason}`), tone: 'warn' }
          : { text: printable(`Entry ${failure.versionNumber} failed (${failure.check}): ${failure.reason}`), tone: 'bad' },
    witness: witnessFields(history.witness),
    reused: history.reusedEntries > 0 ? { text: `${plural(history.reusedEntries, 'entry', 'entries')} verified earlier, reused`, tone: 'muted' } : null,
    kept: history.keptLog ? keptNote(history.keptLog) : null,
    rewrite: history.keptLog?.rewrite ? rewriteView(history.keptLog) : null,
  };
}

function keptNote(kept: KeptLogEvidence): Note {
  const since = kept.keptSince ? ` since ${kept.keptSince}` : '';
  const bound = kept.atBound ? '; the kept log is at its bound, later entries are not compared' : '';
  switch (kept.status) {
    case 'FIRST_KEPT':
      return { text: `Kept: ${plural(kept.appendedEntries, 'entry', 'entries')} now kept, to compare with later logs${bound}`, tone: 'muted' };
    case 'UNCHANGED':
      return { text: `Kept${since}: the log is the kept one (${plural(kept.keptEntries, 'entry', 'entries')})${bound}`, tone: 'good' };
    case 'EXTENDED':
      return {
        text: `Kept${since}: the log extends the ${plural(kept.keptEntries, 'kept entry', 'kept entries')}, ${kept.appendedEntries} more kept${bound}`,
        tone: 'good',
      };
    case 'REWRITTEN':
      return { text: `Kept${since}: ${plural(kept.keptEntries, 'entry', 'entries')}; the served log does not extend them`, tone: 'bad' };
    default:
      return { text: printable(`Not compared with a kept log: ${kept.reason ?? 'unknown'}`), tone: 'warn' };
  }
}

function sideValues(side: RewriteSide | null): [string, string, string] {
  if (side === null) return ['(removed)', '(removed)', '(removed)'];
  return [printable(side.versionId ?? '(unreadable)'), printable(side.versionTime ?? '(no time)'), side.entryHash];
}

function rewriteView(kept: KeptLogEvidence): RewriteView {
  const r = kept.rewrite!;
  const k = sideValues(r.kept);
  const s = sideValues(r.served);
  const how = r.kind === 'REMOVED' ? 'the entry was removed' : 'another entry stands in its place';
  return {
    headline: { text: `The log was rewritten at version ${r.versionNumber}: ${how} (first seen ${r.detectedAt})`, tone: 'bad' },
    columns: ['kept', 'served'],
    rows: [
      { label: 'versionId', kept: k[0], served: s[0] },
      { label: 'versionTime', kept: k[1], served: s[1] },
      { label: 'entry hash', kept: k[2], served: s[2] },
    ],
  };
}
