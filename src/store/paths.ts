/**
 * Where the embedded database lives by default. Kept apart from the store itself so that
 * commands can name the path without loading better-sqlite3.
 */
import os from 'node:os';
import path from 'node:path';

/**
 * `$XDG_STATE_HOME/svc/svc.db`, else `$HOME/.local/state/svc/svc.db` (XDG Base Directory
 * specification: a relative XDG_STATE_HOME is invalid and ignored). The CLI and the daemon
 * share it, so both add to one history.
 */
export function defaultStorePath(env: NodeJS.ProcessEnv): string {
  const state = env['XDG_STATE_HOME'];
  const base =
    state !== undefined && state !== '' && path.isAbsolute(state)
      ? state
      : path.join(env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : os.homedir(), '.local', 'state');
  return path.join(base, 'svc', 'svc.db');
}
