/**
 * The storage contract of registered delegation chains, implemented on both
 * engines in src/store (sqlite/delegation-chains.ts, postgres/delegation-chains.ts); the rules
 * every store method keeps are core/runtime-store.ts's.
 */

/**
 * A registered delegation chain: the receipts
 * themselves, so that a restart can verify them again, and what verify-tool looks up by.
 */
export interface StoredDelegationChain {
  /** chainId(chain): hex SHA-256 of the receipts joined with '\n'. */
  id: string;
  /** The compact receipts, root first. */
  chain: string[];
  /** The root issuer, without fragment. */
  rootDid: string;
  /** The leaf delegate (the agent), without fragment. */
  leafDid: string;
  /** RFC 3339 UTC: the chain's notAfter (the earliest expiry along it). */
  expiresAt: string;
  /** RFC 3339 UTC: when it was (last) registered. */
  registeredAt: string;
  /**
   * Who registered it: the daemon's client key (clientKey of the address), or null (absent on
   * input) for the operator's own registrations (`svc verify-delegation --register` on the
   * database, and chains stored before schema v12). Only chains naming a client count toward
   * the per-client and per-root shares, and only they can be displaced.
   */
  client?: string | null;
}

/** How much of the registry one registration may find taken (see registerWithin). */
export interface RegistryShares {
  /** Unexpired chains the registry holds at most. */
  total: number;
  /** Unexpired chains one client may hold at once. */
  perClient: number;
  /** Unexpired chains rooted in one DID that clients may hold at once. */
  perRoot: number;
}

/**
 * What registerWithin did: stored (a new chain, or `refreshed`: the chain was already registered
 * and keeps its holder; `displaced`: the chain that gave way to it), or why not — the client's
 * share, the root's share, or a registry full with nobody holding more than this client (`held`:
 * the client's, the root's or the registry's count).
 */
export type ChainAdmission =
  | { outcome: 'stored'; refreshed: boolean; displaced: Pick<StoredDelegationChain, 'id' | 'rootDid' | 'leafDid' | 'client'> | null }
  | { outcome: 'client-share' | 'root-share' | 'full'; held: number };

export interface DelegationChainStore {
  /** Stores a chain; a chain already stored under `id` is replaced (its registeredAt refreshed). */
  register(record: StoredDelegationChain): Promise<void>;
  /**
   * Unexpired chains (expiresAt > `now`, both RFC 3339 UTC) whose leaf is `leafDid` (compared
   * exactly: callers pass DIDs without fragment), newest registration first.
   */
  forAgent(leafDid: string, now: string): Promise<StoredDelegationChain[]>;
  /** Every stored chain, expired ones included, newest registration first. */
  all(): Promise<StoredDelegationChain[]>;
  /** How many chains are stored, expired ones included. */
  count(): Promise<number>;
  /** Deletes the chain (nothing when absent). */
  remove(id: string): Promise<void>;
  /** Deletes chains with expiresAt <= `now`; resolves to how many. */
  removeExpired(now: string): Promise<number>;
  /**
   * Registers a chain within the shares, as one transaction (one registration at a time across
   * every process on the database): chains expired at `now` are deleted first, so they never
   * count; a chain already stored is refreshed (registeredAt, expiresAt) and keeps its holder;
   * otherwise a chain naming a client is refused past that client's share or its root's share.
   * A full registry displaces the oldest registration of the client holding the most chains, when
   * that client holds at least two more than the registering one (max-min fairness: a flood costs
   * the flooders, never a newcomer its first chains); a chain of the operator's own (client null)
   * displaces nothing. `dryRun`: the same decision, rolled back (nothing written).
   */
  registerWithin(record: StoredDelegationChain, shares: RegistryShares, now: string, options?: { dryRun?: boolean }): Promise<ChainAdmission>;
}
