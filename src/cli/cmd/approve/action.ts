/**
 * `svc mcp approve` and `svc a2a approve` (command.ts): inspect, compare with the entry in the
 * baseline file, print the difference, ask (or --yes), write. The inspection is inspect-mcp's and
 * inspect-a2a's own (their action.ts), with a baseline comparison whose `capture` hands back the
 * inventory as an entry; nothing is stored.
 */
import { jcsSha256 } from '../../../core/canonical.js';
import type { McpBaselineServer, BaselineComparison, McpBaseline } from '../../../core/mcp/baseline.js';
import type { A2aBaselineAgent } from '../../../core/a2a/baseline.js';
import type { Kind } from '../../../core/mcp/drift.js';
import type { InventoryDrift, McpInspection } from '../../../core/mcp/types.js';
import type { A2aBaselineComparison, A2aInspection } from '../../../core/a2a/types.js';
import { printable } from '../../../present/text.js';
import { plural } from '../../../core/text.js';
import { createRuntime } from '../../../runtime/node.js';
import { emitReport } from '../../cmdutil/emit.js';
import { usageError } from '../../cmdutil/errors.js';
import { EXIT, type ExitCode } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { resolveFormat } from '../../cmdutil/output-options.js';
import type { InspectMcpOptions } from '../inspect/options.js';
import type { LoadedBaseline } from '../inspect/baseline.js';
import type { ApproveA2aOptions, ApproveMcpOptions } from './options.js';

/** What approval does to one entry of the file. */
export type ApprovalStatus = 'NEW' | 'CHANGED' | 'UNCHANGED' | 'REMOVED' | 'NOT_APPROVED';

/** One server (or card) of an approval, as --json prints it. */
export interface ApprovalEntry {
  name: string;
  target: string;
  status: ApprovalStatus;
  /** What the inspection said (its headline); absent for a server removed or not run. */
  headline?: string;
  /** Why it was not approved (NOT_APPROVED), or removed (REMOVED). */
  reason?: string;
  /** The difference from the approved entry (MCP: the inventory's drift against it; A2A: the comparison). */
  drift?: InventoryDrift | A2aBaselineComparison;
}

/** What --json prints: the file, whether approving changes it, and each entry. */
export interface Approval {
  file: string;
  changes: boolean;
  entries: ApprovalEntry[];
}

/** An approval ready to be written: what it prints, and the new text of the file when it changes it. */
interface Plan {
  approval: Approval;
  exitCode: ExitCode;
  /** The file's new bytes; null when nothing changes (the file is left untouched). */
  text: string | null;
  lines: string[];
}

const KIND_NOUN: Readonly<Record<Kind, string>> = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'resource template' };
const KINDS: readonly Kind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

const q = (text: string) => JSON.stringify(printable(text.length > 80 ? `${text.slice(0, 77)}...` : text));

/** The lines of an MCP entry's difference: + added, ~ changed (members), - removed, ~ serverInfo / instructions / target. */
function mcpDifference(inspection: McpInspection): string[] {
  const lines: string[] = [];
  const drift = inspection.drift;
  for (const kind of KINDS) {
    const member = kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name';
    const items = inspection[kind] as ReadonlyArray<{ drift: string; changedFields?: string[]; name?: string | null; uri?: string; uriTemplate?: string }>;
    for (const item of items) {
      const key = item[member] as string;
      if (item.drift === 'ADDED') lines.push(`    + ${KIND_NOUN[kind]} ${q(key)}`);
      else if (item.drift === 'CHANGED')
        lines.push(`    ~ ${KIND_NOUN[kind]} ${q(key)}${item.changedFields?.length ? `: ${item.changedFields.join(', ')}` : ''}`);
    }
    for (const key of kind === 'tools' ? drift.removed : drift[kind].removed) lines.push(`    - ${KIND_NOUN[kind]} ${q(key)}`);
  }
  for (const member of drift.baseline?.server ?? []) lines.push(`    ~ ${member}`);
  return lines;
}

function a2aDifference(comparison: A2aBaselineComparison): string[] {
  const lines: string[] = [];
  const nouns = { skills: 'skill', interfaces: 'interface', signingKeys: 'signing key' } as const;
  for (const kind of ['skills', 'interfaces', 'signingKeys'] as const) {
    for (const key of comparison[kind].added) lines.push(`    + ${nouns[kind]} ${q(key)}`);
    for (const c of comparison[kind].changed) lines.push(`    ~ ${nouns[kind]} ${q(c.key)}: ${c.changedFields.join(', ')}`);
    for (const key of comparison[kind].removed) lines.push(`    - ${nouns[kind]} ${q(key)}`);
  }
  for (const member of comparison.card) lines.push(`    ~ card member ${q(member)}`);
  return lines;
}

/** `13 tools, 3 prompts, 7 resources`: the items of a new entry. */
function counts(entry: McpBaselineServer): string {
  return KINDS.filter((kind) => kind === 'tools' || Object.keys(entry[kind]).length > 0)
    .map((kind) => plural(Object.keys(entry[kind]).length, KIND_NOUN[kind]))
    .join(', ');
}

/** The report of an approval: per entry its status, then what differs. */
function planLines(file: string, entries: readonly ApprovalEntry[], details: ReadonlyMap<ApprovalEntry, string[]>): string[] {
  const lines = [`Baseline ${printable(file)}`];
  for (const entry of entries) {
    const head = `  ${q(entry.name)}: ${entry.status.replace('_', ' ')}${entry.reason ? ` (${printable(entry.reason)})` : ''}`;
    lines.push(head);
    if (entry.name !== entry.target) lines.push(`    ${printable(entry.target)}`);
    if (entry.headline && entry.status !== 'UNCHANGED' && entry.status !== 'REMOVED') lines.push(`    inspected: ${printable(entry.headline)}`);
    lines.push(...(details.get(entry) ?? []));
  }
  return lines;
}

/** Answers y/yes (any case) read from the terminal; anything else, or the end of input, is no. */
async function ask(io: CliIo, question: string): Promise<boolean> {
  io.stderr.write(question);
  const answer = await new Promise<string | null>((resolve) => {
    let text = '';
    const done = (value: string | null) => {
      process.stdin.off('data', onData);
      process.stdin.off('end', onEnd);
      process.stdin.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      text += String(chunk);
      const end = text.indexOf('\n');
      if (end >= 0) done(text.slice(0, end));
    };
    const onEnd = () => done(text === '' ? null : text);
    process.stdin.on('data', onData);
    process.stdin.on('end', onEnd);
    process.stdin.resume();
  });
  if (answer === null) io.stderr.write('\n');
  return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
}

/** Without --yes, svc asks on the terminal; with no terminal to ask on, it refuses before it runs anything. */
function canAsk(options: { yes?: boolean }, file: string): void {
  if (options.yes || process.stdin.isTTY) return;
  throw usageError(
    `standard input is not a terminal, so svc cannot ask before it writes ${printable(file)}`,
    'review the difference (svc inspect-mcp|inspect-a2a … --baseline) and approve with --yes',
  );
}

/**
 * Prints the approval (emitReport: text, --json), then — when the file changes — asks (or
 * --yes) and writes it. The exit code: the plan's (3 when an entry could not be approved), 1
 * when the answer is no.
 */
async function approve(
  io: CliIo,
  setExit: (code: number) => void,
  options: ApproveMcpOptions | ApproveA2aOptions,
  runtime: ReturnType<typeof createRuntime>,
  work: (hooks: import('../../../core/resolve/trace.js').StageHooks) => Promise<Plan>,
): Promise<void> {
  let plan: Plan | undefined;
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      plan = await work(hooks);
      const lines = plan.lines;
      return { value: plan.approval, exitCode: plan.exitCode, text: () => `${lines.join('\n')}\n` };
    },
    setExit,
  );
  if (plan === undefined) return;
  const file = printable(options.baseline);
  if (plan.text === null) {
    if (!options.quiet && plan.exitCode === EXIT.PASS) io.stderr.write(`svc: ${file} already approves this; nothing written\n`);
    return;
  }
  const approved = plan.approval.entries.filter((e) => e.status === 'NEW' || e.status === 'CHANGED' || e.status === 'REMOVED').length;
  if (!options.yes && !(await ask(io, `Approve ${plural(approved, 'change')} and write ${file}? [y/N] `))) {
    io.stderr.write(`svc: not approved; ${file} is unchanged\n`);
    setExit(EXIT.CHECK_FAILED);
    return;
  }
  const { writeBaseline } = await import('../inspect/baseline.js');
  await writeBaseline(options.baseline, plan.text);
  if (!options.quiet) io.stderr.write(`svc: wrote ${file} (${plural(approved, 'change')} approved)\n`);
}

/** The new entry's status against the approved one. */
function statusOf(before: { entry: unknown } | null, after: unknown): ApprovalStatus {
  if (before === null) return 'NEW';
  return jcsSha256(before.entry) === jcsSha256(after) ? 'UNCHANGED' : 'CHANGED';
}

/** The entry approved from a target, found without refusing (approve adds one when there is none). */
function findEntry(baseline: McpBaseline, target: string | null): { name: string; entry: McpBaselineServer } | null {
  const names = Object.keys(baseline.servers);
  if (target === null) return names.length === 1 ? { name: names[0]!, entry: baseline.servers[names[0]!]! } : null;
  const name = names.find((n) => baseline.servers[n]!.target === target);
  return name === undefined ? null : { name, entry: baseline.servers[name]! };
}

/** Why an inspection gave no entry to approve. */
function notApprovable(value: McpInspection): string {
  if (value.status === 'AUTH_REQUIRED') return 'the server requires authentication: nothing was listed';
  if (!value.complete) return `the listing is incomplete (${value.inventoryLimit ?? 'a limit stopped it'}): an incomplete inventory is never approved`;
  return "svc's own --json output carries fingerprints, not definitions: approve from the saved listing (tools/list … results) instead";
}

/** The file's new text, or null when it would not change (an empty new file is not written either). */
function newText(loaded: LoadedBaseline<unknown>, text: string, approvedAny: boolean): string | null {
  if (loaded.text === null) return approvedAny ? text : null;
  return text === loaded.text ? null : text;
}

export async function approveMcpAction(io: CliIo, setExit: (code: number) => void, words: string[], given: ApproveMcpOptions): Promise<void> {
  const options = resolveFormat(given);
  const [{ mcpTarget, readConfigServers }, pinned] = await Promise.all([import('../inspect/action.js'), import('../inspect/baseline.js')]);
  const inspectOptions: InspectMcpOptions = { ...options, store: false, env: options.env ?? [] };
  const target = mcpTarget(words, inspectOptions);
  const servers = target.kind === 'config' ? await readConfigServers(target.file) : null;
  const bytes =
    target.kind === 'file'
      ? await (await import('../../cmdutil/source.js')).readSourceBytes(
          target.file,
          'saved inventory',
          (await import('../../../core/mcp/types.js')).MCP_LIMITS.maxResponseBytes,
        )
      : undefined;
  canAsk(options, options.baseline);
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  const [mcp, core] = await Promise.all([import('../../../core/mcp/baseline.js'), import('../../../core/mcp/inspect.js')]);

  return approve(io, setExit, options, runtime, async (hooks) => {
    const loaded = await pinned.loadMcpBaseline(options.baseline, true);
    let baseline = loaded.baseline;
    const entries: ApprovalEntry[] = [];
    const details = new Map<ApprovalEntry, string[]>();
    let approvedAny = false;
    let exitCode: ExitCode = EXIT.PASS;

    /** One inspected server: its entry approved (or why not), the baseline updated. */
    const take = (name: string, before: { name: string; entry: McpBaselineServer } | null, value: McpInspection, captured: McpBaselineServer | undefined) => {
      if (captured === undefined) {
        const entry: ApprovalEntry = { name, target: value.endpoint, status: 'NOT_APPROVED', headline: value.headline, reason: notApprovable(value) };
        entries.push(entry);
        exitCode = EXIT.INDETERMINATE;
        return;
      }
      const entry: ApprovalEntry = { name, target: captured.target, status: statusOf(before, captured), headline: value.headline, drift: value.drift };
      entries.push(entry);
      details.set(entry, entry.status === 'NEW' ? [`    + ${counts(captured)}`] : mcpDifference(value));
      baseline = mcp.withEntry(baseline, name, captured);
      approvedAny = true;
    };

    if (servers !== null) {
      const captured = new Map<string, McpBaselineServer>();
      const { inspectConfigured } = await import('../inspect/action.js');
      const perServer = (server: { name: string }) => {
        const comparison: BaselineComparison = {
          file: loaded.shown,
          name: server.name,
          entry: Object.hasOwn(loaded.baseline.servers, server.name) ? loaded.baseline.servers[server.name]! : null,
          compareTarget: true,
          capture: (entry) => captured.set(server.name, entry),
        };
        return { baseline: comparison };
      };
      const inspected = await inspectConfigured(io, servers, inspectOptions, { runtime, hooks }, {}, perServer);
      for (const result of inspected.entries) {
        const before = Object.hasOwn(loaded.baseline.servers, result.name) ? { name: result.name, entry: loaded.baseline.servers[result.name]! } : null;
        if (result.result) take(result.name, before, result.result, captured.get(result.name));
        else {
          const why = result.problem ? `no answer: ${result.problem.code}` : (result.notRun ?? 'not inspected');
          entries.push({
            name: result.name,
            target: result.url ?? result.command ?? '',
            status: 'NOT_APPROVED',
            reason: `${why}${before ? '; its approved entry is kept' : ''}`,
          });
          exitCode = EXIT.INDETERMINATE;
        }
      }
      const gone = Object.keys(loaded.baseline.servers).filter((name) => !servers.some((server) => server.name === name));
      for (const name of gone) {
        entries.push({ name, target: loaded.baseline.servers[name]!.target, status: 'REMOVED', reason: 'the configuration no longer names it' });
        approvedAny = true;
      }
      baseline = mcp.withoutEntries(baseline, gone);
    } else {
      const saved = target.kind === 'file' ? await (await import('../inspect/action.js')).savedInventory(target.file, bytes!) : undefined;
      const key =
        target.kind === 'url'
          ? core.parseEndpoint(target.url).href
          : target.kind === 'stdio'
            ? (await import('../../../core/mcp/stdio.js')).stdioEndpoint(target.command, target.args)
            : saved!.endpoint;
      const before = findEntry(loaded.baseline, key);
      const name = before?.name ?? key ?? saved!.location;
      let captured: McpBaselineServer | undefined;
      const comparison: BaselineComparison = { file: loaded.shown, name, entry: before?.entry ?? null, capture: (entry) => (captured = entry) };
      const common = { runtime, hooks, baseline: comparison };
      let value: McpInspection;
      if (target.kind === 'url') value = await core.inspectMcp(target.url, common);
      else if (target.kind === 'stdio')
        value = await (await import('../inspect/action.js')).inspectStdio(io, { command: target.command, args: target.args, env: {} }, inspectOptions, common);
      else value = await core.inspectSavedMcp(saved!, common);
      if (captured && saved && before) {
        // A saved listing stands for the server approved before: its target is kept, and so are the
        // server's own words when the file has none (no initialize result).
        const words = saved.serverInfo !== null || saved.capabilities !== null;
        captured = {
          ...captured,
          target: before.entry.target,
          ...(words ? {} : { serverInfo: before.entry.serverInfo, instructions: before.entry.instructions }),
        };
      }
      take(name, before, value, captured);
    }
    const text = newText(loaded, mcp.mcpBaselineText(baseline), approvedAny);
    const approval: Approval = { file: loaded.shown, changes: text !== null, entries };
    return { approval, exitCode, text, lines: planLines(loaded.shown, entries, details) };
  });
}

export async function approveA2aAction(io: CliIo, setExit: (code: number) => void, url: string | undefined, given: ApproveA2aOptions): Promise<void> {
  const options = resolveFormat(given);
  const [{ cardInspection }, pinned, a2a] = await Promise.all([
    import('../inspect/action.js'),
    import('../inspect/baseline.js'),
    import('../../../core/a2a/baseline.js'),
  ]);
  const card = await cardInspection(io, url, { ...options });
  canAsk(options, options.baseline);
  return approve(io, setExit, options, card.runtime, async (hooks) => {
    const loaded = await pinned.loadA2aBaseline(options.baseline, true);
    const value: A2aInspection = await card.inspect(hooks);
    const entry: A2aBaselineAgent = a2a.a2aEntryOf(value);
    const names = Object.keys(loaded.baseline.agents);
    const name = names.find((n) => loaded.baseline.agents[n]!.cardUrl === value.cardUrl);
    const before = name === undefined ? null : { name, entry: loaded.baseline.agents[name]! };
    const key = before?.name ?? value.cardUrl;
    const compared = before ? a2a.compareA2aBaseline(value, { file: loaded.shown, ...before }) : null;
    const approvalEntry: ApprovalEntry = {
      name: key,
      target: value.cardUrl,
      status: statusOf(before, entry),
      headline: value.headline,
      ...(compared?.baseline ? { drift: compared.baseline } : {}),
    };
    const details = new Map<ApprovalEntry, string[]>([
      [
        approvalEntry,
        compared?.baseline
          ? a2aDifference(compared.baseline)
          : [
              `    + ${plural(Array.isArray(entry.card['skills']) ? entry.card['skills'].length : 0, 'skill')}, ${plural(value.interfaces.length, 'interface')}, ${plural(Object.keys(entry.signingKeys).length, 'signing key')}`,
            ],
      ],
    ]);
    const text = newText(loaded, a2a.a2aBaselineText(a2a.withAgent(loaded.baseline, key, entry)), true);
    return {
      approval: { file: loaded.shown, changes: text !== null, entries: [approvalEntry] },
      exitCode: EXIT.PASS,
      text,
      lines: planLines(loaded.shown, [approvalEntry], details),
    };
  });
}
