/**
 * did:web end to end against real HTTPS servers on loopback (docs/evidence.md#didweb,
 * docs/security.md#the-egress-policy): the egress policy, the pinned connection, TLS evidence,
 * redirects, size and time limits, and the document checks. Nothing is mocked; the Runtime
 * trusts a throw-away CA and allows 127.0.0.0/8 only where a test says so.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/core/runtime.js';
import type { ProblemError } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { documentPath, startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { hang, json, raw, redirect, startHttpsServer, startPlainHttpServer, stream, type TestHttpsServer } from '../support/https-server.js';
import { CONNECTION_POOL } from '../../src/net/fetch.js';
import { systemClock } from '../../src/runtime/node.js';
import { createTestCa } from '../support/pki.js';
import { problemOf } from '../support/problems.js';
import { shiftedClock } from '../support/runtime.js';
import { didDocument } from '../support/signing.js';

function dimension(result: EnrichedResolution, id: string) {
  const found = result.dimensions.find((d) => d.id === id);
  if (!found) throw new Error(`no dimension ${id}`);
  return found;
}

function failedStage(problem: ProblemError): string | undefined {
  return problem.trace?.find((s) => s.status === 'FAIL')?.stage;
}

/**
 * The runtime after one resolution from the test host, so that a short total limit is spent
 * waiting on the host's answer, not on the TLS handshake (which a loaded machine can stretch past
 * it): the next fetch reuses the pooled connection.
 */
async function warmed(runtime: Runtime): Promise<Runtime> {
  const did = host.did('warm');
  host.publish(did);
  await resolve(did, runtime);
  return runtime;
}

let host: DidWebHost;
const extraServers: TestHttpsServer[] = [];

beforeAll(async () => {
  host = await startDidWebHost();
});
afterAll(async () => {
  await host.close();
});
afterEach(async () => {
  await Promise.all(extraServers.splice(0).map((s) => s.close()));
});

describe('did:web over a loopback HTTPS host', () => {
  it('resolves with transport evidence from the pinned connection', async () => {
    const did = host.did();
    const document = host.publish(did);
    const served = Buffer.from(JSON.stringify(document));
    const result = await resolve(did, host.runtime());

    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.didDocument).toEqual(document);
    expect(dimension(result, 'transport').state).toBe('ESTABLISHED');
    expect(dimension(result, 'transport').statement).toContain('127.0.0.1');
    expect(dimension(result, 'integrity').state).toBe('ESTABLISHED');
    expect(dimension(result, 'control').state).toBe('NOT_ESTABLISHED');
    expect(dimension(result, 'history').state).toBe('NOT_ESTABLISHED');
    expect(dimension(result, 'keys').state).toBe('ESTABLISHED');

    const { source, tls } = result.evidence;
    expect(source).toMatchObject({
      kind: 'HTTPS',
      url: `https://localhost:${host.server.port}/.well-known/did.json`,
      httpStatus: 200,
      contentType: 'application/did+json',
      bytes: served.length,
      sha256: createHash('sha256').update(served).digest('hex'),
      peerAddress: '127.0.0.1',
      redirects: [],
    });
    expect(source.latencyMs).toBeGreaterThanOrEqual(0);
    expect(tls).not.toBeNull();
    expect(tls!.host).toBe('localhost');
    expect(tls!.protocol).toBe('TLSv1.3');
    expect(tls!.hostnameInSan).toBe(true);
    expect(tls!.validatedBy).toContain('CN=svc test CA');
    expect(tls!.certificate.subjectAltNames).toContain('DNS:localhost');
    expect(tls!.daysUntilExpiry).toBeGreaterThanOrEqual(9);
    expect(tls!.daysUntilExpiry).toBeLessThanOrEqual(10);

    const stages = result.trace.map((s) => `${s.stage}:${s.status}`);
    expect(stages).toEqual(expect.arrayContaining(['syntax.parse:PASS', 'dns.resolve:PASS', 'tls.handshake:PASS', 'web.fetch:PASS', 'linkage.fetch:PASS']));
    expect(result.limitations.some((l) => l.includes('127.0.0.0/8'))).toBe(true);
    expect(result.graph.nodes.map((n) => n.kind)).toEqual(expect.arrayContaining(['origin', 'tls']));
  });

  it('reads the path form and the %3A port form', async () => {
    const did = host.did('users', 'alice');
    host.publish(did);
    const result = await resolve(did, host.runtime());
    expect(result.evidence.source.url).toBe(`https://localhost:${host.server.port}/users/alice/did.json`);
    expect(result.did).toBe(did);
    expect(host.server.requests).toContain('GET /users/alice/did.json');
  });

  it('reports the tls fingerprint of the certificate the server presented', async () => {
    const did = host.did('fingerprint');
    host.publish(did);
    const result = await resolve(did, host.runtime());
    const { certificate } = result.evidence.tls!;
    expect(certificate.sha256Fingerprint).toBe(host.leaf.cert.fingerprint256);
    expect(certificate.serialNumber).toBe(host.leaf.cert.serialNumber.toUpperCase());
    expect(certificate.subject).toBe('CN=localhost, O=svc tests');
    expect(certificate.issuer).toBe('CN=svc test CA, O=svc tests');
    expect(certificate.validTo).toBe(`${new Date(host.leaf.cert.validTo).toISOString().slice(0, 19)}Z`);
  });
});

describe('the egress policy', () => {
  it('blocks loopback without an allowance, before any connection', async () => {
    const did = host.did('blocked');
    host.publish(did);
    const before = host.server.connections;
    const problem = await problemOf(resolve(did, host.runtime({ allow: [] })));
    expect(problem.code).toBe('EGRESS_BLOCKED');
    expect(problem.detail).toContain('127.0.0.1');
    expect(problem.detail).toContain('loopback');
    expect(failedStage(problem)).toBe('dns.resolve');
    expect(host.server.connections).toBe(before);
  });

  const hostile: Array<[string, string]> = [
    ['ten.test', '10.1.2.3'],
    ['metadata.test', '169.254.169.254'],
    ['v6loop.test', '::1'],
    ['mapped.test', '::ffff:127.0.0.1'],
    ['cgnat.test', '100.64.0.9'],
  ];
  it.each(hostile)('still blocks %s → %s with an allowance for 127.0.0.0/8 only', async (name, address) => {
    const before = host.server.connections;
    const runtime = host.runtime({ lookup: tableLookup({ [name]: [address] }), connectTo: () => host.server.port });
    const problem = await problemOf(resolve(`did:web:${name}`, runtime));
    expect(problem.code).toBe('EGRESS_BLOCKED');
    expect(failedStage(problem)).toBe('dns.resolve');
    expect(host.server.connections).toBe(before);
  });

  it('pins the first allowed address when a name also resolves to blocked ones', async () => {
    const did = 'did:web:mixed.test';
    const leafHost = await startDidWebHost({ ca: host.ca, dnsNames: ['mixed.test'] });
    try {
      leafHost.publish(did);
      const runtime = leafHost.runtime({
        lookup: tableLookup({ 'mixed.test': ['10.0.0.1', '127.0.0.1'] }),
        connectTo: () => leafHost.server.port,
      });
      const result = await resolve(did, runtime);
      expect(result.evidence.source.peerAddress).toBe('127.0.0.1');
      const dns = result.trace.find((s) => s.stage === 'dns.resolve');
      expect(dns?.detail).toContain('refused 10.0.0.1');
    } finally {
      await leafHost.close();
    }
  });

  it('refuses a redirect to a blocked address', async () => {
    const did = host.did('redirect-blocked');
    host.server.route(documentPath(did), redirect(`https://ten.test:${host.server.port}/did.json`));
    const runtime = host.runtime({ lookup: tableLookup({ 'ten.test': ['10.9.9.9'] }) });
    const problem = await problemOf(resolve(did, runtime));
    expect(problem.code).toBe('EGRESS_BLOCKED');
    expect(problem.detail).toContain('10.9.9.9');
  });

  it('follows two redirects, records them, and refuses a third', async () => {
    const did = host.did('hops');
    const doc = didDocument(did, host.key);
    host.server.route('/hops/did.json', redirect('/hop1'));
    host.server.route('/hop1', redirect(`https://localhost:${host.server.port}/hop2`, 301));
    host.server.route('/hop2', json(doc));
    const result = await resolve(did, host.runtime());
    expect(result.evidence.source.redirects).toEqual([
      { from: `https://localhost:${host.server.port}/hops/did.json`, to: `https://localhost:${host.server.port}/hop1`, status: 302 },
      { from: `https://localhost:${host.server.port}/hop1`, to: `https://localhost:${host.server.port}/hop2`, status: 301 },
    ]);
    expect(result.evidence.source.url).toBe(`https://localhost:${host.server.port}/hop2`);

    host.server.route('/hop2', redirect('/hop3'));
    host.server.route('/hop3', json(doc));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(problem.detail).toContain('third');
    expect(host.server.requests).not.toContain('GET /hop3');
  });

  it('refuses an https → http redirect without connecting to the http server', async () => {
    const plain = await startPlainHttpServer();
    extraServers.push(plain);
    const did = host.did('downgrade');
    plain.route('/did.json', json(didDocument(did, host.key)));
    host.server.route(documentPath(did), redirect(`http://localhost:${plain.port}/did.json`));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('EGRESS_BLOCKED');
    expect(problem.detail).toContain('not https');
    expect(plain.connections).toBe(0);
  });

  it('answers UPSTREAM_UNAVAILABLE at dns.resolve for a name that does not exist', async () => {
    const problem = await problemOf(resolve('did:web:nowhere.test', host.runtime()));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('dns.resolve');
    expect(problem.detail).toContain('ENOTFOUND');
  });
});

describe('certificates', () => {
  async function serverWith(options: Parameters<typeof startHttpsServer>[0]): Promise<TestHttpsServer> {
    const server = await startHttpsServer(options);
    extraServers.push(server);
    return server;
  }

  const now = Date.now();
  const cases: Array<[string, () => Parameters<typeof startHttpsServer>[0], string]> = [
    ['expired', () => ({ cert: host.ca.issue({ notBefore: new Date(now - 20 * 86_400_000), notAfter: new Date(now - 86_400_000) }) }), 'CERT_HAS_EXPIRED'],
    ['for another host', () => ({ cert: host.ca.issue({ dnsNames: ['other.example'] }) }), 'ERR_TLS_CERT_ALTNAME_INVALID'],
    ['from an untrusted CA', () => ({ cert: createTestCa('rogue CA').issue() }), 'not signed by a trusted authority'],
  ];
  it.each(cases)('a certificate %s fails the handshake', async (_name, options, reason) => {
    const server = await serverWith(options());
    const did = `did:web:localhost%3A${server.port}`;
    server.route('/.well-known/did.json', json(didDocument(did, host.key)));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('tls.handshake');
    expect(problem.detail).toContain(reason);
    expect(server.requests).toEqual([]);
  });

  it('never trusts the test CA unless the Runtime adds it', async () => {
    const did = host.did('trust');
    host.publish(did);
    const problem = await problemOf(resolve(did, host.runtime({ trustAnchors: undefined })));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('tls.handshake');
  });
});

describe('size and time limits', () => {
  it('stops reading an oversized did.json at the cap', async () => {
    const did = host.did('huge');
    const body = stream({ totalBytes: 16 * 1024 * 1024, chunkBytes: 64 * 1024 });
    host.server.route('/huge/did.json', body);
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('PAYLOAD_TOO_LARGE');
    expect(failedStage(problem)).toBe('web.fetch');
    expect(problem.detail).toContain('524288');
    // The server had written far less than the whole body when the client hung up.
    await new Promise((r) => setTimeout(r, 50));
    expect(body.bytesWritten).toBeLessThan(8 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the cap without reading the body', async () => {
    const did = host.did('declared');
    const body = stream({ totalBytes: 4 * 1024 * 1024, chunkBytes: 64 * 1024, declareLength: true });
    host.server.route('/declared/did.json', body);
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('PAYLOAD_TOO_LARGE');
    expect(problem.detail).toContain('declares 4194304 bytes');
  });

  it('gives up on a server that never answers, at the header limit', async () => {
    const did = host.did('silent');
    host.server.route('/silent/did.json', hang());
    const problem = await problemOf(resolve(did, host.runtime({ limits: { headersMs: 300, totalMs: 5_000 } })));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('web.fetch');
    expect(problem.detail).toContain('no response headers within 300 ms');
  });

  it('gives up at the total limit of a fetch', async () => {
    const did = host.did('slow');
    host.server.route('/slow/did.json', hang());
    const runtime = await warmed(host.runtime({ limits: { headersMs: 10_000, totalMs: 2_000 } }));
    const problem = await problemOf(resolve(did, runtime));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('web.fetch');
  });
});

/** Sends headers and the first bytes of a body, then nothing more (`close`: ends the connection instead). */
function trickle(close: boolean): (req: unknown, res: import('node:http').ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id": "did:web:');
    if (close) setTimeout(() => res.socket?.destroy(), 50);
  };
}

describe('a body cut off while it is read', () => {
  it('gives up at the total limit of a fetch when the body stops coming', async () => {
    const did = host.did('stalled');
    host.server.route('/stalled/did.json', trickle(false));
    const runtime = await warmed(host.runtime({ limits: { headersMs: 10_000, totalMs: 2_000 } }));
    const problem = await problemOf(resolve(did, runtime));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('web.fetch');
    expect(problem.detail).toContain('did not deliver the DID document within the 2 s limit');
  });

  it('stops reading when the caller gives up', async () => {
    const did = host.did('abandoned');
    host.server.route('/abandoned/did.json', trickle(false));
    const problem = await problemOf(resolve(did, host.runtime(), { signal: AbortSignal.timeout(300) }));
    expect(problem.code).toBe('SERVICE_UNAVAILABLE');
    expect(problem.detail).toBe('The work was cancelled before an answer was produced.');
  });

  it('reports a body the server ends before its end', async () => {
    const did = host.did('truncated');
    host.server.route('/truncated/did.json', trickle(true));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failedStage(problem)).toBe('web.fetch');
    expect(problem.detail).toMatch(/^Reading the DID document from localhost:\d+ failed: /);
  });
});

describe('documents', () => {
  it('404 → NOT_FOUND', async () => {
    const problem = await problemOf(resolve(host.did('missing'), host.runtime()));
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.detail).toContain('HTTP 404');
    expect(failedStage(problem)).toBe('web.fetch');
  });

  it('a server error → UPSTREAM_UNAVAILABLE', async () => {
    const did = host.did('broken');
    host.server.route('/broken/did.json', json({ error: 'boom' }, { status: 503 }));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(problem.detail).toContain('503');
  });

  const bad: Array<[string, string | Uint8Array, string]> = [
    ['not JSON', '<html>hello</html>', 'not valid JSON'],
    ['not an object', '[1,2,3]', 'not a JSON object'],
    ['duplicate members', '{"id":"did:web:x","id":"did:web:y"}', 'duplicate'],
    ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'not valid UTF-8'],
  ];
  it.each(bad)('%s → INVALID_DID_DOCUMENT', async (name, body, reason) => {
    const did = host.did(`bad-${name.replace(/\W/g, '')}`);
    host.server.route(documentPath(did), raw(body, { contentType: 'application/json' }));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('INVALID_DID_DOCUMENT');
    expect(problem.detail).toContain(reason);
  });

  it('an id mismatch → INVALID_DID_DOCUMENT', async () => {
    const did = host.did('mismatch');
    host.publish(did, didDocument(host.did('someone-else'), host.key));
    const problem = await problemOf(resolve(did, host.runtime()));
    expect(problem.code).toBe('INVALID_DID_DOCUMENT');
    expect(problem.detail).toContain('someone-else');
  });

  it('rejects did:web identifiers that are not host names', async () => {
    for (const did of ['did:web:127.0.0.1', 'did:web:localhost%3A99999', 'did:web:a%2Fb', 'did:web:example.com:..', 'did:web:exa%40mple.com']) {
      const problem = await problemOf(resolve(did, host.runtime()));
      expect(problem.code, did).toBe('INVALID_DID');
    }
  });
});

describe('connection reuse', () => {
  it('reuses a kept connection to the same host and pinned address, with fresh TLS evidence', async () => {
    const runtime = host.runtime();
    const did = host.did('reuse');
    host.publish(did);
    const first = await resolve(did, runtime, { noCache: true });
    const before = host.server.connections;
    const second = await resolve(did, runtime, { noCache: true });
    expect(host.server.connections).toBe(before);
    expect(second.trace.find((s) => s.stage === 'tls.handshake')!.detail).toContain('reused the TLSv1.3 connection');
    expect(second.evidence.tls!.certificate.sha256Fingerprint).toBe(first.evidence.tls!.certificate.sha256Fingerprint);
    expect(second.evidence.source.peerAddress).toBe('127.0.0.1');
    runtime.net.close();
  });

  it('never lets a kept connection skip the egress check of a new lookup', async () => {
    const table: Record<string, string[]> = { 'moving.test': ['127.0.0.1'] };
    const moving = await startDidWebHost({ ca: host.ca, dnsNames: ['moving.test'] });
    try {
      moving.publish('did:web:moving.test');
      const clock = shiftedClock(systemClock);
      const runtime = moving.runtime(
        {
          lookup: async (name) => (table[name] ?? []).map((address) => ({ address, family: 4 })),
          connectTo: () => moving.server.port,
        },
        clock,
      );
      await resolve('did:web:moving.test', runtime, { noCache: true });
      table['moving.test'] = ['10.0.0.8'];
      // The name's addresses are kept a short while; past that, the new answer is checked.
      clock.advance(CONNECTION_POOL.dnsTtlMs);
      const problem = await problemOf(resolve('did:web:moving.test', runtime, { noCache: true }));
      expect(problem.code).toBe('EGRESS_BLOCKED');
      runtime.net.close();
    } finally {
      await moving.close();
    }
  });

  it('opens a new connection when the server has dropped the kept one', async () => {
    const runtime = host.runtime();
    const did = host.did('dropped');
    host.publish(did);
    await resolve(did, runtime, { noCache: true });
    const before = host.server.connections;
    host.server.dropConnections();
    const again = await resolve(did, runtime, { noCache: true });
    expect(again.verdict.outcome).toBe('RESOLVED');
    expect(again.evidence.tls).not.toBeNull();
    expect(host.server.connections).toBeGreaterThan(before);
    runtime.net.close();
  });
});
