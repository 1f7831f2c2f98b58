/** `svc verify-bundle <file>`: check an evidence bundle offline. The work loads when it runs (action.ts). */
import type { Command } from 'commander';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions, type OutputOptions } from '../../cmdutil/output-options.js';
import { completeFiles } from '../../cmdutil/completion.js';

export interface VerifyBundleCommandOptions extends OutputOptions {
  now?: string;
  strict?: boolean;
}

export function registerBundle(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('verify-bundle')
    .description('Check an evidence bundle offline: its bytes, TLS chains and signature, every check re-run then and now')
    .argument('<file>', 'an evidence bundle written with --bundle (svc resolve, verify-credential, inspect-mcp, inspect-a2a) or by the daemon')
    .option('--now <time>', 'check "now" as at this RFC 3339 time instead of the clock (e.g. the day a decision was made)')
    .option('--strict', 'exit 1 instead of 3 when something changed since the observation or cannot be decided');
  completeFiles(cmd);
  addOutputOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Examples:
  $ svc resolve did:web:example.com --bundle example.bundle.json
  $ svc verify-bundle example.bundle.json
  $ svc verify-bundle example.bundle.json --now 2027-06-01T00:00:00Z --json

Nothing is fetched but a did:web signer's DID document. Each resource's bytes are checked against
their SHA-256; each TLS chain at the time it was fetched and now (signatures, validity windows, host
name, and whether this machine trusts its anchor: Node's store plus NODE_EXTRA_CA_CERTS); the work
is re-run from the recorded bytes at the bundle's time (it must give the recorded result) and now
(what has changed since). A signed bundle's signature is checked against its signer's DID.

Outcome and exit code: VERIFIED 0; FAILED 1 (a resource does not match its digest, a chain was invalid
when recorded, the re-run differs from the recorded result, or the signature fails); CHANGED_SINCE 3
(intact, but a certificate has expired or a check gives another answer now) and INDETERMINATE 3 (an
anchor this machine does not trust, a kind this svc cannot re-run); a file that is not a bundle 4.
A bundle shows what svc saw, never that the host is honest: see docs/evidence.md#evidence-bundles.`,
  );
  cmd.action(async (file: string, options: VerifyBundleCommandOptions) => (await import('./action.js')).verifyBundleAction(io, setExit, file, options));
}
