/**
 * The one outbound fetch of svc (docs/security.md#the-egress-policy). Per hop:
 *
 *   dns.resolve    look the host up (A and AAAA), check every address against the egress
 *                  policy, keep the allowed ones — none left → EGRESS_BLOCKED, no connection made
 *   tls.handshake  TCP to the first allowed address (the connection is pinned: no second lookup
 *                  can move it), TLS with SNI and certificate checked against the host name,
 *                  trust anchors = Node's store (+ NODE_EXTRA_CA_CERTS, as Node does)
 *   web.fetch      one request (GET by default) over that very socket (undici with a connector
 *                  that hands it over); redirects are re-checked from the top (at most 2, https
 *                  only; other methods follow only 307/308), the body is counted while streaming
 *                  and dropped the moment it passes the cap
 *
 * Time: a limit per phase and one for the whole fetch, whichever ends first. TLS evidence is
 * read from the socket that carried the response.
 *
 * A caller's signal frees the caller at once; a handshake it leaves runs to its end (within its
 * time limit) and the new connection goes to the pool, and an exchange it leaves may run on
 * unobserved for CANCELLED_GRACE_MS (within its own limit and cap) so that its connection, once
 * the response is complete, goes back to the pool instead of being destroyed.
 *
 * Connections are kept for a short while after a complete response and reused only for the
 * same host, port and pinned address — the address a fresh lookup has just checked again — so
 * reuse never skips the egress check; a kept connection closed by the server is replaced by a
 * new handshake, once. Each kept connection keeps its own undici Client (pipelining 1: one
 * request at a time on its socket) and the TLS evidence read once after its handshake.
 *
 * The pool: per `host|port|dialled port|pinned address`, at most MAX_PER_KEY connections open
 * (busy or idle). A fetch takes an idle one (LIFO, so a burst's surplus ages out), else opens a
 * new one while the key is under its bound, else waits for the next one handed back (FIFO,
 * within the fetch's own time limit): concurrency beyond the bound queues on kept connections
 * instead of paying a TCP+TLS handshake (and the certificate reading) per request and closing
 * the surplus afterwards. At most MAX_IDLE idle connections in all, each closed after IDLE_MS
 * idle and unref'd meanwhile (a CLI run exits).
 *
 * Host lookups: the addresses a name resolved to are kept DNS_TTL_MS (runtime clock) per host,
 * and concurrent lookups of one host share one getaddrinfo (single flight); the egress policy is
 * applied to the kept answer on every use, so a refused address is never dialled, and a name
 * that moves is followed within DNS_TTL_MS. Failed lookups are not kept.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { SecureContext, TLSSocket } from 'node:tls';
import type { Client } from 'undici';
import type { FetchRequest, FetchResponse, FetchStageNames, Net, RedirectHop, TlsEvidence } from '../core/net.js';
import { cancelledProblem, ProblemError, type ProblemHint } from '../core/problems.js';
import type { StageHandle, Trace } from '../core/resolve/trace.js';
import type { Clock } from '../core/runtime.js';
import type { Telemetry } from '../core/telemetry.js';
import { TxtResolver } from './dns.js';
import { checkAddress, parseIp, suggestedAllowance, type Cidr, type ParsedIp } from './ip.js';
import { daysUntil, readTlsEvidence } from './tls-evidence.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Host name → addresses (A and AAAA). Production: getaddrinfo via dns.lookup. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface NetLimits {
  /** DNS lookup, ms; a TXT lookup gets two tries of this, and twice this in all. */
  dnsMs: number;
  /** TCP connect + TLS handshake, ms. */
  connectMs: number;
  /** From request sent to response headers, ms. */
  headersMs: number;
  /** Whole fetch including redirects and body, ms. */
  totalMs: number;
  /** Redirects followed (at most 2 hops, each audited). */
  maxRedirects: number;
  /** How long an idle connection is kept for reuse, ms (see IDLE_MS). */
  idleMs: number;
  /** How long a host's looked-up addresses are kept (see DNS_TTL_MS); 0 looks up every fetch. */
  dnsTtlMs: number;
}

export const DEFAULT_NET_LIMITS: Readonly<NetLimits> = {
  dnsMs: 5_000,
  connectMs: 5_000,
  headersMs: 10_000,
  totalMs: 15_000,
  maxRedirects: 2,
  idleMs: 30_000,
  dnsTtlMs: 1_000,
};

export interface NetOptions {
  clock: Clock;
  /** Operator allowance besides public addresses (SVC_EGRESS_ALLOW / --egress-allow). */
  egressAllow?: readonly Cidr[];
  /**
   * Extra trust anchors (PEM) added to Node's root store. Only tests set this; production trusts
   * Node's store plus NODE_EXTRA_CA_CERTS, exactly as Node does.
   */
  trustAnchors?: readonly string[];
  /** DNS; tests inject a table. */
  lookup?: HostLookup;
  /**
   * The DNS servers TXT lookups ask (SVC_DNS_SERVERS): `ip`, `ip:port` or `[ipv6]:port`. Empty or
   * absent: the system's resolver configuration. A bad entry is a RangeError. Host lookups for
   * fetches keep using getaddrinfo (`lookup`), as every other program on the machine does.
   */
  dnsServers?: readonly string[];
  /**
   * Test seam, like curl's --connect-to: the TCP port actually dialled for a host and port of a
   * URL, so that `https://domain.example` can reach a loopback test server. The egress policy
   * and certificate checks still apply to the host and the address.
   */
  connectTo?: (host: string, port: number) => number | undefined;
  limits?: Partial<NetLimits>;
  /** The operator's telemetry (core/telemetry.ts): each fetch is a span, its outcome `ok` or the problem's code. */
  telemetry?: Telemetry;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * How long an idle connection is kept for reuse, and how many. IDLE_MS (30 s) outlives the pause
 * between two bursts of a client; a server that says it keeps connections less long (`Keep-Alive:
 * timeout=N`, as Node's 5 s) is believed, minus half a second, so it is the client that closes
 * first (and a connection closed under us anyway is replaced once). MAX_PER_KEY is the
 * concurrency one pinned address gets: above it, fetches wait for a connection handed back rather
 * than open more (a daemon under 64 concurrent did:web resolutions of one host holds 64
 * connections, reused by every later one). Beyond MAX_IDLE idle connections in all, a returned
 * connection nobody waits for is closed.
 */
const IDLE_MS = DEFAULT_NET_LIMITS.idleMs;
const MAX_PER_KEY = 64;
const MAX_IDLE_PER_KEY = MAX_PER_KEY;
const MAX_IDLE = 128;
/**
 * At most this many exchanges whose callers left run on at once (CANCELLED_GRACE_MS each, to
 * keep their connections): clients that leave in a stream cannot make svc carry an unbounded
 * amount of unobserved work. Beyond it, a cancelled exchange is cut off at once.
 */
const MAX_DETACHED = 64;
/**
 * How long a host's egress-checked addresses are kept (the policy is applied again on each use):
 * long enough that a burst looks a host up once, short enough that a name that moves is followed
 * within a second. Bounded to DNS_MAX_HOSTS names (the oldest is forgotten first).
 */
const DNS_TTL_MS = DEFAULT_NET_LIMITS.dnsTtlMs;
const DNS_MAX_HOSTS = 256;

/** The pool's and the DNS cache's bounds, for tests. */
export const CONNECTION_POOL = Object.freeze({
  idleMs: IDLE_MS,
  maxPerKey: MAX_PER_KEY,
  maxIdlePerKey: MAX_IDLE_PER_KEY,
  maxIdle: MAX_IDLE,
  maxDetached: MAX_DETACHED,
  dnsTtlMs: DNS_TTL_MS,
  dnsMaxHosts: DNS_MAX_HOSTS,
});

/**
 * undici, node:tls and node:net load on the first connection (commands that never fetch stay
 * fast) and are kept here: a dynamic import() per connection is a loader round trip each time.
 */
let undiciModule: typeof import('undici') | undefined;
let tlsModule: typeof import('node:tls') | undefined;
let netModule: typeof import('node:net') | undefined;
let dnsModule: typeof import('node:dns/promises') | undefined;

/** Errors that mean a kept connection was closed under us before any response. */
const STALE_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_INFO']);

/** A fetch waiting for a connection: handed a kept one, or told it may open its own (null). */
interface Waiter {
  grant(connection: Connection | null): void;
}

interface Connection {
  key: string;
  socket: TLSSocket | Socket;
  client: Client;
  reused: boolean;
  /** Read once after the handshake (Node cannot read a peer certificate twice reliably); null over plain http. */
  tls: TlsEvidence | null;
  /** The certificate chain of the handshake, DER, leaf first; empty over plain http. */
  chain: readonly Uint8Array[];
  idleTimer?: NodeJS.Timeout;
}

type Exchange =
  | (({ status: number; contentType: string | null; headers: Record<string, string>; body: Uint8Array } | { next: URL }) & {
      tls: TlsEvidence | null;
      chain: readonly Uint8Array[];
    })
  | { stale: true };

/** Phrases for the TLS and socket errors a user can act on; the code is always appended. */
const ERROR_PHRASES: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is not valid for this host name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate is not signed by a trusted authority',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in an untrusted self-signed authority',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed and not trusted',
  CERT_REVOKED: 'the certificate is revoked',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak TLS on this port',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed',
  ENOTFOUND: 'no such host',
  ENODATA: 'the host has no address records',
  EAI_AGAIN: 'the DNS lookup failed temporarily',
  UND_ERR_SOCKET: 'the connection was closed before the response was complete',
  UND_ERR_HEADERS_OVERFLOW: 'the response headers are too large',
};

/** Chains that end in an authority Node does not trust: an extra trust anchor is the fix, if the authority is trusted. */
const UNTRUSTED_CHAIN: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A one-line, attacker-text-free reason for a low-level error. */
function describeError(err: unknown): string {
  const code = errorCode(err);
  if (code === undefined) return 'an unexpected error';
  const phrase = ERROR_PHRASES[code];
  return phrase ? `${phrase} (${code})` : /^[A-Z0-9_]{2,60}$/.test(code) ? code : 'an unexpected error';
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

class Deadline {
  constructor(
    private readonly clock: Clock,
    private readonly endUs: number,
  ) {}
  remainingMs(): number {
    return Math.max(0, Math.floor((this.endUs - this.clock.monotonicUs()) / 1000));
  }
}

/** Runs `work` with a time limit; `onTimeout` builds the problem and may clean up. */
async function within<T>(work: Promise<T>, ms: number, onTimeout: () => ProblemError): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Host of a URL without IPv6 brackets. */
function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function hostPort(url: URL): string {
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

interface Hop {
  url: URL;
  host: string;
  port: number;
  /** http: without TLS (allowPlainHttp, an allowed address only). */
  plain: boolean;
}

/** Plain http to a public address: never (only to addresses the operator allowed). */
function plainFromPublic(host: string, purpose: string): ProblemError {
  return new ProblemError(
    'EGRESS_BLOCKED',
    `${host} is a public address; svc fetches plain http only from addresses the operator allowed (--egress-allow), so the ${purpose} was not fetched.`,
  );
}

/** `plain`: an http: URL is acceptable here (allowPlainHttp, and not a redirect away from https). */
function checkScheme(url: URL, purpose: string, plain = false): void {
  if (url.protocol !== 'https:' && !(plain && url.protocol === 'http:')) {
    throw new ProblemError('EGRESS_BLOCKED', `The ${purpose} URL ${url.protocol}//${hostPort(url)}${url.pathname} is not https; svc fetches over HTTPS only.`);
  }
  if (url.username || url.password) {
    throw new ProblemError('EGRESS_BLOCKED', `The ${purpose} URL carries credentials; svc does not send them.`);
  }
}

interface Pinned {
  address: ParsedIp;
  /** Allowance that admitted it, or null for a public address. */
  via: string | null;
}

export class EgressFetcher implements Net {
  readonly egressAllow: readonly string[];
  readonly #allow: readonly Cidr[];
  readonly #clock: Clock;
  readonly #lookup: HostLookup;
  readonly #limits: NetLimits;
  readonly #trustAnchors: readonly string[] | undefined;
  readonly #connectTo: NetOptions['connectTo'];
  readonly #txt: TxtResolver;
  readonly #telemetry: Telemetry | undefined;
  /** Built once: a trust store of Node's roots plus extra anchors costs ~20 ms to assemble. */
  #secureContext: SecureContext | undefined;
  /** Idle connections by `host|port|dialled port|pinned address`. */
  readonly #idle = new Map<string, Connection[]>();
  #idleCount = 0;
  /** Connections open per key, busy or idle (at most MAX_PER_KEY, save a stale one's replacement). */
  readonly #open = new Map<string, number>();
  /** Fetches waiting for a connection of a key at its bound, first come first served. */
  readonly #waiting = new Map<string, Waiter[]>();
  /** Exchanges running on after their callers left (at most MAX_DETACHED). */
  #detached = 0;
  /** Looked-up addresses per host, kept `dnsTtlMs`; a pending lookup is shared by concurrent fetches. */
  readonly #dns = new Map<string, { addresses: ResolvedAddress[]; expiresAtMs: number } | { pending: Promise<ResolvedAddress[]> }>();

  constructor(options: NetOptions) {
    this.#allow = options.egressAllow ?? [];
    this.egressAllow = this.#allow.map((c) => c.text);
    this.#clock = options.clock;
    // node:dns loads on the first lookup: a run that fetches nothing (a did:key) never needs it.
    this.#lookup = options.lookup ?? (async (host) => (dnsModule ??= await import('node:dns/promises')).lookup(host, { all: true, verbatim: true }));
    this.#limits = { ...DEFAULT_NET_LIMITS, ...options.limits };
    this.#trustAnchors = options.trustAnchors;
    this.#connectTo = options.connectTo;
    this.#txt = new TxtResolver({ servers: options.dnsServers ?? [], timeoutMs: this.#limits.dnsMs, tries: 2 });
    this.#telemetry = options.telemetry;
  }

  get limits(): Readonly<NetLimits> {
    return this.#limits;
  }

  /** Idle connections kept, in all (tests). */
  get idleConnections(): number {
    return this.#idleCount;
  }

  fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    const telemetry = this.#telemetry;
    if (!telemetry) return this.#fetch(request, trace);
    return telemetry.within('fetch', request.method ?? 'GET', async (note) => {
      const response = await this.#fetch(request, trace);
      note.outcome = 'ok';
      return response;
    });
  }

  async #fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    const startedUs = this.#clock.monotonicUs();
    const deadline = new Deadline(this.#clock, startedUs + this.#totalMs(request) * 1000);
    const stages = trace ? request.stages : undefined;
    const step = <T>(name: keyof FetchStageNames, label: string, body: (handle: StageHandle) => Promise<T>): Promise<T> =>
      stages && trace ? trace.run(stages[name], label, body) : body({ status: 'PASS', detail: '' });

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new ProblemError('INTERNAL_ERROR', `The ${request.purpose} URL could not be built.`);
    }
    checkScheme(url, request.purpose, request.allowPlainHttp === true);
    const redirects: RedirectHop[] = [];
    const allowances = new Set<string>();

    for (;;) {
      if (request.signal?.aborted) throw cancelledProblem();
      const plain = url.protocol === 'http:';
      const hop: Hop = { url, host: urlHost(url), port: url.port ? Number(url.port) : plain ? 80 : 443, plain };
      const pinned = await step('dns', `Resolve ${hop.host}`, (stage) => this.#resolve(hop, request, deadline, stage));
      if (pinned.via) allowances.add(pinned.via);
      else if (plain) throw plainFromPublic(hop.host, request.purpose);
      const label = `${plain ? 'TCP connection to' : 'TLS handshake with'} ${hostPort(url)}`;
      let connection = await step('tls', label, (stage) => this.#connect(hop, pinned, deadline, stage, true, request.signal));
      const exchangeLabel = `${request.method ?? 'GET'} ${url.href}`;
      const exchange = async (on: Connection): Promise<Exchange> => {
        let started = false;
        try {
          return await step('fetch', exchangeLabel, (stage) => {
            started = true;
            return this.#exchange(hop, on, request, deadline, redirects, stage);
          });
        } finally {
          // The stage did not start (the caller left in between): the connection goes back untouched.
          if (!started) this.#keep(on);
        }
      };
      let outcome = await exchange(connection);
      if ('stale' in outcome) {
        connection = await step('tls', label, (stage) => this.#connect(hop, pinned, deadline, stage, false));
        outcome = await exchange(connection);
      }
      if ('stale' in outcome) throw new ProblemError('UPSTREAM_UNAVAILABLE', `${hostPort(url)} closed the connection before answering.`);
      const tls = outcome.tls;
      if ('next' in outcome) {
        url = outcome.next;
        continue;
      }
      const latencyMs = Math.round((this.#clock.monotonicUs() - startedUs) / 1000);
      return {
        url: url.href,
        status: outcome.status,
        contentType: outcome.contentType,
        headers: outcome.headers,
        body: outcome.body,
        bytes: outcome.body.length,
        sha256: createHash('sha256').update(outcome.body).digest('hex'),
        peerAddress: pinned.address.text,
        redirects,
        latencyMs,
        tls,
        tlsChain: outcome.chain,
        allowances: [...allowances],
      };
    }
  }

  /** The whole-fetch limit of `request`: its own when it sets one, else the fetcher's. */
  #totalMs(request: FetchRequest): number {
    return request.timeLimitMs ?? this.#limits.totalMs;
  }

  async checkDestination(target: string, purpose: string, options: { allowPlainHttp?: boolean } = {}): Promise<void> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new ProblemError('EGRESS_BLOCKED', `The ${purpose} URL could not be read.`);
    }
    checkScheme(url, purpose, options.allowPlainHttp === true);
    const deadline = new Deadline(this.#clock, this.#clock.monotonicUs() + this.#limits.totalMs * 1000);
    const plain = url.protocol === 'http:';
    const hop: Hop = { url, host: urlHost(url), port: url.port ? Number(url.port) : plain ? 80 : 443, plain };
    const pinned = await this.#resolve(hop, { url: target, purpose, maxBytes: 0 }, deadline, { status: 'PASS', detail: '' });
    if (plain && !pinned.via) throw plainFromPublic(hop.host, purpose);
  }

  resolveTxt(name: string, signal?: AbortSignal): Promise<string[]> {
    return this.#txt.resolveTxt(name, signal);
  }

  async #resolve(hop: Hop, request: FetchRequest, deadline: Deadline, stage: StageHandle): Promise<Pinned> {
    const literal = parseIp(hop.host);
    let candidates: ParsedIp[];
    if (literal) {
      candidates = [literal];
    } else {
      const limit = Math.min(this.#limits.dnsMs, deadline.remainingMs());
      let found: ResolvedAddress[];
      try {
        found = await within(
          this.#lookupKept(hop.host),
          limit,
          () => new ProblemError('UPSTREAM_UNAVAILABLE', `DNS lookup of ${hop.host} took longer than ${seconds(limit)}.`),
        );
      } catch (err) {
        if (err instanceof ProblemError) throw err;
        // No such host is a name to check, not an outage to wait out.
        const hint: ProblemHint | undefined = errorCode(err) === 'ENOTFOUND' ? { kind: 'host-name', host: hop.host } : undefined;
        throw new ProblemError('UPSTREAM_UNAVAILABLE', `DNS lookup of ${hop.host} failed: ${describeError(err)}.`, hint ? { hint } : {});
      }
      candidates = found.map((a) => parseIp(a.address)).filter((a): a is ParsedIp => a !== null);
      if (candidates.length === 0) throw new ProblemError('UPSTREAM_UNAVAILABLE', `DNS lookup of ${hop.host} returned no addresses.`);
    }
    const refused: string[] = [];
    const allowances: string[] = [];
    let pinned: Pinned | undefined;
    for (const address of candidates) {
      const verdict = checkAddress(address, this.#allow);
      if (verdict.allowed) pinned ??= { address, via: verdict.via };
      else {
        refused.push(`${address.text} (${verdict.reason}, ${verdict.range})`);
        const allowance = suggestedAllowance(address, verdict.range);
        if (allowance !== null) allowances.push(allowance);
      }
    }
    if (!pinned) {
      // The one address an operator could allow (an IPv4 one first: the familiar form), when it is one they plausibly mean.
      const cidr = allowances.find((a) => !a.includes(':')) ?? allowances[0];
      throw new ProblemError(
        'EGRESS_BLOCKED',
        `${hop.host} resolves only to non-public addresses: ${refused.join('; ')}. The ${request.purpose} was not fetched.`,
        cidr === undefined ? {} : { hint: { kind: 'egress-allow', cidr } },
      );
    }
    const via = pinned.via ? ` (admitted by the operator allowance ${pinned.via})` : '';
    stage.detail = `${hop.host} → ${pinned.address.text}${via}${refused.length ? `; refused ${refused.join('; ')}` : ''}`;
    return pinned;
  }

  /**
   * The addresses of `host`: kept ones younger than dnsTtlMs, else one lookup shared by every
   * fetch that asks meanwhile. The caller checks them against the policy each time.
   */
  #lookupKept(host: string): Promise<ResolvedAddress[]> {
    const ttlMs = this.#limits.dnsTtlMs;
    if (ttlMs <= 0) return this.#lookup(host);
    const kept = this.#dns.get(host);
    if (kept) {
      if ('pending' in kept) return kept.pending;
      if (this.#clock.now().getTime() < kept.expiresAtMs) return Promise.resolve(kept.addresses);
      this.#dns.delete(host);
    }
    const pending = this.#lookup(host).then(
      (addresses) => {
        if (this.#dns.get(host) === entry) {
          this.#dns.delete(host);
          this.#dns.set(host, { addresses, expiresAtMs: this.#clock.now().getTime() + ttlMs });
        }
        return addresses;
      },
      (err: unknown) => {
        if (this.#dns.get(host) === entry) this.#dns.delete(host);
        throw err;
      },
    );
    const entry = { pending };
    this.#dns.set(host, entry);
    // Bounded: the name looked up longest ago goes first.
    if (this.#dns.size > DNS_MAX_HOSTS) this.#dns.delete(this.#dns.keys().next().value!);
    return pending;
  }

  /** Closes every kept connection and forgets looked-up addresses (daemon shutdown, tests). */
  close(): void {
    for (const list of this.#idle.values()) for (const connection of list) this.#discard(connection);
    this.#idle.clear();
    this.#idleCount = 0;
    this.#dns.clear();
  }

  #key(hop: Hop, pinned: Pinned): string {
    const port = this.#connectTo?.(hop.host, hop.port) ?? hop.port;
    return `${hop.plain ? 'http' : 'https'}|${hop.host}|${hop.port}|${port}|${pinned.address.text}`;
  }

  #takeIdle(key: string): Connection | undefined {
    const list = this.#idle.get(key);
    while (list && list.length > 0) {
      const connection = list.pop()!;
      this.#idleCount -= 1;
      clearTimeout(connection.idleTimer);
      if (!connection.socket.destroyed && connection.socket.writable && !connection.client.destroyed && !connection.client.closed) {
        connection.socket.ref();
        return connection;
      }
      this.#discard(connection);
    }
    return undefined;
  }

  #keep(connection: Connection): void {
    if (connection.socket.destroyed || !connection.socket.writable || connection.client.destroyed || connection.client.closed) {
      this.#discard(connection);
      return;
    }
    // A fetch waiting for this key takes the connection as it is handed back.
    const waiter = this.#waiting.get(connection.key)?.shift();
    if (waiter) {
      connection.socket.ref(); // unref'd if its last caller left
      waiter.grant(connection);
      return;
    }
    const list = this.#idle.get(connection.key) ?? [];
    if (list.length >= MAX_IDLE_PER_KEY || this.#idleCount >= MAX_IDLE) {
      this.#discard(connection);
      return;
    }
    // An idle connection must not keep a CLI process alive.
    connection.socket.unref();
    connection.idleTimer = setTimeout(() => {
      const current = this.#idle.get(connection.key);
      const at = current?.indexOf(connection) ?? -1;
      if (current && at >= 0) {
        current.splice(at, 1);
        this.#idleCount -= 1;
      }
      this.#discard(connection);
    }, this.#limits.idleMs);
    connection.idleTimer.unref();
    list.push(connection);
    this.#idle.set(connection.key, list);
    this.#idleCount += 1;
  }

  #discard(connection: Connection): void {
    clearTimeout(connection.idleTimer);
    connection.client.destroy().catch(() => {});
    connection.socket.destroy();
    this.#release(connection.key);
  }

  /** A connection of `key` is gone: its place goes to the first fetch waiting, else is freed. */
  #release(key: string): void {
    const waiter = this.#waiting.get(key)?.shift();
    if (waiter) {
      waiter.grant(null);
      return;
    }
    const open = (this.#open.get(key) ?? 1) - 1;
    if (open > 0) this.#open.set(key, open);
    else this.#open.delete(key);
  }

  /**
   * Waits for a connection of `key` handed back (or for its place, null), within the fetch's time
   * and its caller's signal.
   */
  #waitFor(key: string, hop: Hop, deadline: Deadline, signal: AbortSignal | undefined): Promise<Connection | null> {
    const queue = this.#waiting.get(key) ?? [];
    this.#waiting.set(key, queue);
    return new Promise<Connection | null>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.#waiting.get(key) === queue) this.#waiting.delete(key);
      };
      const waiter: Waiter = {
        grant: (connection) => {
          leave();
          resolve(connection);
        },
      };
      const cancel = () => {
        leave();
        reject(cancelledProblem());
      };
      const limit = deadline.remainingMs();
      const timer = setTimeout(
        () => {
          leave();
          reject(
            new ProblemError('UPSTREAM_UNAVAILABLE', `No connection to ${hostPort(hop.url)} came free within ${seconds(limit)}: all ${MAX_PER_KEY} were busy.`),
          );
        },
        Math.max(1, limit),
      );
      signal?.addEventListener('abort', cancel, { once: true });
      queue.push(waiter);
    });
  }

  /** A kept connection to the same host and pinned address, or a new TLS connection. */
  async #connect(hop: Hop, pinned: Pinned, deadline: Deadline, stage: StageHandle, mayReuse: boolean, signal?: AbortSignal): Promise<Connection> {
    const key = this.#key(hop, pinned);
    let kept = mayReuse ? this.#takeIdle(key) : undefined;
    // At the key's bound, wait for a connection handed back (or the place of one closed: null)
    // rather than open one more.
    let placed = false;
    if (mayReuse && !kept && (this.#open.get(key) ?? 0) >= MAX_PER_KEY) {
      const granted = await this.#waitFor(key, hop, deadline, signal);
      if (granted === null) placed = true;
      else kept = granted;
    }
    if (kept) {
      stage.detail = `reused the ${kept.tls?.protocol ?? 'plain http'} connection to ${hostPort(hop.url)} (${pinned.address.text})`;
      return { ...kept, reused: true, tls: kept.tls && { ...kept.tls, daysUntilExpiry: daysUntil(kept.tls.certificate.validTo, this.#clock.now()) } };
    }
    // The place is taken before the handshake, so that concurrent fetches count it.
    if (!placed) this.#open.set(key, (this.#open.get(key) ?? 0) + 1);
    const dialling = this.#dial(key, hop, pinned, deadline, stage);
    // A caller that leaves during the handshake is freed at once; the connection, once made,
    // goes to the pool (a handshake is bounded by its own time limit).
    return signal ? detach(dialling, signal, (connection) => this.#keep(connection)) : dialling;
  }

  /** A new connection of `key` (its place in the pool already taken; given back if it fails). */
  async #dial(key: string, hop: Hop, pinned: Pinned, deadline: Deadline, stage: StageHandle): Promise<Connection> {
    let socket: TLSSocket | Socket;
    try {
      socket = hop.plain ? await this.#plainConnect(hop, pinned, deadline, stage) : await this.#handshake(hop, pinned, deadline, stage);
    } catch (err) {
      this.#release(key);
      throw err;
    }
    const { Client } = (undiciModule ??= await import('undici'));
    let handedOver = false;
    const client = new Client(hop.url.origin, {
      connect: (_options, callback) => {
        // undici expects the connector to answer asynchronously, as a real connect does. The
        // client never dials on its own: it gets this one pinned socket, once.
        if (handedOver) process.nextTick(callback, new Error('svc uses one pinned connection per client'), null);
        else {
          handedOver = true;
          process.nextTick(callback, null, socket);
        }
      },
      pipelining: 1,
      keepAliveTimeout: this.#limits.idleMs,
      keepAliveMaxTimeout: this.#limits.idleMs,
      // undici trusts a server's `Keep-Alive: timeout=N` minus this margin (default 2 s, which
      // turns a common `timeout=2` into "close now").
      keepAliveTimeoutThreshold: 500,
    });
    const read = hop.plain ? null : readTlsEvidence(socket as TLSSocket, hop.host, this.#clock.now());
    return { key, socket, client, reused: false, tls: read?.evidence ?? null, chain: read?.chain ?? [] };
  }

  /** TCP only, to the pinned address (plain http to an operator-allowed address). */
  async #plainConnect(hop: Hop, pinned: Pinned, deadline: Deadline, stage: StageHandle): Promise<Socket> {
    const net = (netModule ??= await import('node:net'));
    const port = this.#connectTo?.(hop.host, hop.port) ?? hop.port;
    const limit = Math.min(this.#limits.connectMs, deadline.remainingMs());
    const socket = net.connect({ host: pinned.address.text, port });
    const where = `${hostPort(hop.url)} (${pinned.address.text})`;
    const connected = new Promise<Socket>((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('error', (err) => reject(new ProblemError('UPSTREAM_UNAVAILABLE', `TCP connection to ${where} failed: ${describeError(err)}.`)));
    });
    try {
      const result = await within(
        connected,
        limit,
        () => new ProblemError('UPSTREAM_UNAVAILABLE', `TCP connection to ${where} was not established within ${seconds(limit)}.`),
      );
      result.setNoDelay(true);
      stage.status = 'WARN';
      stage.detail = `plain http (no TLS) with ${where}`;
      return result;
    } catch (err) {
      socket.destroy();
      throw err;
    }
  }

  async #handshake(hop: Hop, pinned: Pinned, deadline: Deadline, stage: StageHandle): Promise<TLSSocket> {
    const tls = (tlsModule ??= await import('node:tls'));
    const port = this.#connectTo?.(hop.host, hop.port) ?? hop.port;
    const limit = Math.min(this.#limits.connectMs, deadline.remainingMs());
    const socket = tls.connect({
      host: pinned.address.text,
      port,
      // SNI must be a name; for an IP literal the certificate is checked against the IP.
      ...(parseIp(hop.host) ? {} : { servername: hop.host }),
      ALPNProtocols: ['http/1.1'],
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
      ...(this.#trustAnchors
        ? { secureContext: (this.#secureContext ??= tls.createSecureContext({ minVersion: 'TLSv1.2', ca: [...tls.rootCertificates, ...this.#trustAnchors] })) }
        : {}),
    });
    const where = `${hostPort(hop.url)} (${pinned.address.text})`;
    const connected = new Promise<TLSSocket>((resolve, reject) => {
      socket.once('secureConnect', () => resolve(socket));
      socket.once('error', (err) =>
        reject(
          new ProblemError(
            'UPSTREAM_UNAVAILABLE',
            `TLS connection to ${where} failed: ${describeError(err)}.`,
            UNTRUSTED_CHAIN.has(errorCode(err) ?? '') ? { hint: { kind: 'extra-ca' } } : {},
          ),
        ),
      );
    });
    try {
      const result = await within(
        connected,
        limit,
        () => new ProblemError('UPSTREAM_UNAVAILABLE', `TLS connection to ${where} was not established within ${seconds(limit)}.`),
      );
      result.setNoDelay(true);
      stage.detail = `${result.getProtocol() ?? 'TLS'} with ${where}`;
      return result;
    } catch (err) {
      socket.destroy();
      throw err;
    }
  }

  /**
   * One request and response on `connection`. The caller's signal frees the caller at once (a
   * daemon client that left: the fetch rejects as cancelled the moment it aborts), but the
   * exchange itself runs on, unobserved, for at most CANCELLED_GRACE_MS more and never past the
   * fetch's own time limit (unless MAX_DETACHED do already: then it is cut off at once), its body still counted against the cap (and no longer shown to the
   * caller's watcher): a response that completes in that time hands its connection back to the
   * pool, as any complete response does, instead of costing the next fetch a new TCP+TLS
   * handshake. An upstream that does not finish by then is cut off, its connection destroyed.
   */
  #exchange(hop: Hop, connection: Connection, request: FetchRequest, deadline: Deadline, redirects: RedirectHop[], stage: StageHandle): Promise<Exchange> {
    const signal = request.signal;
    if (signal?.aborted) {
      // Nothing sent on it yet: the connection is as good as before.
      this.#keep(connection);
      return Promise.reject(cancelledProblem());
    }
    const abort = new ExchangeAbort();
    const work = this.#exchangeOn(hop, connection, request, deadline, redirects, stage, abort);
    if (!signal) return work;
    return new Promise<Exchange>((resolve, reject) => {
      let detached = false;
      const cancel = () => {
        if (this.#detached >= MAX_DETACHED) abort.cutOff();
        else if (abort.cancelled(deadline.remainingMs())) {
          detached = true;
          this.#detached += 1;
          // Nobody waits for it now: it must not keep a process alive (a CLI run that was cancelled).
          connection.socket.unref();
        }
        reject(cancelledProblem());
      };
      const settled = () => {
        signal.removeEventListener('abort', cancel);
        if (detached) this.#detached -= 1;
      };
      signal.addEventListener('abort', cancel, { once: true });
      work.then(
        (exchange) => {
          settled();
          resolve(exchange);
        },
        (err: unknown) => {
          settled();
          reject(err);
        },
      );
    });
  }

  async #exchangeOn(
    hop: Hop,
    connection: Connection,
    request: FetchRequest,
    deadline: Deadline,
    redirects: RedirectHop[],
    stage: StageHandle,
    abort: ExchangeAbort,
  ): Promise<Exchange> {
    const { client } = connection;
    const { tls, chain } = connection;
    // A request with its own time limit may wait for headers as long as that limit lasts.
    const headersLimit = request.timeLimitMs === undefined ? Math.min(this.#limits.headersMs, deadline.remainingMs()) : Math.max(1, deadline.remainingMs());
    let reusable = false;
    abort.limit(Math.max(1, deadline.remainingMs()));
    const where = hostPort(hop.url);
    const timeoutProblem = () =>
      abort.isCancelled
        ? cancelledProblem()
        : new ProblemError(
            'UPSTREAM_UNAVAILABLE',
            `${where} did not deliver the ${request.purpose} within the ${seconds(this.#totalMs(request))} limit of ${request.timeLimitMs === undefined ? 'a fetch' : `a ${request.purpose} attempt`}.`,
          );
    try {
      let response;
      try {
        response = await client.request({
          path: `${hop.url.pathname}${hop.url.search}`,
          method: request.method ?? 'GET',
          headers: {
            ...request.headers,
            accept: request.accept ?? 'application/json',
            'accept-encoding': 'identity',
            'user-agent': 'svc',
          },
          ...(request.body !== undefined ? { body: request.body } : {}),
          signal: abort,
          headersTimeout: headersLimit,
          bodyTimeout: Math.max(1, deadline.remainingMs()),
        });
      } catch (err) {
        if (abort.aborted) throw timeoutProblem();
        if (connection.reused && STALE_CODES.has(errorCode(err) ?? '')) {
          stage.status = 'WARN';
          stage.detail = 'the kept connection was closed by the server; reconnecting';
          return { stale: true };
        }
        if (errorCode(err) === 'UND_ERR_HEADERS_TIMEOUT') {
          // With a time limit of its own, the wait for headers is what is left of that limit: its
          // end is the limit's, and is said as the total timer would say it (whichever fired first).
          if (request.timeLimitMs !== undefined) throw timeoutProblem();
          throw new ProblemError('UPSTREAM_UNAVAILABLE', `${where} sent no response headers within ${seconds(headersLimit)}.`);
        }
        throw new ProblemError('UPSTREAM_UNAVAILABLE', `Fetching the ${request.purpose} from ${where} failed: ${describeError(err)}.`);
      }
      const { statusCode } = response;
      // The body may be abandoned (redirect, declared size over the cap) and the client
      // destroyed under it; its late 'aborted' error is expected and must not go unhandled.
      response.body.on('error', () => {});
      const header = (name: string): string | undefined => {
        const value = response.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };

      const method = request.method ?? 'GET';
      if (REDIRECT_STATUSES.has(statusCode) && request.noRedirects !== true && (method === 'GET' || statusCode === 307 || statusCode === 308)) {
        response.body.destroy();
        const location = header('location');
        if (location === undefined) throw new ProblemError('UPSTREAM_UNAVAILABLE', `${where} answered ${statusCode} without a Location header.`);
        let next: URL;
        try {
          next = new URL(location, hop.url);
        } catch {
          throw new ProblemError('UPSTREAM_UNAVAILABLE', `${where} answered ${statusCode} with an unusable Location header.`);
        }
        if (redirects.length >= this.#limits.maxRedirects) {
          throw new ProblemError(
            'UPSTREAM_UNAVAILABLE',
            `${where} redirected the ${request.purpose} a ${ordinal(redirects.length + 1)} time; svc follows at most ${this.#limits.maxRedirects} redirects.`,
          );
        }
        next.hash = '';
        // Plain http stays possible only between http URLs: a redirect never downgrades https.
        checkScheme(next, request.purpose, request.allowPlainHttp === true && hop.plain);
        redirects.push({ from: hop.url.href, to: next.href, status: statusCode });
        stage.detail = `${statusCode} → ${next.href}`;
        return { next, tls, chain };
      }

      const contentType = header('content-type') ?? null;
      const declared = header('content-length');
      if (declared !== undefined && /^[0-9]+$/.test(declared) && Number(declared) > request.maxBytes) {
        response.body.destroy();
        throw tooLarge(request, where, `declares ${declared} bytes`);
      }
      let body: Buffer | null;
      const watcher = abort.isCancelled ? undefined : request.watchBody?.(statusCode, contentType);
      let stopped = false;
      try {
        // Once the caller has gone, the rest of the body is only read to its end (the cap still counts).
        body = await readCapped(response.body, request.maxBytes, watcher ? (chunk) => !abort.isCancelled && (stopped = watcher(chunk)) : undefined);
      } catch (err) {
        if (abort.aborted) throw timeoutProblem();
        throw new ProblemError('UPSTREAM_UNAVAILABLE', `Reading the ${request.purpose} from ${where} failed: ${describeError(err)}.`);
      }
      if (body === null) throw tooLarge(request, where, `sent more than ${request.maxBytes} bytes`);
      const received = body.length;
      stage.detail = `${statusCode}, ${received} bytes${contentType ? `, ${contentType}` : ''}`;
      if (statusCode >= 400) stage.status = 'FAIL';
      // A body left unread (the watcher stopped it) leaves the connection mid-response.
      reusable = !stopped;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: statusCode, contentType, headers, body: new Uint8Array(body.buffer, body.byteOffset, body.length), tls, chain };
    } finally {
      abort.settled();
      if (reusable) this.#keep(connection);
      else this.#discard(connection);
    }
  }
}

/**
 * `work`'s outcome, or the cancelled problem the moment `signal` aborts; a value that arrives
 * after that goes to `orphan` (a failure then is nobody's: the work cleaned up after itself).
 */
function detach<T>(work: Promise<T>, signal: AbortSignal, orphan: (value: T) => void): Promise<T> {
  if (signal.aborted) {
    work.then(orphan, () => {});
    return Promise.reject(cancelledProblem());
  }
  return new Promise<T>((resolve, reject) => {
    let gone = false;
    const cancel = () => {
      gone = true;
      reject(cancelledProblem());
    };
    signal.addEventListener('abort', cancel, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', cancel);
        if (gone) orphan(value);
        else resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', cancel);
        if (!gone) reject(err);
      },
    );
  });
}

/**
 * After the caller's signal aborts, how much longer its exchange may run unobserved to bring
 * its connection back to the pool (never past the fetch's own time limit).
 */
export const CANCELLED_GRACE_MS = 3_000;

/**
 * What cuts one exchange off (its total time limit, or CANCELLED_GRACE_MS after the caller's
 * signal aborted): an emitter of 'abort', which undici takes as a request's signal like an
 * AbortSignal, at a fraction of the cost of an AbortController per request.
 */
class ExchangeAbort extends EventEmitter {
  aborted = false;
  /** The caller has gone: nobody waits for the result any more. */
  isCancelled = false;
  #total: NodeJS.Timeout | undefined;
  #grace: NodeJS.Timeout | undefined;
  #settled = false;

  /** The exchange's own time limit. */
  limit(ms: number): void {
    this.#total = setTimeout(() => this.abort(), ms);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }

  /**
   * The caller's signal aborted: the exchange may run on for the grace period, within
   * `remainingMs`. False when it is already over.
   */
  cancelled(remainingMs: number): boolean {
    if (this.isCancelled || this.#settled) return false;
    this.isCancelled = true;
    this.#grace = setTimeout(() => this.abort(), Math.max(1, Math.min(CANCELLED_GRACE_MS, remainingMs)));
    // Neither timer keeps a process alive for an exchange nobody waits for.
    this.#grace.unref();
    this.#total?.unref();
    return true;
  }

  /** The caller's signal aborted and the exchange may not run on: cut off now. */
  cutOff(): void {
    this.isCancelled = true;
    this.abort();
  }

  /** The exchange is over (kept or discarded). */
  settled(): void {
    this.#settled = true;
    clearTimeout(this.#total);
    clearTimeout(this.#grace);
  }
}

/**
 * A response body read whole as it streams in: null (the stream destroyed) as soon as it passes
 * `maxBytes`; rejected when the stream fails or closes before its end. Listeners rather than an
 * async iterator: one body per fetch, read at the cost of its chunks. `stop`, when given, sees
 * each chunk (within the cap) and ends the reading early by returning true: the stream is
 * destroyed and what arrived so far is the body.
 */
function readCapped(body: Readable, maxBytes: number, stop?: (chunk: Buffer) => boolean): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > maxBytes) {
        settled = true;
        body.destroy();
        resolve(null);
        return;
      }
      chunks.push(chunk);
      if (stop?.(chunk)) {
        settled = true;
        body.destroy();
        resolve(Buffer.concat(chunks, received));
      }
    });
    body.once('end', () => {
      settled = true;
      resolve(Buffer.concat(chunks, received));
    });
    body.once('error', (err) => {
      settled = true;
      reject(err);
    });
    body.once('close', () => {
      if (!settled) reject(new Error('the response closed before its end'));
    });
  });
}

function tooLarge(request: FetchRequest, where: string, what: string): ProblemError {
  const setting = request.maxBytesSetting ? ` (${request.maxBytesSetting})` : '';
  return new ProblemError('PAYLOAD_TOO_LARGE', `The ${request.purpose} from ${where} ${what}; the limit is ${request.maxBytes} bytes${setting}.`);
}

function ordinal(n: number): string {
  return n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}

export type { TlsEvidence };
