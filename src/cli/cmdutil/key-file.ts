/**
 * A JWK file an option or argument names (`--key`, `--holder-key`, `svc key show <file>`), read as
 * the daemon reads SVC_SIGNING_KEY (src/runtime/key-file.ts), never from standard input. A
 * private key in a file open to group or others is refused (`exposed: 'refuse'`, what signing
 * does) or warned about on stderr (`'warn'`, what only reads the public half does).
 */
import type { JsonObject } from '../../core/encoding/json.js';
import { readJwkFile } from '../../runtime/key-file.js';
import { ConfigError } from '../../runtime/node.js';
import type { CliIo } from './io.js';

/** The JWK in `file`; `what` names it in messages (`--key`, `the key file`). */
export async function readKeyFile(io: CliIo, file: string, what: string, exposed: 'refuse' | 'warn'): Promise<JsonObject> {
  if (file === '-') throw new ConfigError(`${what} names a file: a key is read from its file (mode 0600), never from standard input`);
  if (file === '') throw new ConfigError(`${what} must not be empty`);
  return readJwkFile(file, {
    what,
    holds: 'a JWK',
    exposed: exposed === 'refuse' ? 'refuse' : (warning) => io.stderr.write(`svc: warning: ${warning}\n`),
  });
}
