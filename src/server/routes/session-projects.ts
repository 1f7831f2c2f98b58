/**
 * GET /v1/session/projects (svc's addition to the session routes): the owner's projects — every
 * project of every tenant the session's DID owns, oldest first. A session core route: reached only
 * through the cookie gateway, which presents this start's bridge secret and the session's subject
 * (commercial.ts requireBridge: 501 when the mode is off, 401 without the bridge — whatever
 * X-SVC-Subject says). Like the other session-core routes it is mounted on the direct profile only
 * (directOnly): with --public it is an unknown path (404).
 */
import { storeOf, type RouteDef, type ServerContext } from '../context.js';
import { queryOptions } from '../http.js';
import { EmptyQuerySchema, json, problem } from '../schemas/common.js';
import { sessionGuard, UNMOUNTED } from './commercial.js';
import { OwnerProjectsSchema } from '../schemas/session-projects.js';

export function sessionProjectRoutes(ctx: ServerContext): RouteDef[] {
  // Before anything else is read: a caller without the bridge learns nothing.
  const { onRequest, subjectOf } = sessionGuard(ctx);
  return [
    {
      method: 'GET',
      url: '/v1/session/projects',
      budget: 'standard',
      auth: 'bridge',
      directOnly: true,
      options: { onRequest },
      schema: {
        summary: "The session owner's projects",
        operationId: 'listOwnerProjects',
        description:
          "svc's addition to the owner-session routes: the projects of every tenant the session's owner owns, oldest first. Reached through the cookie gateway only (its session cookie; the gateway presents the verified-session bridge).",
        tags: ['session'],
        querystring: EmptyQuerySchema,
        response: {
          200: json(OwnerProjectsSchema, 'The owner and the projects.'),
          400: problem('INVALID_OPTIONS: a query option (none is taken).'),
          401: problem('UNAUTHORIZED: not through the cookie gateway (no verified-session bridge), or no live session there.'),
          404: problem(`NOT_FOUND: ${UNMOUNTED}.`),
          429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
          501: problem('COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon.'),
          503: problem('SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After).'),
        },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const subject = subjectOf(request);
        const projects = await storeOf(ctx.runtime).accounts.listProjectsOwnedBy(subject);
        return { subject, projects: projects.map((p) => ({ id: p.id, tenantId: p.tenantId, name: p.name, createdAt: p.createdAt })) };
      },
    },
  ];
}
