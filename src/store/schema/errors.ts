import type { PendingRefusal } from '../../core/pending.js';

/** The one error type of the storage layer; the shells map `code` to exit codes and statuses. */
export type StoreErrorCode =
  | 'FUTURE_SCHEMA'
  | 'OPEN_FAILED'
  | 'MEMORY_IN_PRODUCTION'
  | 'BACKUP_DESTINATION_EXISTS'
  /** A backup destination that cannot be a new file: its directory does not exist, or its name has surrounding spaces. */
  | 'BACKUP_DESTINATION_UNUSABLE'
  | 'BACKUP_FAILED'
  /** A database server that cannot be reached just now (PostgreSQL down, restarting, out of connections). */
  | 'UNAVAILABLE'
  /** What the engine does not do (a backup of PostgreSQL: pg_dump's job). */
  | 'NOT_SUPPORTED'
  /** Owner accounts: no such tenant, project or key (the routes: 404). */
  | 'NOT_FOUND'
  /** Owner accounts: the acting subject does not own the project, judged in the write's own transaction (the routes: 404 or 403). */
  | 'NOT_OWNER'
  /** Owner accounts: a name, id or digest already taken (the routes: 409). */
  | 'CONFLICT'
  /** Owner accounts: a project's key cap, a KeyCapacityError naming which (the routes: 429 KEY_CAPACITY_EXHAUSTED). */
  | 'KEY_CAPACITY'
  /** Owner accounts: a share of the outstanding sign-in challenges used up, a ChallengeCapacityError naming it (the gateway: 429, or 503 for the pool). */
  | 'CHALLENGE_CAPACITY';

/** A storage failure with a one-line message fit for an operator (no stack, no SQL). */
export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A project at one of its key caps (10 active, 100 retained): a fixed cap, nothing replenishes it. */
export class KeyCapacityError extends StoreError {
  constructor(
    readonly cap: 'active' | 'retained',
    readonly limit: number,
  ) {
    super('KEY_CAPACITY', cap === 'active' ? `the project already has ${limit} active keys` : `the project already retains ${limit} keys (of any status)`);
  }
}

/**
 * A sign-in challenge refused by a share of its pool (schema/pending.ts): which share, its size, and
 * the whole seconds until one of the challenges holding it expires.
 */
export class ChallengeCapacityError extends StoreError {
  readonly refusal: PendingRefusal;

  constructor(refusal: PendingRefusal) {
    const share = refusal.refused === 'total' ? 'in all' : refusal.refused === 'client' ? 'for this client' : 'for this DID';
    super('CHALLENGE_CAPACITY', `${refusal.limit} sign-in challenges are outstanding ${share}, the most allowed; try again later`);
    this.refusal = refusal;
  }
}

/**
 * One-line reason for a failure of SQLite or the file system, from its code where there is one
 * (never by matching message text); SQLite messages name no SQL, but are cut at the first line.
 */
export function reasonOf(error: unknown): string {
  const raw = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  // SQLite reports extended codes (SQLITE_IOERR_SHORT_READ, SQLITE_CANTOPEN_ISDIR…): the
  // primary code before the second underscore is what the reason depends on.
  const code = typeof raw === 'string' && raw.startsWith('SQLITE_') ? raw.split('_', 2).join('_') : raw;
  switch (code) {
    case 'SQLITE_NOTADB':
      return 'the file is not a SQLite database';
    case 'SQLITE_CORRUPT':
      return 'the database file is corrupt';
    case 'SQLITE_CANTOPEN':
      return 'the file cannot be opened';
    case 'SQLITE_READONLY':
      return 'the database is read-only';
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'the database is locked by another process';
    case 'SQLITE_FULL':
      return 'the disk is full';
    case 'SQLITE_IOERR':
      return 'an I/O error occurred';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'a parent of the path is not a directory';
    case 'EISDIR':
      return 'the path is a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'the file system is read-only';
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] || 'unknown error';
}
