/**
 * A JWK file, as the daemon reads SVC_SIGNING_KEY and the CLI reads `--key`, `--holder-key` and
 * `svc key show <file>`: a regular file of at most 64 KiB of UTF-8 holding one JSON object,
 * parsed strictly. A private key (a JWK with "d") in a file open to group or others is refused,
 * or told to `exposed` when only its public half is read, with the chmod that fixes it. Every
 * failure is a one-line ConfigError naming the setting and the file.
 *
 * No message quotes the file's content: a parse error could show a piece of the key.
 */
import { readFile, stat } from 'node:fs/promises';
import { isJsonObject, parseJsonStrict, type JsonObject } from '../core/encoding/json.js';
import { privateJwkMembers } from '../core/keys/jwk.js';
import { ConfigError } from './node.js';

/** A key file larger than this is no JWK. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

export interface JwkFileOptions {
  /** Names the file's setting in messages: `SVC_SIGNING_KEY`, `--key`, `the key file`. */
  what: string;
  /** What the file must hold, for the message: `a JWK`, `a private JWK`. */
  holds: string;
  /** A private key open to group or others: `'refuse'`, or a function told why it should not be. */
  exposed: 'refuse' | ((warning: string) => void);
}

/** A path as a message shows it: control characters escaped, at most 200 characters. */
export function shownPath(file: string): string {
  const text = file.length > 200 ? `${file.slice(0, 200)}…` : file;
  return /[\u0000-\u001f\u007f\s'"]/.test(text) ? JSON.stringify(text) : text;
}

function unreadable(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return (err as NodeJS.ErrnoException).code ?? 'it cannot be read';
  }
}

/** The JSON object in `file`, checked as the header says; throws ConfigError. */
export async function readJwkFile(file: string, options: JwkFileOptions): Promise<JsonObject> {
  const { what } = options;
  const shown = shownPath(file);
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${shown}: ${unreadable(err)}`);
  }
  if (!info.isFile()) throw new ConfigError(`${what}: ${shown} is not a file`);
  if (info.size > MAX_KEY_FILE_BYTES) throw new ConfigError(`${what}: ${shown} is larger than 64 KiB: it is no JWK`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(file));
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${shown}: ${err instanceof TypeError ? 'it is not UTF-8 text' : unreadable(err)}`);
  }
  let jwk: unknown = null;
  try {
    jwk = parseJsonStrict(text, { maxDepth: 8 });
  } catch {
    // The parser's message could quote the file's content (the key): it is not repeated.
  }
  if (!isJsonObject(jwk)) throw new ConfigError(`${what}: ${shown} is not a JSON object (${options.holds}, as svc keygen writes)`);
  if (process.platform !== 'win32' && privateJwkMembers(jwk).length > 0 && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    const warning = `the private key file ${shown} is open to group or others (mode ${mode}); restrict it with: chmod 600 ${shown}`;
    if (options.exposed === 'refuse') throw new ConfigError(`${what}: ${warning}`);
    options.exposed(warning);
  }
  return jwk;
}
