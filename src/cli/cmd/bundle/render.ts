/**
 * The plain-text report of `svc verify-bundle`: the outcome, then each resource, each TLS chain,
 * the two re-runs, the signature, and what a bundle cannot prove. Everything quoted from the
 * bundle passes through `printable`: a bundle is a file from anyone.
 */
import type { BundleVerification, RerunCheck } from '../../../core/bundle/verify.js';
import { printable } from '../../../present/text.js';
import type { Tone } from '../../../present/text.js';
import { headlineLines, limitationLines } from '../../cmdutil/check-report.js';
import { DEFAULT_WIDTH, Report, words, type Style } from '../../cmdutil/layout.js';

const LABEL = 12;

function outcomeTone(outcome: BundleVerification['outcome']): Tone {
  if (outcome === 'VERIFIED') return 'good';
  return outcome === 'FAILED' ? 'bad' : 'warn';
}

function brief(value: unknown): string {
  if (value === null || value === undefined) return 'absent';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return printable(text.length > 70 ? `${text.slice(0, 67)}…` : text);
}

function rerunLines(out: Report, title: string, check: RerunCheck | null): void {
  if (!check) {
    out.field(title, 'not re-run: this svc cannot re-run this kind of bundle', LABEL);
    return;
  }
  out.field(
    title,
    check.matches ? `${check.at}: the recorded result` : `${check.at}: ${check.differences.length} difference${check.differences.length === 1 ? '' : 's'}`,
    LABEL,
    '  ',
    check.matches ? 'good' : 'warn',
  );
  const item = [{ text: '    · ' }];
  for (const d of check.differences.slice(0, 12)) out.hang(item, words(`${printable(d.path)}: ${brief(d.recorded)} → ${brief(d.recomputed)}`));
  if (check.differences.length > 12) out.hang(item, words(`… and ${check.differences.length - 12} more (--json lists them)`, 'muted'));
  for (const missing of check.unrecorded) out.hang(item, words(`asked for ${printable(missing)}, which the bundle does not hold`, 'warn'));
}

export function bundleText(result: BundleVerification, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, result.outcome, result.summary, outcomeTone(result.outcome));
  out.blank();
  const b = result.bundle;
  out.field('bundle', `${b.kind} ${printable(b.subject)}`, LABEL);
  out.field('observed', `${b.observedAt} by svc ${printable(b.svcVersion)} (format ${b.version})`, LABEL);
  out.field('signed', b.signed ? 'yes' : 'no: anyone could have written this file', LABEL);
  out.blank().line({ text: 'Resources', bold: true });
  for (const r of result.resources) {
    out.hang(
      [{ text: '  ' }, { text: r.intact ? '✓' : '✗', tone: r.intact ? 'good' : 'bad' }, { text: ` ${r.id.padEnd(4)} ` }],
      words(`${printable(r.purpose)}, ${printable(r.url)} (${r.bytes} bytes)${r.intact ? '' : `: ${r.problems.join('; ')}`}`),
    );
  }
  for (const f of result.failures) {
    out.hang(
      [{ text: '  ' }, { text: '–', tone: 'muted' }, { text: ` ${f.id.padEnd(4)} ` }],
      words(`${printable(f.purpose)}, ${printable(f.url)}: no response (${printable(f.code)}), as recorded`),
    );
  }
  if (result.tls.length > 0) {
    out.blank().line({ text: 'TLS chains', bold: true });
    for (const t of result.tls) {
      const ok = t.atObservation.valid && t.now.valid;
      const anchor = t.anchor ? `, anchor ${printable(t.anchor)}${t.anchorTrusted === false ? ' (not trusted here)' : ''}` : '';
      const why = !t.atObservation.valid ? t.atObservation.problems[0] : !t.now.valid ? t.now.problems[0] : undefined;
      out.hang(
        [
          { text: '  ' },
          { text: ok ? '✓' : t.atObservation.valid ? '!' : '✗', tone: ok ? 'good' : t.atObservation.valid ? 'warn' : 'bad' },
          { text: ` ${t.id.padEnd(4)} ` },
        ],
        words(`${printable(t.host)}: ${t.summary}${why ? ` (${printable(why)})` : ''}${anchor}`),
      );
    }
  }
  out.blank().line({ text: 'Checks re-run from the recorded bytes', bold: true });
  rerunLines(out, 'then', result.atObservation);
  rerunLines(out, 'now', result.now);
  out.blank().line({ text: 'Signature', bold: true });
  const s = result.signature;
  if (!s) out.field('signature', 'none', LABEL);
  else {
    out.field('status', s.verified ? 'VALID' : `INVALID (${s.reason})`, LABEL, '  ', s.verified ? 'good' : 'bad');
    if (s.signer) out.field('signer', printable(s.signer.kid), LABEL);
    if (s.signedAt) out.field('signed at', s.signedAt, LABEL);
    out.field(s.verified ? 'proves' : 'why', printable(s.verified ? s.proves : s.detail), LABEL);
  }
  limitationLines(out, result.cannotProve);
  return out.text(style);
}
