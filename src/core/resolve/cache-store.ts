/**
 * The storage contract of the resolution cache several daemons share (PostgreSQL:
 * src/store/postgres/resolution-cache.ts). The in-process cache is the Runtime's ResolutionCache
 * (core/runtime.ts).
 */
import type { EnrichedResolution } from './types.js';

/**
 * A resolution cache shared by several daemons (a second tier behind each one's in-process LRU),
 * with single flight: a lease per cache key says which caller is resolving it, so the others wait
 * for its result instead of resolving the same DID at the same time. Expiry of entries and leases
 * is judged on the shared store's clock, never on one daemon's. Every method may reject when the
 * store is unreachable; callers treat that as a miss (resolution never depends on it).
 */
export interface SharedResolutionCache {
  /** The live entry (expiry judged on the database clock), or undefined. Frozen, `cached: true`. */
  get(key: string): Promise<EnrichedResolution | undefined>;
  /** Stores a successful resolution for ttlSeconds (<= 0: nothing stored). */
  set(key: string, did: string, value: EnrichedResolution, ttlSeconds: number): Promise<void>;
  /**
   * Takes the lease to resolve `key` for leaseMs; false when another holder's live lease has it.
   * A holder's own live lease is renewed (true).
   */
  claim(key: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Gives the lease back (only the holder's own: a lease taken over since is left alone). */
  release(key: string, holder: string): Promise<void>;
}
