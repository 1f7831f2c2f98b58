/**
 * Project API keys (docs/daemon.md#commercial-mode): how a key is made, and how a keyed request
 * is served on the direct daemon with the commercial mode on.
 *
 * A key is `svck_` + 43 base64url characters (32 random bytes of node:crypto). The store keeps
 * only its SHA-256 digest (64 hex digits) and its first 12 characters (`svck_` + 7) as the
 * prefix an owner tells keys apart by; the secret is in the issuing answer only, never in a log,
 * the database or a metadata answer.
 *
 * A keyed request (`Authorization: Bearer svck_…` on a budgeted public API route) is looked up
 * by digest on every request (no cache: a revoked key is refused at once, on every daemon of
 * the database); an unknown, revoked or malformed svck_ key is 401 UNAUTHORIZED, never a silent
 * fallback to anonymous. A valid one draws on its project's token bucket (the direct budget's
 * size, SVC_RATE_LIMIT_PER_MIN) instead of the client's, and counts one `requests` on the
 * project's usage counter for the month of the Runtime clock (UTC, YYYY-MM).
 *
 * Usage increments are gathered in memory and written once a second (one upsert per project and
 * month), and at shutdown: a synchronous write per request would put a database write (an fsync
 * on SQLite) on every keyed request. The trade-off: a daemon killed without a shutdown loses at
 * most the last second's increments, and a usage read lags the requests by up to a second.
 */
import { hash, randomBytes } from 'node:crypto';
import type { AccountStore, NewApiKey } from '../core/store.js';
import { ProblemError } from '../core/problems.js';
import type { Logger } from '../core/runtime.js';
import { TokenBuckets } from './rate-limit.js';

export const KEY_PREFIX = 'svck_';
/** The prefix an owner sees: `svck_` and the first 7 characters of the random part. */
export const KEY_PREFIX_LENGTH = 12;
const KEY_FORMAT = /^svck_[A-Za-z0-9_-]{43}$/;
const BEARER_KEY = /^Bearer (svck_\S*)$/;

/** The SHA-256 digest of a key, hex (one-shot: no Hash object per keyed request). */
export const keyDigest = (secret: string): string => hash('sha256', secret, 'hex');

/** A fresh key: the secret (for the answer only) and what the store keeps. */
export function generateProjectKey(label?: string | null): { secret: string; stored: NewApiKey } {
  const secret = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return {
    secret,
    stored: {
      id: `key_${randomBytes(16).toString('base64url')}`,
      keyHash: keyDigest(secret),
      prefix: secret.slice(0, KEY_PREFIX_LENGTH),
      label: label ?? null,
    },
  };
}

/**
 * The project key an Authorization header presents: a string when it is `Bearer svck_…`
 * (well-formed or not: a malformed one is refused, never ignored), undefined for anything else
 * (no header, another scheme, another bearer token: the request stays anonymous).
 */
export function presentedKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return BEARER_KEY.exec(header)?.[1] ?? (header.startsWith('Bearer svck_') ? '' : undefined);
}

/** The month a usage counter counts in: YYYY-MM (UTC) of the given time. */
export const usagePeriod = (now: Date): string => now.toISOString().slice(0, 7);

/** Keyed requests of one daemon: authentication, the projects' buckets, batched usage counting. */
export class KeyedRequests {
  readonly #buckets: TokenBuckets;
  /** Pending increments: `${projectId}\n${period}` → count. */
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly accounts: () => AccountStore | undefined,
    perMinute: number,
    nowMs: () => number,
    private readonly now: () => Date,
    private readonly log: Logger,
    /** How long increments wait before they are written. */
    private readonly flushMs = 1_000,
  ) {
    this.#buckets = new TokenBuckets(perMinute, nowMs);
  }

  get perMinute(): number {
    return this.#buckets.perPeriod;
  }

  /**
   * Authenticates the presented key and charges its project: resolves when the request may go
   * on; rejects with 401 UNAUTHORIZED, 429 RATE_LIMITED or 503 SERVICE_UNAVAILABLE.
   */
  async admit(presented: string): Promise<void> {
    if (!KEY_FORMAT.test(presented)) throw unauthorized();
    const accounts = this.accounts();
    if (!accounts)
      throw new ProblemError('SERVICE_UNAVAILABLE', 'The database is unavailable, so the project key cannot be checked; see /ready.', { retryAfter: 5 });
    const principal = await accounts.authenticateKey(keyDigest(presented)).catch((err: unknown) => {
      this.log.error('checking a project key failed', { error: err instanceof Error ? err.message : String(err) });
      throw new ProblemError('SERVICE_UNAVAILABLE', 'The project key could not be checked just now.', { retryAfter: 5 });
    });
    if (principal === null) throw unauthorized();
    if (!this.#buckets.take(principal.projectId).allowed) {
      throw new ProblemError('RATE_LIMITED', `Too many requests: the project's budget of ${this.perMinute} requests per minute is used up. Retry after 1 s.`, {
        retryAfter: 1,
      });
    }
    this.#count(principal.projectId);
  }

  /** The month being counted and its bounds (ms): the period is formatted once a month, not per request. */
  #period = '';
  #periodStartsMs = 0;
  #periodEndsMs = 0;

  #currentPeriod(): string {
    const now = this.now();
    const ms = now.getTime();
    // Outside the month kept (the next one, or a clock set back): the month of this time.
    if (ms < this.#periodStartsMs || ms >= this.#periodEndsMs) {
      this.#period = usagePeriod(now);
      this.#periodStartsMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      this.#periodEndsMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    }
    return this.#period;
  }

  #count(projectId: string): void {
    const slot = `${projectId}\n${this.#currentPeriod()}`;
    this.#pending.set(slot, (this.#pending.get(slot) ?? 0) + 1);
    if (this.#timer === null) {
      this.#timer = setTimeout(() => void this.flush(), this.flushMs);
      this.#timer.unref();
    }
  }

  /** Writes the pending increments (one upsert per project and month); a failed write is logged and its counts kept for the next flush. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#flushing = this.#flushing.then(async () => {
      const accounts = this.accounts();
      for (const [slot, count] of batch) {
        const [projectId, period] = slot.split('\n') as [string, string];
        try {
          if (!accounts) throw new Error('the database is unavailable');
          await accounts.countUsage(projectId, 'requests', period, count);
        } catch (err) {
          this.log.error('writing usage counters failed; kept for the next flush', { error: err instanceof Error ? err.message : String(err) });
          this.#pending.set(slot, (this.#pending.get(slot) ?? 0) + count);
          if (this.#timer === null) {
            this.#timer = setTimeout(() => void this.flush(), this.flushMs * 5);
            this.#timer.unref();
          }
        }
      }
    });
    return this.#flushing;
  }
}

function unauthorized(): ProblemError {
  return new ProblemError('UNAUTHORIZED', 'The project key is not valid: unknown, revoked, rotated or malformed.');
}
