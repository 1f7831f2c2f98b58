/**
 * Where the embedded database lives by default, and whether a directory for it can be made.
 * Kept apart from the store itself so that commands can name and check the path without
 * loading better-sqlite3.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reasonOf, StoreError } from './errors.js';

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

/** The nearest existing entry at or above `directory`, and the directories missing below it (outermost first). */
function existingAncestor(directory: string): { existing: string; stats: fs.Stats; missing: string[] } {
  const missing: string[] = [];
  let current = path.resolve(directory);
  for (;;) {
    try {
      return { existing: current, stats: fs.statSync(current), missing };
    } catch (error) {
      const parent = path.dirname(current);
      // Missing, or below a file (ENOTDIR): look further up, so the file itself gets named.
      // Anything else (EACCES, ELOOP) is the answer for this entry.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current) throw error;
      // A symbolic link whose target is missing exists, and can hold nothing.
      const link = code === 'ENOENT' ? lstatOrNull(current) : null;
      if (link !== null) return { existing: current, stats: link, missing };
      missing.unshift(current);
      current = parent;
    }
  }
}

function lstatOrNull(entry: string): fs.Stats | null {
  try {
    return fs.lstatSync(entry);
  } catch {
    return null;
  }
}

/** Why an existing entry cannot hold the database's directory. */
function notDirectory(entry: string, stats: fs.Stats): string {
  return stats.isSymbolicLink() ? `${entry} is a symbolic link to a missing target` : `${entry} is not a directory`;
}

/** Kernel file systems that refuse new files and directories whatever the permissions say (statfs magic numbers). */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
]);

function pseudoFileSystem(directory: string): string | undefined {
  try {
    return PSEUDO_FILE_SYSTEMS.get(Number(fs.statfsSync(directory).type));
  } catch {
    return undefined;
  }
}

/**
 * Creates `directory` and its missing parents with `mode`, one level at a time. Node's
 * `mkdirSync(…, { recursive: true })` spins forever at 100% CPU when a parent exists but answers
 * ENOENT for a new child (anywhere under /proc: it retries the parent, which exists, then the
 * child again): here each missing level is tried once, so the walk ends. Throws StoreError
 * OPEN_FAILED with a one-line reason naming the directory.
 */
export function makeDirectory(directory: string, mode: number): void {
  const fail = (reason: string): never => {
    throw new StoreError('OPEN_FAILED', `cannot create the directory ${directory}: ${reason}`);
  };
  let found: ReturnType<typeof existingAncestor>;
  try {
    found = existingAncestor(directory);
  } catch (error) {
    return fail(reasonOf(error));
  }
  if (!found.stats.isDirectory()) return fail(notDirectory(found.existing, found.stats));
  for (const level of found.missing) {
    try {
      fs.mkdirSync(level, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Made by another process in the meantime: fine if it is a directory.
      if (code === 'EEXIST' && isDirectory(level)) continue;
      if (code === 'EEXIST') return fail(`${level} appeared meanwhile and is not a directory`);
      // The parent exists (it was found or just made), so ENOENT means it takes no new entries.
      if (code === 'ENOENT') return fail(`${path.dirname(level)} does not accept new directories`);
      return fail(reasonOf(error));
    }
  }
}

function isDirectory(entry: string): boolean {
  try {
    return fs.statSync(entry).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why a database could not be created at `file`, which does not exist yet, or null when it
 * could. Creates nothing: the reading commands (history, diff) use it to tell "nothing recorded
 * yet" from "nothing can ever be recorded here" (a file where a directory should be, a directory
 * without write permission, a kernel file system such as /proc).
 */
export function storePathProblem(file: string): string | null {
  const directory = path.dirname(path.resolve(file));
  let found: ReturnType<typeof existingAncestor>;
  try {
    found = existingAncestor(directory);
  } catch (error) {
    return `cannot use the directory ${directory}: ${reasonOf(error)}`;
  }
  const { existing, stats, missing } = found;
  const target = missing.length > 0 ? `the directory ${directory}` : `the database ${file}`;
  if (!stats.isDirectory()) return `cannot create ${target}: ${notDirectory(existing, stats)}`;
  const kernel = pseudoFileSystem(existing);
  if (kernel !== undefined) {
    return `cannot create ${target}: ${existing} does not accept new ${missing.length > 0 ? 'directories' : 'files'} (${kernel} kernel file system)`;
  }
  try {
    fs.accessSync(existing, fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    return `cannot create ${target}: ${reasonOf(error)}`;
  }
  return null;
}
