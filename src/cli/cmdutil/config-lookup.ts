/**
 * Where svc.config.json is looked for, before any command runs: a few stat calls, nothing
 * loaded. Only when a file is found does its reader (config-file.ts) load, so a start without
 * one costs no more than before. Order, first found wins:
 *
 *   --config <file>                        (an error when missing)
 *   SVC_CONFIG                             (an error when missing)
 *   $XDG_CONFIG_HOME/svc/config.json       (default ~/.config/svc/config.json)
 *   ./svc.config.json                      (the current directory)
 *
 * The file's values become the lowest layer of io.env (under the environment, under flags), so
 * every command reads its settings as it always has. What was found, and where svc looked, is
 * kept per run for `svc config show`.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageError } from './errors.js';
import type { CliIo } from './io.js';

export interface ConfigCandidate {
  path: string;
  /** How it was named: `--config`, `SVC_CONFIG`, `$XDG_CONFIG_HOME/svc/config.json` or `./svc.config.json`. */
  by: string;
  /** Named explicitly: a missing file is an error, not a reason to look further. */
  required: boolean;
}

/** Where this run looks, in order. */
export function configCandidates(option: string | undefined, env: NodeJS.ProcessEnv, cwd: string = process.cwd()): ConfigCandidate[] {
  if (option !== undefined && option !== '') return [{ path: path.resolve(cwd, option), by: '--config', required: true }];
  const named = env['SVC_CONFIG'];
  if (named !== undefined && named !== '') return [{ path: path.resolve(cwd, named), by: 'SVC_CONFIG', required: true }];
  // XDG Base Directory: a relative XDG_CONFIG_HOME is invalid and ignored.
  const xdg = env['XDG_CONFIG_HOME'];
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : os.homedir();
  const configHome = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return [
    { path: path.join(configHome, 'svc', 'config.json'), by: '$XDG_CONFIG_HOME/svc/config.json', required: false },
    { path: path.join(cwd, 'svc.config.json'), by: './svc.config.json', required: false },
  ];
}

/** The first candidate that is a file; a required one that is not is a usage error (exit 2). */
export function findConfig(candidates: readonly ConfigCandidate[]): ConfigCandidate | null {
  for (const candidate of candidates) {
    let stat: ReturnType<typeof statSync>;
    let unreadable: string | undefined;
    try {
      stat = statSync(candidate.path, { throwIfNoEntry: false });
    } catch (error) {
      // A folder on the way svc may not enter (EACCES, ENOTDIR …): for a place svc merely looks
      // in, there is no file it could read there, and the command runs as without one.
      stat = undefined;
      unreadable = (error as { code?: string }).code ?? 'unreadable';
    }
    if (stat?.isFile()) return candidate;
    if (candidate.required) {
      const why = unreadable !== undefined ? `cannot be reached (${unreadable})` : stat === undefined ? 'does not exist' : 'is not a file';
      throw usageError(
        `config file ${candidate.path} (from ${candidate.by}) ${why}`,
        "name an existing file, or leave it out to use svc's defaults ('svc config path' shows where svc looks)",
      );
    }
  }
  return null;
}

/** What a run's config file set: the variables from it, by key. */
export interface ConfigFileValues {
  path: string;
  by: string;
  /** Variable → the key that set it and its value as the variable holds it. */
  values: ReadonlyMap<string, { key: string; value: string }>;
}

/** This run's lookup: where svc looked, the file found (or null), the environment before the file was layered in. */
export interface ConfigState {
  candidates: readonly ConfigCandidate[];
  file: ConfigFileValues | null;
  env: NodeJS.ProcessEnv;
}

const states = new WeakMap<CliIo, ConfigState>();

/** The lookup of this run (`svc config show`); null before one ran. */
export function configState(io: CliIo): ConfigState | null {
  return states.get(io) ?? null;
}

/**
 * Looks for the config file and, when one is found, layers its values under io.env (a variable
 * set and non-empty in the environment keeps its value: an empty one counts as unset).
 */
export async function applyConfigFile(io: CliIo, option: string | undefined): Promise<void> {
  if (states.has(io)) return;
  const env = io.env;
  const candidates = configCandidates(option, env);
  const found = findConfig(candidates);
  let file: ConfigFileValues | null = null;
  if (found !== null) {
    const { readConfigFile } = await import('./config-file.js');
    file = { path: found.path, by: found.by, values: readConfigFile(found.path) };
    const layered: NodeJS.ProcessEnv = { ...env };
    for (const [variable, { value }] of file.values) if (env[variable] === undefined || env[variable] === '') layered[variable] = value;
    io.env = layered;
  }
  states.set(io, { candidates, file, env });
}
