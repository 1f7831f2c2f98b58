/**
 * Pure address classification for the egress policy (no I/O, no DNS).
 *
 * - `parseIp` / `parseCidr` / `parseAllowList` are strict text parsers: dotted-quad IPv4 only
 *   (no `127.1`, no `010.0.0.1`, no hex/octal) and RFC 4291 IPv6 (no zone ids).
 * - `classifyAddress` says whether an address is public unicast or which special-purpose range
 *   blocks it, and why.
 * - `checkAddress` applies the operator's allowance (SVC_EGRESS_ALLOW) on top of that.
 *
 * IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo)
 * are always blocked: a public fetcher never needs them and they are a classic SSRF bypass
 * (`[::ffff:127.0.0.1]` reaching loopback through a dual-stack socket). Allowances are matched
 * against the address exactly as given, never against an embedded IPv4 address.
 */

export type IpFamily = 4 | 6;

export interface ParsedIp {
  family: IpFamily;
  /** 4 bytes (IPv4) or 16 bytes (IPv6), network order. */
  bytes: Uint8Array;
  /**
   * Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, leading zeros dropped, longest
   * run of two or more zero groups compressed to `::`, all hexadecimal — the same form the
   * WHATWG URL parser gives a bracketed host, so `::ffff:127.0.0.1` is `::ffff:7f00:1`).
   */
  text: string;
}

export interface Cidr {
  family: IpFamily;
  /** The network address (host bits zeroed). */
  bytes: Uint8Array;
  prefix: number;
  /** Canonical `addr/prefix`, showing the network, e.g. `10.0.0.0/8`. */
  text: string;
}

export type Classification = { kind: 'public' } | { kind: 'blocked'; range: string; reason: string };

export type EgressDecision = { allowed: true; via: string | null } | { allowed: false; range: string; reason: string };

// ---------------------------------------------------------------------------------------------
// Parsing and formatting

const IPV4_PART = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Strict dotted quad → 4 bytes, or null. */
function parseIpv4Bytes(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? '';
    // Decimal only, no leading zeros: `010` is octal to inet_aton, decimal to others.
    if (!IPV4_PART.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

/**
 * Colon-separated groups → 16-bit values. Only the last group of the whole address may be a
 * dotted IPv4 tail (`allowDottedTail`), which counts as two groups. Null on any bad group.
 */
function parseIpv6Groups(text: string, allowDottedTail: boolean): number[] | null {
  if (text === '') return [];
  const parts = text.split(':');
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (allowDottedTail && i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4Bytes(part);
      if (v4 === null) return null;
      groups.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    } else {
      // Also rejects the empty groups of `1::2::3`'s pieces, `:1`, `1:` and `:::`.
      if (!IPV6_GROUP.test(part)) return null;
      groups.push(parseInt(part, 16));
    }
  }
  return groups;
}

/** RFC 4291 IPv6 text (without brackets or zone) → 16 bytes, or null. */
function parseIpv6Bytes(text: string): Uint8Array | null {
  const halves = text.split('::');
  if (halves.length > 2) return null; // two `::`
  let groups: number[];
  if (halves.length === 2) {
    const head = parseIpv6Groups(halves[0] ?? '', false);
    const tail = parseIpv6Groups(halves[1] ?? '', true);
    if (head === null || tail === null) return null;
    // `::` stands for one or more zero groups, so at most 7 explicit ones.
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    const all = parseIpv6Groups(text, true);
    if (all === null || all.length !== 8) return null;
    groups = all;
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}

/** RFC 5952 §4: lower case, no leading zeros, compress the longest (first on ties) run of ≥2 zero groups. */
function formatIpv6(bytes: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  // A single zero group is written `0`, never `::` (RFC 5952 §4.2.2).
  if (bestLength < 2) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

/** Builds a ParsedIp from 4 or 16 network-order bytes (the bytes are copied). */
export function ipFromBytes(bytes: Uint8Array): ParsedIp {
  if (bytes.length === 4) return { family: 4, bytes: Uint8Array.from(bytes), text: formatIpv4(bytes) };
  if (bytes.length === 16) return { family: 6, bytes: Uint8Array.from(bytes), text: formatIpv6(bytes) };
  throw new RangeError(`an IP address has 4 or 16 bytes, not ${bytes.length}`);
}

/**
 * Parses a strict dotted-quad IPv4 or an RFC 4291 IPv6 address (optionally in `[...]`).
 * Returns null for anything else, including zone ids (`fe80::1%eth0`), shorthand IPv4
 * (`127.1`), leading zeros (`010.0.0.1`), bracketed IPv4 and surrounding whitespace.
 */
export function parseIp(text: string): ParsedIp | null {
  if (text.startsWith('[') || text.endsWith(']')) {
    if (!(text.startsWith('[') && text.endsWith(']'))) return null;
    const inner = text.slice(1, -1);
    const bytes = inner.includes(':') ? parseIpv6Bytes(inner) : null; // brackets are for IPv6 only
    return bytes === null ? null : ipFromBytes(bytes);
  }
  // Every IPv6 form has a colon and no IPv4 form does; `%` (zone id) fails both grammars.
  const bytes = text.includes(':') ? parseIpv6Bytes(text) : parseIpv4Bytes(text);
  return bytes === null ? null : ipFromBytes(bytes);
}

const PREFIX = /^(?:0|[1-9][0-9]{0,2})$/;

/** parseCidr without the `text: ` lead-in on errors. */
function parseCidrInner(text: string): Cidr | string {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const prefixText = slash === -1 ? null : text.slice(slash + 1);
  if (prefixText?.includes('/')) return 'more than one "/"';
  const address = parseIp(addressText);
  if (address === null) {
    if (addressText.includes('%')) return 'zone ids are not allowed';
    return 'not an IPv4 or IPv6 address';
  }
  const max = address.family === 4 ? 32 : 128;
  let prefix = max; // a bare address is a single-host range
  if (prefixText !== null) {
    prefix = PREFIX.test(prefixText) ? Number(prefixText) : NaN;
    if (!(prefix <= max)) return `prefix must be 0..${max}`;
  }
  // Accept host bits, but keep (and show) only the network.
  const bytes = address.bytes.slice();
  for (let bit = prefix; bit < max; bit++) {
    const index = bit >> 3;
    bytes[index] = (bytes[index] ?? 0) & ~(0x80 >> (bit & 7));
  }
  return { family: address.family, bytes, prefix, text: `${ipFromBytes(bytes).text}/${prefix}` };
}

/**
 * Parses `addr/prefix` (or a bare address, meaning /32 or /128). Host bits are accepted and
 * zeroed. On error returns a one-line reason, e.g. `10.0.0.0/33: prefix must be 0..32`.
 */
export function parseCidr(text: string): Cidr | string {
  if (text === '') return 'empty CIDR';
  const result = parseCidrInner(text);
  return typeof result === 'string' ? `${text}: ${result}` : result;
}

/**
 * Parses an allow list (the value of SVC_EGRESS_ALLOW): CIDRs separated by commas and/or
 * whitespace. Empty (or separators only) is an empty list. The error names the first bad entry.
 */
export function parseAllowList(text: string): { cidrs: Cidr[] } | { error: string } {
  const cidrs: Cidr[] = [];
  for (const entry of text.split(/[\s,]+/)) {
    if (entry === '') continue;
    const result = parseCidrInner(entry);
    if (typeof result === 'string') return { error: `bad allow-list entry "${entry}": ${result}` };
    cidrs.push(result);
  }
  return { cidrs };
}

/** True when `ip` lies in `cidr`. Families must match: 127.0.0.0/8 never contains `::ffff:127.0.0.1`. */
export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  if (cidr.family !== ip.family) return false;
  const whole = cidr.prefix >> 3;
  for (let i = 0; i < whole; i++) if (cidr.bytes[i] !== ip.bytes[i]) return false;
  const rest = cidr.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((cidr.bytes[whole] ?? 0) & mask) === ((ip.bytes[whole] ?? 0) & mask);
}

// ---------------------------------------------------------------------------------------------
// Classification

/** Where an IPv6 range carries an IPv4 address, and how to name it in reasons. */
interface Embedding {
  /**
   * Lead-in of the reason when the embedded IPv4 is itself blocked:
   * `${lead} 127.0.0.1 (loopback)`, e.g. `IPv4-mapped IPv6 of 127.0.0.1 (loopback)`.
   */
  lead: string;
  /** Extracts the embedded IPv4 bytes from the 16 IPv6 bytes. */
  extract: (bytes: Uint8Array) => Uint8Array;
}

interface BlockedRange {
  cidr: Cidr;
  /** Reason when no embedded IPv4 is blocked (or the range embeds none). */
  reason: string;
  embedding?: Embedding;
}

function range(text: string, reason: string, embedding?: Embedding): BlockedRange {
  const cidr = parseCidr(text);
  // The tables below are constants; a typo must fail loudly at load, not let traffic through.
  if (typeof cidr === 'string') throw new Error(`bad built-in range ${cidr}`);
  if (cidr.text !== text) throw new Error(`built-in range ${text} is not canonical (${cidr.text})`);
  return embedding === undefined ? { cidr, reason } : { cidr, reason, embedding };
}

const lastFour = (bytes: Uint8Array) => bytes.slice(12, 16);

/**
 * IPv4 special-purpose ranges (IANA IPv4 Special-Purpose Address Registry, minus the globally
 * reachable anycast entries). First match wins, so broadcast comes before 240.0.0.0/4.
 */
const IPV4_BLOCKED: readonly BlockedRange[] = [
  range('255.255.255.255/32', 'broadcast'),
  range('0.0.0.0/8', 'this network'),
  range('10.0.0.0/8', 'private (RFC 1918)'),
  range('100.64.0.0/10', 'shared address space (CGNAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'), // includes 169.254.169.254, the cloud metadata service
  range('172.16.0.0/12', 'private (RFC 1918)'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay anycast'),
  range('192.168.0.0/16', 'private (RFC 1918)'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

/**
 * IPv6 special-purpose ranges. Order matters where ranges nest: `::` and `::1` before
 * `::/96`, and the catch-all blocks outside 2000::/3 last.
 */
const IPV6_BLOCKED: readonly BlockedRange[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::ffff:0:0/96', 'IPv4-mapped IPv6 address', { lead: 'IPv4-mapped IPv6 of', extract: lastFour }),
  range('::/96', 'IPv4-compatible IPv6 address (deprecated)', {
    lead: 'IPv4-compatible IPv6 of',
    extract: lastFour,
  }),
  range('64:ff9b::/96', 'NAT64 well-known prefix', { lead: 'NAT64 of', extract: lastFour }),
  range('64:ff9b:1::/48', 'local-use NAT64 (RFC 8215)'),
  range('100::/64', 'discard-only'),
  // Teredo (RFC 4380): 2001:0:<server v4>:<flags>:<port ^ 0xffff>:<client v4 ^ 0xffffffff>.
  range('2001::/32', 'Teredo address', {
    lead: 'Teredo with client',
    extract: (bytes) => bytes.slice(12, 16).map((b) => b ^ 0xff),
  }),
  range('2001:10::/28', 'ORCHID (deprecated)'),
  range('2001:20::/28', 'ORCHIDv2'),
  range('2001:db8::/32', 'documentation'),
  // 6to4 (RFC 3056): 2002:<v4>::/48, the IPv4 address in bytes 2..5.
  range('2002::/16', '6to4 address', { lead: '6to4 of', extract: (bytes) => bytes.slice(2, 6) }),
  range('3fff::/20', 'documentation (RFC 9637)'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local (deprecated)'),
  range('ff00::/8', 'multicast'),
  // Only 2000::/3 is delegated for global unicast; everything else is reserved or unassigned
  // (e.g. `1::`, `4000::`, the SIIT `::ffff:0:a.b.c.d`). Public unicast only, so block it.
  range('::/3', 'reserved (outside 2000::/3 global unicast)'),
  range('4000::/2', 'reserved (outside 2000::/3 global unicast)'),
  range('8000::/1', 'reserved (outside 2000::/3 global unicast)'),
];

/**
 * Public unicast, or the special-purpose range that blocks the address and why. IPv6 forms
 * embedding IPv4 are always blocked; if the embedded address is blocked too the reason says
 * so, e.g. `IPv4-mapped IPv6 of 127.0.0.1 (loopback)`.
 */
export function classifyAddress(ip: ParsedIp): Classification {
  const table = ip.family === 4 ? IPV4_BLOCKED : IPV6_BLOCKED;
  const hit = table.find((entry) => cidrContains(entry.cidr, ip));
  if (hit === undefined) return { kind: 'public' };
  let reason = hit.reason;
  if (hit.embedding !== undefined) {
    const inner = ipFromBytes(hit.embedding.extract(ip.bytes));
    const innerClass = classifyAddress(inner);
    if (innerClass.kind === 'blocked') reason = `${hit.embedding.lead} ${inner.text} (${innerClass.reason})`;
  }
  return { kind: 'blocked', range: hit.cidr.text, reason };
}

/**
 * The blocked ranges where an intranet service or a test host plausibly lives: loopback, RFC 1918,
 * unique local, CGNAT. A problem about such an address may name the allowance of that one address.
 * Never suggested: link-local (where cloud metadata services answer), multicast, documentation,
 * reserved space, and the IPv6 forms that embed an IPv4 address (classic SSRF bypasses).
 */
const OPERATOR_RANGES: ReadonlySet<string> = new Set(['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '::1/128', 'fc00::/7']);

/** `127.0.0.1/32` for a blocked address in an OPERATOR_RANGES range (`range` as classifyAddress names it), else null. */
export function suggestedAllowance(ip: ParsedIp, range: string): string | null {
  return OPERATOR_RANGES.has(range) ? `${ip.text}/${ip.family === 4 ? 32 : 128}` : null;
}

/**
 * The egress decision for one resolved address: public → allowed (via null); otherwise allowed
 * only when the address itself lies in one of the operator's CIDRs (via = that CIDR's text).
 * No unwrapping: `::ffff:127.0.0.1` needs an IPv6 allowance such as `::ffff:0:0/96`, and `::1`
 * is not admitted by `127.0.0.0/8`.
 */
export function checkAddress(ip: ParsedIp, allow: readonly Cidr[]): EgressDecision {
  const classification = classifyAddress(ip);
  if (classification.kind === 'public') return { allowed: true, via: null };
  const admitting = allow.find((cidr) => cidrContains(cidr, ip));
  if (admitting !== undefined) return { allowed: true, via: admitting.text };
  return { allowed: false, range: classification.range, reason: classification.reason };
}

// ---------------------------------------------------------------------------------------------
// Operator allowances that reach link-local space without naming it

/**
 * A set of addresses given by fixed bits: an address belongs when `(address & mask) === value`.
 * A CIDR is one (its prefix bits); Teredo's embedded client is not a prefix, hence the form.
 */
interface BitSet {
  family: IpFamily;
  mask: Uint8Array;
  value: Uint8Array;
}

function bitsOfCidr(cidr: Cidr): BitSet {
  const mask = new Uint8Array(cidr.bytes.length);
  for (let bit = 0; bit < cidr.prefix; bit++) mask[bit >> 3] = (mask[bit >> 3] ?? 0) | (0x80 >> (bit & 7));
  return { family: cidr.family, mask, value: cidr.bytes.map((b, i) => b & (mask[i] ?? 0)) };
}

/** The two sets share an address: no bit both fix differs. */
function bitsOverlap(a: BitSet, b: BitSet): boolean {
  if (a.family !== b.family) return false;
  return a.mask.every((m, i) => {
    const common = m & (b.mask[i] ?? 0);
    return ((a.value[i] ?? 0) & common) === ((b.value[i] ?? 0) & common);
  });
}

/** Every address of `inner` lies in `outer`: `inner` fixes every bit `outer` fixes, to the same value. */
function bitsInside(inner: BitSet, outer: BitSet): boolean {
  if (inner.family !== outer.family) return false;
  return outer.mask.every((m, i) => (m & ~(inner.mask[i] ?? 0)) === 0 && ((inner.value[i] ?? 0) & m) === (outer.value[i] ?? 0));
}

function linkLocalForm(name: string, cidrText: string, fixed: Array<[index: number, byte: number]> = []): { name: string; bits: BitSet } {
  const cidr = parseCidr(cidrText);
  if (typeof cidr === 'string') throw new Error(`bad built-in range ${cidr}`);
  const bits = bitsOfCidr(cidr);
  for (const [index, byte] of fixed) {
    bits.mask[index] = 0xff;
    bits.value[index] = byte;
  }
  return { name, bits };
}

/**
 * Link-local space — where cloud metadata services answer (169.254.169.254) — in every form the
 * fetcher could connect to: IPv4 169.254.0.0/16, IPv6 fe80::/10, and the IPv6 forms that carry
 * a 169.254 address (mapped: a dual-stack socket reaches the IPv4 host; compatible; NAT64 and
 * 6to4 through a gateway; Teredo with a 169.254 client). Not covered: metadata endpoints outside
 * link-local space, such as AWS's IPv6 fd00:ec2::254 inside the unique-local fc00::/7.
 */
const LINK_LOCAL_FORMS = [
  linkLocalForm('169.254.0.0/16 (link-local, where cloud metadata services answer)', '169.254.0.0/16'),
  linkLocalForm('fe80::/10 (IPv6 link-local)', 'fe80::/10'),
  linkLocalForm('::ffff:169.254.0.0/112 (IPv4-mapped link-local)', '::ffff:169.254.0.0/112'),
  linkLocalForm('::169.254.0.0/112 (IPv4-compatible link-local)', '::169.254.0.0/112'),
  linkLocalForm('64:ff9b::169.254.0.0/112 (NAT64 of link-local)', '64:ff9b::169.254.0.0/112'),
  linkLocalForm('2002:a9fe::/32 (6to4 of link-local)', '2002:a9fe::/32'),
  // Teredo: 2001:0::/32 with the client address, bit-inverted, in the last four bytes.
  linkLocalForm('Teredo addresses with a 169.254 client', '2001::/32', [
    [12, 169 ^ 0xff],
    [13, 254 ^ 0xff],
  ]),
] as const;

/**
 * The link-local range an operator allowance reaches without naming it: the allowance admits
 * part of one of the forms above but also more (`0.0.0.0/0`, `169.0.0.0/8`, `::/0`,
 * `::ffff:0:0/96`), so a wide allowance meant for an intranet would open the cloud metadata
 * service too. Null when the allowance avoids link-local space or lies inside one form — it
 * names it exactly (`169.254.169.254/32`, `169.254.0.0/16`, `::ffff:169.254.169.254`).
 */
export function linkLocalOverreach(cidr: Cidr): string | null {
  const bits = bitsOfCidr(cidr);
  const form = LINK_LOCAL_FORMS.find((f) => bitsOverlap(bits, f.bits) && !bitsInside(bits, f.bits));
  return form === undefined ? null : form.name;
}

// ---------------------------------------------------------------------------------------------
// How much of an address family a set of ranges covers

/** The IPv6 block that carries IPv4 addresses as IPv4-mapped IPv6 (`::ffff:0:0/96`). */
const MAPPED_PREFIX = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]);

function bigOf(bytes: Uint8Array, from = 0): bigint {
  let value = 0n;
  for (let i = from; i < bytes.length; i++) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value;
}

/** The fraction (0..1) of the address space that the union of `ranges` covers, merged so overlaps count once. */
function unionShare(ranges: Array<[bigint, bigint]>, bits: number): number {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let covered = 0n;
  let start = -1n;
  let end = -1n; // exclusive
  for (const [s, e] of sorted) {
    if (s > end) {
      if (end > start) covered += end - start;
      start = s;
      end = e;
    } else if (e > end) end = e;
  }
  if (end > start) covered += end - start;
  return Number(covered) / 2 ** bits;
}

/**
 * The share of each address family that the union of `cidrs` covers: IPv4 counts its own
 * ranges and the IPv4-mapped IPv6 forms (`::ffff:0:0/96` and anything inside or around it
 * reaches IPv4 hosts on a dual-stack socket); IPv6 counts the IPv6 ranges. Overlaps count once,
 * so `0.0.0.0/1,128.0.0.0/1` covers all of IPv4 as `0.0.0.0/0` does.
 */
export function familyShares(cidrs: readonly Cidr[]): { ipv4: number; ipv6: number } {
  const v4: Array<[bigint, bigint]> = [];
  const v6: Array<[bigint, bigint]> = [];
  for (const cidr of cidrs) {
    const bits = cidr.family === 4 ? 32 : 128;
    const start = bigOf(cidr.bytes);
    const range: [bigint, bigint] = [start, start + (1n << BigInt(bits - cidr.prefix))];
    if (cidr.family === 4) {
      v4.push(range);
      continue;
    }
    v6.push(range);
    if (cidr.prefix <= 96) {
      // Around the mapped block: all of IPv4 when it contains it.
      if (cidrContains(cidr, { family: 6, bytes: Uint8Array.from([...MAPPED_PREFIX, 0, 0, 0, 0]), text: '::ffff:0.0.0.0' })) v4.push([0n, 1n << 32n]);
    } else if (MAPPED_PREFIX.every((b, i) => cidr.bytes[i] === b)) {
      const low = bigOf(cidr.bytes, 12);
      v4.push([low, low + (1n << BigInt(128 - cidr.prefix))]);
    }
  }
  return { ipv4: unionShare(v4, 32), ipv6: unionShare(v6, 128) };
}
