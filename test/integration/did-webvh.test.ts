/**
 * did:webvh end to end over a real loopback HTTPS host: fetch limits and failures of the log and
 * the witness file, the trace, the dimensions and metadata of a result, caching by ttl and the
 * reuse of a verified prefix when a log grew.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import { DID_LOG_MAX_BYTES } from '../../src/core/methods/webvh.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { problemOf } from '../support/problems.js';
import { generateTestKey } from '../support/signing.js';
import { createWebvhLog, witnessFileText, type WebvhTestLog } from '../support/webvh-log.js';

let host: DidWebHost;
let runtime: Runtime;

function freshRuntime(): Runtime {
  return host.runtime({ lookup: tableLookup({ 'example.com': ['127.0.0.1'] }), connectTo: (_h, port) => (port === 443 ? host.server.port : undefined) });
}

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com'] });
  runtime = freshRuntime();
});
afterAll(async () => {
  await host.close();
});

function publish(log: WebvhTestLog | string, witness?: string): void {
  host.server.route('/.well-known/did.jsonl', raw(typeof log === 'string' ? log : log.text(), { contentType: 'text/jsonl' }));
  host.server.route(
    '/.well-known/did-witness.json',
    witness === undefined ? raw('not found', { status: 404 }) : raw(witness, { contentType: 'application/json' }),
  );
}

function dimension(result: EnrichedResolution, id: string) {
  return result.dimensions.find((d) => d.id === id)!;
}

describe('did:webvh over HTTPS', () => {
  it('resolves a verified log: metadata, dimensions, history evidence and trace', async () => {
    const log = createWebvhLog({ params: { ttl: 300 } });
    log.append({ state: (d) => ({ ...d, alsoKnownAs: ['https://example.com'] }) });
    publish(log);
    const result = await resolve(log.did, runtime, { noCache: true });
    const [v1, v2] = log.entries;
    expect(result.didDocumentMetadata).toEqual({
      versionId: v2!['versionId'],
      versionNumber: 2,
      versionTime: v2!['versionTime'],
      created: v1!['versionTime'],
      updated: v2!['versionTime'],
      scid: log.scid,
      portable: false,
      deactivated: false,
      ttl: '300',
      witness: {},
      watchers: [],
      webvhMethod: 'did:webvh:1.0',
    });
    expect(result.didDocument['alsoKnownAs']).toEqual(['https://example.com']);
    expect((result.didDocument['service'] as Array<{ id: string; serviceEndpoint: string }>).map((s) => [s.id, s.serviceEndpoint])).toEqual([
      ['#files', 'https://example.com/'],
      ['#whois', 'https://example.com/whois.vp'],
    ]);
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(dimension(result, 'integrity').state).toBe('SELF_CERTIFYING');
    expect(dimension(result, 'control').state).toBe('ESTABLISHED');
    expect(dimension(result, 'history').state).toBe('ESTABLISHED');
    expect(dimension(result, 'history').statement).toContain('All 2 versions of the log verify');
    expect(dimension(result, 'transport').state).toBe('ESTABLISHED');
    expect(result.evidence.source).toMatchObject({
      kind: 'HTTPS',
      url: 'https://example.com/.well-known/did.jsonl',
      contentType: 'text/jsonl',
      httpStatus: 200,
    });
    expect(result.evidence.history).toMatchObject({ scid: log.scid, verifiedEntries: 2, selectedVersion: 2, failure: null });
    expect(result.trace.map((s) => s.stage)).toEqual([
      'syntax.parse',
      'dns.resolve',
      'tls.handshake',
      'web.fetch',
      'webvh.verify_log',
      'webvh.verify_witnesses',
      'webvh.select_version',
      'linkage.fetch',
      'document.inspect',
      'crypto.validate_keys',
      'whois.fetch',
      'evidence.evaluate',
    ]);
    expect(result.limitations.join(' ')).toContain('cannot show versions that were never published');

    const v1result = await resolve(log.did, runtime, { noCache: true, versionNumber: 1 });
    expect(v1result.didDocumentMetadata).toMatchObject({ versionNumber: 1, nextVersionId: v2!['versionId'], updated: v2!['versionTime'] });
  });

  it('serves an earlier version of a log broken later as a result with FAILED dimensions', async () => {
    const log = createWebvhLog();
    log.append({ key: generateTestKey() });
    publish(log);
    const result = await resolve(log.did, runtime, { versionNumber: 1 });
    expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
    expect(dimension(result, 'control').state).toBe('FAILED');
    expect(dimension(result, 'history').state).toBe('FAILED');
    expect(dimension(result, 'integrity').state).toBe('SELF_CERTIFYING');
    expect(dimension(result, 'history').statement).toContain('entry 2');
    expect(result.limitations.join(' ')).toContain("not necessarily the DID's current state");
    // Not cached: a DID that fails verification is looked at again next time.
    const again = await resolve(log.did, runtime, { versionNumber: 1 });
    expect(again.cached).toBe(false);

    const problem = await problemOf(resolve(log.did, runtime));
    expect(problem.code).toBe('INVALID_DID_DOCUMENT');
    expect(problem.trace?.find((s) => s.status === 'FAIL')?.stage).toBe('webvh.select_version');
  });

  it('a chain break is an integrity failure', async () => {
    const log = createWebvhLog();
    log.append({});
    log.append({ afterSign: (e) => (e['state'].alsoKnownAs = ['did:web:evil.example']) });
    publish(log);
    const result = await resolve(log.did, runtime, { noCache: true, versionNumber: 2 });
    expect(dimension(result, 'integrity').state).toBe('FAILED');
    expect(dimension(result, 'control').state).toBe('ESTABLISHED');
  });

  it('reports a deactivated DID as DEACTIVATED', async () => {
    const log = createWebvhLog();
    log.append({ params: { deactivated: true, updateKeys: [] } });
    publish(log);
    const result = await resolve(log.did, runtime, { noCache: true });
    expect(result.verdict.outcome).toBe('DEACTIVATED');
    expect(result.didDocumentMetadata['deactivated']).toBe(true);
  });

  it('fetches the witness file only when an entry needs witnessing', async () => {
    const w1 = generateTestKey();
    const plain = createWebvhLog();
    publish(plain);
    const before = host.server.requests.length;
    await resolve(plain.did, runtime, { noCache: true });
    expect(host.server.requests.slice(before).some((r) => r.includes('did-witness.json'))).toBe(false);

    const witnessed = createWebvhLog({ params: { witness: { threshold: 1, witnesses: [{ id: `did:key:${w1.multikey}` }] } } });
    publish(witnessed, witnessFileText([{ versionId: witnessed.entries[0]!['versionId'], by: [w1] }]));
    const result = await resolve(witnessed.did, runtime, { noCache: true });
    expect(result.evidence.history!.witness).toMatchObject({
      status: 'FOUND',
      acceptedProofs: 1,
      httpStatus: 200,
      url: 'https://example.com/.well-known/did-witness.json',
    });
    expect(result.didDocumentMetadata['witness']).toEqual({ threshold: '1', witnesses: [{ id: `did:key:${w1.multikey}` }] });
    expect(result.trace.map((s) => s.stage)).toContain('webvh.fetch_witnesses');
    expect(result.limitations.join(' ')).toContain('Witnesses are did:key identifiers');

    host.server.route('/.well-known/did-witness.json', raw('[{"versionId": 1,'));
    const unreadable = await problemOf(resolve(witnessed.did, runtime, { noCache: true }));
    expect(unreadable.code).toBe('INVALID_DID_DOCUMENT');
    expect(unreadable.detail).toContain('the witness file is unreadable (the witness file is not valid JSON');

    host.server.route('/.well-known/did-witness.json', raw(Buffer.alloc(1024 * 1024 + 1, 0x20)));
    expect((await problemOf(resolve(witnessed.did, runtime, { noCache: true }))).code).toBe('PAYLOAD_TOO_LARGE');

    host.server.route('/.well-known/did-witness.json', raw('busy', { status: 503 }));
    const problem = await problemOf(resolve(witnessed.did, runtime, { noCache: true }));
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(problem.trace?.find((s) => s.status === 'FAIL')?.stage).toBe('webvh.fetch_witnesses');
  });

  it('answers NOT_FOUND, UPSTREAM_UNAVAILABLE, PAYLOAD_TOO_LARGE and INVALID_DID_DOCUMENT for bad logs', async () => {
    const log = createWebvhLog();
    host.server.route('/.well-known/did.jsonl', raw('gone', { status: 404 }));
    expect((await problemOf(resolve(log.did, runtime, { noCache: true }))).code).toBe('NOT_FOUND');
    host.server.route('/.well-known/did.jsonl', raw('oops', { status: 500 }));
    expect((await problemOf(resolve(log.did, runtime, { noCache: true }))).code).toBe('UPSTREAM_UNAVAILABLE');
    host.server.route('/.well-known/did.jsonl', raw(Buffer.alloc(DID_LOG_MAX_BYTES + 1, 0x20)));
    expect((await problemOf(resolve(log.did, runtime, { noCache: true }))).code).toBe('PAYLOAD_TOO_LARGE');
    for (const [body, detail] of [
      ['', 'is empty'],
      [Buffer.from([0xff, 0xfe, 0x7b]), 'not valid UTF-8'],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(log.text())]), 'byte order mark'],
      ['[1,2,3]\n', 'entry 1 fails (json)'],
    ] as const) {
      host.server.route('/.well-known/did.jsonl', raw(body));
      const problem = await problemOf(resolve(log.did, runtime, { noCache: true }));
      expect(problem.code).toBe('INVALID_DID_DOCUMENT');
      expect(problem.detail).toContain(detail);
    }
  });

  it('refuses a bad versionTime before fetching anything', async () => {
    const log = createWebvhLog();
    const before = host.server.requests.length;
    const problem = await problemOf(resolve(log.did, runtime, { versionTime: 'last tuesday' }));
    expect(problem.code).toBe('INVALID_OPTIONS');
    expect(host.server.requests.length).toBe(before);
  });

  it('is blocked by the egress policy without an allowance for loopback', async () => {
    const log = createWebvhLog();
    publish(log);
    const strict = host.runtime({
      allow: [],
      lookup: tableLookup({ 'example.com': ['127.0.0.1'] }),
      connectTo: (_h, port) => (port === 443 ? host.server.port : undefined),
    });
    expect((await problemOf(resolve(log.did, strict))).code).toBe('EGRESS_BLOCKED');
  });

  it("caches a result for the log's ttl, and re-verifies only the new entries of a grown log", async () => {
    const log = createWebvhLog({ params: { ttl: 0 } });
    for (let i = 0; i < 4; i++) log.append({});
    publish(log);
    const own = freshRuntime();
    const first = await resolve(log.did, own);
    expect(first.evidence.history!.reusedEntries).toBe(0);
    log.append({});
    publish(log);
    const second = await resolve(log.did, own);
    expect(second.cached).toBe(false); // ttl 0: never kept
    expect(second.evidence.history!.reusedEntries).toBe(5);
    expect(second.didDocumentMetadata['versionNumber']).toBe(6);
    expect(second.trace.find((s) => s.stage === 'webvh.verify_log')!.detail).toContain('5 reused');

    const cachedLog = createWebvhLog({ params: { ttl: 120 } });
    publish(cachedLog);
    await resolve(cachedLog.did, own);
    expect((await resolve(cachedLog.did, own)).cached).toBe(true);
  });
});
