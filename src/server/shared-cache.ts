/**
 * Single flight across daemons: the resolution cache they share (a second tier behind each
 * one's in-process LRU) and its leases make one caller at a time resolve a given key, while the
 * others wait for its result and reuse it.
 *
 *   get ── hit ──────────────────────────────────────────────► the shared result
 *    └─ miss → claim ── won → get again → run work → set → release (always)
 *                   └─ lost → wait pollMs → get … (claim again once the lease is free or expired)
 *
 * The shared cache is an optimisation, never a dependency: when it fails (database down, a
 * query refused) the caller runs `work` itself and returns its result, logging nothing (a
 * database that is down is reported by readiness, not once per resolution). Errors are never
 * cached: a `work` that throws (a ProblemError: no answer) stores nothing, and its lease is
 * released so that a waiter resolves for itself. Answers that must not be kept (the core gives
 * them a lifetime of 0, e.g. a did:web whose domain configuration could not be fetched) are not
 * stored either: `ttlSeconds(result)` says how long a result may be kept, and <= 0 keeps nothing.
 *
 * This module sees only the SharedResolutionCache interface (src/core/store.ts); it imports no
 * database driver.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { EnrichedResolution } from '../core/resolve/types.js';
import type { SharedResolutionCache } from '../core/store.js';

export interface SharedResolutionOptions {
  /**
   * Who is asking: the daemon's identity (host, pid…), for an operator reading the lease table.
   * Each call adds a random suffix of its own, so that two calls of one daemon are two holders
   * (one's release can never free the other's lease).
   */
  holder: string;
  /**
   * How long a lease lasts, ms, and how long a waiter waits overall. Longer than a resolution
   * may take (the request's time limit): a lease that expires while its holder still works lets a
   * second caller resolve the same key.
   */
  leaseMs: number;
  /** How often a waiter looks again, ms (default 50). */
  pollMs?: number;
  /** Abandons the wait: the call rejects with the signal's reason. `work` is given its own signal by the caller. */
  signal?: AbortSignal;
  /** How long a successful result may be shared, seconds; <= 0: not stored. */
  ttlSeconds: (result: EnrichedResolution) => number;
}

const DEFAULT_POLL_MS = 50;

/** What a failed call of the shared cache turns into: the caller goes on without it. */
const UNAVAILABLE = Symbol('shared cache unavailable');

async function attempt<T>(operation: () => Promise<T>): Promise<T | typeof UNAVAILABLE> {
  try {
    return await operation();
  } catch {
    return UNAVAILABLE;
  }
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The result for `key`: the shared cache's when it has one, otherwise `work`'s — run by exactly
 * one caller across the daemons at a time while the shared cache answers. `did` is stored
 * beside the entry (the table's did column).
 */
export async function sharedResolution(
  shared: SharedResolutionCache,
  key: string,
  did: string,
  options: SharedResolutionOptions,
  work: () => Promise<EnrichedResolution>,
): Promise<EnrichedResolution> {
  const { signal } = options;
  signal?.throwIfAborted();
  const holder = `${options.holder} ${randomUUID()}`;
  const pollMs = Math.max(1, options.pollMs ?? DEFAULT_POLL_MS);
  // Measured on this process's monotonic clock: it bounds this caller's wait, it decides nothing
  // shared (lease expiry is judged on the database clock).
  const deadline = performance.now() + options.leaseMs;

  /** Runs work and stores a success; a failure to store is not the caller's failure. */
  const resolveAndShare = async (): Promise<EnrichedResolution> => {
    const result = await work();
    const ttl = options.ttlSeconds(result);
    if (ttl > 0) await attempt(() => shared.set(key, did, result, ttl));
    return result;
  };

  for (;;) {
    const hit = await attempt(() => shared.get(key));
    if (hit === UNAVAILABLE) return work();
    if (hit !== undefined) return hit;
    signal?.throwIfAborted();

    const won = await attempt(() => shared.claim(key, holder, options.leaseMs));
    if (won === UNAVAILABLE) return work();
    if (won) {
      try {
        signal?.throwIfAborted();
        // Looked up again under the lease: the previous holder may have stored its result and
        // released between this caller's get and its claim. Its set committed before its
        // release, and the release before this claim, so this read sees the entry.
        const again = await attempt(() => shared.get(key));
        if (again !== UNAVAILABLE && again !== undefined) return again;
        return await resolveAndShare();
      } finally {
        // Always given back — after a success (once stored), after an error (so that a waiter
        // resolves for itself at once instead of waiting out the lease), after an abort. A
        // failure to release leaves a lease that expires on its own.
        await attempt(() => shared.release(key, holder));
      }
    }

    // Another caller holds the lease. Waiting is bounded by leaseMs: a holder that died frees
    // the key by then (its lease was taken before this call began), so past it the holder is
    // alive but slower than its lease, or leases keep changing hands — this caller then resolves
    // for itself rather than wait any longer, and shares what it found.
    const left = deadline - performance.now();
    if (left <= 0) return resolveAndShare();
    await pause(Math.min(pollMs, left), signal);
  }
}
