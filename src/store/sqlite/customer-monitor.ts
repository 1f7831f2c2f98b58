/**
 * Customer monitoring on SQLite: the statements and methods of schema/customer-monitor.ts, each
 * method's generator driven synchronously inside one better-sqlite3 transaction.
 */
import type Database from 'better-sqlite3';
import {
  CUSTOMER_STATEMENTS,
  CustomerMonitor,
  type CustomerDialect,
  type CustomerStatement,
  type Mode,
  type Step,
  type Work,
} from '../schema/customer-monitor.js';
import { SQLITE } from './accounts.js';

/** SQLite: the accounts' dialect, now read from the clock in the statement (only `bounds` reads it); no row locks. */
const SQLITE_CUSTOMER: CustomerDialect = { ...SQLITE, now: `CAST(unixepoch('subsec') * 1000 AS INTEGER)`, skipLocked: '', forUpdate: '', forShare: '' };

/**
 * Customer monitoring over SQLite: each method's generator runs synchronously inside one
 * better-sqlite3 transaction — IMMEDIATE for writes (the write lock is held from the ownership
 * check and the counts to the commit, so two processes on one file take turns), DEFERRED for
 * reads (one snapshot).
 */
export class SqliteCustomerMonitorStore extends CustomerMonitor {
  constructor(db: Database.Database) {
    const prepared = new Map<CustomerStatement, { statement: Database.Statement; names: string[] }>();
    const run = (step: Step): unknown[] => {
      if ('lock' in step) return [];
      let entry = prepared.get(step.statement);
      if (entry === undefined) {
        const sql = CUSTOMER_STATEMENTS[step.statement](SQLITE_CUSTOMER);
        entry = { statement: db.prepare(sql), names: [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))] };
        prepared.set(step.statement, entry);
      }
      const bound = Object.fromEntries(entry.names.map((name) => [name, step.values[name] ?? null]));
      if (entry.statement.reader) return entry.statement.all(bound);
      entry.statement.run(bound);
      return [];
    };
    const drive = db.transaction(<T>(work: Work<T>): T => {
      let step = work.next();
      while (!step.done) step = work.next(run(step.value));
      return step.value;
    });
    super(async <T>(mode: Mode, work: Work<T>) => (mode === 'write' ? drive.immediate(work) : drive.deferred(work)) as T);
  }
}
