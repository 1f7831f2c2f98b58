/** Registered delegation chains (SPEC §3) over PostgreSQL: one table shared by every daemon. */
import type pg from 'pg';
import type { DelegationChainStore, StoredDelegationChain } from '../../core/store.js';
import { withChain, type ChainRow } from '../delegation-chains.js';

const COLUMNS = `id, chain, root_did AS "rootDid", leaf_did AS "leafDid", expires_at AS "expiresAt", registered_at AS "registeredAt"`;
// No rowid here: among chains registered in the same second, the higher id (a digest) comes first.
const NEWEST_FIRST = 'ORDER BY registered_at DESC, id DESC';

export class PostgresDelegationChainStore implements DelegationChainStore {
  constructor(private readonly pool: pg.Pool) {}

  async register(record: StoredDelegationChain): Promise<void> {
    await this.pool.query(
      `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET chain = excluded.chain, root_did = excluded.root_did, leaf_did = excluded.leaf_did,
         expires_at = excluded.expires_at, registered_at = excluded.registered_at`,
      [record.id, JSON.stringify(record.chain), record.rootDid, record.leafDid, record.expiresAt, record.registeredAt],
    );
  }

  async forAgent(leafDid: string, now: string): Promise<StoredDelegationChain[]> {
    const { rows } = await this.pool.query<ChainRow>(`SELECT ${COLUMNS} FROM delegation_chains WHERE leaf_did = $1 AND expires_at > $2 ${NEWEST_FIRST}`, [leafDid, now]);
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
