/**
 * Plain-text (optionally coloured) reports of a credential verification, a JWS verification and
 * a policy evaluation. Everything quoted from the input passes through `printable`: a credential
 * may carry escape sequences meant for the reader's terminal.
 */
import type { CheckStatus, CredentialVerification } from '../../core/credentials/types.js';
import type { JwsVerification } from '../../core/jws/verify.js';
import type { PolicyDecision } from '../../core/policy/run.js';
import { printable, type Style } from './dossier.js';

/** The colour of a status word: green for a pass, yellow for undecided or skipped, red otherwise. */
export function tone(style: Style, status: string): (s: string) => string {
  if (status === 'VALID' || status === 'PASS' || status === 'ALLOW') return style.green;
  if (status === 'INDETERMINATE' || status === 'WARN' || status === 'SKIP') return style.yellow;
  return style.red;
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

function field(label: string, value: string | null): string[] {
  return value === null || value === '' ? [] : [`  ${label.padEnd(12)} ${printable(value)}`];
}

export function credentialText(result: CredentialVerification, style: Style): string {
  const colour = tone(style, result.status);
  const lines = [`${style.bold(colour(result.status))}  ${printable(result.headline)}`, ''];
  lines.push(
    ...field('format', `${result.format}${result.dataModel !== 'unknown' ? ` (VC ${result.dataModel})` : ''}`),
    ...field('issuer', result.issuer),
    ...field('subject', result.subject),
    ...field('types', result.types.join(', ')),
    ...field('valid from', result.validFrom),
    ...field('valid until', result.validUntil),
  );
  if (result.proof) {
    lines.push(...field('proof', [result.proof.suite, result.proof.keyCurve].filter(Boolean).join(', ')));
    lines.push(...field('key', result.proof.verificationMethod));
  }
  lines.push('', style.bold('Checks'));
  for (const check of result.checks) {
    const mark = tone(style, check.status)(`${MARKS[check.status]} ${check.status.padEnd(13)}`);
    lines.push(`  ${mark} ${check.id.padEnd(9)} ${printable(check.detail)}`);
  }
  if (result.statusList.length > 0) {
    lines.push('', style.bold('Status entries'));
    for (const entry of result.statusList) {
      lines.push(`  ${tone(style, entry.result === 'ACTIVE' ? 'PASS' : entry.result)(entry.result.padEnd(13))} ${printable(entry.detail)}`);
    }
  }
  if (result.limitations.length > 0) {
    lines.push('', style.dim('What this does not show'));
    for (const limitation of result.limitations) lines.push(style.dim(`  · ${printable(limitation)}`));
  }
  return `${lines.join('\n')}\n`;
}

export function jwsText(result: JwsVerification, style: Style): string {
  const lines = [`${style.bold(tone(style, result.status)(result.status))}  ${printable(result.headline)}`, ''];
  lines.push(...field('alg', result.alg), ...field('kid', result.kid), ...field('typ', result.typ));
  if (result.signer) lines.push(...field('signer', result.signer), ...field('relationship', result.relationship ?? null));
  lines.push(...field('input sha256', result.signingInputSha256));
  return `${lines.join('\n')}\n`;
}

export function policyText(decision: PolicyDecision, style: Style): string {
  const { evaluation } = decision;
  const title = evaluation.policyName ? ` (${printable(evaluation.policyName)})` : '';
  const lines = [`${style.bold(tone(style, evaluation.status)(evaluation.status))}  ${printable(evaluation.headline)}`, `  ${printable(evaluation.did)}${title}`, ''];
  for (const rule of evaluation.evaluations) {
    const mark = tone(style, rule.status)(`${MARKS[rule.status]} ${rule.status.padEnd(13)}`);
    lines.push(`  ${mark} ${rule.rule.padEnd(29)} ${printable(rule.message)}`);
  }
  if (decision.credential) lines.push('', `  credential   ${tone(style, decision.credential.status)(decision.credential.status)}  ${printable(decision.credential.headline)}`);
  if (decision.resolution) lines.push(`  resolution   ${decision.resolution.verdict.outcome}  ${printable(decision.resolution.verdict.headline)}`);
  lines.push('', style.dim(`Evaluated at ${evaluation.evaluatedAt}.`));
  return `${lines.join('\n')}\n`;
}
