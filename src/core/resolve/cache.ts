/** In-process LRU cache of resolutions with per-entry expiry, driven by the Runtime clock. */
import type { Clock, ResolutionCache } from '../runtime.js';
import type { EnrichedResolution } from './types.js';

interface Entry {
  /** The stored result as a cache hit serves it: deep-frozen, `cached: true`. */
  hit: EnrichedResolution;
  expiresAtMs: number;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for…in allocates no array of values (this runs on every resolution).
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
    return entry.hit;
  }

  set(key: string, value: EnrichedResolution, ttlSeconds: number): void {
    if (ttlSeconds <= 0 || this.maxEntries <= 0) return;
    this.#entries.delete(key);
    // Frozen once here, so a hit costs a map lookup and no copy.
    const hit = deepFreeze({ ...value, cached: true });
    this.#entries.set(key, { hit, expiresAtMs: this.clock.now().getTime() + ttlSeconds * 1000 });
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
