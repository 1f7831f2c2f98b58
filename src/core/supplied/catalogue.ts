/**
 * The resources supplied to one Runtime, by URL (`runtime.supplied`; see resources.ts for the
 * Runtime that answers fetches with them). A leaf beside the Runtime: runtime.ts names the class
 * without reaching the fetch layer that uses it. resources.ts re-exports all of it.
 */
import { ProblemError } from '../problems.js';

/** Bytes supplied in place of one URL svc would fetch. */
export interface SuppliedResource {
  /** The URL svc would fetch (absolute https); the bytes stand in for it. */
  url: string;
  body: Uint8Array;
  /** The media type reported as the response's content type (application/did+json …). */
  mediaType: string;
  /** Where the bytes came from, as the result names it: a file name as given. */
  source: string;
  /** What the resource is, for messages ("DID document", "DID configuration"). */
  purpose: string;
}

export interface SuppliedOptions {
  /**
   * Fetch what was not supplied, through the Runtime's own fetcher (egress policy and all).
   * Default false: nothing is fetched, and a URL not supplied is NotSuppliedProblem.
   */
  allowNetwork?: boolean;
}

/** The URL's canonical text, so that `https://Host:443/a` and `https://host/a` are one key. */
export function urlKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** The supplied resources of one Runtime, by URL. */
export class SuppliedResources {
  readonly allowNetwork: boolean;
  readonly #byUrl = new Map<string, SuppliedResource>();
  /** Each URL a fetch asked for that was answered from here or refused, in order: what the work used. */
  readonly #consulted = new Map<string, SuppliedNote>();

  constructor(resources: readonly SuppliedResource[], options: SuppliedOptions = {}) {
    this.allowNetwork = options.allowNetwork === true;
    for (const resource of resources) {
      const key = urlKey(resource.url);
      const earlier = this.#byUrl.get(key);
      if (earlier) {
        throw new ProblemError('INVALID_OPTIONS', `Both ${earlier.source} and ${resource.source} are supplied for ${key}; give one file per resource.`);
      }
      this.#byUrl.set(key, { ...resource, url: key });
    }
  }

  get(url: string): SuppliedResource | undefined {
    return this.#byUrl.get(urlKey(url));
  }

  /** Records that a fetch of `url` was answered from a supplied resource (source) or refused (null). */
  consult(url: string, purpose: string, source: string | null): void {
    const key = urlKey(url);
    if (!this.#consulted.has(key)) this.#consulted.set(key, { purpose, url: key, source });
  }

  /**
   * The resources fetches asked this Runtime for, supplied or refused, in the order first asked:
   * the notes of work that reads whatever its input names (a credential's issuer and status
   * lists, an agent card's keys). Use one such Runtime per piece of work.
   */
  consulted(): SuppliedNote[] {
    return [...this.#consulted.values()];
  }
}

/** One resource of a result, as the result reports it: supplied from `source`, or (source null) neither supplied nor fetched. */
export interface SuppliedNote {
  purpose: string;
  url: string;
  source: string | null;
}
