/**
 * Proves the test PKI (test/support/pki.ts) and the loopback HTTPS servers
 * (test/support/https-server.ts) with Node's own https client.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { hang, json, raw, redirect, startHttpsServer, startPlainHttpServer, stream, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa, der, ipAddressBytes, keyIdentifier, OID, readDer, readDerChildren, type DerElement } from '../support/pki.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const secondOf = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;

// ---------------------------------------------------------------------------------------------
// Certificate inspection helpers (our own DER reader, so the tests do not trust the writer alone)
// ---------------------------------------------------------------------------------------------

interface TbsParts {
  issuer: DerElement;
  subject: DerElement;
  validity: DerElement[];
  extensions: Map<string, { critical: boolean; value: Uint8Array }>;
}

function decodeOid(content: Uint8Array): string {
  const arcs: bigint[] = [];
  let v = 0n;
  for (const b of content) {
    v = (v << 7n) | BigInt(b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0n;
    }
  }
  const [first = 0n, ...rest] = arcs;
  const head = first < 80n ? [first / 40n, first % 40n] : [2n, first - 80n];
  return [...head, ...rest].join('.');
}

function tbsParts(cert: crypto.X509Certificate): TbsParts {
  const certificate = readDer(cert.raw);
  const [tbs] = readDerChildren(certificate.content);
  const fields = readDerChildren(tbs!.content);
  const [, , , issuer, validity, subject, , extWrapper] = fields;
  const extensions = new Map<string, { critical: boolean; value: Uint8Array }>();
  for (const ext of readDerChildren(readDer(extWrapper!.content).content)) {
    const parts = readDerChildren(ext.content);
    const critical = parts.length === 3 && parts[1]!.content[0] === 0xff;
    extensions.set(decodeOid(parts[0]!.content), { critical, value: Uint8Array.from(parts[parts.length - 1]!.content) });
  }
  return { issuer: issuer!, subject: subject!, validity: readDerChildren(validity!.content), extensions };
}

// ---------------------------------------------------------------------------------------------
// Client helpers
// ---------------------------------------------------------------------------------------------

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface GetOptions {
  ca?: string;
  servername?: string;
  agent?: https.Agent | false;
  timeoutMs?: number;
}

function get(server: TestHttpsServer, path: string, options: GetOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        ca: options.ca,
        servername: options.servername ?? 'localhost',
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    }
    req.on('error', reject);
  });
}

function plainGet(server: TestHttpsServer, path: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: server.port, path, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

/** The error a promise rejects with (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<NodeJS.ErrnoException> {
  try {
    await p;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  throw new Error('expected the request to fail');
}

/** Waits (event-loop turns, no fixed sleeps) until `cond` holds. */
async function until(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const servers: TestHttpsServer[] = [];
async function track(p: Promise<TestHttpsServer>): Promise<TestHttpsServer> {
  const server = await p;
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// ---------------------------------------------------------------------------------------------
// DER
// ---------------------------------------------------------------------------------------------

describe('der', () => {
  it('encodes INTEGERs minimally, positive, with a 0x00 pad when the high bit is set', () => {
    expect(hex(der.integer(0))).toBe('020100');
    expect(hex(der.integer(127))).toBe('02017f');
    expect(hex(der.integer(128))).toBe('02020080');
    expect(hex(der.integer(256))).toBe('02020100');
    expect(hex(der.integer(0xffff_ffff_ffff_ffffn))).toBe('020900ffffffffffffffff');
    expect(() => der.integer(-1)).toThrow(RangeError);
  });

  it('encodes OIDs, lengths and strings', () => {
    expect(hex(der.oid(OID.ecdsaWithSha256))).toBe('06082a8648ce3d040302');
    expect(hex(der.oid('2.5.29.19'))).toBe('0603551d13');
    expect(hex(der.octetString(new Uint8Array(200))).slice(0, 6)).toBe('0481c8');
    expect(hex(der.octetString(new Uint8Array(300))).slice(0, 8)).toBe('0482012c');
    expect(hex(der.utf8String('é'))).toBe('0c02c3a9');
    expect(hex(der.printableString('svc'))).toBe('1303737663');
    expect(hex(der.boolean(true))).toBe('0101ff');
    expect(hex(der.sequence())).toBe('3000');
    expect(hex(der.explicit(0, der.integer(2)))).toBe('a003020102');
    expect(hex(der.implicit(7, Uint8Array.of(127, 0, 0, 1)))).toBe('87047f000001');
  });

  it('sorts SET OF elements and drops trailing zero bits of named bit lists', () => {
    expect(hex(der.set(der.integer(2), der.integer(1)))).toBe('3106020101020102');
    expect(hex(der.namedBits([5, 6]))).toBe('03020106'); // keyCertSign + cRLSign
    expect(hex(der.namedBits([0]))).toBe('03020780'); // digitalSignature
  });

  it('uses UTCTime for 1950–2049 and GeneralizedTime otherwise', () => {
    const t = (iso: string) =>
      Buffer.from(der.time(new Date(iso)))
        .toString('latin1')
        .slice(2);
    expect(der.time(new Date('2049-12-31T23:59:59Z'))[0]).toBe(0x17);
    expect(t('2049-12-31T23:59:59.999Z')).toBe('491231235959Z');
    expect(t('1950-01-01T00:00:00Z')).toBe('500101000000Z');
    expect(der.time(new Date('2050-01-01T00:00:00Z'))[0]).toBe(0x18);
    expect(t('2050-01-01T00:00:00Z')).toBe('20500101000000Z');
    expect(t('1949-12-31T23:59:59Z')).toBe('19491231235959Z');
  });

  it('encodes IP addresses as 4 or 16 bytes', () => {
    expect(hex(ipAddressBytes('127.0.0.1'))).toBe('7f000001');
    expect(hex(ipAddressBytes('::1'))).toBe('00000000000000000000000000000001');
    expect(hex(ipAddressBytes('2001:db8::8:800:200c:417a'))).toBe('20010db80000000000080800200c417a');
    expect(hex(ipAddressBytes('::ffff:10.0.0.1'))).toBe('00000000000000000000ffff0a000001');
    expect(() => ipAddressBytes('localhost')).toThrow();
  });
});

// ---------------------------------------------------------------------------------------------
// Certificates
// ---------------------------------------------------------------------------------------------

describe('test PKI', () => {
  it('makes a self-signed CA that OpenSSL parses', () => {
    const ca = createTestCa('unit CA');
    const parsed = new crypto.X509Certificate(ca.certPem);
    expect(parsed.subject).toBe('CN=unit CA\nO=svc tests');
    expect(parsed.issuer).toBe(parsed.subject);
    expect(parsed.ca).toBe(true);
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(parsed.checkIssued(parsed)).toBe(true);
    expect(parsed.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');

    const { extensions } = tbsParts(parsed);
    expect(extensions.get(OID.basicConstraints)).toEqual({ critical: true, value: der.sequence(der.boolean(true)) });
    expect(extensions.get(OID.keyUsage)).toEqual({ critical: true, value: der.namedBits([5, 6]) });
    expect(extensions.has(OID.extKeyUsage)).toBe(false);
    const ski = extensions.get(OID.subjectKeyIdentifier)!.value;
    expect(hex(readDer(ski).content)).toBe(hex(keyIdentifier(parsed.publicKey)));
  });

  it('issues leaves that verify against the CA, with the requested names and dates', () => {
    const ca = createTestCa();
    const notBefore = new Date(Date.now() - 5 * 60_000 - 123); // milliseconds are truncated
    const notAfter = new Date(Date.now() + 3 * 86_400_000 + 456);
    const leaf = ca.issue({
      dnsNames: ['localhost', 'did.example.test'],
      ipAddresses: ['127.0.0.1', '::1'],
      notBefore,
      notAfter,
      serial: 0x80n,
    });
    const parsed = new crypto.X509Certificate(leaf.certPem);
    expect(parsed.verify(ca.cert.publicKey)).toBe(true);
    expect(parsed.checkIssued(ca.cert)).toBe(true);
    expect(parsed.ca).toBe(false);
    expect(parsed.checkHost('localhost')).toBe('localhost');
    expect(parsed.checkHost('did.example.test')).toBe('did.example.test');
    expect(parsed.checkHost('example.org')).toBeUndefined();
    expect(parsed.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(parsed.checkIP('::1')).toBe('::1');
    expect(parsed.subjectAltName).toBe('DNS:localhost, DNS:did.example.test, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(parsed.subject).toBe('CN=localhost\nO=svc tests');
    expect(parsed.issuer).toBe('CN=svc test CA\nO=svc tests');
    expect(parsed.keyUsage).toEqual([OID.serverAuth]);
    expect(parsed.serialNumber).toBe('80');
    expect(new Date(parsed.validFrom).getTime()).toBe(secondOf(notBefore));
    expect(new Date(parsed.validTo).getTime()).toBe(secondOf(notAfter));

    const parts = tbsParts(parsed);
    expect(hex(der.tlv(parts.issuer.tag, parts.issuer.content))).toBe(hex(ca.subjectDer));
    expect(parts.validity.map((t) => t.tag)).toEqual([0x17, 0x17]);
    expect(parts.extensions.get(OID.basicConstraints)).toEqual({ critical: true, value: der.sequence() });
    expect(parts.extensions.get(OID.keyUsage)).toEqual({ critical: true, value: der.namedBits([0]) });
    const caSki = readDer(tbsParts(ca.cert).extensions.get(OID.subjectKeyIdentifier)!.value).content;
    const aki = readDerChildren(readDer(parts.extensions.get(OID.authorityKeyIdentifier)!.value).content);
    expect(aki).toHaveLength(1);
    expect(aki[0]!.tag).toBe(0x80);
    expect(hex(aki[0]!.content)).toBe(hex(caSki));
    const leafSki = readDer(parts.extensions.get(OID.subjectKeyIdentifier)!.value).content;
    expect(hex(leafSki)).toBe(hex(keyIdentifier(parsed.publicKey)));
    expect(hex(leafSki)).not.toBe(hex(caSki));

    // The private key matches the certificate.
    const key = crypto.createPrivateKey(leaf.keyPem);
    const sig = crypto.sign('sha256', Buffer.from('hello'), key);
    expect(crypto.verify('sha256', Buffer.from('hello'), parsed.publicKey, sig)).toBe(true);
  });

  it('defaults: localhost + 127.0.0.1, ~1h back to ~10 days ahead, random positive serial', () => {
    const ca = createTestCa();
    const now = Date.now();
    const a = ca.issue({});
    const b = ca.issue({ dnsNames: ['only.example.test'] });
    expect(a.cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(b.cert.subjectAltName).toBe('DNS:only.example.test');
    expect(Math.abs(new Date(a.cert.validFrom).getTime() - (now - 3_600_000))).toBeLessThan(5000);
    expect(Math.abs(new Date(a.cert.validTo).getTime() - (now + 10 * 86_400_000))).toBeLessThan(5000);
    expect(Math.abs(new Date(ca.cert.validFrom).getTime() - (now - 86_400_000))).toBeLessThan(5000);
    expect(Math.abs(new Date(ca.cert.validTo).getTime() - (now + 30 * 86_400_000))).toBeLessThan(5000);
    expect(a.cert.serialNumber).not.toBe(b.cert.serialNumber);
    expect(BigInt(`0x${a.cert.serialNumber}`)).toBeGreaterThan(0n);
  });

  it('handles dates outside the UTCTime range with GeneralizedTime', () => {
    const ca = createTestCa('long CA', {
      notBefore: new Date('1949-12-31T23:59:59Z'),
      notAfter: new Date('2050-01-01T00:00:01Z'),
    });
    expect(ca.cert.verify(ca.cert.publicKey)).toBe(true);
    expect(new Date(ca.cert.validFrom).toISOString()).toBe('1949-12-31T23:59:59.000Z');
    expect(new Date(ca.cert.validTo).toISOString()).toBe('2050-01-01T00:00:01.000Z');
    expect(tbsParts(ca.cert).validity.map((t) => t.tag)).toEqual([0x18, 0x18]);
  });

  it('does not cross-verify between CAs', () => {
    const ca1 = createTestCa('one');
    const ca2 = createTestCa('two');
    const leaf = ca1.issue({});
    expect(leaf.cert.verify(ca2.cert.publicKey)).toBe(false);
    expect(leaf.cert.checkIssued(ca2.cert)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// HTTPS servers
// ---------------------------------------------------------------------------------------------

describe('startHttpsServer with node:https', () => {
  const ca = createTestCa();
  const leaf = ca.issue({});

  it('serves a JSON route to a client that trusts the test CA, and 404s the rest', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    expect(server.host).toBe('127.0.0.1');
    expect(server.origin).toBe(`https://localhost:${server.port}`);
    server.route('/.well-known/did.json', json({ id: 'did:web:localhost' }, { headers: { 'x-test': '1' } }));

    const ok = await get(server, '/.well-known/did.json?x=1', { ca: ca.certPem });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json');
    expect(ok.headers['x-test']).toBe('1');
    expect(JSON.parse(ok.body)).toEqual({ id: 'did:web:localhost' });

    const missing = await get(server, '/nope', { ca: ca.certPem });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ error: 'not found' });
    expect(server.requests).toEqual(['GET /.well-known/did.json?x=1', 'GET /nope']);
  });

  it('sends the chain leaf, then CA', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    const chain = await new Promise<string[]>((resolve, reject) => {
      const req = https.get({ host: '127.0.0.1', port: server.port, ca: ca.certPem, servername: 'localhost', agent: false });
      req.on('socket', (socket) => {
        socket.on('secureConnect', () => {
          const peer = (socket as tls.TLSSocket).getPeerX509Certificate();
          const issuer = peer?.issuerCertificate;
          resolve([peer?.subject ?? '', issuer?.subject ?? '']);
          req.destroy();
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    expect(chain).toEqual(['CN=localhost\nO=svc tests', 'CN=svc test CA\nO=svc tests']);
  });

  it('counts TCP connections (one per request without keep-alive, shared with it)', async () => {
    const server = await track(startHttpsServer({ cert: leaf }));
    server.route('/a', raw('hello', { contentType: 'text/plain' }));
    expect(server.connections).toBe(0);
    expect((await get(server, '/a', { ca: ca.certPem })).body).toBe('hello');
    expect(server.connections).toBe(1);
    await get(server, '/a', { ca: ca.certPem });
    expect(server.connections).toBe(2);

    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await get(server, '/a', { ca: ca.certPem, agent });
      await get(server, '/a', { ca: ca.certPem, agent });
      expect(server.connections).toBe(3);
    } finally {
      agent.destroy();
    }
    // A TCP connection that never starts TLS still counts.
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('error', () => {});
    await until(() => server.connections === 4);
    socket.destroy();
  });

  it('rejects an expired leaf with CERT_HAS_EXPIRED', async () => {
    const expired = ca.issue({ notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
    const server = await track(startHttpsServer({ cert: expired, ca }));
    const err = await failure(get(server, '/', { ca: ca.certPem }));
    expect(err.code).toBe('CERT_HAS_EXPIRED');
    expect(server.requests).toEqual([]);
  });

  it('rejects a not-yet-valid leaf with CERT_NOT_YET_VALID', async () => {
    const future = ca.issue({ notBefore: new Date(Date.now() + 86_400_000), notAfter: new Date(Date.now() + 2 * 86_400_000) });
    const server = await track(startHttpsServer({ cert: future, ca }));
    expect((await failure(get(server, '/', { ca: ca.certPem }))).code).toBe('CERT_NOT_YET_VALID');
  });

  it('rejects a leaf for another host with ERR_TLS_CERT_ALTNAME_INVALID', async () => {
    const other = ca.issue({ dnsNames: ['other.example.test'] });
    const server = await track(startHttpsServer({ cert: other, ca }));
    const err = await failure(get(server, '/', { ca: ca.certPem }));
    expect(err.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(err.message).toContain('localhost');
  });

  it('rejects a leaf from an untrusted CA: UNABLE_TO_VERIFY_LEAF_SIGNATURE, or SELF_SIGNED_CERT_IN_CHAIN when that CA is sent', async () => {
    const stranger = createTestCa('stranger CA');
    const strangerLeaf = stranger.issue({});
    const leafOnly = await track(startHttpsServer({ cert: strangerLeaf }));
    expect((await failure(get(leafOnly, '/', { ca: ca.certPem }))).code).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    const withChain = await track(startHttpsServer({ cert: strangerLeaf, ca: stranger }));
    expect((await failure(get(withChain, '/', { ca: ca.certPem }))).code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    // And without any ca option Node's bundled roots do not know the test CA either.
    expect((await failure(get(withChain, '/'))).code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
  });

  it('verifies by IP address when the client sends no SNI name', async () => {
    const server = await track(startHttpsServer({ cert: ca.issue({ ipAddresses: ['127.0.0.1'] }), ca }));
    server.route('/', json({ ok: true }));
    const reply = await new Promise<Reply>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port: server.port, path: '/', ca: ca.certPem, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }));
        })
        .on('error', reject);
    });
    expect(reply.status).toBe(200);
  });

  it('redirect() sends the status and Location', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    server.route('/moved', redirect('http://localhost:1/elsewhere'));
    server.route('/moved-permanently', redirect('/x', 301));
    const r = await get(server, '/moved', { ca: ca.certPem });
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('http://localhost:1/elsewhere');
    expect((await get(server, '/moved-permanently', { ca: ca.certPem })).status).toBe(301);
  });

  it('json() and raw() honour status and content type', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    server.route('/did', json({ a: 1 }, { status: 201, contentType: 'application/did+json' }));
    server.route('/bytes', raw(Uint8Array.of(0, 1, 2), { status: 203 }));
    const a = await get(server, '/did', { ca: ca.certPem });
    expect([a.status, a.headers['content-type'], a.body]).toEqual([201, 'application/did+json', '{"a":1}']);
    const b = await get(server, '/bytes', { ca: ca.certPem });
    expect([b.status, b.headers['content-type'], b.headers['content-length']]).toEqual([203, 'application/octet-stream', '3']);
  });

  it('hang() keeps the request pending until the client times out', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    server.route('/hang', hang());
    const started = Date.now();
    const err = await failure(get(server, '/hang', { ca: ca.certPem, timeoutMs: 150 }));
    expect(err.code).toBe('CLIENT_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.requests).toEqual(['GET /hang']);
  });

  it('close() resolves with a hanging request open, and the client sees the reset', async () => {
    const server = await startHttpsServer({ cert: leaf, ca });
    let seen = false;
    const hung = hang();
    server.route('/hang', (req, res) => {
      seen = true;
      hung(req, res);
    });
    const pending = failure(get(server, '/hang', { ca: ca.certPem }));
    // Also leave a raw TCP socket that never starts TLS.
    const idle = net.connect(server.port, '127.0.0.1');
    idle.on('error', () => {});
    const idleClosed = new Promise((r) => idle.on('close', r));
    await until(() => seen && server.connections === 2);
    await server.close();
    await server.close(); // idempotent
    const err = await pending;
    expect(['ECONNRESET', 'EPIPE']).toContain(err.code);
    await idleClosed;
  });

  it('stream() writes the whole body with Content-Length when the client reads it all', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    const body = stream({ totalBytes: 300_000, chunkBytes: 10_000, declareLength: true });
    server.route('/big', body);
    const r = await get(server, '/big', { ca: ca.certPem });
    expect(r.headers['content-length']).toBe('300000');
    expect(r.body.length).toBe(300_000);
    expect((JSON.parse(r.body) as { padding: string }).padding).toMatch(/^x+$/);
    await body.stopped();
    expect(body.bytesWritten).toBe(300_000);
    expect(body.aborted).toBe(false);
  });

  it('stream() is chunked without declareLength', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    server.route('/c', stream({ totalBytes: 5000 }));
    const r = await get(server, '/c', { ca: ca.certPem });
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.headers['content-length']).toBeUndefined();
    expect(r.body.length).toBe(5000);
  });

  it('stream() stops writing when the client goes away', async () => {
    const server = await track(startHttpsServer({ cert: leaf, ca }));
    const totalBytes = 256 * 1024 * 1024;
    const body = stream({ totalBytes, declareLength: true });
    server.route('/huge', body);
    const limit = 64 * 1024;
    const received = await new Promise<number>((resolve, reject) => {
      const req = https.get({ host: '127.0.0.1', port: server.port, path: '/huge', ca: ca.certPem, servername: 'localhost', agent: false }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => {
          n += c.length;
          if (n >= limit) {
            req.destroy();
            resolve(n);
          }
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    expect(received).toBeGreaterThanOrEqual(limit);
    await body.stopped();
    expect(body.aborted).toBe(true);
    expect(body.bytesWritten).toBeLessThan(totalBytes / 8);
    expect(body.bytesWritten).toBeGreaterThanOrEqual(received);
  });
});

describe('startPlainHttpServer', () => {
  it('serves the same handlers over plain HTTP', async () => {
    const server = await track(startPlainHttpServer());
    expect(server.origin).toBe(`http://localhost:${server.port}`);
    server.route('/doc', json({ plain: true }));
    const r = await plainGet(server, '/doc');
    expect(JSON.parse(r.body)).toEqual({ plain: true });
    expect(server.connections).toBe(1);
    expect(server.requests).toEqual(['GET /doc']);
  });

  it('an https client talking to it fails the handshake', async () => {
    const server = await track(startPlainHttpServer());
    const err = await failure(get(server, '/'));
    expect(err.code).toBe('EPROTO');
  });
});
