/**
 * Plain-text (optionally coloured) reports of an MCP inspection and an A2A card inspection.
 * Everything a server or card says passes through `printable`: tool descriptions are exactly
 * where hostile servers put escape sequences and invisible characters.
 */
import type { A2aInspection } from '../../core/a2a/types.js';
import type { McpInspection, McpTool } from '../../core/mcp/types.js';
import { printable, type Style } from './dossier.js';
import { MARKS, tone } from './verification.js';

function cut(text: string, width: number): string {
  const shown = printable(text);
  return shown.length > width ? `${shown.slice(0, width - 1)}…` : shown;
}

function checkLines(checks: ReadonlyArray<{ id: string; status: 'PASS' | 'WARN' | 'FAIL' | 'SKIP'; detail: string }>, style: Style, width: number): string[] {
  return checks.map((check) => `  ${tone(style, check.status)(`${MARKS[check.status]} ${check.status.padEnd(5)}`)} ${check.id.padEnd(width)} ${printable(check.detail)}`);
}

function limitationLines(limitations: readonly string[], style: Style): string[] {
  if (limitations.length === 0) return [];
  return ['', style.dim('What this does not show'), ...limitations.map((l) => style.dim(`  · ${printable(l)}`))];
}

const DRIFT_TONE: Readonly<Record<McpTool['drift'], 'PASS' | 'WARN' | 'SKIP'>> = {
  UNCHANGED: 'PASS',
  FIRST_OBSERVATION: 'SKIP',
  PROFILE_CHANGED: 'SKIP',
  ADDED: 'WARN',
  CHANGED: 'WARN',
};

function toolRows(tools: readonly McpTool[], style: Style): string[] {
  if (tools.length === 0) return ['  (no tools)'];
  const nameWidth = Math.min(32, Math.max(4, ...tools.map((t) => printable(t.name).length)));
  const header = `  ${'tool'.padEnd(nameWidth)}  ${'declared'.padEnd(12)}  ${'heuristic'.padEnd(11)}  ${'drift'.padEnd(17)}  signals`;
  const lines = [style.dim(header)];
  for (const tool of tools) {
    const declared = `${tool.declaredClass}${tool.annotations === null ? '*' : ''}`;
    const signals = tool.riskSignals.length ? style.red(tool.riskSignals.map((s) => s.id).filter((id, i, all) => all.indexOf(id) === i).join(', ')) : style.dim('none');
    lines.push(
      `  ${cut(tool.name, nameWidth).padEnd(nameWidth)}  ${declared.padEnd(12)}  ${tool.heuristicClass.padEnd(11)}  ${tone(style, DRIFT_TONE[tool.drift])(tool.drift.padEnd(17))}  ${signals}`,
    );
  }
  if (tools.some((t) => t.annotations === null)) lines.push(style.dim('  * no annotations: the MCP defaults apply (destructive, open world)'));
  return lines;
}

function signalLines(result: McpInspection, style: Style): string[] {
  const lines: string[] = [];
  for (const tool of result.tools) {
    for (const signal of tool.riskSignals) {
      const where = signal.location === 'parameter' ? `parameter ${signal.parameter ?? ''}` : signal.location;
      lines.push(`  ${style.red('!')} ${cut(tool.name, 32)} · ${signal.id} in the ${printable(where)}: ${printable(signal.detail)}`);
      if (signal.excerpt) lines.push(style.dim(`      “${cut(signal.excerpt, 100)}”`));
    }
  }
  for (const signal of result.instructionSignals) {
    lines.push(`  ${style.red('!')} server instructions · ${signal.id}: ${printable(signal.detail)}`);
    if (signal.excerpt) lines.push(style.dim(`      “${cut(signal.excerpt, 100)}”`));
  }
  return lines.length ? ['', style.bold('Risk signals (svc’s estimate, not the server’s claim)'), ...lines] : [];
}

export function mcpText(result: McpInspection, style: Style): string {
  const status = result.status === 'INSPECTED' && result.checks.some((c) => c.status === 'WARN') ? 'WARN' : result.status === 'INSPECTED' ? 'PASS' : 'WARN';
  const lines = [`${style.bold(tone(style, status)(result.status))}  ${printable(result.headline)}`, `  ${printable(result.endpoint)}`, ''];
  const info = result.serverInfo;
  const name = info && typeof info['name'] === 'string' ? info['name'] : null;
  const version = info && typeof info['version'] === 'string' ? info['version'] : null;
  const field = (label: string, value: string | null) => (value ? [`  ${label.padEnd(12)} ${printable(value)}`] : []);
  lines.push(
    ...field('server', name ? `${name}${version ? ` ${version}` : ''} (self-reported)` : null),
    ...field('protocol', result.negotiatedVersion ? `${result.negotiatedVersion} (${result.mode.toLowerCase()})` : null),
    ...field('advertised', result.supportedVersions.length ? result.supportedVersions.join(', ') : null),
    ...field('inventory', result.inventoryHash ? `${result.inventoryHash} (${result.hashProfile})` : null),
  );
  if (result.instructions) lines.push(`  ${'instructions'.padEnd(12)} ${cut(result.instructions.replace(/\s+/g, ' '), 100)}`);
  if (result.auth) {
    if (lines[lines.length - 1] !== '') lines.push('');
    lines.push(style.bold('Authentication required'));
    lines.push(...field('status', String(result.auth.status)), ...field('challenge', result.auth.wwwAuthenticate), ...field('scope', result.auth.scope));
    lines.push(...field('metadata', result.auth.resourceMetadataUrl));
    const metadata = result.auth.resourceMetadata;
    if (metadata) {
      const servers = Array.isArray(metadata['authorization_servers']) ? metadata['authorization_servers'].filter((s) => typeof s === 'string').join(', ') : null;
      lines.push(...field('resource', typeof metadata['resource'] === 'string' ? metadata['resource'] : null), ...field('auth servers', servers));
    } else lines.push(...field('metadata', result.auth.resourceMetadataError ? `not available: ${result.auth.resourceMetadataError}` : null));
  } else {
    lines.push('', style.bold(`Tools (${result.tools.length}${result.complete ? '' : ', incomplete'})`), ...toolRows(result.tools, style));
    const changed = result.tools.filter((t) => t.drift === 'CHANGED' && t.changedFields?.length);
    for (const tool of changed) lines.push(style.dim(`  ${cut(tool.name, 32)} changed: ${tool.changedFields!.join(', ')}`));
    if (result.drift.removed.length) lines.push(style.yellow(`  removed since ${result.drift.previousObservedAt}: ${result.drift.removed.map((n) => cut(n, 40)).join(', ')}`));
  }
  lines.push(...signalLines(result, style));
  lines.push('', style.bold('Checks'), ...checkLines(result.checks, style, 18));
  lines.push(...limitationLines(result.limitations, style));
  return `${lines.join('\n')}\n`;
}

export function a2aText(result: A2aInspection, style: Style): string {
  const failed = result.checks.some((c) => c.status === 'FAIL');
  const warned = result.checks.some((c) => c.status === 'WARN');
  const word = failed ? 'FAIL' : warned ? 'WARN' : 'PASS';
  const lines = [`${style.bold(tone(style, word)(word))}  ${printable(result.headline)}`, `  ${printable(result.cardUrl)}`, ''];
  const field = (label: string, value: string | null | undefined) => (value ? [`  ${label.padEnd(12)} ${printable(value)}`] : []);
  const provider = result.provider as { organization?: unknown; url?: unknown } | null;
  lines.push(
    ...field('agent', result.name ? `${result.name}${result.version ? ` ${result.version}` : ''}` : null),
    ...field('spec', result.specVersion),
    ...field('provider', provider && typeof provider.organization === 'string' ? `${provider.organization}${typeof provider.url === 'string' ? ` (${provider.url})` : ''} (self-reported)` : null),
    ...field('card sha256', result.cardSha256),
    ...field('canonical', result.canonicalSha256),
  );
  if (result.interfaces.length) {
    lines.push('', style.bold('Interfaces'));
    for (const i of result.interfaces) {
      const flags = [i.https ? 'https' : style.red('not https'), i.sameOrigin ? 'same origin' : style.yellow('other origin')].join(', ');
      lines.push(`  ${cut(i.url ?? '(no url)', 60)}  ${printable(i.protocolBinding ?? '?')} ${printable(i.protocolVersion ?? '')}  ${flags}`);
    }
  }
  if (result.signatures.length) {
    lines.push('', style.bold('Signatures'));
    for (const s of result.signatures) {
      const status = s.status === 'VALID' ? 'PASS' : s.status === 'INVALID' ? 'FAIL' : 'WARN';
      lines.push(`  ${tone(style, status)(s.status.padEnd(13))} ${printable(s.alg ?? '?')} ${cut(s.kid ?? '(no kid)', 60)}  ${printable(s.detail)}`);
    }
  }
  lines.push('', style.bold('Checks'), ...checkLines(result.checks, style, 10));
  lines.push(...limitationLines(result.limitations, style));
  return `${lines.join('\n')}\n`;
}
