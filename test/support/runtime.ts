/** A deterministic Runtime for tests: fixed wall clock, stepping monotonic clock, fresh cache. */
import { MemoryResolutionCache } from '../../src/core/resolve/cache.js';
import { silentLogger, type Clock, type Runtime } from '../../src/core/runtime.js';

export interface TestClock extends Clock {
  /** Moves the wall clock forward. */
  advance(ms: number): void;
}

/** Wall clock fixed at `start` (until advanced); the monotonic clock steps 7 µs per reading. */
export function fixedClock(start = '2025-03-04T05:06:07.890Z'): TestClock {
  let wall = new Date(start).getTime();
  let mono = 1_000_000;
  return {
    now: () => new Date(wall),
    monotonicUs: () => (mono += 7),
    advance(ms: number) {
      wall += ms;
    },
  };
}

export function testRuntime(clock: Clock = fixedClock()): Runtime {
  return {
    clock,
    config: { problemsBase: 'urn:svc:problems', cacheTtlSeconds: 3600 },
    log: silentLogger,
    cache: new MemoryResolutionCache(clock),
  };
}
