/**
 * The session core's key routes (docs/daemon.md#commercial-mode, "Project keys"): an owner lists,
 * issues, revokes and rotates the API keys of a project it owns. Reached only through the cookie
 * gateway: each request must carry this start's bridge secret (requireBridge: 401 without it,
 * whatever else it carries — a client-sent X-SVC-Subject alone does nothing), checked before the
 * body is read; the gateway names the owner in X-SVC-Subject. Direct profile only (`--public`:
 * 404); mode off: 501 COMMERCIAL_DISABLED.
 *
 * A project the subject does not own and one that does not exist are the same 404 NOT_FOUND
 * (no oracle of which projects exist). Ownership is judged inside each write's transaction by
 * the store. The key's secret is in the answer that issues it (issue, rotate) and nowhere else.
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import { PROJECT_KEY_LIMITS } from '../../core/store.js';
import { KeyCapacityError } from '../../store/schema/errors.js';
import { storeOf, type RouteDef, type ServerContext } from '../context.js';
import { queryOptions } from '../http.js';
import { generateProjectKey } from '../project-keys.js';
import { empty, EmptyBodySchema, EmptyQuerySchema, json, problem, ProjectParamsSchema, ref } from '../schemas/common.js';
import { ApiKeyListSchema, KeyIssuedSchema, KeyRequestSchema, KeyRotatedSchema, ProjectKeyParamsSchema } from '../schemas/session-keys.js';
import { accountProblem, COMMERCIAL_OFF, sessionGuard, UNMOUNTED } from './commercial.js';

const SESSION_PROBLEMS = {
  400: problem('INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON.'),
  401: problem('UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject.'),
  404: problem(`NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or ${UNMOUNTED}.`),
  429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
  500: problem('INTERNAL_ERROR: the keys could not be read or written.'),
  501: problem(COMMERCIAL_OFF),
  503: problem('SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After).'),
};

const CAPACITY = problem(
  `KEY_CAPACITY_EXHAUSTED: the project has ${PROJECT_KEY_LIMITS.active} active keys, or retains ${PROJECT_KEY_LIMITS.retained} keys of any status (a fixed cap: no Retry-After; revoke keys first — retained ones count until the operator removes them).`,
);

function keyProblem(err: unknown): unknown {
  if (err instanceof KeyCapacityError) {
    const which = err.cap === 'active' ? `${err.limit} active keys (the active cap)` : `${err.limit} keys of any status (the retained cap)`;
    return new ProblemError('KEY_CAPACITY_EXHAUSTED', `The project already has ${which}: a fixed cap, not replenished over time. Revoke a key first.`);
  }
  return accountProblem(err, 'project');
}

export function sessionKeyRoutes(ctx: ServerContext): RouteDef[] {
  const { onRequest, subjectOf } = sessionGuard(ctx);
  const options = { onRequest };
  const tags = ['session'];
  const params = (request: FastifyRequest) => request.params as { project: string; key?: string };
  const accounts = () => storeOf(ctx.runtime).accounts;
  return [
    {
      method: 'GET',
      url: '/v1/session/projects/:project/keys',
      budget: 'standard',
      auth: 'bridge',
      directOnly: true,
      options,
      schema: {
        summary: "List a project's keys (owner session)",
        operationId: 'sessionListKeys',
        description: 'Session core (through the cookie gateway). Metadata only, newest first: never a secret or a digest.',
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(ApiKeyListSchema), 'The keys.'), ...SESSION_PROBLEMS },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const keys = await accounts()
          .listKeys(subjectOf(request), params(request).project)
          .catch((err: unknown) => {
            throw keyProblem(err);
          });
        return reply.send({ keys });
      },
    },
    {
      method: 'POST',
      url: '/v1/session/projects/:project/keys',
      budget: 'standard',
      auth: 'bridge',
      directOnly: true,
      options,
      schema: {
        summary: 'Issue a project key (owner session)',
        operationId: 'sessionIssueKey',
        description: `Session core (through the cookie gateway). The secret is in this answer only; the daemon keeps its SHA-256 digest. At most ${PROJECT_KEY_LIMITS.active} active and ${PROJECT_KEY_LIMITS.retained} retained keys per project.`,
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(KeyRequestSchema),
        response: {
          201: json(ref(KeyIssuedSchema), 'The key and its secret (shown once).'),
          ...SESSION_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not a KeyRequest (label of 1 to 100 characters, nothing else); INVALID_OPTIONS: a query option.'),
          429: CAPACITY,
        },
      },
      handler: async (request, reply) => {
        const { label } = request.body as { label?: string };
        const { secret, stored } = generateProjectKey(label);
        const key = await accounts()
          .issueKey(subjectOf(request), params(request).project, stored)
          .catch((err: unknown) => {
            throw keyProblem(err);
          });
        return reply.code(201).send({ key, secret });
      },
    },
    {
      method: 'DELETE',
      url: '/v1/session/projects/:project/keys/:key',
      budget: 'standard',
      auth: 'bridge',
      directOnly: true,
      options,
      schema: {
        summary: 'Revoke a project key (owner session)',
        operationId: 'sessionRevokeKey',
        description:
          'Session core (through the cookie gateway). The key stops authenticating at once, on every daemon of the database. Idempotent for a key already revoked or rotated.',
        tags,
        params: ProjectKeyParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          204: empty('Revoked.'),
          ...SESSION_PROBLEMS,
          404: problem(`NOT_FOUND: no project of the owner has this id, or the project has no key of this id; or ${UNMOUNTED}.`),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const { project, key } = params(request);
        await accounts()
          .revokeKey(subjectOf(request), project, key!)
          .catch((err: unknown) => {
            throw keyProblem(err);
          });
        return reply.code(204).send();
      },
    },
    {
      method: 'POST',
      url: '/v1/session/projects/:project/keys/:key/rotate',
      budget: 'standard',
      auth: 'bridge',
      directOnly: true,
      options,
      schema: {
        summary: 'Rotate a project key (owner session)',
        operationId: 'sessionRotateKey',
        description:
          'Session core (through the cookie gateway). Atomic: the old key becomes ROTATED and a new ACTIVE one replaces it, or nothing changes (the old key stays authorised). The new secret is in this answer only.',
        tags,
        params: ProjectKeyParamsSchema,
        querystring: EmptyQuerySchema,
        body: EmptyBodySchema,
        response: {
          201: json(ref(KeyRotatedSchema), 'The new key, its secret (shown once) and the replaced key.'),
          ...SESSION_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not an empty object; INVALID_OPTIONS: a query option.'),
          404: problem(`NOT_FOUND: no project of the owner has this id, or the project has no ACTIVE key of this id; or ${UNMOUNTED}.`),
          429: CAPACITY,
        },
      },
      handler: async (request, reply) => {
        const { project, key } = params(request);
        const old = (
          await accounts()
            .listKeys(subjectOf(request), project)
            .catch((err: unknown) => {
              throw keyProblem(err);
            })
        ).find((k) => k.id === key);
        const { secret, stored } = generateProjectKey(old?.label ?? null);
        const { rotated, issued } = await accounts()
          .rotateKey(subjectOf(request), project, key!, stored)
          .catch((err: unknown) => {
            throw keyProblem(err);
          });
        return reply.code(201).send({ key: issued, secret, replaced: rotated });
      },
    },
  ];
}
