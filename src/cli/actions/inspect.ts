/** `svc inspect-mcp` and `svc inspect-a2a`: their work, loaded when one runs (their options: commands/inspect.ts). */
import { A2A_CHECK_IDS, type A2aInspection } from '../../core/a2a/types.js';
import { MCP_CHECK_IDS, type McpInspection } from '../../core/mcp/types.js';
import type { StageHooks } from '../../core/resolve/trace.js';
import type { Runtime } from '../../core/runtime.js';
import { createRuntime } from '../../runtime/node.js';
import { exitForChecks, parseAllowWarn, withAcceptedWarnings, type WarnPolicy } from '../checks.js';
import { EXIT, exitForProblem, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { databaseOption } from './database.js';
import { printable } from '../output/layout.js';
import { emitReport, type OutputOptions, type ReportOutcome } from '../output/emit.js';
import { a2aText, configText, mcpText } from '../output/inspection.js';
import { asProblemError, type ProblemError } from '../../core/problems.js';
import type { McpStdioInspectOptions } from '../../core/mcp/inspect.js';
import type { ConfiguredServer } from '../../core/mcp/config.js';
import { usageError } from '../errors.js';

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
  stdio?: boolean;
  config?: string;
  runStdio?: boolean;
  /** --env names passed to stdio servers. */
  env?: string[];
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


/** One inspection: a Runtime with the command's egress allowance, then one report. */
function run(io: CliIo, setExit: (code: number) => void, options: InspectOptions, work: (runtime: Runtime, hooks: StageHooks) => Promise<ReportOutcome<unknown>>): Promise<void> {
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  return emitReport(io, options, runtime, (hooks) => work(runtime, hooks), setExit);
}

/** Which of the three forms ran: one URL, one stdio command (--stdio -- …), or a config file (--config). */
function mcpTarget(words: string[], options: InspectMcpOptions): { kind: 'url'; url: string } | { kind: 'stdio'; command: string; args: string[] } | { kind: 'config'; file: string } {
  if (options.stdio && options.config !== undefined) throw usageError('--stdio and --config cannot be combined: a config file names its own commands.');
  if (options.runStdio && options.config === undefined) throw usageError('--run-stdio applies to --config only (--stdio runs the command it is given).');
  if ((options.env ?? []).length > 0 && !options.stdio && !options.config) throw usageError('--env applies to stdio servers only (--stdio or --config).');
  for (const name of options.env ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw usageError(`--env takes a variable name, not ${JSON.stringify(printable(name.slice(0, 40)))} (the value comes from svc's environment).`);
  }
  if (options.config !== undefined) {
    if (words.length) throw usageError('--config takes no endpoint: the file names the servers.');
    return { kind: 'config', file: options.config };
  }
  if (options.stdio) {
    const [command, ...args] = words;
    if (command === undefined || command === '') throw usageError('--stdio needs the command to run after --, e.g. svc inspect-mcp --stdio -- npx -y @modelcontextprotocol/server-memory');
    return { kind: 'stdio', command, args };
  }
  if (words.length !== 1) throw usageError(words.length ? 'inspect-mcp takes one endpoint URL (a local server: --stdio -- <command> [args…]).' : "missing required argument 'endpoint'");
  return { kind: 'url', url: words[0]! };
}

export async function inspectMcpAction(io: CliIo, setExit: (code: number) => void, words: string[], options: InspectMcpOptions): Promise<void> {
  const accepted = parseAllowWarn(options.allowWarn, MCP_CHECK_IDS, 'inspect-mcp');
  const target = mcpTarget(words, options);
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
  if (options.store) databaseOption(options.db, io.env);
  const policy = { strict: options.strict, accepted };
  if (target.kind === 'config') return inspectConfigAction(io, setExit, target.file, options, policy);
  return run(io, setExit, options, async (runtime, hooks) => {
    const value = await withStore(io, options, runtime, async (storageUnavailable) => {
      const common = { runtime, hooks, ...(storageUnavailable !== undefined ? { storageUnavailable } : {}) };
      if (target.kind === 'url') return (await import('../../core/mcp/inspect.js')).inspectMcp(target.url, common);
      return inspectStdio(io, { command: target.command, args: target.args, env: {} }, options, common);
    });
    return {
      value: withAcceptedWarnings(value, accepted),
      exitCode: exitForMcp(value, policy),
      text: (style, width) => mcpText(value, style, width, accepted),
    };
  });
}

/** One stdio server: its environment composed (PATH, HOME, --env names, the config's values), started, inspected, ended. */
async function inspectStdio(
  io: CliIo,
  server: { command: string; args: string[]; env: Record<string, string> },
  options: InspectMcpOptions,
  common: Omit<McpStdioInspectOptions, 'launch'>,
): Promise<McpInspection> {
  const [{ inspectMcpStdio }, { childEnvironment }, { stdioLauncher }] = await Promise.all([
    import('../../core/mcp/inspect.js'),
    import('../../core/mcp/stdio.js'),
    import('../../runtime/mcp-stdio.js'),
  ]);
  const env = childEnvironment(io.env, options.env ?? [], server.env);
  return inspectMcpStdio({ command: server.command, args: server.args, env }, { ...common, launch: stdioLauncher() });
}

/** One server of a config file, as --json prints it. */
export interface ConfiguredResult {
  name: string;
  kind: 'stdio' | 'http' | 'unsupported';
  command?: string;
  url?: string | null;
  result?: McpInspection;
  problem?: ReturnType<ProblemError['toProblem']>;
  notRun?: string;
}

/** Worst first: no answer, a failed check, needs attention, pass. */
const EXIT_RANK: Readonly<Record<number, number>> = { [EXIT.NO_ANSWER]: 4, [EXIT.USAGE]: 4, [EXIT.CHECK_FAILED]: 3, [EXIT.INDETERMINATE]: 2, [EXIT.PASS]: 1 };

export function worstExit(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>((worst, code) => ((EXIT_RANK[code] ?? 5) > (EXIT_RANK[worst] ?? 5) ? code : worst), EXIT.PASS);
}

/**
 * `--config <file>`: every server of the file in turn — HTTP ones inspected, stdio ones only with
 * --run-stdio (each command printed on stderr before it runs), else listed as not run. A server
 * that gives no answer is a problem in its entry, not the end of the run; the exit code is the
 * worst of them (a server not run or not inspectable counts as 3).
 */
async function inspectConfigAction(io: CliIo, setExit: (code: number) => void, file: string, options: InspectMcpOptions, policy: WarnPolicy): Promise<void> {
  let text: string;
  try {
    const { readFile } = await import('node:fs/promises');
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(`--config ${printable(file)}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (code ?? 'cannot be read')}.`);
  }
  const { parseMcpConfig } = await import('../../core/mcp/config.js');
  let servers: ConfiguredServer[];
  try {
    servers = parseMcpConfig(text, printable(file));
  } catch (err) {
    throw usageError(err instanceof Error ? err.message : String(err));
  }
  if (servers.length === 0) throw usageError(`${printable(file)}: the configuration names no MCP server.`);
  const { commandLine } = await import('../../core/mcp/stdio.js');
  return run(io, setExit, options, async (runtime, hooks) => {
    const entries: ConfiguredResult[] = [];
    const exits: ExitCode[] = [];
    await withStore(io, options, runtime, async (storageUnavailable) => {
      const common = { runtime, hooks, ...(storageUnavailable !== undefined ? { storageUnavailable } : {}) };
      const { inspectMcp } = await import('../../core/mcp/inspect.js');
      for (const server of servers) {
        const shown = server.kind === 'stdio' ? { command: commandLine(server.command, server.args) } : { url: server.url };
        const entry: ConfiguredResult = { name: server.name, kind: server.kind, ...shown };
        entries.push(entry);
        if (server.kind === 'unsupported') {
          entry.notRun = server.reason;
          exits.push(EXIT.INDETERMINATE);
          continue;
        }
        if (server.kind === 'stdio' && !options.runStdio) {
          entry.notRun = 'a stdio server runs only with --run-stdio';
          exits.push(EXIT.INDETERMINATE);
          continue;
        }
        try {
          if (server.kind === 'stdio') {
            io.stderr.write(`svc: running ${printable(server.name)}: ${printable(entry.command!)}\n`);
            entry.result = await inspectStdio(io, server, options, common);
          } else {
            entry.result = await inspectMcp(server.url, common);
          }
          exits.push(exitForMcp(entry.result, policy));
        } catch (err) {
          const problem = asProblemError(err);
          entry.problem = problem.toProblem(runtime.config.problemsBase);
          exits.push(exitForProblem(problem.code));
        }
      }
    });
    const value = entries.map((entry) => (entry.result ? { ...entry, result: withAcceptedWarnings(entry.result, policy.accepted) } : entry));
    return { value, exitCode: worstExit(exits), text: (style, width) => configText(entries, exits, style, width, policy.accepted) };
  });
}

export async function inspectA2aAction(io: CliIo, setExit: (code: number) => void, url: string, options: InspectOptions): Promise<void> {
  const accepted = parseAllowWarn(options.allowWarn, A2A_CHECK_IDS, 'inspect-a2a');
  return run(io, setExit, options, async (runtime, hooks) => {
    const { inspectA2a } = await import('../../core/a2a/inspect.js');
    const value = await inspectA2a(url, { runtime, hooks });
    return {
      value: withAcceptedWarnings(value, accepted),
      exitCode: exitForA2a(value, { strict: options.strict, accepted }),
      text: (style, width) => a2aText(value, style, width, accepted),
    };
  });
}
