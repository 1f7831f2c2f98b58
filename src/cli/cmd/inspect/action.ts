/** `svc inspect-mcp` and `svc inspect-a2a`: their work, loaded when one runs (their options: options.ts, registered by command.ts). */
import { A2A_CHECK_IDS, type A2aInspection } from '../../../core/a2a/types.js';
import { MCP_CHECK_IDS, MCP_LIMITS, type McpInspection } from '../../../core/mcp/types.js';
import type { StageHooks } from '../../../core/resolve/trace.js';
import type { Runtime } from '../../../core/runtime.js';
import { createRuntime } from '../../../runtime/node.js';
import { exitForChecks, parseAllowWarn, withAcceptedWarnings, type WarnPolicy } from '../../cmdutil/checks.js';
import { EXIT, exitForProblem, type ExitCode } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { asProblemError, ProblemError } from '../../../core/problems.js';
import type { McpStdioInspectOptions } from '../../../core/mcp/inspect.js';
import type { ConfiguredServer } from '../../../core/mcp/config.js';
import { databaseOption } from '../../cmdutil/database.js';
import { htmlDestination, writeHtmlFile } from '../../cmdutil/html-file.js';
import { bundleDestination, recordingFor, writeBundleFile } from '../../cmdutil/bundle.js';
import type { BundleCommand } from '../../../core/bundle/format.js';
import type { GivenInput } from '../../../core/bundle/verify.js';
import { printable } from '../../../present/text.js';
import { usageError } from '../../cmdutil/errors.js';
import { emitReport, type ReportOutcome, type SarifProblem } from '../../cmdutil/emit.js';
import { a2aText, configText, mcpText } from './render.js';
import { resolveFormat } from '../../cmdutil/output-options.js';
import type { InspectOptions, InspectMcpOptions, InspectA2aOptions } from './options.js';
import type { SarifOptions } from './sarif.js';

/** AUTH_REQUIRED is 3 whatever --strict or --allow-warn say (nothing was listed); else the checks decide. */
export function exitForMcp(result: McpInspection, policy: WarnPolicy = {}): ExitCode {
  if (result.status === 'AUTH_REQUIRED') return EXIT.INDETERMINATE;
  return exitForChecks(result.checks, policy);
}

export function exitForA2a(result: A2aInspection, policy: WarnPolicy = {}): ExitCode {
  return exitForChecks(result.checks, policy);
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
    const { openDatabase } = await import('../../../store/database.js');
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
  work: (runtime: Runtime, hooks: StageHooks, sarif: typeof import('./sarif.js') | null) => Promise<ReportOutcome<unknown>>,
  runtime: Runtime = createRuntime(io.env, { egressAllow: options.egressAllow }),
): Promise<void> {
  const sarif = options.format === 'sarif' ? import('./sarif.js') : null;
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

/**
 * --from-file: the saved listing, parsed (src/core/mcp/saved.ts). The file is an option's value,
 * so one svc cannot use is INVALID_OPTIONS (exit 2), never "no answer"
 * (docs/cli.md#exit-codes).
 */
export async function savedInventory(file: string, bytes: Uint8Array) {
  const [{ optionProblem }, { readSavedInventory }, { pathToFileURL }, path] = await Promise.all([
    import('../../cmdutil/source.js'),
    import('../../../core/mcp/saved.js'),
    import('node:url'),
    import('node:path'),
  ]);
  try {
    return await readSavedInventory(bytes, printable(file), file === '-' ? '-' : pathToFileURL(path.resolve(file)).href);
  } catch (err) {
    throw optionProblem(err);
  }
}

/**
 * Which of the four forms runs: one URL, one stdio command (--stdio -- …), a config file
 * (--config) or a saved listing (--from-file).
 */
export function mcpTarget(
  words: string[],
  options: InspectMcpOptions,
): { kind: 'url'; url: string } | { kind: 'stdio'; command: string; args: string[] } | { kind: 'config'; file: string } | { kind: 'file'; file: string } {
  if (options.fromFile !== undefined && (words.length || options.stdio || options.config !== undefined)) {
    throw usageError('give an endpoint, --stdio, --config or --from-file, not two of them (a saved listing is inspected without contacting any server)');
  }
  if (options.stdio && options.config !== undefined) throw usageError('--stdio and --config cannot be combined: a config file names its own commands.');
  if (options.runStdio && options.config === undefined) throw usageError('--run-stdio applies to --config only (--stdio runs the command it is given).');
  if ((options.env ?? []).length > 0 && !options.stdio && !options.config) throw usageError('--env applies to stdio servers only (--stdio or --config).');
  for (const name of options.env ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw usageError(`--env takes a variable name, not ${JSON.stringify(printable(name.slice(0, 40)))} (the value comes from svc's environment).`);
  }
  // A saved listing is inspected without contacting any server.
  if (options.fromFile !== undefined) return { kind: 'file', file: options.fromFile };
  if (options.config !== undefined) {
    if (words.length) throw usageError('--config takes no endpoint: the file names the servers.');
    return { kind: 'config', file: options.config };
  }
  if (options.stdio) {
    const [command, ...args] = words;
    if (command === undefined || command === '')
      throw usageError('--stdio needs the command to run after --, e.g. svc inspect-mcp --stdio -- npx -y @modelcontextprotocol/server-memory');
    return { kind: 'stdio', command, args };
  }
  if (words.length !== 1) {
    throw usageError(
      words.length
        ? 'inspect-mcp takes one endpoint URL (a local server: --stdio -- <command> [args…]).'
        : "missing required argument 'endpoint' (or --stdio -- <command>, --config <file>, --from-file <saved listing>)",
    );
  }
  return { kind: 'url', url: words[0]! };
}

export async function inspectMcpAction(io: CliIo, setExit: (code: number) => void, words: string[], given: InspectMcpOptions): Promise<void> {
  const options = resolveFormat(given);
  const accepted = parseAllowWarn(options.allowWarn, MCP_CHECK_IDS, 'inspect-mcp');
  const target = mcpTarget(words, options);
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
  if (options.store) databaseOption(options.db, io.env);
  const policy = { strict: options.strict, accepted };
  if (target.kind === 'config') {
    // One report per server: a page or a SARIF log would stand for one of them only.
    if (options.html !== undefined) throw usageError('--html writes the page of one server; with --config, inspect a server of the file on its own');
    if (options.format === 'sarif') throw usageError('--format sarif writes the log of one server; with --config, inspect a server of the file on its own');
    if (options.bundle !== undefined)
      throw usageError('--bundle records the inspection of one server; with --config, inspect an HTTP server of the file on its own');
    return inspectConfigAction(io, setExit, target.file, options, policy, options.baseline);
  }
  if (options.bundle !== undefined && target.kind === 'stdio') {
    throw usageError(
      '--bundle records what svc fetches over the network, and a stdio server is spoken to through a local process, not fetched: there is nothing to record',
      'inspect the server at its HTTP endpoint to bundle the inspection',
    );
  }
  if (options.bundle !== undefined && options.baseline !== undefined) {
    throw usageError(
      '--bundle records the inspection as svc sees it, and a comparison with a baseline is not part of what it can re-run',
      'write the bundle and compare with the baseline in two runs',
    );
  }
  await bundleDestination(options.bundle, target.kind === 'file');
  const pinned = options.baseline !== undefined ? await import('./baseline.js') : null;
  if (options.html !== undefined) await htmlDestination(options.html);
  // An unreadable saved listing, or one over the bound of a reply (2 MiB), is a usage error before anything runs.
  const bytes =
    target.kind === 'file'
      ? await (await import('../../cmdutil/source.js')).readSourceBytes(target.file, 'saved inventory', MCP_LIMITS.maxResponseBytes)
      : undefined;
  const { commandLine } = target.kind === 'stdio' ? await import('../../../core/mcp/stdio.js') : { commandLine: null };
  const shown = target.kind === 'url' ? target.url : target.kind === 'file' ? printable(target.file) : `stdio:${commandLine!(target.command, target.args)}`;
  return run(io, setExit, options, { command: 'inspect-mcp', url: shown }, async (live, hooks, sarif) => {
    // --bundle (an HTTP endpoint only): every exchange recorded, and the inventory history read and written.
    const recording = await recordingFor(live, options.bundle);
    const runtime = recording.runtime;
    const recorded = recording.recorder ? await import('../../../core/bundle/mcp-history.js') : null;
    const history = recorded ? new recorded.McpHistoryRecorder() : null;
    let storage: { storage: 'on' | 'off' | 'unavailable'; storageUnavailable?: string } = { storage: 'off' };
    const bundle = (outcome: unknown) =>
      recording.recorder && options.bundle !== undefined && target.kind === 'url'
        ? writeBundleFile(io, options.bundle, options.quiet === true, {
            command: { kind: 'inspect-mcp', subject: target.url, options: storage } satisfies BundleCommand,
            observedAt: recording.observedAt,
            recorder: recording.recorder,
            inputs:
              storage.storage === 'on' && recorded && history
                ? [{ name: recorded.MCP_HISTORY_INPUT, mediaType: 'application/json', body: history.bytes() } satisfies GivenInput]
                : [],
            result: outcome,
          })
        : Promise.resolve();
    let value: McpInspection;
    let locate: SarifOptions['locate'];
    const loaded = pinned ? await pinned.loadMcpBaseline(options.baseline!) : undefined;
    try {
      const saved = target.kind === 'file' ? await savedInventory(target.file, bytes!) : undefined;
      // A saved listing reads the store only for drift, and only when it names its endpoint.
      const storing = saved ? { ...options, store: options.store && saved.endpoint !== null } : options;
      value = await withStore(io, storing, runtime, async (storageUnavailable) => {
        storage = storageUnavailable !== undefined ? { storage: 'unavailable', storageUnavailable } : runtime.store ? { storage: 'on' } : { storage: 'off' };
        const store = history && runtime.store ? history.wrap(runtime.store) : runtime.store;
        const core = await import('../../../core/mcp/inspect.js');
        // --baseline: the entry approved from this target (a saved listing that names none: the file's only entry).
        const key = target.kind === 'url' ? core.parseEndpoint(target.url).href : target.kind === 'stdio' ? shown : saved!.endpoint;
        const baseline = loaded ? pinned!.mcpComparison(loaded, key) : undefined;
        if (baseline) locate = pinned!.mcpLocate(loaded!, baseline.name);
        const common = {
          runtime: store ? { ...runtime, store } : runtime,
          hooks,
          ...(storageUnavailable !== undefined ? { storageUnavailable } : {}),
          ...(baseline ? { baseline } : {}),
        };
        if (target.kind === 'file') return core.inspectSavedMcp(saved!, common);
        if (target.kind === 'url') return core.inspectMcp(target.url, common);
        return inspectStdio(io, { command: target.command, args: target.args, env: {} }, options, common);
      });
    } catch (err) {
      if (err instanceof ProblemError) await bundle({ problem: { code: err.code, detail: err.detail } });
      // The problem is written as a problem page, and still answered as usual (exit 4).
      if (options.html !== undefined && err instanceof ProblemError) {
        const web = await import('../../../pages.js');
        await writeHtmlFile(io, options.html, options.quiet === true, 'inspection page', web.mcpProblemPage(err, shown, 'offline'));
      }
      throw err;
    }
    await bundle(value);
    if (options.html !== undefined) {
      const web = await import('../../../pages.js');
      await writeHtmlFile(io, options.html, options.quiet === true, 'inspection page', web.mcpPage({ result: value, mode: 'offline' }));
    }
    const exitCode = exitForMcp(value, policy);
    return {
      value: withAcceptedWarnings(value, accepted),
      exitCode,
      text: (style, width) => mcpText(value, style, width, accepted),
      ...(sarif ? { sarif: () => sarif.mcpSarif(value, { exitCode, accepted, ...(locate ? { locate } : {}) }) } : {}),
    };
  });
}

/** One stdio server: its environment composed (PATH, HOME, --env names, the config's values), started, inspected, ended. */
export async function inspectStdio(
  io: CliIo,
  server: { command: string; args: string[]; env: Record<string, string> },
  options: InspectMcpOptions,
  common: Omit<McpStdioInspectOptions, 'launch'>,
): Promise<McpInspection> {
  const [{ inspectMcpStdio }, { childEnvironment }, { stdioLauncher }] = await Promise.all([
    import('../../../core/mcp/inspect.js'),
    import('../../../core/mcp/stdio.js'),
    import('../../../runtime/mcp-stdio.js'),
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
  /** With --baseline: a server approved in the baseline that the file no longer names. */
  removed?: string;
}

/** Worst first: no answer, a failed check, needs attention, pass. */
const EXIT_RANK: Readonly<Record<number, number>> = { [EXIT.NO_ANSWER]: 4, [EXIT.USAGE]: 4, [EXIT.CHECK_FAILED]: 3, [EXIT.INDETERMINATE]: 2, [EXIT.PASS]: 1 };

export function worstExit(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>((worst, code) => ((EXIT_RANK[code] ?? 5) > (EXIT_RANK[worst] ?? 5) ? code : worst), EXIT.PASS);
}

/** The servers of an MCP client configuration file; a file svc cannot use is a usage error (exit 2). */
export async function readConfigServers(file: string): Promise<ConfiguredServer[]> {
  let text: string;
  try {
    const { readFile } = await import('node:fs/promises');
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(
      `--config ${printable(file)}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (code ?? 'cannot be read')}.`,
    );
  }
  const { parseMcpConfig } = await import('../../../core/mcp/config.js');
  let servers: ConfiguredServer[];
  try {
    servers = parseMcpConfig(text, printable(file));
  } catch (err) {
    throw usageError(err instanceof Error ? err.message : String(err));
  }
  if (servers.length === 0) throw usageError(`${printable(file)}: the configuration names no MCP server.`);
  return servers;
}

/**
 * Each server of a config file in turn, as --config runs them (below); `perServer` adds the
 * options of one server's inspection (its baseline entry). Entries and exit codes in file order.
 */
export async function inspectConfigured(
  io: CliIo,
  servers: readonly ConfiguredServer[],
  options: InspectMcpOptions,
  common: Omit<McpStdioInspectOptions, 'launch'>,
  policy: WarnPolicy,
  perServer: (server: ConfiguredServer) => Partial<Omit<McpStdioInspectOptions, 'launch'>> = () => ({}),
): Promise<{ entries: ConfiguredResult[]; exits: ExitCode[] }> {
  const [{ commandLine }, { inspectMcp }] = await Promise.all([import('../../../core/mcp/stdio.js'), import('../../../core/mcp/inspect.js')]);
  const entries: ConfiguredResult[] = [];
  const exits: ExitCode[] = [];
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
      const own = { ...common, ...perServer(server) };
      if (server.kind === 'stdio') {
        io.stderr.write(`svc: running ${printable(server.name)}: ${printable(entry.command!)}\n`);
        entry.result = await inspectStdio(io, server, options, own);
      } else {
        entry.result = await inspectMcp(server.url, own);
      }
      exits.push(exitForMcp(entry.result, policy));
    } catch (err) {
      const problem = asProblemError(err);
      entry.problem = problem.toProblem(common.runtime.config.problemsBase);
      exits.push(exitForProblem(problem.code));
    }
  }
  return { entries, exits };
}

/**
 * `--config <file>`: every server of the file in turn — HTTP ones inspected, stdio ones only with
 * --run-stdio (each command printed on stderr before it runs), else listed as not run. A server
 * that gives no answer is a problem in its entry, not the end of the run; the exit code is the
 * worst of them (a server not run or not inspectable counts as 3). With --baseline, each server is
 * compared with the entry of its name, and an entry whose server the file no longer names is
 * listed as removed (exit 1).
 */
async function inspectConfigAction(
  io: CliIo,
  setExit: (code: number) => void,
  file: string,
  options: InspectMcpOptions,
  policy: WarnPolicy,
  baselineFile: string | undefined,
): Promise<void> {
  const servers = await readConfigServers(file);
  const pinned = baselineFile !== undefined ? await import('./baseline.js') : null;
  return run(io, setExit, options, { command: 'inspect-mcp', url: printable(file) }, async (runtime, hooks) => {
    const loaded = pinned ? await pinned.loadMcpBaseline(baselineFile!) : undefined;
    const { entries, exits } = await withStore(io, options, runtime, async (storageUnavailable) => {
      const common = { runtime, hooks, ...(storageUnavailable !== undefined ? { storageUnavailable } : {}) };
      const byName = (server: ConfiguredServer) =>
        loaded
          ? {
              baseline: {
                file: loaded.shown,
                name: server.name,
                entry: Object.hasOwn(loaded.baseline.servers, server.name) ? loaded.baseline.servers[server.name]! : null,
                compareTarget: true,
              },
            }
          : {};
      return inspectConfigured(io, servers, options, common, policy, byName);
    });
    if (loaded) {
      for (const [name, approved] of Object.entries(loaded.baseline.servers)) {
        if (servers.some((server) => server.name === name)) continue;
        const stdio = approved.target.startsWith('stdio:');
        entries.push({
          name,
          kind: stdio ? 'stdio' : 'http',
          ...(stdio ? { command: approved.target.slice('stdio:'.length) } : { url: approved.target }),
          removed: `approved in ${loaded.shown}, but the configuration no longer names it`,
        });
        exits.push(EXIT.CHECK_FAILED);
      }
    }
    const value = entries.map((entry) => (entry.result ? { ...entry, result: withAcceptedWarnings(entry.result, policy.accepted) } : entry));
    return { value, exitCode: worstExit(exits), text: (style, width) => configText(entries, exits, style, width, policy.accepted) };
  });
}

/**
 * How one card is inspected: fetched at its URL, or — with --from-file — read from the file as the
 * card at the URL (verify from files: nothing else is fetched without --allow-network). What
 * inspect-a2a and `svc a2a approve` share; usage errors are thrown before anything runs.
 */
export async function cardInspection(
  io: CliIo,
  url: string | undefined,
  options: InspectA2aOptions,
): Promise<{ runtime: Runtime; shown: string; url?: string; inspect: (hooks: StageHooks, through?: Runtime) => Promise<A2aInspection> }> {
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  if (options.fromFile === undefined) {
    if (options.allowNetwork) throw usageError('--allow-network applies only with a file option (--from-file)');
    if (url === undefined) throw usageError("missing required argument 'url' (or --from-file <card>)");
    return {
      runtime,
      shown: url,
      url,
      inspect: async (hooks, through = runtime) => (await import('../../../core/a2a/inspect.js')).inspectA2a(url, { runtime: through, hooks }),
    };
  }
  const card = options.fromFile;
  const supplied = await import('../../cmdutil/supplied.js');
  const [file] = await supplied.readSuppliedFiles([{ kind: 'agentCard', target: url ?? '', file: card, flag: '--from-file' }], runtime.config);
  const inspect = async (hooks: StageHooks) => {
    const [{ inspectA2a }, { agentUrlOfCard, supplyResource }] = await Promise.all([
      import('../../../core/a2a/inspect.js'),
      import('../../../core/supplied/inputs.js'),
    ]);
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
      value.limitations.push(
        `No agent URL was given: the card was taken for the card of ${target}, the origin of its own first interface, so the origin check compares the card with itself.`,
      );
    }
    return value;
  };
  return { runtime, shown: url ?? card, inspect };
}

export async function inspectA2aAction(io: CliIo, setExit: (code: number) => void, url: string | undefined, given: InspectA2aOptions): Promise<void> {
  const options = resolveFormat(given);
  const accepted = parseAllowWarn(options.allowWarn, A2A_CHECK_IDS, 'inspect-a2a');
  await bundleDestination(options.bundle, options.fromFile !== undefined);
  const card = await cardInspection(io, url, options);
  const pinned = options.baseline !== undefined ? await import('./baseline.js') : null;
  return run(
    io,
    setExit,
    options,
    { command: 'inspect-a2a', url: card.shown },
    async (_runtime, hooks, sarif) => {
      const loaded = pinned ? await pinned.loadA2aBaseline(options.baseline!) : undefined;
      // --bundle (a fetched card): the card and every key fetched for its signatures (JWK sets, DID documents) recorded.
      const recording = await recordingFor(card.runtime, options.bundle);
      const bundle = (outcome: unknown) =>
        recording.recorder && options.bundle !== undefined && card.url !== undefined
          ? writeBundleFile(io, options.bundle, options.quiet === true, {
              command: { kind: 'inspect-a2a', subject: card.url, options: {} },
              observedAt: recording.observedAt,
              recorder: recording.recorder,
              result: outcome,
            })
          : Promise.resolve();
      let value: A2aInspection;
      try {
        value = await card.inspect(hooks, recording.runtime);
      } catch (err) {
        if (err instanceof ProblemError) await bundle({ problem: { code: err.code, detail: err.detail } });
        throw err;
      }
      // The bundle keeps the inspection itself; the comparison with a baseline is this run's own.
      await bundle(value);
      if (!loaded) return a2aOutcome(value, options, accepted, sarif);
      // --baseline: the entry approved from the card's URL.
      const compared = pinned!.withA2aBaseline(loaded, value);
      return a2aOutcome(compared.inspection, options, accepted, sarif, compared.locate);
    },
    card.runtime,
  );
}

function a2aOutcome(
  value: A2aInspection,
  options: InspectA2aOptions,
  accepted: ReadonlySet<string> | undefined,
  sarif: typeof import('./sarif.js') | null,
  locate?: SarifOptions['locate'],
): ReportOutcome<unknown> {
  const exitCode = exitForA2a(value, { strict: options.strict, accepted });
  return {
    value: withAcceptedWarnings(value, accepted),
    exitCode,
    text: (style, width) => a2aText(value, style, width, accepted),
    ...(sarif ? { sarif: () => sarif.a2aSarif(value, { exitCode, accepted, ...(locate ? { locate } : {}) }) } : {}),
  };
}
