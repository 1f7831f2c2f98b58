/**
 * The history tables' ceiling on SQLite (docs/operations.md#bounded-history): the rule of
 * schema/ceiling.ts driven synchronously inside the table's IMMEDIATE record transaction, the
 * row count kept in memory and read again only when another connection has committed since
 * (PRAGMA data_version).
 */
import type Database from 'better-sqlite3';
import type { Recorded } from '../../core/history/store.js';
import {
  CEILING_STATEMENTS,
  CeilingRule,
  type CeilingDialect,
  type CeilingKey,
  type CeilingOptions,
  type CeilingStatement,
  type CeilingTable,
  type RowUsage,
} from '../schema/ceiling.js';

/** The rule on SQLite: driven synchronously inside the table's IMMEDIATE record transaction. */
export class RowCeiling {
  readonly #rule: CeilingRule;
  readonly #countAll: Database.Statement<[], number>;
  readonly #dataVersion: Database.Statement<[], number>;
  readonly #statements: Record<CeilingStatement, Database.Statement<Array<number | string>, unknown>>;
  #count: number | null = null;
  #version: number | null = null;

  constructor(db: Database.Database, table: CeilingTable, key: CeilingKey, options: CeilingOptions = {}) {
    this.#rule = new CeilingRule(table, options);
    this.#countAll = db.prepare(`SELECT count(*) FROM ${table}`).pluck() as Database.Statement<[], number>;
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck() as Database.Statement<[], number>;
    const sqlite: CeilingDialect = { p: () => '?', skipLocked: '' };
    const prepare = (name: CeilingStatement) =>
      db.prepare(CEILING_STATEMENTS[name](table, key, sqlite)).pluck() as Database.Statement<Array<number | string>, unknown>;
    this.#statements = {
      oneOff: prepare('oneOff'),
      oneOffKey: prepare('oneOffKey'),
      maxId: prepare('maxId'),
      rowsOf: prepare('rowsOf'),
      evict: prepare('evict'),
    };
  }

  get ceiling(): number | null {
    return this.#rule.ceiling;
  }

  /** Inside the record transaction, before inserting a new row of `key` (see CeilingRule.makeRoom). */
  makeRoom(key: string): number | null {
    if (this.#rule.ceiling === null) return 0;
    const version = this.#dataVersion.get()!;
    if (this.#count === null || version !== this.#version) {
      this.#count = this.#countAll.get()!;
      this.#version = version;
    }
    const work = this.#rule.makeRoom(key, this.#count);
    let step = work.next();
    while (!step.done) {
      const { statement, args } = step.value;
      step = work.next(this.#answer(statement, args));
    }
    const evicted = step.value;
    if (evicted !== null) this.#count -= evicted;
    return evicted;
  }

  /** A statement's values, the cheapest way better-sqlite3 has for each (get: no array for one row). */
  #answer(statement: CeilingStatement, args: Array<number | string>): unknown[] {
    const prepared = this.#statements[statement];
    if (statement === 'rowsOf') return prepared.all(...args);
    if (statement === 'evict') return prepared.run(...args).changes > 0 ? args : [];
    const value = prepared.get(...args);
    return value === undefined ? [] : [value];
  }

  /** Inside the transaction, after the insert. */
  added(): void {
    if (this.#count !== null) this.#count += 1;
  }

  /**
   * Runs one recording transaction and keeps the counts true: settled after a commit, read
   * again after a rollback.
   */
  commit<T>(transaction: () => Recorded<T>): Recorded<T> {
    let recorded: Recorded<T>;
    try {
      recorded = transaction();
    } catch (error) {
      this.#reset();
      throw error;
    }
    this.#rule.settle(recorded);
    return recorded;
  }

  /** As commit(), for one transaction that recorded several rows (a group commit). */
  commitMany<T>(transaction: () => Recorded<T>[]): Recorded<T>[] {
    let recorded: Recorded<T>[];
    try {
      recorded = transaction();
    } catch (error) {
      this.#reset();
      throw error;
    }
    for (const one of recorded) this.#rule.settle(one);
    return recorded;
  }

  /**
   * Counts a record that another connection's RowCeiling wrote (the daemon's writer thread), so
   * that this one's usage() and first-refusal warning tell of it.
   */
  settle(recorded: Recorded<unknown>): void {
    this.#rule.settle(recorded);
  }

  /** After a transaction that failed (rolled back): counts and watermark are read again. */
  #reset(): void {
    this.#count = null;
    this.#version = null;
    this.#rule.reset();
  }

  usage(): RowUsage {
    return this.#rule.usage(this.#countAll.get()!);
  }
}
