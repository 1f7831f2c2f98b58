/**
 * Monitoring under crashes on a SQLite file (test/support/monitoring-crash.ts): `svc serve` killed
 * with SIGKILL at random points of its polling and delivering, 20 times, loses no event and
 * creates none twice.
 */
import { describe } from 'vitest';
import { sqliteDatabase } from '../support/databases.js';
import { monitoringCrashSuite } from '../support/monitoring-crash.js';

monitoringCrashSuite('SQLite', describe, () => sqliteDatabase('svc-crash'));
