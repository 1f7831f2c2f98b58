/**
 * Per-client token buckets: each client holds up to `perPeriod` tokens, refilled
 * continuously at `perPeriod` per period (a minute for the request budgets, a day for the
 * delegation registration quota); a request takes one. Not a fixed window: a client that waits
 * a second gets a second's worth back, no burst at a window edge.
 */
import { isIP } from 'node:net';

export type Take = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  atMs: number;
}

const ALLOWED: Take = Object.freeze({ allowed: true });

/** Whole seconds until one token is back, at least 1 (Retry-After). */
function retryAfter(tokens: number, perMs: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
}

export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;

  constructor(
    /** The bucket's size, and what it refills over one period. */
    readonly perPeriod: number,
    private readonly nowMs: () => number,
    /** Clients remembered; the least recently seen are forgotten first (a full bucket again). */
    private readonly maxClients = 50_000,
    /** The refill period, ms (a minute unless said otherwise). */
    readonly periodMs = 60_000,
  ) {
    this.#perMs = perPeriod / periodMs;
  }

  take(client: string): Take {
    const now = this.nowMs();
    const known = this.#buckets.get(client);
    if (known === undefined) {
      const bucket: Bucket = { tokens: this.perPeriod - 1, atMs: now };
      if (bucket.tokens < 0) return this.#refuse(client, { tokens: this.perPeriod, atMs: now });
      this.#buckets.set(client, bucket);
      this.#last = client;
      if (this.#buckets.size > this.maxClients) this.#buckets.delete(this.#buckets.keys().next().value as string);
      return ALLOWED;
    }
    // Refilled in place; re-inserted (Map order is recency order, so eviction drops the
    // longest-idle client) unless it is the most recent already.
    known.tokens = Math.min(this.perPeriod, known.tokens + (now - known.atMs) * this.#perMs);
    known.atMs = now;
    if (client !== this.#last) {
      this.#buckets.delete(client);
      this.#buckets.set(client, known);
      this.#last = client;
    }
    if (known.tokens >= 1) {
      known.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterSeconds: retryAfter(known.tokens, this.#perMs) };
  }

  /** A new client whose bucket cannot give even one token (a bucket of size 0). */
  #refuse(client: string, bucket: Bucket): Take {
    this.#buckets.set(client, bucket);
    this.#last = client;
    return { allowed: false, retryAfterSeconds: retryAfter(bucket.tokens, this.#perMs) };
  }

  /** The client whose bucket was used last (the newest in the map's order). */
  #last: string | undefined;

  get clients(): number {
    return this.#buckets.size;
  }
}

/**
 * The client a budget belongs to: its address, with IPv6 clients grouped by /64 (one host
 * usually holds a whole /64, so per-address buckets would be trivially escaped).
 */
export function clientKey(address: string): string {
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (isIP(plain) !== 6) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g === '' ? '0' : g.toLowerCase().replace(/^0+(?=.)/, '')))
    .join(':')}::/64`;
}

/** What clientOf reads of a request (a Fastify request; `ips` only exists with trusted proxies). */
interface ClientRequest {
  readonly ip: string | undefined;
  readonly ips?: readonly string[] | undefined;
  readonly socket: { readonly remoteAddress?: string | undefined } | null | undefined;
}

const CLIENT = Symbol('svc.client');

/**
 * The client a request's budgets, capacity share and access-log line belong to, worked out once
 * per request. With trusted proxies (SVC_TRUST_PROXY) Fastify reads X-Forwarded-For from the
 * right up to the first hop that is not one of them — and hands back whatever that entry holds.
 * Only an entry that parses as an IP address names a client: anything else (garbage, a host
 * name, an address with a port) names nobody, and the request counts as the trusted hop's that
 * handed it over, so rotating junk in the header never makes a new client.
 */
export function clientOf(request: ClientRequest): string {
  const memo = request as ClientRequest & { [CLIENT]?: string };
  return (memo[CLIENT] ??= clientOfUncached(request));
}

function clientOfUncached(request: ClientRequest): string {
  const ip = request.ip;
  if (ip !== undefined && isIP(ip) !== 0) return clientKey(ip);
  const hops = request.ips;
  if (hops !== undefined) {
    // hops: the socket's address first, then the forwarded entries right to left; every one
    // before the last is a trusted proxy (an address), the last is what the proxies named.
    for (let i = hops.length - 2; i >= 0; i--) {
      const hop = hops[i]!;
      if (isIP(hop) !== 0) return clientKey(hop);
    }
  }
  return clientKey(request.socket?.remoteAddress ?? '-');
}
