/**
 * Plain-text (optionally coloured) reports of a credential verification, a JWS verification and
 * a policy evaluation, laid out for a width with the shared layout (layout.ts). Everything quoted
 * from the input passes through `printable`: a credential may carry escape sequences meant for
 * the reader's terminal.
 */
import type { CheckStatus, CredentialVerification } from '../../../core/credentials/types.js';
import type { JwsVerification } from '../../../core/jws/verify.js';
import type { PolicyDecision } from '../../../core/policy/run.js';
import { printable, type Tone } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, columns, paint, words, type Line, type Style } from '../../cmdutil/layout.js';

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

/** Width of the labels of the reports' fields (`  issuer       did:key:…`). */
const LABEL = 12;

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

const field = (out: Report, label: string, value: string | null | undefined): Report => out.field(label, value ? printable(value) : null, LABEL);

/** An SD-JWT VC's disclosures: the claims shown (paths only), how many digests stayed hidden, the key binding. */
function disclosureLines(out: Report, disclosures: NonNullable<CredentialVerification['disclosures']>): void {
  out.blank().line({ text: 'Disclosures', bold: true });
  const shown = disclosures.disclosed;
  field(out, 'disclosed', shown.length === 0 ? 'none' : `${shown.length}: ${shown.join(', ')}`);
  field(out, 'undisclosed', `${disclosures.undisclosed} (claims not shown, or decoys)`);
  const kb = disclosures.keyBinding;
  field(out, 'key binding', kb === null ? 'none (no KB-JWT)' : kb.status === 'PASS' ? `PASS, audience ${kb.audience ?? '-'}, nonce ${kb.nonce ?? '-'}` : 'FAIL');
}

export function credentialText(result: CredentialVerification, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, result.status, result.headline);
  out.blank();
  field(out, 'format', `${result.format}${result.dataModel !== 'unknown' ? ` (VC ${result.dataModel})` : ''}`);
  field(out, 'issuer', result.issuer);
  field(out, 'subject', result.subject);
  field(out, 'types', result.types.join(', '));
  field(out, 'valid from', result.validFrom);
  field(out, 'valid until', result.validUntil);
  if (result.proof) {
    field(out, 'proof', [result.proof.suite, result.proof.keyCurve].filter(Boolean).join(', '));
    field(out, 'key', result.proof.verificationMethod);
  }
  if (result.disclosures) disclosureLines(out, result.disclosures);
  out.blank().line({ text: 'Checks', bold: true });
  for (const check of result.checks) out.hang(checkPrefix('  ', check.status, MARKS[check.status], check.id, 9), printable(check.detail));
  if (result.statusList.length > 0) {
    out.blank().line({ text: 'Status entries', bold: true });
    for (const entry of result.statusList) {
      const status = entry.result === 'ACTIVE' ? 'PASS' : entry.result;
      out.hang([{ text: '  ' }, { text: entry.result.padEnd(13), tone: statusTone(status) }, { text: ' ' }], printable(entry.detail));
    }
  }
  limitationLines(out, result.limitations);
  return out.text(style);
}

export function jwsText(result: JwsVerification, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, result.status, result.headline);
  out.blank();
  field(out, 'alg', result.alg);
  field(out, 'kid', result.kid);
  field(out, 'typ', result.typ);
  if (result.signer) {
    field(out, 'signer', result.signer);
    field(out, 'relationship', result.relationship ?? null);
  }
  field(out, 'input sha256', result.signingInputSha256);
  return out.text(style);
}

export function policyText(decision: PolicyDecision, style: Style, width: number = DEFAULT_WIDTH): string {
  const { evaluation } = decision;
  const out = new Report(width);
  headlineLines(out, evaluation.status, evaluation.headline);
  out.hang('  ', `${printable(evaluation.did)}${evaluation.policyName ? ` (${printable(evaluation.policyName)})` : ''}`);
  out.blank();
  // Rule ids in one column as wide as the longest shown.
  const ruleWidth = Math.max(0, ...evaluation.evaluations.map((rule) => columns(rule.rule)));
  for (const rule of evaluation.evaluations) out.hang(checkPrefix('  ', rule.status, MARKS[rule.status], rule.rule, ruleWidth), printable(rule.message));
  if (decision.credential) {
    const { status, headline } = decision.credential;
    out.blank().hang([{ text: `  ${'credential'.padEnd(LABEL)} ` }, { text: status, tone: statusTone(status) }, { text: '  ' }], printable(headline));
  }
  if (decision.resolution) {
    const { outcome, headline } = decision.resolution.verdict;
    out.hang(`  ${'resolution'.padEnd(LABEL)} ${outcome}  `, printable(headline));
  }
  out.blank().hang('', words(`Evaluated at ${evaluation.evaluatedAt}.`, 'muted'));
  return out.text(style);
}
