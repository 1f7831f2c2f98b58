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
 *
 * Bounds. The cache holds at most `maxEntries` resolutions and at most `maxBytes` of them, by an
 * estimate of what each entry keeps alive (`estimateResolutionBytes`): a hostile host can serve
 * documents of any shape up to the fetch limit, and a count of entries alone let 1,000 documents
 * of 480 KiB take some 700 MB. Least recently used entries go first until both bounds hold; an
 * entry larger than the whole byte budget is not cached at all (it is still answered).
 */
import type { Clock } from '../clock.js';
import type { CacheUsage, ResolutionCache } from '../runtime.js';
import type { EnrichedResolution } from './types.js';

/** When a cached resolution is deep-frozen: on its first hit (the default) or when it is cached. */
export type CacheFreeze = 'on-hit' | 'on-set';

/** Default byte budget of the in-memory cache (SVC_CACHE_MAX_BYTES): 64 MiB. */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** Default entry bound of the in-memory cache (SVC_CACHE_MAX_ENTRIES). */
export const DEFAULT_CACHE_MAX_ENTRIES = 1000;

/*
 * What one value of a resolution costs, in bytes, by the estimate below: V8's layout on 64-bit
 * Node (no pointer compression) — an object's header and a slot per member (dictionary-mode
 * objects cost more per member, hence 24), an array's header and its backing store, which
 * grows by push to at least 17 slots (the strict JSON parser builds arrays so: `[1]` costs some
 * 190 bytes of heap for 4 bytes of text), a heap number, a string's header. Every string is
 * counted twice: once on the heap, once in the answer a route serialises for a cached result
 * and keeps beside it (routes/resolution.ts). Strings shared by two places of a result (the
 * document and evidence.services) are counted at each place: the estimate errs high, never low.
 * Measured against process.memoryUsage() with documents of 470 KiB made of one long string, of
 * 3,500 services and of 22,000 small objects with arrays: the estimate is 1.05–1.3 × the heap the
 * entry and its kept answer actually took.
 */
const OBJECT_BYTES = 32;
const MEMBER_BYTES = 24;
const ARRAY_BYTES = 48;
const ARRAY_SLACK_SLOTS = 16;
const SLOT_BYTES = 8;
const NUMBER_BYTES = 16;
const STRING_BYTES = 24;

/**
 * An estimate, in bytes, of the memory a cached resolution keeps alive: one walk over its values
 * (no serialisation). It costs a few microseconds for a did:key result (about 70 objects) and
 * grows with the document, as its parsing did; see the constants above for what it counts.
 * Measured: some 8 µs of a fresh did:key resolution's 150–350 µs (a JSON.stringify of the same
 * result costs 60 µs); a cache hit costs nothing more.
 */
export function estimateResolutionBytes(value: unknown): number {
  if (typeof value === 'object' && value !== null) return objectBytes(value);
  return leafBytes(value);
}

function leafBytes(value: unknown): number {
  return typeof value === 'string' ? STRING_BYTES + 2 * value.length : typeof value === 'number' ? NUMBER_BYTES : SLOT_BYTES;
}

function objectBytes(value: object): number {
  let bytes: number;
  if (Array.isArray(value)) {
    bytes = ARRAY_BYTES + SLOT_BYTES * (value.length + ARRAY_SLACK_SLOTS);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      bytes += typeof v === 'object' && v !== null ? objectBytes(v) : leafBytes(v);
    }
    return bytes;
  }
  bytes = OBJECT_BYTES;
  const obj = value as Record<string, unknown>;
  // A member name is counted in the kept answer only (on the heap it is shared, internalised).
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = obj[key];
    bytes += MEMBER_BYTES + key.length + (typeof v === 'object' && v !== null ? objectBytes(v) : leafBytes(v));
  }
  return bytes;
}

interface Entry {
  /** The resolution as it was cached (`cached: false`). */
  value: EnrichedResolution;
  /** estimateResolutionBytes of the value, counted against the byte budget. */
  bytes: number;
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
  #bytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = DEFAULT_CACHE_MAX_ENTRIES,
    private readonly freeze: CacheFreeze = 'on-hit',
    private readonly maxBytes = DEFAULT_CACHE_MAX_BYTES,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** Entries, their estimated bytes, and both bounds. */
  usage(): CacheUsage {
    return { entries: this.#entries.size, bytes: this.#bytes, maxEntries: this.maxEntries, maxBytes: this.maxBytes };
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  get(key: string): EnrichedResolution | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.clock.now().getTime() >= entry.expiresAtMs) {
      this.#remove(key);
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
    if (ttlSeconds <= 0 || this.maxEntries <= 0 || this.maxBytes <= 0) return;
    this.#remove(key);
    const bytes = estimateResolutionBytes(value);
    // Larger than the whole budget: kept, it would evict everything else and then itself.
    if (bytes > this.maxBytes) return;
    const hit = this.freeze === 'on-set' ? deepFreeze({ ...value, cached: true }) : null;
    this.#entries.set(key, { value, bytes, hit, expiresAtMs: this.clock.now().getTime() + ttlSeconds * 1000 });
    this.#bytes += bytes;
    // Least recently used first (Map iteration order is insertion order, refreshed by get).
    while (this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes) {
      this.#remove(this.#entries.keys().next().value as string);
    }
  }

  delete(key: string): void {
    this.#remove(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
