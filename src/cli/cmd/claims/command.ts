/**
 * Proofs of control and the directory against a running daemon, through the TypeScript client:
 *
 *   svc claim <did> --key <jwk>            challenge → sign its payload → submit (signature)
 *   svc claim <did> --method well-known|dns  challenge → print what to publish → (on a terminal,
 *                                          Enter) → submit; elsewhere, with --json or -q, or at
 *                                          the end of input, the follow-up `svc claim <did>
 *                                          --token <t>` is printed on stderr
 *   svc claim <did> --token <t>            submit the proof of an earlier well-known or dns challenge
 *   svc claims <did>                       the DID's current claims
 *   svc directory [q]                      the opt-in directory, a page at a time (--all: every page)
 *
 * The routes are public: no token is sent. The private key is read from a file, checked to be a
 * key of the DID before the daemon is asked (a key that cannot sign wastes no challenge), used to
 * sign the one payload the daemon named, and never printed or sent. Every option is checked
 * before the daemon is asked, the limits of --expires-in included. A DID that is not one is left
 * to the daemon, which answers INVALID_DID for every form alike. The commands printed to follow
 * up (the --token of a published challenge, the --cursor of the next page) repeat --daemon and
 * the query, so they can be run as printed. Exit: 0 verified / claims found / a page listed (and
 * a challenge printed for publishing); 1 the proof was refused, or the DID has no current claim;
 * 2 usage; 4 the daemon could not be reached or answered a problem.
 */
import type { Command } from 'commander';
import { NO_PAGER_HELP } from '../../cmdutil/output-options.js';
import { DIRECTORY_LIMIT, DIRECTORY_METHODS } from '../../../core/claims/types.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { ClaimOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { DEFAULT_DAEMON_URL, type DaemonOptions } from '../../cmdutil/daemon-options.js';

const EXIT_STATUS = `Exit status: 0 verified (or, for well-known and dns, the challenge printed when no terminal
confirms it); 1 the proof was refused (the reason is printed); 2 a usage error (or the daemon's
INVALID_OPTIONS); 4 the daemon could not be reached or answered another problem (INVALID_DID,
METHOD_NOT_SUPPORTED …).`;

export function registerClaims(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const daemon = (cmd: Command, json: string) =>
    cmd
      .option('--daemon <url>', `the daemon's URL (default: $SVC_DAEMON_URL, else ${DEFAULT_DAEMON_URL})`)
      .option('--json', json)
      .option('-q, --quiet', 'print nothing (--json output and errors still print); rely on the exit code')
      .option('--no-pager', NO_PAGER_HELP);

  const claim = daemon(
    program
      .command('claim')
      .description('Prove control of a DID to a daemon: sign a challenge with a key, or publish it (well-known file, DNS TXT)')
      .argument('<did>', 'the DID whose control to prove')
      .option('--key <file>', 'a private JWK of the DID (under authentication): sign the challenge with it (the signature method)')
      .option('--kid <didurl>', 'with --key, the signing key <did>#<key>; derived for did:key and did:jwk, required otherwise')
      .option('--method <method>', `signature, well-known or dns (default: signature with --key)`)
      .option('--token <token>', 'submit the proof of this earlier well-known or dns challenge instead of asking for a new one')
      .option('--list', 'opt in to the directory once the proof holds (a separate, explicit act)')
      .option('--unlist', 'leave the directory once the proof holds')
      .option('--expires-in <seconds>', 'how long the challenge holds (signature at most 900 s, well-known and dns 86400 s)'),
    "print the JSON of the daemon's answers: the challenge, then the verification (one object: {challenge, verification})",
  );
  completeFiles(claim, '--key');
  claim
    .addHelpText(
      'after',
      `
The signature method signs the exact payload the daemon names with the private key in --key
(the key is never sent or printed); the daemon resolves the DID afresh and accepts only a key
listed under authentication. well-known: host the token as a line of
https://<host>/.well-known/svc-claim.txt; dns: publish it as a TXT record _svc-claim.<host>
(did:web and did:webvh). On a terminal (without --json or -q) svc then waits for Enter and
submits the proof; otherwise, or at the end of input, it prints the svc claim … --token command
to run once it is published.
Such claims are re-checked by the daemon and lapse when the proof goes. A claim proves that
someone able to sign or publish acted then; never legal identity.

${EXIT_STATUS}

Examples:
  $ svc claim did:key:z6Mk… --key me.jwk
  $ svc claim did:web:example.com --key site.jwk --kid did:web:example.com#key-1 --list
  $ svc claim did:web:example.com --method dns
  $ svc claim did:web:example.com --token <token>        # once the record is published`,
    )
    .action(async (did: string, options: ClaimOptions) => (await import('./action.js')).claimAction(io, setExit, did, options));

  daemon(
    program.command('claims').description("List a DID's current proofs of control on a daemon").argument('<did>', 'the DID'),
    "print the daemon's answer as JSON",
  )
    .addHelpText(
      'after',
      `
Each claim says what it proves and what it does not (never legal identity, never ongoing control).

Exit status: 0 the DID has a current claim; 1 it has none; 2 a usage error; 4 the daemon could
not be reached or answered a problem.

Examples:
  $ svc claims did:web:example.com
  $ svc claims did:key:z6Mk… --json | jq '.claims[].proves'`,
    )
    .action(async (did: string, options: DaemonOptions) => (await import('./action.js')).claimsAction(io, setExit, did, options));

  daemon(
    program
      .command('directory')
      .description('List the identifiers whose controllers proved control and opted in')
      .argument('[q]', 'free text: identifiers whose DID contains it (at most 100 characters)')
      .option('--method <method>', `only this DID method: ${DIRECTORY_METHODS.join(', ')}`)
      .option('--limit <n>', `entries per page, ${DIRECTORY_LIMIT.min} to ${DIRECTORY_LIMIT.max} (default ${DIRECTORY_LIMIT.default})`)
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed')
      .option('--all', 'follow the cursors to the last page'),
    "print the daemon's answer, {entries, nextCursor}, as JSON (with --all, every entry and nextCursor null)",
  )
    .addHelpText(
      'after',
      `
Listings cannot be bought: a DID is listed only while a claim holds and its controller opted in
(svc claim … --list). The order is stable, oldest listing first.

Exit status: 0 listed (even when the page is empty); 2 a usage error (or the daemon's
INVALID_OPTIONS: a --cursor it did not give); 4 the daemon could not be reached or answered
another problem.

Examples:
  $ svc directory
  $ svc directory example.com --method web
  $ svc directory --all --json | jq -r '.entries[].did'`,
    )
    .action(async (q: string | undefined, options: DaemonOptions & { method?: string; limit?: string; cursor?: string; all?: boolean }) =>
      (await import('./action.js')).directoryAction(io, setExit, q, options),
    );
}
