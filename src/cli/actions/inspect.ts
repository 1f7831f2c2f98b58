/** `svc inspect-mcp` and `svc inspect-a2a`: their work, loaded when one runs (their options: commands/inspect.ts). */
import { A2A_CHECK_IDS, type A2aInspection } from '../../core/a2a/types.js';
import { MCP_CHECK_IDS, type McpInspection } from '../../core/mcp/types.js';
import type { StageHooks } from '../../core/resolve/trace.js';
import type { Runtime } from '../../core/runtime.js';
import { createRuntime } from '../../runtime/node.js';
import { exitForChecks, parseAllowWarn, withAcceptedWarnings, type WarnPolicy } from '../checks.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { ProblemError } from '../../core/problems.js';
import { databaseOption } from './database.js';
import { htmlDestination, writeHtmlFile } from './html-file.js';
import { printable } from '../output/layout.js';
import { usageError } from '../errors.js';
import { emitReport, type OutputOptions, type ReportOutcome, type SarifProblem } from '../output/emit.js';
import { a2aText, mcpText } from '../output/inspection.js';
import { resolveFormat } from '../output/options.js';

/** AUTH_REQUIRED is 3 whatever --strict or --allow-warn say (nothing was listed); else the checks decide. */
export function exitForMcp(result: McpInspection, policy: WarnPolicy = {}): ExitCode {
  if (result.status === 'AUTH_REQUIRED') return EXIT.INDETERMINATE;
  return exitForChecks(result.checks, policy);
}

export function exitForA2a(result: A2aInspection, policy: WarnPolicy = {}): ExitCode {
  return exitForChecks(result.checks, policy);
}

export interface InspectOptions extends OutputOptions {
  strict?: boolean;
  /** --allow-warn, as given (each value may list several ids). */
  allowWarn?: string[];
  egressAllow: string[];
}

export interface InspectMcpOptions extends InspectOptions {
  db?: string;
  store: boolean;
  /** --html <file>: also write the inspection (or its problem) as one self-contained page. */
  html?: string;
}

/**
 * Opens the embedded store for drift (better-sqlite3 loads only here). A store that cannot be
 * opened costs the history, never the inspection: the reason becomes a historyPersistence WARN.
 */
async function withStore<T>(io: CliIo, options: InspectMcpOptions, runtime: Runtime, work: (storageUnavailable?: string) => Promise<T>): Promise<T> {
  if (!options.store) return work();
  let store: { close(): Promise<void> } | undefined;
  let reason: string | undefined;
  try {
    const { openDatabase } = await import('../../store/database.js');
    const opened = await openDatabase({ target: databaseOption(options.db, io.env) });
    runtime.store = opened;
    store = opened;
  } catch (err) {
    reason = printable(err instanceof Error ? err.message.split('\n')[0]! : String(err));
  }
  try {
    return await work(reason);
  } finally {
    runtime.store = undefined;
    await store?.close();
  }
}


/**
 * One inspection: a Runtime with the command's egress allowance, then one report (--format sarif:
 * a SARIF log, sarif.ts — loaded only then; a problem's log names the command and its target).
 */
function run(
  io: CliIo,
  setExit: (code: number) => void,
  options: InspectOptions,
  target: { command: 'inspect-mcp' | 'inspect-a2a'; url: string },
  work: (runtime: Runtime, hooks: StageHooks, sarif: typeof import('../output/sarif.js') | null) => Promise<ReportOutcome<unknown>>,
  runtime: Runtime = createRuntime(io.env, { egressAllow: options.egressAllow }),
): Promise<void> {
  const sarif = options.format === 'sarif' ? import('../output/sarif.js') : null;
  let sarifProblem: SarifProblem | undefined;
  return emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const module = sarif ? await sarif : null;
      if (module) sarifProblem = (problem, exitCode) => module.problemSarif(target.command, target.url, problem, exitCode);
      return work(runtime, hooks, module);
    },
    setExit,
    (problem, exitCode) => sarifProblem?.(problem, exitCode),
  );
}

export async function inspectMcpAction(io: CliIo, setExit: (code: number) => void, endpoint: string, given: InspectMcpOptions): Promise<void> {
  const options = resolveFormat(given);
  const accepted = parseAllowWarn(options.allowWarn, MCP_CHECK_IDS, 'inspect-mcp');
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
  if (options.store) databaseOption(options.db, io.env);
  if (options.html !== undefined) await htmlDestination(options.html);
  return run(io, setExit, options, { command: 'inspect-mcp', url: endpoint }, async (runtime, hooks, sarif) => {
    const { inspectMcp } = await import('../../core/mcp/inspect.js');
    let value: McpInspection;
    try {
      value = await withStore(io, options, runtime, (storageUnavailable) =>
        inspectMcp(endpoint, { runtime, hooks, ...(storageUnavailable !== undefined ? { storageUnavailable } : {}) }),
      );
    } catch (err) {
      // The problem is written as a problem page, and still answered as usual (exit 4).
      if (options.html !== undefined && err instanceof ProblemError) {
        const web = await import('../../web/mcp.js');
        await writeHtmlFile(io, options.html, options.quiet === true, 'inspection page', web.mcpProblemPage(err, endpoint, 'offline'));
      }
      throw err;
    }
    if (options.html !== undefined) {
      const web = await import('../../web/mcp.js');
      await writeHtmlFile(io, options.html, options.quiet === true, 'inspection page', web.mcpPage({ result: value, mode: 'offline' }));
    }
    const exitCode = exitForMcp(value, { strict: options.strict, accepted });
    return {
      value: withAcceptedWarnings(value, accepted),
      exitCode,
      text: (style, width) => mcpText(value, style, width, accepted),
      ...(sarif ? { sarif: () => sarif.mcpSarif(value, { exitCode, accepted }) } : {}),
    };
  });
}

export interface InspectA2aOptions extends InspectOptions {
  /** Verify from files: the card, inspected as the one at the URL (actions/supplied.ts). */
  fromFile?: string;
  allowNetwork?: boolean;
}

export async function inspectA2aAction(io: CliIo, setExit: (code: number) => void, url: string | undefined, given: InspectA2aOptions): Promise<void> {
  const options = resolveFormat(given);
  const accepted = parseAllowWarn(options.allowWarn, A2A_CHECK_IDS, 'inspect-a2a');
  if (options.fromFile === undefined) {
    if (options.allowNetwork) throw usageError('--allow-network applies only with a file option (--from-file)');
    if (url === undefined) throw usageError("missing required argument 'url' (or --from-file <card>)");
    return run(io, setExit, options, { command: 'inspect-a2a', url }, async (runtime, hooks, sarif) => {
      const { inspectA2a } = await import('../../core/a2a/inspect.js');
      return a2aOutcome(await inspectA2a(url, { runtime, hooks }), options, accepted, sarif);
    });
  }
  const card = options.fromFile;
  const supplied = await import('./supplied.js');
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  const [file] = await supplied.readSuppliedFiles([{ kind: 'agentCard', target: url ?? '', file: card, flag: '--from-file' }], runtime.config);
  return run(
    io,
    setExit,
    options,
    { command: 'inspect-a2a', url: url ?? card },
    async (_runtime, hooks, sarif) => {
      const [{ inspectA2a }, { agentUrlOfCard, supplyResource }] = await Promise.all([import('../../core/a2a/inspect.js'), import('../../core/supplied/inputs.js')]);
      // Without a URL, the card is taken for the well-known card of its first interface's origin.
      const target = url ?? agentUrlOfCard(file!.body);
      if (target === null) {
        // A file that is no card at all is that problem (exit 4); a card without an https interface needs the URL (exit 2).
        supplyResource({ kind: 'agentCard', target: 'https://agent.invalid', body: file!.body, source: card });
        throw usageError(`--from-file ${printable(card)}: the card names no https interface to take its URL from; give the agent URL it is for`);
      }
      const from = supplied.suppliedRuntime(runtime, [{ ...file!, target }], options.allowNetwork === true);
      const value = await inspectA2a(target, { runtime: from, hooks });
      if (url === undefined) {
        value.limitations.push(`No agent URL was given: the card was taken for the card of ${target}, the origin of its own first interface, so the origin check compares the card with itself.`);
      }
      return a2aOutcome(value, options, accepted, sarif);
    },
    runtime,
  );
}

function a2aOutcome(
  value: A2aInspection,
  options: InspectA2aOptions,
  accepted: ReadonlySet<string> | undefined,
  sarif: typeof import('../output/sarif.js') | null,
): ReportOutcome<unknown> {
  const exitCode = exitForA2a(value, { strict: options.strict, accepted });
  return {
    value: withAcceptedWarnings(value, accepted),
    exitCode,
    text: (style, width) => a2aText(value, style, width, accepted),
    ...(sarif ? { sarif: () => sarif.a2aSarif(value, { exitCode, accepted }) } : {}),
  };
}
