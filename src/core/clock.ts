/**
 * The one clock the core reads (a Runtime's `clock`): a leaf that imports nothing, so that the
 * Trace, the caches and the stores name it without reaching the Runtime. runtime.ts re-exports it.
 */
export interface Clock {
  /** Wall-clock time, for timestamps in results. */
  now(): Date;
  /** Monotonic microseconds from an arbitrary origin, for durations. */
  monotonicUs(): number;
}
