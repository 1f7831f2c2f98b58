/**
 * Registered delegation chains (SPEC §3) over SQLite: the `delegation_chains` table of schema
 * v2. Statements are prepared once per Store. Timestamps are RFC 3339 UTC at second precision,
 * so comparing them as text orders them in time. The methods are async because the interface
 * is; each is one statement, run synchronously within the call.
 */
import type Database from 'better-sqlite3';
import type { DelegationChainStore, StoredDelegationChain } from '../core/store.js';

const COLUMNS = `id, chain, root_did AS rootDid, leaf_did AS leafDid, expires_at AS expiresAt, registered_at AS registeredAt`;
// rowid breaks ties of one second; an upsert keeps its row (and rowid) and refreshes registered_at.
const NEWEST_FIRST = 'ORDER BY registered_at DESC, rowid DESC';

export type ChainRow = Omit<StoredDelegationChain, 'chain'> & { chain: string };

/** The stored JSON array back as receipts; a row whose text is not an array of strings reads as []. */
export function withChain(row: ChainRow): StoredDelegationChain {
  let chain: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.chain);
    if (Array.isArray(parsed) && parsed.every((r) => typeof r === 'string')) chain = parsed as string[];
  } catch {
    // json_valid() in the table's CHECK makes this unreachable; an empty chain never verifies.
  }
  return { ...row, chain };
}

export class SqliteDelegationChainStore implements DelegationChainStore {
  readonly #upsert: Database.Statement<[string, string, string, string, string, string]>;
  readonly #forAgent: Database.Statement<[string, string], ChainRow>;
  readonly #all: Database.Statement<[], ChainRow>;
  readonly #count: Database.Statement<[], { n: number }>;
  readonly #remove: Database.Statement<[string]>;
  readonly #removeExpired: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET chain = excluded.chain, root_did = excluded.root_did, leaf_did = excluded.leaf_did,
         expires_at = excluded.expires_at, registered_at = excluded.registered_at`,
    );
    this.#forAgent = db.prepare(`SELECT ${COLUMNS} FROM delegation_chains WHERE leaf_did = ? AND expires_at > ? ${NEWEST_FIRST}`);
    this.#all = db.prepare(`SELECT ${COLUMNS} FROM delegation_chains ${NEWEST_FIRST}`);
    this.#count = db.prepare('SELECT count(*) AS n FROM delegation_chains');
    this.#remove = db.prepare('DELETE FROM delegation_chains WHERE id = ?');
    this.#removeExpired = db.prepare('DELETE FROM delegation_chains WHERE expires_at <= ?');
  }

  async register(record: StoredDelegationChain): Promise<void> {
    this.#upsert.run(record.id, JSON.stringify(record.chain), record.rootDid, record.leafDid, record.expiresAt, record.registeredAt);
  }

  async forAgent(leafDid: string, now: string): Promise<StoredDelegationChain[]> {
    return this.#forAgent.all(leafDid, now).map(withChain);
  }

  async all(): Promise<StoredDelegationChain[]> {
    return this.#all.all().map(withChain);
  }

  async count(): Promise<number> {
    return this.#count.get()?.n ?? 0;
  }

  async remove(id: string): Promise<void> {
    this.#remove.run(id);
  }

  async removeExpired(now: string): Promise<number> {
    return this.#removeExpired.run(now).changes;
  }
}
