/**
 * src/net: every outbound request of svc. `createNet` builds the fetcher a Runtime carries. The
 * fetcher's module (and with it undici and node:tls) loads on the first request, node:dns's
 * resolver on the first TXT lookup, so commands that never fetch (a did:key) load none of it.
 */
import type { FetchRequest, FetchResponse, Net } from '../core/net.js';
import type { Trace } from '../core/resolve/trace.js';
import { parseDnsServer } from './dns.js';
import type { NetOptions } from './fetch.js';

export type { HostLookup, NetLimits, NetOptions, ResolvedAddress } from './fetch.js';
export { parseDnsServer, parseDnsServers, TxtResolver, type TxtResolverOptions } from './dns.js';
export { checkAddress, classifyAddress, familyShares, linkLocalOverreach, parseAllowList, parseCidr, parseIp, type Cidr, type ParsedIp } from './ip.js';

/** The fetcher of `options`: an EgressFetcher, built when the first request needs it. */
export function createNet(options: NetOptions): Net {
  return new LazyNet(options);
}

/**
 * A Net whose EgressFetcher is built on first use. What the fetcher would refuse when built (a
 * DNS server entry that is not an address) is refused here, when the Net is made, as before.
 */
class LazyNet implements Net {
  readonly egressAllow: readonly string[];
  readonly #options: NetOptions;
  #net: Net | undefined;
  #loading: Promise<Net> | undefined;

  constructor(options: NetOptions) {
    for (const entry of options.dnsServers ?? []) {
      const parsed = parseDnsServer(entry);
      if ('error' in parsed) throw new RangeError(parsed.error);
    }
    this.#options = options;
    this.egressAllow = (options.egressAllow ?? []).map((c) => c.text);
  }

  #fetcher(): Promise<Net> {
    this.#loading ??= import('./fetch.js').then(({ EgressFetcher }) => (this.#net = new EgressFetcher(this.#options)));
    return this.#loading;
  }

  fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    return this.#net ? this.#net.fetch(request, trace) : this.#fetcher().then((net) => net.fetch(request, trace));
  }

  checkDestination(url: string, purpose: string, options?: { allowPlainHttp?: boolean }): Promise<void> {
    return this.#net ? this.#net.checkDestination(url, purpose, options) : this.#fetcher().then((net) => net.checkDestination(url, purpose, options));
  }

  resolveTxt(name: string, signal?: AbortSignal): Promise<string[]> {
    return this.#net ? this.#net.resolveTxt(name, signal) : this.#fetcher().then((net) => net.resolveTxt(name, signal));
  }

  close(): void {
    this.#net?.close();
  }
}
