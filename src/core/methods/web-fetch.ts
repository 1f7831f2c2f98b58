/**
 * The fetch of the resource a web-hosted DID resolves from (did:web `did.json`, did:webvh
 * `did.jsonl`), shared by both drivers: through the Runtime's fetcher with the dns / tls / fetch
 * stages, beside the domain-binding check that was started first. 404 and 410 are NOT_FOUND,
 * any other non-2xx UPSTREAM_UNAVAILABLE; whatever problem ends the resolution, the binding
 * fetch is waited for first, so nothing runs on after the answer.
 */
import type { DomainBindingCheck } from '../linkage/check.js';
import { WEB_FETCH_STAGES, type FetchResponse } from '../net.js';
import { ProblemError, type ProblemHint } from '../problems.js';
import type { SourceEvidence } from '../resolve/types.js';
import type { MethodContext } from './types.js';

export interface WebResourceRequest {
  url: string;
  /** What is fetched, for messages: "DID document", "DID log". */
  purpose: string;
  maxBytes: number;
  /** The setting that chose `maxBytes`, named when the resource is over it. */
  maxBytesSetting?: string;
  accept: string;
  /** The origin named in an UPSTREAM_UNAVAILABLE detail. */
  origin: string;
  /**
   * The hint of any problem of the fetch, in place of the fetcher's own: a DID whose port was
   * written with a colon (colonPortHint) fails for that reason, whatever the host then said.
   */
  hint?: ProblemHint | null;
}

/** The problems a DID written wrongly ends in: the host blocked, out of reach, or without the file. */
const HINTED: ReadonlySet<string> = new Set(['EGRESS_BLOCKED', 'UPSTREAM_UNAVAILABLE', 'NOT_FOUND']);

export interface WebResource {
  response: FetchResponse;
  /** Waits for the binding check, then throws `err`: the way out for any later problem. */
  abandon: (err: unknown) => Promise<never>;
}

export async function fetchWebResource({ runtime, trace }: MethodContext, binding: DomainBindingCheck, request: WebResourceRequest): Promise<WebResource> {
  const abandon = async (err: unknown): Promise<never> => {
    await binding.settled;
    throw err;
  };
  const { url, purpose, maxBytes, maxBytesSetting, accept, origin, hint } = request;
  const failed = (err: unknown): Promise<never> => {
    if (hint && err instanceof ProblemError && HINTED.has(err.code)) err.hint = hint;
    return abandon(err);
  };
  const response = await runtime.net
    .fetch({ url, purpose, maxBytes, ...(maxBytesSetting ? { maxBytesSetting } : {}), accept, stages: WEB_FETCH_STAGES, signal: trace.signal }, trace)
    .catch(failed);
  if (response.status === 404 || response.status === 410) {
    await failed(new ProblemError('NOT_FOUND', `No ${purpose} at ${response.url} (HTTP ${response.status}).`, { trace: trace.stages.slice() }));
  }
  if (response.status < 200 || response.status > 299) {
    await failed(new ProblemError('UPSTREAM_UNAVAILABLE', `${origin} answered HTTP ${response.status} for the ${purpose}.`, { trace: trace.stages.slice() }));
  }
  return { response, abandon };
}

/**
 * `evidence.source` of a fetched resource. A supplied one (verify from files) keeps the URL it
 * stands in for and its bytes, with no exchange: httpStatus, peerAddress and latencyMs null.
 */
export function httpsSource(response: FetchResponse): SourceEvidence {
  const exchanged = response.supplied === undefined;
  return {
    kind: 'HTTPS',
    url: response.url,
    httpStatus: exchanged ? response.status : null,
    contentType: response.contentType,
    bytes: response.bytes,
    sha256: response.sha256,
    peerAddress: exchanged ? response.peerAddress : null,
    redirects: response.redirects,
    latencyMs: exchanged ? response.latencyMs : null,
  };
}
