/**
 * Fair shares of a pool of pending challenges (docs/operations.md#fair-shares), written once for
 * both pools that have them — claim challenges (claims.ts) and sign-in challenges (accounts.ts) —
 * and both engines. A challenge is pending while unused and unexpired on the database clock. A new
 * one is admitted only while the pool holds fewer than `total`, its client fewer than `perClient`,
 * and its DID fewer than `perDid` or none of the DID's pending challenges is the client's own.
 *
 * That last clause is what makes a per-DID share safe: without it, whoever knows a DID could
 * fill its share and keep its controller from ever asking for a challenge. With it, a client
 * that holds none of the DID's challenges is always admitted (within its own share and the
 * pool), so a DID's share bounds what the clients already holding its challenges may add, and
 * nothing a flood by others does can shut its controller out.
 *
 * All of it is one conditional INSERT (the caller's statement with this WHERE), inside the
 * caller's transaction: IMMEDIATE on SQLite, under the pool's advisory lock on PostgreSQL, so
 * concurrent creators never pass a share together. Only when it inserts nothing is the state read
 * again, in the same transaction, to say which share refused and until when.
 */
import type { PendingLimits, PendingRefusal } from '../../core/pending.js';

/** How a statement names a parameter and the database's clock (the claims' and the accounts' dialects both fit). */
export interface PendingDialect {
  p(name: string): string;
  readonly now: string;
}

/** The parameters of the guard and the state: the share sizes, the client, the DID. */
export function pendingValues(limits: PendingLimits, client: string, did: string): Record<string, unknown> {
  // A limit that is not a number refuses rather than admits (every comparison is "count < limit").
  const size = (n: number) => (typeof n === 'number' && !Number.isNaN(n) ? n : -1);
  return { total: size(limits.total), perClient: size(limits.perClient), perDid: size(limits.perDid), client, did };
}

const pending = (d: PendingDialect, table: string, where = ''): string =>
  `SELECT count(*) FROM ${table} WHERE expires_at_ms > ${d.now} AND used_at_ms IS NULL${where}`;
const earliest = (d: PendingDialect, table: string, where = ''): string =>
  `SELECT min(expires_at_ms) FROM ${table} WHERE expires_at_ms > ${d.now} AND used_at_ms IS NULL${where}`;
const ofClient = (d: PendingDialect) => ` AND client = CAST(${d.p('client')} AS TEXT)`;
const ofDid = (d: PendingDialect) => ` AND did = CAST(${d.p('did')} AS TEXT)`;
const limit = (d: PendingDialect, name: string) => `CAST(${d.p(name)} AS DOUBLE PRECISION)`;

/** The WHERE of a conditional INSERT … SELECT into `table`: every share has room. */
export function pendingGuard(d: PendingDialect, table: string): string {
  return `WHERE (${pending(d, table)}) < ${limit(d, 'total')}
      AND (${pending(d, table, ofClient(d))}) < ${limit(d, 'perClient')}
      AND ((${pending(d, table, ofDid(d))}) < ${limit(d, 'perDid')}
        OR NOT EXISTS (SELECT 1 FROM ${table} WHERE expires_at_ms > ${d.now} AND used_at_ms IS NULL${ofDid(d)}${ofClient(d)}))`;
}

/** What pendingRefusal reads: the counts of each share and when its first challenge expires. */
export function pendingState(d: PendingDialect, table: string): string {
  return `SELECT
      (${pending(d, table)}) AS total, (${earliest(d, table)}) AS "totalNextMs",
      (${pending(d, table, ofClient(d))}) AS client, (${earliest(d, table, ofClient(d))}) AS "clientNextMs",
      (${pending(d, table, ofDid(d))}) AS did, (${earliest(d, table, ofDid(d))}) AS "didNextMs",
      (${pending(d, table, `${ofDid(d)}${ofClient(d)}`)}) AS "clientOfDid",
      ${d.now} AS "nowMs"`;
}

type Count = number | string;

export interface PendingStateRow {
  total: Count;
  totalNextMs: Count | null;
  client: Count;
  clientNextMs: Count | null;
  did: Count;
  didNextMs: Count | null;
  clientOfDid: Count;
  nowMs: Count;
}

/** The whole pool frees a slot whenever any challenge is used or expires: Retry-After says a minute at most. */
const TOTAL_RETRY_MAX = 60;

/**
 * Which share refused, read after the refusal in the same transaction. The client's own share is
 * named first (its own doing, whatever else is full), then the DID's, then the pool's.
 */
export function pendingRefusal(row: PendingStateRow, limits: PendingLimits): PendingRefusal {
  const now = Number(row.nowMs);
  const wait = (next: Count | null) => (next === null ? 1 : Math.max(1, Math.ceil((Number(next) - now) / 1000)));
  if (!(Number(row.client) < limits.perClient)) return { refused: 'client', limit: limits.perClient, retryAfterSeconds: wait(row.clientNextMs) };
  if (!(Number(row.did) < limits.perDid) && Number(row.clientOfDid) > 0)
    return { refused: 'did', limit: limits.perDid, retryAfterSeconds: wait(row.didNextMs) };
  return { refused: 'total', limit: limits.total, retryAfterSeconds: Math.min(TOTAL_RETRY_MAX, wait(row.totalNextMs)) };
}
