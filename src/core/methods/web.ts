/**
 * did:web (W3C CCG did:web method): the identifier names an HTTPS location. Resolution fetches
 * `/.well-known/did.json` (or `/<path>/did.json`) through the Runtime's fetcher — egress policy,
 * pinned connection, TLS evidence — and, at the same time, the domain's DID configuration
 * (DIF Well Known DID Configuration) for the origin dimension.
 *
 *   did:web:example.com                 → https://example.com/.well-known/did.json
 *   did:web:example.com%3A8443:u:alice  → https://example.com:8443/u/alice/did.json
 */
import { isJsonObject, parseJsonBytes } from '../encoding/json.js';
import { startDomainBinding } from '../linkage/check.js';
import { ProblemError } from '../problems.js';
import { sentence } from '../text.js';
import type { DidDocument } from '../resolve/types.js';
import { suppliedNotes } from '../supplied/resources.js';
import type { MethodDriver, MethodResolution } from './types.js';
import { fetchWebResource, httpsSource } from './web-fetch.js';
import { colonPortHint, didWebLocation, type DidWebLocation } from './web-location.js';

export { didWebLocation, type DidWebLocation };

/** Largest did.json svc reads (bytes); a larger one is PAYLOAD_TOO_LARGE. */
export const DID_DOCUMENT_MAX_BYTES = 512 * 1024;

const DID_JSON_ACCEPT = 'application/did+json, application/did+ld+json;q=0.9, application/json;q=0.8';

/** The fetched bytes as a DID document object, or INVALID_DID_DOCUMENT with the reason. */
export function parseDocumentBytes(body: Uint8Array, url: string): DidDocument {
  const parsed = parseJsonBytes(body, `the document at ${url}`);
  if ('error' in parsed) throw new ProblemError('INVALID_DID_DOCUMENT', sentence(parsed.error));
  const value = parsed.value;
  if (!isJsonObject(value)) throw new ProblemError('INVALID_DID_DOCUMENT', `The document at ${url} is not a JSON object.`);
  if (typeof value['id'] !== 'string') throw new ProblemError('INVALID_DID_DOCUMENT', `The document at ${url} has no string "id".`);
  return value as DidDocument;
}

export const didWeb: MethodDriver = {
  method: 'web',
  selfCertifying: false,
  acceptsVersionOptions: false,
  checkIdentifier(parsed) {
    didWebLocation(parsed.id);
  },
  async resolve(parsed, context): Promise<MethodResolution> {
    const { trace } = context;
    const location = didWebLocation(parsed.id);
    // The configuration does not depend on the document, so both fetches run at once; the
    // configuration check never throws (an unreachable file is evidence, not an error) and its
    // stages are recorded only once the document is in hand.
    const binding = startDomainBinding(location.origin, context);
    const { response, abandon } = await fetchWebResource(context, binding, {
      url: location.documentUrl,
      purpose: 'DID document',
      maxBytes: DID_DOCUMENT_MAX_BYTES,
      accept: DID_JSON_ACCEPT,
      origin: location.origin,
      hint: colonPortHint('web', parsed.id),
    });
    const document = await trace
      .run('document.parse', 'Parse the fetched document', (stage) => {
        const doc = parseDocumentBytes(response.body, response.url);
        if (doc.id !== parsed.did) {
          throw new ProblemError('INVALID_DID_DOCUMENT', `The document at ${response.url} is for ${doc.id}, not ${parsed.did}.`);
        }
        stage.detail = `${response.bytes} bytes of JSON, id matches`;
        return doc;
      })
      .catch(abandon);
    const domainBinding = await binding.finish(parsed.did, document);
    return {
      document,
      contentType: 'application/did',
      source: httpsSource(response),
      didDocumentMetadata: {},
      tls: response.tls,
      domainBinding,
      allowances: response.allowances,
      supplied: suppliedNotes(context.runtime, [
        { purpose: 'DID document', url: location.documentUrl },
        { purpose: 'DID configuration', url: binding.url },
      ]),
      // A configuration that could not be fetched says nothing yet: do not keep that answer.
      ...(domainBinding?.status === 'UNREACHABLE' ? { ttlSeconds: 0 } : {}),
    };
  },
};
