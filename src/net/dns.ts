/**
 * TXT lookups (Net.resolveTxt): node:dns/promises' Resolver (c-ares), loaded on the first
 * lookup, asking the operator's servers (SVC_DNS_SERVERS) or the system's. A TXT query goes to
 * the resolver, never to the name's own hosts, so there is no address for the egress policy to
 * check; what the answer says is only ever compared, never fetched.
 */
import { cancelledProblem, ProblemError } from '../core/problems.js';
import { parseIp } from './ip.js';

/** Per-query settings: the first try's time limit and the tries per server; the whole lookup ends after tries × timeout. */
export interface TxtResolverOptions {
  /** `ip`, `ip:port` or `[ipv6]:port`; empty: the system's resolver configuration. */
  servers?: readonly string[];
  timeoutMs?: number;
  tries?: number;
}

/** The codes c-ares gives for a name that does not exist (NXDOMAIN) or has no record of the type (NODATA). */
const ABSENT_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'ENODATA', 'EBADNAME']);

/** Phrases for the resolver failures a user can act on; the code is always appended. */
const DNS_ERROR_PHRASES: Readonly<Record<string, string>> = {
  ESERVFAIL: 'the DNS server failed to answer',
  EREFUSED: 'the DNS server refused the query',
  ETIMEOUT: 'no DNS server answered in time',
  ECONNREFUSED: 'the DNS server could not be reached',
  EFORMERR: 'the DNS server did not understand the query',
  EBADRESP: 'the DNS answer was malformed',
  ENOTIMP: 'the DNS server does not implement the query',
  EOF: 'the DNS server closed the connection',
};

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describeDnsError(err: unknown): string {
  const code = errorCode(err);
  if (code === undefined) return 'an unexpected error';
  const phrase = DNS_ERROR_PHRASES[code];
  return phrase ? `${phrase} (${code})` : /^[A-Z0-9_]{2,60}$/.test(code) ? code : 'an unexpected error';
}

/**
 * One DNS server as SVC_DNS_SERVERS and NetOptions.dnsServers take it: an IPv4 or IPv6 address,
 * optionally with a port (`192.0.2.53:5353`, `[2001:db8::53]:5353`). Returns the form the
 * resolver takes, or why it is not one.
 */
export function parseDnsServer(entry: string): { server: string } | { error: string } {
  const bad = (why: string) => ({ error: `bad DNS server "${entry.slice(0, 64)}": ${why}` });
  let host = entry;
  let port: string | null = null;
  const bracketed = /^\[([^\]]*)\](?::([0-9]+))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ?? null;
    if (parseIp(host)?.family !== 6) return bad('only an IPv6 address goes in brackets');
  } else if (/^[^:]*:[^:]*$/.test(entry)) {
    // One colon: IPv4 with a port (an IPv6 address has at least two).
    [host, port] = entry.split(':') as [string, string];
  }
  const ip = parseIp(host);
  if (!ip) return bad('not an IP address (write IPv6 with a port as [address]:port)');
  if (port !== null) {
    const n = /^[0-9]{1,5}$/.test(port) ? Number(port) : 0;
    if (n < 1 || n > 65535) return bad('the port is outside 1–65535');
    return { server: ip.family === 6 ? `[${ip.text}]:${n}` : `${ip.text}:${n}` };
  }
  return { server: ip.text };
}

/** A comma-separated list of DNS servers (SVC_DNS_SERVERS); empty entries are skipped. */
export function parseDnsServers(text: string): { servers: string[] } | { error: string } {
  const servers: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const parsed = parseDnsServer(entry);
    if ('error' in parsed) return parsed;
    servers.push(parsed.server);
  }
  return { servers };
}

/** The name as messages show it: without the final dot, cut at what DNS can hold. */
function shown(name: string): string {
  return name.replace(/\.$/, '').slice(0, 260);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A TXT record as one string: its character-strings joined, then read as UTF-8. */
function joinRecord(chunks: readonly string[]): string {
  // c-ares hands Node each character-string's bytes, which Node turns into a string one byte
  // per character (latin1). Joining the bytes before decoding keeps a UTF-8 character that a
  // publisher split across two strings whole. A character above U+00FF would mean Node had
  // decoded already: then the text is taken as it is.
  const text = chunks.join('');
  if (/[^\x00-\xff]/.test(text)) return text;
  return new TextDecoder('utf-8').decode(Buffer.from(text, 'latin1'));
}

export class TxtResolver {
  readonly #servers: readonly string[];
  readonly #timeoutMs: number;
  readonly #tries: number;

  constructor(options: TxtResolverOptions = {}) {
    const servers: string[] = [];
    for (const entry of options.servers ?? []) {
      const parsed = parseDnsServer(entry);
      if ('error' in parsed) throw new RangeError(parsed.error);
      servers.push(parsed.server);
    }
    this.#servers = servers;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#tries = options.tries ?? 2;
  }

  /** See Net.resolveTxt. */
  async resolveTxt(name: string, signal?: AbortSignal): Promise<string[]> {
    if (signal?.aborted) throw cancelledProblem();
    const { Resolver } = await import('node:dns/promises');
    // One resolver per query: cancel() cancels everything a resolver has in flight, and an
    // abort must cut off this query only.
    const resolver = new Resolver({ timeout: this.#timeoutMs, tries: this.#tries });
    if (this.#servers.length > 0) resolver.setServers([...this.#servers]);
    const cancel = () => resolver.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    // c-ares lengthens each retry (measured: a 1 s timeout with 2 tries gave up after 4 s), so
    // the whole lookup is also held to tries × timeout.
    const limitMs = this.#timeoutMs * this.#tries;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, limitMs);
    try {
      // Absolute (a final dot): the resolver's search domains never apply, so a name that does
      // not exist is never retried as <name>.<local domain>.
      const records = await resolver.resolveTxt(name.endsWith('.') ? name : `${name}.`);
      return records.map(joinRecord);
    } catch (err) {
      if (signal?.aborted) throw cancelledProblem();
      if (timedOut) throw new ProblemError('UPSTREAM_UNAVAILABLE', `The TXT lookup of ${shown(name)} got no answer within ${seconds(limitMs)}.`);
      const code = errorCode(err);
      // A name DNS cannot hold (EBADNAME) cannot have records either.
      if (code !== undefined && ABSENT_CODES.has(code)) return [];
      throw new ProblemError('UPSTREAM_UNAVAILABLE', `The TXT lookup of ${shown(name)} failed: ${describeDnsError(err)}.`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }
}
