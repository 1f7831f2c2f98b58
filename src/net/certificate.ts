/**
 * X.509 v3 certificates on node:crypto (ECDSA P-256, ecdsa-with-SHA256): a minimal DER writer, a
 * certificate builder, and `selfSignedCertificate`, the throw-away certificate `svc webhook listen
 * --tls` serves (valid for days, its own trust anchor: NODE_EXTRA_CA_CERTS=<its file> makes a
 * daemon trust exactly it). The tests' CA (test/support/pki.ts) builds its certificates here too.
 * No openssl CLI, no extra packages; only what certificates need, not a general ASN.1 library.
 */
import crypto from 'node:crypto';
import net from 'node:net';

// ---------------------------------------------------------------------------------------------
// DER writer
// ---------------------------------------------------------------------------------------------

/** Universal and context-specific tag bytes used below. */
export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

function lengthBytes(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** The DER helpers; every function returns one complete TLV. */
export const der = {
  /** Any tag with the given content octets. */
  tlv(tag: number, content: Uint8Array): Uint8Array {
    return concat([Uint8Array.of(tag), lengthBytes(content.length), content]);
  },

  sequence(...items: Uint8Array[]): Uint8Array {
    return der.tlv(TAG.SEQUENCE, concat(items));
  },

  /** SET OF, with the elements sorted by their encodings as DER requires. */
  set(...items: Uint8Array[]): Uint8Array {
    const sorted = [...items].sort((a, b) => Buffer.compare(a, b));
    return der.tlv(TAG.SET, concat(sorted));
  },

  /** A non-negative INTEGER, minimal, with a leading 0x00 when the high bit would be set. */
  integer(value: bigint | number): Uint8Array {
    let n = BigInt(value);
    if (n < 0n) throw new RangeError('der.integer: only non-negative integers are supported');
    const bytes: number[] = [];
    do {
      bytes.unshift(Number(n & 0xffn));
      n >>= 8n;
    } while (n > 0n);
    if ((bytes[0] ?? 0) & 0x80) bytes.unshift(0);
    return der.tlv(TAG.INTEGER, Uint8Array.from(bytes));
  },

  /** OBJECT IDENTIFIER from dotted form. */
  oid(dotted: string): Uint8Array {
    const arcs = dotted.split('.').map((s) => {
      if (!/^\d+$/.test(s)) throw new Error(`der.oid: bad arc in ${dotted}`);
      return BigInt(s);
    });
    const [first, second, ...rest] = arcs;
    if (first === undefined || second === undefined || first > 2n || (first < 2n && second > 39n)) {
      throw new Error(`der.oid: bad OID ${dotted}`);
    }
    const out: number[] = [];
    for (const arc of [first * 40n + second, ...rest]) {
      const group: number[] = [Number(arc & 0x7fn)];
      for (let v = arc >> 7n; v > 0n; v >>= 7n) group.unshift(Number(v & 0x7fn) | 0x80);
      out.push(...group);
    }
    return der.tlv(TAG.OID, Uint8Array.from(out));
  },

  utf8String(value: string): Uint8Array {
    return der.tlv(TAG.UTF8_STRING, Buffer.from(value, 'utf8'));
  },

  printableString(value: string): Uint8Array {
    if (!/^[A-Za-z0-9 '()+,\-./:=?]*$/.test(value)) throw new Error(`der.printableString: not printable: ${value}`);
    return der.tlv(TAG.PRINTABLE_STRING, Buffer.from(value, 'latin1'));
  },

  ia5String(value: string): Uint8Array {
    return der.tlv(TAG.IA5_STRING, ia5Bytes(value));
  },

  /** UTCTime (YYMMDDHHMMSSZ); years 1950–2049 only. Milliseconds are dropped. */
  utcTime(date: Date): Uint8Array {
    const year = date.getUTCFullYear();
    if (year < 1950 || year > 2049) throw new RangeError(`der.utcTime: year ${year} outside 1950–2049`);
    return der.tlv(TAG.UTC_TIME, Buffer.from(`${timeDigits(date).slice(2)}Z`, 'latin1'));
  },

  /** GeneralizedTime (YYYYMMDDHHMMSSZ). Milliseconds are dropped. */
  generalizedTime(date: Date): Uint8Array {
    return der.tlv(TAG.GENERALIZED_TIME, Buffer.from(`${timeDigits(date)}Z`, 'latin1'));
  },

  /** X.509 Time: UTCTime for 1950–2049, GeneralizedTime otherwise (RFC 5280 §4.1.2.5). */
  time(date: Date): Uint8Array {
    const year = date.getUTCFullYear();
    return year >= 1950 && year <= 2049 ? der.utcTime(date) : der.generalizedTime(date);
  },

  /** BIT STRING of whole bytes (unused bits = 0 unless given). */
  bitString(bytes: Uint8Array, unusedBits = 0): Uint8Array {
    return der.tlv(TAG.BIT_STRING, concat([Uint8Array.of(unusedBits), bytes]));
  },

  /**
   * BIT STRING for a NamedBitList (e.g. KeyUsage) with the given bit numbers set (bit 0 is the
   * most significant bit of the first byte); trailing zero bits are dropped as DER requires.
   */
  namedBits(bits: readonly number[]): Uint8Array {
    if (bits.length === 0) return der.bitString(new Uint8Array(0));
    const highest = Math.max(...bits);
    const bytes = new Uint8Array(Math.floor(highest / 8) + 1);
    for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
    return der.bitString(bytes, 7 - (highest & 7));
  },

  octetString(bytes: Uint8Array): Uint8Array {
    return der.tlv(TAG.OCTET_STRING, bytes);
  },

  boolean(value: boolean): Uint8Array {
    return der.tlv(TAG.BOOLEAN, Uint8Array.of(value ? 0xff : 0x00));
  },

  null(): Uint8Array {
    return der.tlv(TAG.NULL, new Uint8Array(0));
  },

  /** [n] EXPLICIT: a constructed context-specific tag wrapping one complete TLV. */
  explicit(tagNumber: number, inner: Uint8Array): Uint8Array {
    return der.tlv(0xa0 | tagNumber, inner);
  },

  /** [n] IMPLICIT of a primitive type: context-specific primitive tag over the content octets. */
  implicit(tagNumber: number, content: Uint8Array): Uint8Array {
    return der.tlv(0x80 | tagNumber, content);
  },
};

function ia5Bytes(value: string): Uint8Array {
  if (!/^[\x00-\x7f]*$/.test(value)) throw new Error(`IA5String: not ASCII: ${value}`);
  return Buffer.from(value, 'latin1');
}

function timeDigits(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('der.time: invalid date');
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`der.time: year ${year} out of range`);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return p(year, 4) + p(date.getUTCMonth() + 1) + p(date.getUTCDate()) + p(date.getUTCHours()) + p(date.getUTCMinutes()) + p(date.getUTCSeconds());
}

// ---------------------------------------------------------------------------------------------
// Minimal DER reader (just enough to pull the key bits out of a SubjectPublicKeyInfo)
// ---------------------------------------------------------------------------------------------

export interface DerElement {
  tag: number;
  /** Content octets. */
  content: Uint8Array;
  /** Offset just past this element in the input. */
  end: number;
}

/** Reads one TLV at `offset` (definite lengths only). */
export function readDer(input: Uint8Array, offset = 0): DerElement {
  const tag = input[offset];
  let lenByte = input[offset + 1];
  if (tag === undefined || lenByte === undefined) throw new Error('readDer: truncated');
  let pos = offset + 2;
  let length = lenByte;
  if (lenByte & 0x80) {
    const count = lenByte & 0x7f;
    if (count === 0 || count > 4) throw new Error('readDer: unsupported length');
    length = 0;
    for (let i = 0; i < count; i++) {
      lenByte = input[pos++];
      if (lenByte === undefined) throw new Error('readDer: truncated length');
      length = length * 256 + lenByte;
    }
  }
  if (pos + length > input.length) throw new Error('readDer: truncated content');
  return { tag, content: input.subarray(pos, pos + length), end: pos + length };
}

/** The children of a constructed element's content. */
export function readDerChildren(content: Uint8Array): DerElement[] {
  const out: DerElement[] = [];
  for (let pos = 0; pos < content.length; ) {
    const el = readDer(content, pos);
    out.push(el);
    pos = el.end;
  }
  return out;
}

/** The subjectPublicKey BIT STRING's bits (without the unused-bits byte) of an SPKI. */
export function spkiPublicKeyBits(spki: Uint8Array): Uint8Array {
  const outer = readDer(spki);
  const bitString = readDerChildren(outer.content)[1];
  if (outer.tag !== TAG.SEQUENCE || bitString?.tag !== TAG.BIT_STRING) throw new Error('not a SubjectPublicKeyInfo');
  return bitString.content.subarray(1);
}

/** Key identifier per RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits. */
export function keyIdentifier(publicKey: crypto.KeyObject): Uint8Array {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha1').update(spkiPublicKeyBits(spki)).digest();
}

// ---------------------------------------------------------------------------------------------
// X.509
// ---------------------------------------------------------------------------------------------

export const OID = {
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

/** KeyUsage bit numbers (RFC 5280 §4.2.1.3). */
export const KEY_USAGE = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyEncipherment: 2,
  dataEncipherment: 3,
  keyAgreement: 4,
  keyCertSign: 5,
  cRLSign: 6,
} as const;

/** Name ::= SEQUENCE OF RDN, one attribute per RDN, values as UTF8String. */
export function encodeName(attributes: ReadonlyArray<readonly [oid: string, value: string]>): Uint8Array {
  return der.sequence(...attributes.map(([oid, value]) => der.set(der.sequence(der.oid(oid), der.utf8String(value)))));
}

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address in network order, for iPAddress GeneralNames. */
export function ipAddressBytes(address: string): Uint8Array {
  const version = net.isIP(address);
  if (version === 4) return Uint8Array.from(address.split('.').map(Number));
  if (version !== 6) throw new Error(`not an IP address: ${address}`);
  let text = address.replace(/%.*$/, '');
  // Embedded dotted IPv4 tail → two hex groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1] !== undefined) {
    const b = v4[1].split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1].length) + `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const headGroups = parse(head);
  const tailGroups = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...new Array<number>(fill).fill(0), ...tailGroups];
  if (groups.length !== 8) throw new Error(`bad IPv6 address: ${address}`);
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

function extension(oid: string, critical: boolean, value: Uint8Array): Uint8Array {
  // critical BOOLEAN DEFAULT FALSE: DER omits the default.
  return critical ? der.sequence(der.oid(oid), der.boolean(true), der.octetString(value)) : der.sequence(der.oid(oid), der.octetString(value));
}

export interface CertificateSpec {
  serial: bigint;
  /** Encoded issuer Name (byte-identical to the issuer's subject). */
  issuer: Uint8Array;
  /** Encoded subject Name. */
  subject: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  subjectPublicKey: crypto.KeyObject;
  /** Key that signs the certificate (the issuer's; the subject's own for self-signed). */
  signingKey: crypto.KeyObject;
  /** Key identifier of the issuer, for authorityKeyIdentifier. */
  authorityKeyId: Uint8Array;
  isCa: boolean;
  /** Leaf only. */
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  /** A CA that also serves TLS itself (a self-signed server certificate): digitalSignature and serverAuth too. */
  serves?: boolean;
}

/** Builds and signs one X.509 v3 certificate; returns its DER. */
export function buildCertificate(spec: CertificateSpec): Uint8Array {
  const algorithm = der.sequence(der.oid(OID.ecdsaWithSha256)); // no parameters (RFC 5758 §3.2)
  const extensions: Uint8Array[] = [
    // BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, ... } — cA false is the empty SEQUENCE in DER.
    extension(OID.basicConstraints, true, spec.isCa ? der.sequence(der.boolean(true)) : der.sequence()),
    extension(
      OID.keyUsage,
      true,
      der.namedBits(
        spec.isCa ? [...(spec.serves ? [KEY_USAGE.digitalSignature] : []), KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign] : [KEY_USAGE.digitalSignature],
      ),
    ),
  ];
  if (!spec.isCa || spec.serves) extensions.push(extension(OID.extKeyUsage, false, der.sequence(der.oid(OID.serverAuth))));
  const names = [
    ...(spec.dnsNames ?? []).map((name) => der.implicit(2, ia5Bytes(name))),
    ...(spec.ipAddresses ?? []).map((ip) => der.implicit(7, ipAddressBytes(ip))),
  ];
  if (names.length > 0) extensions.push(extension(OID.subjectAltName, false, der.sequence(...names)));
  extensions.push(extension(OID.subjectKeyIdentifier, false, der.octetString(keyIdentifier(spec.subjectPublicKey))));
  // AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET STRING, ... }
  extensions.push(extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicit(0, spec.authorityKeyId))));

  const tbs = der.sequence(
    der.explicit(0, der.integer(2)), // v3
    der.integer(spec.serial),
    algorithm,
    spec.issuer,
    der.sequence(der.time(spec.notBefore), der.time(spec.notAfter)),
    spec.subject,
    new Uint8Array(spec.subjectPublicKey.export({ type: 'spki', format: 'der' })),
    der.explicit(3, der.sequence(...extensions)),
  );
  const signature = crypto.sign('sha256', tbs, spec.signingKey); // DER Ecdsa-Sig-Value
  return der.sequence(tbs, algorithm, der.bitString(signature));
}

export function derToPem(bytes: Uint8Array, label = 'CERTIFICATE'): string {
  const b64 = Buffer.from(bytes).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** A random positive serial of at most 64 bits (never zero). */
export function randomSerial(): bigint {
  const n = crypto.randomBytes(8).readBigUInt64BE() & 0x7fff_ffff_ffff_ffffn;
  return n === 0n ? 1n : n;
}

/** A certificate and its private key, PEM, with the certificate parsed. */
export interface CertifiedKey {
  certPem: string;
  keyPem: string;
  cert: crypto.X509Certificate;
}

/**
 * A key pair as KeyObjects that no key-generation job owns. Node 20 can deadlock when a KeyObject
 * made by generateKeyPairSync is exported while garbage collection destroys that generation job
 * (the export holds the key's mutex; the job's destructor takes the same mutex): a test process
 * froze in ExportJWK this way. So the pair is generated straight to DER (the job encodes it while
 * it is alive) and imported again.
 */
export function freshKeyPair(type: 'ed25519' | 'ec', namedCurve?: string): { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject } {
  const publicKeyEncoding = { type: 'spki', format: 'der' } as const;
  const privateKeyEncoding = { type: 'pkcs8', format: 'der' } as const;
  const der: { privateKey: Buffer; publicKey: Buffer } =
    type === 'ed25519'
      ? crypto.generateKeyPairSync('ed25519', { publicKeyEncoding, privateKeyEncoding })
      : crypto.generateKeyPairSync('ec', { namedCurve: namedCurve!, publicKeyEncoding, privateKeyEncoding });
  return {
    privateKey: crypto.createPrivateKey({ key: der.privateKey, format: 'der', type: 'pkcs8' }),
    publicKey: crypto.createPublicKey({ key: der.publicKey, format: 'der', type: 'spki' }),
  };
}

export function certifiedKey(certDer: Uint8Array, privateKey: crypto.KeyObject): CertifiedKey {
  const certPem = derToPem(certDer);
  return { certPem, keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: new crypto.X509Certificate(certPem) };
}

export interface SelfSignedOptions {
  /** Subject CN. */
  commonName: string;
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

/**
 * A self-signed server certificate that is its own trust anchor: CA:TRUE (OpenSSL takes it as a
 * root only so) with keyCertSign, digitalSignature and serverAuth, the names as subjectAltName.
 */
export function selfSignedCertificate(options: SelfSignedOptions): CertifiedKey {
  const { publicKey, privateKey } = freshKeyPair('ec', 'P-256');
  const subject = encodeName([[OID.commonName, options.commonName]]);
  const certDer = buildCertificate({
    serial: randomSerial(),
    issuer: subject,
    subject,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    subjectPublicKey: publicKey,
    signingKey: privateKey,
    authorityKeyId: keyIdentifier(publicKey),
    isCa: true,
    serves: true,
    ...(options.dnsNames ? { dnsNames: options.dnsNames } : {}),
    ...(options.ipAddresses ? { ipAddresses: options.ipAddresses } : {}),
  });
  return certifiedKey(certDer, privateKey);
}
