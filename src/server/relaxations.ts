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
 */
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
      effect: `delegation registration is open: any client may register chains of any root, ${limits.registrationsPerClient} new chains per client per 24 h, holding at most ${limits.registryPerClient} per client and ${limits.registryPerRoot} per root at once, each expiring within ${limits.registrationMaxDays} days`,
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
  const shares: Array<[string, number, number, string]> = [
    ['SVC_REGISTRY_PER_CLIENT', limits.registryPerClient, DEFAULT_LIMITS.registryPerClient, 'each client may hold N registered delegation chains at once'],
    ['SVC_REGISTRY_PER_ROOT', limits.registryPerRoot, DEFAULT_LIMITS.registryPerRoot, 'chains of one root may hold N registrations at once'],
    ['SVC_REGISTRATION_MAX_DAYS', limits.registrationMaxDays, DEFAULT_LIMITS.registrationMaxDays, 'a delegation chain expiring up to N days ahead may be registered'],
  ];
  for (const [setting, value, fallback, effect] of shares) {
    if (value > fallback) relaxations.push({ setting, value: String(value), effect: `${effect.replace('N', String(value))} (default ${fallback})` });
  }
  if (input.dnsServers && input.dnsServers.length > 0) {
    relaxations.push({
      setting: 'SVC_DNS_SERVERS',
      value: input.dnsServers.join(','),
      effect: `DNS claims are decided by the TXT answers of ${input.dnsServers.join(', ')}, not the system's resolver`,
    });
  }
  return relaxations;
}

/** The start-up line of one relaxation, e.g. `svc: relaxation: egress allowed to 10.0.0.0/8 (SVC_EGRESS_ALLOW)`. */
export function relaxationLine(relaxation: Relaxation): string {
  return `svc: relaxation: ${relaxation.effect} (${relaxation.setting}${relaxation.value === null ? ' unset' : ''})`;
}
