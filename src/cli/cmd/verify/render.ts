/**
 * Plain-text (optionally coloured) reports of a credential verification, a presentation
 * verification, a JWS verification and a policy evaluation, laid out for a width with the shared layout (cmdutil/layout.ts). Everything quoted
 * from the input passes through `printable`: a credential may carry escape sequences meant for
 * the reader's terminal.
 */
import type { CredentialVerification } from '../../../core/credentials/types.js';
import type { JwsVerification } from '../../../core/jws/verify.js';
import type { EmbeddedCredential, PresentationVerification } from '../../../core/presentations/types.js';
import type { PolicyDecision } from '../../../core/policy/run.js';
import { displayKeyId, printable } from '../../../present/text.js';
import { MARKS, checkPrefix, headlineLines, limitationLines, statusTone } from '../../cmdutil/check-report.js';
import { DEFAULT_WIDTH, Report, columns, words, type Line, type Style } from '../../cmdutil/layout.js';

/** Width of the labels of the reports' fields (`  issuer       did:key:…`). */
const LABEL = 12;

const field = (out: Report, label: string, value: string | null | undefined): Report => out.field(label, value ? printable(value) : null, LABEL);

/** An SD-JWT VC's disclosures: the claims shown (paths only), how many digests stayed hidden, the key binding. */
function disclosureLines(out: Report, disclosures: NonNullable<CredentialVerification['disclosures']>): void {
  out.blank().line({ text: 'Disclosures', bold: true });
  const shown = disclosures.disclosed;
  field(out, 'disclosed', shown.length === 0 ? 'none' : `${shown.length}: ${shown.join(', ')}`);
  field(out, 'undisclosed', `${disclosures.undisclosed} (claims not shown, or decoys)`);
  const kb = disclosures.keyBinding;
  field(
    out,
    'key binding',
    kb === null ? 'none (no KB-JWT)' : kb.status === 'PASS' ? `PASS, audience ${kb.audience ?? '-'}, nonce ${kb.nonce ?? '-'}` : 'FAIL',
  );
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
  if (result.issuerTrust) {
    // Beside the checks, not among them: trust is the caller's decision, not a property of the credential.
    const trust = result.issuerTrust;
    out.blank().line({ text: 'Issuer trust', bold: true });
    out.hang(checkPrefix('  ', trust.status, MARKS[trust.status], 'trust', 9), printable(trust.detail));
  }
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

/** Width of a presentation's check ids (`holderBinding`). */
const PRESENTATION_CHECK_WIDTH = 13;
/** Width of the labels under each embedded credential (`binding`). */
const EMBEDDED_LABEL = 8;

/** One embedded credential, compactly: `#n STATUS  form · format`, then its issuer, holder binding, trust and, unless VALID, why. */
function embeddedLines(out: Report, credential: EmbeddedCredential, numberWidth: number, statusWidth: number): void {
  const { verification: v } = credential;
  const format = `${credential.form} · ${v.format}${v.dataModel !== 'unknown' ? ` · VC ${v.dataModel}` : ''}`;
  // Numbered from 1, as the checks' details name them ("credential 2 of 3"); --json has the 0-based index.
  const number = `#${credential.index + 1}`.padEnd(numberWidth);
  out.hang([{ text: `  ${number} ` }, { text: v.status.padEnd(statusWidth), tone: statusTone(v.status), bold: true }, { text: '  ' }], printable(format));
  const sub = (label: string, status: string | null, text: string | null) => {
    const prefix = `${' '.repeat(numberWidth + 3)}${label.padEnd(EMBEDDED_LABEL)} `;
    if (status === null) out.hang(prefix, printable(text ?? '-'));
    else out.hang([{ text: prefix }, { text: status, tone: statusTone(status) }, { text: text ? '  ' : '' }], text ? printable(text) : '');
  };
  sub('issuer', null, v.issuer);
  // The binding toned as what it means (about someone else: bad; unknown or bearer: undecided); BOUND needs no more words.
  const binding = credential.holderBinding;
  const bindingTone = statusTone(binding === 'BOUND' ? 'PASS' : binding === 'NOT_BOUND' ? 'FAIL' : 'WARN');
  const bindingPrefix: Line = [{ text: `${' '.repeat(numberWidth + 3)}${'binding'.padEnd(EMBEDDED_LABEL)} ` }, { text: binding, tone: bindingTone }];
  if (binding === 'BOUND') out.line(...bindingPrefix);
  else out.hang([...bindingPrefix, { text: '  ' }], printable(credential.holderBindingDetail));
  // The issuer is on the line above: the trust line says only how it was decided (--json has the detail).
  const trust = v.issuerTrust;
  if (trust) {
    const how =
      trust.status === 'PASS'
        ? trust.matched === null || trust.matched === v.issuer
          ? 'listed'
          : `matches ${trust.matched}`
        : trust.status === 'FAIL'
          ? 'not among the trusted issuers'
          : trust.detail;
    sub('trust', trust.status, how);
  }
  if (v.status !== 'VALID') sub('why', null, v.headline);
}

export function presentationText(result: PresentationVerification, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, result.status, result.headline);
  out.blank();
  field(out, 'format', `${result.format}${result.dataModel !== 'unknown' ? ` (VC ${result.dataModel})` : ''}`);
  field(out, 'holder', result.holder);
  field(out, 'types', result.types.join(', '));
  field(out, 'challenge', result.challenge);
  field(out, 'domain', result.domain?.join(', '));
  if (result.proof) {
    field(out, 'proof', [result.proof.suite, result.proof.keyCurve].filter(Boolean).join(', '));
    // The fragment is enough when the key is the holder's own (present/text.ts).
    field(
      out,
      'key',
      result.proof.verificationMethod && result.holder ? displayKeyId(result.proof.verificationMethod, result.holder) : result.proof.verificationMethod,
    );
  }
  out.blank().line({ text: 'Checks', bold: true });
  for (const check of result.checks)
    out.hang(checkPrefix('  ', check.status, MARKS[check.status], check.id, PRESENTATION_CHECK_WIDTH), printable(check.detail));
  if (result.credentials.length > 0) {
    out.blank().line({ text: `Credentials (${result.credentials.length})`, bold: true });
    // One column for the numbers and one for the statuses, as wide as the widest shown.
    const numberWidth = `#${result.credentials.length}`.length;
    const statusWidth = Math.max(...result.credentials.map((c) => c.verification.status.length));
    for (const credential of result.credentials) embeddedLines(out, credential, numberWidth, statusWidth);
  }
  // The presentation's limitations, then each credential's not already said (the same sentence once).
  const limitations = [...new Set([...result.limitations, ...result.credentials.flatMap((c) => c.verification.limitations)])];
  limitationLines(out, limitations);
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
