/**
 * The commercial control routes (docs/daemon.md#commercial-mode): the operator creates tenants and
 * their projects, attaches and detaches owners (DIDs that sign in to the owner console) and reads a
 * project's usage. Direct profile only (with `--public` they are not mounted: 404); with the mode
 * off every one answers 501 COMMERCIAL_DISABLED, whatever the request carries; with it on,
 * `Authorization: Bearer <SVC_ADMIN_TOKEN>` (else 401), checked before the body is read.
 *
 * A duplicate project name is 400 INVALID_REQUEST: there is no conflict code (the only 409,
 * MONITOR_REPORT_CAPACITY, means something else), and no new one is made up for it.
 *
 * Detaching an owner also revokes that subject's owner sessions when it owns no other tenant
 * (a session is the subject's, not a tenant's: one that still owns another tenant keeps its
 * session; every owner action re-checks ownership in its own transaction anyway).
 */
import type { FastifyRequest } from 'fastify';
import { parseDid } from '../../core/did/syntax.js';
import { ProblemError } from '../../core/problems.js';
import type { AccountStore, Tenant } from '../../core/store.js';
import { StoreError } from '../../store/schema/errors.js';
import { requireBridge, requireCommercial } from '../commercial.js';
import { storeOf, type RouteDef, type ServerContext } from '../context.js';
import { queryOptions } from '../http.js';
import { requireOperator } from '../operator.js';
import { empty, EmptyQuerySchema, json, problem, ProjectParamsSchema, ref } from '../schemas/common.js';
import {
  OwnerRequestSchema,
  PeriodClosedSchema,
  PeriodRequestSchema,
  PlanListSchema,
  PlanRequestSchema,
  PlanSavedSchema,
  ProjectCreatedSchema,
  ProjectRequestSchema,
  ProjectUsageSchema,
  SubscriptionRequestSchema,
  SubscriptionSavedSchema,
  TenantBillingSchema,
  TenantCreatedSchema,
  TenantListSchema,
  TenantOwnerParamsSchema,
  TenantOwnersSchema,
  TenantParamsSchema,
  TenantRequestSchema,
} from '../schemas/commercial.js';

export const COMMERCIAL_OFF =
  'COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN).';

/** With `--public` the mode's routes are not mounted: every one of them may answer 404. */
export const UNMOUNTED = 'on the public profile (svc serve --public) the route is not mounted';

const CONTROL_PROBLEMS = {
  404: problem(`NOT_FOUND: ${UNMOUNTED}.`),
  400: problem('INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON.'),
  401: problem('UNAUTHORIZED: no Authorization: Bearer header with the operator token.'),
  429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
  500: problem('INTERNAL_ERROR: the accounts could not be read or written.'),
  501: problem(COMMERCIAL_OFF),
  503: problem('SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After).'),
};

/** A store failure of an account operation as the routes answer it. */
export function accountProblem(err: unknown, what: string): unknown {
  if (!(err instanceof StoreError)) return err;
  switch (err.code) {
    case 'NOT_FOUND':
    case 'NOT_OWNER':
      return new ProblemError('NOT_FOUND', `No ${what} of yours has this id.`);
    case 'UNAVAILABLE':
      return new ProblemError('SERVICE_UNAVAILABLE', 'The database is unavailable just now; see /ready.', { retryAfter: 5 });
    default:
      return err;
  }
}

/** The DID of a body member or path parameter, or 400 INVALID_DID. */
function didOf(value: string): string {
  return parseDid(value).did;
}

async function tenantView(accounts: AccountStore, tenant: Tenant) {
  return { id: tenant.id, name: tenant.name, owner: tenant.ownerSubject, createdAt: tenant.createdAt, owners: await accounts.ownersOf(tenant.id) };
}

const param = (request: FastifyRequest, name: string): string => (request.params as Record<string, string>)[name] ?? '';

/**
 * The session core's guard, shared by its routes: an onRequest hook that requires this start's
 * bridge secret before anything else is read (requireBridge: 501 with the mode off, 401 without
 * it), and the subject the gateway named, for the handler.
 */
export function sessionGuard(ctx: ServerContext): {
  onRequest: (request: FastifyRequest, reply: unknown, done: (err?: Error) => void) => void;
  subjectOf: (request: FastifyRequest) => string;
} {
  const subjects = new WeakMap<FastifyRequest, string>();
  return {
    onRequest: (request, _reply, done) => {
      try {
        subjects.set(request, requireBridge(ctx.commercial, request));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    subjectOf: (request) => subjects.get(request)!,
  };
}

export function commercialRoutes(ctx: ServerContext): RouteDef[] {
  const operator = ctx.operator ?? { enabled: false as const, reason: 'SVC_ADMIN_TOKEN is not set' };
  // Before the body is read or validated: the mode first (501 whatever the request carries), then the token.
  const onRequest = (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
    try {
      requireCommercial(ctx.commercial);
      requireOperator(operator, request);
      done();
    } catch (err) {
      done(err as Error);
    }
  };
  const options = { onRequest };
  const tags = ['commercial'];
  const accounts = () => storeOf(ctx.runtime).accounts;
  return [
    {
      method: 'POST',
      url: '/v1/commercial/tenants',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'Create a tenant with its first owner',
        operationId: 'createTenant',
        description: "Operator only (commercial mode). The owner (a DID) is attached as the tenant's first owner in the same transaction.",
        tags,
        querystring: EmptyQuerySchema,
        body: ref(TenantRequestSchema),
        response: {
          201: json(ref(TenantCreatedSchema), 'The tenant.'),
          ...CONTROL_PROBLEMS,
          400: problem(
            'INVALID_REQUEST: the body is not a TenantRequest (name 1..100 characters, owner a DID); INVALID_DID: owner is not a DID; INVALID_OPTIONS: a query option.',
          ),
        },
      },
      handler: async (request, reply) => {
        const body = request.body as { name: string; owner: string };
        const owner = didOf(body.owner);
        const store = accounts();
        const tenant = await store.createTenant({ name: body.name, owner }).catch((err: unknown) => {
          throw accountProblem(err, 'tenant');
        });
        return reply.code(201).send({ tenant: await tenantView(store, tenant) });
      },
    },
    {
      method: 'GET',
      url: '/v1/commercial/tenants',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'List the tenants, their owners and projects',
        operationId: 'listTenants',
        description: 'Operator only (commercial mode). Every tenant, oldest first, with its owners and projects.',
        tags,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(TenantListSchema), 'The tenants.'), ...CONTROL_PROBLEMS },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const store = accounts();
        const [tenants, projects] = await Promise.all([store.listTenants(), store.listProjects()]);
        const views = [];
        for (const tenant of tenants) {
          views.push({ ...(await tenantView(store, tenant)), projects: projects.filter((p) => p.tenantId === tenant.id) });
        }
        return reply.send({ tenants: views });
      },
    },
    {
      method: 'POST',
      url: '/v1/commercial/tenants/:tenant/projects',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'Create a project of a tenant',
        operationId: 'createProject',
        description:
          'Operator only (commercial mode). Project names are unique within a tenant: a duplicate is 400 INVALID_REQUEST (the error table has no conflict code).',
        tags,
        params: TenantParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(ProjectRequestSchema),
        response: {
          201: json(ref(ProjectCreatedSchema), 'The project.'),
          ...CONTROL_PROBLEMS,
          404: problem(`NOT_FOUND: no tenant has this id; or ${UNMOUNTED}.`),
          400: problem(
            'INVALID_REQUEST: the body is not a ProjectRequest (name 1..100 characters), or the tenant already has a project of that name; INVALID_OPTIONS: a query option.',
          ),
        },
      },
      handler: async (request, reply) => {
        const body = request.body as { name: string };
        const project = await accounts()
          .createProject(param(request, 'tenant'), { name: body.name })
          .catch((err: unknown) => {
            if (err instanceof StoreError && err.code === 'CONFLICT')
              throw new ProblemError('INVALID_REQUEST', 'The tenant already has a project of that name; choose another.');
            throw accountProblem(err, 'tenant');
          });
        return reply.code(201).send({ project });
      },
    },
    {
      method: 'POST',
      url: '/v1/commercial/tenants/:tenant/owners',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'Attach an owner to a tenant',
        operationId: 'attachOwner',
        description: 'Operator only (commercial mode). Idempotent: attaching an owner again changes nothing. The answer lists the owners after it.',
        tags,
        params: TenantParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(OwnerRequestSchema),
        response: {
          200: json(ref(TenantOwnersSchema), "The tenant's owners."),
          ...CONTROL_PROBLEMS,
          404: problem(`NOT_FOUND: no tenant has this id; or ${UNMOUNTED}.`),
          400: problem('INVALID_REQUEST: the body is not an OwnerRequest; INVALID_DID: subject is not a DID; INVALID_OPTIONS: a query option.'),
        },
      },
      handler: async (request, reply) => {
        const subject = didOf((request.body as { subject: string }).subject);
        const tenantId = param(request, 'tenant');
        const store = accounts();
        await store.attachOwner(tenantId, subject).catch((err: unknown) => {
          throw accountProblem(err, 'tenant');
        });
        return reply.send({ tenantId, owners: await store.ownersOf(tenantId) });
      },
    },
    {
      method: 'DELETE',
      url: '/v1/commercial/tenants/:tenant/owners/:subject',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'Detach an owner from a tenant',
        operationId: 'removeOwner',
        description:
          'Operator only (commercial mode). The subject (a DID, percent-encoded in the path) stops owning the tenant; owner actions in flight that commit after it fail. When it owns no other tenant, its owner sessions are revoked too. Removing the last owner is allowed.',
        tags,
        params: TenantOwnerParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          204: empty('Detached.'),
          ...CONTROL_PROBLEMS,
          404: problem(`NOT_FOUND: no tenant has this id, or the subject is not one of its owners; or ${UNMOUNTED}.`),
          400: problem('INVALID_OPTIONS: a query option; INVALID_REQUEST: no Host header.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const tenantId = param(request, 'tenant');
        const subject = param(request, 'subject');
        const store = accounts();
        const removed = await store.removeOwner(tenantId, subject).catch((err: unknown) => {
          throw accountProblem(err, 'tenant');
        });
        if (!removed) throw new ProblemError('NOT_FOUND', 'No tenant has this id with this subject among its owners.');
        let ownsAnother = false;
        for (const tenant of await store.listTenants()) {
          if ((await store.ownersOf(tenant.id)).includes(subject)) {
            ownsAnother = true;
            break;
          }
        }
        if (!ownsAnother) await store.revokeSessionsOf(subject);
        return reply.code(204).send();
      },
    },
    {
      method: 'GET',
      url: '/v1/commercial/projects/:project/usage',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: "A project's usage counters",
        operationId: 'projectUsage',
        description:
          "Operator only (commercial mode). Keyed requests served, by month (YYYY-MM, UTC, on the daemon's clock). Each daemon writes its counts at least once a second; this daemon's own are written before the answer. Nothing is charged (billing is a mock).",
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(ProjectUsageSchema), 'The counters.'),
          ...CONTROL_PROBLEMS,
          404: problem(`NOT_FOUND: no project has this id; or ${UNMOUNTED}.`),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const projectId = param(request, 'project');
        const store = accounts();
        if ((await store.getProject(projectId)) === undefined) throw new ProblemError('NOT_FOUND', 'No project has this id.');
        await ctx.keyed?.flush();
        const rows = await store.usageOf(projectId);
        return reply.send({ projectId, usage: rows.map((r) => ({ metric: r.metric, period: r.period, count: r.count })) });
      },
    },
    // ---- mock billing: plans, a tenant's subscription, a month closed into an invoice (no payment provider)
    {
      method: 'GET',
      url: '/v1/commercial/plans',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'List the billing plans',
        operationId: 'listPlans',
        description: 'Operator only (commercial mode). Billing is a mock: plans price what would be charged; no payment provider is involved.',
        tags,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(PlanListSchema), 'The plans.'), ...CONTROL_PROBLEMS },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        return reply.send({ plans: await accounts().listPlans() });
      },
    },
    {
      method: 'POST',
      url: '/v1/commercial/plans',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'Create or replace a billing plan',
        operationId: 'savePlan',
        description: 'Operator only (commercial mode). A plan of the same id is replaced (its price applies to months closed from now on).',
        tags,
        querystring: EmptyQuerySchema,
        body: ref(PlanRequestSchema),
        response: {
          200: json(ref(PlanSavedSchema), 'The plan.'),
          ...CONTROL_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not a PlanRequest; INVALID_OPTIONS: a query option.'),
        },
      },
      handler: async (request, reply) => {
        const body = request.body as { id: string; name: string; currency: string; monthlyPriceMinor: number; includedRequests: number; active?: boolean };
        const plan = await accounts()
          .setPlan(body)
          .catch((err: unknown) => {
            throw err instanceof RangeError ? new ProblemError('INVALID_REQUEST', `The plan is not valid: ${err.message}.`) : accountProblem(err, 'plan');
          });
        return reply.send({ plan });
      },
    },
    {
      method: 'POST',
      url: '/v1/commercial/tenants/:tenant/subscription',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: 'Subscribe a tenant to a plan',
        operationId: 'subscribeTenant',
        description: "Operator only (commercial mode). Replaces the tenant's subscription; the plan must be active.",
        tags,
        params: TenantParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(SubscriptionRequestSchema),
        response: {
          200: json(ref(SubscriptionSavedSchema), 'The subscription.'),
          ...CONTROL_PROBLEMS,
          404: problem(`NOT_FOUND: no tenant has this id, or no active plan that one; or ${UNMOUNTED}.`),
        },
      },
      handler: async (request, reply) => {
        const body = request.body as { plan: string };
        const subscription = await accounts()
          .subscribe(param(request, 'tenant'), body.plan)
          .catch((err: unknown) => {
            throw err instanceof StoreError && err.code === 'NOT_FOUND'
              ? new ProblemError('NOT_FOUND', `No ${err.message.replace(/^no such /, '')} has this id.`)
              : accountProblem(err, 'tenant');
          });
        return reply.send({ subscription });
      },
    },
    {
      method: 'POST',
      url: '/v1/commercial/tenants/:tenant/close-period',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: "Close a tenant's month into an invoice",
        operationId: 'closePeriod',
        description:
          "Operator only (commercial mode). One transaction: an OPEN invoice of the plan's monthly price and one CHARGE ledger entry stating the month's keyed requests (every project of the tenant) against the plan's included ones. Once per month and tenant. Nothing is collected: billing is a mock.",
        tags,
        params: TenantParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(PeriodRequestSchema),
        response: {
          201: json(ref(PeriodClosedSchema), 'The invoice and its ledger entries.'),
          ...CONTROL_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not a PeriodRequest, or that month is closed already; INVALID_OPTIONS: a query option.'),
          404: problem(`NOT_FOUND: no tenant has this id, or it has no subscription; or ${UNMOUNTED}.`),
        },
      },
      handler: async (request, reply) => {
        const body = request.body as { period: string };
        const tenantId = param(request, 'tenant');
        // This daemon's pending usage counts are in before the month is read.
        await ctx.keyed?.flush();
        const closed = await accounts()
          .closePeriod(tenantId, body.period)
          .catch((err: unknown) => {
            if (err instanceof StoreError && err.code === 'CONFLICT')
              throw new ProblemError('INVALID_REQUEST', `The tenant's ${body.period} is closed already.`);
            if (err instanceof StoreError && err.code === 'NOT_FOUND')
              throw new ProblemError('NOT_FOUND', `No ${err.message.replace(/^no such /, '')} has this id.`);
            throw accountProblem(err, 'tenant');
          });
        return reply.code(201).send(closed);
      },
    },
    {
      method: 'GET',
      url: '/v1/commercial/tenants/:tenant/billing',
      budget: 'standard',
      auth: 'operator',
      directOnly: true,
      options,
      schema: {
        summary: "A tenant's subscription, invoices and ledger",
        operationId: 'tenantBilling',
        description: 'Operator only (commercial mode). Billing is a mock: what would be charged, recorded; nothing is collected.',
        tags,
        params: TenantParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(TenantBillingSchema), 'The billing record.'),
          ...CONTROL_PROBLEMS,
          404: problem(`NOT_FOUND: no tenant has this id; or ${UNMOUNTED}.`),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const tenantId = param(request, 'tenant');
        const billing = await accounts()
          .billingOf(tenantId)
          .catch((err: unknown) => {
            throw accountProblem(err, 'tenant');
          });
        return reply.send({ tenantId, ...billing });
      },
    },
  ];
}
