/** Plain-text views of an observation history and a semantic diff (stored text is escaped). */
import type { ObservationHistory, SemanticDiff } from '../../core/history/types.js';
import { printable, type Style } from './dossier.js';
import { plural } from '../../core/text.js';

export function historyText(history: ObservationHistory, style: Style): string {
  const lines = [`${style.bold(printable(history.did))}  ${plural(history.count, 'observation')}${history.history.length < history.count ? `, the latest ${history.history.length} shown` : ''}`];
  for (const o of history.history) {
    const seen = o.seenCount > 1 ? `, seen ${o.seenCount}× until ${o.lastSeenAt}` : '';
    const binding = o.domainBindingStatus ? `  binding ${o.domainBindingStatus}` : '';
    const latency = o.latencyMs !== null ? `  ${o.latencyMs} ms` : '';
    lines.push(`  ${style.cyan(o.observedAt)}${seen}`);
    lines.push(`    document ${o.documentHash.slice(0, 16)}…${binding}${latency}  ${style.dim(`svc ${printable(o.resolverVersion)}`)}`);
    lines.push(`    ${printable(o.summary)}`);
  }
  if (history.count === 0) lines.push('  No observations recorded yet: `svc resolve` records one each time it resolves the DID.');
  lines.push('', style.dim(printable(history.note)));
  return `${lines.join('\n')}\n`;
}

function list(label: string, ids: string[], colour: (s: string) => string): string[] {
  return ids.length === 0 ? [] : [`  ${label}`, ...ids.map((id) => `    ${colour(printable(id))}`)];
}

export function diffText(diff: SemanticDiff, style: Style): string {
  const lines = [
    `${style.bold(printable(diff.did))}`,
    `  from ${diff.fromHash.slice(0, 16)}… observed ${diff.fromObservedAt}`,
    `  to   ${diff.toHash.slice(0, 16)}… observed ${diff.toObservedAt}`,
    '',
    `  ${diff.identical ? style.green(printable(diff.summary)) : style.yellow(printable(diff.summary))}`,
    ...list('Keys added', diff.keysAdded, style.green),
    ...list('Keys removed', diff.keysRemoved, style.red),
    ...list('Keys rotated (same id, new material)', diff.keysRotated, style.yellow),
  ];
  for (const change of diff.relationshipsChanged) {
    lines.push(`  ${change.relationship}`);
    for (const id of change.added) lines.push(`    + ${style.green(printable(id))}`);
    for (const id of change.removed) lines.push(`    - ${style.red(printable(id))}`);
  }
  lines.push(
    ...list('Services added', diff.servicesAdded, style.green),
    ...list('Services removed', diff.servicesRemoved, style.red),
    ...list('Services changed', diff.servicesChanged, style.yellow),
  );
  const flags = [
    diff.controllerChanged ? 'controller' : null,
    diff.alsoKnownAsChanged ? 'alsoKnownAs' : null,
    diff.contextsChanged ? '@context' : null,
  ].filter((f): f is string => f !== null);
  if (flags.length > 0) lines.push(`  Changed: ${flags.join(', ')}`);
  if (diff.domainBindingChanged) lines.push(`  Domain binding: ${diff.domainBindingFrom ?? 'none'} → ${diff.domainBindingTo ?? 'none'}`);
  if (diff.changedMembers.length > 0) lines.push(style.dim(`  Members that differ: ${diff.changedMembers.map(printable).join(', ')}`));
  return `${lines.join('\n')}\n`;
}
