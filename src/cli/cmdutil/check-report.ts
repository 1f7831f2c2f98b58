/**
 * What every report of checks shares (a credential, a JWS, a policy, a delegation chain, an
 * authorization, an MCP or A2A inspection): the status word's tone, the mark of a check line,
 * the headline, the check prefix and the closing limitations.
 */
import type { CheckStatus } from '../../core/credentials/types.js';
import { printable, type Tone } from '../../present/text.js';
import { paint, words, type Line, type Report, type Style } from './layout.js';

/** What a status word means: green for a pass, yellow for undecided or skipped, red otherwise. */
export function statusTone(status: string): Tone {
  if (status === 'VALID' || status === 'PASS' || status === 'ALLOW') return 'good';
  if (status === 'INDETERMINATE' || status === 'WARN' || status === 'SKIP') return 'warn';
  return 'bad';
}

/** The colour of a status word, as a style function. */
export function tone(style: Style, status: string): (s: string) => string {
  return (s) => paint(style, statusTone(status), s);
}

/** The mark in front of a check line. */
export const MARKS: Readonly<Record<CheckStatus, string>> = {
  PASS: '✓',
  FAIL: '✗',
  WARN: '!',
  SKIP: '-',
  UNSUPPORTED: '?',
  INDETERMINATE: '?',
};

/** The first line of a report: the status word, then the headline hanging under itself. */
export function headlineLines(out: Report, status: string, headline: string, shownTone: Tone = statusTone(status)): void {
  out.hang([{ text: status, tone: shownTone, bold: true }, { text: '  ' }], printable(headline), { besidePrefix: true });
}

/** `  ✓ PASS          ` + the id padded to `idWidth`: the prefix of a check line, its detail hanging after it. */
export function checkPrefix(indent: string, status: string, mark: string, id: string, idWidth: number, statusWidth = 13): Line {
  return [{ text: indent }, { text: `${mark} ${status.padEnd(statusWidth)}`, tone: statusTone(status) }, { text: ` ${id.padEnd(idWidth)} ` }];
}

/** The closing "What this does not show" list, dimmed, each item hanging under its text. */
export function limitationLines(out: Report, limitations: readonly string[]): void {
  if (limitations.length === 0) return;
  out.blank().line({ text: 'What this does not show', tone: 'muted' });
  for (const limitation of limitations) out.hang([{ text: '  · ', tone: 'muted' }], words(printable(limitation), 'muted'));
}
