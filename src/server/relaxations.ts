/**
 * Operator settings that weaken one of svc's defaults ("relaxations"): announced one line each
 * when the daemon starts and listed by GET /health, so that neither the operator nor a client
 * has to guess what the daemon was told to allow.
 *
 *   egress allowance       SVC_EGRESS_ALLOW / --egress-allow: a non-public range may be fetched
 *   extra trust anchors    NODE_EXTRA_CA_CERTS: TLS certificates of more CAs are accepted
 *   trusted proxies        SVC_TRUST_PROXY: X-Forwarded-For from them names the client
 *   open registry          SVC_DELEGATION_ROOTS unset: chains of any root may be registered
 *   raised budgets         SVC_RATE_LIMIT_PER_MIN (direct profile), SVC_REGISTRATIONS_PER_CLIENT,
 *                          SVC_REGISTRY_PER_CLIENT, SVC_REGISTRY_PER_ROOT and SVC_REGISTRATION_MAX_DAYS
 *                          above their defaults
 *   chosen DNS servers     SVC_DNS_SERVERS: their TXT answers decide DNS claims, not the system's resolver
 *   a guessable token      SVC_ALLOW_WEAK_ADMIN_TOKEN=1: an operator token svc would refuse is accepted
 *   larger bounds on work  SVC_CACHE_MAX_BYTES, SVC_WEBVH_MAX_ENTRIES, SVC_WEBVH_MAX_BYTES above their defaults
 *   larger shares          SVC_CLAIM_PENDING_PER_CLIENT/_PER_DID, SVC_SIGN_IN_PENDING_PER_CLIENT/_PER_DID
 *                          and SVC_GATEWAY_RATE_LIMIT_PER_MIN above their defaults
 *   open metrics           SVC_METRICS_LISTEN on an address other than loopback: GET /metrics without a token
 *   JSON-LD processing     SVC_JSONLD=on: RDF-canonicalised proofs are verified, terms read by pinned contexts
 */
import { DEFAULT_CACHE_MAX_BYTES } from '../core/resolve/cache.js';
import { DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES } from '../core/webvh/limits.js';
import { isLoopbackHost } from './gateway.js';
import { DEFAULT_LIMITS, type Profile, type ServerLimits } from './limits.js';

export interface Relaxation {
  /** The environment variable or flag. */
  setting: string;
  /** Its value; null when the relaxation is the setting being unset. */
  value: string | null;
  /** What it allows, in a few words. */
  effect: string;
}

export interface RelaxationInput {
  /** Allowed egress ranges (canonical CIDR text) with the setting that named each. */
  egress: ReadonlyArray<{ cidr: string; setting: string }>;
  /** NODE_EXTRA_CA_CERTS, when set. */
  extraCaCerts?: string | undefined;
  /** The trusted proxies (canonical CIDR text); empty: forwarded headers are ignored. */
  trustedProxies: readonly string[];
  limits: ServerLimits;
  profile: Profile;
  /** SVC_DNS_SERVERS (canonical entries); empty: the system's resolver. */
  dnsServers?: readonly string[];
  /** The Runtime's bounds on work and memory (SVC_CACHE_MAX_BYTES, SVC_WEBVH_MAX_ENTRIES, SVC_WEBVH_MAX_BYTES). */
  work?: { cacheMaxBytes?: number | undefined; webvhMaxEntries?: number | undefined; webvhMaxBytes?: number | undefined };
  /** Why SVC_ADMIN_TOKEN is guessable, when SVC_ALLOW_WEAK_ADMIN_TOKEN=1 accepted it anyway. */
  weakAdminToken?: string | null;
  /** SVC_METRICS_LISTEN: where GET /metrics is served without a token. */
  metricsListen?: { host: string; port: number };
  /** SVC_JSONLD=on: what the canonicaliser says of itself (RdfCanonicaliser.description). */
  jsonld?: string;
}

export function operatorRelaxations(input: RelaxationInput): Relaxation[] {
  const { limits } = input;
  const relaxations: Relaxation[] = input.egress.map(({ cidr, setting }) => ({ setting, value: cidr, effect: `egress allowed to ${cidr}` }));
  if (input.extraCaCerts) {
    relaxations.push({
      setting: 'NODE_EXTRA_CA_CERTS',
      value: input.extraCaCerts,
      effect: `TLS certificates issued by the CAs in ${input.extraCaCerts} are trusted besides Node's CA store`,
    });
  }
  if (input.trustedProxies.length > 0) {
    relaxations.push({
      setting: 'SVC_TRUST_PROXY',
      value: input.trustedProxies.join(','),
      effect: `X-Forwarded-For from ${input.trustedProxies.join(', ')} names the client`,
    });
  }
  if (limits.delegationRoots === null) {
    relaxations.push({
      setting: 'SVC_DELEGATION_ROOTS',
      value: null,
      effect: `delegation registration is open: any client may register chains of any root, ${limits.registrationsPerClient} new chains per client per 24 h, up to ${limits.registryPerClient} held per client and ${limits.registryPerRoot} per root, each expiring within ${limits.registrationMaxDays} days`,
    });
  }
  if (input.profile === 'direct' && limits.directPerMinute > DEFAULT_LIMITS.directPerMinute) {
    relaxations.push({
      setting: 'SVC_RATE_LIMIT_PER_MIN',
      value: String(limits.directPerMinute),
      effect: `each client may make ${limits.directPerMinute} requests per minute (default ${DEFAULT_LIMITS.directPerMinute})`,
    });
  }
  if (limits.registrationsPerClient > DEFAULT_LIMITS.registrationsPerClient) {
    relaxations.push({
      setting: 'SVC_REGISTRATIONS_PER_CLIENT',
      value: String(limits.registrationsPerClient),
      effect: `each client may register ${limits.registrationsPerClient} new delegation chains per 24 h (default ${DEFAULT_LIMITS.registrationsPerClient})`,
    });
  }
  // Bounds that keep one client (or one hostile host) from taking what others share: raised above
  // the default, each lets one take more.
  const bytes = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
  const raised: Array<[setting: string, value: number | undefined, normal: number, effect: (v: number) => string]> = [
    [
      'SVC_CLAIM_PENDING_PER_CLIENT',
      limits.claimChallengesPerClient,
      DEFAULT_LIMITS.claimChallengesPerClient,
      (v) => `${v} pending claim challenges per client`,
    ],
    ['SVC_CLAIM_PENDING_PER_DID', limits.claimChallengesPerDid, DEFAULT_LIMITS.claimChallengesPerDid, (v) => `${v} pending claim challenges per DID`],
    [
      'SVC_SIGN_IN_PENDING_PER_CLIENT',
      limits.signInChallengesPerClient,
      DEFAULT_LIMITS.signInChallengesPerClient,
      (v) => `${v} pending sign-in challenges per client`,
    ],
    ['SVC_SIGN_IN_PENDING_PER_DID', limits.signInChallengesPerDid, DEFAULT_LIMITS.signInChallengesPerDid, (v) => `${v} pending sign-in challenges per DID`],
    ['SVC_GATEWAY_RATE_LIMIT_PER_MIN', limits.gatewayPerMinute, DEFAULT_LIMITS.gatewayPerMinute, (v) => `${v} cookie-gateway requests per client per minute`],
    ['SVC_REGISTRY_PER_CLIENT', limits.registryPerClient, DEFAULT_LIMITS.registryPerClient, (v) => `each client may hold ${v} registered delegation chains`],
    ['SVC_REGISTRY_PER_ROOT', limits.registryPerRoot, DEFAULT_LIMITS.registryPerRoot, (v) => `chains of one root may hold ${v} registrations`],
    [
      'SVC_REGISTRATION_MAX_DAYS',
      limits.registrationMaxDays,
      DEFAULT_LIMITS.registrationMaxDays,
      (v) => `a delegation chain expiring up to ${v} days ahead may be registered`,
    ],
    ['SVC_CACHE_MAX_BYTES', input.work?.cacheMaxBytes, DEFAULT_CACHE_MAX_BYTES, (v) => `the resolution cache may hold ${bytes(v)}`],
    ['SVC_WEBVH_MAX_ENTRIES', input.work?.webvhMaxEntries, DEFAULT_WEBVH_MAX_ENTRIES, (v) => `a did:webvh log may have ${v} entries`],
    ['SVC_WEBVH_MAX_BYTES', input.work?.webvhMaxBytes, DEFAULT_WEBVH_MAX_BYTES, (v) => `a did:webvh log may be ${bytes(v)}`],
  ];
  for (const [setting, value, normal, effect] of raised) {
    if (value !== undefined && value > normal) relaxations.push({ setting, value: String(value), effect: `${effect(value)} (default ${normal})` });
  }
  if (input.dnsServers && input.dnsServers.length > 0) {
    relaxations.push({
      setting: 'SVC_DNS_SERVERS',
      value: input.dnsServers.join(','),
      effect: `DNS claims are decided by the TXT answers of ${input.dnsServers.join(', ')}, not the system's resolver`,
    });
  }
  if (input.weakAdminToken) {
    relaxations.push({
      setting: 'SVC_ALLOW_WEAK_ADMIN_TOKEN',
      value: '1',
      effect: `the operator token is accepted although it is guessable (${input.weakAdminToken})`,
    });
  }
  const listen = input.metricsListen;
  if (listen && !isLoopbackHost(listen.host)) {
    const where = `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
    relaxations.push({
      setting: 'SVC_METRICS_LISTEN',
      value: where,
      effect: `GET /metrics is served without a token on ${where}, beyond this machine`,
    });
  }
  if (input.jsonld) {
    relaxations.push({
      setting: 'SVC_JSONLD',
      value: 'on',
      effect: `eddsa-rdfc-2022, ecdsa-rdfc-2019 and Ed25519Signature2020 proofs are verified through JSON-LD processing, ${input.jsonld}`,
    });
  }
  return relaxations;
}

/** The start-up line of one relaxation, e.g. `svc: relaxation: egress allowed to 10.0.0.0/8 (SVC_EGRESS_ALLOW)`. */
export function relaxationLine(relaxation: Relaxation): string {
  return `svc: relaxation: ${relaxation.effect} (${relaxation.setting}${relaxation.value === null ? ' unset' : ''})`;
}
