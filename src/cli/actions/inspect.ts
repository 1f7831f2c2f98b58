/** `svc inspect-mcp` and `svc inspect-a2a`: their work, loaded when one runs (their options: commands/inspect.ts). */
import { A2A_CHECK_IDS, type A2aInspection } from '../../core/a2a/types.js';
import { MCP_CHECK_IDS, MCP_LIMITS, type McpInspection } from '../../core/mcp/types.js';
import type { StageHooks } from '../../core/resolve/trace.js';
import type { Runtime } from '../../core/runtime.js';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { exitForChecks, parseAllowWarn, withAcceptedWarnings, type WarnPolicy } from '../checks.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { databaseOption } from './database.js';
import { printable } from '../output/layout.js';
import { emitReport, type OutputOptions, type ReportOutcome } from '../output/emit.js';
import { a2aText, mcpText } from '../output/inspection.js';

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
  /** --from-file: a saved listing instead of a server (src/core/mcp/saved.ts). */
  fromFile?: string;
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

/**
 * --from-file: the saved listing, parsed (src/core/mcp/saved.ts). The file is an option's value,
 * so one svc cannot use is INVALID_OPTIONS (exit 2), never "no answer" (DESIGN §6).
 */
async function savedInventory(file: string, bytes: Uint8Array) {
  const [{ optionProblem }, { readSavedInventory }, { pathToFileURL }, path] = await Promise.all([import('./verify.js'), import('../../core/mcp/saved.js'), import('node:url'), import('node:path')]);
  try {
    return await readSavedInventory(bytes, printable(file), file === '-' ? '-' : pathToFileURL(path.resolve(file)).href);
  } catch (err) {
    throw optionProblem(err);
  }
}

export async function inspectMcpAction(io: CliIo, setExit: (code: number) => void, endpoint: string | undefined, options: InspectMcpOptions): Promise<void> {
  const accepted = parseAllowWarn(options.allowWarn, MCP_CHECK_IDS, 'inspect-mcp');
  if ((endpoint === undefined) === (options.fromFile === undefined)) {
    throw new ConfigError(endpoint === undefined ? 'inspect-mcp needs an endpoint, or --from-file with a saved listing' : 'give an endpoint or --from-file, not both (a saved listing is inspected without contacting any server)');
  }
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
  if (options.store) databaseOption(options.db, io.env);
  // An unreadable file, or one over the bound of a reply (2 MiB), is a usage error before anything runs.
  const { fromFile } = options;
  const bytes = fromFile === undefined ? undefined : await (await import('./verify.js')).readSourceBytes(fromFile, 'saved inventory', MCP_LIMITS.maxResponseBytes);
  return run(io, setExit, options, async (runtime, hooks) => {
    const saved = fromFile === undefined ? undefined : await savedInventory(fromFile, bytes!);
    const { inspectMcp, inspectSavedMcp } = await import('../../core/mcp/inspect.js');
    // A saved listing reads the store only for drift, and only when it names its endpoint.
    const value = await withStore(io, { ...options, store: options.store && saved?.endpoint !== null }, runtime, (storageUnavailable) => {
      const core = { runtime, hooks, ...(storageUnavailable !== undefined ? { storageUnavailable } : {}) };
      return saved ? inspectSavedMcp(saved, core) : inspectMcp(endpoint!, core);
    });
    return {
      value: withAcceptedWarnings(value, accepted),
      exitCode: exitForMcp(value, { strict: options.strict, accepted }),
      text: (style, width) => mcpText(value, style, width, accepted),
    };
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
