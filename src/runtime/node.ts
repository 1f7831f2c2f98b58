/**
 * Builds the production Runtime from the environment and flags. The only place (with the CLI
 * and server shells) that reads process.env and the system clock.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_PROBLEMS_BASE } from '../core/problems.js';
import type { Telemetry } from '../core/telemetry.js';
import { silentLogger, type Clock, type Logger, type Runtime, type RuntimeConfig, type WhoisVerifier } from '../core/runtime.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES, MemoryResolutionCache } from '../core/resolve/cache.js';
import { DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES } from '../core/webvh/limits.js';
import { createNet, linkLocalOverreach, parseAllowList, parseDnsServers, type Cidr, type NetOptions } from '../net/index.js';

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicUs: () => performance.now() * 1000,
};

/** Structured diagnostics to stderr (or `write`: a command's own stderr), one JSON line each; never stdout. */
export function stderrLogger(
  level: 'debug' | 'info' | 'warn' | 'error' = 'warn',
  write: (line: string) => unknown = (line) => process.stderr.write(line),
): Logger {
  const order = { debug: 0, info: 1, warn: 2, error: 3 } as const;
  const emit = (lvl: keyof typeof order) => (message: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return;
    write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), message, ...fields })}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A bad setting in the environment or on the command line: the CLI exits 2 with this message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A whole-number setting from the environment; anything else is a ConfigError naming its range. */
export function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}`);
  }
  return value;
}

export interface RuntimeOverrides {
  clock?: Clock;
  log?: Logger;
  config?: Partial<RuntimeConfig>;
  cacheMaxEntries?: number;
  cacheMaxBytes?: number;
  /** CIDRs allowed besides public addresses, from `--egress-allow`; added to SVC_EGRESS_ALLOW. */
  egressAllow?: readonly string[];
  /** Test seams of the fetcher (DNS table, extra trust anchors, connect-to, limits). */
  net?: Omit<NetOptions, 'clock' | 'egressAllow' | 'telemetry'>;
  /** The daemon's metrics and traces (core/telemetry.ts), for the Runtime and its fetcher; none: nothing is measured. */
  telemetry?: Telemetry;
}

/** One allowed range and the setting that named it first (SVC_EGRESS_ALLOW or --egress-allow). */
export interface EgressAllowanceEntry {
  cidr: Cidr;
  setting: 'SVC_EGRESS_ALLOW' | '--egress-allow';
}

/**
 * Parses SVC_EGRESS_ALLOW and --egress-allow values; a bad entry is a configuration error, and
 * so is a range that reaches link-local space (cloud metadata, 169.254.169.254) without naming
 * it: `0.0.0.0/0`, `169.0.0.0/8` or `::/0` are refused, `169.254.169.254/32` is accepted.
 */
export function egressAllowanceEntries(env: NodeJS.ProcessEnv, extra: readonly string[] = []): EgressAllowanceEntry[] {
  const entries: EgressAllowanceEntry[] = [];
  const sources: Array<[EgressAllowanceEntry['setting'], string]> = [
    ['SVC_EGRESS_ALLOW', env['SVC_EGRESS_ALLOW'] ?? ''],
    ...extra.map((v): [EgressAllowanceEntry['setting'], string] => ['--egress-allow', v]),
  ];
  for (const [setting, text] of sources) {
    const parsed = parseAllowList(text);
    if ('error' in parsed) throw new ConfigError(`${setting}: ${parsed.error}`);
    for (const cidr of parsed.cidrs) {
      const reached = linkLocalOverreach(cidr);
      if (reached !== null) {
        throw new ConfigError(
          `${setting}: ${cidr.text} also admits ${reached} without naming it; allow link-local addresses only by listing them (e.g. 169.254.169.254/32), or narrow the range`,
        );
      }
      if (!entries.some((e) => e.cidr.text === cidr.text)) entries.push({ cidr, setting });
    }
  }
  return entries;
}

/** The ranges of `egressAllowanceEntries`, as the fetcher takes them. */
export function egressAllowance(env: NodeJS.ProcessEnv, extra: readonly string[] = []): Cidr[] {
  return egressAllowanceEntries(env, extra).map((e) => e.cidr);
}

/**
 * SVC_DNS_SERVERS: the DNS servers TXT lookups ask (DNS claims), comma-separated, each an IP
 * address with an optional port (`192.0.2.53`, `192.0.2.53:5353`, `[2001:db8::53]:5353`).
 * Unset or empty → [] (the system's resolver); a bad entry is a ConfigError.
 */
export function dnsServersFromEnv(env: NodeJS.ProcessEnv): string[] {
  const parsed = parseDnsServers(env['SVC_DNS_SERVERS'] ?? '');
  if ('error' in parsed) throw new ConfigError(`SVC_DNS_SERVERS: ${parsed.error}`);
  return parsed.servers;
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** SVC_LOG_LEVEL: one of debug, info, warn, error; unset or empty → null (silent); else a ConfigError. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevel | null {
  const raw = env['SVC_LOG_LEVEL'];
  if (raw === undefined || raw === '') return null;
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new ConfigError(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (or empty for silent), not ${JSON.stringify(raw.slice(0, 32))}`);
}

/**
 * Environment: SVC_PROBLEMS_BASE (problem type URI base), SVC_CACHE_TTL (seconds, default
 * 3600, 0 disables), SVC_CACHE_MAX_ENTRIES (default 1000), SVC_CACHE_MAX_BYTES (the in-memory
 * cache's byte budget, by its estimate of what each entry holds; default 64 MiB, 0 disables),
 * SVC_WEBVH_MAX_ENTRIES / SVC_WEBVH_MAX_BYTES (the did:webvh log bounds, default 1000 entries
 * and 4 MiB: core/webvh/limits.ts), SVC_LOG_LEVEL (debug|info|warn|error),
 * SVC_EGRESS_ALLOW (CIDRs fetched besides public addresses), SVC_DNS_SERVERS (the DNS servers
 * asked for TXT records, `ip` or `ip:port`, comma-separated; default the system's resolver;
 * `net.dnsServers` of the overrides replaces it). A bad value of any of them is a
 * ConfigError (the CLI exits 2); an empty one counts as unset. Trust anchors are Node's own
 * (its CA store plus NODE_EXTRA_CA_CERTS); there is no switch to weaken TLS checks.
 */
/**
 * The whois verifier, loaded when a DID first has a `#whois` service: the presentation and
 * credential verifiers stay out of the CLI's start (a did:key resolution never needs them).
 */
const verifyWhoisLazily: WhoisVerifier = async (...args) => (await import('../core/presentations/whois.js')).verifyWhois(...args);

export function createRuntime(env: NodeJS.ProcessEnv = process.env, overrides: RuntimeOverrides = {}): Runtime {
  const clock = overrides.clock ?? systemClock;
  const level = logLevelFromEnv(env);
  const log = overrides.log ?? (level === null ? silentLogger : stderrLogger(level));
  const config: RuntimeConfig = {
    problemsBase: env['SVC_PROBLEMS_BASE'] || DEFAULT_PROBLEMS_BASE,
    cacheTtlSeconds: intFromEnv(env, 'SVC_CACHE_TTL', 3600, 0, 31 * 24 * 3600),
    // A log needs one entry at least; 1 GiB is far past any log a resolution could read in time.
    webvhMaxEntries: intFromEnv(env, 'SVC_WEBVH_MAX_ENTRIES', DEFAULT_WEBVH_MAX_ENTRIES, 1, 1_000_000),
    webvhMaxBytes: intFromEnv(env, 'SVC_WEBVH_MAX_BYTES', DEFAULT_WEBVH_MAX_BYTES, 1024, 1024 * 1024 * 1024),
    ...overrides.config,
  };
  const maxEntries = overrides.cacheMaxEntries ?? intFromEnv(env, 'SVC_CACHE_MAX_ENTRIES', DEFAULT_CACHE_MAX_ENTRIES, 0, 1_000_000);
  const maxBytes = overrides.cacheMaxBytes ?? intFromEnv(env, 'SVC_CACHE_MAX_BYTES', DEFAULT_CACHE_MAX_BYTES, 0, 64 * 1024 * 1024 * 1024);
  const dnsServers = overrides.net?.dnsServers ?? dnsServersFromEnv(env);
  const telemetry = overrides.telemetry;
  const net = createNet({
    ...overrides.net,
    clock,
    egressAllow: egressAllowance(env, overrides.egressAllow),
    dnsServers,
    ...(telemetry ? { telemetry } : {}),
  });
  // SVC_FREEZE_RESULTS (development and tests): freeze each resolution when it is cached.
  const freeze = env['SVC_FREEZE_RESULTS'] ? 'on-set' : 'on-hit';
  return {
    clock,
    config,
    log,
    cache: new MemoryResolutionCache(clock, maxEntries, freeze, maxBytes),
    net,
    whois: verifyWhoisLazily,
    ...(telemetry ? { telemetry } : {}),
  };
}
