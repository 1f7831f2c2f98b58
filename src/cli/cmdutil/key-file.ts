/**
 * A JWK file an option or argument names (`--key`, `--holder-key`, `svc key show <file>`), read as
 * the daemon reads SVC_SIGNING_KEY (src/server/signing.ts): a file, never standard input, at most
 * 64 KiB of UTF-8 holding one JSON object, parsed strictly. A private key (a JWK with "d") in a
 * file open to group or others is refused (`exposed: 'refuse'`, what signing does) or warned
 * about (`'warn'`, what only reads the public half does), with the chmod that fixes it.
 *
 * No message quotes the file's content: a parse error could show a piece of the key.
 */
import { readFile, stat } from 'node:fs/promises';
import { isJsonObject, parseJsonStrict } from '../../core/encoding/json.js';
import { privateJwkMembers } from '../../core/keys/jwk.js';
import { printable } from '../../present/text.js';
import { ConfigError } from '../../runtime/node.js';
import type { CliIo } from './io.js';

const MAX_KEY_FILE_BYTES = 64 * 1024;

function unreadable(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return (err as NodeJS.ErrnoException).code ?? 'it cannot be read';
  }
}

/** The JWK in `file`; `what` names it in messages (`--key`, `the key file`). */
export async function readKeyFile(io: CliIo, file: string, what: string, exposed: 'refuse' | 'warn'): Promise<Record<string, unknown>> {
  if (file === '-') throw new ConfigError(`${what} names a file: a key is read from its file (mode 0600), never from standard input`);
  if (file === '') throw new ConfigError(`${what} must not be empty`);
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${printable(file)}: ${unreadable(err)}`);
  }
  if (!info.isFile()) throw new ConfigError(`${what}: ${printable(file)} is not a file`);
  if (info.size > MAX_KEY_FILE_BYTES) throw new ConfigError(`${what}: ${printable(file)} is larger than 64 KiB: it is no JWK`);
  let jwk: unknown;
  try {
    jwk = parseJsonStrict(new TextDecoder('utf-8', { fatal: true }).decode(await readFile(file)), { maxDepth: 8 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== undefined) throw new ConfigError(`${what}: cannot read ${printable(file)}: ${unreadable(err)}`);
    throw new ConfigError(`${what}: ${printable(file)} is not a JSON object (a JWK, as svc keygen writes)`);
  }
  if (!isJsonObject(jwk)) throw new ConfigError(`${what}: ${printable(file)} is not a JSON object (a JWK, as svc keygen writes)`);
  if (process.platform !== 'win32' && privateJwkMembers(jwk).length > 0 && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    const text = `the private key file ${printable(file)} is open to group or others (mode ${mode}); restrict it with: chmod 600 ${printable(file)}`;
    if (exposed === 'refuse') throw new ConfigError(`${what}: ${text}`);
    io.stderr.write(`svc: warning: ${text}\n`);
  }
  return jwk;
}
