/**
 * Registered delegation chains over SQLite: the `delegation_chains` table of schema
 * v2 (its holder, `client`, since v12). Statements are prepared once per Store. Timestamps are
 * RFC 3339 UTC at second precision, so comparing them as text orders them in time. The methods
 * are async because the interface is; each is one statement, run synchronously within the call,
 * except registerWithin: one IMMEDIATE transaction of several.
 */
import type Database from 'better-sqlite3';
import type { ChainAdmission, DelegationChainStore, RegistryShares, StoredDelegationChain } from '../../core/delegation/store.js';
import { checkShares, DryRun, withChain, type ChainRow, type DisplacedRow } from '../schema/delegation-chains.js';

const COLUMNS = `id, chain, root_did AS rootDid, leaf_did AS leafDid, expires_at AS expiresAt, registered_at AS registeredAt, client`;
// rowid breaks ties of one second; an upsert keeps its row (and rowid) and refreshes registered_at.
const NEWEST_FIRST = 'ORDER BY registered_at DESC, rowid DESC';

export class SqliteDelegationChainStore implements DelegationChainStore {
  readonly #insert: Database.Statement<[string, string, string, string, string, string, string | null]>;
  readonly #forAgent: Database.Statement<[string, string], ChainRow>;
  readonly #all: Database.Statement<[], ChainRow>;
  readonly #count: Database.Statement<[], { n: number }>;
  readonly #remove: Database.Statement<[string]>;
  readonly #removeExpired: Database.Statement<[string]>;
  readonly #holderOf: Database.Statement<[string], { client: string | null }>;
  readonly #refresh: Database.Statement<[string, string, string]>;
  readonly #heldByClient: Database.Statement<[string], number>;
  readonly #heldByRoot: Database.Statement<[string], number>;
  readonly #victim: Database.Statement<[number], DisplacedRow>;
  readonly #within: (record: StoredDelegationChain, shares: RegistryShares, now: string, dryRun: boolean) => ChainAdmission;

  constructor(db: Database.Database) {
    // An upsert that keeps a stored chain's holder (client is not in its SET); a new row names it.
    this.#insert = db.prepare(
      `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at, client) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET chain = excluded.chain, root_did = excluded.root_did, leaf_did = excluded.leaf_did,
         expires_at = excluded.expires_at, registered_at = excluded.registered_at`,
    );
    this.#forAgent = db.prepare(`SELECT ${COLUMNS} FROM delegation_chains WHERE leaf_did = ? AND expires_at > ? ${NEWEST_FIRST}`);
    this.#all = db.prepare(`SELECT ${COLUMNS} FROM delegation_chains ${NEWEST_FIRST}`);
    this.#count = db.prepare('SELECT count(*) AS n FROM delegation_chains');
    this.#remove = db.prepare('DELETE FROM delegation_chains WHERE id = ?');
    this.#removeExpired = db.prepare('DELETE FROM delegation_chains WHERE expires_at <= ?');
    this.#holderOf = db.prepare('SELECT client FROM delegation_chains WHERE id = ?');
    this.#refresh = db.prepare('UPDATE delegation_chains SET expires_at = ?, registered_at = ? WHERE id = ?');
    this.#heldByClient = db.prepare('SELECT count(*) FROM delegation_chains WHERE client = ?').pluck() as Database.Statement<[string], number>;
    this.#heldByRoot = db.prepare('SELECT count(*) FROM delegation_chains WHERE root_did = ? AND client IS NOT NULL').pluck() as Database.Statement<
      [string],
      number
    >;
    // The oldest registration of the client holding the most (at least the given number; ties:
    // the client whose oldest registration is oldest).
    this.#victim = db.prepare(
      `SELECT id, root_did AS rootDid, leaf_did AS leafDid, client FROM delegation_chains
       WHERE client = (SELECT client FROM delegation_chains WHERE client IS NOT NULL GROUP BY client
                       HAVING count(*) >= ? ORDER BY count(*) DESC, min(registered_at), client LIMIT 1)
       ORDER BY registered_at, rowid LIMIT 1`,
    );
    const within = db.transaction((record: StoredDelegationChain, shares: RegistryShares, now: string, dryRun: boolean): ChainAdmission => {
      const admission = this.#decide(record, shares, now);
      if (dryRun) throw new DryRun(admission);
      return admission;
    });
    // IMMEDIATE: the write lock is taken before the counts are read, so two processes on one
    // file cannot both find room for the last slot.
    this.#within = (record, shares, now, dryRun) => within.immediate(record, shares, now, dryRun);
  }

  async register(record: StoredDelegationChain): Promise<void> {
    this.#insert.run(record.id, JSON.stringify(record.chain), record.rootDid, record.leafDid, record.expiresAt, record.registeredAt, record.client ?? null);
  }

  async registerWithin(record: StoredDelegationChain, shares: RegistryShares, now: string, options: { dryRun?: boolean } = {}): Promise<ChainAdmission> {
    checkShares(shares);
    try {
      return this.#within(record, shares, now, options.dryRun === true);
    } catch (err) {
      if (err instanceof DryRun) return err.admission;
      throw err;
    }
  }

  /** registerWithin's decision and writes, inside its transaction. */
  #decide(record: StoredDelegationChain, shares: RegistryShares, now: string): ChainAdmission {
    this.#removeExpired.run(now);
    if (this.#holderOf.get(record.id) !== undefined) {
      this.#refresh.run(record.expiresAt, record.registeredAt, record.id);
      return { outcome: 'stored', refreshed: true, displaced: null };
    }
    const client = record.client ?? null;
    let held = 0;
    if (client !== null) {
      held = this.#heldByClient.get(client) ?? 0;
      if (held >= shares.perClient) return { outcome: 'client-share', held };
      const rooted = this.#heldByRoot.get(record.rootDid) ?? 0;
      if (rooted >= shares.perRoot) return { outcome: 'root-share', held: rooted };
    }
    let displaced: DisplacedRow | null = null;
    const total = this.#count.get()?.n ?? 0;
    if (total >= shares.total) {
      displaced = client === null ? null : (this.#victim.get(held + 2) ?? null);
      if (displaced === null) return { outcome: 'full', held: total };
      this.#remove.run(displaced.id);
    }
    this.#insert.run(record.id, JSON.stringify(record.chain), record.rootDid, record.leafDid, record.expiresAt, record.registeredAt, client);
    return { outcome: 'stored', refreshed: false, displaced };
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
