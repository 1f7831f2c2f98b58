/**
 * `svc inspect-mcp <endpoint>` and `svc inspect-a2a <url>` (SPEC §4.10, §4.11): what an MCP
 * tool server exposes and an A2A agent card claims, as evidence.
 *
 *   inspect-mcp   0 INSPECTED without warnings; 3 a check WARNs (risk signals, drift, legacy
 *                 protocol, not stored) or AUTH_REQUIRED; --strict turns WARN into 1
 *   inspect-a2a   0 every check passes; 1 a check FAILs (an INVALID signature, a non-https
 *                 interface, a card that breaks the schema); 3 a check WARNs; --strict: WARN → 1
 *
 * Both: 4 no answer (a problem: unreachable, egress blocked, no card, not JSON), 2 usage.
 * inspect-mcp records each complete inventory in the embedded store (the same database as
 * `svc resolve`), so the next run reports drift; --no-store skips that.
 */
import type { Command } from 'commander';
import type { A2aInspection } from '../../core/a2a/types.js';
import type { McpInspection } from '../../core/mcp/types.js';
import type { StageHooks } from '../../core/resolve/trace.js';
import type { Runtime } from '../../core/runtime.js';
import { createRuntime } from '../../runtime/node.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { printable } from '../output/dossier.js';
import { addOutputOptions, emitReport, type OutputOptions, type ReportOutcome } from '../output/emit.js';
import { a2aText, mcpText } from '../output/inspection.js';
import { addDbOption, databaseOption, addEgressOption } from './store-options.js';

export function exitForMcp(result: McpInspection, strict = false): ExitCode {
  if (result.status === 'AUTH_REQUIRED') return EXIT.INDETERMINATE;
  if (result.checks.some((c) => c.status === 'WARN')) return strict ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
  return EXIT.PASS;
}

export function exitForA2a(result: A2aInspection, strict = false): ExitCode {
  if (result.checks.some((c) => c.status === 'FAIL')) return EXIT.CHECK_FAILED;
  if (result.checks.some((c) => c.status === 'WARN')) return strict ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
  return EXIT.PASS;
}

interface InspectOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
}

interface InspectMcpOptions extends InspectOptions {
  db?: string;
  store: boolean;
}

function commonOptions(cmd: Command, what: string): Command {
  return addEgressOption(cmd.option('--strict', 'exit 1 instead of 3 when a check warns'), what);
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

export function registerInspect(program: Command, io: CliIo, setExit: (code: number) => void): void {
  /** One inspection: a Runtime with the command's egress allowance, then one report. */
  const run = (options: InspectOptions, work: (runtime: Runtime, hooks: StageHooks) => Promise<ReportOutcome<unknown>>): Promise<void> => {
    const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
    return emitReport(io, options, runtime, (hooks) => work(runtime, hooks), setExit);
  };

  const mcp = program
    .command('inspect-mcp')
    .description('Inspect an MCP tool server: tools, fingerprints, declared vs heuristic classes, risk signals and drift')
    .argument('<endpoint>', 'the Streamable HTTP endpoint, e.g. https://tools.example/mcp (http:// only with --egress-allow)');
  commonOptions(mcp, 'e.g. 10.0.0.0/8 for an intranet server');
  addDbOption(mcp);
  mcp.option('--no-store', 'do not record the inventory (no drift is compared either)');
  addOutputOptions(mcp);
  mcp.addHelpText(
    'after',
    `
svc speaks MCP 2026-07-28 (server/discover) and falls back to the 2025-11-25 handshake
(initialize, then DELETE of the session). It never authenticates: a 401 is reported with the
server's WWW-Authenticate header and protected-resource metadata. Each tool is fingerprinted with
RFC 8785 (definitionSha256, schemaSha256; the inventory hash over them) and compared with the
inventory stored at the last inspection of the same URL. "declared" is the class the server's
annotations claim (* when it sent none and the MCP defaults apply); "heuristic" and the risk
signals are svc's estimate from names, descriptions and schemas. They are never merged.
At most 10 pages, 500 tools and 2 MiB per reply are read. A plain http:// endpoint is inspected
only at an address --egress-allow admits (a development server), with a transport warning.

Exit status: 0 inspected, no check warns; 3 a check warns (risk signals, drift, legacy protocol,
not stored) or the server requires authentication (--strict: a warning exits 1); 4 no answer
(unreachable, egress blocked, not an MCP endpoint); 2 usage.

Examples:
  $ svc inspect-mcp https://tools.example/mcp
  $ svc inspect-mcp https://tools.example/mcp --json | jq '.tools[] | {name, heuristicClass, drift}'
  $ svc inspect-mcp https://mcp.intranet.example/mcp --egress-allow 10.0.0.0/8 --strict
  $ svc inspect-mcp http://127.0.0.1:3000/mcp --egress-allow 127.0.0.1/32 --no-store`,
  );
  mcp.action((endpoint: string, options: InspectMcpOptions) => {
    // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
    if (options.store) databaseOption(options.db, io.env);
    return run(options, async (runtime, hooks) => {
      const { inspectMcp } = await import('../../core/mcp/inspect.js');
      const value = await withStore(io, options, runtime, (storageUnavailable) =>
        inspectMcp(endpoint, { runtime, hooks, ...(storageUnavailable !== undefined ? { storageUnavailable } : {}) }),
      );
      return { value, exitCode: exitForMcp(value, options.strict), text: (style, width) => mcpText(value, style, width) };
    });
  });

  const a2a = program
    .command('inspect-a2a')
    .description('Inspect an A2A agent card: schema, version, interfaces, provider, security and signatures')
    .argument('<url>', 'the agent origin (https://agent.example) or the URL of its card');
  commonOptions(a2a, 'the agent host and key hosts');
  addOutputOptions(a2a);
  a2a.addHelpText(
    'after',
    `
svc fetches /.well-known/agent-card.json (sending A2A-Version: 1.0; the legacy
/.well-known/agent.json is tried when it is missing), validates it against A2A 1.0 (specVersion
1.0, 0.3 or unknown) and verifies each signature: a JWS over the card without its signatures,
canonicalised as the A2A specification says (defaults stripped), else as plain RFC 8785. Keys come
from a DID kid (assertionMethod) or an https jku. The card's claims are reported as its claims.

Exit status: 0 every check passes; 1 a check fails (e.g. a signature INVALID, an interface not
https); 3 a check warns (--strict: 1); 4 no answer (no card, not JSON, unreachable); 2 usage.

Examples:
  $ svc inspect-a2a https://agent.example
  $ svc inspect-a2a https://agent.example/.well-known/agent-card.json --json`,
  );
  a2a.action((url: string, options: InspectOptions) =>
    run(options, async (runtime, hooks) => {
      const { inspectA2a } = await import('../../core/a2a/inspect.js');
      const value = await inspectA2a(url, { runtime, hooks });
      return { value, exitCode: exitForA2a(value, options.strict), text: (style, width) => a2aText(value, style, width) };
    }),
  );
}
