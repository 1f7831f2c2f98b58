/**
 * `svc delegate`, `svc verify-delegation` and `svc authorize`: delegation receipts
 * (docs/delegation.md; service-defined and experimental) minted and checked from the command line.
 *
 *   delegate            signs one receipt with a private JWK; prints it (one line) or --json
 *   verify-delegation   the DelegationChainResult: 0 VALID, 1 INVALID/MALFORMED, 3 INDETERMINATE;
 *                       --register stores a VALID chain in the local registry (the --db file)
 *   authorize           ALLOW/DENY for one tool: 0 ALLOW, 1 DENY, 3 DENY on an INDETERMINATE chain
 *   verify-tool         ALLOW/DENY from the local registry, as GET /v1/agents/verify-tool: 0/1
 *
 * verify-delegation and authorize fail closed without a trusted root: no --trusted-root,
 * no SVC_DELEGATION_ROOTS and no --any-root → 3 where they would pass (the result is unchanged;
 * stderr says why), and --register registers nothing; verify-tool likewise without --root.
 *
 * Every command: 4 no answer (a problem), 2 usage or an unreadable file — and for delegate, whose
 * every input is an option, a key, DID, capability or parent it cannot mint with (INVALID_OPTIONS).
 * The private key is never printed, logged or quoted in a message.
 */
import type { Command } from 'commander';
import { completeFiles } from '../../cmdutil/completion.js';
import type { DelegateOptions, ChainCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions, type OutputOptions } from '../../cmdutil/output-options.js';
import { addDbOption, collect, addEgressOption } from '../../cmdutil/store-options.js';

const egressOption = (cmd: Command): Command => addEgressOption(cmd, 'issuer DID hosts');

function trustedRootOption(cmd: Command): Command {
  return cmd
    .option('--trusted-root <did>', 'require the chain to start at this DID; repeatable (any listed root will do); default: SVC_DELEGATION_ROOTS', collect, [])
    .option('--any-root', 'accept a chain rooted in any DID, on purpose (without a trusted root or this, a VALID chain or an ALLOW exits 3)');
}

/** How both gates treat a missing root, for their help. */
const TRUST_HELP = `Trusted roots: --trusted-root (repeatable), else SVC_DELEGATION_ROOTS. Without either, anyone can
mint a chain rooted in a DID of their own, so the command fails closed: where it would exit 0 it
exits 3, and says on stderr "needs attention: no trusted root was given; pass --trusted-root <did>
or --any-root" (the result, and --json, are unchanged). --any-root accepts any root on purpose.`;

export function registerDelegation(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const delegate = program
    .command('delegate')
    .description('Mint a delegation receipt (service-defined, experimental): the issuer grants capabilities to the audience')
    .requiredOption('--key <file>', "the issuer's private JWK (Ed25519, P-256 or secp256k1) as a JSON file, or - for standard input")
    .requiredOption('--iss <did>', 'the delegating DID (the issuer); the key must be its capabilityDelegation key')
    .requiredOption('--aud <did>', 'the DID receiving the capabilities (the delegate)')
    .requiredOption('--cap <capability...>', 'capabilities granted: "*", "label:*", "label:tool" or "tool"; 1 to 64')
    .option('--kid <didurl>', 'the signing key <iss>#<key>; derived for did:key and did:jwk issuers, required otherwise')
    .option('--ttl <duration>', 'lifetime: 30s, 15m, 1h, 7d or seconds; at most 366d', '1h')
    .option('--parent <file>', 'the receipt this one re-delegates (a receipt file, or a chain file: its last receipt), or -')
    .option('--jti <id>', 'the receipt id (default: a random UUID)')
    .option('--json', 'print {receipt, digest, header, payload} as JSON instead of the bare receipt')
    .option('--no-color', 'never colour the output (NO_COLOR is honoured too)');
  completeFiles(delegate, '--key', '--parent');
  delegate.addHelpText(
    'after',
    `
The receipt (a compact JWS, typ svc-delegation+jwt) is printed on one line. Each receipt is valid
from now for --ttl; a child receipt (--parent) must be issued by the parent's audience, end no later
than the parent and grant only what the parent grants. The key is never printed; a key file that
group or others can read is warned about.

Exit status: 0 minted; 2 refused, since everything delegate reads is an option's value: a usage
error, an unreadable file, or a key, DID, capability or parent it cannot mint with (a public key, a
key that is not the issuer's, a child outliving its parent …: INVALID_OPTIONS).

Examples:
  $ svc delegate --key alice.jwk --iss did:key:z6MkAlice… --aud did:key:z6MkBob… --cap 'payments:*' --ttl 1d > root.jwt
  $ svc delegate --key bob.jwk --iss did:key:z6MkBob… --aud did:key:z6MkAgent… --cap payments:charge --ttl 1h --parent root.jwt > leaf.jwt
  $ cat root.jwt leaf.jwt > chain.txt && svc verify-delegation chain.txt --trusted-root did:key:z6MkAlice…`,
  );
  delegate.action(async (options: DelegateOptions) => (await import('./action.js')).delegateAction(io, setExit, options));

  const verify = program
    .command('verify-delegation')
    .description('Verify a delegation chain (service-defined receipts, root first): signatures, chaining, windows, capabilities')
    .argument('<chain>', 'the chain: a JSON array of compact receipts, or one receipt per line; - for standard input');
  completeFiles(verify, 'chain');
  trustedRootOption(verify);
  egressOption(verify);
  verify.option('--register', 'store the chain, if VALID, in the local delegation registry that svc verify-tool answers from');
  addDbOption(verify);
  addOutputOptions(verify);
  verify.addHelpText(
    'after',
    `
Each receipt must be signed by a key in its issuer's capabilityDelegation, be issued by the previous
receipt's audience, name the previous receipt's digest in "prf", stay inside the parent's window and
capabilities, and be valid now (60 s skew on nbf). At most 8 receipts; no principal twice.

${TRUST_HELP}

--register stores a VALID chain in the database (--db) until it expires, as the daemon's
verify-delegation does with "register": true; with SVC_DELEGATION_ROOTS set, only chains rooted in
one of those DIDs; without any trusted root (and no --any-root), none. --json then prints
{result, registered, registrationReason?}.

Exit status: 0 VALID (and registered, with --register); 1 INVALID or MALFORMED, or a VALID chain
--register did not register (the reason is printed); 3 INDETERMINATE (an issuer DID did not
resolve), or VALID without a trusted root; 4 no answer; 2 usage or unreadable file.

Examples:
  $ svc verify-delegation chain.txt --trusted-root did:key:z6MkAlice…
  $ svc verify-delegation chain.json --trusted-root did:web:example.com --json
  $ svc verify-delegation chain.txt --trusted-root did:web:example.com --register && svc verify-tool --agent did:key:z6MkAgent… --tool payments:charge --root did:web:example.com`,
  );
  verify.action(async (file: string, options: ChainCommandOptions & { register?: boolean; db?: string }) =>
    (await import('./action.js')).verifyDelegationAction(io, setExit, file, options),
  );

  const authorizeCmd = program
    .command('authorize')
    .description('Decide whether a delegation chain allows its leaf agent to call a tool (stateless; ALLOW or DENY with the reason)')
    .requiredOption('--chain <file>', 'the chain: a JSON array of compact receipts, or one receipt per line; - for standard input')
    .requiredOption('--tool <name>', 'the tool the agent wants to call, e.g. payments:charge');
  completeFiles(authorizeCmd, '--chain');
  trustedRootOption(authorizeCmd);
  egressOption(authorizeCmd);
  addOutputOptions(authorizeCmd);
  authorizeCmd.addHelpText(
    'after',
    `
ALLOW when the chain is VALID and a capability of its leaf grants the tool ("*", "label:*" for tools
named label:…, or the tool's name; case-insensitive). The chain is a bearer artefact: ALLOW does not
show that the caller is the agent. --json prints {authorization, chain}.

${TRUST_HELP}

Exit status: 0 ALLOW; 1 DENY; 3 DENY because the chain is INDETERMINATE, or ALLOW without a
trusted root; 4 no answer; 2 usage or unreadable file.

Examples:
  $ svc authorize --chain chain.txt --tool payments:charge --trusted-root did:key:z6MkAlice…
  $ svc authorize --chain - --tool refund --trusted-root did:web:example.com --json < chain.json
  $ SVC_DELEGATION_ROOTS=did:web:example.com svc authorize --chain chain.txt --tool payments:charge`,
  );
  authorizeCmd.action(async (options: ChainCommandOptions & { chain: string; tool: string }) =>
    (await import('./action.js')).authorizeAction(io, setExit, options),
  );

  const verifyToolCmd = program
    .command('verify-tool')
    .description('Decide from the local delegation registry whether an agent may call a tool (ALLOW or DENY with the reason)')
    .requiredOption('--agent <did>', 'the agent: the DID a registered chain delegates to')
    .requiredOption('--tool <name>', 'the tool the agent wants to call, e.g. payments:charge')
    .option('--root <did>', 'use only chains rooted in this DID')
    .option('--any-root', 'accept a chain of any registered root, on purpose (without --root, SVC_DELEGATION_ROOTS or this, an ALLOW exits 3)');
  addDbOption(verifyToolCmd);
  egressOption(verifyToolCmd);
  addOutputOptions(verifyToolCmd);
  verifyToolCmd.addHelpText(
    'after',
    `
Answers from the chains registered with svc verify-delegation --register in the database (--db),
as GET /v1/agents/verify-tool answers from the daemon's: only unexpired chains whose leaf is the
agent and whose leaf receipt is in force. Each of them is verified again first (signatures, issuer
keys, windows; against SVC_DELEGATION_ROOTS when set), and one that no longer verifies is not used.
Nothing is written: no database means nothing is registered. --json prints the authorization
{agent, tool, decision, authorized, reason, matchedCapability?, root?, expires?}.

Without --root, SVC_DELEGATION_ROOTS or --any-root an ALLOW exits 3 and says on stderr "needs
attention: no trusted root was given" (the registry may hold chains registered with --any-root).

Exit status: 0 ALLOW; 1 DENY; 3 ALLOW without a trusted root; 4 no answer (the database cannot be
read); 2 usage.

Examples:
  $ svc verify-tool --agent did:key:z6MkAgent… --tool payments:charge --root did:web:example.com
  $ svc verify-tool --agent did:key:z6MkAgent… --tool refund --root did:web:example.com --json`,
  );
  verifyToolCmd.action(async (options: OutputOptions & { agent: string; tool: string; root?: string; anyRoot?: boolean; db?: string; egressAllow: string[] }) =>
    (await import('./action.js')).verifyToolAction(io, setExit, options),
  );
}
