/**
 * `svc serve` over real HTTP: the daemon (in this process, started as `svc serve` would be) listening on a free loopback port, a real HTTPS
 * did:web host beside it. Probes, /v1/resolve, fast-verify,
 * graph, unknown routes and methods, CORS preflight, and the store the daemon shares
 * with the CLI. Every answer is checked for its exact status, content type and the headers of
 * docs/daemon.md#requests-and-answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/schema/migrations.js';
import { cleanEnv, repoRoot, svc } from '../support/cli.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectCommonHeaders, expectJson, expectProblem, startInProcessDaemonFor, W3C_TYPE } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { didDocument, generateTestKey } from '../support/signing.js';

const VERSION = (JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string }).version;
const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let host: DidWebHost;
let daemon: DaemonHandle;

beforeAll(async () => {
  host = await startDidWebHost();
  daemon = await startInProcessDaemonFor(host);
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

/** A did:key nobody has resolved yet (so cache and history start empty for it). */
function freshDidKey(): string {
  return `did:key:${generateTestKey('EdDSA').multikey}`;
}

const get = (path: string, init?: RequestInit) => call(`${daemon.url}${path}`, init);

describe('probes', () => {
  it('GET /health: status, name, version, time, methods, standards, monitoring, rate limiting', async () => {
    const body = expectJson(await get('/health'), 200);
    expect(body).toMatchObject({
      status: 'ok',
      name: 'svc',
      version: VERSION,
      supportedMethods: ['did:key', 'did:jwk', 'did:web', 'did:webvh'],
      monitoring: false,
      rateLimited: true,
    });
    expect(body.time).toMatch(RFC3339_SECONDS);
    expect(Math.abs(Date.parse(body.time) - Date.now())).toBeLessThan(60_000);
    expect(typeof body.standards).toBe('object');
    expect(body.standards).toMatchObject({ didCore: '1.0', didWebvh: '1.0', jcs: 'RFC 8785', problemDetails: 'RFC 9457' });
    for (const value of Object.values(body.standards)) expect(['string', 'number']).toContain(typeof value);
  });

  it('GET /ready: ready with a current file database', async () => {
    expect(expectJson(await get('/ready'), 200)).toEqual({ ready: true, storage: 'file', schema: 'current' });
  });

  it('probes take no query options', async () => {
    expectProblem(await get('/health?verbose=1'), 400, 'INVALID_OPTIONS');
  });

  it('GET /v1/status: components of resolution, storage, cache, rate limit, monitoring, claims, console, billing', async () => {
    const body = expectJson(await get('/v1/status'), 200);
    expect(body).toMatchObject({ status: 'ok', version: VERSION, profile: 'direct' });
    expect(body.startedAt).toMatch(RFC3339_SECONDS);
    expect(Number.isInteger(body.uptimeSeconds)).toBe(true);
    expect(body.components).toMatchObject({
      resolution: { status: 'ok', methods: ['did:key', 'did:jwk', 'did:web', 'did:webvh'], inFlight: 0, maxConcurrency: 64 },
      storage: { status: 'ok', storage: 'file', schema: 'current', schemaVersion: SCHEMA_VERSION },
      cache: { status: 'ok' },
      rateLimit: { status: 'ok', perMinute: 100000 },
      monitoring: { status: 'disabled' },
      claims: { status: 'ok', recheckIntervalSeconds: 86400, periodSeconds: 60 },
      console: { status: 'disabled' },
      billing: { status: 'disabled' },
    });
  });
});

describe('GET /v1/resolve/{did}', () => {
  it('answers an EnrichedResolution with every documented member; cached false, then true; noCache=true refreshes', async () => {
    const did = freshDidKey();
    const first = expectJson(await get(`/v1/resolve/${did}`), 200);
    expect(Object.keys(first).sort()).toEqual(
      [
        'cached',
        'did',
        'didDocument',
        'didDocumentMetadata',
        'didResolutionMetadata',
        'dimensions',
        'evidence',
        'graph',
        'limitations',
        'method',
        'observedAt',
        'resolver',
        'trace',
        'verdict',
      ].sort(),
    );
    expect(first).toMatchObject({ did, method: 'key', cached: false, resolver: { name: 'svc', version: VERSION } });
    expect(first.didDocument.id).toBe(did);
    expect(first.didResolutionMetadata.contentType).toBe('application/did');
    expect(first.didResolutionMetadata.retrieved).toMatch(RFC3339_SECONDS);
    expect(Number.isInteger(first.didResolutionMetadata.durationMs)).toBe(true);
    expect(first.didDocumentMetadata).toEqual({});
    expect(first.verdict.outcome).toBe('RESOLVED');
    expect(typeof first.verdict.headline).toBe('string');
    expect(Array.isArray(first.verdict.statements)).toBe(true);
    expect(first.dimensions.map((d: { id: string }) => d.id)).toEqual(['integrity', 'keys', 'control', 'origin', 'transport', 'history', 'organization']);
    for (const d of first.dimensions) expect(Object.keys(d).sort()).toEqual(['doesNotProve', 'id', 'label', 'proves', 'state', 'statement']);
    expect(first.dimensions.find((d: { id: string }) => d.id === 'organization').state).toBe('NOT_ESTABLISHED');
    expect(Object.keys(first.evidence)).toEqual(expect.arrayContaining(['source', 'document', 'keys', 'services', 'domainBinding', 'tls', 'history']));
    expect(Array.isArray(first.graph.nodes) && Array.isArray(first.graph.edges)).toBe(true);
    expect(first.trace.map((s: { stage: string }) => s.stage)).toEqual([
      'syntax.parse',
      'document.derive',
      'document.inspect',
      'crypto.validate_keys',
      'evidence.evaluate',
    ]);
    expect(first.limitations.length).toBeGreaterThan(0);
    expect(first.observedAt).toMatch(RFC3339_SECONDS);

    const second = expectJson(await get(`/v1/resolve/${did}`), 200);
    expect(second.cached).toBe(true);
    expect(second.didDocument).toEqual(first.didDocument);

    const fresh = expectJson(await get(`/v1/resolve/${did}?noCache=true`), 200);
    expect(fresh.cached).toBe(false);
  });

  it('takes the identifier raw or fully percent-encoded', async () => {
    const did = freshDidKey();
    const raw = expectJson(await get(`/v1/resolve/${did}?noCache=true`), 200);
    const encoded = expectJson(await get(`/v1/resolve/${encodeURIComponent(did)}?noCache=true`), 200);
    expect(raw.did).toBe(did);
    expect(encoded.did).toBe(did);
    expect(encoded.didDocument).toEqual(raw.didDocument);
  });

  it('decodes a did:web with a port exactly once, raw (%3A) or fully encoded (%253A)', async () => {
    const did = host.did('port');
    host.publish(did);
    expect(did).toBe(`did:web:localhost%3A${host.server.port}:port`);
    const raw = expectJson(await get(`/v1/resolve/${did}?noCache=true`), 200);
    const encoded = expectJson(await get(`/v1/resolve/did%3Aweb%3Alocalhost%253A${host.server.port}%3Aport?noCache=true`), 200);
    expect(encodeURIComponent(did)).toBe(`did%3Aweb%3Alocalhost%253A${host.server.port}%3Aport`);
    for (const result of [raw, encoded]) {
      expect(result.did).toBe(did);
      expect(result.didDocument.id).toBe(did);
      expect(result.evidence.source.url).toBe(`https://localhost:${host.server.port}/port/did.json`);
    }
  });

  it('not-a-did: 400 INVALID_DID with the W3C type and a trace ending in a failed syntax.parse', async () => {
    const problem = expectProblem(await get('/v1/resolve/not-a-did'), 400, 'INVALID_DID');
    expect(problem.type).toBe(W3C_TYPE('INVALID_DID'));
    expect(problem.title).toBe('Invalid DID');
    expect(problem.trace.at(-1)).toMatchObject({ stage: 'syntax.parse', status: 'FAIL' });
  });

  it('did:example: 501 METHOD_NOT_SUPPORTED with the failing syntax.parse stage in the trace', async () => {
    const problem = expectProblem(await get('/v1/resolve/did:example:123'), 501, 'METHOD_NOT_SUPPORTED');
    expect(problem.type).toBe(W3C_TYPE('METHOD_NOT_SUPPORTED'));
    expect(problem.trace).toEqual([expect.objectContaining({ stage: 'syntax.parse', status: 'FAIL' })]);
  });

  it('options: unknown → 400 INVALID_OPTIONS; noCache=maybe → 400; versionId on did:key → 400', async () => {
    const did = freshDidKey();
    const unknown = expectProblem(await get(`/v1/resolve/${did}?fresh=true`), 400, 'INVALID_OPTIONS');
    expect(unknown.type).toBe(W3C_TYPE('INVALID_OPTIONS'));
    expect(unknown.detail).toContain('fresh');
    expectProblem(await get(`/v1/resolve/${did}?noCache=maybe`), 400, 'INVALID_OPTIONS');
    expectProblem(await get(`/v1/resolve/${did}?noCache=true&noCache=false`), 400, 'INVALID_OPTIONS');
    const versioned = expectProblem(await get(`/v1/resolve/${did}?versionId=1-abc`), 400, 'INVALID_OPTIONS');
    expect(versioned.trace.at(-1)).toMatchObject({ stage: 'syntax.parse', status: 'FAIL' });
  });

  it('did:web whose host answers 404: 404 NOT_FOUND with the failing fetch in the trace', async () => {
    const problem = expectProblem(await get(`/v1/resolve/${host.did('absent')}?noCache=true`), 404, 'NOT_FOUND');
    expect(problem.type).toBe(W3C_TYPE('NOT_FOUND'));
    expect(problem.trace.at(-1)).toMatchObject({ stage: 'web.fetch', status: 'FAIL' });
  });

  it('did:web whose document names another DID: 422 INVALID_DID_DOCUMENT', async () => {
    const did = host.did('mismatch');
    host.publish(did, didDocument(host.did('someone-else'), host.key));
    const problem = expectProblem(await get(`/v1/resolve/${did}?noCache=true`), 422, 'INVALID_DID_DOCUMENT');
    expect(problem.type).toBe(W3C_TYPE('INVALID_DID_DOCUMENT'));
    expect(problem.trace.at(-1)).toMatchObject({ stage: 'document.parse', status: 'FAIL' });
  });
});

describe('GET /v1/fast-verify/did/{did}', () => {
  it('answers exactly the documented members; the second call is served from the cache', async () => {
    const did = freshDidKey();
    const first = expectJson(await get(`/v1/fast-verify/did/${did}`), 200);
    expect(Object.keys(first)).toEqual([
      'did',
      'resolved',
      'outcome',
      'headline',
      'statements',
      'dimensions',
      'keys',
      'domainBinding',
      'documentSha256',
      'observedAt',
      'cached',
    ]);
    expect(first).toMatchObject({ did, resolved: true, outcome: 'RESOLVED', domainBinding: null, cached: false });
    expect(first.documentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.dimensions).toHaveLength(7);
    for (const d of first.dimensions) expect(Object.keys(d)).toEqual(['id', 'state']);
    expect(first.keys.length).toBe(2);
    for (const k of first.keys) expect(Object.keys(k)).toEqual(['id', 'curve', 'status', 'relationships', 'jwkThumbprint']);
    expect(first.keys.map((k: { curve: string }) => k.curve)).toEqual(['Ed25519', 'X25519']);

    const second = expectJson(await get(`/v1/fast-verify/did/${did}`), 200);
    expect(second.cached).toBe(true);
    expect(second.documentSha256).toBe(first.documentSha256);
  });

  it('a problem is a problem here too', async () => {
    expectProblem(await get('/v1/fast-verify/did/not-a-did'), 400, 'INVALID_DID');
  });
});

describe('GET /v1/graph/{did}', () => {
  it('answers {did, observedAt, verdict, nodes, edges}', async () => {
    const did = host.did('graph');
    host.publish(did);
    const body = expectJson(await get(`/v1/graph/${encodeURIComponent(did)}?noCache=true`), 200);
    expect(Object.keys(body)).toEqual(['did', 'observedAt', 'verdict', 'nodes', 'edges']);
    expect(body.did).toBe(did);
    expect(body.observedAt).toMatch(RFC3339_SECONDS);
    expect(body.verdict.outcome).toMatch(/^RESOLVED/);
    const kinds = new Set(body.nodes.map((n: { kind: string }) => n.kind));
    for (const kind of ['subject', 'document', 'key']) expect(kinds).toContain(kind);
    expect(body.nodes.some((n: { id: string }) => n.id === `${did}#key-1`)).toBe(true);
    for (const edge of body.edges) {
      expect(Object.keys(edge).sort()).toEqual(['from', 'relation', 'state', 'to']);
      expect(['VERIFIED', 'OBSERVED', 'DECLARED', 'FAILED']).toContain(edge.state);
    }
  });
});

describe('routing, methods and CORS', () => {
  it('an unknown route is a 404 NOT_FOUND problem', async () => {
    const problem = expectProblem(await get('/v1/nothing-here'), 404, 'NOT_FOUND');
    expect(problem.type).toBe(W3C_TYPE('NOT_FOUND'));
  });

  it('DELETE /v1/resolve/x: 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const answer = await get('/v1/resolve/x', { method: 'DELETE' });
    const problem = expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
    expect(problem.type).toBe('urn:svc:problems#METHOD_NOT_ALLOWED');
    expect(answer.header('allow').split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('OPTIONS preflight on /v1/resolve/x: 204 with the allowed methods', async () => {
    const answer = await get('/v1/resolve/x', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'accept' },
    });
    expect(answer.status).toBe(204);
    expectCommonHeaders(answer);
    expect(answer.header('access-control-allow-methods').split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS']));
    expect(answer.header('access-control-allow-headers')).toBe('accept');
    expect(answer.text).toBe('');
  });

  it('OPTIONS on an unknown path is a 404 problem', async () => {
    expectProblem(await get('/v1/nothing-here', { method: 'OPTIONS' }), 404, 'NOT_FOUND');
  });
});

describe('the store shared with the CLI', () => {
  it('svc resolve --db <the daemon database> shows in the daemon history', async () => {
    const did = freshDidKey();
    const empty = expectJson(await get(`/v1/history/${did}`), 200);
    expect(empty.count).toBe(0);

    const run = await svc(['resolve', did, '--db', daemon.dbPath, '--json'], cleanEnv());
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const resolved = JSON.parse(run.stdout);

    const history = expectJson(await get(`/v1/history/${did}`), 200);
    expect(history).toMatchObject({ did, count: 1 });
    expect(history.history).toEqual([
      expect.objectContaining({ did, documentHash: resolved.evidence.document.jcsSha256, seenCount: 1, resolverVersion: VERSION }),
    ]);
  });
});
