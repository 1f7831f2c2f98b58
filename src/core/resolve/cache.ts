/**
 * In-process LRU cache of resolutions with per-entry expiry, driven by the Runtime clock.
 *
 * Immutability. A resolution is shared: the call that resolved it gets it, and every later cache
 * hit gets the same objects. A cache hit is always deeply frozen, so no caller of a hit can
 * change what the next one is served. Freezing costs more than a fresh did:key resolution's
 * canonicalisation (some 20 µs for its ~70 objects, a tenth of the whole resolution), and most
 * resolutions are never served again; so by default the objects are frozen on the first hit,
 * not when they are cached. The call that resolved afresh gets the objects unfrozen until then:
 * it must treat them as read-only, as svc's own code does — the test suite proves that, running
 * with `freeze: 'on-set'` (SVC_FREEZE_RESULTS), where any change to a resolution that was cached
 * throws at once. The cache is per Runtime: a library caller who breaks the rule changes only
 * its own cache.
 */
import type { Clock, ResolutionCache } from '../runtime.js';
import type { EnrichedResolution } from './types.js';

/** When a cached resolution is deep-frozen: on its first hit (the default) or when it is cached. */
export type CacheFreeze = 'on-hit' | 'on-set';

interface Entry {
  /** The resolution as it was cached (`cached: false`). */
  value: EnrichedResolution;
  /** The resolution as a hit serves it: deep-frozen, `cached: true`; made on the first hit. */
  hit: EnrichedResolution | null;
  expiresAtMs: number;
}

/** Freezes `value` and every object under it; objects already frozen are not walked again. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for…in allocates no array of values.
    const obj = value as Record<string, unknown>;
    for (const key in obj) {
      const v = obj[key];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
  }
  return value;
}

export class MemoryResolutionCache implements ResolutionCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 1000,
    private readonly freeze: CacheFreeze = 'on-hit',
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): EnrichedResolution | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.clock.now().getTime() >= entry.expiresAtMs) {
      this.#entries.delete(key);
      return undefined;
    }
    // Refresh recency: Map iteration order is insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // Frozen once, on the first hit; later hits cost a map lookup and no copy.
    entry.hit ??= deepFreeze({ ...entry.value, cached: true });
    return entry.hit;
  }

  set(key: string, value: EnrichedResolution, ttlSeconds: number): void {
    if (ttlSeconds <= 0 || this.maxEntries <= 0) return;
    this.#entries.delete(key);
    const hit = this.freeze === 'on-set' ? deepFreeze({ ...value, cached: true }) : null;
    this.#entries.set(key, { value, hit, expiresAtMs: this.clock.now().getTime() + ttlSeconds * 1000 });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
