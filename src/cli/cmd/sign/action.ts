/** `svc sign-credential` and `svc sign-presentation`: their work, loaded when they run (registered by command.ts). */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { parseJsonText } from '../../../core/encoding/json.js';
import { signCredential } from '../../../core/issue/credential.js';
import { readIssuingKey, type IssuingKey } from '../../../core/issue/key.js';
import { signPresentation } from '../../../core/issue/presentation.js';
import { ProblemError } from '../../../core/problems.js';
import { printable } from '../../../present/text.js';
import { ConfigError, createRuntime } from '../../../runtime/node.js';
import { CliError } from '../../cmdutil/errors.js';
import { EXIT, exitForProblem } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { readKeyFile } from '../../cmdutil/key-file.js';
import { readSource } from '../../cmdutil/source.js';
import type { SignCredentialCommandOptions, SignPresentationCommandOptions } from './options.js';

/** A problem of the core as the command line reports it: `svc: CODE: detail`, exit 2 or 4 (exitForProblem). */
function reported(err: unknown): unknown {
  return err instanceof ProblemError ? new CliError(err.code, err.detail, exitForProblem(err.code)) : err;
}

/** The key file's key, read before anything is written: a key svc cannot sign with is INVALID_OPTIONS, exit 2. */
function issuingKey(jwk: Record<string, unknown>): IssuingKey {
  try {
    return readIssuingKey(jwk);
  } catch (err) {
    throw reported(err);
  }
}

function notEmpty(flag: string, value: string | undefined): void {
  if (value !== undefined && value === '') throw new ConfigError(`${flag} must not be empty`);
}

/**
 * The --out file, created before any work (O_CREAT|O_EXCL, mode 0600, as svc keygen creates its
 * key): an existing file, or a symbolic link, is never overwritten or followed.
 */
async function createOut(file: string, command: string): Promise<FileHandle> {
  if (file === '' || file === '-') throw new ConfigError('--out names a new file (without --out, the result goes to standard output)');
  try {
    return await open(file, 'wx', 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EEXIST'
        ? `it already exists; svc ${command} never overwrites a file`
        : code === 'ENOENT'
          ? 'its directory does not exist'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : (code ?? 'it cannot be created');
    throw new ConfigError(`cannot write to ${printable(file)}: ${why}`);
  }
}

/** Runs `sign` and writes what it made to --out or standard output, and its notes to stderr. */
async function signAndWrite(io: CliIo, command: string, out: string | undefined, sign: () => Promise<{ text: string; notes: string[] }>): Promise<void> {
  const handle = out === undefined ? undefined : await createOut(out, command);
  let result;
  try {
    result = await sign();
    if (handle !== undefined) {
      await handle.chmod(0o600);
      await handle.writeFile(result.text, 'utf8');
      await handle.sync();
    }
  } catch (err) {
    if (handle !== undefined) {
      await handle.close().catch(() => undefined);
      await rm(out!, { force: true });
    }
    throw reported(err);
  }
  await handle?.close();
  if (handle === undefined) io.stdout.write(result.text);
  for (const note of result.notes) io.stderr.write(`svc: ${note}\n`);
  if (out !== undefined) io.stderr.write(`svc: written to ${printable(out)}\n`);
}

export async function signCredentialAction(io: CliIo, setExit: (code: number) => void, file: string, options: SignCredentialCommandOptions): Promise<void> {
  for (const [flag, value] of [
    ['--issuer', options.issuer],
    ['--kid', options.kid],
  ] as const)
    notEmpty(flag, value);
  if (options.format !== 'sd-jwt' && options.disclose.length > 0) throw new ConfigError('--disclose applies to --format sd-jwt only');
  if (options.format !== 'sd-jwt' && options.holderKey !== undefined) throw new ConfigError('--holder-key applies to --format sd-jwt only');
  const key = issuingKey(await readKeyFile(io, options.key, '--key', 'refuse'));
  const holderKey = options.holderKey === undefined ? undefined : await readKeyFile(io, options.holderKey, '--holder-key', 'refuse');
  const text = await readSource(file, 'credential file');
  const runtime = createRuntime(io.env);
  await signAndWrite(io, 'sign-credential', options.out, async () => {
    const parsed = parseJsonText(text.trim(), 'the credential file');
    if ('error' in parsed) throw new ProblemError('INVALID_REQUEST', `${parsed.error.charAt(0).toUpperCase()}${parsed.error.slice(1)}.`);
    return signCredential(parsed.value, {
      key,
      format: options.format,
      now: runtime.clock.now(),
      ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
      ...(options.kid === undefined ? {} : { kid: options.kid }),
      ...(options.disclose.length === 0 ? {} : { disclose: options.disclose }),
      ...(holderKey === undefined ? {} : { holderKey }),
    });
  });
  setExit(EXIT.PASS);
}

export async function signPresentationAction(
  io: CliIo,
  setExit: (code: number) => void,
  files: string[],
  options: SignPresentationCommandOptions,
): Promise<void> {
  for (const [flag, value] of [
    ['--challenge', options.challenge],
    ['--domain', options.domain],
    ['--holder', options.holder],
    ['--kid', options.kid],
  ] as const)
    notEmpty(flag, value);
  if (options.challenge === undefined) {
    throw new ConfigError(
      "--challenge is required: the verifier's challenge binds the presentation to one exchange (without it, anyone who sees it can replay it)",
    );
  }
  if (files.filter((f) => f === '-').length > 1) throw new ConfigError('standard input (-) can be read once');
  const key = issuingKey(await readKeyFile(io, options.key, '--key', 'refuse'));
  const texts: string[] = [];
  for (const file of files) texts.push(await readSource(file, 'credential file'));
  const runtime = createRuntime(io.env);
  await signAndWrite(io, 'sign-presentation', options.out, async () =>
    signPresentation(texts, {
      key,
      now: runtime.clock.now(),
      challenge: options.challenge!,
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.domain === undefined ? {} : { domain: options.domain }),
      ...(options.holder === undefined ? {} : { holder: options.holder }),
      ...(options.kid === undefined ? {} : { kid: options.kid }),
    }),
  );
  setExit(EXIT.PASS);
}
