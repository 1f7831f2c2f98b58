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
import { isProblemCode, ProblemError } from '../problems.js';
import { MemoryResolutionCache } from '../resolve/cache.js';
import type { Trace } from '../resolve/trace.js';
import type { ResolutionCache, Runtime } from '../runtime.js';
import { urlKey } from '../supplied/catalogue.js';
import { describeLeaf } from './tls.js';
import { RECORDED_HEADERS, responseBody, toBase64, type BundleFailure, type BundleResource, type BundleTxtLookup, type EvidenceBundle } from './format.js';

const DAY_MS = 86_400_000;

function bodyBytes(body: string | Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** The request as a bundle keeps it: method, URL, and the body's digest and bytes when there is one. */
function recordedRequest(request: FetchRequest): BundleResource['request'] {
  const sent = bodyBytes(request.body);
  return {
    method: request.method ?? 'GET',
    url: urlKey(request.url),
    ...(sent !== undefined ? { sha256: sha256Hex(sent), body: toBase64(sent) } : {}),
  };
}

/** The resources, failed requests and TXT lookups one piece of work made, in order. */
export class Recorder {
  readonly resources: BundleResource[] = [];
  /** Requests that ended in a problem instead of a response, numbered with the resources. */
  readonly failures: BundleFailure[] = [];
  readonly txt: BundleTxtLookup[] = [];
  #bytes = 0;
  #next = 1;

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
      id: `r${this.#next++}`,
      purpose: request.purpose,
      fetchedAt: fetchedAt.toISOString(),
      request: recordedRequest(request),
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

  /** A request that ended in `problem` (no response to keep): the re-run meets the same problem. */
  fail(request: FetchRequest, problem: ProblemError, fetchedAt: Date): void {
    const sent = bodyBytes(request.body);
    this.#bytes += (sent?.length ?? 0) + problem.detail.length;
    this.failures.push({
      id: `r${this.#next++}`,
      purpose: request.purpose,
      fetchedAt: fetchedAt.toISOString(),
      request: recordedRequest(request),
      problem: { code: problem.code, detail: problem.detail },
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
    let response: FetchResponse;
    try {
      response = await this.inner.fetch(request, trace);
    } catch (err) {
      // No response, but an outcome the work goes on from (an unreachable status list is an
      // INDETERMINATE check): kept, so the re-run meets the same problem at the same request.
      if (err instanceof ProblemError) this.recorder.fail(request, err, at);
      throw err;
    }
    // A resource supplied from a file was not fetched: the bundle records only what svc saw.
    if (!response.supplied) this.recorder.add(request, response, at);
    return response;
  }

  checkDestination(url: string, purpose: string, options?: { allowPlainHttp?: boolean }): Promise<void> {
    return this.inner.checkDestination(url, purpose, options);
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
 * result has no bytes behind it, so a bundle is always made from a fresh fetch). Its clock stands
 * at `observedAt` for the whole work, as the re-run's does, so every check that reads the time
 * reads the same instant both times (a credential's "valid at", a log's version times) — only the
 * fetches are stamped with the time they were made.
 */
export function recordingRuntime(runtime: Runtime, observedAt: Date = runtime.clock.now()): { runtime: Runtime; recorder: Recorder; observedAt: Date } {
  const recorder = new Recorder();
  const clock = fixedClock(observedAt, runtime.clock);
  return {
    runtime: { ...runtime, clock, net: new RecordingNet(runtime.net, recorder, runtime.clock), cache: new MemoryResolutionCache(clock, 64) },
    recorder,
    observedAt,
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

/** One recorded exchange: a response, or the problem a request ended in. */
type Exchange = BundleResource | BundleFailure;

const isFailure = (exchange: Exchange): exchange is BundleFailure => 'problem' in exchange;

/**
 * A Net that answers from a bundle's resources (and meets its recorded failures), in the order
 * they were recorded per request.
 */
class ReplayNet implements Net {
  readonly egressAllow: readonly string[] = [];
  readonly #exact = new Map<string, Exchange[]>();
  readonly #byUrl = new Map<string, Exchange[]>();
  readonly #used = new Set<string>();
  readonly #waiting: Array<{ order: number; release: () => void }> = [];
  #scheduled = false;

  constructor(
    private readonly bundle: EvidenceBundle,
    private readonly clock: Clock,
    readonly log: ReplayLog,
    /** Count a certificate's days to expiry from when its resource was fetched (the re-run at observation), not from the clock. */
    private readonly asFetched: boolean,
  ) {
    // Resources and failures share one numbering: r1, r2 … in the order the requests were made.
    const exchanges: Exchange[] = [...bundle.resources, ...(bundle.failures ?? [])].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
    for (const exchange of exchanges) {
      const loose = `${exchange.request.method} ${urlKey(exchange.request.url)}`;
      const exact = `${loose} ${exchange.request.sha256 ?? ''}`;
      this.#exact.set(exact, [...(this.#exact.get(exact) ?? []), exchange]);
      this.#byUrl.set(loose, [...(this.#byUrl.get(loose) ?? []), exchange]);
    }
  }

  #take(list: Exchange[] | undefined): Exchange | undefined {
    const exchange = list?.find((r) => !this.#used.has(r.id));
    if (exchange) this.#used.add(exchange.id);
    return exchange;
  }

  async fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse> {
    const loose = `${request.method ?? 'GET'} ${urlKey(request.url)}`;
    const sent = bodyBytes(request.body);
    const exact = `${loose} ${sent !== undefined ? sha256Hex(sent) : ''}`;
    // The same request answered as recorded; failing that, the next recorded answer to that URL
    // (a request body may differ in an id the original chose).
    const exchange = this.#take(this.#exact.get(exact)) ?? this.#take(this.#byUrl.get(loose));
    if (!exchange) {
      this.log.missing.push(loose);
      throw new NotRecordedProblem(urlKey(request.url), request.purpose);
    }
    this.log.answered.push(exchange.id);
    // The body is read (a watcher fed) at once, as a stream is read before its fetch ends; the
    // fetch then ends in its recorded turn.
    const answer = async (): Promise<FetchResponse> => {
      let response: FetchResponse | null = null;
      let problem: unknown = null;
      try {
        if (isFailure(exchange)) {
          // The problem the request ended in, as recorded (a code this svc does not know: the host's fault).
          const { code, detail } = exchange.problem;
          throw new ProblemError(isProblemCode(code) ? code : 'UPSTREAM_UNAVAILABLE', detail);
        }
        response = this.#response(exchange, request);
      } catch (err) {
        problem = err;
      }
      await this.#turn(Number(exchange.id.slice(1)));
      if (response === null) throw problem;
      return response;
    };
    if (request.stages && trace) {
      return trace.run('bundle.read', `Read the ${request.purpose} recorded as ${exchange.id}`, async (stage) => {
        const response = await answer();
        stage.detail = `${exchange.id}: HTTP ${response.status}, ${response.bytes} bytes, as recorded at ${exchange.fetchedAt}`;
        return response;
      });
    }
    return answer();
  }

  /**
   * Exchanges end in the order they were recorded: the ids number them as they ended, and what
   * the work reports can follow that order (an MCP transcript lists each exchange as it ended —
   * a server request answered on an open stream may end before or after the stream). Each turn,
   * of those waiting, the one recorded first ends; the next turn lets whatever that started (an
   * answer to a server's request) join the queue.
   */
  #turn(order: number): Promise<void> {
    return new Promise<void>((release) => {
      this.#waiting.push({ order, release });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setTimeout(() => {
      this.#scheduled = false;
      this.#waiting.sort((a, b) => a.order - b.order);
      this.#waiting.shift()?.release();
      if (this.#waiting.length > 0) this.#schedule();
    }, 0);
  }

  #response(resource: BundleResource, request: FetchRequest): FetchResponse {
    // decodeBundle checked every body; the recorded bytes are served as they are, digest or not.
    const body = responseBody(resource.response) ?? new Uint8Array();
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
 * resource's own fetch time (the re-run at observation), not `at`. `cache`: the resolution cache
 * to use (verifyBundle hands both re-runs one, emptied between them, so that what a did:webvh log
 * verified at the bundle's time is resumed now, as a live resolution resumes a log that only grew).
 */
export function replayRuntime(
  runtime: Runtime,
  bundle: EvidenceBundle,
  at: Date,
  asFetched = false,
  cache: ResolutionCache = new MemoryResolutionCache(fixedClock(at, runtime.clock), 64),
): { runtime: Runtime; log: ReplayLog } {
  const clock = fixedClock(at, runtime.clock);
  const log: ReplayLog = { answered: [], missing: [] };
  const { store: _store, supplied: _supplied, ...rest } = runtime;
  return {
    runtime: { ...rest, clock, net: new ReplayNet(bundle, clock, log, asFetched), cache },
    log,
  };
}
