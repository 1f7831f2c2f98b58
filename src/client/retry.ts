/**
 * Retry (opt-in; a client without `retry` tries once). Only 429 (any code) and 503
 * CAPACITY_EXHAUSTED / SERVICE_UNAVAILABLE are retried (docs/clients.md#retry): never another 4xx,
 * never 500, 408 or another 5xx, never a client-side failure. The wait before the next try is
 * max(Retry-After, base·2^(try−1) capped at maxDelay) plus a jitter in [0, min(1 s, wait/4)]:
 * never less than the Retry-After the daemon sent.
 */
import { SvcError } from './errors.js';

export interface RetryOptions {
  /** Total tries, at least 1 (default 3). */
  attempts?: number;
  /** Backoff of the first retry in ms (default 500), doubled for each further one. */
  baseDelayMs?: number;
  /** Cap of the backoff in ms (default 30000); a longer Retry-After is still honoured. */
  maxDelayMs?: number;
  /** How to wait (default setTimeout); a test can record the waits. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of the jitter, uniform in [0, 1) (default Math.random). */
  random?: () => number;
}

export interface ResolvedRetryOptions {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const DEFAULT_RETRY = { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 } as const;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The options with their defaults; throws a RangeError for values that cannot be meant. */
export function retryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const attempts = options.attempts ?? DEFAULT_RETRY.attempts;
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`retry attempts must be an integer ≥ 1, not ${attempts}`);
  if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0) throw new RangeError(`retry baseDelayMs must be a finite number ≥ 0, not ${baseDelayMs}`);
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < 0) throw new RangeError(`retry maxDelayMs must be a finite number ≥ 0, not ${maxDelayMs}`);
  return { attempts, baseDelayMs, maxDelayMs, sleep: options.sleep ?? defaultSleep, random: options.random ?? Math.random };
}

/**
 * Whole seconds from a Retry-After header value: delta-seconds (ASCII digits), or an HTTP-date
 * (seconds from `nowMs` until then, rounded up, 0 when past). Anything else: undefined.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  // An HTTP-date (IMF-fixdate, or the obsolete RFC 850 / asctime forms Date.parse reads): it must
  // name a weekday and hold a time, so that a bare number or a word is not taken for a date.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i.test(text) || !/\d{1,2}:\d{2}:\d{2}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Whether the helper retries this error: 429 (any code), 503 CAPACITY_EXHAUSTED or SERVICE_UNAVAILABLE. */
export function isRetryable(error: unknown): error is SvcError {
  if (!(error instanceof SvcError)) return false;
  if (error.status === 429) return true;
  return error.status === 503 && (error.code === 'CAPACITY_EXHAUSTED' || error.code === 'SERVICE_UNAVAILABLE');
}

/**
 * The wait in ms after failed try number `attempt` (1-based), given the Retry-After (seconds) of
 * its answer: max(Retry-After, min(maxDelay, base·2^(attempt−1))) + jitter in
 * [0, min(1000, that wait·0.25)].
 */
export function retryDelayMs(
  attempt: number,
  retryAfterSeconds: number | undefined,
  options: Pick<ResolvedRetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
): number {
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const wait = Math.max((retryAfterSeconds ?? 0) * 1000, backoff);
  const jitter = options.random() * Math.min(1000, wait * 0.25);
  return wait + jitter;
}

/**
 * Runs `fn` up to `attempts` times while it fails with a retryable SvcError, waiting
 * retryDelayMs between tries. Any other error, and the last try's error, is thrown as is.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const opts = retryOptions(options);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= opts.attempts || !isRetryable(error)) throw error;
      await opts.sleep(retryDelayMs(attempt, error.retryAfter, opts));
    }
  }
}
