/**
 * Schemas of the commercial control routes (docs/daemon.md#commercial-mode): the operator's
 * tenants, projects, owners and usage, and the mock billing. The session core's key routes have
 * theirs in session-keys.ts.
 */
import Type, { type TSchema } from 'typebox';
import { Nullable, StoredText } from './common.js';

const Did = (description: string) => StoredText({ minLength: 1, maxLength: 2_048, description });

export const ProjectSchema = Type.Object(
  {
    id: Type.String({ description: 'prj_ and 22 base64url characters.' }),
    tenantId: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ description: 'RFC 3339 UTC (the database clock).' }),
  },
  { $id: 'Project', additionalProperties: false },
);

const tenantFields = {
  id: Type.String({ description: 'ten_ and 22 base64url characters.' }),
  name: Type.String(),
  owner: Type.String({ description: 'The founding owner (a DID), kept as founded.' }),
  createdAt: Type.String({ description: 'RFC 3339 UTC (the database clock).' }),
  owners: Type.Array(Type.String(), { description: 'The subjects (DIDs) that own the tenant now, by when they were attached.' }),
};

export const TenantSchema = Type.Object(tenantFields, { $id: 'Tenant', additionalProperties: false });

export const TenantRequestSchema = Type.Object(
  {
    name: StoredText({ minLength: 1, maxLength: 100 }),
    owner: Did('The first owner: a DID (it signs in to the owner console).'),
  },
  { $id: 'TenantRequest', additionalProperties: false },
);

export const TenantCreatedSchema = Type.Object({ tenant: Type.Ref('Tenant') }, { $id: 'TenantCreated', additionalProperties: false });

export const TenantListSchema = Type.Object(
  {
    tenants: Type.Array(Type.Object({ ...tenantFields, projects: Type.Array(Type.Ref('Project')) }, { additionalProperties: false }), {
      description: 'Every tenant, oldest first, with its projects (oldest first).',
    }),
  },
  { $id: 'TenantList', additionalProperties: false },
);

export const ProjectRequestSchema = Type.Object({ name: StoredText({ minLength: 1, maxLength: 100 }) }, { $id: 'ProjectRequest', additionalProperties: false });

export const ProjectCreatedSchema = Type.Object({ project: Type.Ref('Project') }, { $id: 'ProjectCreated', additionalProperties: false });

export const OwnerRequestSchema = Type.Object({ subject: Did('The DID to attach as an owner.') }, { $id: 'OwnerRequest', additionalProperties: false });

export const TenantOwnersSchema = Type.Object(
  { tenantId: Type.String(), owners: Type.Array(Type.String()) },
  { $id: 'TenantOwners', additionalProperties: false },
);

export const ProjectUsageSchema = Type.Object(
  {
    projectId: Type.String(),
    usage: Type.Array(
      Type.Object(
        {
          metric: Type.String({ description: 'requests: keyed requests served.' }),
          period: Type.String({ description: 'The month, YYYY-MM (UTC).' }),
          count: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { description: 'By period, then metric. Nothing is charged: billing is a mock (usage is counted only).' },
    ),
  },
  { $id: 'ProjectUsage', additionalProperties: false },
);

// ---- mock billing (schema v5: no payment provider; what would be charged, recorded)

export const PlanSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217.' }),
    monthlyPriceMinor: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'The monthly price in minor units (cents).' }),
    includedRequests: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Keyed requests a month includes.' }),
    active: Type.Boolean({ description: 'Only an active plan takes new subscriptions.' }),
    createdAt: Type.String(),
  },
  { $id: 'Plan', additionalProperties: false },
);

export const PlanRequestSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
    name: StoredText({ minLength: 1, maxLength: 100 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    monthlyPriceMinor: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    includedRequests: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    active: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  },
  { $id: 'PlanRequest', additionalProperties: false },
);

export const PlanListSchema = Type.Object({ plans: Type.Array(Type.Ref('Plan'), { description: 'By id.' }) }, { $id: 'PlanList', additionalProperties: false });
export const PlanSavedSchema = Type.Object({ plan: Type.Ref('Plan') }, { $id: 'PlanSaved', additionalProperties: false });

export const SubscriptionSchema = Type.Object(
  { tenantId: Type.String(), planId: Type.String(), startedAt: Type.String() },
  { $id: 'Subscription', additionalProperties: false },
);

export const SubscriptionRequestSchema = Type.Object(
  { plan: StoredText({ minLength: 1, maxLength: 64 }) },
  { $id: 'SubscriptionRequest', additionalProperties: false },
);
export const SubscriptionSavedSchema = Type.Object({ subscription: Type.Ref('Subscription') }, { $id: 'SubscriptionSaved', additionalProperties: false });

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'inv_ and 22 base64url characters.' }),
    tenantId: Type.String(),
    periodStart: Type.String({ description: 'The month’s first instant, RFC 3339 UTC.' }),
    periodEnd: Type.String({ description: 'The next month’s first instant.' }),
    currency: Type.String(),
    totalMinor: Type.Integer(),
    status: Type.Union([Type.Literal('DRAFT'), Type.Literal('OPEN'), Type.Literal('PAID'), Type.Literal('VOID')], {
      description: 'OPEN: what would be charged. No payment provider is involved: nothing is ever collected.',
    }),
    createdAt: Type.String(),
  },
  { $id: 'Invoice', additionalProperties: false },
);

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    tenantId: Type.String(),
    invoiceId: Nullable(Type.String()),
    kind: Type.Union([Type.Literal('CHARGE'), Type.Literal('CREDIT'), Type.Literal('PAYMENT'), Type.Literal('ADJUSTMENT')]),
    amountMinor: Type.Integer(),
    description: Type.String(),
    createdAt: Type.String(),
  },
  { $id: 'LedgerEntry', additionalProperties: false },
);

export const PeriodRequestSchema = Type.Object(
  {
    period: Type.String({
      pattern: '^(?!9999-12)[0-9]{4}-(0[1-9]|1[0-2])$',
      description: 'The month to close, YYYY-MM (UTC), from 0000-01 to 9999-11: the end of 9999-12 would lie beyond the instants svc stores.',
    }),
  },
  { $id: 'PeriodRequest', additionalProperties: false },
);

export const PeriodClosedSchema = Type.Object(
  { invoice: Type.Ref('Invoice'), entries: Type.Array(Type.Ref('LedgerEntry')) },
  { $id: 'PeriodClosed', additionalProperties: false },
);

export const TenantBillingSchema = Type.Object(
  {
    tenantId: Type.String(),
    subscription: Nullable(Type.Ref('Subscription')),
    plan: Nullable(Type.Ref('Plan')),
    invoices: Type.Array(Type.Ref('Invoice'), { description: 'Oldest first.' }),
    ledger: Type.Array(Type.Ref('LedgerEntry'), { description: 'Oldest first.' }),
  },
  { $id: 'TenantBilling', additionalProperties: false },
);

/** The tenants', projects', owners' and usage resources. */
export const COMMERCIAL_SCHEMAS: TSchema[] = [
  ProjectSchema,
  TenantSchema,
  TenantRequestSchema,
  TenantCreatedSchema,
  TenantListSchema,
  ProjectRequestSchema,
  ProjectCreatedSchema,
  OwnerRequestSchema,
  TenantOwnersSchema,
  ProjectUsageSchema,
];

/** The mock billing's resources (listed apart: in openapi.json they follow the key schemas of session-keys.ts). */
export const BILLING_SCHEMAS: TSchema[] = [
  PlanSchema,
  PlanRequestSchema,
  PlanListSchema,
  PlanSavedSchema,
  SubscriptionSchema,
  SubscriptionRequestSchema,
  SubscriptionSavedSchema,
  InvoiceSchema,
  LedgerEntrySchema,
  PeriodRequestSchema,
  PeriodClosedSchema,
  TenantBillingSchema,
];

// Request schemas of the routes (no `$id`: inlined where a route uses them; `{project}` is common.ts's).

/** `{tenant}`: a tenant of the control routes. */
export const TenantParamsSchema = Type.Object({ tenant: StoredText() }, { additionalProperties: false });

/** `{tenant, subject}`: an owner of a tenant, to detach. */
export const TenantOwnerParamsSchema = Type.Object({ tenant: StoredText(), subject: StoredText() }, { additionalProperties: false });
