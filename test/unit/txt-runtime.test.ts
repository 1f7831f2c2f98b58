/**
 * Net.resolveTxt against a real DNS server on loopback (test/support/dns-server.ts), and the
 * setting that points it there: NetOptions.dnsServers / SVC_DNS_SERVERS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/cli/cmdutil/environment.js';
import { parseDnsServer, parseDnsServers } from '../../src/net/index.js';
import { createRuntime, dnsServersFromEnv } from '../../src/runtime/node.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { configError, problemOf } from '../support/problems.js';
import { testRuntime } from '../support/runtime.js';

describe('parseDnsServers (SVC_DNS_SERVERS)', () => {
  it.each([
    ['192.0.2.53', '192.0.2.53'],
    ['192.0.2.53:5353', '192.0.2.53:5353'],
    ['2001:db8::53', '2001:db8::53'],
    ['[2001:DB8::53]:5353', '[2001:db8::53]:5353'],
    ['[::1]', '::1'],
  ])('%s → %s', (entry, server) => {
    expect(parseDnsServer(entry)).toEqual({ server });
  });

  it.each([
    ['dns.example.com', /not an IP address/],
    ['192.0.2.53:0', /port is outside 1–65535/],
    ['192.0.2.53:65536', /port is outside/],
    ['192.0.2.53:x', /port is outside/],
    ['[192.0.2.53]:53', /only an IPv6 address goes in brackets/],
    ['2001:db8::53:53:53:53:53:53', /not an IP address/],
    ['127.1', /not an IP address/],
  ])('refuses %s', (entry, reason) => {
    const parsed = parseDnsServer(entry);
    expect(parsed).toEqual({ error: expect.stringMatching(reason) });
  });

  it('a comma-separated list, blanks skipped; empty is the system resolver', () => {
    expect(parseDnsServers(' 192.0.2.1, [2001:db8::1]:53 ,,')).toEqual({ servers: ['192.0.2.1', '[2001:db8::1]:53'] });
    expect(parseDnsServers('')).toEqual({ servers: [] });
    expect(dnsServersFromEnv({})).toEqual([]);
    expect(dnsServersFromEnv({ SVC_DNS_SERVERS: '' })).toEqual([]);
  });

  it('a bad entry in SVC_DNS_SERVERS is a ConfigError naming the variable, for every command', () => {
    expect(configError(() => createRuntime({ SVC_DNS_SERVERS: '192.0.2.1,resolver.local' }))).toBe(
      'SVC_DNS_SERVERS: bad DNS server "resolver.local": not an IP address (write IPv6 with a port as [address]:port)',
    );
    expect(configError(() => dnsServersFromEnv({ SVC_DNS_SERVERS: '192.0.2.1:99999' }))).toMatch(
      /^SVC_DNS_SERVERS: bad DNS server "192\.0\.2\.1:99999": the port/,
    );
  });

  it('a bad entry handed to the fetcher directly is a RangeError', () => {
    expect(() => testRuntime(undefined, { dnsServers: ['nope'] })).toThrow(RangeError);
  });

  it('is documented in the environment table', () => {
    expect(ENVIRONMENT.find((v) => v.name === 'SVC_DNS_SERVERS')).toMatchObject({ scope: 'every command' });
  });
});

describe('Net.resolveTxt against a real DNS server', () => {
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns.close());

  const net = (limits = {}) => testRuntime(undefined, { dnsServers: [dns.address], limits }).net;

  it('gives each record, in order; a name without records of its own gives []', async () => {
    dns.set('_svc-claim.a.example', ['one', 'two words', '']);
    dns.setAddress('host.a.example', '192.0.2.1');
    expect(await net().resolveTxt('_svc-claim.a.example')).toEqual(['one', 'two words', '']);
    expect(await net().resolveTxt('_SVC-CLAIM.A.EXAMPLE.')).toEqual(['one', 'two words', '']);
    expect(await net().resolveTxt('host.a.example')).toEqual([]); // NODATA
    expect(await net().resolveTxt('missing.a.example')).toEqual([]); // NXDOMAIN
  });

  it('joins the character-strings of a long record (sent over TCP after a truncated UDP answer)', async () => {
    const long = 'x'.repeat(300) + 'y'.repeat(300);
    // 'é' is two bytes: the 255-byte split falls in the middle of one, joined back whole.
    const accented = 'a' + 'é'.repeat(200);
    dns.set('long.a.example', [long, accented]);
    expect(await net().resolveTxt('long.a.example')).toEqual([long, accented]);
  });

  it('asks the configured server, and only by the absolute name (no search domains)', async () => {
    const before = dns.queries.length;
    await net().resolveTxt('nothing.b.example');
    expect(dns.queries.slice(before)).toEqual(['TXT nothing.b.example']);
  });

  it('a server that fails or refuses is UPSTREAM_UNAVAILABLE naming the name', async () => {
    dns.set('fail.a.example', ['x']);
    try {
      dns.fail('servfail');
      expect(await problemOf(net().resolveTxt('fail.a.example'))).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        detail: 'The TXT lookup of fail.a.example failed: the DNS server failed to answer (ESERVFAIL).',
      });
      dns.fail('refused');
      expect((await problemOf(net().resolveTxt('fail.a.example'))).detail).toBe(
        'The TXT lookup of fail.a.example failed: the DNS server refused the query (EREFUSED).',
      );
    } finally {
      dns.fail(null);
    }
  });

  it('a server that never answers: UPSTREAM_UNAVAILABLE after two tries (2 × dnsMs)', async () => {
    try {
      dns.fail('drop');
      const started = Date.now();
      const problem = await problemOf(net({ dnsMs: 150 }).resolveTxt('fail.a.example'));
      expect(problem).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', detail: 'The TXT lookup of fail.a.example got no answer within 300 ms.' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      dns.fail(null);
    }
  });

  it('an aborted signal cancels the lookup (cancelledProblem)', async () => {
    const already = new AbortController();
    already.abort();
    expect((await problemOf(net().resolveTxt('_svc-claim.a.example', already.signal))).code).toBe('SERVICE_UNAVAILABLE');
    try {
      dns.fail('drop');
      const later = new AbortController();
      const pending = net().resolveTxt('fail.a.example', later.signal);
      setTimeout(() => later.abort(), 50);
      const started = Date.now();
      expect(await problemOf(pending)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', detail: 'The work was cancelled before an answer was produced.' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      dns.fail(null);
    }
  });

  it('SVC_DNS_SERVERS reaches the production Runtime', async () => {
    dns.set('_svc-claim.env.example', ['from the environment']);
    const runtime = createRuntime({ SVC_DNS_SERVERS: dns.address });
    expect(await runtime.net.resolveTxt('_svc-claim.env.example')).toEqual(['from the environment']);
  });
});
