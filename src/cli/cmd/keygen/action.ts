/** `svc keygen`'s work, loaded when it runs (its options: options.ts, registered by command.ts). */
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { generateSigningKey, type KeygenCurve } from '../../../core/keys/generate.js';
import { ConfigError, createRuntime } from '../../../runtime/node.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { emitReport, type OutputOptions } from '../../cmdutil/emit.js';
import { keygenText, keyShowText, type KeygenReport, type KeyShowReport } from './render.js';
import type { KeygenOptions } from './options.js';

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

export async function keygenAction(io: CliIo, setExit: (code: number) => void, options: KeygenOptions): Promise<void> {
  if (options.out === '-') throw new ConfigError('svc keygen writes the private key to a file, never to standard output: give --out a file name');
  if (options.out === '') throw new ConfigError('--out must not be empty');
  const report = await writeNewKey(options.out, options.curve);
  const runtime = createRuntime(io.env);
  await emitReport(
    io,
    options,
    runtime,
    async () => ({
      value: report,
      exitCode: EXIT.PASS,
      text: (style, width) => keygenText(report, style, width, options.out),
    }),
    setExit,
  );
}

/** `svc key show`: the DIDs of a key file's key (core/issue/key.ts `describeKey`), as keygen prints them. */
export async function keyShowAction(io: CliIo, setExit: (code: number) => void, file: string, options: OutputOptions): Promise<void> {
  const [{ readKeyFile }, { describeKey }] = await Promise.all([import('../../cmdutil/key-file.js'), import('../../../core/issue/key.js')]);
  const jwk = await readKeyFile(io, file, 'the key file', 'warn');
  const runtime = createRuntime(io.env);
  await emitReport(
    io,
    options,
    runtime,
    async () => {
      const key = await describeKey(jwk);
      const report: KeyShowReport = { didKey: key.didKey, didJwk: key.didJwk, curve: key.curve, file: path.resolve(file), private: key.private };
      return { value: report, exitCode: EXIT.PASS, text: (style, width) => keyShowText(report, style, width, file) };
    },
    setExit,
  );
}
