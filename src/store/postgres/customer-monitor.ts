/**
 * Customer monitoring over PostgreSQL, shared by every daemon on the database: the
 * statements and method bodies of schema/customer-monitor.ts, compiled for PostgreSQL (`$n`
 * parameters, the clock CTE, the row locks of its CustomerDialect) and driven over one pooled
 * connection per call, in one transaction: READ COMMITTED for writes, REPEATABLE READ READ ONLY
 * for reads (every statement of a read from one snapshot).
 *
 * Concurrency: owner writes lock the project row (the ownership check, as the accounts'), so the
 * watch limit is counted by one writer at a time; claimers of due watches skip each other's rows
 * (FOR UPDATE SKIP LOCKED) and count a project's attempts under its advisory lock, taken for all
 * their projects in one order; a check locks its watch's row before its events get ids, so a
 * watch's events commit in id order; delivery claims skip each other's rows.
 */
import type pg from 'pg';
import { CUSTOMER_STATEMENTS, CustomerMonitor, type CustomerDialect, type CustomerStatement, type Mode, type Work } from '../schema/customer-monitor.js';
import { compileFor } from './accounts.js';
import { LOCK_CLASS, type Compiled } from './sql.js';

/** The row locks PostgreSQL takes where SQLite's write lock covers them. */
const LOCKS = { skipLocked: 'FOR UPDATE SKIP LOCKED', forUpdate: 'FOR UPDATE', forShare: 'FOR SHARE' };
const compile = (build: (d: CustomerDialect) => string): Compiled => compileFor(build, LOCKS);

const S = Object.fromEntries(Object.entries(CUSTOMER_STATEMENTS).map(([name, build]) => [name, compile(build)])) as Record<CustomerStatement, Compiled>;
const LOCK = `SELECT pg_advisory_xact_lock(${LOCK_CLASS.customerAttempts}, hashtext($1))`;

export class PostgresCustomerMonitorStore extends CustomerMonitor {
  constructor(pool: pg.Pool) {
    super(async <T>(mode: Mode, work: Work<T>): Promise<T> => {
      const client = await pool.connect();
      try {
        await client.query(mode === 'write' ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        try {
          let step = work.next();
          while (!step.done) {
            const request = step.value;
            let rows: unknown[] = [];
            if ('lock' in request) {
              for (const key of request.lock) await client.query(LOCK, [key]);
            } else {
              const statement = S[request.statement];
              // Named: each connection parses and plans a statement once (the poller runs them for every watch).
              rows = (await client.query({ name: `svc-customer-${request.statement}`, text: statement.text, values: statement.values(request.values) })).rows;
            }
            step = work.next(rows);
          }
          await client.query('COMMIT');
          return step.value;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      } finally {
        client.release();
      }
    });
  }
}
