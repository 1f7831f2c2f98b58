/**
 * The client's retry decisions (src/client/retry.ts): Retry-After parsing, which errors are
 * retried (429 any code, 503 CAPACITY_EXHAUSTED / SERVICE_UNAVAILABLE, nothing else), the wait
 * before each try (never less than Retry-After, exponential backoff capped, bounded jitter), and
 * withRetry's loop: the number of tries, the waits it asks for, the error it finally throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../src/client/errors.js';
import { isRetryable, parseRetryAfter, retryDelayMs, retryOptions, withRetry } from '../../src/client/retry.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function problemError(status: number, code: string, retryAfter?: number): SvcError {
  return SvcError.fromProblem({ type: `https://svc.invalid/problems#${code}`, title: code, status, detail: `${code} detail`, code }, status, retryAfter);
}

describe('SvcError.requestId', () => {
  it("is the problem's requestId, else the X-Request-Id header, else undefined", () => {
    const problem = { type: 't', title: 't', status: 404, detail: 'd', code: 'NOT_FOUND' };
    expect(SvcError.fromProblem({ ...problem, requestId: 'req_body' }, 404, undefined, 'req_header').requestId).toBe('req_body');
    expect(SvcError.fromProblem(problem, 404, undefined, 'req_header').requestId).toBe('req_header');
    expect(SvcError.fromProblem(problem, 404).requestId).toBeUndefined();
    expect(SvcError.badResponse(502, 'html', undefined, undefined, 'req_header').requestId).toBe('req_header');
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3],
    ['0', 0],
    ['120', 120],
    [' 7 ', 7],
    ['007', 7],
  ])('delta-seconds %j → %d', (value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });

  it('an HTTP-date: the whole seconds until then (rounded up), 0 once past', () => {
    expect(parseRetryAfter('Thu, 26 Nov 2026 12:00:10 GMT', NOW)).toBe(10);
    expect(parseRetryAfter('Thu, 26 Nov 2026 12:00:10 GMT', NOW + 500)).toBe(10);
    expect(parseRetryAfter('Thu, 26 Nov 2026 11:59:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Thursday, 26-Nov-26 12:01:00 GMT', NOW)).toBe(60); // RFC 850, tolerated
  });

  it.each([
    null,
    undefined,
    '',
    ' ',
    '-1',
    '+3',
    '1.5',
    '3s',
    '3 seconds',
    'soon',
    'Thu',
    'Thu, 99 Foo 2026 12:00:00 GMT',
    '2026-11-26',
    '99999999999999999999',
    '0x10',
    '1e3',
  ])('garbage %j → undefined', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('isRetryable', () => {
  it('retries 429 whatever its code, and 503 CAPACITY_EXHAUSTED or SERVICE_UNAVAILABLE', () => {
    expect(isRetryable(problemError(429, 'RATE_LIMITED', 3))).toBe(true);
    expect(isRetryable(problemError(429, 'KEY_CAPACITY_EXHAUSTED'))).toBe(true);
    expect(isRetryable(problemError(503, 'CAPACITY_EXHAUSTED', 1))).toBe(true);
    expect(isRetryable(problemError(503, 'SERVICE_UNAVAILABLE'))).toBe(true);
  });

  it('never another 4xx, 500, 408, another 5xx or 503 code, a client-side failure, or a foreign error', () => {
    for (const [status, code] of [
      [400, 'INVALID_DID'],
      [400, 'INVALID_REQUEST'],
      [404, 'NOT_FOUND'],
      [406, 'REPRESENTATION_NOT_SUPPORTED'],
      [408, 'REQUEST_TIMEOUT'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [422, 'INVALID_DID_DOCUMENT'],
      [500, 'INTERNAL_ERROR'],
      [501, 'METHOD_NOT_SUPPORTED'],
      [502, 'UPSTREAM_UNAVAILABLE'],
      [503, 'NOT_READY'],
    ] as const) {
      expect(isRetryable(problemError(status, code, 5)), `${status} ${code}`).toBe(false);
    }
    expect(isRetryable(SvcError.network('refused', new Error('ECONNREFUSED')))).toBe(false);
    expect(isRetryable(SvcError.badResponse(503, 'not a problem', 3))).toBe(false);
    expect(isRetryable(SvcError.badResponse(429, 'not a problem', 3))).toBe(true); // a 429 is a 429
    expect(isRetryable(new Error('429'))).toBe(false);
    expect(isRetryable(Object.assign(new Error('x'), { status: 429 }))).toBe(false);
  });
});

describe('retryDelayMs', () => {
  const opts = (random: number, base = 500, max = 30_000) => ({ baseDelayMs: base, maxDelayMs: max, random: () => random });

  it('exponential backoff base·2^(try−1), capped at maxDelay, without Retry-After', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, undefined, opts(0)))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(7, undefined, opts(0))).toBe(30_000);
    expect(retryDelayMs(60, undefined, opts(0))).toBe(30_000);
  });

  it('Retry-After wins when longer, even beyond maxDelay', () => {
    expect(retryDelayMs(1, 3, opts(0))).toBe(3000);
    expect(retryDelayMs(1, 60, opts(0))).toBe(60_000);
    expect(retryDelayMs(4, 1, opts(0))).toBe(4000); // the backoff is longer here
  });

  it('jitter in [0, min(1000 ms, wait·0.25)]', () => {
    expect(retryDelayMs(1, undefined, opts(0.999999))).toBeCloseTo(500 + 125, 0);
    expect(retryDelayMs(1, 3, opts(0.5))).toBe(3000 + 375);
    expect(retryDelayMs(1, 60, opts(0.999999))).toBeCloseTo(61_000, 0);
  });

  it('never less than Retry-After, never more than wait + 1 s (any try, any Retry-After, any random)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.option(fc.integer({ min: 0, max: 3600 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 60_000 }),
        (attempt, retryAfter, random, base, max) => {
          const delay = retryDelayMs(attempt, retryAfter, opts(random, base, max));
          const wait = Math.max((retryAfter ?? 0) * 1000, Math.min(max, base * 2 ** (attempt - 1)));
          expect(delay).toBeGreaterThanOrEqual((retryAfter ?? 0) * 1000);
          expect(delay).toBeGreaterThanOrEqual(wait);
          expect(delay).toBeLessThanOrEqual(wait + Math.min(1000, wait * 0.25));
        },
      ),
    );
  });
});

describe('withRetry', () => {
  /** fn failing with `errors` in turn, then answering 'ok'. */
  function script(errors: unknown[]) {
    const calls: number[] = [];
    const fn = async (attempt: number) => {
      calls.push(attempt);
      const error = errors[calls.length - 1];
      if (error !== undefined) throw error;
      return 'ok';
    };
    return { fn, calls };
  }
  const recorder = () => {
    const waits: number[] = [];
    return { waits, sleep: async (ms: number) => void waits.push(ms) };
  };

  it('retries 429 then 503 CAPACITY_EXHAUSTED, waiting at least each Retry-After, then answers', async () => {
    const { fn, calls } = script([problemError(429, 'RATE_LIMITED', 3), problemError(503, 'CAPACITY_EXHAUSTED', 1)]);
    const { waits, sleep } = recorder();
    await expect(withRetry(fn, { sleep, random: () => 0 })).resolves.toBe('ok');
    expect(calls).toEqual([1, 2, 3]);
    expect(waits).toEqual([3000, 1000]);
  });

  it('after the last try, throws the last error with its retryAfter', async () => {
    const last = problemError(429, 'RATE_LIMITED', 2);
    const { fn, calls } = script([problemError(429, 'RATE_LIMITED', 9), problemError(503, 'SERVICE_UNAVAILABLE'), last]);
    const { waits, sleep } = recorder();
    const error = await withRetry(fn, { attempts: 3, sleep, random: () => 0 }).catch((e: unknown) => e);
    expect(error).toBe(last);
    expect((error as SvcError).retryAfter).toBe(2);
    expect(calls).toEqual([1, 2, 3]);
    expect(waits).toEqual([9000, 1000]);
  });

  it('never retries a 400, a 500, a 408 or a network error: one try, no wait', async () => {
    for (const error of [
      problemError(400, 'INVALID_DID'),
      problemError(500, 'INTERNAL_ERROR'),
      problemError(408, 'REQUEST_TIMEOUT'),
      SvcError.network('down', new Error('ECONNREFUSED')),
      new TypeError('bug'),
    ]) {
      const { fn, calls } = script([error]);
      const { waits, sleep } = recorder();
      await expect(withRetry(fn, { attempts: 5, sleep })).rejects.toBe(error);
      expect(calls).toEqual([1]);
      expect(waits).toEqual([]);
    }
  });

  it('attempts: 1 tries once; the defaults are 3 tries from 500 ms', async () => {
    const once = script([problemError(429, 'RATE_LIMITED', 1)]);
    await expect(withRetry(once.fn, { attempts: 1, sleep: async () => {} })).rejects.toBeInstanceOf(SvcError);
    expect(once.calls).toEqual([1]);
    const { fn, calls } = script([problemError(503, 'CAPACITY_EXHAUSTED'), problemError(503, 'CAPACITY_EXHAUSTED'), problemError(503, 'CAPACITY_EXHAUSTED')]);
    const { waits, sleep } = recorder();
    await expect(withRetry(fn, { sleep, random: () => 0 })).rejects.toBeInstanceOf(SvcError);
    expect(calls).toEqual([1, 2, 3]);
    expect(waits).toEqual([500, 1000]);
  });

  it('the default sleep really waits', async () => {
    const { fn } = script([problemError(429, 'RATE_LIMITED')]);
    const started = performance.now();
    await expect(withRetry(fn, { baseDelayMs: 200, random: () => 0 })).resolves.toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('refuses options that cannot be meant', () => {
    for (const bad of [{ attempts: 0 }, { attempts: 1.5 }, { attempts: Number.NaN }, { baseDelayMs: -1 }, { maxDelayMs: Number.POSITIVE_INFINITY }]) {
      expect(() => retryOptions(bad), JSON.stringify(bad)).toThrow(RangeError);
    }
    expect(retryOptions({})).toMatchObject({ attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 });
  });
});
