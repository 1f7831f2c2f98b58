/**
 * `svc keygen`: a new signing key for delegation receipts, written as a private JWK to a new file
 * (default ./svc-key.jwk), and the did:key and did:jwk that carry its public key.
 *
 * As cosign generate-key-pair does, the key goes to a file, never to standard output (where it
 * would end up in terminals, logs and CI output). The file is created with O_CREAT|O_EXCL and
 * mode 0600 in one step: an existing file — or a symbolic link, even a dangling one — is never
 * overwritten or followed, and no moment exists in which others could read the key.
 */
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { generateSigningKey, KEYGEN_CURVES, type KeygenCurve } from '../../core/keys/generate.js';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { completeFiles } from '../completion.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { printable } from '../output/dossier.js';
import { addOutputOptions, emitReport, type OutputOptions } from '../output/emit.js';
import { keygenText, type KeygenReport } from '../output/keys.js';

/** Where the key goes without --out: the current directory, as cosign writes cosign.key. */
export const DEFAULT_KEY_FILE = 'svc-key.jwk';

interface KeygenOptions extends OutputOptions {
  curve: KeygenCurve;
  out: string;
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EEXIST':
      return 'it already exists; svc keygen never overwrites a file — choose another --out, or move the old key away first';
    case 'ENOENT':
      return 'its directory does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return code ?? (err instanceof Error ? err.message.split('\n')[0]! : String(err));
  }
}

/**
 * Generates the key and writes it to a file that did not exist (mode 0600). Anything that stops
 * the write is a usage error naming the file; a half-written file is removed.
 */
async function writeNewKey(file: string, curve: KeygenCurve): Promise<KeygenReport> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (err) {
    throw new ConfigError(`cannot write the key to ${printable(file)}: ${reason(err)}`);
  }
  try {
    const key = await generateSigningKey(curve);
    // A umask may have taken bits away; 0600 exactly, whatever it was.
    await handle.chmod(0o600);
    await handle.writeFile(`${JSON.stringify(key.privateJwk, null, 2)}\n`, 'utf8');
    await handle.sync();
    return { didKey: key.didKey, didJwk: key.didJwk, curve, out: path.resolve(file) };
  } catch (err) {
    await handle.close().catch(() => undefined);
    handle = undefined;
    await rm(file, { force: true });
    throw new ConfigError(`cannot write the key to ${printable(file)}: ${reason(err)}`);
  } finally {
    await handle?.close();
  }
}

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
  cmd.action(async (options: KeygenOptions) => {
    if (options.out === '-') throw new ConfigError('svc keygen writes the private key to a file, never to standard output: give --out a file name');
    if (options.out === '') throw new ConfigError('--out must not be empty');
    const report = await writeNewKey(options.out, options.curve);
    const runtime = createRuntime(io.env);
    await emitReport(io, options, runtime, async () => ({
      value: report,
      exitCode: EXIT.PASS,
      text: (style, width) => keygenText(report, style, width, options.out),
    }), setExit);
  });
}
