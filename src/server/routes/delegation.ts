/**
 * Delegation routes (docs/delegation.md#over-http): POST /v1/agents/verify-delegation (intensive),
 * POST /v1/agents/authorize (intensive) and GET /v1/agents/verify-tool (standard). Bodies follow
 * the strict conventions of the verification routes: a JSON object, no unknown member, one precise
 * 400 otherwise. Every issuer DID a request needs goes through the daemon's capacity, cache and
 * history. Any error from these routes must be read as DENY by callers
 * (docs/clients.md#authorisation-fails-closed).
 *
 * verify-tool waits for the registry's re-verification after start (jobs/reverify-registry.ts)
 * and never answers from a chain it has not verified since the daemon started.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseDid, parseDidUrl } from '../../core/did/syntax.js';
import { authorize, verifyDelegationChain } from '../../core/delegation/index.js';
import { registerChain, verifyTool } from '../../core/delegation/registry.js';
import type { Authorization, DelegationChainResult } from '../../core/delegation/types.js';
import { ProblemError } from '../../core/problems.js';
import { outboundWork, underLimits, type RouteDef, type ServerContext } from '../context.js';
import { truncate } from '../../core/text.js';
import { objectBody, queryOptions } from '../http.js';
import { clientOf, TokenBuckets } from '../rate-limit.js';
import { reverifyRegistry } from '../jobs/reverify-registry.js';
import {
  AuthorizationSchema,
  AuthorizeRequestSchema,
  AuthorizeResponseSchema,
  DelegationVerificationSchema,
  VerifyDelegationRequestSchema,
  VerifyToolQuerySchema,
} from '../schemas/delegation.js';
import { json, problem, bodyRouteProblems, ref } from '../schemas/common.js';

/** The period of the per-client registration quota (SVC_REGISTRATIONS_PER_CLIENT per 24 h). */
export const REGISTRATION_PERIOD_MS = 24 * 3600 * 1000;

/** "about 15 min" for a wait in seconds. */
function roughly(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/**
 * `trustedRoots` (optional; the schema has made it an array of at most 64 strings): each a bare
 * DID, or 400 INVALID_DID naming the entry.
 */
function trustedRootsOf(roots: readonly string[] | undefined): string[] | undefined {
  if (roots === undefined) return undefined;
  return roots.map((root, i) => {
    try {
      parseDid(root);
    } catch (err) {
      throw new ProblemError('INVALID_DID', `"trustedRoots[${i}]": ${err instanceof ProblemError ? err.detail : 'not a DID.'}`);
    }
    return root;
  });
}

/**
 * A DID from the query: a bare DID, or a DID URL whose fragment is ignored (DIDs are compared
 * without fragment); a path or query is refused.
 */
function queryDid(name: string, value: string): string {
  let parsed;
  try {
    parsed = parseDidUrl(value);
  } catch {
    parseDid(value); // the precise INVALID_DID reason
    throw new ProblemError('INVALID_DID', `"${name}" is not a DID.`);
  }
  if (parsed.path !== '' || parsed.query !== null) {
    throw new ProblemError('INVALID_DID', `"${name}" must be a DID, not a DID URL with a path or query: ${JSON.stringify(truncate(value, 80))}.`);
  }
  return value;
}

/** Waits for `promise`, or rejects when `signal` aborts (the request's time limit, a client gone). */
function orAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Verifies a chain for one request: issuers resolved through the daemon, under the request's limits. */
function verifyChainFor(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  chain: string[],
  trustedRoots: string[] | undefined,
): Promise<DelegationChainResult> {
  return outboundWork(ctx, request, reply, ({ runtime, keys, signal }) =>
    verifyDelegationChain(chain, { runtime, keySource: keys, signal, ...(trustedRoots ? { trustedRoots } : {}) }),
  );
}

export function delegationRoutes(ctx: ServerContext): RouteDef[] {
  const { runtime } = ctx;
  // Registration quota (per client, per 24 h). It bounds how fast one client adds to the shared
  // registry (MAX_REGISTERED_CHAINS in all); what a client and a root hold at once is bounded by
  // the registry itself (registryLimits below). A chain already registered is refreshed without
  // taking from it. In memory on one daemon; several daemons on one PostgreSQL database share it
  // there (this daemon's bucket decides while it is unreachable).
  const perClient = ctx.limits.registrationsPerClient;
  const quota = new TokenBuckets(perClient, () => runtime.clock.now().getTime(), 50_000, REGISTRATION_PERIOD_MS);
  const admitFor = (request: FastifyRequest) => async (): Promise<string | null> => {
    const client = clientOf(request);
    const shared = ctx.storage.shared;
    const taken = shared
      ? await shared.budgets.take(`registrations:${client}`, perClient, REGISTRATION_PERIOD_MS).catch(() => quota.take(client))
      : quota.take(client);
    if (taken.allowed) return null;
    return `This client's registration quota (${perClient} new chains per 24 h) is used up; the chain was verified but not registered. The next registration is possible in about ${roughly(taken.retryAfterSeconds)}.`;
  };
  // The shares of the registry (held at once, whatever the rate) and the longest registration.
  const registryLimits = { chainsPerClient: ctx.limits.registryPerClient, chainsPerRoot: ctx.limits.registryPerRoot, maxDays: ctx.limits.registrationMaxDays };
  return [
    {
      method: 'POST',
      url: '/v1/agents/verify-delegation',
      budget: 'intensive',
      schema: {
        summary: 'Verify a delegation chain, and register it on request',
        operationId: 'verifyDelegation',
        description:
          'Any chain status is a 200 result; only VALID grants anything. register: true stores a VALID chain; registrationReason says why a requested registration did not happen.',
        tags: ['agents'],
        body: ref(VerifyDelegationRequestSchema),
        response: {
          200: json(ref(DelegationVerificationSchema), 'The chain result and whether it was registered.'),
          400: problem(
            'INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape; INVALID_DID: an entry of trustedRoots is not a DID.',
          ),
          ...bodyRouteProblems({ deny: true }),
        },
      },
      handler: async (request, reply) => {
        // The schema (VerifyDelegationRequest) has checked the shape: at most 64 receipt strings.
        const { chain, trustedRoots: roots, register } = objectBody(request) as { chain: string[]; trustedRoots?: string[]; register?: boolean };
        const trustedRoots = trustedRootsOf(roots);
        const result = await verifyChainFor(ctx, request, reply, chain, trustedRoots);
        if (register !== true) return reply.send({ result, registered: false });
        const registration = await registerChain(runtime, chain, result, ctx.limits.delegationRoots, {
          admit: admitFor(request),
          client: clientOf(request),
          limits: registryLimits,
        });
        // Beyond the documented {result, registered}: why a requested registration did not happen
        // (not VALID, a root not allowed, expiring too far ahead, this client's or this root's
        // share of the registry held, the registry full, this client's quota used up…).
        return reply.send(registration.registered ? { result, registered: true } : { result, registered: false, registrationReason: registration.reason });
      },
    },
    {
      method: 'POST',
      url: '/v1/agents/authorize',
      budget: 'intensive',
      schema: {
        summary: 'Decide whether a delegation chain allows one tool call',
        operationId: 'authorize',
        description: 'Stateless. ALLOW only when the chain is VALID and a leaf capability grants the tool. Any error must be read as DENY.',
        tags: ['agents'],
        body: ref(AuthorizeRequestSchema),
        response: {
          200: json(ref(AuthorizeResponseSchema), 'The authorization and the chain result it was decided on.'),
          400: problem(
            'INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape; INVALID_DID: an entry of trustedRoots is not a DID.',
          ),
          ...bodyRouteProblems({ deny: true }),
        },
      },
      handler: async (request, reply) => {
        // The schema (AuthorizeRequest) has checked the shape: the receipts, a tool of 1 to 1024 characters.
        const { chain, tool, trustedRoots: roots } = objectBody(request) as { chain: string[]; tool: string; trustedRoots?: string[] };
        const trustedRoots = trustedRootsOf(roots);
        const result = await verifyChainFor(ctx, request, reply, chain, trustedRoots);
        return reply.send({ authorization: authorize(result, tool), chain: result });
      },
    },
    {
      method: 'GET',
      url: '/v1/agents/verify-tool',
      budget: 'standard',
      schema: {
        summary: 'Decide a tool call against the registered delegation chains',
        operationId: 'verifyTool',
        description:
          'Answers from registered, unexpired chains verified since the daemon started; without one the answer is DENY. Any error must be read as DENY.',
        tags: ['agents'],
        querystring: VerifyToolQuerySchema,
        response: {
          200: json(ref(AuthorizationSchema), 'The authorization (ALLOW or DENY).'),
          400: problem(
            'INVALID_OPTIONS: agent or tool missing, empty or too long, an unknown or repeated query option; INVALID_DID: agent or root is not a DID.',
          ),
          408: problem('REQUEST_TIMEOUT: the request ran past its time limit (read it as DENY).'),
          429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
          500: problem('INTERNAL_ERROR: no answer could be produced (read it as DENY).'),
          503: problem('CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down).'),
        },
      },
      handler: async (request, reply) => {
        // The schema (VerifyToolQuerySchema) has required agent and tool (non-empty, tool ≤ 1024 characters).
        const options = queryOptions(request, ['agent', 'tool', 'root']);
        const agent = options['agent']!;
        const tool = options['tool']!;
        queryDid('agent', agent);
        const root = options['root'];
        if (root !== undefined) queryDid('root', root);
        const pass = reverifyRegistry(ctx);
        let unverified: ReadonlySet<string> = new Set();
        if (pass) {
          const reverified = await underLimits(ctx, request, reply, (signal) => orAbort(pass, signal));
          if (!reverified.ok) {
            const answer: Authorization = {
              agent,
              tool,
              decision: 'DENY',
              authorized: false,
              reason: 'The delegation registry could not be re-verified since the daemon started, so no registered delegation can be used.',
            };
            return reply.send(answer);
          }
          unverified = reverified.unverified;
        }
        const query = root === undefined ? { agent, tool } : { agent, tool, root };
        return reply.send(await verifyTool(runtime, query, runtime.clock.now(), { exclude: unverified }));
      },
    },
  ];
}
