/**
 * DID URL dereferencing against a real loopback HTTPS host: services of a did:web
 * (string, array and map endpoints), relativeRef joining and its refusals, fragments of
 * relative ids, and the version selectors of a did:webvh. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../../src/core/dereference/index.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { Runtime } from '../../src/core/runtime.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { problemOf } from '../support/problems.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

let host: DidWebHost;
let runtime: Runtime;
let did: string;

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com'] });
  runtime = host.runtime();
  did = host.did('deref');
  host.publish(did, {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1', 'https://w3id.org/security/jwk/v1'],
    id: did,
    verificationMethod: [{ id: '#key-1', type: 'Multikey', controller: did, publicKeyMultibase: host.key.multikey }],
    authentication: ['#key-1'],
    assertionMethod: [{ id: '#embedded-1', type: 'JsonWebKey', controller: did, publicKeyJwk: host.key.publicJwk }],
    service: [
      { id: '#files', type: 'LinkedDomains', serviceEndpoint: 'https://files.example/base/' },
      { id: `${did}#mirrors`, type: 'Mirrors', serviceEndpoint: ['https://a.example/one', { uri: 'https://ignored.example/' }, 'https://b.example/two/'] },
      { id: '#didcomm', type: 'DIDCommMessaging', serviceEndpoint: { uri: 'https://m.example/', accept: ['didcomm/v2'] } },
      { id: '#mail', type: 'Mail', serviceEndpoint: 'mailto:someone@example.com' },
      { id: '#anchored', type: 'Page', serviceEndpoint: 'https://f.example/page#top' },
      { id: '#plain', type: 'Page', serviceEndpoint: 'http://plain.example' },
    ],
  });
});
afterAll(async () => {
  await host.close();
});

async function uriList(didUrl: string): Promise<unknown> {
  const result = await dereference(didUrl, runtime);
  expect(result.dereferencingMetadata.contentType).toBe('text/uri-list');
  return result.contentStream;
}

describe('?service= on a did:web', () => {
  it('gives the endpoint URL as text/uri-list, with the document metadata', async () => {
    const result = await dereference(`${did}?service=files`, runtime);
    expect(result['@context']).toBe('https://w3id.org/did-resolution/v1');
    expect(result.dereferencingMetadata.contentType).toBe('text/uri-list');
    expect(result.dereferencingMetadata.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(result.contentStream).toBe('https://files.example/base/');
    expect(result.contentMetadata).toEqual((await resolve(did, runtime)).didDocumentMetadata);
  });

  it('names the service by fragment, by #fragment or by its absolute id', async () => {
    expect(await uriList(`${did}?service=%23files`)).toBe('https://files.example/base/');
    expect(await uriList(`${did}?service=${encodeURIComponent(`${did}#files`)}`)).toBe('https://files.example/base/');
    expect(await uriList(`${did}?service=mirrors`)).toBe('https://a.example/one\r\nhttps://b.example/two/');
  });

  it('joins relativeRef by RFC 3986 reference resolution', async () => {
    expect(await uriList(`${did}?service=files&relativeRef=/path/a?b=c`)).toBe('https://files.example/path/a?b=c');
    expect(await uriList(`${did}?service=files&relativeRef=%2Fpath%2Fa%3Fb%3Dc`)).toBe('https://files.example/path/a?b=c');
    expect(await uriList(`${did}?service=files&relativeRef=path/a`)).toBe('https://files.example/base/path/a');
    expect(await uriList(`${did}?service=files&relativeRef=%3Fq%3D1`)).toBe('https://files.example/base/?q=1');
    expect(await uriList(`${did}?service=mirrors&relativeRef=x`)).toBe('https://a.example/x\r\nhttps://b.example/two/x');
  });

  it('appends the DID URL fragment to the endpoint URL', async () => {
    expect(await uriList(`${did}?service=files#intro`)).toBe('https://files.example/base/#intro');
    expect(await uriList(`${did}?service=files&relativeRef=/doc#intro`)).toBe('https://files.example/doc#intro');
    expect(await uriList(`${did}?service=files&relativeRef=%2Fdoc%23sec`)).toBe('https://files.example/doc#sec');
    expect(await uriList(`${did}?service=anchored`)).toBe('https://f.example/page#top');
    const twice = await problemOf(dereference(`${did}?service=anchored#x`, runtime));
    expect(twice.code).toBe('INVALID_DID_URL');
    expect((await problemOf(dereference(`${did}?service=files&relativeRef=%2Fdoc%23sec#x`, runtime))).code).toBe('INVALID_DID_URL');
  });

  it('accepts http endpoints, normalised by the URL parser', async () => {
    expect(await uriList(`${did}?service=plain`)).toBe('http://plain.example/');
  });

  it.each([
    ['../x'],
    ['./x'],
    ['%2e%2e/x'],
    ['%252e%252e/x'],
    ['/a/%2E%2E/%2E%2E/x'],
    ['//evil.example/x'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
  ])('refuses relativeRef=%s with INVALID_DID_URL', async (ref) => {
    const problem = await problemOf(dereference(`${did}?service=files&relativeRef=${ref}`, runtime));
    expect(problem.code).toBe('INVALID_DID_URL');
    expect(problem.detail).toContain('relativeRef');
  });

  it('a map endpoint is FEATURE_NOT_SUPPORTED; no http(s) URL or no such service is NOT_FOUND', async () => {
    const map = await problemOf(dereference(`${did}?service=didcomm`, runtime));
    expect(map.code).toBe('FEATURE_NOT_SUPPORTED');
    expect(map.detail).toContain(`${did}#didcomm`);
    const mail = await problemOf(dereference(`${did}?service=mail`, runtime));
    expect(mail.code).toBe('NOT_FOUND');
    expect(mail.detail).toContain('no http(s) URL endpoint');
    const absent = await problemOf(dereference(`${did}?service=nope`, runtime));
    expect(absent.code).toBe('NOT_FOUND');
    expect(absent.detail).toContain('"nope"');
  });

  it('version selectors on did:web are INVALID_OPTIONS from the resolution', async () => {
    const problem = await problemOf(dereference(`${did}?service=files&versionNumber=1`, runtime));
    expect(problem.code).toBe('INVALID_OPTIONS');
    expect(problem.trace?.[0]).toMatchObject({ stage: 'syntax.parse', status: 'FAIL' });
  });
});

describe('#fragment on a did:web with relative ids', () => {
  it('finds #key-1 declared as a relative id, and gives it its absolute id', async () => {
    const result = await dereference(`${did}#key-1`, runtime);
    expect(result.dereferencingMetadata.contentType).toBe('application/json');
    expect(result.contentStream).toEqual({ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: host.key.multikey });
  });

  it('finds a method embedded under a relationship, and a service', async () => {
    expect((await dereference(`${did}#embedded-1`, runtime)).contentStream).toEqual({
      id: `${did}#embedded-1`,
      type: 'JsonWebKey',
      controller: did,
      publicKeyJwk: host.key.publicJwk,
    });
    expect((await dereference(`${did}#mirrors`, runtime)).contentStream).toMatchObject({ id: `${did}#mirrors`, type: 'Mirrors' });
    expect((await dereference(`${did}#files`, runtime)).contentStream).toEqual({
      id: `${did}#files`,
      type: 'LinkedDomains',
      serviceEndpoint: 'https://files.example/base/',
    });
  });

  it('does not hand out the cached document itself', async () => {
    const first = (await dereference(`${did}#key-1`, runtime)).contentStream as Record<string, unknown>;
    first['type'] = 'changed';
    const again = (await dereference(`${did}#key-1`, runtime)).contentStream as Record<string, unknown>;
    expect(again['type']).toBe('Multikey');
  });

  it('an id absent from the document is NOT_FOUND', async () => {
    const problem = await problemOf(dereference(`${did}#key-2`, runtime));
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.detail).toContain(`${did}#key-2`);
  });
});

describe('did:webvh version selectors', () => {
  let log: WebvhTestLog;
  let webvh: Runtime;

  beforeAll(() => {
    log = createWebvhLog({ time: '2024-01-01T00:00:00Z' });
    log.append({
      time: '2024-02-01T00:00:00Z',
      state: (d) => ({ ...d, verificationMethod: [{ id: '#key-2', type: 'Multikey', controller: d['id'], publicKeyMultibase: host.key.multikey }] }),
    });
    host.server.route('/.well-known/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
    host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
    webvh = host.runtime({ lookup: tableLookup({ 'example.com': ['127.0.0.1'] }), connectTo: (_h, port) => (port === 443 ? host.server.port : undefined) });
  });

  it('?versionNumber=1 gives that version as application/did, with its metadata', async () => {
    const result = await dereference(`${log.did}?versionNumber=1`, webvh);
    expect(result.dereferencingMetadata.contentType).toBe('application/did');
    const document = result.contentStream as Record<string, unknown>;
    expect(document['id']).toBe(log.did);
    expect(document['verificationMethod']).toBeUndefined();
    expect(result.contentMetadata).toMatchObject({ versionNumber: 1, versionId: log.entries[0]!['versionId'] });
  });

  it('versionId and versionTime select the same way; no selector gives the latest', async () => {
    const byId = await dereference(`${log.did}?versionId=${log.entries[0]!['versionId']}`, webvh);
    expect(byId.contentMetadata).toMatchObject({ versionNumber: 1 });
    const byTime = await dereference(`${log.did}?versionTime=2024-01-15T00:00:00Z`, webvh);
    expect(byTime.contentMetadata).toMatchObject({ versionNumber: 1 });
    const latest = await dereference(log.did, webvh);
    expect(latest.contentMetadata).toMatchObject({ versionNumber: 2 });
    expect((latest.contentStream as Record<string, unknown>)['verificationMethod']).toHaveLength(1);
  });

  it('a fragment with a version selector looks in that version', async () => {
    const now = await dereference(`${log.did}#key-2`, webvh);
    expect(now.contentStream).toMatchObject({ id: `${log.did}#key-2` });
    const then = await problemOf(dereference(`${log.did}?versionNumber=1#key-2`, webvh));
    expect(then.code).toBe('NOT_FOUND');
    const inV2 = await dereference(`${log.did}?versionNumber=2#key-2`, webvh);
    expect(inV2.contentMetadata).toMatchObject({ versionNumber: 2 });
  });

  it('the implicit #files service joins relativeRef below the DID location', async () => {
    const result = await dereference(`${log.did}?service=files&relativeRef=%2Fresume.pdf`, webvh);
    expect(result.contentStream).toBe('https://example.com/resume.pdf');
    expect(await dereference(`${log.did}?service=whois`, webvh)).toMatchObject({ contentStream: 'https://example.com/whois.vp' });
  });

  it('a version that does not exist is the resolution’s NOT_FOUND', async () => {
    const problem = await problemOf(dereference(`${log.did}?versionNumber=3`, webvh));
    expect(problem.code).toBe('NOT_FOUND');
  });
});
