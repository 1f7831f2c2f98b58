/**
 * Plain-text (optionally coloured) reports of a delegation chain verification and of an
 * authorization decision. Receipts are attacker-supplied: every DID, capability, kid and detail
 * quoted from them passes through `printable`.
 */
import type { Authorization, DelegationChainResult, DelegationCheck } from '../../core/delegation/types.js';
import { printable, type Style } from './dossier.js';
import { MARKS, tone } from './verification.js';

function field(label: string, value: string | null, indent = '  '): string[] {
  return value === null || value === '' ? [] : [`${indent}${label.padEnd(13)} ${printable(value)}`];
}

function checkLine(style: Style, check: DelegationCheck, indent: string): string {
  const mark = tone(style, check.status)(`${MARKS[check.status] ?? '?'} ${check.status.padEnd(13)}`);
  return `${indent}${mark} ${printable(check.id).padEnd(12)} ${printable(check.detail)}`;
}

function capabilities(list: readonly string[]): string {
  return list.length === 0 ? '' : list.join(', ');
}

function window(notBefore: string | null, expires: string | null): string | null {
  if (notBefore === null && expires === null) return null;
  return `${notBefore ?? '?'} → ${expires ?? '?'}`;
}

export function delegationChainText(result: DelegationChainResult, style: Style): string {
  const lines = [`${style.bold(tone(style, result.status)(result.status))}  ${printable(result.headline)}`, ''];
  lines.push(
    ...field('root', result.root),
    ...field('leaf', result.leaf),
    ...field('trusted root', result.trustedRoot),
    ...field('capabilities', capabilities(result.effectiveCapabilities)),
    ...field('not after', result.notAfter),
    ...field('format', result.format),
  );
  if (result.checks.length > 0) {
    lines.push('', style.bold('Chain'));
    for (const check of result.checks) lines.push(checkLine(style, check, '  '));
  }
  for (const link of result.links) {
    const parties = `${link.issuer ?? '?'} → ${link.audience ?? '?'}`;
    lines.push('', `${style.bold(`Link ${link.index}`)}  ${tone(style, link.status)(link.status)}  ${printable(parties)}`);
    lines.push(
      ...field('capabilities', capabilities(link.capabilities), '    '),
      ...field('valid', window(link.notBefore, link.expires), '    '),
      ...field('key', [link.alg, link.kid].filter((v): v is string => v !== null).join(' '), '    '),
      ...field('jti', link.jti, '    '),
      ...field('digest', link.digest, '    '),
      ...field('issuer', link.issuerHeadline, '    '),
    );
    for (const check of link.checks) lines.push(checkLine(style, check, '    '));
  }
  if (result.limitations.length > 0) {
    lines.push('', style.dim('What this does not show'));
    for (const limitation of result.limitations) lines.push(style.dim(`  · ${printable(limitation)}`));
  }
  return `${lines.join('\n')}\n`;
}

export function authorizationText(authorization: Authorization, chain: DelegationChainResult, style: Style): string {
  const lines = [`${style.bold(tone(style, authorization.decision)(authorization.decision))}  ${printable(authorization.reason)}`, ''];
  lines.push(
    ...field('agent', authorization.agent),
    ...field('tool', authorization.tool),
    ...field('matched', authorization.matchedCapability ?? null),
    ...field('root', authorization.root ?? null),
    ...field('expires', authorization.expires ?? null),
  );
  lines.push(`  ${'chain'.padEnd(13)} ${tone(style, chain.status)(chain.status)}  ${printable(chain.headline)}`);
  if (chain.limitations.length > 0) {
    lines.push('', style.dim('What this does not show'));
    for (const limitation of chain.limitations) lines.push(style.dim(`  · ${printable(limitation)}`));
  }
  return `${lines.join('\n')}\n`;
}
