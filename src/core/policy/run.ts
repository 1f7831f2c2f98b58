/**
 * A policy decision end to end, for the daemon and the CLI alike: resolve
 * the DID, verify the supplied credential, then evaluate. A DID that does not resolve is
 * evidence (the rules that need it become INDETERMINATE or FAIL); only the service's own
 * failures (time limit, capacity, cancellation) stay errors.
 */
import { didKeySource, isServiceProblem, type ResolveDid } from '../credentials/keys.js';
import type { CredentialVerification } from '../credentials/types.js';
import { verifyCredential } from '../credentials/verify.js';
import { asProblemError, type ProblemError } from '../problems.js';
import { resolve } from '../resolve/resolve.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Dimension, EnrichedResolution, Verdict } from '../resolve/types.js';
import type { Runtime } from '../runtime.js';
import { evaluatePolicy } from './evaluate.js';
import type { Policy, PolicyEvaluation } from './types.js';

export interface PolicyDecision {
  evaluation: PolicyEvaluation;
  credential: CredentialVerification | null;
  resolution: { verdict: Verdict; dimensions: Dimension[] } | null;
}

export interface DecidePolicyOptions {
  runtime: Runtime;
  /** How DIDs are resolved (the daemon passes its capacity-bounded, recorded resolution). */
  resolveDid?: ResolveDid;
  signal?: AbortSignal;
  /** Watch the stages (resolution, credential, evaluation): the CLI's progress. */
  hooks?: StageHooks;
}

export async function decidePolicy(did: string, policy: Policy, credential: unknown, options: DecidePolicyOptions): Promise<PolicyDecision> {
  const { runtime, signal, hooks } = options;
  const run: ResolveDid = options.resolveDid ?? ((target, s) => resolve(target, runtime, s ? { signal: s } : {}, hooks));
  let resolution: EnrichedResolution | null = null;
  let resolutionProblem: ProblemError | null = null;
  try {
    resolution = await run(did, signal);
  } catch (err) {
    const problem = asProblemError(err);
    if (isServiceProblem(problem, signal)) throw problem;
    resolutionProblem = problem;
  }
  const verification =
    credential === undefined
      ? null
      : await verifyCredential(credential, { runtime, keySource: didKeySource(runtime, run), ...(signal ? { signal } : {}), ...(hooks ? { hooks } : {}) });
  const evaluation = await new StageReporter(runtime.clock, hooks, runtime.telemetry).run(
    'policy.evaluate',
    policy.name ? `Evaluate the policy ${policy.name}` : 'Evaluate the policy',
    (stage) => {
      const evaluated = evaluatePolicy(did, policy, { resolution, resolutionProblem, credential: verification }, runtime.clock.now());
      stage.detail = evaluated.status;
      return evaluated;
    },
  );
  return {
    evaluation,
    credential: verification,
    resolution: resolution ? { verdict: resolution.verdict, dimensions: resolution.dimensions } : null,
  };
}
