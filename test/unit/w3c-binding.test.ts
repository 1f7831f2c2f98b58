/**
 * The W3C DID Resolution HTTPS binding as pure functions
 * (docs/daemon.md#the-w3c-did-resolution-binding): content negotiation row by row, the resolution
 * result body, error bodies and their statuses.
 */
import { describe, expect, it } from 'vitest';
import { PROBLEMS, ProblemError, type ProblemCode } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import {
  DID_MEDIA_TYPE,
  DID_RESOLUTION_CONTEXT,
  DID_RESOLUTION_MEDIA_TYPE,
  DID_RESOLUTION_PROFILE,
  errorDereferencingBody,
  errorResolutionBody,
  MAX_ACCEPT_RANGES,
  negotiateDereferencing,
  negotiateResolution,
  parseAccept,
  resolutionResultBody,
  w3cProblemStatus,
  w3cStatusOf,
} from '../../src/server/w3c.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const ED25519_DID = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';

describe('constants', () => {
  it('are the W3C media types, profile and context', () => {
    expect(DID_RESOLUTION_MEDIA_TYPE).toBe('application/did-resolution');
    expect(DID_MEDIA_TYPE).toBe('application/did');
    expect(DID_RESOLUTION_PROFILE).toBe('https://w3id.org/did-resolution');
    expect(DID_RESOLUTION_CONTEXT).toBe('https://w3id.org/did-resolution/v1');
  });
});

describe('negotiateResolution: the answers it keeps per Accept header', () => {
  it('answers the same every time, through more distinct headers than it keeps, and headers too long to keep', () => {
    const asked: Array<[string, ReturnType<typeof negotiateResolution>]> = [
      ['application/did-resolution', 'resolution'],
      ['application/did', 'document'],
      ['text/html', null],
      [`application/did-resolution;q=0.9, ${'x/y, '.repeat(80)}application/did;q=0.1`, 'resolution'],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [accept, outcome] of asked) expect(negotiateResolution(accept)).toBe(outcome);
      for (let i = 0; i < 40; i++) expect(negotiateResolution(`application/did;q=0.${(i % 9) + 1}, text/x-${round}-${i}`)).toBe('document');
    }
  });
});

describe('negotiateResolution: the binding, row by row', () => {
  it.each([
    ['application/did-resolution'],
    ['application/ld+json;profile="https://w3id.org/did-resolution"'],
    ['application/ld+json; profile="https://w3id.org/did-resolution"'],
    ['application/ld+json;profile=https://w3id.org/did-resolution'],
    ['application/ld+json;profile="http://www.w3.org/ns/json-ld#compacted https://w3id.org/did-resolution"'],
    ['APPLICATION/DID-RESOLUTION'],
    ['Application/LD+JSON;PROFILE="https://w3id.org/did-resolution"'],
    ['application/did-resolution;charset=utf-8'],
  ])('%s → the full resolution result', (accept) => {
    expect(negotiateResolution(accept)).toBe('resolution');
  });

  it.each([
    [undefined],
    [''],
    ['   '],
    ['*/*'],
    ['application/*'],
    ['application/json'],
    ['application/did'],
    ['application/did+json'],
    ['application/did+ld+json'],
    ['application/ld+json'],
    ['application/ld+json;profile="http://www.w3.org/ns/json-ld#compacted"'],
    ['Application/DID+JSON'],
    ['application/json; charset=utf-8'],
  ])('%s → the document only', (accept) => {
    expect(negotiateResolution(accept)).toBe('document');
  });

  it.each([
    ['text/html'],
    ['application/xml'],
    ['application/x-unsupported-did-representation-99999'],
    ['text/*'],
    ['garbage'],
    ['/'],
    ['application/'],
    [',,,'],
    ['*/json'],
    ['application/did;q=2'],
    ['application/did;q=0.5000'],
    ['application/did;q=abc'],
    ['application/did;q'],
    ['application/ld+json;profile="unterminated'],
  ])('%s → not acceptable (406)', (accept) => {
    expect(negotiateResolution(accept)).toBeNull();
  });
});

describe('negotiateResolution: q-values, wildcards and order', () => {
  it.each([
    // q=0 means "not acceptable".
    ['application/did-resolution;q=0', null],
    ['*/*;q=0', null],
    ['application/did;q=0', null],
    ['application/did-resolution;q=0, */*', 'document'],
    ['application/did-resolution;q=0, application/*', 'document'],
    ['*/*;q=0, application/did-resolution', 'resolution'],
    ['application/ld+json;profile="https://w3id.org/did-resolution";q=0, application/ld+json', 'document'],
    // The highest q wins.
    ['application/did-resolution;q=0.5, application/did;q=0.9', 'document'],
    ['application/did;q=0.5, application/did-resolution;q=0.9', 'resolution'],
    ['application/did;q=0.001, application/did-resolution;q=0.002', 'resolution'],
    ['text/html, application/did-resolution;q=0.1', 'resolution'],
    ['text/html, */*;q=0.8', 'document'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'document'],
    ['application/did-resolution;q=1.0, application/did;q=1', 'resolution'],
    // Ties: the more specific range wins, then the earlier one.
    ['*/*, application/did-resolution', 'resolution'],
    ['application/*, application/did-resolution', 'resolution'],
    ['application/did-resolution, */*', 'resolution'],
    ['application/did-resolution, application/did', 'resolution'],
    ['application/did, application/did-resolution', 'document'],
    ['application/ld+json, application/ld+json;profile="https://w3id.org/did-resolution"', 'resolution'],
    // A wildcard alone gives the document; so does one that excludes a single document type.
    ['application/did+json;q=0, */*', 'document'],
    // Malformed ranges are skipped, the rest still count.
    ['garbage, application/did-resolution', 'resolution'],
    ['application/did;q=7, application/did-resolution;q=0.3', 'resolution'],
    // Whitespace around separators.
    ['  application/did-resolution ;  q=0.4 ,  application/did ; q=0.3 ', 'resolution'],
    // Commas inside a quoted profile do not split ranges.
    ['application/ld+json;profile="a,https://w3id.org/did-resolution", text/html', 'document'],
    ['application/ld+json;profile="x, y";q=0, application/did-resolution;q=0.1', 'resolution'],
    // A profile after q is an accept-extension, not a media type parameter.
    ['application/ld+json;q=0.5;profile="https://w3id.org/did-resolution"', 'document'],
  ] as const)('%s → %s', (accept, expected) => {
    expect(negotiateResolution(accept)).toBe(expected);
  });

  it('reads at most MAX_ACCEPT_RANGES ranges of a hostile header', () => {
    const filler = Array.from({ length: MAX_ACCEPT_RANGES }, (_, i) => `text/x-${i}`).join(', ');
    expect(parseAccept(filler)).toHaveLength(MAX_ACCEPT_RANGES);
    expect(parseAccept(`${filler}, application/did`)).toHaveLength(MAX_ACCEPT_RANGES);
    expect(negotiateResolution(`${filler}, application/did`)).toBeNull();
    expect(negotiateResolution(`application/did-resolution, ${filler}`)).toBe('resolution');
  });

  it('answers a huge header without quadratic work', () => {
    const huge = `${'a'.repeat(200_000)}/${'b'.repeat(200_000)};${'x=y;'.repeat(50_000)}, application/did`;
    expect(negotiateResolution(huge)).toBe('document');
    const quotes = `application/ld+json;profile="${'\\"'.repeat(100_000)}`;
    expect(negotiateResolution(quotes)).toBeNull();
    const commas = ','.repeat(1_000_000);
    expect(negotiateResolution(commas)).toBeNull();
  });

  it('parses ranges with their q and profile', () => {
    expect(parseAccept('Application/LD+JSON ; Profile="https://w3id.org/did-resolution" ; Q=0.7')).toEqual([
      { type: 'application', subtype: 'ld+json', profile: 'https://w3id.org/did-resolution', q: 0.7, position: 0 },
    ]);
    expect(parseAccept('a/b;profile="x\\"y"')[0]?.profile).toBe('x"y');
  });
});

async function didKeyResolution(): Promise<EnrichedResolution> {
  return resolve(ED25519_DID, testRuntime(fixedClock()));
}

describe('resolutionResultBody and w3cStatusOf', () => {
  it('is {@context, didDocument, didResolutionMetadata, didDocumentMetadata} with the document media type', async () => {
    const result = await didKeyResolution();
    const body = resolutionResultBody(result);
    expect(Object.keys(body)).toEqual(['@context', 'didDocument', 'didResolutionMetadata', 'didDocumentMetadata']);
    expect(body['@context']).toBe('https://w3id.org/did-resolution/v1');
    expect(body.didDocument).toEqual(result.didDocument);
    expect(body.didDocument.id).toBe(ED25519_DID);
    expect(body.didResolutionMetadata).toEqual({
      contentType: 'application/did',
      retrieved: '2025-03-04T05:06:07Z',
      durationMs: result.didResolutionMetadata.durationMs,
    });
    expect(body.didDocumentMetadata).toEqual(result.didDocumentMetadata);
    expect(body).not.toHaveProperty('verdict');
    expect(body).not.toHaveProperty('evidence');
    expect(w3cStatusOf(result)).toBe(200);
  });

  it('gives 410 for a deactivated DID, by metadata or by verdict', async () => {
    const result = await didKeyResolution();
    const byMetadata: EnrichedResolution = { ...result, didDocumentMetadata: { ...result.didDocumentMetadata, deactivated: true } };
    expect(w3cStatusOf(byMetadata)).toBe(410);
    expect(resolutionResultBody(byMetadata).didDocumentMetadata['deactivated']).toBe(true);
    const byVerdict: EnrichedResolution = { ...result, verdict: { ...result.verdict, outcome: 'DEACTIVATED' } };
    expect(w3cStatusOf(byVerdict)).toBe(410);
    const notDeactivated: EnrichedResolution = { ...result, didDocumentMetadata: { deactivated: false } };
    expect(w3cStatusOf(notDeactivated)).toBe(200);
  });
});

describe('errorResolutionBody and w3cProblemStatus', () => {
  it.each([
    ['INVALID_DID', 400],
    ['INVALID_DID_URL', 400],
    ['INVALID_OPTIONS', 400],
    ['NOT_FOUND', 404],
    ['REPRESENTATION_NOT_SUPPORTED', 406],
    ['METHOD_NOT_SUPPORTED', 501],
    ['FEATURE_NOT_SUPPORTED', 501],
    ['INVALID_DID_DOCUMENT', 500],
    ['INTERNAL_ERROR', 500],
    ['EGRESS_BLOCKED', 500],
    ['UPSTREAM_UNAVAILABLE', 500],
    ['RATE_LIMITED', 429],
    ['CAPACITY_EXHAUSTED', 503],
  ] as const)('%s → %i on /1.0', (code, status) => {
    expect(w3cProblemStatus(code)).toBe(status);
  });

  it('falls back to the /v1 status where the /1.0 column has none', () => {
    const without = (Object.keys(PROBLEMS) as ProblemCode[]).filter((code) => PROBLEMS[code].w3cStatus === null);
    expect(without).toContain('INVALID_REQUEST');
    for (const code of without) expect(w3cProblemStatus(code)).toBe(PROBLEMS[code].status);
  });

  it('embeds the RFC 9457 problem with its W3C type, didDocument null, the /1.0 status and no trace', () => {
    const err = new ProblemError('INVALID_DID_DOCUMENT', "The document's id does not match.", {
      trace: [{ stage: 'document.inspect', label: 'Read the DID document', status: 'FAIL', startedUs: 1, durationUs: 2, detail: 'x' }],
    });
    const body = errorResolutionBody(err.toProblem());
    expect(body).toEqual({
      '@context': 'https://w3id.org/did-resolution/v1',
      didDocument: null,
      didResolutionMetadata: {
        error: {
          type: 'https://www.w3.org/ns/did#INVALID_DID_DOCUMENT',
          title: 'Invalid DID document',
          status: 500,
          detail: "The document's id does not match.",
          code: 'INVALID_DID_DOCUMENT',
        },
      },
      didDocumentMetadata: {},
    });
    expect(err.toProblem().status).toBe(422);
  });

  it('types service codes under the problems base and keeps retryAfter', () => {
    const egress = errorResolutionBody(new ProblemError('EGRESS_BLOCKED', 'blocked').toProblem('https://problems.example/'));
    expect(egress.didResolutionMetadata.error).toMatchObject({ type: 'https://problems.example/#EGRESS_BLOCKED', status: 500, code: 'EGRESS_BLOCKED' });
    expect(egress.didDocument).toBeNull();
    const limited = errorResolutionBody(new ProblemError('RATE_LIMITED', 'slow down', { retryAfter: 7 }).toProblem());
    expect(limited.didResolutionMetadata.error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 7 });
    const notFound = errorResolutionBody(new ProblemError('NOT_FOUND', 'absent').toProblem());
    expect(notFound.didResolutionMetadata.error.type).toBe('https://www.w3.org/ns/did#NOT_FOUND');
  });

  it('has a dereferencing counterpart with contentStream null', () => {
    const body = errorDereferencingBody(new ProblemError('FEATURE_NOT_SUPPORTED', 'paths').toProblem());
    expect(body).toEqual({
      '@context': 'https://w3id.org/did-resolution/v1',
      dereferencingMetadata: {
        error: {
          type: 'https://www.w3.org/ns/did#FEATURE_NOT_SUPPORTED',
          title: 'Feature not supported',
          status: 501,
          detail: 'paths',
          code: 'FEATURE_NOT_SUPPORTED',
        },
      },
      contentStream: null,
      contentMetadata: {},
    });
  });
});

describe('negotiateDereferencing (a DID URL on /1.0)', () => {
  it("no Accept, application/json or wildcards → svc's own shape; the dereferencing media type → the result; a version's or service's own type → the content", () => {
    for (const accept of [undefined, '', '*/*', 'application/*', 'application/json', 'text/html;q=0.2, */*;q=0.1'])
      expect(negotiateDereferencing(accept, 'application/json'), String(accept)).toBe('spec');
    expect(negotiateDereferencing('application/did-url-dereferencing', 'application/json')).toBe('result');
    for (const accept of ['application/did', 'application/did+json', 'application/did+ld+json'])
      expect(negotiateDereferencing(accept, 'application/did'), accept).toBe('content');
    expect(negotiateDereferencing('application/json', 'application/did')).toBe('spec');
    expect(negotiateDereferencing('text/uri-list', 'text/uri-list')).toBe('content');
    expect(negotiateDereferencing('application/json', 'text/uri-list')).toBe('spec');
  });

  it("q decides, then the result before the content before svc's own shape on a tie; q=0 refuses", () => {
    expect(negotiateDereferencing('application/json, application/did-url-dereferencing', 'application/json')).toBe('result');
    expect(negotiateDereferencing('application/json, application/did-url-dereferencing;q=0.9', 'application/json')).toBe('spec');
    expect(negotiateDereferencing('application/json, application/did', 'application/did')).toBe('content');
    expect(negotiateDereferencing('application/did-url-dereferencing;q=0', 'application/json')).toBeNull();
  });

  it('nothing it has → null (406)', () => {
    for (const accept of ['text/html', 'application/did-resolution', 'text/*', 'application/did'])
      expect(negotiateDereferencing(accept, 'application/json'), accept).toBeNull();
    expect(negotiateDereferencing('text/uri-list', 'application/did')).toBeNull();
  });
});
