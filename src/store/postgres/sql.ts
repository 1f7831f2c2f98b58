/** What the PostgreSQL repositories share: transactions, advisory lock classes, limits. */
import type pg from 'pg';

/**
 * The first key of the two-key advisory locks each repository takes on its own key (a DID, an
 * endpoint); the second key is hashtext() of it. Watches lock one constant key: the limit is on
 * all of them; so do checks that insert monitor events (the event capacity is on all of them),
 * and challenge creation (the challenge limit). Proofs lock their DID.
 * Distinct from the migration lock (one 64-bit key).
 */
export const LOCK_CLASS = {
  observations: 0x73760001,
  mcpObservations: 0x73760002,
  watches: 0x73760003,
  monitorEvents: 0x73760004,
  claimChallenges: 0x73760005,
  claims: 0x73760006,
  signInChallenges: 0x73760007,
  /** A project's scheduled attempts: claimers of its due watches count its allowance one at a time. */
  customerAttempts: 0x73760008,
  /** The delegation registry: registrations on every daemon take turns (its shares count all chains). */
  delegationChains: 0x73760009,
  /** A DID's kept did:webvh log: appends by several daemons take turns. */
  keptLogs: 0x7376000a,
} as const;

/** Runs `work` in one transaction on `client`: committed when it resolves, rolled back when it throws. */
export async function transaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** `transaction` on a connection of the pool, released afterwards. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await transaction(client, () => work(client));
  } finally {
    client.release();
  }
}

/**
 * `work` in one transaction that first holds the transaction-level advisory lock (`lockClass`,
 * hashtext(`key`)): recorders of one key serialise, recorders of others do not wait. BEGIN and
 * the lock go to the server in one round trip (a simple query of two statements; the key is
 * sent as an escaped literal, since a simple query of several statements takes no parameters).
 */
export async function inLockedTransaction<T>(pool: pg.Pool, lockClass: number, key: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${Math.trunc(lockClass)}, hashtext(${client.escapeLiteral(key)}))`);
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}

/** Now on the database clock, in epoch milliseconds. */
export const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
/** A CTE in front of a statement that reads now once for the whole statement (as `(SELECT now FROM clock)`). */
export const CLOCK = `WITH clock AS MATERIALIZED (SELECT ${NOW_MS} AS now)`;

/** A statement written once for both engines, compiled: its text and its named parameters in order. */
export interface Compiled {
  text: string;
  values(named: Record<string, unknown>): unknown[];
}

/** Named parameters numbered `$1`, `$2`… in the order of first use, and the values in that order. */
export function numberedParameters(): { p(name: string): string; values(named: Record<string, unknown>): unknown[] } {
  const names: string[] = [];
  return {
    p: (name) => {
      let i = names.indexOf(name);
      if (i < 0) i = names.push(name) - 1;
      return `$${i + 1}`;
    },
    values: (named) => names.map((n) => named[n] ?? null),
  };
}
