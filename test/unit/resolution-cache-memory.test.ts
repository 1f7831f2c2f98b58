/**
 * The in-process resolution cache keeps cached resolutions immune to callers' changes: a hit is
 * deep-frozen (on the first hit by default, when cached with 'on-set'), expiry and recency follow
 * the Runtime clock, and the runtime picks the mode from SVC_FREEZE_RESULTS.
 */
import { describe, expect, it } from 'vitest';
import { MemoryResolutionCache } from '../../src/core/resolve/cache.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

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
  it("on-hit (default): nothing is frozen when cached; the first hit deep-freezes, and every hit is the same object", async () => {
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
    for (const [env, frozenWhenCached] of [[{}, false], [{ SVC_FREEZE_RESULTS: '1' }, true]] as const) {
      const runtime = createRuntime(env);
      const result = await resolve(DID, runtime);
      expect(deeplyFrozen(result.evidence)).toBe(frozenWhenCached);
      const hit = await resolve(DID, runtime);
      expect(hit.cached).toBe(true);
      expect(deeplyFrozen(hit)).toBe(true);
    }
  });
});
