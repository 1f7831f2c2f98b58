/** Options shared by the commands that use the embedded store. */
import type { Command } from 'commander';
import { defaultStorePath } from '../../store/paths.js';

export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `--db <path>`: the database file; defaults under $XDG_STATE_HOME/svc/ (shared by CLI and daemon). */
export function addDbOption(cmd: Command): Command {
  return cmd.option('--db <path>', 'database file (default: $XDG_STATE_HOME/svc/svc.db)');
}

export function storePathOption(db: string | undefined, env: NodeJS.ProcessEnv): string {
  return db ?? defaultStorePath(env);
}
