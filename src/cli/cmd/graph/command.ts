/**
 * `svc graph <did>`: the evidence graph of one resolution — who asserts what about whom, and what
 * was checked — as text, or with --json exactly the body of GET /v1/graph/{did}. The resolution is
 * the one `svc resolve` runs (same egress options, same exit codes); it is not recorded in the
 * history, which is `svc resolve`'s job.
 */
import type { Command } from 'commander';
import type { GraphCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions } from '../../cmdutil/output-options.js';
import { addEgressOption } from '../../cmdutil/store-options.js';

export function registerGraph(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('graph')
    .description('Resolve a DID and show its evidence graph: the document, keys, origin, TLS, domain linkage and services, and what was checked')
    .argument('<did>', 'the DID to resolve: raw (did:key:z6Mk…) or fully percent-encoded (did%3Akey%3A…)')
    .option('--strict', 'exit 1 instead of 3 when something needs attention');
  addEgressOption(cmd);
  addOutputOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Each edge carries a state: VERIFIED (svc checked it), OBSERVED (seen as retrieved), DECLARED (the
document says so; not checked) or FAILED. --json prints {did, observedAt, verdict, nodes, edges},
as GET /v1/graph/{did} answers. The resolution is not recorded in the history (svc resolve does that).

Exit status: as svc resolve — 0 resolved, 1 a check failed or deactivated, 3 needs attention
(--strict: 1), 4 no answer, 2 usage.

Examples:
  $ svc graph did:web:example.com
  $ svc graph did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK --json`,
  );
  cmd.action(async (did: string, options: GraphCommandOptions) => (await import('./action.js')).graphAction(io, setExit, did, options));
}
