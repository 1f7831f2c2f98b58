/**
 * Inspection routes (docs/agents.md): GET /v1/mcp/inspect?endpoint=… and GET
 * /v1/a2a/inspect?url=…, both intensive. The core does the work under the request's limits
 * (time, capacity, the client leaving); a DID `kid` on an agent card is resolved through the
 * daemon's capacity, cache and history like every other DID. AUTH_REQUIRED, risk signals and
 * a failed signature are 200 results; a problem means no inspection could be produced.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inspectA2a } from '../../core/a2a/inspect.js';
import { inspectMcp } from '../../core/mcp/inspect.js';
import type { McpInspection } from '../../core/mcp/types.js';
import { outboundWork, type RouteDef, type ServerContext } from '../context.js';
import { queryOptions } from '../http.js';
import { signedOption } from '../signing.js';
import { problem, ref, signedJson } from '../schemas/common.js';
import { A2aInspectionSchema, A2aInspectQuerySchema, McpInspectionSchema, McpInspectQuerySchema } from '../schemas/inspection.js';

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
export function inspectMcpFor(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, endpoint: string): Promise<McpInspection> {
  const { runtime } = ctx;
  return outboundWork(
    ctx,
    request,
    reply,
    ({ signal }) => inspectMcp(endpoint, { runtime, signal, ...(runtime.store === undefined ? { storageUnavailable: ctx.storage.error ?? 'not open' } : {}) }),
    true,
  );
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
  ];
}
