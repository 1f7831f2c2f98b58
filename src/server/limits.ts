/**
 * The daemon's limits (docs/operations.md#budgets, and the bounds of each area): svc's defaults,
 * operator overrides from the environment. A bad value is a configuration error (exit 2), never
 * silently replaced.
 */
import { SIGN_IN_PENDING_LIMITS } from '../core/store.js';
import { CHALLENGE_PENDING_LIMITS } from '../core/claims/types.js';
import { DEFAULT_CHAINS_PER_CLIENT, DEFAULT_CHAINS_PER_ROOT, DEFAULT_REGISTRATION_MAX_DAYS, MAX_REGISTERED_CHAINS } from '../core/delegation/registry.js';
import { delegationRootsFromEnv, registrationMaxDaysFromEnv } from '../runtime/delegation-settings.js';
import { DEFAULT_TLS_EXPIRY_DAYS } from '../core/monitoring/tls.js';
import { ConfigError, intFromEnv } from '../runtime/node.js';
import { fairShare } from './capacity.js';

export type Profile = 'direct' | 'public';

export interface ServerLimits {
  /** Direct daemon: per-client token bucket, requests per minute (SVC_RATE_LIMIT_PER_MIN). */
  directPerMinute: number;
  /** Public profile: standard and intensive budgets per client, requests per minute. */
  standardPerMinute: number;
  intensivePerMinute: number;
  /** Request body limit, bytes (413 above). */
  bodyLimitBytes: number;
  /** Whole-request time limit, ms (408 after). SVC_REQUEST_TIMEOUT_MS; 45 s by default. */
  requestTimeoutMs: number;
  /** Requests doing outbound work at once; more → 503 CAPACITY_EXHAUSTED (SVC_MAX_CONCURRENCY). */
  maxConcurrency: number;
  /** Of those, the most one client may hold (SVC_MAX_CONCURRENCY_PER_CLIENT; default half, rounded up). */
  maxConcurrencyPerClient: number;
  /** How long SIGTERM waits for requests in flight before closing them, ms (SVC_DRAIN_MS). */
  drainMs: number;
  /**
   * The notice period, ms (SVC_DRAIN_NOTICE, in seconds): after SIGTERM, /ready answers 503 at
   * once while every other request is still served for this long, so that a load balancer's
   * health check (`inter` × `fall`) takes the daemon out of rotation before it refuses anything.
   * 0 by default: a lone daemon has no one reading /ready, and would only stop later.
   */
  drainNoticeMs: number;
  /**
   * Roots allowed to register delegation chains (SVC_DELEGATION_ROOTS); null: any root (an open
   * registry, announced as a relaxation). Also the trusted roots of the re-verification at start,
   * so a root removed from the list drops its registered chains at the next restart.
   */
  delegationRoots: readonly string[] | null;
  /**
   * New delegation chains one client (clientKey) may register per 24 h, refilled continuously
   * (SVC_REGISTRATIONS_PER_CLIENT); past it the chain is verified but not registered. Applies
   * whether or not SVC_DELEGATION_ROOTS restricts the roots.
   */
  registrationsPerClient: number;
  /**
   * Unexpired delegation chains one client may hold in the registry at once
   * (SVC_REGISTRY_PER_CLIENT; 1 % of MAX_REGISTERED_CHAINS by default); past it the chain is
   * verified but not registered until one of them expires.
   */
  registryPerClient: number;
  /** Unexpired chains rooted in one DID that clients may hold at once (SVC_REGISTRY_PER_ROOT; 1 %). */
  registryPerRoot: number;
  /**
   * The furthest expiry a registered chain may have, in days ahead (SVC_REGISTRATION_MAX_DAYS;
   * 366, what `svc delegate` mints at most); a chain expiring later is verified but not registered.
   */
  registrationMaxDays: number;
  /**
   * Most rows of the observation history (SVC_MAX_OBSERVATIONS); at the ceiling a new row
   * replaces the oldest one-off row or is refused (docs/operations.md#bounded-history). 0: no new
   * row.
   */
  maxObservations: number;
  /** The same ceiling for MCP inventories by endpoint (SVC_MAX_MCP_OBSERVATIONS). */
  maxMcpObservations: number;
  /**
   * Most observations one transaction of the store writes, either engine (SVC_RECORD_BATCH): the records
   * of one event-loop turn are committed together; 1 commits each on its own.
   */
  recordBatch: number;
  /**
   * SQLite: observations written by a worker thread with a connection of its own (SVC_RECORD_THREAD=on)
   * instead of on the event loop. Off by default: on 2 cores, with the clients on the same machine, it
   * measured 0.8× the event loop's throughput (the thread needs a core of its own).
   */
  recordThread: boolean;
  /** Seconds between two passes of the monitoring poller (SVC_MONITOR_PERIOD; 30 by default). */
  monitorPeriodSeconds: number;
  /** Seconds between two passes of the claim re-checker (SVC_CLAIM_PERIOD; 60 by default). */
  claimPeriodSeconds: number;
  /**
   * Seconds between two re-checks of a well-known or DNS claim (SVC_CLAIM_RECHECK_INTERVAL; a
   * day by default). Such a claim holds seven intervals after its last successful check.
   */
  claimRecheckSeconds: number;
  /**
   * Pending claim challenges one client may hold (SVC_CLAIM_PENDING_PER_CLIENT; 20), and one
   * DID unless the client asking holds none of its (SVC_CLAIM_PENDING_PER_DID; 10): the fair
   * shares of the 10,000 the service keeps (docs/operations.md#fair-shares).
   */
  claimChallengesPerClient: number;
  claimChallengesPerDid: number;
  /** The same shares of the sign-in challenges (SVC_SIGN_IN_PENDING_PER_CLIENT; 10, _PER_DID; 3). */
  signInChallengesPerClient: number;
  signInChallengesPerDid: number;
  /** The cookie gateway: per-client token bucket over all its routes, requests per minute (SVC_GATEWAY_RATE_LIMIT_PER_MIN; 120, as the daemon's own bucket of each owner). */
  gatewayPerMinute: number;
  /**
   * Days before a watched certificate's notAfter at which `tls.certificate.expiring` is sent, once
   * each per certificate (SVC_TLS_EXPIRY_DAYS; 30, 14 and 3 by default): 1 to 5 distinct whole
   * days from 1 to 365, largest first.
   */
  tlsExpiryDays: readonly number[];
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  directPerMinute: 120,
  standardPerMinute: 20,
  intensivePerMinute: 10,
  bodyLimitBytes: 512 * 1024,
  requestTimeoutMs: 45_000,
  maxConcurrency: 64,
  maxConcurrencyPerClient: 32,
  drainMs: 10_000,
  drainNoticeMs: 0,
  delegationRoots: null,
  registrationsPerClient: 100,
  registryPerClient: DEFAULT_CHAINS_PER_CLIENT,
  registryPerRoot: DEFAULT_CHAINS_PER_ROOT,
  registrationMaxDays: DEFAULT_REGISTRATION_MAX_DAYS,
  maxObservations: 100_000,
  maxMcpObservations: 1_000,
  recordBatch: 64,
  recordThread: false,
  monitorPeriodSeconds: 30,
  claimPeriodSeconds: 60,
  claimRecheckSeconds: 86_400,
  claimChallengesPerClient: CHALLENGE_PENDING_LIMITS.perClient,
  claimChallengesPerDid: CHALLENGE_PENDING_LIMITS.perDid,
  signInChallengesPerClient: SIGN_IN_PENDING_LIMITS.perClient,
  signInChallengesPerDid: SIGN_IN_PENDING_LIMITS.perDid,
  gatewayPerMinute: 120,
  tlsExpiryDays: DEFAULT_TLS_EXPIRY_DAYS,
};

/** SVC_TLS_EXPIRY_DAYS: comma-separated whole days (1..365), 1 to 5 distinct values; unset or blank → 30,14,3. */
export function tlsExpiryDaysFromEnv(env: NodeJS.ProcessEnv): readonly number[] {
  const raw = env['SVC_TLS_EXPIRY_DAYS'];
  if (raw === undefined || raw.trim() === '') return DEFAULT_TLS_EXPIRY_DAYS;
  const refuse = (): never => {
    throw new ConfigError('SVC_TLS_EXPIRY_DAYS must list 1 to 5 distinct whole days between 1 and 365, separated by commas (e.g. 30,14,3)');
  };
  const days = raw.split(',').map((part) => {
    const text = part.trim();
    const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
    return Number.isSafeInteger(value) && value >= 1 && value <= 365 ? value : refuse();
  });
  if (days.length > 5 || new Set(days).size !== days.length) refuse();
  return [...days].sort((a, b) => b - a);
}

/**
 * SVC_RATE_LIMIT_PER_MIN (1..1000000, default 120), SVC_REQUEST_TIMEOUT_MS (100..600000, default
 * 45000), SVC_MAX_CONCURRENCY (1..10000, default 64), SVC_MAX_CONCURRENCY_PER_CLIENT (1..SVC_MAX_CONCURRENCY,
 * default half of it, rounded up), SVC_DRAIN_MS (0..600000, default 10000), SVC_DRAIN_NOTICE
 * (0..300 s, default 0),
 * SVC_DELEGATION_ROOTS (comma-separated DIDs allowed to register delegation chains; default any),
 * SVC_REGISTRATIONS_PER_CLIENT (1..10000 new chains per client per 24 h, default 100),
 * SVC_REGISTRY_PER_CLIENT and SVC_REGISTRY_PER_ROOT (1..10000 unexpired chains one client, one
 * root holds in the registry at once, default 100 each), SVC_REGISTRATION_MAX_DAYS (1..3660,
 * default 366),
 * SVC_MAX_OBSERVATIONS (0..100000000, default 100000), SVC_MAX_MCP_OBSERVATIONS (0..10000000,
 * default 1000), SVC_RECORD_BATCH (1..1000, default 64), SVC_RECORD_THREAD (on or off, default off), SVC_MONITOR_PERIOD (1..3600 s, default 30), SVC_CLAIM_PERIOD (1..3600 s, default 60),
 * SVC_CLAIM_RECHECK_INTERVAL (1..2592000 s, default 86400),
 * SVC_CLAIM_PENDING_PER_CLIENT (1..10000, default 20), SVC_CLAIM_PENDING_PER_DID (1..10000, default 10),
 * SVC_SIGN_IN_PENDING_PER_CLIENT (1..10000, default 10), SVC_SIGN_IN_PENDING_PER_DID (1..10000, default 3),
 * SVC_GATEWAY_RATE_LIMIT_PER_MIN (1..1000000, default 120),
 * SVC_TLS_EXPIRY_DAYS (1 to 5 distinct whole days 1..365, comma-separated; default 30,14,3).
 * The public budgets (20 and 10 per minute) are fixed, not configurable.
 */
/** An on/off setting: `on`, `off` or unset (the default); anything else is a ConfigError. */
function onOffFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (value === '') return fallback;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new ConfigError(`${name} must be on or off, not ${JSON.stringify(value.slice(0, 16))}`);
}

export function limitsFromEnv(env: NodeJS.ProcessEnv): ServerLimits {
  const maxConcurrency = intFromEnv(env, 'SVC_MAX_CONCURRENCY', DEFAULT_LIMITS.maxConcurrency, 1, 10_000);
  return {
    ...DEFAULT_LIMITS,
    directPerMinute: intFromEnv(env, 'SVC_RATE_LIMIT_PER_MIN', DEFAULT_LIMITS.directPerMinute, 1, 1_000_000),
    requestTimeoutMs: intFromEnv(env, 'SVC_REQUEST_TIMEOUT_MS', DEFAULT_LIMITS.requestTimeoutMs, 100, 600_000),
    maxConcurrency,
    maxConcurrencyPerClient: intFromEnv(env, 'SVC_MAX_CONCURRENCY_PER_CLIENT', fairShare(maxConcurrency), 1, maxConcurrency),
    drainMs: intFromEnv(env, 'SVC_DRAIN_MS', DEFAULT_LIMITS.drainMs, 0, 600_000),
    drainNoticeMs: intFromEnv(env, 'SVC_DRAIN_NOTICE', DEFAULT_LIMITS.drainNoticeMs / 1000, 0, 300) * 1000,
    delegationRoots: delegationRootsFromEnv(env),
    registrationsPerClient: intFromEnv(env, 'SVC_REGISTRATIONS_PER_CLIENT', DEFAULT_LIMITS.registrationsPerClient, 1, 10_000),
    registryPerClient: intFromEnv(env, 'SVC_REGISTRY_PER_CLIENT', DEFAULT_LIMITS.registryPerClient, 1, MAX_REGISTERED_CHAINS),
    registryPerRoot: intFromEnv(env, 'SVC_REGISTRY_PER_ROOT', DEFAULT_LIMITS.registryPerRoot, 1, MAX_REGISTERED_CHAINS),
    registrationMaxDays: registrationMaxDaysFromEnv(env),
    maxObservations: intFromEnv(env, 'SVC_MAX_OBSERVATIONS', DEFAULT_LIMITS.maxObservations, 0, 100_000_000),
    maxMcpObservations: intFromEnv(env, 'SVC_MAX_MCP_OBSERVATIONS', DEFAULT_LIMITS.maxMcpObservations, 0, 10_000_000),
    recordBatch: intFromEnv(env, 'SVC_RECORD_BATCH', DEFAULT_LIMITS.recordBatch, 1, 1_000),
    recordThread: onOffFromEnv(env, 'SVC_RECORD_THREAD', DEFAULT_LIMITS.recordThread),
    monitorPeriodSeconds: intFromEnv(env, 'SVC_MONITOR_PERIOD', DEFAULT_LIMITS.monitorPeriodSeconds, 1, 3_600),
    claimPeriodSeconds: intFromEnv(env, 'SVC_CLAIM_PERIOD', DEFAULT_LIMITS.claimPeriodSeconds, 1, 3_600),
    claimRecheckSeconds: intFromEnv(env, 'SVC_CLAIM_RECHECK_INTERVAL', DEFAULT_LIMITS.claimRecheckSeconds, 1, 30 * 86_400),
    claimChallengesPerClient: intFromEnv(env, 'SVC_CLAIM_PENDING_PER_CLIENT', DEFAULT_LIMITS.claimChallengesPerClient, 1, 10_000),
    claimChallengesPerDid: intFromEnv(env, 'SVC_CLAIM_PENDING_PER_DID', DEFAULT_LIMITS.claimChallengesPerDid, 1, 10_000),
    signInChallengesPerClient: intFromEnv(env, 'SVC_SIGN_IN_PENDING_PER_CLIENT', DEFAULT_LIMITS.signInChallengesPerClient, 1, 10_000),
    signInChallengesPerDid: intFromEnv(env, 'SVC_SIGN_IN_PENDING_PER_DID', DEFAULT_LIMITS.signInChallengesPerDid, 1, 10_000),
    gatewayPerMinute: intFromEnv(env, 'SVC_GATEWAY_RATE_LIMIT_PER_MIN', DEFAULT_LIMITS.gatewayPerMinute, 1, 1_000_000),
    tlsExpiryDays: tlsExpiryDaysFromEnv(env),
  };
}
