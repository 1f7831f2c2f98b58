/**
 * Operator settings that could weaken a default: egress allowances that reach
 * link-local space without naming it, SVC_TRUST_PROXY, SVC_LOG_LEVEL, the registration quota's
 * token buckets, and the relaxations the daemon announces and lists in /health.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trustedProxies } from '../../src/cli/cmd/serve/action.js';
import { familyShares, linkLocalOverreach, parseCidr, type Cidr } from '../../src/net/ip.js';
import { createRuntime, egressAllowance, egressAllowanceEntries, logLevelFromEnv } from '../../src/runtime/node.js';
import { DEFAULT_LIMITS, limitsFromEnv } from '../../src/server/limits.js';
import { clientOf, TokenBuckets } from '../../src/server/rate-limit.js';
import { unusableAdminToken, weakAdminToken } from '../../src/server/operator.js';
import { configError } from '../support/problems.js';
import { operatorRelaxations, relaxationLine } from '../../src/server/relaxations.js';

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

describe('linkLocalOverreach: an allowance that reaches link-local space without naming it', () => {
  it.each([
    ['0.0.0.0/0', '169.254.0.0/16'],
    ['128.0.0.0/1', '169.254.0.0/16'],
    ['169.0.0.0/8', '169.254.0.0/16'],
    ['169.254.0.0/15', '169.254.0.0/16'],
    ['::/0', 'fe80::/10'],
    ['fe80::/9', 'fe80::/10'],
    ['::ffff:0:0/96', '::ffff:169.254.0.0/112 (IPv4-mapped'],
    ['::ffff:168.0.0.0/102', '::ffff:169.254.0.0/112'],
    ['::/96', '::169.254.0.0/112 (IPv4-compatible'],
    ['64:ff9b::/96', '64:ff9b::169.254.0.0/112 (NAT64'],
    ['2002::/16', '2002:a9fe::/32 (6to4'],
    ['2000::/3', '2002:a9fe::/32'],
    ['2001::/32', 'Teredo'],
    ['2001:0:4136:e378::/64', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:5600::/104', 'Teredo'],
  ])('%s → refused (reaches %s)', (text, reached) => {
    expect(linkLocalOverreach(cidr(text))).toContain(reached);
  });

  it.each([
    '169.254.169.254/32',
    '169.254.0.0/16',
    '169.254.169.0/24',
    '10.0.0.0/8',
    '127.0.0.0/8',
    '172.16.0.0/12',
    '192.168.0.0/16',
    '100.64.0.0/10',
    '168.0.0.0/8',
    '170.0.0.0/7',
    '::1/128',
    'fc00::/7',
    'fe80::/10',
    'fe80::1/128',
    '::ffff:169.254.169.254/128',
    '::ffff:127.0.0.0/104',
    '::a9fe:a9fe/128',
    '64:ff9b::a9fe:a9fe/128',
    '2002:a9fe:a9fe::/48',
    '2001:db8::/32',
    '2001::/112',
    // Teredo with the client 169.254.169.254 (bit-inverted in the last four bytes): named exactly.
    '2001:0:4136:e378:8000:63bf:5601:5601/128',
  ])('%s → accepted', (text) => {
    expect(linkLocalOverreach(cidr(text))).toBeNull();
  });
});

describe('egressAllowance (SVC_EGRESS_ALLOW, --egress-allow)', () => {
  it('refuses 0.0.0.0/0 and 169.0.0.0/8 with a one-line reason naming the setting', () => {
    const wide = configError(() => egressAllowance({ SVC_EGRESS_ALLOW: '10.0.0.0/8, 0.0.0.0/0' }));
    expect(wide).toBe(
      'SVC_EGRESS_ALLOW: 0.0.0.0/0 also admits 169.254.0.0/16 (link-local, where cloud metadata services answer) without naming it; allow link-local addresses only by listing them (e.g. 169.254.169.254/32), or narrow the range',
    );
    expect(wide).not.toContain('\n');
    expect(configError(() => egressAllowance({}, ['169.0.0.0/8']))).toMatch(/^--egress-allow: 169\.0\.0\.0\/8 also admits 169\.254\.0\.0\/16/);
    expect(configError(() => egressAllowance({ SVC_EGRESS_ALLOW: '::ffff:0:0/96' }))).toMatch(
      /^SVC_EGRESS_ALLOW: ::ffff:0:0\/96 also admits ::ffff:169\.254\.0\.0\/112/,
    );
    // createRuntime (every command) applies the same rule.
    expect(configError(() => createRuntime({ SVC_EGRESS_ALLOW: '::/0' }))).toMatch(/^SVC_EGRESS_ALLOW: ::\/0 also admits fe80::\/10/);
  });

  it('accepts a link-local range named exactly, and says which setting named each range', () => {
    expect(
      egressAllowanceEntries({ SVC_EGRESS_ALLOW: '169.254.169.254/32 127.0.0.0/8' }, ['127.0.0.1', '10.0.0.0/8']).map((e) => [e.cidr.text, e.setting]),
    ).toEqual([
      ['169.254.169.254/32', 'SVC_EGRESS_ALLOW'],
      ['127.0.0.0/8', 'SVC_EGRESS_ALLOW'],
      ['127.0.0.1/32', '--egress-allow'],
      ['10.0.0.0/8', '--egress-allow'],
    ]);
    expect(createRuntime({ SVC_EGRESS_ALLOW: '169.254.0.0/16' }).net.egressAllow).toEqual(['169.254.0.0/16']);
  });
});

describe('SVC_LOG_LEVEL', () => {
  it('takes debug, info, warn, error; unset or empty is silent', () => {
    for (const level of ['debug', 'info', 'warn', 'error']) expect(logLevelFromEnv({ SVC_LOG_LEVEL: level })).toBe(level);
    expect(logLevelFromEnv({})).toBeNull();
    expect(logLevelFromEnv({ SVC_LOG_LEVEL: '' })).toBeNull();
  });

  it('anything else is a ConfigError listing the accepted values, for every command (createRuntime)', () => {
    const expected = 'SVC_LOG_LEVEL must be one of debug, info, warn, error (or empty for silent), not "verbose"';
    expect(configError(() => logLevelFromEnv({ SVC_LOG_LEVEL: 'verbose' }))).toBe(expected);
    expect(configError(() => createRuntime({ SVC_LOG_LEVEL: 'verbose' }))).toBe(expected);
    expect(configError(() => createRuntime({ SVC_LOG_LEVEL: 'INFO' }))).toContain('not "INFO"');
  });
});

describe('SVC_TRUST_PROXY', () => {
  it('lists proxy addresses and ranges (canonical, deduplicated); unset, empty and false trust nobody', () => {
    expect(trustedProxies({ SVC_TRUST_PROXY: '127.0.0.1, 10.1.2.3/24,::1,127.0.0.1/32' })).toEqual(['127.0.0.1/32', '10.1.2.0/24', '::1/128']);
    expect(trustedProxies({})).toEqual([]);
    expect(trustedProxies({ SVC_TRUST_PROXY: '' })).toEqual([]);
    expect(trustedProxies({ SVC_TRUST_PROXY: 'false' })).toEqual([]);
  });

  it.each([
    ['true', /^SVC_TRUST_PROXY=true would let any client that connects directly forge X-Forwarded-For; list the addresses of your proxies/],
    ['TRUE', /^SVC_TRUST_PROXY=TRUE would let any client/],
    ['1', /^SVC_TRUST_PROXY=1 would let any client/],
    ['2', /^SVC_TRUST_PROXY=2 would let any client/],
    ['0.0.0.0/0', /^SVC_TRUST_PROXY: 0\.0\.0\.0\/0 trusts every address, like "true"; list the addresses/],
    ['::/0', /trusts every address/],
    ['loopback', /^SVC_TRUST_PROXY: loopback: not an IPv4 or IPv6 address; list the addresses/],
    ['10.0.0.1,proxy.example', /^SVC_TRUST_PROXY: proxy\.example: not an IPv4/],
  ])('%s → refused with a one-line reason that says to list the proxies', (value, reason) => {
    const message = configError(() => trustedProxies({ SVC_TRUST_PROXY: value }));
    expect(message).toMatch(reason);
    expect(message).toContain('IPs or CIDRs, comma-separated');
    expect(message).not.toContain('\n');
  });
});

describe('familyShares: how much of IPv4 and IPv6 a set of ranges covers', () => {
  const shares = (...texts: string[]) => familyShares(texts.map(cidr));
  it('merges overlaps and counts IPv4-mapped IPv6 as IPv4', () => {
    expect(shares('10.0.0.0/8')).toEqual({ ipv4: 1 / 256, ipv6: 0 });
    expect(shares('10.0.0.0/8', '10.1.0.0/16', '10.0.0.0/9')).toEqual({ ipv4: 1 / 256, ipv6: 0 });
    expect(shares('0.0.0.0/1', '128.0.0.0/1').ipv4).toBe(1);
    expect(shares('::ffff:0:0/96').ipv4).toBe(1);
    expect(shares('::ffff:10.0.0.0/104').ipv4).toBe(1 / 256);
    expect(shares('::/64').ipv4).toBe(1); // contains the mapped block
    expect(shares('2000::/3').ipv6).toBe(1 / 8);
    expect(shares('127.0.0.1', '::1')).toEqual({ ipv4: 1 / 2 ** 32, ipv6: 1 / 2 ** 128 });
  });
});

describe('SVC_TRUST_PROXY: ranges that cover 1/16 of a family', () => {
  it('a realistic set is accepted; a /4 or pieces adding up to it are refused', () => {
    expect(trustedProxies({ SVC_TRUST_PROXY: '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7' })).toHaveLength(4);
    for (const value of ['0.0.0.0/4', '0.0.0.0/5,8.0.0.0/5', '2000::/3', '::ffff:0:0/96']) {
      expect(configError(() => trustedProxies({ SVC_TRUST_PROXY: value }))).toMatch(
        /^SVC_TRUST_PROXY: together the ranges cover .* \(at most 1\/16 may be trusted\)/,
      );
    }
    // Just under the bound: 1/16 minus one /8.
    expect(trustedProxies({ SVC_TRUST_PROXY: '0.0.0.0/5,8.0.0.0/6,12.0.0.0/7,14.0.0.0/8' })).toHaveLength(4);
  });
});

describe('clientOf: only an address names a client', () => {
  const request = (ip: string | undefined, ips?: string[], remote = '127.0.0.1') => ({ ip, ips, socket: { remoteAddress: remote } });
  it('an address forwarded by a trusted proxy is the client; anything else counts as the hop that handed it over', () => {
    expect(clientOf(request('203.0.113.5', ['127.0.0.1', '203.0.113.5']))).toBe('203.0.113.5');
    expect(clientOf(request('junk', ['127.0.0.1', 'junk']))).toBe('127.0.0.1');
    expect(clientOf(request('junk', ['127.0.0.1', '10.0.0.2', 'junk']))).toBe('10.0.0.2');
    expect(clientOf(request('2001:db8:1:2:3:4:5:6', ['127.0.0.1', '2001:db8:1:2:3:4:5:6']))).toBe('2001:db8:1:2::/64');
    expect(clientOf(request(undefined, undefined, '::ffff:127.0.0.9'))).toBe('127.0.0.9');
  });
});

describe('operator tokens', () => {
  it('unusable: a space, a control character, non-ASCII; usable: every printable ASCII character', () => {
    expect(unusableAdminToken('abc def')).toMatch(/holds a space/);
    expect(unusableAdminToken('abc\u0000def')).toMatch(/holds a control character/);
    expect(unusableAdminToken('abc\u007fdef')).toMatch(/holds a control character/);
    expect(unusableAdminToken('abcdé')).toMatch(/holds a character beyond ASCII/);
    expect(unusableAdminToken(Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join(''))).toBeNull();
    expect(unusableAdminToken(undefined)).toBeNull();
  });

  it('generated tokens (hex, base64url, any length from 24) are never called weak', () => {
    fc.assert(
      fc.property(fc.integer({ min: 12, max: 64 }), fc.boolean(), (bytes, hex) => {
        const token = randomBytes(bytes)
          .toString(hex ? 'hex' : 'base64url')
          .slice(0, Math.max(24, bytes));
        return weakAdminToken(token) === null;
      }),
      { numRuns: 2000 },
    );
  });

  it('typed tokens are', () => {
    expect(weakAdminToken('z'.repeat(30))).toBe('it is one character repeated');
    expect(weakAdminToken('ab'.repeat(12))).toBe('it is a pattern of 2 characters repeated');
    expect(weakAdminToken('0123456789012345678901234567')).toMatch(/pattern of 10|consecutive/);
    expect(weakAdminToken('zyxwvutsrqponmlkjihgfedcba')).toBe('it is mostly a run of consecutive characters');
    expect(weakAdminToken('aabbaabbaabbccaabbaabbaabb')).toBe('it uses only 3 different characters');
    expect(weakAdminToken('changeme_changeme_2026!!')).toBe('it is made of common words, digits and punctuation');
    expect(weakAdminToken('SuperSecretAdminToken123')).toBe('it is made of common words, digits and punctuation');
    expect(weakAdminToken('gateway-test-operator-token-0123456789')).toBeNull();
  });
});

describe('TokenBuckets with a period other than a minute', () => {
  it('a day-long bucket holds its size and refills continuously over the day', () => {
    let now = 0;
    const buckets = new TokenBuckets(2, () => now, 10, 24 * 3600 * 1000);
    expect(buckets.take('a')).toEqual({ allowed: true });
    expect(buckets.take('a')).toEqual({ allowed: true });
    // Half a day per token: the wait is 12 h.
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 12 * 3600 });
    expect(buckets.take('b')).toEqual({ allowed: true });
    now += 6 * 3600 * 1000;
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 6 * 3600 });
    now += 6 * 3600 * 1000;
    expect(buckets.take('a')).toEqual({ allowed: true });
  });

  it('the default period is still a minute', () => {
    let now = 0;
    const buckets = new TokenBuckets(60, () => now);
    for (let i = 0; i < 60; i++) expect(buckets.take('c').allowed).toBe(true);
    expect(buckets.take('c')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 1000;
    expect(buckets.take('c').allowed).toBe(true);
  });
});

describe('SVC_REGISTRATIONS_PER_CLIENT', () => {
  it('defaults to 100 and takes 1..10000', () => {
    expect(limitsFromEnv({}).registrationsPerClient).toBe(100);
    expect(limitsFromEnv({ SVC_REGISTRATIONS_PER_CLIENT: '5' }).registrationsPerClient).toBe(5);
    expect(configError(() => limitsFromEnv({ SVC_REGISTRATIONS_PER_CLIENT: '0' }))).toBe(
      'SVC_REGISTRATIONS_PER_CLIENT must be a whole number between 1 and 10000',
    );
  });
});

describe('the registry shares and lifetime (SVC_REGISTRY_PER_CLIENT, SVC_REGISTRY_PER_ROOT, SVC_REGISTRATION_MAX_DAYS)', () => {
  it('default to 100, 100 and 366 days; a bad value is a configuration error', () => {
    expect(limitsFromEnv({})).toMatchObject({ registryPerClient: 100, registryPerRoot: 100, registrationMaxDays: 366 });
    expect(limitsFromEnv({ SVC_REGISTRY_PER_CLIENT: '5', SVC_REGISTRY_PER_ROOT: '10000', SVC_REGISTRATION_MAX_DAYS: '30' })).toMatchObject({
      registryPerClient: 5,
      registryPerRoot: 10_000,
      registrationMaxDays: 30,
    });
    expect(configError(() => limitsFromEnv({ SVC_REGISTRY_PER_CLIENT: '0' }))).toBe('SVC_REGISTRY_PER_CLIENT must be a whole number between 1 and 10000');
    expect(configError(() => limitsFromEnv({ SVC_REGISTRY_PER_ROOT: '10001' }))).toBe('SVC_REGISTRY_PER_ROOT must be a whole number between 1 and 10000');
    expect(configError(() => limitsFromEnv({ SVC_REGISTRATION_MAX_DAYS: '1.5' }))).toBe('SVC_REGISTRATION_MAX_DAYS must be a whole number between 1 and 3660');
    expect(configError(() => limitsFromEnv({ SVC_REGISTRATION_MAX_DAYS: '36500' }))).toBe(
      'SVC_REGISTRATION_MAX_DAYS must be a whole number between 1 and 3660',
    );
  });
});

describe('operatorRelaxations', () => {
  const base = { egress: [], trustedProxies: [], limits: { ...DEFAULT_LIMITS, delegationRoots: ['did:example:root'] }, profile: 'direct' as const };

  it('none for the defaults with the registry restricted to listed roots', () => {
    expect(operatorRelaxations(base)).toEqual([]);
    expect(operatorRelaxations({ ...base, dnsServers: [] })).toEqual([]);
  });

  it('lists each egress range, extra trust anchors, trusted proxies, the open registry and raised budgets', () => {
    const relaxations = operatorRelaxations({
      egress: [
        { cidr: '169.254.169.254/32', setting: 'SVC_EGRESS_ALLOW' },
        { cidr: '10.0.0.0/8', setting: '--egress-allow' },
      ],
      extraCaCerts: '/etc/svc/ca.pem',
      trustedProxies: ['127.0.0.1/32', '10.1.0.0/24'],
      limits: { ...DEFAULT_LIMITS, directPerMinute: 1000, registrationsPerClient: 500 },
      profile: 'direct',
      dnsServers: ['192.0.2.53', '[2001:db8::53]:5353'],
    });
    expect(relaxations).toEqual([
      { setting: 'SVC_EGRESS_ALLOW', value: '169.254.169.254/32', effect: 'egress allowed to 169.254.169.254/32' },
      { setting: '--egress-allow', value: '10.0.0.0/8', effect: 'egress allowed to 10.0.0.0/8' },
      {
        setting: 'NODE_EXTRA_CA_CERTS',
        value: '/etc/svc/ca.pem',
        effect: "TLS certificates issued by the CAs in /etc/svc/ca.pem are trusted besides Node's CA store",
      },
      { setting: 'SVC_TRUST_PROXY', value: '127.0.0.1/32,10.1.0.0/24', effect: 'X-Forwarded-For from 127.0.0.1/32, 10.1.0.0/24 names the client' },
      {
        setting: 'SVC_DELEGATION_ROOTS',
        value: null,
        effect:
          'delegation registration is open: any client may register chains of any root, 500 new chains per client per 24 h, up to 100 held per client and 100 per root, each expiring within 366 days',
      },
      { setting: 'SVC_RATE_LIMIT_PER_MIN', value: '1000', effect: 'each client may make 1000 requests per minute (default 120)' },
      { setting: 'SVC_REGISTRATIONS_PER_CLIENT', value: '500', effect: 'each client may register 500 new delegation chains per 24 h (default 100)' },
      {
        setting: 'SVC_DNS_SERVERS',
        value: '192.0.2.53,[2001:db8::53]:5353',
        effect: "DNS claims are decided by the TXT answers of 192.0.2.53, [2001:db8::53]:5353, not the system's resolver",
      },
    ]);
    expect(relaxations.map(relaxationLine).slice(0, 1)).toEqual(['svc: relaxation: egress allowed to 169.254.169.254/32 (SVC_EGRESS_ALLOW)']);
    expect(relaxationLine(relaxations[4]!)).toBe(
      'svc: relaxation: delegation registration is open: any client may register chains of any root, 500 new chains per client per 24 h, up to 100 held per client and 100 per root, each expiring within 366 days (SVC_DELEGATION_ROOTS unset)',
    );
  });

  it('raised registry shares and a longer registration lifetime are relaxations; lowered ones are not', () => {
    const raised = operatorRelaxations({ ...base, limits: { ...base.limits, registryPerClient: 1000, registryPerRoot: 500, registrationMaxDays: 3650 } });
    expect(raised).toEqual([
      { setting: 'SVC_REGISTRY_PER_CLIENT', value: '1000', effect: 'each client may hold 1000 registered delegation chains (default 100)' },
      { setting: 'SVC_REGISTRY_PER_ROOT', value: '500', effect: 'chains of one root may hold 500 registrations (default 100)' },
      { setting: 'SVC_REGISTRATION_MAX_DAYS', value: '3650', effect: 'a delegation chain expiring up to 3650 days ahead may be registered (default 366)' },
    ]);
    expect(operatorRelaxations({ ...base, limits: { ...base.limits, registryPerClient: 10, registryPerRoot: 10, registrationMaxDays: 30 } })).toEqual([]);
  });

  it('a lowered budget is no relaxation; the direct rate limit does not apply to the public profile', () => {
    expect(operatorRelaxations({ ...base, limits: { ...base.limits, directPerMinute: 10, registrationsPerClient: 5 } })).toEqual([]);
    expect(operatorRelaxations({ ...base, limits: { ...base.limits, directPerMinute: 1000 }, profile: 'public' })).toEqual([]);
  });
});
