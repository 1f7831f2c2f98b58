/** A deterministic Runtime for tests: fixed wall clock, stepping monotonic clock, fresh cache. */
import { verifyWhois } from '../../src/core/presentations/whois.js';
import { MemoryResolutionCache } from '../../src/core/resolve/cache.js';
import { silentLogger, type Clock, type Runtime } from '../../src/core/runtime.js';
import { createNet, parseAllowList, type NetOptions } from '../../src/net/index.js';

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

/**
 * The system clock, whose wall clock a test can move forward (the monotonic one stays real): for
 * tests against real servers that step past a time-to-live without waiting for it.
 */
export function shiftedClock(base: Clock): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(base.now().getTime() + offsetMs),
    monotonicUs: () => base.monotonicUs(),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

export interface TestNetOptions extends Omit<NetOptions, 'clock' | 'egressAllow'> {
  /** CIDRs allowed besides public addresses, e.g. ['127.0.0.0/8']. */
  allow?: string[];
}

/** A Runtime whose fetcher has the production policy unless `net` relaxes it. */
export function testRuntime(clock: Clock = fixedClock(), net: TestNetOptions = {}): Runtime {
  const { allow = [], ...rest } = net;
  const parsed = parseAllowList(allow.join(','));
  if ('error' in parsed) throw new Error(parsed.error);
  return {
    clock,
    config: { problemsBase: 'urn:svc:problems', cacheTtlSeconds: 3600 },
    log: silentLogger,
    // As in production, SVC_FREEZE_RESULTS decides: the tests set it (vitest.config.ts), so a
    // change to a shared resolution anywhere in svc throws; the benchmarks do not.
    cache: new MemoryResolutionCache(clock, 1000, process.env['SVC_FREEZE_RESULTS'] ? 'on-set' : 'on-hit'),
    net: createNet({ ...rest, clock, egressAllow: parsed.cidrs }),
    whois: verifyWhois,
  };
}
