/** What the PostgreSQL repositories share: transactions, advisory lock classes, limits. */
import type pg from 'pg';

/**
 * The first key of the two-key advisory locks each repository takes on its own key (a DID, an
 * endpoint); the second key is hashtext() of it. Distinct from the migration lock (one 64-bit key).
 */
export const LOCK_CLASS = { observations: 0x73760001, mcpObservations: 0x73760002 } as const;

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
