/**
 * Monitoring under crashes and with several daemons on PostgreSQL (test/support/monitoring-crash.ts):
 * `svc serve` killed with SIGKILL at random points of its polling and delivering, 20 times, loses
 * no event and creates none twice; two daemons on one database share 200 watches and deliver
 * every event exactly once.
 */
import { postgresDatabase } from '../support/databases.js';
import { monitoringCrashSuite, sharedWatchesSuite } from '../support/monitoring-crash.js';
import { describePostgres } from '../support/postgres.js';

monitoringCrashSuite('PostgreSQL', describePostgres, postgresDatabase);
sharedWatchesSuite();
