/**
 * Recording what svc fetched, and answering from the record. `recordingRuntime` wraps a Runtime's
 * Net so that every exchange is kept whole (bytes, status, the headers that matter, pinned
 * address, TLS chain); `replayRuntime` hands out a Runtime whose Net answers from a bundle's
 * resources and fetches nothing, so every check runs again on the recorded bytes through the
 * same code path as the original work.
 */
import { sha256Hex } from '../canonical.js';
import type { Clock } from '../clock.js';
import type { FetchRequest, FetchResponse, Net, TlsEvidence } from '../net.js';
import { ProblemError } from '../problems.js';
import { MemoryResolutionCache } from '../resolve/cache.js';
import type { Trace } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { urlKey } from '../supplied/catalogue.js';
import { describeLeaf } from './tls.js';
import { fromBase64, RECORDED_HEADERS, toBase64, type BundleResource, type BundleTxtLookup, type EvidenceBundle } from './format.js';

const DAY_MS = 86_400_000;

function bodyBytes(body: string | Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** The resources and TXT lookups one piece of work made, in order. */
export class Recorder {
  readonly resources: BundleResource[] = [];
  readonly txt: BundleTxtLookup[] = [];
  #bytes = 0;

  /** Bytes of bodies and certificates kept so far (a bundle refuses more than 16 MiB when written). */
  get bytes(): number {
    return this.#bytes;
  }

  add(request: FetchRequest, response: FetchResponse, fetchedAt: Date): void {
    const headers: Record<string, string> = {};
    for (const name of RECORDED_HEADERS) {
      const value = response.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    if (response.contentType !== null && headers['content-type'] === undefined) headers['content-type'] = response.contentType;
    const sent = bodyBytes(request.body);
    const chain = response.tlsChain ?? [];
    this.#bytes += response.body.length + (sent?.length ?? 0) + chain.reduce((n, der) => n + der.length, 0);
    this.resources.push({
      id: `r${this.resources.length + 1}`,
      purpose: request.purpose,
      fetchedAt: fetchedAt.toISOString(),
      request: {
        method: request.method ?? 'GET',
        url: urlKey(request.url),
        ...(sent !== undefined ? { sha256: sha256Hex(sent), body: toBase64(sent) } : {}),
      },
      response: {
        url: response.url,
        status: response.status,
        headers,
        bytes: response.body.length,
        sha256: sha256Hex(response.body),
        body: toBase64(response.body),
      },
      redirects: response.redirects.map((r) => ({ from: r.from, to: r.to, status: r.status })),
      peerAddress: response.peerAddress,
      allowances: [...response.allowances],
      tls: response.tls
        ? {
            host: response.tls.host,
            protocol: response.tls.protocol,
            cipher: response.tls.cipher,
            validatedBy: response.tls.validatedBy,
            chain: chain.map((der) => toBase64(der)),
          }
        : null,
    });
  }
}

/** A Net that keeps every exchange of the inner Net in a Recorder. */
class RecordingNet implements Net {
  constructor(
    private readonly inner: Net,
    private readonly recorder: Recorder,
    private readonly clock: Clock,
  ) {}

  get egressAllow(): readonly string[] {
    return this.inner.egressAllow;
  }

  async fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    const at = this.clock.now();
    const response = await this.inner.fetch(request, trace);
    // A resource supplied from a file was not fetched: the bundle records only what svc saw.
    if (!response.supplied) this.recorder.add(request, response, at);
    return response;
  }

  checkDestination(url: string, purpose: string): Promise<void> {
    return this.inner.checkDestination(url, purpose);
  }

  async resolveTxt(name: string, signal?: AbortSignal): Promise<string[]> {
    const records = await this.inner.resolveTxt(name, signal);
    this.recorder.txt.push({ name, records: [...records] });
    return records;
  }

  close(): void {
    this.inner.close();
  }
}

/**
 * A Runtime that records every exchange its Net makes, with its own resolution cache (a cached
 * result has no bytes behind it, so a bundle is always made from a fresh fetch).
 */
export function recordingRuntime(runtime: Runtime): { runtime: Runtime; recorder: Recorder } {
  const recorder = new Recorder();
  return {
    runtime: { ...runtime, net: new RecordingNet(runtime.net, recorder, runtime.clock), cache: new MemoryResolutionCache(runtime.clock, 64) },
    recorder,
  };
}

/** A clock fixed at one instant (monotonic time still runs, for the trace's durations). */
export function fixedClock(at: Date, monotonic: Clock): Clock {
  return { now: () => new Date(at.getTime()), monotonicUs: () => monotonic.monotonicUs() };
}

/** Nothing in the bundle answers this request: the re-run asked for something the original did not. */
export class NotRecordedProblem extends ProblemError {
  constructor(
    readonly url: string,
    purpose: string,
  ) {
    super('EGRESS_BLOCKED', `The bundle holds no response for the ${purpose} at ${url}, and verifying a bundle fetches nothing.`);
  }
}

/** What the replaying Net saw: each resource it answered with, and each request it could not. */
export interface ReplayLog {
  answered: string[];
  missing: string[];
}

/** A Net that answers from a bundle's resources, in the order they were recorded per request. */
class ReplayNet implements Net {
  readonly egressAllow: readonly string[] = [];
  readonly #exact = new Map<string, BundleResource[]>();
  readonly #byUrl = new Map<string, BundleResource[]>();
  readonly #used = new Set<string>();

  constructor(
    private readonly bundle: EvidenceBundle,
    private readonly clock: Clock,
    readonly log: ReplayLog,
    /** Count a certificate's days to expiry from when its resource was fetched (the re-run at observation), not from the clock. */
    private readonly asFetched: boolean,
  ) {
    for (const resource of bundle.resources) {
      const loose = `${resource.request.method} ${urlKey(resource.request.url)}`;
      const exact = `${loose} ${resource.request.sha256 ?? ''}`;
      this.#exact.set(exact, [...(this.#exact.get(exact) ?? []), resource]);
      this.#byUrl.set(loose, [...(this.#byUrl.get(loose) ?? []), resource]);
    }
  }

  #take(list: BundleResource[] | undefined): BundleResource | undefined {
    const resource = list?.find((r) => !this.#used.has(r.id));
    if (resource) this.#used.add(resource.id);
    return resource;
  }

  async fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    const loose = `${request.method ?? 'GET'} ${urlKey(request.url)}`;
    const sent = bodyBytes(request.body);
    const exact = `${loose} ${sent !== undefined ? sha256Hex(sent) : ''}`;
    // The same request answered as recorded; failing that, the next recorded answer to that URL
    // (a request body may differ in an id the original chose).
    const resource = this.#take(this.#exact.get(exact)) ?? this.#take(this.#byUrl.get(loose));
    if (!resource) {
      this.log.missing.push(loose);
      throw new NotRecordedProblem(urlKey(request.url), request.purpose);
    }
    this.log.answered.push(resource.id);
    const answer = (): FetchResponse => this.#response(resource, request);
    if (request.stages && trace) {
      return trace.run('bundle.read', `Read the ${request.purpose} recorded as ${resource.id}`, (stage) => {
        const response = answer();
        stage.detail = `${resource.id}: HTTP ${response.status}, ${response.bytes} bytes, as recorded at ${resource.fetchedAt}`;
        return response;
      });
    }
    return answer();
  }

  #response(resource: BundleResource, request: FetchRequest): FetchResponse {
    // decodeBundle checked every body; the recorded bytes are served as they are, digest or not.
    const body = fromBase64(resource.response.body) ?? new Uint8Array();
    if (body.length > request.maxBytes) {
      const setting = request.maxBytesSetting ? ` (${request.maxBytesSetting})` : '';
      throw new ProblemError(
        'PAYLOAD_TOO_LARGE',
        `The ${request.purpose} recorded as ${resource.id} is ${body.length} bytes; the limit is ${request.maxBytes} bytes${setting}.`,
      );
    }
    const watch = request.watchBody?.(resource.response.status, resource.response.headers['content-type'] ?? null);
    watch?.(body);
    return {
      url: resource.response.url,
      status: resource.response.status,
      contentType: resource.response.headers['content-type'] ?? null,
      headers: { ...resource.response.headers },
      body,
      bytes: body.length,
      sha256: sha256Hex(body),
      peerAddress: resource.peerAddress,
      redirects: resource.redirects.map((r) => ({ ...r })),
      latencyMs: 0,
      tls: resource.tls ? replayedTls(resource, this.asFetched ? new Date(resource.fetchedAt) : this.clock.now()) : null,
      allowances: [...resource.allowances],
    };
  }

  async checkDestination(url: string, purpose: string): Promise<void> {
    throw new NotRecordedProblem(urlKey(url), purpose);
  }

  async resolveTxt(name: string): Promise<string[]> {
    const lookup = this.bundle.txt.find((t) => t.name === name);
    if (!lookup) {
      this.log.missing.push(`TXT ${name}`);
      throw new NotRecordedProblem(`dns:${name}`, 'TXT record');
    }
    return [...lookup.records];
  }

  close(): void {}
}

/** The TLS evidence of a recorded connection, its days until expiry counted from `now`. */
function replayedTls(resource: BundleResource, now: Date): TlsEvidence | null {
  const tls = resource.tls;
  if (!tls) return null;
  const leaf = describeLeaf(tls.chain[0], tls.host);
  return {
    host: tls.host,
    validatedBy: tls.validatedBy,
    protocol: tls.protocol,
    cipher: tls.cipher,
    certificate: leaf.certificate,
    daysUntilExpiry: Math.floor((new Date(leaf.certificate.validTo).getTime() - now.getTime()) / DAY_MS),
    hostnameInSan: leaf.hostnameInSan,
  };
}

/**
 * A Runtime whose Net answers from `bundle` and fetches nothing, at `at` (the bundle's time, or
 * now): a cache of its own, no store, no supplied resources. `asFetched`: TLS evidence as of each
 * resource's own fetch time (the re-run at observation), not `at`.
 */
export function replayRuntime(runtime: Runtime, bundle: EvidenceBundle, at: Date, asFetched = false): { runtime: Runtime; log: ReplayLog } {
  const clock = fixedClock(at, runtime.clock);
  const log: ReplayLog = { answered: [], missing: [] };
  const { store: _store, supplied: _supplied, ...rest } = runtime;
  return {
    runtime: { ...rest, clock, net: new ReplayNet(bundle, clock, log, asFetched), cache: new MemoryResolutionCache(clock, 64) },
    log,
  };
}
