/**
 * `svc keygen`: a new signing key for delegation receipts, credentials and presentations, written
 * as a private JWK to a new file (default ./svc-key.jwk), and the did:key and did:jwk that carry its
 * public key. `svc key show <file>`: the same DIDs of a key file that exists.
 *
 * As cosign generate-key-pair does, the key goes to a file, never to standard output (where it
 * would end up in terminals, logs and CI output). The file is created with O_CREAT|O_EXCL and
 * mode 0600 in one step: an existing file — or a symbolic link, even a dangling one — is never
 * overwritten or followed, and no moment exists in which others could read the key.
 */
import { Option, type Command } from 'commander';
import { KEYGEN_CURVES } from '../../../core/keys/types.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { KeygenOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions, type OutputOptions } from '../../cmdutil/output-options.js';

/** Where the key goes without --out: the current directory, as cosign writes cosign.key. */
export const DEFAULT_KEY_FILE = 'svc-key.jwk';

export function registerKeygen(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('keygen')
    .description('Generate a signing key (a private JWK file, mode 0600) and print the did:key and did:jwk it controls')
    .addOption(new Option('--curve <curve>', 'the curve: Ed25519 (EdDSA), P-256 (ES256) or secp256k1 (ES256K)').choices(KEYGEN_CURVES).default('Ed25519'))
    .option('--out <file>', `where to write the private key; must not exist (default: ./${DEFAULT_KEY_FILE})`, DEFAULT_KEY_FILE);
  addOutputOptions(cmd);
  completeFiles(cmd, '--out');
  cmd.addHelpText(
    'after',
    `
The private key is written only to the --out file, created with mode 0600; svc keygen never
overwrites a file and never prints the key. The file holds one private JWK (with "alg" and an
RFC 7638 thumbprint as "kid"), which svc delegate --key reads. --json prints
{didKey, didJwk, curve, out}.

Exit status: 0 written; 2 the file exists or cannot be created, or a usage error.

Examples:
  $ svc keygen
  $ svc keygen --curve P-256 --out agent.jwk --json
  $ svc keygen --out alice.jwk && svc delegate --key alice.jwk --iss did:key:z6Mk… --aud did:key:z6Mk… --cap 'payments:*'`,
  );
  cmd.action(async (options: KeygenOptions) => (await import('./action.js')).keygenAction(io, setExit, options));

  const show = program
    .command('key')
    .description('Work with a key file svc keygen wrote')
    .command('show')
    .description('Print the did:key and did:jwk of a key file (a private or public JWK), as svc keygen printed them; never the private key')
    .argument('<file>', 'the JWK file');
  addOutputOptions(show);
  completeFiles(show, 'file');
  show.addHelpText(
    'after',
    `
A private key must match its public members; a private key file open to group or others is warned
about. --json prints {didKey, didJwk, curve, file, private}: keygen's members for the same key.

Exit status: 0 shown; 2 the file cannot be read or holds no Ed25519, P-256 or secp256k1 key.

Examples:
  $ svc key show svc-key.jwk
  $ svc key show holder.jwk --json | jq -r .didKey`,
  );
  show.action(async (file: string, options: OutputOptions) => (await import('./action.js')).keyShowAction(io, setExit, file, options));
}
