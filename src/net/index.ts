/**
 * src/net: every outbound request of svc. `createNet` builds the fetcher a Runtime carries;
 * undici and node:tls load on the first fetch, node:dns's resolver on the first TXT lookup, so
 * commands that never fetch stay fast.
 */
import type { Net } from '../core/net.js';
import { EgressFetcher, type NetOptions } from './fetch.js';

export { DEFAULT_NET_LIMITS, EgressFetcher, type HostLookup, type NetLimits, type NetOptions, type ResolvedAddress } from './fetch.js';
export { parseDnsServer, parseDnsServers, TxtResolver, type TxtResolverOptions } from './dns.js';
export { checkAddress, classifyAddress, linkLocalOverreach, parseAllowList, parseCidr, parseIp, type Cidr, type ParsedIp } from './ip.js';

export function createNet(options: NetOptions): Net {
  return new EgressFetcher(options);
}
