/**
 * The Runtime is the core's only door to the outside world. Production builds one from the
 * environment and flags (src/runtime/node.ts); tests build one pointing at loopback hosts, a
 * fixed clock or a fresh cache. No core module reads the environment, the wall clock or a global
 * fetch on its own.
 */
import type { Clock } from './clock.js';
import type { Net } from './net.js';
import type { RdfCanonicaliser } from './proofs/canonicaliser.js';
import type { DidDocument, EnrichedResolution, WhoisEvidence } from './resolve/types.js';
import type { RuntimeStore } from './runtime-store.js';
import type { SuppliedResources } from './supplied/catalogue.js';
import type { Telemetry } from './telemetry.js';

export type { Clock } from './clock.js';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** How full a resolution cache is, and its bounds (bytes: its estimate of the memory held). */
export interface CacheUsage {
  entries: number;
  bytes: number;
  maxEntries: number;
  maxBytes: number;
}

/** Cache of resolutions. Hits are deep-frozen and carry `cached: true`; readers must not mutate them. */
export interface ResolutionCache {
  get(key: string): EnrichedResolution | undefined;
  set(key: string, value: EnrichedResolution, ttlSeconds: number): void;
  delete(key: string): void;
  clear(): void;
  readonly size: number;
  /** Entries, bytes and both bounds, for a cache bounded in memory (the in-process LRU). */
  usage?(): CacheUsage;
}

export interface RuntimeConfig {
  /** Base of service-specific problem type URIs (`urn:svc:problems` unless SVC_PROBLEMS_BASE). */
  problemsBase: string;
  /** Default lifetime of cached resolutions, seconds (0 disables caching). */
  cacheTtlSeconds: number;
  /**
   * Bounds of a did:webvh log (SVC_WEBVH_MAX_ENTRIES, SVC_WEBVH_MAX_BYTES); absent: the defaults
   * of core/webvh/limits.ts. Beyond either, resolution is PAYLOAD_TOO_LARGE, before any entry is verified.
   */
  webvhMaxEntries?: number;
  webvhMaxBytes?: number;
}

export interface Runtime {
  clock: Clock;
  config: RuntimeConfig;
  log: Logger;
  cache: ResolutionCache;
  /** Every outbound fetch: egress policy, pinned connection, TLS evidence, limits. */
  net: Net;
  /** Observations and the other table groups; absent when nothing is stored (`--no-store`). */
  store?: RuntimeStore;
  /**
   * Resources supplied from files in place of URLs (verify from files): `net` answers them
   * before any network. Set only by `withSuppliedResources` (core/supplied/resources.ts).
   */
  supplied?: SuppliedResources;
  /**
   * Verifies a DID's `#whois` presentation (core/presentations/whois.ts). Injected because the
   * presentation verifier resolves issuers through resolution itself; without it, resolution
   * fetches no whois presentation.
   */
  whois?: WhoisVerifier;
  /**
   * The operator's metrics and traces (core/telemetry.ts): stages, fetches and database calls
   * are spanned and outcomes counted. Absent — the default, and always in the CLI — nothing is.
   */
  telemetry?: Telemetry;
  /**
   * JSON-LD processing, only when the operator opted in (`--jsonld`, SVC_JSONLD=on): RDFC-1.0
   * over a pinned context set (src/jsonld/), through which credentials secured with
   * eddsa-rdfc-2022, ecdsa-rdfc-2019 or Ed25519Signature2020 are verified. Absent — the
   * default — those are UNSUPPORTED.
   */
  jsonld?: RdfCanonicaliser;
}

/** The verification part of whois evidence: the fetched presentation against the DID's document. */
export type WhoisVerifier = (
  presentation: unknown,
  subject: { did: string; document: DidDocument },
  runtime: Runtime,
  signal?: AbortSignal,
) => Promise<Pick<WhoisEvidence, 'status' | 'reason' | 'presentationStatus' | 'holder' | 'signedBy' | 'credentials'>>;

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

/** RFC 3339 UTC timestamp with second precision: the form of svc's timestamps (docs/daemon.md#requests-and-answers). */
export function rfc3339(date: Date): string {
  // The same few instants are written again and again (now, a credential's dates): the last
  // stamps are kept by their second, in slots chosen by its low bits.
  const ms = date.getTime();
  const second = Math.floor(ms / 1000);
  const slot = second & (STAMP_SLOTS - 1);
  if (STAMP_SECONDS[slot] === second) return STAMPS[slot]!;
  const text = formatRfc3339(date);
  STAMP_SECONDS[slot] = second;
  STAMPS[slot] = text;
  return text;
}

const STAMP_SLOTS = 8;
const STAMP_SECONDS: number[] = new Array<number>(STAMP_SLOTS).fill(Number.NaN);
const STAMPS: string[] = new Array<string>(STAMP_SLOTS).fill('');

function formatRfc3339(date: Date): string {
  const year = date.getUTCFullYear();
  // Years 0000–9999 spelt out directly (toISOString and its slice are several times slower on a
  // hot path); anything else — an invalid date, which throws, or an expanded year — as before.
  if (!(year >= 0 && year <= 9999)) return `${date.toISOString().slice(0, 19)}Z`;
  const yyyy = year >= 1000 ? String(year) : String(year).padStart(4, '0');
  return `${yyyy}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]}T${TWO_DIGITS[date.getUTCHours()]}:${TWO_DIGITS[date.getUTCMinutes()]}:${TWO_DIGITS[date.getUTCSeconds()]}Z`;
}
