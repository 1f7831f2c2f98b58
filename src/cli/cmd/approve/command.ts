/**
 * `svc mcp approve` and `svc a2a approve` (docs/agents.md#approved-baselines): inspect a target,
 * show how it differs from the approved baseline file, ask, and write the file — the one way a
 * baseline moves. The baseline is then read by `svc inspect-mcp --baseline` / `svc inspect-a2a
 * --baseline`, which exit 1 on any difference from it.
 *
 *   exit 0   written, or nothing to approve (the file already holds this inventory: not rewritten)
 *   exit 1   the question was answered no: nothing written
 *   exit 2   usage: no --baseline, a baseline svc cannot use, no terminal to ask on and no --yes
 *   exit 3   an inventory could not be approved (incomplete, authentication required, a server
 *            of a config not run or without an answer); the others are written
 *   exit 4   no answer from the one target
 */
import type { Command } from 'commander';
import { completeFiles } from '../../cmdutil/completion.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions } from '../../cmdutil/output-options.js';
import { addAllowNetworkOption, addEgressOption, collect } from '../../cmdutil/store-options.js';
import type { ApproveA2aOptions, ApproveMcpOptions } from './options.js';

const EXIT_HELP = `Exit status: 0 written (or the file already approves this inventory: it is not rewritten); 1 the
answer was no; 2 usage (no --baseline, a baseline svc cannot use, no terminal and no --yes);
3 nothing could be approved for a server (incomplete listing, authentication required, not run);
4 no answer.`;

export function registerApprove(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const mcp = program
    .command('mcp')
    .helpCommand(false)
    .description('Approved baselines of MCP servers: svc mcp approve writes the file svc inspect-mcp --baseline reads');
  const approve = mcp
    .command('approve')
    .description("Approve an MCP server's inventory: show how it differs from the baseline file, ask, and write it")
    .argument('[endpoint...]', 'the Streamable HTTP endpoint; with --stdio, the command and its arguments after --')
    .requiredOption('--baseline <file>', 'the baseline file to write (created if missing; commit it)')
    .option('-y, --yes', 'approve without asking (scripts, CI); without it svc asks on the terminal, and refuses without one')
    .option('--stdio', 'start a local server and speak MCP on its stdin/stdout: svc mcp approve --baseline <file> --stdio -- <command> [args…]')
    .option('--config <file>', "approve every server of an MCP client's configuration, each by its name in the file")
    .option('--run-stdio', 'with --config: also start the stdio servers it names (each command is printed on stderr first)')
    .option('--env <name>', "pass this variable of svc's environment to a stdio server (besides PATH and HOME); repeatable", collect, [])
    .option('--from-file <file>', 'approve a saved listing (tools/list … results; not svc --json output, which carries no definitions)');
  completeFiles(approve, '--baseline');
  completeFiles(approve, '--config');
  completeFiles(approve, '--from-file');
  addOutputOptions(addEgressOption(approve, 'e.g. 10.0.0.0/8 for an intranet server'));
  approve.addHelpText(
    'after',
    `
The server is inspected as svc inspect-mcp inspects it (nothing is stored), then compared with
its entry in the baseline: each tool, prompt, resource and template added (+), changed (~, with
the members that differ) or removed (-), and serverInfo and instructions. The difference is
printed and svc asks before it writes the file; --yes approves without asking (standard input
must be a terminal otherwise: exit 2). An inventory identical to the one approved leaves the file
untouched, byte for byte. An incomplete listing or a server that requires authentication is never
approved (exit 3).

The file (docs/agents.md#approved-baselines) is JSON, laid out one member per line with members
sorted (RFC 8785 once the layout whitespace is removed), so its bytes are deterministic and a
review diff shows the member that changed. It holds servers by name: the endpoint or stdio:<command
line> for a single target, the config file's names with --config (a server the config no longer
names is removed from the file; one not run keeps its entry).

${EXIT_HELP}

Examples:
  $ svc mcp approve https://tools.example/mcp --baseline mcp-baseline.json
  $ svc mcp approve --baseline mcp-baseline.json --stdio -- npx -y @modelcontextprotocol/server-memory
  $ svc mcp approve --config .vscode/mcp.json --run-stdio --baseline mcp-baseline.json --yes
  $ svc inspect-mcp --config .vscode/mcp.json --run-stdio --baseline mcp-baseline.json   # the gate: exit 1 on a difference`,
  );
  approve.action(async (endpoint: string[], options: ApproveMcpOptions) => (await import('./action.js')).approveMcpAction(io, setExit, endpoint, options));

  const a2a = program
    .command('a2a')
    .helpCommand(false)
    .description('Approved baselines of A2A agent cards: svc a2a approve writes the file svc inspect-a2a --baseline reads');
  const approveCard = a2a
    .command('approve')
    .description('Approve an A2A agent card: show how it differs from the baseline file, ask, and write it')
    .argument('[url]', 'the agent origin or the URL of its card; with --from-file, what the card is for')
    .requiredOption('--baseline <file>', 'the baseline file to write (created if missing; commit it)')
    .option('-y, --yes', 'approve without asking (scripts, CI); without it svc asks on the terminal, and refuses without one')
    .option('--from-file <card>', 'approve this file as the card at the URL instead of fetching it');
  completeFiles(approveCard, '--baseline');
  completeFiles(approveCard, '--from-file');
  addAllowNetworkOption(approveCard);
  addOutputOptions(addEgressOption(approveCard, 'the agent host and key hosts'));
  approveCard.addHelpText(
    'after',
    `
The card is inspected as svc inspect-a2a inspects it, then compared with its entry in the baseline
(by the card's URL): its skills (by id), interfaces (by URL), other members, and signing keys
(kid, alg, jku and the RFC 7638 thumbprint of the key svc found). The difference is printed and
svc asks before it writes the file; --yes approves without asking. The entry pins the card
without its signatures (so a new signature by the same key is no change) and its canonical hash.

${EXIT_HELP}

Examples:
  $ svc a2a approve https://agent.example --baseline a2a-baseline.json
  $ svc inspect-a2a https://agent.example --baseline a2a-baseline.json   # exit 1 on a difference`,
  );
  approveCard.action(async (url: string | undefined, options: ApproveA2aOptions) => (await import('./action.js')).approveA2aAction(io, setExit, url, options));
}
