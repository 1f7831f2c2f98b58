/**
 * Plain-text (optionally coloured) reports of an MCP inspection and an A2A card inspection, laid
 * out for a width with the shared layout (cmdutil/layout.ts). Everything a server or card says passes
 * through `printable`: tool descriptions are exactly where hostile servers put escape sequences
 * and invisible characters. An MCP report has a section per listing — Tools, then Prompts,
 * Resources and Resource templates when the server declared them or listed any — in one table
 * style (itemTable).
 */
import type { A2aInspection } from '../../../core/a2a/types.js';
import type { ItemKind, McpInspection, McpPrompt, McpResource, McpResourceTemplate, McpTool, RiskSignal } from '../../../core/mcp/types.js';
import { printable, type Tone } from '../../../present/text.js';
import { DEFAULT_WIDTH, MIN_TEXT_WIDTH, Report, columns, phrase, words, type Line, type Span, type Style, type Word } from '../../cmdutil/layout.js';
import { isAccepted } from '../../cmdutil/checks.js';
import { MARKS, checkPrefix, headlineLines, limitationLines, statusTone } from '../../cmdutil/check-report.js';

/** Server text that is only quoted (a tool name in a sentence, an excerpt) is cut to `width` characters; --json has it whole. */
function cut(text: string, width: number): string {
  const shown = [...printable(text)];
  return shown.length > width ? `${shown.slice(0, width - 1).join('')}…` : shown.join('');
}

/**
 * A URI or URI template cut in the middle to `width` characters: resources of one server often
 * share a long prefix, and what tells them apart is at the end.
 */
function cutMiddle(text: string, width: number): string {
  const shown = [...printable(text)];
  if (shown.length <= width) return shown.join('');
  const head = Math.min(16, Math.floor((width - 1) / 2));
  return `${shown.slice(0, head).join('')}…${shown.slice(shown.length - (width - 1 - head)).join('')}`;
}

/** Width of the field labels (`  inventory    …`). */
const LABEL = 12;

const field = (out: Report, label: string, value: string | null | undefined): Report => out.field(label, value ? printable(value) : null, LABEL);

/**
 * One line per check; a WARN accepted with --allow-warn is still shown as WARN, its detail
 * opened by "accepted (--allow-warn):".
 */
function checkLines(
  out: Report,
  checks: ReadonlyArray<{ id: string; status: 'PASS' | 'WARN' | 'FAIL' | 'SKIP'; detail: string }>,
  idWidth: number,
  accepted?: ReadonlySet<string>,
): void {
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

/** An item's signal ids, each once: red words, or a dim `none`. */
function signalWords(signals: readonly RiskSignal[]): Word[] {
  const ids = signals.map((s) => s.id).filter((id, i, all) => all.indexOf(id) === i);
  return ids.length > 0 ? words(ids.join(', '), 'bad') : [phrase('none', 'muted')];
}

/** One row of an item table: the item's name (or URI), the columns after it, and its signals. */
interface ItemRow {
  name: string;
  cells: ReadonlyArray<{ text: string; tone?: Tone }>;
  signals: Word[];
}

/**
 * Items as a table (`headers` name the columns before `signals`) when every row fits the width on
 * one line or the signals column is wide enough to wrap in; otherwise each item on a line of its
 * own with its columns and signals wrapped under it, so nothing runs past the width.
 */
function itemTable(out: Report, headers: readonly string[], rows: readonly ItemRow[]): void {
  const widths = headers.map((header, i) => Math.max(columns(header), ...rows.map((r) => columns(i === 0 ? r.name : r.cells[i - 1]!.text))));
  const signalsAt = widths.reduce((n, w) => n + 2 + w, 0) + 2;
  const signalsWidth = (r: ItemRow) => r.signals.reduce((n, w, i) => n + (i > 0 ? columns(w.gap ?? ' ') : 0) + columns(w.text), 0);
  // Signals wrap in their column when it is wide enough to read and to hold each signal id.
  const longest = Math.max(...rows.flatMap((r) => r.signals.map((w) => columns(w.text))));
  const table =
    rows.every((r) => signalsAt + Math.max(columns('signals'), signalsWidth(r)) <= out.width) || out.width - signalsAt >= Math.max(MIN_TEXT_WIDTH, longest);
  if (table) {
    out.line({ text: `  ${headers.map((header, i) => header.padEnd(widths[i]!)).join('  ')}  signals`, tone: 'muted' });
    for (const r of rows) {
      const prefix: Line = [{ text: `  ${r.name.padEnd(widths[0]!)}  ` }];
      r.cells.forEach((cell, i) => prefix.push({ text: cell.text.padEnd(widths[i + 1]!), ...(cell.tone ? { tone: cell.tone } : {}) }, { text: '  ' }));
      // Signals that fit beside the row stay on it, however narrow their column (hang would
      // move a column under MIN_TEXT_WIDTH below the row); longer ones wrap in their column.
      if (signalsAt + signalsWidth(r) <= out.width) out.line(...prefix, ...r.signals.flatMap((w, i): Span[] => (i === 0 ? [w] : [{ text: w.gap ?? ' ' }, w])));
      else out.hang(prefix, r.signals);
    }
    return;
  }
  for (const r of rows) {
    out.line({ text: `  ${r.name}` });
    // Each label keeps its value (the first signal) on its line.
    const label = (text: string): Word => phrase(text, 'muted', '  ');
    const value = (text: string, tone: Tone = 'plain'): Word => ({ ...phrase(text, tone), glue: true });
    const [firstSignal, ...otherSignals] = r.signals;
    out.hang('      ', [
      ...r.cells.flatMap((cell, i) => [label(headers[i + 1]!), value(cell.text, cell.tone)]),
      label('signals'),
      { ...firstSignal!, glue: true },
      ...otherSignals,
    ]);
  }
}

/** The drift column of a row. */
function driftCell(drift: McpTool['drift']): { text: string; tone: Tone } {
  return { text: drift, tone: statusTone(DRIFT_TONE[drift]) };
}

/** The tools: tool, declared, heuristic, drift, signals. */
function toolRows(out: Report, tools: readonly McpTool[]): void {
  if (tools.length === 0) {
    out.line({ text: '  (no tools)' });
    return;
  }
  const rows = tools.map((tool) => ({
    name: cut(tool.name, 32),
    cells: [{ text: `${tool.declaredClass}${tool.annotations === null ? '*' : ''}` }, { text: tool.heuristicClass }, driftCell(tool.drift)],
    signals: signalWords(tool.riskSignals),
  }));
  itemTable(out, ['tool', 'declared', 'heuristic', 'drift'], rows);
  if (tools.some((t) => t.annotations === null))
    out.hang('  ', words('* no annotations: the MCP defaults apply (destructive, open world)', 'muted'), { indent: 4 });
}

type ListedItem = McpPrompt | McpResource | McpResourceTemplate;

/** How each kind is shown: its section title, the noun of its rows, its key and how wide a key is shown. */
const ITEM_SECTIONS: ReadonlyArray<{
  kind: ItemKind;
  title: string;
  noun: string;
  capability: string;
  keyOf: (item: ListedItem) => string;
  shown: (key: string) => string;
}> = [
  { kind: 'prompts', title: 'Prompts', noun: 'prompt', capability: 'prompts', keyOf: (item) => (item as McpPrompt).name, shown: (key) => cut(key, 32) },
  {
    kind: 'resources',
    title: 'Resources',
    noun: 'resource',
    capability: 'resources',
    keyOf: (item) => (item as McpResource).uri,
    shown: (key) => cutMiddle(key, 40),
  },
  {
    kind: 'resourceTemplates',
    title: 'Resource templates',
    noun: 'template',
    capability: 'resources',
    keyOf: (item) => (item as McpResourceTemplate).uriTemplate,
    shown: (key) => cutMiddle(key, 40),
  },
];

/** The sections of prompts, resources and templates: each when listed or declared, with changes and removals. */
function itemSections(out: Report, result: McpInspection): void {
  for (const section of ITEM_SECTIONS) {
    const items: readonly ListedItem[] = result[section.kind];
    const declared =
      result.capabilities !== null && typeof result.capabilities[section.capability] === 'object' && result.capabilities[section.capability] !== null;
    if (items.length === 0 && !declared) continue;
    out.blank().line({ text: `${section.title} (${items.length})`, bold: true });
    if (items.length === 0) out.line({ text: `  (no ${section.title.toLowerCase()})` });
    else {
      const rows = items.map((item) => {
        const cells: Array<{ text: string; tone?: Tone }> = [];
        if (section.kind === 'prompts') cells.push({ text: String((item as McpPrompt).arguments.length) });
        cells.push(driftCell(item.drift));
        return { name: section.shown(section.keyOf(item)), cells, signals: signalWords(item.riskSignals) };
      });
      itemTable(out, section.kind === 'prompts' ? [section.noun, 'args', 'drift'] : [section.noun, 'drift'], rows);
    }
    for (const item of items) {
      if (item.drift === 'CHANGED' && item.changedFields?.length) {
        out.hang('  ', words(`${section.shown(section.keyOf(item))} changed: ${item.changedFields.join(', ')}`, 'muted'), { indent: 4 });
      }
    }
    const removed = result.drift[section.kind].removed;
    if (removed.length) out.hang('  ', words(`${removedWords(result)}: ${removed.map(section.shown).join(', ')}`, 'warn'), { indent: 4 });
  }
}

/** How a report introduces the keys removed: since the last observation, or from the approved baseline. */
function removedWords(result: McpInspection): string {
  return result.drift.baseline ? 'removed from the approved baseline' : `removed since ${result.drift.previousObservedAt}`;
}

/** Where a signal was found, as a report says it (`in the description`, `in the parameter x`). */
function whereOf(signal: RiskSignal, parameterWord: string): string {
  return signal.location === 'parameter' ? `${parameterWord} ${signal.parameter ?? ''}` : signal.location;
}

function signalLines(out: Report, result: McpInspection): void {
  const mark: Line = [{ text: '  ' }, { text: '!', tone: 'bad' }, { text: ' ' }];
  const excerpt = (text: string) => out.hang('      ', words(`“${cut(text, 100)}”`, 'muted'));
  const items = ITEM_SECTIONS.flatMap((section) => (result[section.kind] as readonly ListedItem[]).map((item) => ({ section, item })));
  const any =
    result.tools.some((t) => t.riskSignals.length > 0) || items.some(({ item }) => item.riskSignals.length > 0) || result.instructionSignals.length > 0;
  if (!any) return;
  out.blank().line({ text: 'Risk signals (svc’s estimate, not the server’s claim)', bold: true });
  const line = (who: string, signal: RiskSignal, parameterWord: string) => {
    out.hang(mark, `${who} · ${signal.id} in the ${printable(whereOf(signal, parameterWord))}: ${printable(signal.detail)}`, { indent: 4 });
    if (signal.excerpt) excerpt(signal.excerpt);
  };
  for (const tool of result.tools) for (const signal of tool.riskSignals) line(cut(tool.name, 32), signal, 'parameter');
  for (const { section, item } of items) {
    for (const signal of item.riskSignals) line(`${section.noun} ${section.shown(section.keyOf(item))}`, signal, 'argument');
  }
  for (const signal of result.instructionSignals) {
    out.hang(mark, `server instructions · ${signal.id}: ${printable(signal.detail)}`, { indent: 4 });
    if (signal.excerpt) excerpt(signal.excerpt);
  }
}

export function mcpText(result: McpInspection, style: Style, width: number = DEFAULT_WIDTH, accepted?: ReadonlySet<string>): string {
  const status =
    result.status !== 'INSPECTED'
      ? 'WARN'
      : result.checks.some((c) => c.status === 'FAIL')
        ? 'FAIL'
        : result.checks.some((c) => c.status === 'WARN')
          ? 'WARN'
          : 'PASS';
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
  const baseline = result.drift.baseline;
  if (baseline) {
    field(
      out,
      'baseline',
      `${baseline.file}${baseline.name === baseline.file ? '' : ` (${baseline.name})`}${baseline.entrySha256 === null ? ': not approved yet' : ''}`,
    );
    if (baseline.server.length) out.hang('  ', words(`server changed: ${baseline.server.join(', ')}`, 'bad'), { indent: 4 });
  }
  if (result.auth) {
    if (!out.endsBlank) out.blank();
    out.line({ text: 'Authentication required', bold: true });
    field(out, 'status', String(result.auth.status));
    field(out, 'challenge', result.auth.wwwAuthenticate);
    field(out, 'scope', result.auth.scope);
    field(out, 'metadata', result.auth.resourceMetadataUrl);
    const metadata = result.auth.resourceMetadata;
    if (metadata) {
      const servers = Array.isArray(metadata['authorization_servers'])
        ? metadata['authorization_servers'].filter((s) => typeof s === 'string').join(', ')
        : null;
      field(out, 'resource', typeof metadata['resource'] === 'string' ? metadata['resource'] : null);
      field(out, 'auth servers', servers);
    } else field(out, 'metadata', result.auth.resourceMetadataError ? `not available: ${result.auth.resourceMetadataError}` : null);
  } else {
    out.blank().line({ text: `Tools (${result.tools.length}${result.complete ? '' : ', incomplete'})`, bold: true });
    toolRows(out, result.tools);
    const changed = result.tools.filter((t) => t.drift === 'CHANGED' && t.changedFields?.length);
    for (const tool of changed) out.hang('  ', words(`${cut(tool.name, 32)} changed: ${tool.changedFields!.join(', ')}`, 'muted'), { indent: 4 });
    if (result.drift.removed.length) {
      out.hang('  ', words(`${removedWords(result)}: ${result.drift.removed.map((n) => cut(n, 40)).join(', ')}`, 'warn'), { indent: 4 });
    }
    itemSections(out, result);
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
  field(
    out,
    'provider',
    provider && typeof provider.organization === 'string'
      ? `${provider.organization}${typeof provider.url === 'string' ? ` (${provider.url})` : ''} (self-reported)`
      : null,
  );
  field(out, 'card sha256', result.cardSha256);
  field(out, 'canonical', result.canonicalSha256);
  if (result.interfaces.length) {
    out.blank().line({ text: 'Interfaces', bold: true });
    for (const i of result.interfaces) {
      // The URL whole: an interface is copied from here, and a cut one would not work.
      const binding = [printable(i.protocolBinding ?? '?'), printable(i.protocolVersion ?? '')].filter((s) => s !== '').join(' ');
      out.hang(
        '  ',
        [
          ...words(printable(i.url ?? '(no url)')),
          phrase(binding, 'plain', '  '),
          phrase(i.https ? 'https,' : 'not https,', i.https ? 'plain' : 'bad', '  '),
          phrase(i.sameOrigin ? 'same origin' : 'other origin', i.sameOrigin ? 'plain' : 'warn'),
        ],
        { indent: 4 },
      );
    }
  }
  if (result.signatures.length) {
    out.blank().line({ text: 'Signatures', bold: true });
    for (const s of result.signatures) {
      const status = s.status === 'VALID' ? 'PASS' : s.status === 'INVALID' ? 'FAIL' : 'WARN';
      // The kid whole: it is often a DID URL, and a DID is never cut.
      out.hang(
        [{ text: '  ' }, { text: s.status.padEnd(13), tone: statusTone(status) }, { text: ' ' }],
        [
          phrase(printable(s.alg ?? '?')),
          ...words(printable(s.kid ?? '(no kid)')),
          ...words(printable(s.detail)).map((w, n) => (n === 0 ? { ...w, gap: '  ' } : w)),
        ],
      );
    }
  }
  out.blank().line({ text: 'Checks', bold: true });
  checkLines(out, result.checks, 10, accepted);
  limitationLines(out, result.limitations);
  return out.text(style);
}

/** One server of `svc inspect-mcp --config` (action.ts ConfiguredResult), as the text report needs it. */
export interface ConfiguredEntry {
  name: string;
  kind: string;
  command?: string;
  url?: string | null;
  result?: McpInspection;
  problem?: { code: string; detail?: string; title?: string };
  notRun?: string;
  removed?: string;
}

/**
 * `svc inspect-mcp --config`: each server's report in turn (a problem or "not run" as one line
 * with the command or URL), then a summary of one line per server with its exit code.
 */
export function configText(
  entries: readonly ConfiguredEntry[],
  exits: readonly number[],
  style: Style,
  width: number = DEFAULT_WIDTH,
  accepted?: ReadonlySet<string>,
): string {
  const parts: string[] = [];
  const summary = new Report(width);
  summary.line({ text: `Summary (${entries.length} ${entries.length === 1 ? 'server' : 'servers'})`, bold: true });
  entries.forEach((entry, index) => {
    const where = printable(entry.command ?? entry.url ?? '');
    const head = new Report(width);
    head.line({ text: `── ${printable(entry.name)} (${entry.kind}) `, bold: true });
    let outcome: string;
    let tone: Tone;
    if (entry.result) {
      parts.push(head.text(style) + mcpText(entry.result, style, width, accepted));
      outcome = entry.result.headline;
      tone = exits[index] === 0 ? 'good' : exits[index] === 1 ? 'bad' : 'warn';
    } else if (entry.problem) {
      head.hang('  ', where);
      head.hang('  ', words(`no answer: ${entry.problem.code}: ${printable(entry.problem.detail ?? entry.problem.title ?? '')}`, 'bad'));
      parts.push(head.text(style));
      outcome = `no answer (${entry.problem.code})`;
      tone = 'bad';
    } else if (entry.removed) {
      head.hang('  ', words(`removed: ${entry.removed}`, 'bad'));
      if (where) head.hang('  ', `${entry.kind === 'stdio' ? 'was' : 'url'}: ${where}`);
      parts.push(head.text(style));
      outcome = `removed: ${entry.removed}`;
      tone = 'bad';
    } else {
      head.hang('  ', words(`not run: ${entry.notRun ?? ''}`, 'warn'));
      if (where) head.hang('  ', `${entry.kind === 'stdio' ? 'would run' : 'url'}: ${where}`);
      parts.push(head.text(style));
      outcome = `not run: ${entry.notRun ?? ''}`;
      tone = 'warn';
    }
    summary.hang(`  ${exits[index]}  `, words(`${printable(entry.name)} (${entry.kind}): ${printable(outcome)}`, tone), { indent: 5 });
  });
  parts.push(summary.text(style));
  return parts.join('\n');
}
