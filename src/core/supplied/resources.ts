/**
 * Verify from files: resources supplied in place of the URLs svc would fetch (a did.json, a
 * did:webvh log and its witness file, a DID configuration, an issuer's document, a status list,
 * an agent card), injected at the fetch layer. `withSuppliedResources` hands out a Runtime whose
 * `net.fetch` answers a supplied URL with the supplied bytes, before any network, so every check
 * that does not need the network runs on them exactly as on a fetched resource — the same code
 * path, nothing parallel.
 *
 * The rule for what was not supplied (docs/credentials.md#verify-from-files): nothing is fetched
 * unless the caller allows the network (`allowNetwork`, the CLI's --allow-network). A URL that is
 * neither supplied nor allowed throws `NotSuppliedProblem` (EGRESS_BLOCKED): where the answer rests
 * on it (the DID document or log, the witness file of a witnessed log) the run has no answer; where
 * it is side evidence the check says "not established" (the DID configuration: domainBinding null,
 * origin NOT_ESTABLISHED) or INDETERMINATE (an issuer key, a status list), never a green state.
 *
 * A supplied response has no HTTP exchange behind it: status 200 (so that it reads as "present"
 * on the common path), `tls` null, no address, no latency, and `supplied` naming its source. The
 * evidence built from it says so (httpStatus, peerAddress and latencyMs null), the dimensions
 * that rest on the fetch say "not established: supplied from a file, not fetched", and the result
 * names each file in `limitations` and a `supplied.read` stage of the trace.
 *
 * The Runtime handed out has a resolution cache of its own (a file's result never reaches the
 * caller's cache, nor the other way round) and no store: nothing from a file is recorded as an
 * observation of a host.
 */
import { sha256Hex } from '../canonical.js';
import type { FetchRequest, FetchResponse, Net } from '../net.js';
import { ProblemError } from '../problems.js';
import { MemoryResolutionCache } from '../resolve/cache.js';
import type { Trace } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { SuppliedResources, urlKey, type SuppliedNote, type SuppliedOptions, type SuppliedResource } from './catalogue.js';

export { SuppliedResources, type SuppliedNote, type SuppliedOptions, type SuppliedResource } from './catalogue.js';

/**
 * A URL that was not supplied while the network is not allowed: EGRESS_BLOCKED (nothing was
 * contacted). Side checks (the DID configuration) recognise it by its class and report "not
 * established"; on the main path it is the run's problem.
 */
export class NotSuppliedProblem extends ProblemError {
  constructor(
    readonly url: string,
    purpose: string,
  ) {
    super(
      'EGRESS_BLOCKED',
      `Nothing was supplied for the ${purpose} at ${url}, and svc fetches nothing when it verifies from files unless the network is allowed (--allow-network).`,
    );
  }
}

/** The Net of a Runtime with supplied resources: the supplied bytes first, then (if allowed) the inner Net. */
export class SuppliedNet implements Net {
  constructor(
    readonly supplied: SuppliedResources,
    private readonly inner: Net,
  ) {}

  get egressAllow(): readonly string[] {
    return this.inner.egressAllow;
  }

  async fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    const resource = (request.method ?? 'GET') === 'GET' ? this.supplied.get(request.url) : undefined;
    if (resource) {
      this.supplied.consult(resource.url, request.purpose, resource.source);
      const read = (): FetchResponse => suppliedResponse(resource, request);
      // The fetch stages (dns, tls, fetch) of a fetched resource become one stage: what was read.
      if (request.stages && trace) {
        return trace.run('supplied.read', `Read the ${request.purpose} supplied for ${resource.url}`, (stage) => {
          const response = read();
          stage.detail = `${resource.source}: ${response.bytes} bytes, supplied from a file, not fetched (no DNS lookup, no TLS connection)`;
          return response;
        });
      }
      return read();
    }
    if (!this.supplied.allowNetwork) {
      this.supplied.consult(request.url, request.purpose, null);
      throw new NotSuppliedProblem(urlKey(request.url), request.purpose);
    }
    return this.inner.fetch(request, trace);
  }

  async checkDestination(url: string, purpose: string, options?: { allowPlainHttp?: boolean }): Promise<void> {
    if (!this.supplied.allowNetwork) throw new NotSuppliedProblem(urlKey(url), purpose);
    return this.inner.checkDestination(url, purpose, options);
  }

  async resolveTxt(name: string, signal?: AbortSignal): Promise<string[]> {
    if (!this.supplied.allowNetwork) throw new NotSuppliedProblem(`dns:${name}`, 'TXT record');
    return this.inner.resolveTxt(name, signal);
  }

  close(): void {
    this.inner.close();
  }
}

/** The supplied bytes as the answer to `request`: the same size limit as a fetch, no exchange behind it. */
function suppliedResponse(resource: SuppliedResource, request: FetchRequest): FetchResponse {
  const { body } = resource;
  if (body.length > request.maxBytes) {
    const setting = request.maxBytesSetting ? ` (${request.maxBytesSetting})` : '';
    throw new ProblemError(
      'PAYLOAD_TOO_LARGE',
      `The ${request.purpose} supplied from ${resource.source} is ${body.length} bytes; the limit is ${request.maxBytes} bytes${setting}.`,
    );
  }
  return {
    url: resource.url,
    status: 200,
    contentType: resource.mediaType,
    headers: {},
    body,
    bytes: body.length,
    sha256: sha256Hex(body),
    peerAddress: '',
    redirects: [],
    latencyMs: 0,
    tls: null,
    allowances: [],
    supplied: { source: resource.source },
  };
}

/** Resolutions kept by a Runtime with supplied resources (its own cache, never the caller's). */
const SUPPLIED_CACHE_ENTRIES = 64;

/**
 * A Runtime that answers the supplied URLs with their bytes and, unless `allowNetwork`, fetches
 * nothing else. Its cache is its own and it has no store. Two resources for one URL are
 * INVALID_OPTIONS.
 */
export function withSuppliedResources(runtime: Runtime, resources: readonly SuppliedResource[], options: SuppliedOptions = {}): Runtime {
  const supplied = new SuppliedResources(resources, options);
  const { store: _store, ...rest } = runtime;
  return {
    ...rest,
    net: new SuppliedNet(supplied, runtime.net),
    cache: new MemoryResolutionCache(runtime.clock, SUPPLIED_CACHE_ENTRIES),
    supplied,
  };
}

/**
 * What `runtime` did with each of `resources` (the URLs one piece of work needs): supplied, or
 * withheld; fetched ones are not noted. Empty for a Runtime without supplied resources.
 */
export function suppliedNotes(runtime: Runtime, resources: ReadonlyArray<{ purpose: string; url: string }>): SuppliedNote[] {
  const supplied = runtime.supplied;
  if (!supplied) return [];
  const notes: SuppliedNote[] = [];
  for (const { purpose, url } of resources) {
    const resource = supplied.get(url);
    if (resource) notes.push({ purpose, url: resource.url, source: resource.source });
    else if (!supplied.allowNetwork) notes.push({ purpose, url: urlKey(url), source: null });
  }
  return notes;
}

/** The note of `url` among `notes`, if any. */
export function noteFor(notes: readonly SuppliedNote[], url: string | null): SuppliedNote | undefined {
  if (url === null) return undefined;
  const key = urlKey(url);
  return notes.find((n) => n.url === key);
}

/** The `limitations` lines of supplied and withheld resources. */
export function suppliedLimitations(notes: readonly SuppliedNote[]): string[] {
  return notes.map((n) =>
    n.source !== null
      ? `The file ${n.source} stood in for the ${n.purpose} at ${n.url}: it was not fetched, so svc did not see that the host serves it, nor over which connection.`
      : `Nothing stood in for the ${n.purpose} at ${n.url}, and it was not fetched (verifying from files without the network): what it would show is not part of this result.`,
  );
}

/** `HTTP 200, 123 bytes`, or for a supplied resource what was read instead: a stage's detail. */
export function describeResponse(response: FetchResponse): string {
  if (response.supplied) return `supplied from ${response.supplied.source} (${response.bytes} bytes), not fetched`;
  return `HTTP ${response.status}, ${response.bytes} bytes`;
}
