/**
 * `svc backup <dest>` (docs/history.md#svc-backup): SQLite's online backup API, so the daemon keeps
 * serving (and writing) while the copy is taken. Never overwrites, writes mode 0600, and leaves
 * no partial file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { BackupResult } from '../schema/database.js';
import { reasonOf, StoreError } from '../schema/errors.js';

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Best effort: the original failure is what the caller needs to see.
  }
}

export async function backupDatabase(db: Database.Database, destination: string): Promise<BackupResult> {
  // better-sqlite3 trims the name it is given; the name reserved below must be the one written.
  if (destination.trim() !== destination || destination === '') {
    throw new StoreError('BACKUP_DESTINATION_UNUSABLE', 'the backup destination must be a file name without surrounding spaces');
  }
  const target = path.resolve(destination);
  const directory = path.dirname(target);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(directory);
  } catch {
    stat = undefined;
  }
  if (!stat?.isDirectory()) throw new StoreError('BACKUP_DESTINATION_UNUSABLE', `cannot back up to ${target}: its directory ${directory} does not exist`);

  // O_CREAT|O_EXCL reserves the name atomically: an existing file (or a symlink, even a
  // dangling one) is refused and never opened for writing.
  try {
    fs.closeSync(fs.openSync(target, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new StoreError('BACKUP_DESTINATION_EXISTS', `${target} already exists; a backup never overwrites a file`);
    }
    throw new StoreError('BACKUP_FAILED', `cannot create ${target}: ${reasonOf(error)}`);
  }
  // SQLite may leave a rollback journal beside the copy if the transfer fails mid-way.
  const journal = `${target}-journal`;
  const journalExisted = fs.existsSync(journal);
  try {
    const { totalPages } = await db.backup(target);
    fs.chmodSync(target, 0o600);
    return { destination: target, bytes: fs.statSync(target).size, pages: totalPages };
  } catch (error) {
    removeQuietly(target);
    if (!journalExisted) removeQuietly(journal);
    throw new StoreError('BACKUP_FAILED', `backup to ${target} failed: ${reasonOf(error)}`);
  }
}
