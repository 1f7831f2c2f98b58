/**
 * The domain binding of a DID to a web origin: fetch `<origin>/.well-known/did-configuration.json`
 * through the Runtime's fetcher (same egress policy as every fetch) and verify it. Nothing here
 * throws for the remote side's faults: an unreachable or absent file is evidence
 * (UNREACHABLE, NOT_CONFIGURED), not an error.
 *
 * `startDomainBinding` begins the fetch at once so it can run beside the document fetch; its
 * trace stages (`linkage.fetch`, `linkage.verify_proof`) are recorded when `finish` is called.
 */
import { configurationUrl } from '../methods/web-location.js';
import type { FetchResponse } from '../net.js';
import { ProblemError } from '../problems.js';
import type { Trace } from '../resolve/trace.js';
import type { DidDocument } from '../resolve/types.js';
import type { Runtime } from '../runtime.js';
import { describeResponse, NotSuppliedProblem } from '../supplied/resources.js';
import type { DomainBindingEvidence } from './types.js';
import { unfetchedBinding, verifyDidConfiguration } from './verify.js';

export { configurationUrl };

/** Largest did-configuration.json svc reads (bytes); a larger one makes the binding UNREACHABLE. */
export const DID_CONFIGURATION_MAX_BYTES = 512 * 1024;

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

export function startDomainBinding(origin: string, { runtime, trace }: { runtime: Runtime; trace: Trace }): DomainBindingCheck {
  const url = configurationUrl(origin);
  const fetching = trace.begin('linkage.fetch', `Fetch the DID configuration of ${origin}`, async (stage): Promise<FetchResponse | ProblemError> => {
    try {
      const response = await runtime.net.fetch({
        url,
        purpose: 'DID configuration',
        maxBytes: DID_CONFIGURATION_MAX_BYTES,
        accept: 'application/json',
        signal: trace.signal,
      });
      stage.detail = describeResponse(response);
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
