/**
 * Registered delegation chains over PostgreSQL: one table shared by every daemon.
 * registerWithin is one transaction under the registry's advisory lock (LOCK_CLASS
 * .delegationChains, one key for all: the shares count every chain), so registrations on every
 * daemon take turns and none can pass a bound another is filling.
 */
import type pg from 'pg';
import type { ChainAdmission, DelegationChainStore, RegistryShares, StoredDelegationChain } from '../../core/delegation/store.js';
import { checkShares, DryRun, withChain, type ChainRow, type DisplacedRow } from '../schema/delegation-chains.js';
import { inLockedTransaction, LOCK_CLASS } from './sql.js';

const COLUMNS = `id, chain, root_did AS "rootDid", leaf_did AS "leafDid", expires_at AS "expiresAt", registered_at AS "registeredAt", client`;
// No rowid here: among chains registered in the same second, the higher id (a digest) comes first.
const NEWEST_FIRST = 'ORDER BY registered_at DESC, id DESC';
// An upsert that keeps a stored chain's holder (client is not in its SET); a new row names it.
const UPSERT = `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at, client) VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (id) DO UPDATE SET chain = excluded.chain, root_did = excluded.root_did, leaf_did = excluded.leaf_did,
    expires_at = excluded.expires_at, registered_at = excluded.registered_at`;
// The oldest registration of the client holding the most (at least $1; ties: the client whose
// oldest registration is oldest).
const VICTIM = `SELECT id, root_did AS "rootDid", leaf_did AS "leafDid", client FROM delegation_chains
  WHERE client = (SELECT client FROM delegation_chains WHERE client IS NOT NULL GROUP BY client
                  HAVING count(*) >= $1 ORDER BY count(*) DESC, min(registered_at), client LIMIT 1)
  ORDER BY registered_at, id LIMIT 1`;
const COUNTS = `SELECT
  (SELECT count(*)::int FROM delegation_chains WHERE client = $1) AS held,
  (SELECT count(*)::int FROM delegation_chains WHERE root_did = $2 AND client IS NOT NULL AND $1::text IS NOT NULL) AS rooted,
  (SELECT count(*)::int FROM delegation_chains) AS total`;
/** The second key of the registry's lock. */
const LOCK_KEY = 'delegation registry';

function upsertValues(record: StoredDelegationChain): unknown[] {
  return [record.id, JSON.stringify(record.chain), record.rootDid, record.leafDid, record.expiresAt, record.registeredAt, record.client ?? null];
}

export class PostgresDelegationChainStore implements DelegationChainStore {
  constructor(private readonly pool: pg.Pool) {}

  async register(record: StoredDelegationChain): Promise<void> {
    await this.pool.query(UPSERT, upsertValues(record));
  }

  async registerWithin(record: StoredDelegationChain, shares: RegistryShares, now: string, options: { dryRun?: boolean } = {}): Promise<ChainAdmission> {
    checkShares(shares);
    try {
      return await inLockedTransaction(this.pool, LOCK_CLASS.delegationChains, LOCK_KEY, async (client) => {
        const admission = await decide(client, record, shares, now);
        if (options.dryRun === true) throw new DryRun(admission);
        return admission;
      });
    } catch (err) {
      if (err instanceof DryRun) return err.admission;
      throw err;
    }
  }

  async forAgent(leafDid: string, now: string): Promise<StoredDelegationChain[]> {
    const { rows } = await this.pool.query<ChainRow>(`SELECT ${COLUMNS} FROM delegation_chains WHERE leaf_did = $1 AND expires_at > $2 ${NEWEST_FIRST}`, [
      leafDid,
      now,
    ]);
    return rows.map(withChain);
  }

  async all(): Promise<StoredDelegationChain[]> {
    const { rows } = await this.pool.query<ChainRow>(`SELECT ${COLUMNS} FROM delegation_chains ${NEWEST_FIRST}`);
    return rows.map(withChain);
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM delegation_chains');
    return rows[0]?.n ?? 0;
  }

  async remove(id: string): Promise<void> {
    await this.pool.query('DELETE FROM delegation_chains WHERE id = $1', [id]);
  }

  async removeExpired(now: string): Promise<number> {
    const result = await this.pool.query('DELETE FROM delegation_chains WHERE expires_at <= $1', [now]);
    return result.rowCount ?? 0;
  }
}

/** registerWithin's decision and writes, inside its locked transaction (the same steps as on SQLite). */
async function decide(client: pg.PoolClient, record: StoredDelegationChain, shares: RegistryShares, now: string): Promise<ChainAdmission> {
  await client.query('DELETE FROM delegation_chains WHERE expires_at <= $1', [now]);
  const refreshed = await client.query('UPDATE delegation_chains SET expires_at = $1, registered_at = $2 WHERE id = $3', [
    record.expiresAt,
    record.registeredAt,
    record.id,
  ]);
  if ((refreshed.rowCount ?? 0) > 0) return { outcome: 'stored', refreshed: true, displaced: null };
  const holder = record.client ?? null;
  // The three counts in one round trip (the client's and the root's are 0 for the operator's own).
  const { rows } = await client.query<{ held: number; rooted: number; total: number }>(COUNTS, [holder, record.rootDid]);
  const { held = 0, rooted = 0, total = 0 } = rows[0] ?? {};
  if (holder !== null) {
    if (held >= shares.perClient) return { outcome: 'client-share', held };
    if (rooted >= shares.perRoot) return { outcome: 'root-share', held: rooted };
  }
  let displaced: DisplacedRow | null = null;
  if (total >= shares.total) {
    displaced = holder === null ? null : ((await client.query<DisplacedRow>(VICTIM, [held + 2])).rows[0] ?? null);
    if (displaced === null) return { outcome: 'full', held: total };
    await client.query('DELETE FROM delegation_chains WHERE id = $1', [displaced.id]);
  }
  await client.query(UPSERT, upsertValues(record));
  return { outcome: 'stored', refreshed: false, displaced };
}
