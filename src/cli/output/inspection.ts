/**
 * Plain-text (optionally coloured) reports of an MCP inspection and an A2A card inspection, laid
 * out for a width with the shared layout (layout.ts). Everything a server or card says passes
 * through `printable`: tool descriptions are exactly where hostile servers put escape sequences
 * and invisible characters.
 */
import type { A2aInspection } from '../../core/a2a/types.js';
import type { McpInspection, McpTool } from '../../core/mcp/types.js';
import { printable } from './layout.js';
import { DEFAULT_WIDTH, MIN_TEXT_WIDTH, Report, columns, phrase, words, type Line, type Style, type Tone, type Word } from './layout.js';
import { isAccepted } from '../checks.js';
import { MARKS, checkPrefix, headlineLines, limitationLines, statusTone } from './verification.js';

/** Server text that is only quoted (a tool name in a sentence, an excerpt) is cut to `width` characters; --json has it whole. */
function cut(text: string, width: number): string {
  const shown = [...printable(text)];
  return shown.length > width ? `${shown.slice(0, width - 1).join('')}…` : shown.join('');
}

/** Width of the field labels (`  inventory    …`). */
const LABEL = 12;

const field = (out: Report, label: string, value: string | null | undefined): Report => out.field(label, value ? printable(value) : null, LABEL);

/**
 * One line per check; a WARN accepted with --allow-warn is still shown as WARN, its detail
 * opened by "accepted (--allow-warn):".
 */
function checkLines(out: Report, checks: ReadonlyArray<{ id: string; status: 'PASS' | 'WARN' | 'FAIL' | 'SKIP'; detail: string }>, idWidth: number, accepted?: ReadonlySet<string>): void {
  for (const check of checks) {
    const detail = words(printable(check.detail));
    const body = isAccepted(check, accepted) ? [...words('accepted (--allow-warn):', 'muted'), ...detail] : detail;
    out.hang(checkPrefix('  ', check.status, MARKS[check.status], check.id, idWidth, 5), body);
  }
}

const DRIFT_TONE: Readonly<Record<McpTool['drift'], 'PASS' | 'WARN' | 'SKIP'>> = {
  UNCHANGED: 'PASS',
  FIRST_OBSERVATION: 'SKIP',
  PROFILE_CHANGED: 'SKIP',
  ADDED: 'WARN',
  CHANGED: 'WARN',
};

/** A tool's signal ids, each once: red words, or a dim `none`. */
function signalWords(tool: McpTool): Word[] {
  const ids = tool.riskSignals.map((s) => s.id).filter((id, i, all) => all.indexOf(id) === i);
  return ids.length > 0 ? words(ids.join(', '), 'bad') : [phrase('none', 'muted')];
}

/**
 * The tools as a table (tool, declared, heuristic, drift, signals) when every row fits the width
 * on one line or the signals column is wide enough to wrap in; otherwise each tool on a line of
 * its own with its classes, drift and signals wrapped under it, so nothing runs past the width.
 */
function toolRows(out: Report, tools: readonly McpTool[]): void {
  if (tools.length === 0) {
    out.line({ text: '  (no tools)' });
    return;
  }
  const rows = tools.map((tool) => ({
    tool,
    name: cut(tool.name, 32),
    declared: `${tool.declaredClass}${tool.annotations === null ? '*' : ''}`,
    signals: signalWords(tool),
  }));
  const nameWidth = Math.max(4, ...rows.map((r) => columns(r.name)));
  const declaredWidth = Math.max(8, ...rows.map((r) => columns(r.declared)));
  const heuristicWidth = Math.max(9, ...rows.map((r) => columns(r.tool.heuristicClass)));
  const driftWidth = Math.max(5, ...rows.map((r) => columns(r.tool.drift)));
  const signalsAt = 2 + nameWidth + 2 + declaredWidth + 2 + heuristicWidth + 2 + driftWidth + 2;
  const signalsWidth = (r: (typeof rows)[number]) => r.signals.reduce((n, w, i) => n + (i > 0 ? columns(w.gap ?? ' ') : 0) + columns(w.text), 0);
  // Signals wrap in their column when it is wide enough to read and to hold each signal id.
  const longest = Math.max(...rows.flatMap((r) => r.signals.map((w) => columns(w.text))));
  const table =
    rows.every((r) => signalsAt + Math.max(columns('signals'), signalsWidth(r)) <= out.width) ||
    out.width - signalsAt >= Math.max(MIN_TEXT_WIDTH, longest);
  if (table) {
    out.line({
      text: `  ${'tool'.padEnd(nameWidth)}  ${'declared'.padEnd(declaredWidth)}  ${'heuristic'.padEnd(heuristicWidth)}  ${'drift'.padEnd(driftWidth)}  signals`,
      tone: 'muted',
    });
    for (const r of rows) {
      const prefix: Line = [
        { text: `  ${r.name.padEnd(nameWidth)}  ${r.declared.padEnd(declaredWidth)}  ${r.tool.heuristicClass.padEnd(heuristicWidth)}  ` },
        { text: r.tool.drift.padEnd(driftWidth), tone: statusTone(DRIFT_TONE[r.tool.drift]) },
        { text: '  ' },
      ];
      out.hang(prefix, r.signals);
    }
  } else {
    for (const r of rows) {
      out.line({ text: `  ${r.name}` });
      // Each label keeps its value (the first signal) on its line.
      const label = (text: string): Word => phrase(text, 'muted', '  ');
      const value = (text: string, tone: Tone = 'plain'): Word => ({ ...phrase(text, tone), glue: true });
      const [firstSignal, ...otherSignals] = r.signals;
      out.hang('      ', [
        label('declared'),
        value(r.declared),
        label('heuristic'),
        value(r.tool.heuristicClass),
        label('drift'),
        value(r.tool.drift, statusTone(DRIFT_TONE[r.tool.drift])),
        label('signals'),
        { ...firstSignal!, glue: true },
        ...otherSignals,
      ]);
    }
  }
  if (tools.some((t) => t.annotations === null)) out.hang('  ', words('* no annotations: the MCP defaults apply (destructive, open world)', 'muted'), { indent: 4 });
}

function signalLines(out: Report, result: McpInspection): void {
  const mark: Line = [{ text: '  ' }, { text: '!', tone: 'bad' }, { text: ' ' }];
  const excerpt = (text: string) => out.hang('      ', words(`“${cut(text, 100)}”`, 'muted'));
  const any = result.tools.some((t) => t.riskSignals.length > 0) || result.instructionSignals.length > 0;
  if (!any) return;
  out.blank().line({ text: 'Risk signals (svc’s estimate, not the server’s claim)', bold: true });
  for (const tool of result.tools) {
    for (const signal of tool.riskSignals) {
      const where = signal.location === 'parameter' ? `parameter ${signal.parameter ?? ''}` : signal.location;
      out.hang(mark, `${cut(tool.name, 32)} · ${signal.id} in the ${printable(where)}: ${printable(signal.detail)}`, { indent: 4 });
      if (signal.excerpt) excerpt(signal.excerpt);
    }
  }
  for (const signal of result.instructionSignals) {
    out.hang(mark, `server instructions · ${signal.id}: ${printable(signal.detail)}`, { indent: 4 });
    if (signal.excerpt) excerpt(signal.excerpt);
  }
}

export function mcpText(result: McpInspection, style: Style, width: number = DEFAULT_WIDTH, accepted?: ReadonlySet<string>): string {
  const status = result.status === 'INSPECTED' && result.checks.some((c) => c.status === 'WARN') ? 'WARN' : result.status === 'INSPECTED' ? 'PASS' : 'WARN';
  const out = new Report(width);
  headlineLines(out, result.status, result.headline, statusTone(status));
  out.hang('  ', printable(result.endpoint));
  out.blank();
  const info = result.serverInfo;
  const name = info && typeof info['name'] === 'string' ? info['name'] : null;
  const version = info && typeof info['version'] === 'string' ? info['version'] : null;
  field(out, 'server', name ? `${name}${version ? ` ${version}` : ''} (self-reported)` : null);
  field(out, 'protocol', result.negotiatedVersion ? `${result.negotiatedVersion} (${result.mode.toLowerCase()})` : null);
  field(out, 'advertised', result.supportedVersions.length ? result.supportedVersions.join(', ') : null);
  field(out, 'inventory', result.inventoryHash ? `${result.inventoryHash} (${result.hashProfile})` : null);
  if (result.instructions) out.field('instructions', cut(result.instructions.replace(/\s+/g, ' '), 100), LABEL);
  if (result.auth) {
    if (!out.endsBlank) out.blank();
    out.line({ text: 'Authentication required', bold: true });
    field(out, 'status', String(result.auth.status));
    field(out, 'challenge', result.auth.wwwAuthenticate);
    field(out, 'scope', result.auth.scope);
    field(out, 'metadata', result.auth.resourceMetadataUrl);
    const metadata = result.auth.resourceMetadata;
    if (metadata) {
      const servers = Array.isArray(metadata['authorization_servers']) ? metadata['authorization_servers'].filter((s) => typeof s === 'string').join(', ') : null;
      field(out, 'resource', typeof metadata['resource'] === 'string' ? metadata['resource'] : null);
      field(out, 'auth servers', servers);
    } else field(out, 'metadata', result.auth.resourceMetadataError ? `not available: ${result.auth.resourceMetadataError}` : null);
  } else {
    out.blank().line({ text: `Tools (${result.tools.length}${result.complete ? '' : ', incomplete'})`, bold: true });
    toolRows(out, result.tools);
    const changed = result.tools.filter((t) => t.drift === 'CHANGED' && t.changedFields?.length);
    for (const tool of changed) out.hang('  ', words(`${cut(tool.name, 32)} changed: ${tool.changedFields!.join(', ')}`, 'muted'), { indent: 4 });
    if (result.drift.removed.length) {
      out.hang('  ', words(`removed since ${result.drift.previousObservedAt}: ${result.drift.removed.map((n) => cut(n, 40)).join(', ')}`, 'warn'), { indent: 4 });
    }
  }
  signalLines(out, result);
  out.blank().line({ text: 'Checks', bold: true });
  checkLines(out, result.checks, 18, accepted);
  limitationLines(out, result.limitations);
  return out.text(style);
}

export function a2aText(result: A2aInspection, style: Style, width: number = DEFAULT_WIDTH, accepted?: ReadonlySet<string>): string {
  const failed = result.checks.some((c) => c.status === 'FAIL');
  const warned = result.checks.some((c) => c.status === 'WARN');
  const word = failed ? 'FAIL' : warned ? 'WARN' : 'PASS';
  const out = new Report(width);
  headlineLines(out, word, result.headline);
  out.hang('  ', printable(result.cardUrl));
  out.blank();
  const provider = result.provider as { organization?: unknown; url?: unknown } | null;
  field(out, 'agent', result.name ? `${result.name}${result.version ? ` ${result.version}` : ''}` : null);
  field(out, 'spec', result.specVersion);
  field(out, 'provider', provider && typeof provider.organization === 'string' ? `${provider.organization}${typeof provider.url === 'string' ? ` (${provider.url})` : ''} (self-reported)` : null);
  field(out, 'card sha256', result.cardSha256);
  field(out, 'canonical', result.canonicalSha256);
  if (result.interfaces.length) {
    out.blank().line({ text: 'Interfaces', bold: true });
    for (const i of result.interfaces) {
      // The URL whole: an interface is copied from here, and a cut one would not work.
      const binding = [printable(i.protocolBinding ?? '?'), printable(i.protocolVersion ?? '')].filter((s) => s !== '').join(' ');
      out.hang('  ', [
        ...words(printable(i.url ?? '(no url)')),
        phrase(binding, 'plain', '  '),
        phrase(i.https ? 'https,' : 'not https,', i.https ? 'plain' : 'bad', '  '),
        phrase(i.sameOrigin ? 'same origin' : 'other origin', i.sameOrigin ? 'plain' : 'warn'),
      ], { indent: 4 });
    }
  }
  if (result.signatures.length) {
    out.blank().line({ text: 'Signatures', bold: true });
    for (const s of result.signatures) {
      const status = s.status === 'VALID' ? 'PASS' : s.status === 'INVALID' ? 'FAIL' : 'WARN';
      // The kid whole: it is often a DID URL, and a DID is never cut.
      out.hang([{ text: '  ' }, { text: s.status.padEnd(13), tone: statusTone(status) }, { text: ' ' }], [
        phrase(printable(s.alg ?? '?')),
        ...words(printable(s.kid ?? '(no kid)')),
        ...words(printable(s.detail)).map((w, n) => (n === 0 ? { ...w, gap: '  ' } : w)),
      ]);
    }
  }
  out.blank().line({ text: 'Checks', bold: true });
  checkLines(out, result.checks, 10, accepted);
  limitationLines(out, result.limitations);
  return out.text(style);
}
