/**
 * Inspection routes (SPEC §4.10, §4.11): GET /v1/mcp/inspect?endpoint=… and GET
 * /v1/a2a/inspect?url=…, both intensive. The core does the work under the request's limits
 * (time, capacity, the client leaving); a DID `kid` on an agent card is resolved through the
 * daemon's capacity, cache and history like every other DID. AUTH_REQUIRED, risk signals and
 * a failed signature are 200 results; a problem means no inspection could be produced.
 */
import { inspectA2a } from '../../core/a2a/inspect.js';
import { inspectMcp } from '../../core/mcp/inspect.js';
import { ProblemError } from '../../core/problems.js';
import { outboundWork, type RouteDef, type ServerContext } from '../context.js';
import { queryOptions } from '../http.js';

/** Longest URL accepted in a query option. */
export const MAX_URL_LENGTH = 2048;

function urlOption(options: Record<string, string>, name: string, what: string): string {
  const value = options[name];
  if (value === undefined || value === '') throw new ProblemError('INVALID_OPTIONS', `The query option "${name}" (required) must be ${what}.`);
  if (value.length > MAX_URL_LENGTH) throw new ProblemError('INVALID_OPTIONS', `The query option "${name}" is longer than ${MAX_URL_LENGTH} characters.`);
  return value;
}

export function inspectionRoutes(ctx: ServerContext): RouteDef[] {
  const { runtime } = ctx;
  return [
    {
      method: 'GET',
      url: '/v1/mcp/inspect',
      budget: 'intensive',
      handler: async (request, reply) => {
        const endpoint = urlOption(queryOptions(request, ['endpoint']), 'endpoint', 'the URL of the MCP endpoint, e.g. https://tools.example/mcp');
        const result = await outboundWork(ctx, request, reply, ({ signal }) => inspectMcp(endpoint, {
            runtime,
            signal,
            ...(runtime.store === undefined ? { storageUnavailable: ctx.storage.error ?? 'not open' } : {}),
          }), true);
        return reply.send(result);
      },
    },
    {
      method: 'GET',
      url: '/v1/a2a/inspect',
      budget: 'intensive',
      handler: async (request, reply) => {
        const url = urlOption(queryOptions(request, ['url']), 'url', 'the agent origin or the URL of its agent card, e.g. https://agent.example');
        const result = await outboundWork(ctx, request, reply, ({ keys, signal }) => inspectA2a(url, { runtime, keys, signal }), true);
        return reply.send(result);
      },
    },
  ];
}
