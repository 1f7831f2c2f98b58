/**
 * Inspection routes (docs/agents.md): GET /v1/mcp/inspect?endpoint=… and GET
 * /v1/a2a/inspect?url=…, both intensive; their POST variants take an approved baseline in the body
 * (docs/agents.md#approved-baselines) and compare with it instead (a baseline the daemon cannot use
 * is 400 INVALID_REQUEST, naming the problem). The core does the work under the request's limits
 * (time, capacity, the client leaving); a DID `kid` on an agent card is resolved through the
 * daemon's capacity, cache and history like every other DID. AUTH_REQUIRED, risk signals and
 * a failed signature are 200 results; a problem means no inspection could be produced.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { a2aBaselineOf, agentFor, compareA2aBaseline } from '../../core/a2a/baseline.js';
import { inspectA2a } from '../../core/a2a/inspect.js';
import { entryForTarget, mcpBaselineOf, type BaselineComparison } from '../../core/mcp/baseline.js';
import { inspectMcp, parseEndpoint } from '../../core/mcp/inspect.js';
import type { McpInspection } from '../../core/mcp/types.js';
import { outboundWork, type RouteDef, type ServerContext } from '../context.js';
import { objectBody, queryOptions } from '../http.js';
import { signedOption } from '../signing.js';
import { bodyRouteProblems, json, problem, ref, signedJson } from '../schemas/common.js';
import {
  A2aInspectBaselineRequestSchema,
  A2aInspectionSchema,
  A2aInspectQuerySchema,
  McpInspectBaselineRequestSchema,
  McpInspectionSchema,
  McpInspectQuerySchema,
} from '../schemas/inspection.js';

/** How problems name a baseline sent in a request body. */
const BODY_BASELINE = 'the request body';
const BODY_WHERE = 'The baseline in the request body';

/** The URL option of a route (its schema has required it, non-empty, at most 2048 characters), beside `signed` (signing.ts). */
function urlOption(ctx: ServerContext, request: FastifyRequest, name: 'endpoint' | 'url'): string {
  const query = queryOptions(request, [name, 'signed']);
  signedOption(ctx, request, query);
  return query[name]!;
}

/**
 * One MCP inspection for a request, under its limits (time, capacity, the client leaving), with
 * drift kept in the daemon's store: the one code path of GET /v1/mcp/inspect and of the web
 * view, GET /mcp?endpoint=… (routes/web.ts).
 */
export function inspectMcpFor(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: string,
  baseline?: BaselineComparison,
): Promise<McpInspection> {
  const { runtime } = ctx;
  return outboundWork(
    ctx,
    request,
    reply,
    ({ signal }) =>
      inspectMcp(endpoint, {
        runtime,
        signal,
        ...(runtime.store === undefined ? { storageUnavailable: ctx.storage.error ?? 'not open' } : {}),
        ...(baseline ? { baseline } : {}),
      }),
    true,
  );
}

/** The entry of a request body's MCP baseline approved from `endpoint` (400 INVALID_REQUEST when there is none or it is unusable). */
function mcpBaselineFor(body: Record<string, unknown>, endpoint: string): BaselineComparison {
  const baseline = mcpBaselineOf(body['baseline'] as never, BODY_WHERE);
  const { name, entry } = entryForTarget(baseline, parseEndpoint(endpoint).href, BODY_WHERE);
  return { file: BODY_BASELINE, name, entry };
}

export function inspectionRoutes(ctx: ServerContext): RouteDef[] {
  const { runtime } = ctx;
  return [
    {
      method: 'GET',
      url: '/v1/mcp/inspect',
      budget: 'intensive',
      schema: {
        summary: 'Inspect an MCP server: protocol, tools, prompts, resources, fingerprints, risk signals, drift',
        operationId: 'inspectMcp',
        description: 'AUTH_REQUIRED, risk signals and drift are 200 results; a problem means no inspection could be produced.',
        tags: ['inspection'],
        querystring: McpInspectQuerySchema,
        response: {
          200: signedJson(ref(McpInspectionSchema), 'The MCP inspection.'),
          400: problem(
            'INVALID_OPTIONS: the query option is missing, too long, repeated or unknown, or signed=true on a daemon without a signing key; INVALID_REQUEST: the endpoint is not an absolute https URL.',
          ),
          403: problem('EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https.'),
          404: problem('NOT_FOUND: no MCP endpoint at the URL (answered 404).'),
          408: problem('REQUEST_TIMEOUT: the request ran past its time limit.'),
          413: problem('PAYLOAD_TOO_LARGE: a fetched resource is over its size limit.'),
          429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
          500: problem('INTERNAL_ERROR: no answer could be produced.'),
          502: problem(
            'UPSTREAM_UNAVAILABLE: the host failed or timed out (DNS, TLS, a reset, time limit, a 5xx), or did not answer as an MCP server (an HTML page, a JSON API that is not JSON-RPC, an event stream without the answer); the detail names what was found.',
          ),
          503: problem('CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down).'),
        },
      },
      handler: async (request, reply) => reply.send(await inspectMcpFor(ctx, request, reply, urlOption(ctx, request, 'endpoint'))),
    },
    {
      method: 'POST',
      url: '/v1/mcp/inspect',
      budget: 'intensive',
      schema: {
        summary: 'Inspect an MCP server and compare it with an approved baseline',
        operationId: 'inspectMcpWithBaseline',
        description:
          'As GET, but drift compares with the entry of the baseline approved from this endpoint (an svc-mcp-baseline document, as svc mcp approve writes it) instead of the last stored inventory: the drift check is FAIL on any difference. A difference is a 200 result.',
        tags: ['inspection'],
        body: ref(McpInspectBaselineRequestSchema),
        response: {
          200: json(ref(McpInspectionSchema), 'The MCP inspection, its drift against the baseline.'),
          400: problem(
            "INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member; the endpoint is not an absolute https URL; or the baseline cannot be used (malformed, another format, from a newer svc, another hash profile, a fingerprint that is not its definition's, no entry approved from this endpoint): the detail says which.",
          ),
          403: problem('EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https.'),
          404: problem('NOT_FOUND: no MCP endpoint at the URL (answered 404).'),
          502: problem('UPSTREAM_UNAVAILABLE: the host failed or timed out, or did not answer as an MCP server; the detail names what was found.'),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        const body = objectBody(request);
        const endpoint = body['endpoint'] as string;
        return reply.send(await inspectMcpFor(ctx, request, reply, endpoint, mcpBaselineFor(body, endpoint)));
      },
    },
    {
      method: 'GET',
      url: '/v1/a2a/inspect',
      budget: 'intensive',
      schema: {
        summary: 'Inspect an A2A agent card: schema, interfaces, signatures',
        operationId: 'inspectA2a',
        description: 'Warnings and a failed signature are 200 results; a problem means no card could be inspected.',
        tags: ['inspection'],
        querystring: A2aInspectQuerySchema,
        response: {
          200: signedJson(ref(A2aInspectionSchema), 'The A2A inspection.'),
          400: problem(
            'INVALID_OPTIONS: the query option is missing, too long, repeated or unknown, or signed=true on a daemon without a signing key; INVALID_REQUEST: the URL is not an absolute URL.',
          ),
          403: problem('EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https.'),
          404: problem('NOT_FOUND: no agent card at the URL.'),
          408: problem('REQUEST_TIMEOUT: the request ran past its time limit.'),
          413: problem('PAYLOAD_TOO_LARGE: a fetched resource is over its size limit.'),
          422: problem('INVALID_DID_DOCUMENT: the fetched resource is no agent card (not JSON, or not an object).'),
          429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
          500: problem('INTERNAL_ERROR: no answer could be produced.'),
          502: problem('UPSTREAM_UNAVAILABLE: the host failed or timed out (DNS, TLS, time limit, an HTTP error).'),
          503: problem('CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down).'),
        },
      },
      handler: async (request, reply) => {
        const url = urlOption(ctx, request, 'url');
        const result = await outboundWork(ctx, request, reply, ({ keys, signal }) => inspectA2a(url, { runtime, keys, signal }), true);
        return reply.send(result);
      },
    },
    {
      method: 'POST',
      url: '/v1/a2a/inspect',
      budget: 'intensive',
      schema: {
        summary: 'Inspect an A2A agent card and compare it with an approved baseline',
        operationId: 'inspectA2aWithBaseline',
        description:
          "As GET, and the card is compared with the entry of the baseline approved from the card's URL (an svc-a2a-baseline document, as svc a2a approve writes it): a ninth check, drift, is FAIL on any difference of the card, its skills, interfaces or signing keys. A difference is a 200 result.",
        tags: ['inspection'],
        body: ref(A2aInspectBaselineRequestSchema),
        response: {
          200: json(ref(A2aInspectionSchema), 'The A2A inspection, compared with the baseline.'),
          400: problem(
            'INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member; the URL is not an absolute URL; or the baseline cannot be used (malformed, another format, from a newer svc, no entry approved from the card URL): the detail says which.',
          ),
          403: problem('EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https.'),
          404: problem('NOT_FOUND: no agent card at the URL.'),
          422: problem('INVALID_DID_DOCUMENT: the fetched resource is no agent card (not JSON, or not an object).'),
          502: problem('UPSTREAM_UNAVAILABLE: the host failed or timed out (DNS, TLS, time limit, an HTTP error).'),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        const body = objectBody(request);
        const url = body['url'] as string;
        // Checked before anything is fetched; the entry is chosen by the URL the card is served from.
        const baseline = a2aBaselineOf(body['baseline'] as never, BODY_WHERE);
        const result = await outboundWork(ctx, request, reply, ({ keys, signal }) => inspectA2a(url, { runtime, keys, signal }), true);
        const chosen = agentFor(baseline, result.cardUrl, BODY_WHERE);
        return reply.send(compareA2aBaseline(result, { file: BODY_BASELINE, ...chosen }));
      },
    },
  ];
}
