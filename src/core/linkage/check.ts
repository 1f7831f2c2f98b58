/**
 * The domain binding of a DID to a web origin: fetch `<origin>/.well-known/did-configuration.json`
 * through the Runtime's fetcher (same egress policy as every fetch) and verify it. Nothing here
 * throws for the remote side's faults: an unreachable or absent file is evidence
 * (UNREACHABLE, NOT_CONFIGURED), not an error.
 *
 * `startDomainBinding` begins the fetch at once so it can run beside the document fetch; its
 * trace stages (`linkage.fetch`, `linkage.verify_proof`) are recorded when `finish` is called.
 *
 * One configuration serves every DID of its origin: a fetched one (HTTP 2xx, or 404/410 for "none
 * published") is kept DID_CONFIGURATION_TTL_MS per origin and per fetcher, on the Runtime's clock,
 * and concurrent checks of one origin share one fetch (single flight). A failed fetch is shared
 * only by the checks already waiting for it, never kept. The proof is verified for each DID, as
 * before: only the bytes are shared. A resolution asked not to use cached answers (noCache)
 * fetches the configuration itself, and keeps what it got for the others.
 */
import { configurationUrl } from '../methods/web-location.js';
import type { FetchResponse, Net } from '../net.js';
import { cancelledProblem, ProblemError } from '../problems.js';
import type { Trace } from '../resolve/trace.js';
import type { DidDocument } from '../resolve/types.js';
import type { Runtime } from '../runtime.js';
import { describeResponse, NotSuppliedProblem } from '../supplied/resources.js';
import type { DomainBindingEvidence } from './types.js';
import { unfetchedBinding, verifyDidConfiguration } from './verify.js';

export { configurationUrl };

/** Largest did-configuration.json svc reads (bytes); a larger one makes the binding UNREACHABLE. */
export const DID_CONFIGURATION_MAX_BYTES = 512 * 1024;

/**
 * How long an origin's fetched DID configuration serves its other DIDs (2 minutes): a burst of
 * resolutions of one origin fetches it once, and a republished configuration is seen within
 * minutes. Bounded to CONFIGURATION_MAX_ORIGINS origins and CONFIGURATION_MAX_KEPT_BYTES of bodies
 * per fetcher (the origin kept longest goes first).
 */
export const DID_CONFIGURATION_TTL_MS = 120_000;
const CONFIGURATION_MAX_ORIGINS = 256;
const CONFIGURATION_MAX_KEPT_BYTES = 8 * 1024 * 1024;

type Fetched = FetchResponse | ProblemError;
type KeptConfiguration = { response: FetchResponse; fetchedAtMs: number } | { pending: Promise<Fetched> };

interface ConfigurationCache {
  entries: Map<string, KeptConfiguration>;
  bytes: number;
}

/** Per fetcher (a Runtime's `net`): a test's fetcher, or a supplied one, never shares another's. */
const configurations = new WeakMap<Net, ConfigurationCache>();

function keptBytes(entry: KeptConfiguration | undefined): number {
  return entry && 'response' in entry ? entry.response.bytes : 0;
}

/**
 * The configuration at `url`: kept (with its age, ms), or fetched once for every check that asks
 * meanwhile. `load` runs without the caller's signal (another check may wait for it); the caller
 * stops waiting when its own signal aborts.
 */
async function sharedConfiguration(
  runtime: Runtime,
  url: string,
  load: () => Promise<FetchResponse>,
  signal: AbortSignal | undefined,
  fresh: boolean,
): Promise<{ fetched: Fetched; ageMs: number | null }> {
  let cache = configurations.get(runtime.net);
  if (!cache) {
    cache = { entries: new Map(), bytes: 0 };
    configurations.set(runtime.net, cache);
  }
  const { entries } = cache;
  const nowMs = runtime.clock.now().getTime();
  const current = entries.get(url);
  if (current && 'response' in current) {
    if (!fresh && nowMs - current.fetchedAtMs < DID_CONFIGURATION_TTL_MS && nowMs >= current.fetchedAtMs) {
      return { fetched: current.response, ageMs: nowMs - current.fetchedAtMs };
    }
    cache.bytes -= keptBytes(current);
    entries.delete(url);
  }
  let pending: Promise<Fetched>;
  if (!fresh && current && 'pending' in current) pending = current.pending;
  else {
    const entry: KeptConfiguration = {
      pending: load().then(
        (response) => {
          if (entries.get(url) === entry) {
            entries.delete(url);
            const keep =
              response.supplied === undefined && ((response.status >= 200 && response.status <= 299) || response.status === 404 || response.status === 410);
            if (keep) {
              entries.set(url, { response, fetchedAtMs: runtime.clock.now().getTime() });
              cache.bytes += response.bytes;
              while (entries.size > CONFIGURATION_MAX_ORIGINS || cache.bytes > CONFIGURATION_MAX_KEPT_BYTES) {
                const [oldest, kept] = entries.entries().next().value!;
                cache.bytes -= keptBytes(kept);
                entries.delete(oldest);
              }
            }
          }
          return response;
        },
        (err: unknown) => {
          if (entries.get(url) === entry) entries.delete(url);
          if (err instanceof ProblemError) return err;
          throw err;
        },
      ),
    };
    pending = entry.pending;
    entries.set(url, entry);
  }
  if (!signal) return { fetched: await pending, ageMs: null };
  if (signal.aborted) throw cancelledProblem();
  let cancel: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    cancel = () => reject(cancelledProblem());
    signal.addEventListener('abort', cancel, { once: true });
  });
  try {
    return { fetched: await Promise.race([pending, aborted]), ageMs: null };
  } finally {
    signal.removeEventListener('abort', cancel!);
  }
}

export interface DomainBindingCheck {
  /** The configuration URL of the origin. */
  url: string;
  /** Settles (never rejects) once the fetch is over: await it before abandoning the check. */
  settled: Promise<void>;
  /**
   * Records the fetch stage, verifies the configuration for this DID and document. Null when
   * nothing was checked: verifying from files, the configuration was neither supplied nor
   * fetched (core/supplied/resources.ts).
   */
  finish(did: string, document: DidDocument): Promise<DomainBindingEvidence | null>;
}

export function startDomainBinding(
  origin: string,
  { runtime, trace, options }: { runtime: Runtime; trace: Trace; options?: { noCache?: boolean } },
): DomainBindingCheck {
  const url = configurationUrl(origin);
  const fetching = trace.begin('linkage.fetch', `Fetch the DID configuration of ${origin}`, async (stage): Promise<FetchResponse | ProblemError> => {
    try {
      const { fetched, ageMs } = await sharedConfiguration(
        runtime,
        url,
        () => runtime.net.fetch({ url, purpose: 'DID configuration', maxBytes: DID_CONFIGURATION_MAX_BYTES, accept: 'application/json' }),
        trace.signal,
        options?.noCache === true,
      );
      if (fetched instanceof ProblemError) throw fetched;
      const response = fetched;
      stage.detail = describeResponse(response);
      if (ageMs !== null) stage.detail += ` (kept from a fetch ${Math.round(ageMs / 1000)} s ago)`;
      if (response.status === 404 || response.status === 410) stage.detail += ': no DID configuration published';
      else if (response.status < 200 || response.status > 299) stage.status = 'FAIL';
      return response;
    } catch (err) {
      if (err instanceof NotSuppliedProblem) {
        stage.status = 'SKIP';
        stage.detail = 'not supplied, and not fetched (verifying from files without the network)';
        return err;
      }
      if (!(err instanceof ProblemError)) throw err;
      stage.status = 'FAIL';
      stage.detail = err.detail;
      return err;
    }
  });

  return {
    url,
    settled: fetching.settled,
    async finish(did, document) {
      const fetched = await fetching.commit();
      if (fetched instanceof NotSuppliedProblem) return null;
      if (fetched instanceof ProblemError) {
        return unfetchedBinding('UNREACHABLE', origin, url, `The DID configuration could not be fetched: ${fetched.detail}`);
      }
      if (fetched.status === 404 || fetched.status === 410) {
        return unfetchedBinding('NOT_CONFIGURED', origin, url, `${origin} publishes no DID configuration (HTTP ${fetched.status}).`);
      }
      if (fetched.status < 200 || fetched.status > 299) {
        return unfetchedBinding('UNREACHABLE', origin, url, `${origin} answered HTTP ${fetched.status} for its DID configuration.`);
      }
      return trace.run('linkage.verify_proof', 'Verify the domain linkage credentials', async (stage) => {
        const binding = await verifyDidConfiguration({ did, document, origin, configurationUrl: url, body: fetched.body, now: runtime.clock.now() });
        stage.status = binding.status === 'VERIFIED' ? 'PASS' : binding.status === 'INVALID_PROOF' || binding.status === 'MALFORMED' ? 'FAIL' : 'WARN';
        stage.detail = `${binding.status}: ${binding.reason}`;
        return binding;
      });
    },
  };
}

/** Fetches and verifies in one go (when nothing else runs beside it). */
export function checkDomainBinding(
  did: string,
  document: DidDocument,
  origin: string,
  context: { runtime: Runtime; trace: Trace },
): Promise<DomainBindingEvidence | null> {
  return startDomainBinding(origin, context).finish(did, document);
}
