/**
 * One check of an MCP or A2A watch: the endpoint's inventory or the card inspected afresh and
 * compared with the watch's baseline (docs/daemon.md#operator-monitoring).
 *
 * The inspection is svc's own (core/mcp/inspect.ts, core/a2a/inspect.ts, as POST /v1/mcp/inspect
 * and /v1/a2a/inspect run them): through the egress policy, under one capacity slot of the
 * poller's share and the daemon's time limit, a DID `kid` of a card resolved through the daemon.
 * Nothing is written to the inspection history (the watch's baselines are its record). Its
 * snapshot is the baseline-file entry (core/monitoring/target-events.ts): RESOLVED with the
 * snapshot's hash, or FAILED with the problem — also when the MCP server asks for authentication
 * or lists its inventory only in part (a partial listing cannot show what was removed). A check
 * the service itself could not make (capacity, shutdown, its own time limit) is skipped, as for
 * DIDs.
 */
import { a2aEntryOf } from '../../core/a2a/baseline.js';
import { inspectA2a } from '../../core/a2a/inspect.js';
import { failedOutcome } from '../../core/monitoring/check.js';
import { plannedTargetEvents, snapshotOutcome, type A2aSnapshot, type TargetSnapshot } from '../../core/monitoring/target-events.js';
import type { McpBaselineServer } from '../../core/mcp/baseline.js';
import { inspectMcp, parseEndpoint } from '../../core/mcp/inspect.js';
import type { TlsEvidence } from '../../core/net.js';
import { asProblemError, ProblemError, type ProblemCode } from '../../core/problems.js';
import { rfc3339, type Runtime } from '../../core/runtime.js';
import type { CheckOutcome, WatchCheckInput } from '../../core/store.js';
import { RequestSlot } from '../capacity.js';
import { keysFor, type ServerContext } from '../context.js';
import type { Observation, withCertificate } from './poller.js';

/** The capacity share of the poller (as its resolutions). */
const POLLER_CLIENT = 'svc-monitor';

/** The service's own failures: they say nothing about the endpoint, so no check is recorded. */
const NOT_ABOUT_THE_TARGET = new Set<ProblemCode>(['CAPACITY_EXHAUSTED', 'SERVICE_UNAVAILABLE', 'NOT_READY', 'REQUEST_TIMEOUT', 'INTERNAL_ERROR']);

/** What one inspection shows: the snapshot and the TLS evidence of its connection. */
interface Inspected {
  snapshot: TargetSnapshot;
  tls: TlsEvidence | null;
}

/** The MCP endpoint's inventory as a baseline entry (ProblemError when there is none to compare). */
async function inspectEndpoint(runtime: Runtime, endpoint: string, signal: AbortSignal): Promise<Inspected> {
  let entry: McpBaselineServer | null = null;
  const target = parseEndpoint(endpoint).href;
  // Compared with an empty baseline only to receive the inventory as an entry (capture); the store
  // is left out: a watch's checks are recorded as its baselines, not in the inspection history.
  const inspection = await inspectMcp(target, {
    runtime: { ...runtime, store: undefined },
    signal,
    baseline: { file: 'the watch', name: target, entry: null, capture: (e) => void (entry = e) },
  });
  if (inspection.status !== 'INSPECTED') {
    throw new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server at ${target} requires authentication, so its inventory could not be listed.`);
  }
  if (entry === null) {
    const limit = inspection.checks.find((c) => c.id === 'inventory')?.detail ?? 'a listing was cut short';
    throw new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server at ${target} listed its inventory only in part: ${limit}`.slice(0, 500));
  }
  return { snapshot: entry, tls: inspection.tls };
}

/** The agent card as a baseline entry, with its signature status. */
async function inspectCard(ctx: ServerContext, runtime: Runtime, slot: RequestSlot, url: string, signal: AbortSignal): Promise<Inspected> {
  const inspection = await inspectA2a(url, { runtime, keys: keysFor(ctx, slot), signal });
  const snapshot: A2aSnapshot = { ...a2aEntryOf(inspection), signatureStatus: inspection.checks.find((c) => c.id === 'signature')?.status ?? null };
  return { snapshot, tls: inspection.tls };
}

/**
 * Inspects the watched MCP endpoint or A2A card and compares it with the watch's baselines; the
 * certificate of the inspection's connection goes through `certify` (the poller's withCertificate,
 * passed in so that this module needs nothing of the poller at run time).
 */
export async function observeTarget(ctx: ServerContext, input: WatchCheckInput, certify: typeof withCertificate): Promise<Observation> {
  const { watch } = input;
  const kind = watch.kind === 'a2a' ? 'a2a' : 'mcp';
  let outcome: CheckOutcome;
  let tls: TlsEvidence | null = null;
  const slot = new RequestSlot(ctx.capacity, POLLER_CLIENT);
  try {
    slot.take();
    // Every fetch of the inspection runs under this one slot (as a request's outbound work).
    const runtime: Runtime = ctx.runtime;
    const signal = AbortSignal.timeout(ctx.limits.requestTimeoutMs);
    const seen = kind === 'mcp' ? await inspectEndpoint(runtime, watch.did, signal) : await inspectCard(ctx, runtime, slot, watch.did, signal);
    outcome = snapshotOutcome(seen.snapshot, rfc3339(ctx.runtime.clock.now()));
    tls = seen.tls;
  } catch (err) {
    const problem = asProblemError(err);
    if (NOT_ABOUT_THE_TARGET.has(problem.code) || (err instanceof Error && err.name === 'TimeoutError')) return { skipped: problem.detail };
    outcome = failedOutcome(problem.toProblem(ctx.runtime.config.problemsBase), rfc3339(ctx.runtime.clock.now()));
  } finally {
    slot.release();
  }
  return certify(ctx, input, { outcome, events: plannedTargetEvents(kind, watch.did, input, outcome) }, tls);
}
