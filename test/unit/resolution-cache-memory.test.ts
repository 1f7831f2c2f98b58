/**
 * The in-process resolution cache keeps cached resolutions immune to callers' changes: a hit is
 * deep-frozen (on the first hit by default, when cached with 'on-set'), expiry and recency follow
 * the Runtime clock, and the runtime picks the mode from SVC_FREEZE_RESULTS.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CACHE_MAX_BYTES, estimateResolutionBytes, MemoryResolutionCache } from '../../src/core/resolve/cache.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { configError } from '../support/problems.js';

const DID = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';

/** Every object reachable from `value` is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

/** Some object reachable from `value` is not frozen. */
function hasUnfrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return !Object.isFrozen(value) || Object.values(value).some(hasUnfrozen);
}

async function fresh(): Promise<EnrichedResolution> {
  // A cache that keeps nothing: the result comes back exactly as resolve built it.
  const runtime = { ...testRuntime(fixedClock()), cache: new MemoryResolutionCache(fixedClock(), 0) };
  return resolve(DID, runtime);
}

describe('MemoryResolutionCache', () => {
  it('on-hit (default): nothing is frozen when cached; the first hit deep-freezes, and every hit is the same object', async () => {
    const cache = new MemoryResolutionCache(fixedClock());
    const result = await fresh();
    cache.set(DID, result, 60);
    expect(hasUnfrozen(result.evidence)).toBe(true);
    const hit = cache.get(DID)!;
    expect(hit).toEqual({ ...result, cached: true });
    expect(deeplyFrozen(hit)).toBe(true);
    expect(cache.get(DID)).toBe(hit);
    // The resolving caller's objects are the hit's: frozen from now on too.
    expect(deeplyFrozen(result.evidence)).toBe(true);
    expect(result.cached).toBe(false);
    expect(() => {
      (hit.verdict as { outcome: string }).outcome = 'changed';
    }).toThrow(TypeError);
    expect(() => (hit.evidence.keys as unknown[]).push({})).toThrow(TypeError);
    expect(cache.get(DID)!.verdict.outcome).toBe(result.verdict.outcome);
  });

  it('on-set: the resolution is deep-frozen the moment it is cached, so the resolving caller cannot change it either', async () => {
    const cache = new MemoryResolutionCache(fixedClock(), 10, 'on-set');
    const result = await fresh();
    cache.set(DID, result, 60);
    expect(deeplyFrozen(result.evidence)).toBe(true);
    expect(() => (result.limitations as string[]).push('x')).toThrow(TypeError);
    expect(deeplyFrozen(cache.get(DID))).toBe(true);
  });

  it('expires by the clock, refreshes recency on a hit, and keeps at most maxEntries', async () => {
    const clock = fixedClock();
    const cache = new MemoryResolutionCache(clock, 2);
    const result = await fresh();
    cache.set('a', result, 10);
    cache.set('b', result, 10);
    expect(cache.get('a')).toBeDefined();
    cache.set('c', result, 10);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
    clock.advance(9_999);
    expect(cache.get('a')).toBeDefined();
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    cache.set('d', result, 0);
    expect(cache.get('d')).toBeUndefined();
  });

  it('the runtime freezes on the first hit unless SVC_FREEZE_RESULTS is set', async () => {
    for (const [env, frozenWhenCached] of [
      [{}, false],
      [{ SVC_FREEZE_RESULTS: '1' }, true],
    ] as const) {
      const runtime = createRuntime(env);
      const result = await resolve(DID, runtime);
      expect(deeplyFrozen(result.evidence)).toBe(frozenWhenCached);
      const hit = await resolve(DID, runtime);
      expect(hit.cached).toBe(true);
      expect(deeplyFrozen(hit)).toBe(true);
    }
  });
});

/** `result` with a document member of `chars` characters: a resolution of a chosen size. */
function sized(result: EnrichedResolution, chars: number): EnrichedResolution {
  return { ...result, didDocument: { ...result.didDocument, padding: 'x'.repeat(chars) } };
}

describe('MemoryResolutionCache: the byte budget', () => {
  it('estimates what an entry holds: at least its strings twice (heap and kept answer), and grows with the document', async () => {
    const result = await fresh();
    const base = estimateResolutionBytes(result);
    expect(base).toBeGreaterThan(JSON.stringify(result).length);
    expect(estimateResolutionBytes(sized(result, 100_000)) - base).toBeGreaterThanOrEqual(200_000);
    // Structure costs more than its text: 10,000 one-element arrays are 40 KB of JSON, far more on the heap.
    const arrays = { ...result, didDocument: { ...result.didDocument, extra: Array.from({ length: 10_000 }, () => [1]) } };
    expect(estimateResolutionBytes(arrays) - base).toBeGreaterThan(1_500_000);
  });

  it('evicts least recently used entries until the bytes fit, and reports entries, bytes and both bounds', async () => {
    const result = await fresh();
    const one = estimateResolutionBytes(sized(result, 50_000));
    const cache = new MemoryResolutionCache(fixedClock(), 100, 'on-hit', 3 * one);
    expect(cache.usage()).toEqual({ entries: 0, bytes: 0, maxEntries: 100, maxBytes: 3 * one });
    for (const key of ['a', 'b', 'c']) cache.set(key, sized(result, 50_000), 60);
    expect(cache.usage()).toMatchObject({ entries: 3, bytes: 3 * one });
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('d', sized(result, 50_000), 60);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].every((k) => cache.get(k) !== undefined)).toBe(true);
    expect(cache.usage()).toMatchObject({ entries: 3, bytes: 3 * one });
    // Replacing, deleting, expiring and clearing all give their bytes back.
    cache.set('a', sized(result, 50_000), 60);
    expect(cache.usage().bytes).toBe(3 * one);
    cache.delete('c');
    expect(cache.usage()).toMatchObject({ entries: 2, bytes: 2 * one });
    cache.clear();
    expect(cache.usage()).toMatchObject({ entries: 0, bytes: 0 });
    const clock = fixedClock();
    const expiring = new MemoryResolutionCache(clock, 100, 'on-hit', 3 * one);
    expiring.set('a', sized(result, 50_000), 1);
    clock.advance(1_000);
    expect(expiring.get('a')).toBeUndefined();
    expect(expiring.usage()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('does not keep an entry larger than the whole budget, and keeps what it had', async () => {
    const result = await fresh();
    const cache = new MemoryResolutionCache(fixedClock(), 100, 'on-hit', 200_000);
    cache.set('small', result, 60);
    cache.set('huge', sized(result, 200_000), 60);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
    // A key that was cached small and comes back huge is dropped, not kept stale.
    cache.set('small', sized(result, 200_000), 60);
    expect(cache.get('small')).toBeUndefined();
    expect(cache.usage()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('the runtime reads SVC_CACHE_MAX_BYTES (default 64 MiB; 0 keeps nothing; anything else not a whole number exits 2)', async () => {
    expect(createRuntime({}).cache.usage!()).toMatchObject({ maxBytes: DEFAULT_CACHE_MAX_BYTES, maxEntries: 1000 });
    expect(DEFAULT_CACHE_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(createRuntime({ SVC_CACHE_MAX_BYTES: '1048576' }).cache.usage!().maxBytes).toBe(1048576);
    const off = createRuntime({ SVC_CACHE_MAX_BYTES: '0' });
    await resolve(DID, off);
    expect(off.cache.size).toBe(0);
    for (const bad of ['-1', '64MiB', '1.5', String(2 ** 60)])
      expect(configError(() => createRuntime({ SVC_CACHE_MAX_BYTES: bad }))).toContain('SVC_CACHE_MAX_BYTES');
  });
});
