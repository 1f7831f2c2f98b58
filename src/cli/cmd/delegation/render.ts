/**
 * Plain-text (optionally coloured) reports of a delegation chain verification and of an
 * authorization decision, laid out for a width with the shared layout (cmdutil/layout.ts). Receipts are
 * attacker-supplied: every DID, capability, kid and detail quoted from them passes through
 * `printable`.
 */
import type { Authorization, DelegationChainResult, DelegationCheck } from '../../../core/delegation/types.js';
import { printable } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, columns, words, type Style } from '../../cmdutil/layout.js';
import { MARKS, checkPrefix, headlineLines, limitationLines, statusTone } from '../../cmdutil/check-report.js';

/** Width of the field labels (`  capabilities  …`). */
const LABEL = 13;

const field = (out: Report, label: string, value: string | null, indent = '  '): Report => out.field(label, value ? printable(value) : null, LABEL, indent);

function checkLines(out: Report, checks: readonly DelegationCheck[], indent: string): void {
  const idWidth = Math.max(12, ...checks.map((c) => columns(printable(c.id))));
  for (const check of checks) out.hang(checkPrefix(indent, check.status, MARKS[check.status] ?? '?', printable(check.id), idWidth), printable(check.detail));
}

function capabilities(list: readonly string[]): string {
  return list.length === 0 ? '' : list.join(', ');
}

function window(notBefore: string | null, expires: string | null): string | null {
  if (notBefore === null && expires === null) return null;
  return `${notBefore ?? '?'} → ${expires ?? '?'}`;
}

export function delegationChainText(result: DelegationChainResult, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, result.status, result.headline);
  out.blank();
  field(out, 'root', result.root);
  field(out, 'leaf', result.leaf);
  field(out, 'trusted root', result.trustedRoot);
  field(out, 'capabilities', capabilities(result.effectiveCapabilities));
  field(out, 'not after', result.notAfter);
  field(out, 'format', result.format);
  if (result.checks.length > 0) {
    out.blank().line({ text: 'Chain', bold: true });
    checkLines(out, result.checks, '  ');
  }
  for (const link of result.links) {
    // The parties are DIDs: they continue under the link's fields, where a did:key fits 60 columns.
    const parties = printable(`${link.issuer ?? '?'} → ${link.audience ?? '?'}`);
    out
      .blank()
      .hang(
        [{ text: `Link ${link.index}`, bold: true }, { text: '  ' }, { text: link.status, tone: statusTone(link.status) }, { text: '  ' }],
        words(parties),
        { indent: 4 },
      );
    field(out, 'capabilities', capabilities(link.capabilities), '    ');
    field(out, 'valid', window(link.notBefore, link.expires), '    ');
    field(out, 'key', [link.alg, link.kid].filter((v): v is string => v !== null).join(' '), '    ');
    field(out, 'jti', link.jti, '    ');
    field(out, 'digest', link.digest, '    ');
    field(out, 'issuer', link.issuerHeadline, '    ');
    checkLines(out, link.checks, '    ');
  }
  limitationLines(out, result.limitations);
  return out.text(style);
}

/** Who delegated to whom, root first: `did:key:… → did:key:… → did:key:…` (each DID whole). */
function delegationPath(chain: DelegationChainResult): string | null {
  if (chain.links.length === 0) return null;
  const parties = [chain.links[0]!.issuer, ...chain.links.map((link) => link.audience)];
  return parties.map((p) => p ?? '?').join(' → ');
}

export function authorizationText(authorization: Authorization, chain: DelegationChainResult, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, authorization.decision, authorization.reason);
  out.blank();
  field(out, 'agent', authorization.agent);
  field(out, 'tool', authorization.tool);
  field(out, 'matched', authorization.matchedCapability ?? null);
  field(out, 'root', authorization.root ?? null);
  field(out, 'expires', authorization.expires ?? null);
  field(out, 'path', delegationPath(chain));
  out.hang([{ text: `  ${'chain'.padEnd(LABEL)} ` }, { text: chain.status, tone: statusTone(chain.status) }, { text: '  ' }], printable(chain.headline));
  limitationLines(out, chain.limitations);
  return out.text(style);
}
