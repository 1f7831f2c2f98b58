/**
 * Customer monitoring under crashes on a SQLite file (test/support/customer-monitor-crash.ts): `svc serve`
 * with the commercial mode and its gateway, killed with SIGKILL at random moments of its customer
 * passes and restarted on the same database, delivers every event at least once, creates none
 * twice and duplicates no delivery.
 */
import { describe } from 'vitest';
import { sqliteDatabase } from '../support/databases.js';
import { customerCrashSuite } from '../support/customer-monitor-crash.js';

customerCrashSuite('SQLite', describe, () => sqliteDatabase('svc-customer-crash'));
