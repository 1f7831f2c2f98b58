/**
 * `svc serve` over real HTTP: the W3C DID Resolution HTTPS binding row by row —
 * content negotiation, 406, 410 for a deactivated did:webvh, errors embedded in a resolution
 * result with their /1.0 statuses (docs/reference/problems.md), POST with resolution options — the
 * 410 of /v1/resolve for a deactivated DID, and /v1/dereference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonHandle } from '../support/daemon.js';
import { call, DID_RESOLUTION_TYPE, DID_TYPE, expectJson, expectProblem, PROBLEM_TYPE, startInProcessDaemonFor, W3C_TYPE } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { didDocument, generateTestKey } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

const DID_RESOLUTION_CONTEXT = 'https://w3id.org/did-resolution/v1';
const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let host: DidWebHost;
let daemon: DaemonHandle;
/** A did:webvh on the test host whose last entry deactivates it. */
let deactivated: WebvhTestLog;
/** A did:web with two services, for ?service= dereferencing. */
let webDid: string;

beforeAll(async () => {
  host = await startDidWebHost();
  deactivated = createWebvhLog({ domain: `localhost%3A${host.server.port}` });
  deactivated.append({ params: { deactivated: true, updateKeys: [] } });
  host.server.route('/.well-known/did.jsonl', raw(deactivated.text(), { contentType: 'text/jsonl' }));
  webDid = host.did('services');
  host.publish(webDid, {
    ...didDocument(webDid, host.key),
    service: [
      { id: '#files', type: 'LinkedDomains', serviceEndpoint: ['https://files.example.com/base/', 'https://mirror.example.com/x/y'] },
      { id: `${webDid}#home`, type: 'LinkedDomains', serviceEndpoint: 'https://home.example.com/' },
    ],
  });
  daemon = await startInProcessDaemonFor(host);
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

const get = (path: string, init?: RequestInit) => call(`${daemon.url}${path}`, init);
const withAccept = (accept: string | null): RequestInit => (accept === null ? {} : { headers: { accept } });

function freshDidKey(): string {
  return `did:key:${generateTestKey('EdDSA').multikey}`;
}

/** The DID document svc resolves for `did` (via /v1, so the /1.0 bodies can be compared with it). */
async function documentOf(did: string): Promise<Record<string, unknown>> {
  return expectJson(await get(`/v1/resolve/${encodeURIComponent(did)}`), 200).didDocument;
}

/** An error of the /1.0 binding: the status, application/did-resolution, the problem embedded. */
function expectEmbedded(answer: Awaited<ReturnType<typeof call>>, status: number, code: string): any {
  const body = expectJson(answer, status, DID_RESOLUTION_TYPE);
  expect(Object.keys(body)).toEqual(['@context', 'didDocument', 'didResolutionMetadata', 'didDocumentMetadata']);
  expect(body['@context']).toBe(DID_RESOLUTION_CONTEXT);
  expect(body.didDocument).toBeNull();
  expect(body.didDocumentMetadata).toEqual({});
  expect(body.didResolutionMetadata.error).toMatchObject({ type: W3C_TYPE(code), code, status });
  expect(body.didResolutionMetadata.error.trace).toBeUndefined();
  return body;
}

describe('GET /1.0/identifiers/{did}: the binding, every row', () => {
  const RESULT_ACCEPTS = ['application/did-resolution', 'application/ld+json;profile="https://w3id.org/did-resolution"'];
  const DOCUMENT_ACCEPTS: Array<string | null> = [
    null,
    '*/*',
    'application/json',
    'application/did',
    'application/did+json',
    'application/did+ld+json',
    'application/ld+json',
  ];

  it.each(RESULT_ACCEPTS)('Accept: %s → 200 application/did-resolution with the resolution result', async (accept) => {
    const did = freshDidKey();
    const document = await documentOf(did);
    const body = expectJson(await get(`/1.0/identifiers/${did}`, withAccept(accept)), 200, DID_RESOLUTION_TYPE);
    expect(Object.keys(body)).toEqual(['@context', 'didDocument', 'didResolutionMetadata', 'didDocumentMetadata']);
    expect(body['@context']).toBe(DID_RESOLUTION_CONTEXT);
    expect(body.didDocument).toEqual(document);
    expect(body.didResolutionMetadata).toMatchObject({ contentType: 'application/did' });
    expect(body.didResolutionMetadata.retrieved).toMatch(RFC3339_SECONDS);
    expect(body.didDocumentMetadata).toEqual({});
  });

  it.each(DOCUMENT_ACCEPTS)('Accept: %s → 200 application/did with the document only', async (accept) => {
    const did = freshDidKey();
    const document = await documentOf(did);
    const body = expectJson(await get(`/1.0/identifiers/${encodeURIComponent(did)}`, withAccept(accept)), 200, DID_TYPE);
    expect(body).toEqual(document);
  });

  it('a cache hit asked for either representation in turn answers each as a fresh result does (its bodies kept per representation)', async () => {
    const did = freshDidKey();
    const fresh = expectJson(await get(`/1.0/identifiers/${did}?noCache=true`, withAccept('application/did-resolution')), 200, DID_RESOLUTION_TYPE);
    for (let round = 0; round < 3; round++) {
      const result = expectJson(await get(`/1.0/identifiers/${did}`, withAccept('application/did-resolution')), 200, DID_RESOLUTION_TYPE);
      expect(result.didDocument).toEqual(fresh.didDocument);
      expect(Object.keys(result)).toEqual(['@context', 'didDocument', 'didResolutionMetadata', 'didDocumentMetadata']);
      expect(expectJson(await get(`/1.0/identifiers/${did}`, withAccept('application/did')), 200, DID_TYPE)).toEqual(fresh.didDocument);
    }
  });

  it('Accept: text/html → 406 application/problem+json REPRESENTATION_NOT_SUPPORTED', async () => {
    const problem = expectProblem(await get(`/1.0/identifiers/${freshDidKey()}`, withAccept('text/html')), 406, 'REPRESENTATION_NOT_SUPPORTED');
    expect(problem.type).toBe(W3C_TYPE('REPRESENTATION_NOT_SUPPORTED'));
  });

  it.each([null, 'application/did', 'application/did-resolution', '*/*'])(
    'a deactivated did:webvh → 410 application/did-resolution with the full result (Accept: %s)',
    async (accept) => {
      const body = expectJson(await get(`/1.0/identifiers/${deactivated.did}?noCache=true`, withAccept(accept)), 410, DID_RESOLUTION_TYPE);
      expect(Object.keys(body)).toEqual(['@context', 'didDocument', 'didResolutionMetadata', 'didDocumentMetadata']);
      expect(body.didDocument.id).toBe(deactivated.did);
      expect(body.didDocumentMetadata).toMatchObject({ deactivated: true, versionId: deactivated.entries[1]!['versionId'] });
    },
  );

  it('errors are embedded with the /1.0 statuses: INVALID_DID 400, METHOD_NOT_SUPPORTED 501', async () => {
    const invalid = expectEmbedded(await get('/1.0/identifiers/not-a-did'), 400, 'INVALID_DID');
    expect(invalid.didResolutionMetadata.error.type).toBe('https://www.w3.org/ns/did#INVALID_DID');
    expectEmbedded(await get('/1.0/identifiers/did:example:1', withAccept('application/did-resolution')), 501, 'METHOD_NOT_SUPPORTED');
  });

  it('a did:web whose host answers 404 → 404 NOT_FOUND embedded', async () => {
    expectEmbedded(await get(`/1.0/identifiers/${host.did('nowhere')}?noCache=true`), 404, 'NOT_FOUND');
  });

  it('an invalid DID document → 500 INVALID_DID_DOCUMENT embedded (422 on /v1)', async () => {
    const did = host.did('wrong-id');
    host.publish(did, didDocument(host.did('other'), host.key));
    expectEmbedded(await get(`/1.0/identifiers/${did}?noCache=true`), 500, 'INVALID_DID_DOCUMENT');
  });

  it('an unknown query option → 400 INVALID_OPTIONS embedded', async () => {
    expectEmbedded(await get(`/1.0/identifiers/${freshDidKey()}?fresh=1`), 400, 'INVALID_OPTIONS');
  });

  it('a DID URL is dereferenced: did#fragment → the verification method, fully encoded or raw (# as %23)', async () => {
    const did = freshDidKey();
    const fragment = did.slice('did:key:'.length);
    for (const path of [encodeURIComponent(`${did}#${fragment}`), `${did}%23${fragment}`]) {
      const body = expectJson(await get(`/1.0/identifiers/${path}`), 200);
      expect(body.dereferencingMetadata.contentType).toBe('application/json');
      expect(body.contentStream).toMatchObject({ id: `${did}#${fragment}`, type: 'Multikey' });
    }
  });

  it('Accept: application/did-url-dereferencing on did%23fragment → 200 with the full dereferencing result under that media type', async () => {
    const did = freshDidKey();
    const fragment = did.slice('did:key:'.length);
    const spec = expectJson(await get(`/1.0/identifiers/${did}%23${fragment}`), 200);
    const answer = await get(`/1.0/identifiers/${did}%23${fragment}`, withAccept('application/did-url-dereferencing'));
    const body = expectJson(answer, 200, 'application/did-url-dereferencing');
    expect(Object.keys(body)).toEqual(['@context', 'dereferencingMetadata', 'contentStream', 'contentMetadata']);
    expect(body['@context']).toBe(DID_RESOLUTION_CONTEXT);
    expect(body.dereferencingMetadata.contentType).toBe('application/json');
    expect(body.contentStream).toEqual(spec.contentStream);
    expect(body.contentStream).toMatchObject({ id: `${did}#${fragment}`, type: 'Multikey', controller: did });
    // Preferred by q over the content type; a wildcard alongside does not change it.
    expect(
      expectJson(
        await get(`/1.0/identifiers/${did}%23${fragment}`, withAccept('application/json;q=0.5, application/did-url-dereferencing')),
        200,
        'application/did-url-dereferencing',
      ),
    ).toEqual(body);
  });

  it("no Accept, application/json, */* or application/* keeps svc's own shape: the full result as application/json", async () => {
    const did = freshDidKey();
    const fragment = did.slice('did:key:'.length);
    for (const accept of [
      null,
      'application/json',
      '*/*',
      'application/*',
      'text/html;q=0.5, */*;q=0.1',
      'application/did-url-dereferencing;q=0.2, application/json',
    ]) {
      const body = expectJson(await get(`/1.0/identifiers/${did}%23${fragment}`, withAccept(accept)), 200);
      expect(Object.keys(body), String(accept)).toEqual(['@context', 'dereferencingMetadata', 'contentStream', 'contentMetadata']);
    }
  });

  it('a DID URL asked for in a media type it has not → 406 naming what it has', async () => {
    const did = freshDidKey();
    const fragment = did.slice('did:key:'.length);
    for (const accept of ['text/html', 'application/did-resolution', 'application/x-unsupported-did-representation-99999']) {
      const problem = expectProblem(await get(`/1.0/identifiers/${did}%23${fragment}`, withAccept(accept)), 406, 'REPRESENTATION_NOT_SUPPORTED');
      expect(problem.detail, accept).toContain('ask for application/did-url-dereferencing or application/json');
    }
  });

  it('a service endpoint (text/uri-list) asked for as application/did-url-dereferencing or text/uri-list → 303 to it, empty body', async () => {
    for (const accept of ['application/did-url-dereferencing', 'text/uri-list']) {
      for (const url of [encodeURIComponent(`${webDid}?service=home`), encodeURIComponent(`${webDid}?service=files&relativeRef=/a/b`)]) {
        const answer = await get(`/1.0/identifiers/${url}`, { headers: { accept }, redirect: 'manual' });
        expect(answer.status, `${accept} ${url}`).toBe(303);
        expect(answer.text).toBe('');
        expect(answer.header('location')).toBe(url.includes('home') ? 'https://home.example.com/' : 'https://files.example.com/a/b');
      }
    }
    // The default keeps svc's own shape: the full result, the endpoints in contentStream.
    const body = expectJson(await get(`/1.0/identifiers/${encodeURIComponent(`${webDid}?service=files`)}`), 200);
    expect(body.dereferencingMetadata.contentType).toBe('text/uri-list');
    expect(body.contentStream).toBe('https://files.example.com/base/\r\nhttps://mirror.example.com/x/y');
  });

  it("a versioned did:webvh DID URL asked for as application/did → that version's document alone", async () => {
    const url = encodeURIComponent(`${deactivated.did}?versionNumber=1`);
    const full = expectJson(await get(`/1.0/identifiers/${url}`, withAccept('application/did-url-dereferencing')), 200, 'application/did-url-dereferencing');
    expect(full.dereferencingMetadata.contentType).toBe('application/did');
    const document = expectJson(await get(`/1.0/identifiers/${url}`, withAccept('application/did')), 200, DID_TYPE);
    expect(document).toEqual(full.contentStream);
    expect(document.id).toBe(deactivated.did);
  });

  it('errors on a DID URL stay /1.0 errors: embedded in a resolution result, whatever was asked', async () => {
    const did = freshDidKey();
    const answer = await get(`/1.0/identifiers/${did}%23no-such-key`, withAccept('application/did-url-dereferencing'));
    expectEmbedded(answer, 404, 'NOT_FOUND');
  });

  it('a DID URL path → 501 FEATURE_NOT_SUPPORTED embedded', async () => {
    const answer = await get(`/1.0/identifiers/${encodeURIComponent(`${freshDidKey()}/some/path`)}`);
    expect(answer.status).toBe(501);
    expect(answer.json().didResolutionMetadata.error).toMatchObject({ code: 'FEATURE_NOT_SUPPORTED', status: 501 });
  });
});

describe('POST /1.0/identifiers/{did}', () => {
  it('takes the resolution options as a JSON body: {"noCache": true} → 200', async () => {
    const did = freshDidKey();
    const document = await documentOf(did);
    const answer = await get(`/1.0/identifiers/${did}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ noCache: true }),
    });
    expect(expectJson(answer, 200, DID_TYPE)).toEqual(document);
  });

  it('with an accept member and the result representation', async () => {
    const did = freshDidKey();
    const answer = await get(`/1.0/identifiers/${encodeURIComponent(did)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accept: 'application/did-resolution', noCache: true }),
    });
    const body = expectJson(answer, 200, DID_RESOLUTION_TYPE);
    expect(body.didDocument.id).toBe(did);
  });

  it('an unknown option → 400 INVALID_OPTIONS embedded', async () => {
    const answer = await get(`/1.0/identifiers/${freshDidKey()}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fresh": true}' });
    expectEmbedded(answer, 400, 'INVALID_OPTIONS');
  });
});

describe('GET /v1/resolve of a deactivated DID', () => {
  it('410 with the full EnrichedResolution, verdict DEACTIVATED', async () => {
    const body = expectJson(await get(`/v1/resolve/${deactivated.did}?noCache=true`), 410);
    expect(body).toMatchObject({ did: deactivated.did, method: 'webvh', cached: false, verdict: { outcome: 'DEACTIVATED' } });
    expect(body.didDocumentMetadata.deactivated).toBe(true);
    expect(body.dimensions).toHaveLength(7);
    expect(body.trace.map((s: { stage: string }) => s.stage)).toContain('webvh.verify_log');
  });

  it('a versioned resolution is answered but not recorded as an observation', async () => {
    await get(`/v1/resolve/${deactivated.did}?noCache=true`);
    const before = expectJson(await get(`/v1/history/${deactivated.did}`), 200);
    expect(before.count).toBeGreaterThan(0);
    const v1 = deactivated.entries[0]!['versionId'] as string;
    const body = expectJson(await get(`/v1/resolve/${deactivated.did}?versionId=${v1}&noCache=true`), 410);
    expect(body.didDocumentMetadata).toMatchObject({ versionId: v1, versionNumber: 1, nextVersionId: deactivated.entries[1]!['versionId'] });
    expect(expectJson(await get(`/v1/history/${deactivated.did}`), 200)).toEqual(before);
  });
});

describe('GET /v1/dereference/{didUrl}', () => {
  it('did:key…%23<fragment> → 200 with the verification method as contentStream', async () => {
    const did = freshDidKey();
    const fragment = did.slice('did:key:'.length);
    const document = await documentOf(did);
    for (const path of [`${did}%23${fragment}`, encodeURIComponent(`${did}#${fragment}`)]) {
      const body = expectJson(await get(`/v1/dereference/${path}`), 200);
      expect(Object.keys(body)).toEqual(['@context', 'dereferencingMetadata', 'contentStream', 'contentMetadata']);
      expect(body['@context']).toBe(DID_RESOLUTION_CONTEXT);
      expect(Object.keys(body.dereferencingMetadata)).toEqual(['contentType', 'retrieved']);
      expect(body.dereferencingMetadata.contentType).toBe('application/json');
      expect(body.dereferencingMetadata.retrieved).toMatch(RFC3339_SECONDS);
      expect(body.contentStream).toEqual((document['verificationMethod'] as Array<{ id: string }>).find((m) => m.id === `${did}#${fragment}`));
      expect(body.contentMetadata).toEqual({});
    }
  });

  it('a fully encoded DID URL is decoded once: %2523 is a literal %23, not a fragment delimiter', async () => {
    const did = freshDidKey();
    const fragment = did.slice('did:key:'.length);
    // Decoded once this is `did:key:z…%23z…`, which is no did:key (and no fragment lookup).
    const problem = expectProblem(await get(`/v1/dereference/${encodeURIComponent(did)}%2523${fragment}`), 400, 'INVALID_DID');
    expect(problem.detail).toContain('did:key');
  });

  it('?service=files&relativeRef=/a/b (the request query) → text/uri-list, each endpoint joined', async () => {
    const body = expectJson(await get(`/v1/dereference/${webDid}?service=files&relativeRef=/a/b`), 200);
    expect(body.dereferencingMetadata.contentType).toBe('text/uri-list');
    expect(body.contentStream).toBe('https://files.example.com/a/b\r\nhttps://mirror.example.com/a/b');
    const home = expectJson(await get(`/v1/dereference/${encodeURIComponent(webDid)}?service=home&relativeRef=docs%3Fq%3D1`), 200);
    expect(home.contentStream).toBe('https://home.example.com/docs?q=1');
  });

  it('did:web…%23files → the service, its id made absolute', async () => {
    const body = expectJson(await get(`/v1/dereference/${webDid}%23files`), 200);
    expect(body.dereferencingMetadata.contentType).toBe('application/json');
    expect(body.contentStream).toEqual({
      id: `${webDid}#files`,
      type: 'LinkedDomains',
      serviceEndpoint: ['https://files.example.com/base/', 'https://mirror.example.com/x/y'],
    });
  });

  it('?versionNumber= on a did:webvh → that version as application/did', async () => {
    const body = expectJson(await get(`/v1/dereference/${deactivated.did}?versionNumber=1`), 200);
    expect(body.dereferencingMetadata.contentType).toBe('application/did');
    expect(body.contentStream.id).toBe(deactivated.did);
    expect(body.contentMetadata).toMatchObject({ versionId: deactivated.entries[0]!['versionId'], versionNumber: 1 });
    expectProblem(await get(`/v1/dereference/${deactivated.did}?versionNumber=9`), 404, 'NOT_FOUND');
    expectProblem(await get(`/v1/dereference/${deactivated.did}?versionTime=yesterday`), 400, 'INVALID_OPTIONS');
  });

  it('a relativeRef with ../ → 400 INVALID_DID_URL', async () => {
    const problem = expectProblem(await get(`/v1/dereference/${webDid}?service=files&relativeRef=../../etc/passwd`), 400, 'INVALID_DID_URL');
    expect(problem.type).toBe(W3C_TYPE('INVALID_DID_URL'));
  });

  it('a DID URL path, raw or fully encoded → 501 FEATURE_NOT_SUPPORTED', async () => {
    const requestsBefore = host.server.requests.length;
    for (const path of [`${webDid}/some/path`, encodeURIComponent(`${webDid}/some/path`)]) {
      const problem = expectProblem(await get(`/v1/dereference/${path}`), 501, 'FEATURE_NOT_SUPPORTED');
      expect(problem.type).toBe(W3C_TYPE('FEATURE_NOT_SUPPORTED'));
    }
    // Decided from the DID URL alone: nothing was fetched.
    expect(host.server.requests.length).toBe(requestsBefore);
  });

  it('an unknown fragment → 404 NOT_FOUND; an unknown service → 404', async () => {
    const did = freshDidKey();
    expectProblem(await get(`/v1/dereference/${did}%23no-such-key`), 404, 'NOT_FOUND');
    expectProblem(await get(`/v1/dereference/${webDid}?service=nothing`), 404, 'NOT_FOUND');
  });

  it('an empty DID URL → 400 INVALID_DID_URL; a problem has problem+json headers too', async () => {
    const answer = await get('/v1/dereference/');
    expect(answer.header('content-type')).toBe(PROBLEM_TYPE);
    expectProblem(answer, 400, 'INVALID_DID_URL');
  });
});
