/**
 * Where the verifiers of credentials, JWS and delegation receipts find keys: the verification
 * methods a controller publishes, with the relationships that authorise them. Production looks
 * controllers up as DIDs through the core's resolution (cache, egress policy and all); tests may
 * inject a KeySource for controllers that are not DIDs (the W3C vectors' `https://` issuers).
 */
import { didOf } from '../did/syntax.js';
import { checkVerificationMethod } from '../keys/inspect.js';
import { jwkThumbprint } from '../keys/jwk.js';
import type { KeyStatus, PublicJwk } from '../keys/types.js';
import { asProblemError } from '../problems.js';
import { readDocument } from '../resolve/document.js';
import { deepFreeze } from '../resolve/cache.js';
import { resolve } from '../resolve/resolve.js';
import type { StageHooks } from '../resolve/trace.js';
import type { EnrichedResolution, Relationship } from '../resolve/types.js';
import type { Runtime } from '../runtime.js';
import { clause } from '../text.js';
import type { IssuerResolutionSummary } from './types.js';

export interface ControllerKey {
  /** Absolute id of the verification method (a DID URL for DIDs). */
  id: string;
  type: string | null;
  status: KeyStatus;
  curve: string | null;
  /** The public key when it could be read. */
  publicJwk: PublicJwk | null;
  /** RFC 7638 thumbprint of `publicJwk` (JOSE issuers often use it as the `kid`). */
  thumbprint: string | null;
  relationships: Relationship[];
  detail: string | null;
}

export type ControllerKeys =
  | {
      ok: true;
      controller: string;
      keys: ControllerKey[];
      /** DEACTIVATED controllers authorise no key any more; callers decide what that means. */
      deactivated: boolean;
      resolution: IssuerResolutionSummary | null;
      /** The full resolution when the controller is a DID (for policies and summaries). */
      enriched: EnrichedResolution | null;
    }
  | {
      ok: false;
      controller: string;
      /** One line: why no keys could be found (not a DID, unreachable host …). */
      reason: string;
      resolution: IssuerResolutionSummary | null;
    };

export interface KeySource {
  /** The keys `controller` publishes; never throws for an unresolvable controller. */
  keysOf(controller: string, signal?: AbortSignal): Promise<ControllerKeys>;
  /**
   * What keysOf would give, when the source has it at hand without waiting (a resolution cache
   * hit whose keys were read before); undefined otherwise. Optional: a source without it is
   * always asked through keysOf.
   */
  knownKeysOf?(controller: string): ControllerKeys | undefined;
}

export { didOf };

/**
 * Keys read from each resolution object. Cache hits hand out the same frozen resolution, so a
 * verifier that sees many credentials of one issuer validates its keys once, not per credential.
 */
const KEYS_OF_RESOLUTION = new WeakMap<EnrichedResolution, Promise<ControllerKey[]>>();

/**
 * What #lookup built from a cached resolution object, by that object: a controller's keys,
 * summary and all, are read once per cache entry, not once per verification.
 */
const KEYS_READ = new WeakMap<EnrichedResolution, ControllerKeys>();

function keysOfResolution(result: EnrichedResolution): Promise<ControllerKey[]> {
  let keys = KEYS_OF_RESOLUTION.get(result);
  if (!keys) {
    keys = keysOfDocument(result.did, result.didDocument);
    KEYS_OF_RESOLUTION.set(result, keys);
  }
  return keys;
}

/** The keys of a DID document, read and validated as resolution reads them. */
export async function keysOfDocument(did: string, document: EnrichedResolution['didDocument']): Promise<ControllerKey[]> {
  const reading = readDocument(did, document);
  const keys: ControllerKey[] = [];
  for (const method of reading.methods) {
    const check = await checkVerificationMethod(method.value);
    keys.push({
      id: method.id,
      type: typeof method.value['type'] === 'string' ? (method.value['type'] as string) : null,
      status: check.status,
      curve: check.curve,
      publicJwk: check.publicJwk,
      thumbprint: check.publicJwk ? jwkThumbprint(check.publicJwk) : null,
      relationships: method.relationships,
      detail: check.detail,
    });
  }
  return keys;
}

export function resolutionSummary(result: EnrichedResolution): IssuerResolutionSummary {
  return {
    did: result.did,
    outcome: result.verdict.outcome,
    headline: result.verdict.headline,
    problem: null,
    detail: result.cached ? 'Resolved (from the cache).' : 'Resolved.',
  };
}

/** Problems that say the service could not work, not that the controller failed to resolve. */
const SERVICE_LIMITS: ReadonlySet<string> = new Set(['REQUEST_TIMEOUT', 'CAPACITY_EXHAUSTED', 'SERVICE_UNAVAILABLE', 'RATE_LIMITED']);

/**
 * True when a resolution problem is the service's own (time limit, capacity, cancellation): it
 * must stay an error, never become evidence about the DID.
 */
export function isServiceProblem(problem: { code: string }, signal?: AbortSignal): boolean {
  return signal?.aborted === true || SERVICE_LIMITS.has(problem.code);
}

/** Resolves with the core; `resolveDid` lets the daemon route resolutions through its capacity. */
export type ResolveDid = (did: string, signal?: AbortSignal) => Promise<EnrichedResolution>;

/**
 * The production KeySource: a controller is a DID, resolved through the core. Anything that is
 * not a DID has no keys svc can find. `hooks` watch the stages of those resolutions (the CLI's
 * progress line); they apply only when no `resolveDid` is given.
 */
export function didKeySource(runtime: Runtime, resolveDid?: ResolveDid, hooks?: StageHooks): KeySource {
  return new DidKeySource(runtime, resolveDid, hooks);
}

/** didKeySource's object: its steps are methods, so a verification builds no closures for them. */
class DidKeySource implements KeySource {
  /**
   * One lookup per controller per source: a credential and its status lists share it. Made on
   * first use (most verifications of a cached issuer need only #settled).
   */
  #memo: Map<string, Promise<ControllerKeys>> | undefined;
  /**
   * The lookups answered at once (#known): what #memo would hold, settled. The first in a slot
   * of its own (a credential names one issuer), any other in a map.
   */
  #firstController: string | undefined;
  #firstKeys: ControllerKeys | undefined;
  #settled: Map<string, ControllerKeys> | undefined;

  #settledOf(controller: string): ControllerKeys | undefined {
    return controller === this.#firstController ? this.#firstKeys : this.#settled?.get(controller);
  }

  constructor(
    private readonly runtime: Runtime,
    private readonly resolveDid: ResolveDid | undefined,
    private readonly hooks: StageHooks | undefined,
  ) {}

  keysOf(controller: string, signal?: AbortSignal): Promise<ControllerKeys> {
    const memo = (this.#memo ??= new Map());
    let pending = memo.get(controller);
    if (!pending) {
      const known = this.#settledOf(controller) ?? this.#known(controller);
      if (known) {
        pending = Promise.resolve(known);
      } else {
        pending = this.#lookup(controller, signal);
        pending.catch(() => memo.delete(controller));
      }
      memo.set(controller, pending);
    }
    return pending;
  }

  knownKeysOf(controller: string): ControllerKeys | undefined {
    const settled = this.#settledOf(controller);
    if (settled !== undefined) return settled;
    // A lookup under way (or settled through keysOf) is this source's answer: it is awaited.
    if (this.#memo?.has(controller)) return undefined;
    const known = this.#known(controller);
    if (known === undefined) return undefined;
    if (this.#firstController === undefined) {
      this.#firstController = controller;
      this.#firstKeys = known;
    } else {
      (this.#settled ??= new Map()).set(controller, known);
    }
    return known;
  }

  /**
   * The keys of a controller whose resolution is a cache hit and whose keys were read from that
   * very resolution before: what #lookup would build again, without resolving. Only where svc
   * resolves itself (a daemon's `resolveDid` routes every lookup through its capacity). A plain
   * DID is its own cache key, as in resolve()'s fast path.
   */
  #known(controller: string): ControllerKeys | undefined {
    if (this.resolveDid) return undefined;
    const hit = this.runtime.cache.get(controller);
    return hit === undefined ? undefined : KEYS_READ.get(hit);
  }

  #run(did: string, signal?: AbortSignal): Promise<EnrichedResolution> {
    if (this.resolveDid) return this.resolveDid(did, signal);
    return resolve(did, this.runtime, signal ? { signal } : {}, this.hooks);
  }

  async #lookup(controller: string, signal?: AbortSignal): Promise<ControllerKeys> {
    const did = didOf(controller);
    if (did === null || did !== controller) {
      return { ok: false, controller, reason: `${controller} is not a DID; svc finds keys only through DIDs`, resolution: null };
    }
    let result: EnrichedResolution;
    try {
      result = await this.#run(did, signal);
    } catch (err) {
      const problem = asProblemError(err);
      // The service's own limits are no evidence about the controller: they stay errors.
      if (isServiceProblem(problem, signal)) throw problem;
      return {
        ok: false,
        controller,
        reason: `${did} did not resolve: ${clause(problem.message)}`,
        resolution: { did, outcome: null, headline: null, problem: problem.code, detail: problem.message },
      };
    }
    const keys: ControllerKeys = {
      ok: true,
      controller,
      keys: await keysOfResolution(result),
      deactivated: result.verdict.outcome === 'DEACTIVATED',
      resolution: resolutionSummary(result),
      enriched: result,
    };
    // Shared by every later verification that hits this resolution: frozen, as the hit is.
    if (result.cached && !this.resolveDid) KEYS_READ.set(result, deepFreeze(keys));
    return keys;
  }
}
