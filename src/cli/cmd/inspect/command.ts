/**
 * `svc inspect-mcp <endpoint>` and `svc inspect-a2a <url>` (docs/agents.md): what an MCP
 * tool server exposes and an A2A agent card claims, as evidence.
 *
 *   inspect-mcp   0 INSPECTED without warnings; 3 a check WARNs (risk signals, drift, legacy
 *                 protocol, not stored) or AUTH_REQUIRED; --strict turns WARN into 1
 *   inspect-a2a   0 every check passes; 1 a check FAILs (an INVALID signature, a non-https
 *                 interface, a card that breaks the schema); 3 a check WARNs; --strict: WARN → 1
 *
 * Both: --baseline <file> compares with an approved baseline (baseline.ts): a difference is a
 * FAIL of the drift check, exit 1.
 *
 * Both: --allow-warn <check-id>[,…] accepts known warnings (src/cli/cmdutil/checks.ts): those WARN checks
 * count toward neither 3 nor --strict; --json then adds `acceptedWarnings`.
 *
 * Both: --format text|json|sarif: sarif prints one SARIF 2.1.0 log (sarif.ts) — a finding per
 * risk signal, WARN and FAIL check — with the same exit code; with --json it is a usage error.
 *
 * Both: 4 no answer (a problem: unreachable, egress blocked, no card, not JSON), 2 usage.
 * inspect-mcp records each complete inventory in the embedded store (the same database as
 * `svc resolve`), so the next run reports drift; --no-store skips that. --html <file> also writes
 * the inspection (or its problem) as one self-contained page, as `svc resolve --html` does.
 */
import type { Command } from 'commander';
import { A2A_CHECK_IDS } from '../../../core/a2a/types.js';
import { MCP_CHECK_IDS } from '../../../core/mcp/types.js';
import type { InspectA2aOptions, InspectMcpOptions } from './options.js';
import { addAllowWarnOption } from '../../cmdutil/checks.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addFormatOption, addOutputOptions } from '../../cmdutil/output-options.js';
import { addAllowNetworkOption, addDbOption, addEgressOption, collect } from '../../cmdutil/store-options.js';
import { addBundleOption } from '../../cmdutil/bundle.js';

function commonOptions(cmd: Command, what: string, checkIds: readonly string[]): Command {
  return addEgressOption(addAllowWarnOption(cmd.option('--strict', 'exit 1 instead of 3 when a check warns'), checkIds), what);
}

export function registerInspect(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const mcp = program
    .command('inspect-mcp')
    .description('Inspect an MCP tool server: tools, prompts, resources, fingerprints, declared vs heuristic classes, risk signals and drift')
    .argument(
      '[endpoint...]',
      'the Streamable HTTP endpoint, e.g. https://tools.example/mcp (http:// only with --egress-allow); with --stdio, the command and its arguments after --',
    )
    .option('--from-file <file>', 'inspect a saved listing instead of a server (- for standard input): nothing is contacted or stored');
  completeFiles(mcp, '--from-file');
  commonOptions(mcp, 'e.g. 10.0.0.0/8 for an intranet server', MCP_CHECK_IDS);
  mcp.option('--stdio', 'start a local server and speak MCP on its stdin/stdout: svc inspect-mcp --stdio -- <command> [args…]');
  mcp.option('--config <file>', "inspect every server of an MCP client's configuration (Claude Desktop, Cursor, VS Code, Windsurf)");
  mcp.option('--run-stdio', 'with --config: also start the stdio servers it names (each command is printed on stderr first)');
  mcp.option('--env <name>', "pass this variable of svc's environment to a stdio server (besides PATH and HOME); repeatable", collect, []);
  completeFiles(mcp, '--config');
  addDbOption(mcp);
  mcp.option('--no-store', 'do not record the inventory (no drift is compared either)');
  mcp.option('--baseline <file>', 'compare with this approved baseline (svc mcp approve writes it) instead of the last inspection: any difference exits 1');
  completeFiles(mcp, '--baseline');
  mcp.option('--html <file>', 'also write the inspection as one self-contained HTML page (opens offline; a problem is written as a problem page)');
  completeFiles(mcp, '--html');
  addBundleOption(mcp);
  addFormatOption(addOutputOptions(mcp));
  mcp.addHelpText(
    'after',
    `
svc speaks MCP 2026-07-28 (server/discover) and falls back to the 2025-11-25 handshake
(initialize, then DELETE of the session). It never authenticates: a 401 is reported with the
server's WWW-Authenticate header and protected-resource metadata. Each tool is fingerprinted with
RFC 8785 (definitionSha256, schemaSha256; the inventory hash over them) and compared with the
inventory stored at the last inspection of the same URL. Prompts, resources and resource
templates are listed too when the server declares them, fingerprinted, scanned for risk signals
and compared the same way (their messages and contents are never fetched). "declared" is the
class the server's annotations claim (* when it sent none and the MCP defaults apply);
"heuristic" and the risk signals are svc's estimate from names, descriptions and schemas. They
are never merged. Each listing is read for at most 10 pages and 2 MiB per reply; at most 500
tools, and 500 prompts, resources and templates together. A plain http:// endpoint is inspected
only at an address --egress-allow admits (a development server), with a transport warning.

Local servers (stdio): --stdio -- <command> [args…] starts the server as a child process (no
shell, its own process group, stdin from svc only), speaks the 2025-11-25 stdio transport
(initialize, the same listings) and ends it: stdin closed, then SIGTERM, then SIGKILL to its
group, 2 s apart; it never outlives svc. Its environment is PATH, HOME and each --env NAME
(the config file's "env" values too), nothing else. Bounds: 15 s per answer, 60 s in all, 2 MiB
per line, 32 MiB of stdout; a line that is not JSON-RPC is skipped and counted; stderr is kept as a
short tail in the limitations. The endpoint is reported as stdio:<command line>, the drift key.

--config <file> reads an MCP client's configuration ("mcpServers": Claude Desktop, Cursor,
Windsurf's serverUrl; "servers" or "mcp.servers": VS Code, .vscode/mcp.json) and inspects each
server: HTTP ones at once, stdio ones only with --run-stdio (each command printed on stderr
first); without it they are listed as not run, with the command that would run. --json prints
an array of {name, kind, command|url, result|problem|notRun}; the exit code is the worst one
(a server not run counts as 3). A malformed file exits 2.

Exit status: 0 inspected, no check warns; 3 a check warns (risk signals, drift, legacy protocol,
not stored) or the server requires authentication (--strict: a warning exits 1); 1 the inventory
differs from the --baseline; 4 no answer (unreachable, egress blocked, not an MCP endpoint, a
command that cannot start); 2 usage.

Saved inventories: --from-file <file> (- for standard input) inspects a listing saved earlier
instead of a server: a tools/list, prompts/list, resources/list or resources/templates/list result
or its whole JSON-RPC response, an initialize result for serverInfo, a JSON array of those (pages
and kinds combined), or svc's own --json output. The same fingerprints, classes, signals and
bounds apply (a file over 2 MiB is refused); transport and protocol are SKIP, nothing is stored,
and drift is compared only for svc's own JSON (it names its endpoint). A file that cannot be used
(not JSON, a duplicate member, a shape not recognised, two tools of one name) exits 2.

Approved baselines: --baseline <file> compares the inventory (tools, prompts, resources, templates,
serverInfo, instructions) with the one approved in the file (svc mcp approve writes it; commit it)
instead of the last stored one: each item ADDED, CHANGED (with changedFields) or removed, and the
drift check FAILs on any difference, exit 1 with or without --strict (--allow-warn cannot accept
it). The file never moves by itself: the next run reports the same difference until it is
approved. The entry compared is the one approved from this endpoint or command line (a saved
listing that names none: the file's only entry); with --config, the entry of each server's name,
and an approved server the config no longer names is listed as removed (exit 1). A baseline svc
cannot use (malformed, laid out otherwise, from a newer svc, of another server) exits 2.

A warning you know about and accept (a server that only speaks the older handshake, plain http on
a development host) is named with --allow-warn: it is still reported, marked accepted, but counts
toward neither 3 nor --strict; --json then adds "acceptedWarnings" (the ids accepted).

--format sarif prints a SARIF 2.1.0 log for code scanning instead of the report: a result per risk
signal and per WARN check, each named by its item (tools/<name>, prompts/<name>, resources/<uri>)
with a fingerprint that follows the item's definition; accepted warnings are suppressed results.
The exit status is the same. With no answer (exit 4) the log has no results, an error
notification naming the problem, and executionSuccessful false; the error is on stderr as usual.

--bundle <file> also writes an evidence bundle of an HTTP endpoint's inspection: every request
and reply of the conversation (bytes, TLS chain), the stored inventory the drift was compared
with, and the result, re-checked offline by svc verify-bundle. Not with --stdio or --config (a
local process is not fetched, so there is nothing to record) nor --from-file (already a record).

Examples:
  $ svc inspect-mcp https://tools.example/mcp
  $ svc inspect-mcp https://tools.example/mcp --json | jq '.tools[] | {name, heuristicClass, drift}'
  $ svc inspect-mcp https://tools.example/mcp --json | jq '.resources[] | {uri, drift, riskSignals}'
  $ svc inspect-mcp https://mcp.intranet.example/mcp --egress-allow 10.0.0.0/8 --strict
  $ svc inspect-mcp https://legacy.example/mcp --strict --allow-warn protocol
  $ svc inspect-mcp http://127.0.0.1:3000/mcp --egress-allow 127.0.0.1/32 --no-store
  $ svc inspect-mcp https://tools.example/mcp --format sarif > svc.sarif
  $ svc inspect-mcp https://tools.example/mcp --html inspection.html
  $ svc inspect-mcp https://tools.example/mcp --bundle tools.bundle.json && svc verify-bundle tools.bundle.json
  $ svc inspect-mcp --stdio -- npx -y @modelcontextprotocol/server-memory
  $ svc inspect-mcp --stdio --env GITHUB_TOKEN -- docker run -i --rm -e GITHUB_TOKEN ghcr.io/github/github-mcp-server
  $ svc inspect-mcp --config ~/.cursor/mcp.json
  $ svc inspect-mcp --config .vscode/mcp.json --run-stdio --json | jq '.[] | {name, kind, exit: .result.headline}'
  $ svc inspect-mcp --from-file tools-list.json
  $ svc inspect-mcp --stdio --baseline mcp-baseline.json -- npx -y @modelcontextprotocol/server-memory
  $ svc inspect-mcp https://tools.example/mcp --json > saved.json; svc inspect-mcp --from-file saved.json`,
  );
  mcp.action(async (endpoint: string[], options: InspectMcpOptions) => (await import('./action.js')).inspectMcpAction(io, setExit, endpoint, options));

  const a2a = program
    .command('inspect-a2a')
    .description('Inspect an A2A agent card: schema, version, interfaces, provider, security and signatures')
    .argument(
      '[url]',
      'the agent origin (https://agent.example) or the URL of its card; with --from-file, what the card is for (default: the origin of its first interface)',
    )
    .option('--from-file <card>', 'verify from files: inspect this file as the card at the URL instead of fetching it (nothing else is fetched)');
  completeFiles(a2a, '--from-file');
  addAllowNetworkOption(a2a);
  commonOptions(a2a, 'the agent host and key hosts', A2A_CHECK_IDS);
  a2a.option('--baseline <file>', 'compare with this approved baseline (svc a2a approve writes it): any difference exits 1');
  completeFiles(a2a, '--baseline');
  addBundleOption(a2a);
  addFormatOption(addOutputOptions(a2a));
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
--allow-warn names warnings you accept: still reported, they count toward neither 3 nor --strict.
--format sarif prints a SARIF 2.1.0 log instead (a result per WARN check, an error per FAIL check;
exit status unchanged; with no answer, a log whose invocation failed and the error on stderr).

Approved baselines: --baseline <file> compares the card with the one approved in the file (svc a2a
approve writes it): its canonical hash (without signatures), skills by id, interfaces by URL,
other members, and signing keys (kid, alg, jku and the key's RFC 7638 thumbprint). A ninth check,
drift, FAILs on any difference (exit 1); a baseline svc cannot use, or of another card, exits 2.

Verify from files: --from-file inspects a saved card as the one at the URL (an origin means its
/.well-known/agent-card.json; without a URL, the origin of the card's first interface). The fetch
check is then SKIP (the card was not fetched) and svc fetches nothing else: a signature whose key
is not a did:key is INDETERMINATE, unless --allow-network.

--bundle <file> also writes an evidence bundle: the card, every JWK set and DID document fetched
for its signatures (bytes, TLS chains) and the result, re-checked offline by svc verify-bundle
(not with --from-file: the file is already the record).

Examples:
  $ svc inspect-a2a https://agent.example
  $ svc inspect-a2a https://agent.example --strict --allow-warn provider
  $ svc inspect-a2a https://agent.example/.well-known/agent-card.json --json
  $ svc inspect-a2a https://agent.example --format sarif > agent.sarif
  $ svc inspect-a2a https://agent.example --from-file agent-card.json
  $ svc inspect-a2a https://agent.example --baseline a2a-baseline.json
  $ svc inspect-a2a https://agent.example --bundle agent.bundle.json && svc verify-bundle agent.bundle.json`,
  );
  a2a.action(async (url: string | undefined, options: InspectA2aOptions) => (await import('./action.js')).inspectA2aAction(io, setExit, url, options));
}
