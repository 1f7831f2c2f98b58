/**
 * What a command reads from the files its arguments and options name (a credential, a policy, a
 * private key, a receipt, a saved inventory): a file or standard input (`-`), bounded in size,
 * anything unreadable a usage error (exit 2); and a problem about such a file's content as the
 * command line reports it.
 */
import { readFile, stat } from 'node:fs/promises';
import { ProblemError } from '../../core/problems.js';
import { MAX_JWS_LENGTH } from '../../core/proofs/jws.js';
import { printable } from '../../present/text.js';
import { ConfigError } from '../../runtime/node.js';

/** Largest credential, policy or JWS file read (the same bound as a compact JWS). */
export const MAX_INPUT_BYTES = MAX_JWS_LENGTH;

/** Standard input as bytes, at most `max` of them (a usage error beyond). */
export async function readStdin(what: string, max = MAX_INPUT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > max) throw new ConfigError(`the ${what} on standard input is larger than ${max} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads `<file|->` as bytes: a file, or standard input for `-`; anything unreadable, or larger
 * than `max` bytes, is a usage error.
 */
export async function readSourceBytes(source: string, what: string, max = MAX_INPUT_BYTES): Promise<Buffer> {
  if (source === '-') return readStdin(what, max);
  let info;
  try {
    info = await stat(source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`cannot read the ${what} ${printable(source)}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}`);
  }
  if (!info.isFile()) throw new ConfigError(`the ${what} ${printable(source)} is not a file`);
  if (info.size > max) throw new ConfigError(`the ${what} ${printable(source)} is larger than ${max} bytes`);
  return readFile(source);
}

/** `readSourceBytes` as text (UTF-8). */
export async function readSource(source: string, what: string): Promise<string> {
  return (await readSourceBytes(source, what)).toString('utf8');
}

/**
 * A problem about what an option names (a policy file, a private key, a parent receipt) as the
 * command line reports it: INVALID_OPTIONS, so the run exits 2 (exitForProblem). The daemon
 * answers the same content in a request body with INVALID_REQUEST; here it is an option's value.
 */
export function optionProblem(err: unknown): unknown {
  return err instanceof ProblemError && err.code === 'INVALID_REQUEST'
    ? new ProblemError('INVALID_OPTIONS', err.detail, err.trace ? { trace: err.trace } : {})
    : err;
}
