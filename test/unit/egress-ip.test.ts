/** Egress policy address classification: strict parsing, CIDRs, blocked ranges, allowances. */
import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkAddress, cidrContains, classifyAddress, ipFromBytes, parseAllowList, parseCidr, parseIp, type Cidr, type ParsedIp } from '../../src/net/ip.js';

function ip(text: string): ParsedIp {
  const parsed = parseIp(text);
  if (parsed === null) throw new Error(`test address ${text} does not parse`);
  return parsed;
}

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (typeof parsed === 'string') throw new Error(`test CIDR ${parsed}`);
  return parsed;
}

function allow(...texts: string[]): Cidr[] {
  return texts.map(cidr);
}

/** Deterministic 32-bit values (xorshift32), so failures reproduce. */
function* random32(count: number, seed = 0x2545f491): Generator<number> {
  let s = seed >>> 0;
  for (let n = 0; n < count; n++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    yield s;
  }
}

const v4Text = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');

type Expected = 'public' | [range: string, reason: string];

function expectClass(address: string, expected: Expected): void {
  const result = classifyAddress(ip(address));
  if (expected === 'public') expect(result, address).toEqual({ kind: 'public' });
  else expect(result, address).toEqual({ kind: 'blocked', range: expected[0], reason: expected[1] });
}

const RESERVED6 = 'reserved (outside 2000::/3 global unicast)';
const ONES = 'ffff:ffff:ffff:ffff:ffff:ffff'; // six all-ones groups, to build "last address" texts

describe('parseIp: IPv4', () => {
  it.each([
    ['0.0.0.0', [0, 0, 0, 0]],
    ['1.2.3.4', [1, 2, 3, 4]],
    ['127.0.0.1', [127, 0, 0, 1]],
    ['255.255.255.255', [255, 255, 255, 255]],
    ['10.200.30.0', [10, 200, 30, 0]],
  ])('%s', (text, bytes) => {
    expect(parseIp(text)).toEqual({ family: 4, bytes: Uint8Array.from(bytes), text });
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.256',
    '1.2.3.1000',
    '010.0.0.1', // leading zero: octal to inet_aton
    '1.2.3.04',
    '00.1.2.3',
    '127.1', // shorthand
    '2130706433', // single number
    '0x7f.0.0.1',
    '0x7f000001',
    '1..2.3',
    '1.2.3.4.',
    '.1.2.3.4',
    '+1.2.3.4',
    '1.2.3.-4',
    '1.2.3.4 ',
    ' 1.2.3.4',
    '1.2.3.4\n',
    '１.2.3.4', // full-width digit
    '1.2.3.4/32',
    '[1.2.3.4]', // brackets are for IPv6 only
    'localhost',
  ])('rejects %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('parseIp: IPv6', () => {
  it.each([
    ['::', '::'],
    ['::1', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', '::1'],
    ['2001:DB8::0:1', '2001:db8::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // equal runs: the first is compressed
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // a single zero group is not compressed
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'], // the longest run is compressed
    ['1:0:0:0:0:0:0:0', '1::'],
    ['1::', '1::'],
    ['::8', '::8'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'], // `::` standing for a single group
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['fe80:0000:0000:0000:abcd:EF01:0000:0001', 'fe80::abcd:ef01:0:1'],
    ['[::1]', '::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['::FFFF:7F00:1', '::ffff:7f00:1'],
    ['::127.0.0.1', '::7f00:1'],
    ['::0.0.0.0', '::'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    ['64:ff9b::10.0.0.1', '64:ff9b::a00:1'],
    ['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'],
  ])('%s → %s', (text, canonical) => {
    const parsed = parseIp(text);
    expect(parsed?.family).toBe(6);
    expect(parsed?.text).toBe(canonical);
    expect(parsed?.bytes).toHaveLength(16);
  });

  it('fills bytes in network order', () => {
    expect(parseIp('::ffff:127.0.0.1')?.bytes).toEqual(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]));
    expect(parseIp('2001:db8:102:304:506:708:90a:b0c')?.bytes).toEqual(Uint8Array.from([0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
  });

  it.each([
    '::ffff:1.2.3',
    '::ffff:1.2.3.4.5',
    '::ffff:256.1.1.1',
    '::ffff:01.2.3.4', // leading zero in the embedded IPv4 too
    '::1.2.3.4:5', // the dotted part must be last
    '1.2.3.4::',
    '1.2.3.4::1',
    '1:2:3:4:5:6:7:1.2.3.4', // 9 groups with the IPv4 tail
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1:2:3:4::5:6:7:8', // `::` must stand for at least one group
    ':::',
    '::::',
    '1::2::3',
    '::1::',
    '1:::2',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:',
    ':1::',
    '12345::',
    'g::1',
    '::-1',
    '::+1',
    '::0x1',
    'fe80::1%eth0', // zone ids
    'fe80::1%1',
    '[fe80::1%eth0]',
    '[fe80::1%25eth0]',
    '[::1',
    '::1]',
    '[[::1]]',
    '[]',
    '[::1]:443',
    ' ::1',
    '::1 ',
    '',
  ])('rejects %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });

  it('agrees with node:net isIP on every accepted unbracketed form', () => {
    for (const text of ['1.2.3.4', '::', '::ffff:127.0.0.1', '1:2:3:4:5:6:7::', '2001:DB8::0:1']) {
      expect(isIP(text), text).toBe(parseIp(text)?.family);
    }
  });

  it('formats like the WHATWG URL host serializer (RFC 5952) on zero-heavy addresses', () => {
    const values = random32(4000, 0x1234567);
    for (let n = 0; n < 500; n++) {
      const groups: string[] = [];
      for (let g = 0; g < 8; g++) {
        const r = values.next().value ?? 0;
        // Mostly zeros, so runs of every length and position show up.
        groups.push(r % 3 === 0 ? (r >>> 16).toString(16).toUpperCase() : '0');
      }
      const text = groups.join(':');
      const expected = new URL(`http://[${text}]/`).hostname.slice(1, -1);
      expect(parseIp(text)?.text, text).toBe(expected);
      // And the canonical text parses back to the same bytes.
      expect(parseIp(expected)?.bytes, text).toEqual(parseIp(text)?.bytes);
    }
  });
});

describe('ipFromBytes', () => {
  it('builds either family and copies the bytes', () => {
    const source = Uint8Array.from([192, 0, 2, 1]);
    const built = ipFromBytes(source);
    source[0] = 10;
    expect(built).toEqual({ family: 4, bytes: Uint8Array.from([192, 0, 2, 1]), text: '192.0.2.1' });
    expect(ipFromBytes(new Uint8Array(16)).text).toBe('::');
  });

  it('rejects other lengths', () => {
    expect(() => ipFromBytes(new Uint8Array(5))).toThrow(RangeError);
  });
});

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', 4, 8, '10.0.0.0/8', [10, 0, 0, 0]],
    ['10.1.2.3/8', 4, 8, '10.0.0.0/8', [10, 0, 0, 0]], // host bits accepted and zeroed
    ['192.168.1.77/27', 4, 27, '192.168.1.64/27', [192, 168, 1, 64]],
    ['1.2.3.5/31', 4, 31, '1.2.3.4/31', [1, 2, 3, 4]],
    ['127.0.0.1', 4, 32, '127.0.0.1/32', [127, 0, 0, 1]], // bare address
    ['255.255.255.255/32', 4, 32, '255.255.255.255/32', [255, 255, 255, 255]],
    ['8.8.8.8/0', 4, 0, '0.0.0.0/0', [0, 0, 0, 0]],
  ])('%s', (text, family, prefix, canonical, bytes) => {
    expect(parseCidr(text)).toEqual({ family, prefix, text: canonical, bytes: Uint8Array.from(bytes) });
  });

  it.each([
    ['::1', 128, '::1/128'],
    ['::/0', 0, '::/0'],
    ['2001:db8::1/32', 32, '2001:db8::/32'],
    ['FE80::1/10', 10, 'fe80::/10'],
    ['fe80::1/9', 9, 'fe80::/9'],
    ['ffff::/7', 7, 'fe00::/7'],
    ['::ffff:127.0.0.1/104', 104, '::ffff:7f00:0/104'],
    ['::ffff:0:0/96', 96, '::ffff:0:0/96'],
    ['[::1]/128', 128, '::1/128'],
    ['2001:db8::ff/121', 121, '2001:db8::80/121'],
  ])('%s', (text, prefix, canonical) => {
    const parsed = parseCidr(text);
    expect(parsed).toMatchObject({ family: 6, prefix, text: canonical });
  });

  it.each([
    ['10.0.0.0/33', '10.0.0.0/33: prefix must be 0..32'],
    ['::/129', '::/129: prefix must be 0..128'],
    ['10.0.0.0/', '10.0.0.0/: prefix must be 0..32'],
    ['10.0.0.0/08', '10.0.0.0/08: prefix must be 0..32'],
    ['10.0.0.0/-1', '10.0.0.0/-1: prefix must be 0..32'],
    ['10.0.0.0/+8', '10.0.0.0/+8: prefix must be 0..32'],
    ['10.0.0.0/ 8', '10.0.0.0/ 8: prefix must be 0..32'],
    ['10.0.0.0/8.0', '10.0.0.0/8.0: prefix must be 0..32'],
    ['10.0.0.0/1000', '10.0.0.0/1000: prefix must be 0..32'],
    ['10.0.0.0/8/9', '10.0.0.0/8/9: more than one "/"'],
    ['10.0.0/8', '10.0.0/8: not an IPv4 or IPv6 address'],
    ['/8', '/8: not an IPv4 or IPv6 address'],
    ['example.com/24', 'example.com/24: not an IPv4 or IPv6 address'],
    ['fe80::1%eth0/64', 'fe80::1%eth0/64: zone ids are not allowed'],
    ['', 'empty CIDR'],
  ])('%j → %j', (text, reason) => {
    expect(parseCidr(text)).toBe(reason);
  });
});

describe('cidrContains', () => {
  it('checks non-byte-aligned prefixes at their edges', () => {
    const cgnat = cidr('100.64.0.0/10');
    expect(cidrContains(cgnat, ip('100.63.255.255'))).toBe(false);
    expect(cidrContains(cgnat, ip('100.64.0.0'))).toBe(true);
    expect(cidrContains(cgnat, ip('100.127.255.255'))).toBe(true);
    expect(cidrContains(cgnat, ip('100.128.0.0'))).toBe(false);
    const orchid = cidr('2001:10::/28');
    expect(cidrContains(orchid, ip('2001:f:ffff:ffff:ffff:ffff:ffff:ffff'))).toBe(false);
    expect(cidrContains(orchid, ip('2001:10::'))).toBe(true);
    expect(cidrContains(orchid, ip('2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'))).toBe(true);
    expect(cidrContains(orchid, ip('2001:20::'))).toBe(false);
  });

  it('handles /0, /1 and host routes', () => {
    expect(cidrContains(cidr('0.0.0.0/0'), ip('255.255.255.255'))).toBe(true);
    expect(cidrContains(cidr('::/0'), ip('ffff::1'))).toBe(true);
    expect(cidrContains(cidr('128.0.0.0/1'), ip('127.255.255.255'))).toBe(false);
    expect(cidrContains(cidr('128.0.0.0/1'), ip('128.0.0.0'))).toBe(true);
    expect(cidrContains(cidr('192.0.2.1'), ip('192.0.2.1'))).toBe(true);
    expect(cidrContains(cidr('192.0.2.1'), ip('192.0.2.0'))).toBe(false);
    expect(cidrContains(cidr('::1'), ip('::1'))).toBe(true);
    expect(cidrContains(cidr('::1'), ip('::'))).toBe(false);
  });

  it('never matches across families', () => {
    expect(cidrContains(cidr('127.0.0.0/8'), ip('::ffff:127.0.0.1'))).toBe(false);
    expect(cidrContains(cidr('0.0.0.0/0'), ip('::1'))).toBe(false);
    expect(cidrContains(cidr('::/0'), ip('1.2.3.4'))).toBe(false);
    expect(cidrContains(cidr('::ffff:0:0/96'), ip('127.0.0.1'))).toBe(false);
  });
});

describe('classifyAddress: IPv4 ranges at their edges', () => {
  // [address, expected]: the first and last address inside each range and the nearest outside.
  const cases: [string, Expected][] = [
    ['0.0.0.0', ['0.0.0.0/8', 'this network']],
    ['0.255.255.255', ['0.0.0.0/8', 'this network']],
    ['1.0.0.0', 'public'],
    ['9.255.255.255', 'public'],
    ['10.0.0.0', ['10.0.0.0/8', 'private (RFC 1918)']],
    ['10.255.255.255', ['10.0.0.0/8', 'private (RFC 1918)']],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.64.0.0', ['100.64.0.0/10', 'shared address space (CGNAT)']],
    ['100.127.255.255', ['100.64.0.0/10', 'shared address space (CGNAT)']],
    ['100.128.0.0', 'public'],
    ['126.255.255.255', 'public'],
    ['127.0.0.0', ['127.0.0.0/8', 'loopback']],
    ['127.0.0.1', ['127.0.0.0/8', 'loopback']],
    ['127.255.255.255', ['127.0.0.0/8', 'loopback']],
    ['128.0.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['169.254.0.0', ['169.254.0.0/16', 'link-local']],
    ['169.254.169.254', ['169.254.0.0/16', 'link-local']], // cloud metadata
    ['169.254.255.255', ['169.254.0.0/16', 'link-local']],
    ['169.255.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.16.0.0', ['172.16.0.0/12', 'private (RFC 1918)']],
    ['172.31.255.255', ['172.16.0.0/12', 'private (RFC 1918)']],
    ['172.32.0.0', 'public'],
    ['191.255.255.255', 'public'],
    ['192.0.0.0', ['192.0.0.0/24', 'IETF protocol assignments']],
    ['192.0.0.255', ['192.0.0.0/24', 'IETF protocol assignments']],
    ['192.0.1.0', 'public'],
    ['192.0.1.255', 'public'],
    ['192.0.2.0', ['192.0.2.0/24', 'documentation']],
    ['192.0.2.255', ['192.0.2.0/24', 'documentation']],
    ['192.0.3.0', 'public'],
    ['192.88.98.255', 'public'],
    ['192.88.99.0', ['192.88.99.0/24', '6to4 relay anycast']],
    ['192.88.99.255', ['192.88.99.0/24', '6to4 relay anycast']],
    ['192.88.100.0', 'public'],
    ['192.167.255.255', 'public'],
    ['192.168.0.0', ['192.168.0.0/16', 'private (RFC 1918)']],
    ['192.168.255.255', ['192.168.0.0/16', 'private (RFC 1918)']],
    ['192.169.0.0', 'public'],
    ['198.17.255.255', 'public'],
    ['198.18.0.0', ['198.18.0.0/15', 'benchmarking']],
    ['198.19.255.255', ['198.18.0.0/15', 'benchmarking']],
    ['198.20.0.0', 'public'],
    ['198.51.99.255', 'public'],
    ['198.51.100.0', ['198.51.100.0/24', 'documentation']],
    ['198.51.100.255', ['198.51.100.0/24', 'documentation']],
    ['198.51.101.0', 'public'],
    ['203.0.112.255', 'public'],
    ['203.0.113.0', ['203.0.113.0/24', 'documentation']],
    ['203.0.113.255', ['203.0.113.0/24', 'documentation']],
    ['203.0.114.0', 'public'],
    ['223.255.255.255', 'public'],
    ['224.0.0.0', ['224.0.0.0/4', 'multicast']],
    ['239.255.255.255', ['224.0.0.0/4', 'multicast']],
    ['240.0.0.0', ['240.0.0.0/4', 'reserved']],
    ['255.255.255.254', ['240.0.0.0/4', 'reserved']],
    ['255.255.255.255', ['255.255.255.255/32', 'broadcast']],
  ];
  it.each(cases)('%s', (address, expected) => expectClass(address, expected));

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '140.82.112.3', '172.15.0.1', '100.63.0.1'])('%s is public', (address) => expectClass(address, 'public'));

  it('agrees with an integer-interval reference on random addresses', () => {
    // Independent statement of the same table as [first, last] integer intervals.
    const reference: [number, number, string, string][] = [
      ['255.255.255.255', 32, 'broadcast'],
      ['0.0.0.0', 8, 'this network'],
      ['10.0.0.0', 8, 'private (RFC 1918)'],
      ['100.64.0.0', 10, 'shared address space (CGNAT)'],
      ['127.0.0.0', 8, 'loopback'],
      ['169.254.0.0', 16, 'link-local'],
      ['172.16.0.0', 12, 'private (RFC 1918)'],
      ['192.0.0.0', 24, 'IETF protocol assignments'],
      ['192.0.2.0', 24, 'documentation'],
      ['192.88.99.0', 24, '6to4 relay anycast'],
      ['192.168.0.0', 16, 'private (RFC 1918)'],
      ['198.18.0.0', 15, 'benchmarking'],
      ['198.51.100.0', 24, 'documentation'],
      ['203.0.113.0', 24, 'documentation'],
      ['224.0.0.0', 4, 'multicast'],
      ['240.0.0.0', 4, 'reserved'],
    ].map(([base, prefix, reason]) => {
      const start = (base as string).split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
      const size = 2 ** (32 - (prefix as number));
      return [start, start + size - 1, `${base}/${prefix}`, reason as string];
    });
    // Bias towards the low octets of interesting /8s so small ranges are actually hit.
    const interesting = [0, 10, 100, 127, 169, 172, 192, 198, 203, 224, 239, 240, 255];
    let n = 0;
    for (const r of random32(20000)) {
      const value = n++ % 2 === 0 ? r : (((interesting[r % interesting.length] ?? 0) << 24) | (r >>> 8)) >>> 0;
      const hit = reference.find(([first, last]) => value >= first && value <= last);
      expectClass(v4Text(value), hit === undefined ? 'public' : [hit[2], hit[3]]);
    }
  });
});

describe('classifyAddress: IPv6 ranges at their edges', () => {
  const cases: [string, Expected][] = [
    ['::', ['::/128', 'unspecified']],
    ['::1', ['::1/128', 'loopback']],
    ['::2', ['::/96', 'IPv4-compatible IPv6 of 0.0.0.2 (this network)']],
    ['::ffff:ffff', ['::/96', 'IPv4-compatible IPv6 of 255.255.255.255 (broadcast)']],
    ['::1:0:0', ['::/3', RESERVED6]],
    ['::fffe:ffff:ffff', ['::/3', RESERVED6]],
    ['::ffff:0:0', ['::ffff:0:0/96', 'IPv4-mapped IPv6 of 0.0.0.0 (this network)']],
    ['::ffff:ffff:ffff', ['::ffff:0:0/96', 'IPv4-mapped IPv6 of 255.255.255.255 (broadcast)']],
    ['::1:0:0:0', ['::/3', RESERVED6]],
    ['::ffff:0:0:0', ['::/3', RESERVED6]], // SIIT IPv4-translated: not global unicast either
    ['64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', ['::/3', RESERVED6]],
    ['64:ff9b::', ['64:ff9b::/96', 'NAT64 of 0.0.0.0 (this network)']],
    ['64:ff9b::ffff:ffff', ['64:ff9b::/96', 'NAT64 of 255.255.255.255 (broadcast)']],
    ['64:ff9b::1:0:0', ['::/3', RESERVED6]],
    ['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', ['::/3', RESERVED6]],
    ['64:ff9b:1::', ['64:ff9b:1::/48', 'local-use NAT64 (RFC 8215)']],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', ['64:ff9b:1::/48', 'local-use NAT64 (RFC 8215)']],
    ['64:ff9b:2::', ['::/3', RESERVED6]],
    ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['::/3', RESERVED6]],
    ['100::', ['100::/64', 'discard-only']],
    ['100::ffff:ffff:ffff:ffff', ['100::/64', 'discard-only']],
    ['100:0:0:1::', ['::/3', RESERVED6]],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['::/3', RESERVED6]],
    ['2000::', 'public'],
    ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['2001::', ['2001::/32', 'Teredo with client 255.255.255.255 (broadcast)']], // client = 0 ^ ff..
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', ['2001::/32', 'Teredo with client 0.0.0.0 (this network)']],
    ['2001:1::', 'public'],
    ['2001:f:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['2001:10::', ['2001:10::/28', 'ORCHID (deprecated)']],
    ['2001:1f:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:10::/28', 'ORCHID (deprecated)']],
    ['2001:20::', ['2001:20::/28', 'ORCHIDv2']],
    ['2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:20::/28', 'ORCHIDv2']],
    ['2001:30::', 'public'],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['2001:db8::', ['2001:db8::/32', 'documentation']],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:db8::/32', 'documentation']],
    ['2001:db9::', 'public'],
    ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['2002::', ['2002::/16', '6to4 of 0.0.0.0 (this network)']],
    ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['2002::/16', '6to4 of 255.255.255.255 (broadcast)']],
    ['2003::', 'public'],
    ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['3fff::', ['3fff::/20', 'documentation (RFC 9637)']],
    ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', ['3fff::/20', 'documentation (RFC 9637)']],
    ['3fff:1000::', 'public'],
    ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['4000::', ['4000::/2', RESERVED6]],
    ['7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['4000::/2', RESERVED6]],
    ['8000::', ['8000::/1', RESERVED6]],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['8000::/1', RESERVED6]],
    ['fc00::', ['fc00::/7', 'unique local']],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['fc00::/7', 'unique local']],
    ['fe00::', ['8000::/1', RESERVED6]],
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['8000::/1', RESERVED6]],
    ['fe80::', ['fe80::/10', 'link-local']],
    ['fe80::1', ['fe80::/10', 'link-local']],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['fe80::/10', 'link-local']],
    ['fec0::', ['fec0::/10', 'site-local (deprecated)']],
    ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['fec0::/10', 'site-local (deprecated)']],
    ['ff00::', ['ff00::/8', 'multicast']],
    ['ff02::1', ['ff00::/8', 'multicast']],
    [`ffff:ffff:${ONES}`, ['ff00::/8', 'multicast']],
  ];
  it.each(cases)('%s', (address, expected) => expectClass(address, expected));

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '2620:fe::fe', '[2606:4700::6810:84e5]'])('%s is public', (address) =>
    expectClass(address, 'public'),
  );
});

describe('classifyAddress: IPv6 forms embedding IPv4 are always blocked', () => {
  const cases: [string, Expected][] = [
    ['::ffff:127.0.0.1', ['::ffff:0:0/96', 'IPv4-mapped IPv6 of 127.0.0.1 (loopback)']],
    ['::ffff:7f00:1', ['::ffff:0:0/96', 'IPv4-mapped IPv6 of 127.0.0.1 (loopback)']],
    ['[::FFFF:169.254.169.254]', ['::ffff:0:0/96', 'IPv4-mapped IPv6 of 169.254.169.254 (link-local)']],
    ['::ffff:10.1.2.3', ['::ffff:0:0/96', 'IPv4-mapped IPv6 of 10.1.2.3 (private (RFC 1918))']],
    ['::ffff:8.8.8.8', ['::ffff:0:0/96', 'IPv4-mapped IPv6 address']],
    ['::127.0.0.1', ['::/96', 'IPv4-compatible IPv6 of 127.0.0.1 (loopback)']],
    ['::7f00:1', ['::/96', 'IPv4-compatible IPv6 of 127.0.0.1 (loopback)']],
    ['::8.8.8.8', ['::/96', 'IPv4-compatible IPv6 address (deprecated)']],
    ['64:ff9b::a00:1', ['64:ff9b::/96', 'NAT64 of 10.0.0.1 (private (RFC 1918))']],
    ['64:ff9b::127.0.0.1', ['64:ff9b::/96', 'NAT64 of 127.0.0.1 (loopback)']],
    ['64:ff9b::8.8.8.8', ['64:ff9b::/96', 'NAT64 well-known prefix']],
    ['2002:7f00:1::', ['2002::/16', '6to4 of 127.0.0.1 (loopback)']],
    ['2002:a9fe:a9fe::1', ['2002::/16', '6to4 of 169.254.169.254 (link-local)']],
    ['2002:c0a8:101:0:1:2:3:4', ['2002::/16', '6to4 of 192.168.1.1 (private (RFC 1918))']],
    ['2002:0808:0808::', ['2002::/16', '6to4 address']], // public IPv4 inside: still blocked
    // Teredo (RFC 4380 example server 65.54.227.120); the client IPv4 is stored XOR 0xffffffff:
    // 127.0.0.1 ^ ffffffff = 80ff:fffe, 10.0.0.1 → f5ff:fffe, 8.8.8.8 → f7f7:f7f7.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', ['2001::/32', 'Teredo with client 127.0.0.1 (loopback)']],
    ['2001::f5ff:fffe', ['2001::/32', 'Teredo with client 10.0.0.1 (private (RFC 1918))']],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', ['2001::/32', 'Teredo address']],
    // Not XOR-ed: 7f00:0001 decodes to client 128.255.255.254, which is public.
    ['2001::7f00:1', ['2001::/32', 'Teredo address']],
  ];
  it.each(cases)('%s', (address, expected) => expectClass(address, expected));

  it('blocks the IPv4-mapped form of every IPv4 address, naming blocked ones', () => {
    for (const value of random32(5000, 0xdeadbeef)) {
      const v4 = v4Text(value);
      const inner = classifyAddress(ip(v4));
      const reason = inner.kind === 'blocked' ? `IPv4-mapped IPv6 of ${v4} (${inner.reason})` : 'IPv4-mapped IPv6 address';
      expectClass(`::ffff:${v4}`, ['::ffff:0:0/96', reason]);
    }
  });
});

describe('parseAllowList', () => {
  const texts = (text: string) => {
    const result = parseAllowList(text);
    if ('error' in result) throw new Error(result.error);
    return result.cidrs.map((c) => c.text);
  };

  it('treats empty and separator-only values as an empty list', () => {
    expect(parseAllowList('')).toEqual({ cidrs: [] });
    expect(parseAllowList(' ,\t,\n ,, ')).toEqual({ cidrs: [] });
  });

  it('parses one entry', () => {
    expect(parseAllowList('127.0.0.0/8')).toEqual({ cidrs: [cidr('127.0.0.0/8')] });
  });

  it('splits on commas and/or whitespace, keeps order and canonicalizes', () => {
    expect(texts('127.0.0.0/8, ::1  10.1.2.3/8,\t192.168.0.0/16\n,FD00::/8,')).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.0/8', '192.168.0.0/16', 'fd00::/8']);
    expect(texts('  ::ffff:0:0/96 ')).toEqual(['::ffff:0:0/96']);
  });

  it.each([
    ['127.0.0.0/8,nope', 'bad allow-list entry "nope": not an IPv4 or IPv6 address'],
    ['127.0.0.0/8 10.0.0.0/33 also-bad', 'bad allow-list entry "10.0.0.0/33": prefix must be 0..32'],
    ['::/129', 'bad allow-list entry "::/129": prefix must be 0..128'],
    ['127.1/8', 'bad allow-list entry "127.1/8": not an IPv4 or IPv6 address'],
    ['fe80::%eth0/10', 'bad allow-list entry "fe80::%eth0/10": zone ids are not allowed'],
    ['127.0.0.0/8;10.0.0.0/8', 'bad allow-list entry "127.0.0.0/8;10.0.0.0/8": more than one "/"'],
    ['10.0.0.0 / 8', 'bad allow-list entry "/": not an IPv4 or IPv6 address'],
  ])('%j → error', (text, error) => {
    expect(parseAllowList(text)).toEqual({ error });
  });
});

describe('checkAddress', () => {
  it('allows public addresses without an allowance', () => {
    expect(checkAddress(ip('8.8.8.8'), [])).toEqual({ allowed: true, via: null });
    expect(checkAddress(ip('2606:4700:4700::1111'), [])).toEqual({ allowed: true, via: null });
    // A public address is public even when an allowance happens to contain it.
    expect(checkAddress(ip('8.8.8.8'), allow('0.0.0.0/0'))).toEqual({ allowed: true, via: null });
  });

  it('blocks non-public addresses with the range and reason', () => {
    expect(checkAddress(ip('127.0.0.1'), [])).toEqual({ allowed: false, range: '127.0.0.0/8', reason: 'loopback' });
    expect(checkAddress(ip('169.254.169.254'), allow('10.0.0.0/8'))).toEqual({
      allowed: false,
      range: '169.254.0.0/16',
      reason: 'link-local',
    });
    expect(checkAddress(ip('255.255.255.255'), [])).toEqual({
      allowed: false,
      range: '255.255.255.255/32',
      reason: 'broadcast',
    });
  });

  it('admits a blocked address inside an allowance, naming the first matching one', () => {
    expect(checkAddress(ip('127.0.0.1'), allow('127.0.0.0/8'))).toEqual({ allowed: true, via: '127.0.0.0/8' });
    expect(checkAddress(ip('127.0.0.1'), allow('10.0.0.0/8', '127.0.0.1', '127.0.0.0/8'))).toEqual({
      allowed: true,
      via: '127.0.0.1/32',
    });
    expect(checkAddress(ip('10.9.8.7'), allow('10.1.2.3/8'))).toEqual({ allowed: true, via: '10.0.0.0/8' });
    expect(checkAddress(ip('::1'), allow('::1'))).toEqual({ allowed: true, via: '::1/128' });
    expect(checkAddress(ip('fd12::5'), allow('fc00::/7'))).toEqual({ allowed: true, via: 'fc00::/7' });
    expect(checkAddress(ip('10.0.0.5'), allow('0.0.0.0/0'))).toEqual({ allowed: true, via: '0.0.0.0/0' });
  });

  it('does not admit an address just outside the allowance', () => {
    expect(checkAddress(ip('127.0.0.2'), allow('127.0.0.1'))).toEqual({
      allowed: false,
      range: '127.0.0.0/8',
      reason: 'loopback',
    });
    expect(checkAddress(ip('192.168.2.1'), allow('192.168.1.0/24'))).toEqual({
      allowed: false,
      range: '192.168.0.0/16',
      reason: 'private (RFC 1918)',
    });
  });

  it('matches allowances against the address itself, never an embedded or sibling IPv4', () => {
    const loopback4 = allow('127.0.0.0/8');
    expect(checkAddress(ip('::ffff:127.0.0.1'), loopback4)).toEqual({
      allowed: false,
      range: '::ffff:0:0/96',
      reason: 'IPv4-mapped IPv6 of 127.0.0.1 (loopback)',
    });
    expect(checkAddress(ip('::1'), loopback4)).toEqual({ allowed: false, range: '::1/128', reason: 'loopback' });
    expect(checkAddress(ip('::127.0.0.1'), loopback4)).toMatchObject({ allowed: false, range: '::/96' });
    expect(checkAddress(ip('64:ff9b::7f00:1'), loopback4)).toMatchObject({ allowed: false, range: '64:ff9b::/96' });
    expect(checkAddress(ip('2002:7f00:1::'), loopback4)).toMatchObject({ allowed: false, range: '2002::/16' });
    expect(checkAddress(ip('2001:0:4136:e378:8000:63bf:80ff:fffe'), loopback4)).toMatchObject({
      allowed: false,
      range: '2001::/32',
    });
    expect(checkAddress(ip('::1'), allow('0.0.0.0/0'))).toMatchObject({ allowed: false, range: '::1/128' });
    expect(checkAddress(ip('127.0.0.1'), allow('::ffff:0:0/96', '::/0'))).toMatchObject({
      allowed: false,
      range: '127.0.0.0/8',
    });
  });

  it('admits an IPv4-mapped address only through an explicit IPv6 allowance', () => {
    expect(checkAddress(ip('::ffff:127.0.0.1'), allow('::ffff:0:0/96'))).toEqual({
      allowed: true,
      via: '::ffff:0:0/96',
    });
    expect(checkAddress(ip('::ffff:127.0.0.1'), allow('::ffff:127.0.0.0/104'))).toEqual({
      allowed: true,
      via: '::ffff:7f00:0/104',
    });
    expect(checkAddress(ip('::ffff:128.0.0.1'), allow('::ffff:127.0.0.0/104'))).toEqual({
      allowed: false,
      range: '::ffff:0:0/96',
      reason: 'IPv4-mapped IPv6 address',
    });
  });

  it('works with a list straight from parseAllowList', () => {
    const parsed = parseAllowList('127.0.0.0/8, ::1');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(checkAddress(ip('127.0.0.53'), parsed.cidrs)).toEqual({ allowed: true, via: '127.0.0.0/8' });
    expect(checkAddress(ip('[::1]'), parsed.cidrs)).toEqual({ allowed: true, via: '::1/128' });
    expect(checkAddress(ip('10.0.0.1'), parsed.cidrs)).toMatchObject({ allowed: false, range: '10.0.0.0/8' });
  });
});
