/**
 * Plain-text views of an observation history and a semantic diff (stored text is escaped), laid
 * out for a width with the shared layout (cmdutil/layout.ts).
 */
import type { ObservationHistory, SemanticDiff } from '../../../core/history/types.js';
import { printable, type Tone } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, phrase, words, type Style } from '../../cmdutil/layout.js';
import { plural } from '../../../core/text.js';
import { SHOWN_HASH_PREFIX } from '../../../core/history/prefix.js';

/**
 * `prefixLength`: how many characters of each document hash to show — a prefix `svc diff`
 * accepts, unique within the DID's whole history (the command computes it: uniquePrefixLength).
 * Laid out for `width` columns with the shared layout.
 */
export function historyText(history: ObservationHistory, style: Style, prefixLength: number = SHOWN_HASH_PREFIX, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  const shown = history.history.length < history.count ? `, the latest ${history.history.length} shown` : '';
  out.hang([{ text: printable(history.did), bold: true }, { text: '  ' }], `${plural(history.count, 'observation')}${shown}`);
  for (const o of history.history) {
    out.hang(
      '  ',
      [
        phrase(o.observedAt, 'accent'),
        ...(o.seenCount > 1 ? words(`seen ${o.seenCount}× until ${o.lastSeenAt}`).map((w, i) => (i === 0 ? { ...w, gap: ', ' } : w)) : []),
      ],
      { indent: 4 },
    );
    out.hang(
      '    ',
      [
        ...words(`document ${o.documentHash.slice(0, prefixLength)}`),
        ...(o.domainBindingStatus ? [phrase('binding', 'plain', '  '), phrase(o.domainBindingStatus)] : []),
        ...(o.latencyMs !== null ? [phrase(`${o.latencyMs} ms`, 'plain', '  ')] : []),
        phrase('svc', 'muted', '  '),
        ...words(printable(o.resolverVersion), 'muted'),
      ],
      { indent: 6 },
    );
    out.hang('    ', printable(o.summary));
  }
  if (history.count === 0) out.hang('  ', 'No observations recorded yet: `svc resolve` records one each time it resolves the DID.');
  out.blank().hang('', words(printable(history.note), 'muted'));
  return out.text(style);
}

/** `  Keys added` and the ids under it, each in the list's colour. */
function list(out: Report, label: string, ids: string[], tone: Tone): void {
  if (ids.length === 0) return;
  out.line({ text: `  ${label}` });
  for (const id of ids) out.hang('    ', words(printable(id), tone));
}

export function diffText(diff: SemanticDiff, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  out.line({ text: printable(diff.did), bold: true });
  out.hang('  from ', `${diff.fromHash.slice(0, 16)}… observed ${diff.fromObservedAt}`);
  out.hang('  to   ', `${diff.toHash.slice(0, 16)}… observed ${diff.toObservedAt}`);
  out.blank().hang('  ', words(printable(diff.summary), diff.identical ? 'good' : 'warn'));
  list(out, 'Keys added', diff.keysAdded, 'good');
  list(out, 'Keys removed', diff.keysRemoved, 'bad');
  list(out, 'Keys rotated (same id, new material)', diff.keysRotated, 'warn');
  for (const change of diff.relationshipsChanged) {
    out.line({ text: `  ${change.relationship}` });
    for (const id of change.added) out.hang('    + ', words(printable(id), 'good'));
    for (const id of change.removed) out.hang('    - ', words(printable(id), 'bad'));
  }
  list(out, 'Services added', diff.servicesAdded, 'good');
  list(out, 'Services removed', diff.servicesRemoved, 'bad');
  list(out, 'Services changed', diff.servicesChanged, 'warn');
  const flags = [diff.controllerChanged ? 'controller' : null, diff.alsoKnownAsChanged ? 'alsoKnownAs' : null, diff.contextsChanged ? '@context' : null].filter(
    (f): f is string => f !== null,
  );
  if (flags.length > 0) out.hang('  Changed: ', flags.join(', '));
  if (diff.domainBindingChanged) out.hang('  Domain binding: ', `${diff.domainBindingFrom ?? 'none'} → ${diff.domainBindingTo ?? 'none'}`);
  if (diff.changedMembers.length > 0)
    out.hang([{ text: '  Members that differ: ', tone: 'muted' }], words(diff.changedMembers.map(printable).join(', '), 'muted'));
  return out.text(style);
}
