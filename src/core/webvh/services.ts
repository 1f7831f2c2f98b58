/**
 * The implicit services of a did:webvh DIDDoc (spec §"DID URL Resolution"): `#files`, a
 * `relativeRef` service whose endpoint is the DID's web location (DID URL paths resolve
 * against it), and `#whois`, a LinkedVerifiablePresentation at `<location>/whois.vp`. They are
 * part of every resolved document unless the controller defines a service with that id
 * (relative `#files` or absolute `<did>#files`), which then takes precedence. Every public
 * implementation (ts, python, rust, java) returns them in the resolved document.
 */
import type { DidWebvhLocation } from './location.js';

const LINKED_VP_CONTEXT = 'https://identity.foundation/linked-vp/contexts/v1';

/** `https://host[:port][/path]` of a did:webvh, without `.well-known` and without a trailing slash. */
export function webvhBaseUrl(location: DidWebvhLocation): string {
  const log = location.logUrl;
  const dir = log.slice(0, log.lastIndexOf('/'));
  return dir.endsWith('/.well-known') ? dir.slice(0, -'/.well-known'.length) : dir;
}

/** The document with `#files` and `#whois` appended where the controller did not define them. */
export function withImplicitServices<T extends Record<string, unknown> & { id: string }>(
  document: T,
  location: DidWebvhLocation,
): { document: T; added: string[] } {
  const declared = Array.isArray(document['service']) ? (document['service'] as unknown[]) : [];
  const has = (fragment: string) =>
    declared.some(
      (s) =>
        typeof s === 'object' && s !== null && ((s as { id?: unknown }).id === `#${fragment}` || (s as { id?: unknown }).id === `${document.id}#${fragment}`),
    );
  const base = webvhBaseUrl(location);
  const implicit: Array<Record<string, unknown>> = [];
  // As the spec's example writes it: a relative id and a trailing slash, so that relative
  // references resolve below the DID's location rather than beside it.
  if (!has('files')) implicit.push({ id: '#files', type: 'relativeRef', serviceEndpoint: `${base}/` });
  if (!has('whois')) implicit.push({ '@context': LINKED_VP_CONTEXT, id: '#whois', type: 'LinkedVerifiablePresentation', serviceEndpoint: `${base}/whois.vp` });
  if (implicit.length === 0 || (document['service'] !== undefined && !Array.isArray(document['service']))) return { document, added: [] };
  return { document: { ...document, service: [...declared, ...implicit] }, added: implicit.map((s) => String(s['id'])) };
}
