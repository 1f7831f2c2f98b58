/**
 * Whois evidence (docs/evidence.md#whois): a DID's `#whois` service — did:webvh's implicit
 * Linked Verifiable Presentation at `<location>/whois.vp`, or a LinkedVerifiablePresentation
 * service a document declares with id `#whois` (did:web too) — fetched under the egress policy
 * and verified by the Runtime's `whois` verifier (core/presentations/whois.ts).
 *
 * For did:webvh the URL follows from the identifier, so the fetch starts with the log's and runs
 * beside it; it is used once the document confirms the service (a controller may define its own
 * `#whois` elsewhere, or none of that type). A fetch that fails — 404, time limit, egress policy,
 * larger than WHOIS_MAX_BYTES, not JSON — is INDETERMINATE evidence, never a failed resolution.
 * A resolution of another version (versionId …) fetches nothing: whois.vp speaks for the
 * current document only.
 */
import { decodeJsonText, isJsonObject, parseJsonText } from '../encoding/json.js';
import type { FetchResponse } from '../net.js';
import { asProblemError, ProblemError } from '../problems.js';
import type { Runtime } from '../runtime.js';
import { describeResponse, NotSuppliedProblem } from '../supplied/resources.js';
import { sentence } from '../text.js';
import { didWebvhLocation } from '../webvh/location.js';
import { webvhBaseUrl } from '../webvh/services.js';
import type { Trace } from './trace.js';
import type { DidDocument, WhoisEvidence } from './types.js';

/** Largest whois.vp svc reads (bytes): 1 MiB. A larger one is INDETERMINATE, not read whole. */
export const WHOIS_MAX_BYTES = 1024 * 1024;

const LINKED_VP = 'LinkedVerifiablePresentation';
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

export interface WhoisCheck {
  /** The evidence for this document; undefined when it has no whois service (or nothing was checked). */
  finish(did: string, document: DidDocument): Promise<{ evidence: WhoisEvidence; transient: boolean } | undefined>;
  /** Stops a fetch begun ahead that nobody will use (the resolution failed). */
  abandon(): void;
}

const NONE: WhoisCheck = { finish: async () => undefined, abandon: () => undefined };

type Fetched = FetchResponse | ProblemError;

/** The `#whois` LinkedVerifiablePresentation service of a document and its single https endpoint. */
export function whoisService(did: string, document: DidDocument): { url: string; entry: Record<string, unknown> } | null {
  const services = Array.isArray(document['service']) ? (document['service'] as unknown[]) : [];
  for (const s of services) {
    if (!isJsonObject(s)) continue;
    if (s['id'] !== '#whois' && s['id'] !== `${did}#whois`) continue;
    const type = s['type'];
    if (!(type === LINKED_VP || (Array.isArray(type) && type.includes(LINKED_VP)))) return null;
    const endpoint = s['serviceEndpoint'];
    const url = typeof endpoint === 'string' ? endpoint : Array.isArray(endpoint) && typeof endpoint[0] === 'string' ? endpoint[0] : null;
    return url === null ? null : { url, entry: s };
  }
  return null;
}

function implicitUrl(method: string, id: string): string | null {
  if (method !== 'webvh') return null;
  try {
    return `${webvhBaseUrl(didWebvhLocation(id))}/whois.vp`;
  } catch {
    return null;
  }
}

/**
 * Begins the whois check of a resolution: for did:webvh the fetch of the implicit URL starts now.
 * Nothing is fetched without a Runtime verifier or for a resolution of another version.
 */
export function startWhois(parsed: { method: string; id: string }, runtime: Runtime, trace: Trace, historical: boolean): WhoisCheck {
  const verify = runtime.whois;
  if (!verify || historical) return NONE;
  const outer = trace.signal;
  const controllers: AbortController[] = [];
  const begin = (url: string) => {
    const controller = new AbortController();
    controllers.push(controller);
    const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
    return trace.begin('whois.fetch', 'Fetch the whois presentation', async (stage): Promise<Fetched> => {
      try {
        const response = await runtime.net.fetch({
          url,
          purpose: 'whois presentation',
          maxBytes: WHOIS_MAX_BYTES,
          accept: 'application/json, application/ld+json;q=0.9, */*;q=0.1',
          signal,
        });
        stage.detail = describeResponse(response);
        // Most DIDs publish none: a 404 is an answer, not a warning.
        if (response.status === 404 || response.status === 410) stage.detail += ': no whois presentation published';
        else if (response.status < 200 || response.status > 299) stage.status = 'WARN';
        return response;
      } catch (err) {
        if (outer?.aborted) throw err;
        const problem = asProblemError(err);
        const unsupplied = problem instanceof NotSuppliedProblem;
        stage.status = unsupplied ? 'SKIP' : 'WARN';
        stage.detail = unsupplied ? 'not supplied, and not fetched (verifying from files without the network)' : problem.detail;
        return problem;
      }
    });
  };
  const ahead = implicitUrl(parsed.method, parsed.id);
  const early = ahead === null ? null : begin(ahead);
  const abandon = () => {
    for (const c of controllers) c.abort();
  };

  return {
    abandon,
    async finish(did, document) {
      const service = whoisService(did, document);
      if (service === null) {
        abandon();
        return undefined;
      }
      let pending = early;
      if (early === null || service.url !== ahead) {
        abandon();
        pending = begin(service.url);
      }
      const fetched = await pending!.commit();
      const implicit = ahead !== null && service.url === ahead && service.entry['id'] === '#whois';
      const base = {
        url: service.url,
        service: implicit ? ('IMPLICIT' as const) : ('DECLARED' as const),
        httpStatus: null,
        bytes: null,
        sha256: null,
        presentationStatus: null,
        holder: null,
        signedBy: null,
        credentials: [],
      };
      const indeterminate = (reason: string, extra: Partial<WhoisEvidence> = {}, transient = false) => ({
        evidence: { ...base, ...extra, status: 'INDETERMINATE' as const, reason },
        transient,
      });
      if (fetched instanceof NotSuppliedProblem) return undefined;
      if (fetched instanceof ProblemError) {
        return indeterminate(`The whois presentation could not be fetched: ${fetched.detail}`, {}, fetched.code === 'UPSTREAM_UNAVAILABLE');
      }
      const seen = { httpStatus: fetched.status, bytes: fetched.bytes, sha256: fetched.sha256 };
      if (fetched.status < 200 || fetched.status > 299) {
        return indeterminate(
          fetched.status === 404 || fetched.status === 410
            ? `${service.url} answered HTTP ${fetched.status}: no whois presentation is published.`
            : `${service.url} answered HTTP ${fetched.status} for the whois presentation.`,
          seen,
        );
      }
      const text = decodeJsonText(fetched.body, 'the whois presentation');
      if (typeof text !== 'string') return indeterminate(sentence(text.error), seen);
      const trimmed = text.trim();
      let presentation: unknown;
      if (COMPACT_JWS.test(trimmed)) presentation = trimmed;
      else {
        const parsedJson = parseJsonText(trimmed, 'the whois presentation');
        if ('error' in parsedJson) return indeterminate(`The whois presentation is not JSON svc can read: ${sentence(parsedJson.error)}`, seen);
        if (!isJsonObject(parsedJson.value)) return indeterminate('The whois presentation is not a JSON object.', seen);
        presentation = parsedJson.value;
      }
      return trace.run('whois.verify', 'Verify the whois presentation', async (stage) => {
        try {
          const verified = await verify(presentation, { did, document }, runtime, outer);
          stage.status = verified.status === 'VERIFIED' ? 'PASS' : 'WARN';
          stage.detail = `${verified.status}: ${verified.reason}`;
          return { evidence: { ...base, ...seen, ...verified }, transient: false };
        } catch (err) {
          if (outer?.aborted) throw err;
          const problem = asProblemError(err);
          stage.status = 'WARN';
          stage.detail = problem.detail;
          return indeterminate(`The whois presentation could not be verified: ${problem.detail}`, seen, true);
        }
      });
    },
  };
}
