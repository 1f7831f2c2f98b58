/**
 * Bodies of the service probes (docs/daemon.md#probes, src/server/routes/probes.ts): /health,
 * /ready and /v1/status. Closed like the handlers' objects, so the contract test catches drift.
 */
import Type, { type TSchema } from 'typebox';
import { EmptyQuerySchema, json, problem, type RouteSchema } from './common.js';

const ProfileSchema = Type.Union([Type.Literal('direct'), Type.Literal('public')]);

export const HealthSchema = Type.Object(
  {
    status: Type.Literal('ok'),
    name: Type.String(),
    version: Type.String(),
    time: Type.String(),
    /** e.g. did:key, did:jwk, did:web, did:webvh. */
    supportedMethods: Type.Array(Type.String()),
    /** The version of each standard svc implements, by name (routes/probes.ts STANDARDS). */
    standards: Type.Object(
      {
        didCore: Type.String(),
        didResolution: Type.String(),
        didKey: Type.String(),
        didJwk: Type.String(),
        didWeb: Type.String(),
        didWebvh: Type.String(),
        didConfiguration: Type.String(),
        dataIntegrity: Type.String(),
        verifiableCredentials: Type.String(),
        statusLists: Type.String(),
        delegationReceipts: Type.String(),
        jcs: Type.String(),
        jwkThumbprint: Type.String(),
        problemDetails: Type.String(),
        fingerprintProfile: Type.String(),
        storageSchema: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    monitoring: Type.Boolean({
      description: 'Whether operator monitoring runs here (SVC_ADMIN_TOKEN on the direct profile): watches checked, events delivered.',
    }),
    rateLimited: Type.Boolean(),
    profile: ProfileSchema,
    /** Operator settings that weaken a default; empty when none. */
    relaxations: Type.Array(
      Type.Object({ setting: Type.String(), value: Type.Union([Type.String(), Type.Null()]), effect: Type.String() }, { additionalProperties: false }),
    ),
    signer: Type.Union(
      [
        Type.Object(
          {
            did: Type.String({ description: 'The DID the daemon signs as: the did:key of its key, or the did:web of SVC_SIGNING_DID.' }),
            kid: Type.String({ description: 'The verification method of the key, the kid of every svc-signature.' }),
            alg: Type.Union([Type.Literal('EdDSA'), Type.Literal('ES256')]),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'Who signs the results asked for with signed=true (docs/daemon.md#signed-results); null when the daemon has no signing key (SVC_SIGNING_KEY).',
      },
    ),
  },
  { $id: 'Health', additionalProperties: false },
);

export const ReadySchema = Type.Object(
  {
    ready: Type.Literal(true),
    storage: Type.Union([Type.Literal('file'), Type.Literal('memory'), Type.Literal('postgres')], {
      description: 'The engine: an embedded SQLite file, SQLite in memory, or a PostgreSQL database shared by several daemons',
    }),
    schema: Type.Literal('current'),
  },
  { $id: 'Ready', additionalProperties: false },
);

const ComponentStatus = <T extends string>(...values: T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const RowUsageSchema = Type.Object(
  {
    stored: Type.Integer({ minimum: 0 }),
    ceiling: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    evicted: Type.Integer({ minimum: 0 }),
    refused: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const ServiceStatusSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    version: Type.String(),
    profile: ProfileSchema,
    startedAt: Type.String(),
    uptimeSeconds: Type.Integer({ minimum: 0 }),
    components: Type.Object(
      {
        resolution: Type.Object(
          {
            status: ComponentStatus('ok', 'draining'),
            methods: Type.Array(Type.String()),
            inFlight: Type.Integer({ minimum: 0 }),
            maxConcurrency: Type.Integer({ minimum: 0 }),
            maxConcurrencyPerClient: Type.Integer({ minimum: 0 }),
          },
          { additionalProperties: false },
        ),
        cache: Type.Object(
          {
            status: Type.Literal('ok'),
            entries: Type.Integer({ minimum: 0 }),
            ttlSeconds: Type.Number({ minimum: 0 }),
            bytes: Type.Optional(
              Type.Integer({
                minimum: 0,
                description: "svc's estimate of the memory the cached resolutions hold (their documents, evidence and kept answers), bytes",
              }),
            ),
            maxEntries: Type.Optional(Type.Integer({ minimum: 0, description: 'The entry bound (SVC_CACHE_MAX_ENTRIES)' })),
            maxBytes: Type.Optional(
              Type.Integer({ minimum: 0, description: 'The byte bound (SVC_CACHE_MAX_BYTES); least recently used entries go first until both bounds hold' }),
            ),
          },
          {
            additionalProperties: false,
            description:
              "The daemon's in-memory resolution cache; bytes and the bounds are absent only when a library caller gave the daemon a cache of its own",
          },
        ),
        storage: Type.Union([
          Type.Object(
            {
              status: Type.Literal('ok'),
              storage: Type.Union([Type.Literal('file'), Type.Literal('memory'), Type.Literal('postgres')], {
                description: 'The engine: an embedded SQLite file, SQLite in memory, or a PostgreSQL database shared by several daemons',
              }),
              schema: Type.Literal('current'),
              schemaVersion: Type.Integer(),
              observations: Type.Optional(RowUsageSchema),
              mcpObservations: Type.Optional(RowUsageSchema),
            },
            { additionalProperties: false },
          ),
          Type.Object({ status: Type.Literal('unavailable'), reason: Type.String() }, { additionalProperties: false }),
        ]),
        rateLimit: Type.Union([
          Type.Object(
            { status: Type.Literal('ok'), standardPerMinute: Type.Integer({ minimum: 0 }), intensivePerMinute: Type.Integer({ minimum: 0 }) },
            { additionalProperties: false },
          ),
          Type.Object({ status: Type.Literal('ok'), perMinute: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
        ]),
        monitoring: Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('disabled')]) }, { additionalProperties: false }),
        claims: Type.Object(
          {
            status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')], { description: 'unavailable while the database is.' }),
            recheckIntervalSeconds: Type.Integer({ minimum: 1, description: 'Seconds between re-checks of a well-known or DNS claim.' }),
            periodSeconds: Type.Integer({ minimum: 1, description: 'Seconds between two passes of the re-checker.' }),
          },
          { additionalProperties: false },
        ),
        console: Type.Object(
          {
            status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
              description: 'enabled while the commercial mode is on (its cookie gateway is the owner console).',
            }),
          },
          { additionalProperties: false },
        ),
        billing: Type.Object(
          {
            status: Type.Union([Type.Literal('mock'), Type.Literal('disabled')], {
              description: 'mock while the commercial mode is on: usage is counted, nothing is charged (no payment provider); disabled otherwise.',
            }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ServiceStatus', additionalProperties: false },
);

export const PROBE_SCHEMAS: TSchema[] = [HealthSchema, ReadySchema, ServiceStatusSchema];

const BAD_REQUEST = problem(
  'INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding',
);

export const PROBE_ROUTE_SCHEMAS = {
  health: {
    summary: 'Liveness: what this service is and implements',
    operationId: 'health',
    description: 'Never rate limited. Lists the operator settings that weaken a default (relaxations).',
    tags: ['service'],
    querystring: EmptyQuerySchema,
    response: {
      200: json(Type.Ref('Health'), 'The service is up'),
      400: BAD_REQUEST,
      503: problem('SERVICE_UNAVAILABLE: the daemon is shutting down (Retry-After)'),
    },
  },
  ready: {
    summary: 'Readiness: the store is open and its schema current',
    operationId: 'ready',
    description: 'Never rate limited. Does not certify write durability, disk capacity, backups or external health.',
    tags: ['service'],
    querystring: EmptyQuerySchema,
    response: {
      200: json(Type.Ref('Ready'), 'Ready'),
      400: BAD_REQUEST,
      503: problem('NOT_READY: storage or schema unavailable, or shutting down (Retry-After: 5); SERVICE_UNAVAILABLE: the daemon is shutting down'),
    },
  },
  status: {
    summary: 'Status of each component',
    operationId: 'status',
    tags: ['service'],
    querystring: EmptyQuerySchema,
    response: {
      200: json(Type.Ref('ServiceStatus'), 'Component status (degraded while the store is unavailable or the daemon drains)'),
      400: BAD_REQUEST,
      429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)"),
      503: problem('SERVICE_UNAVAILABLE: the daemon is shutting down (Retry-After)'),
    },
  },
  metrics: {
    summary: "Prometheus metrics: the daemon's requests, resolutions, fetches, database calls and process",
    operationId: 'metrics',
    description:
      'The text exposition format 0.0.4 (docs/operations.md#metrics). Operator only, like the monitoring routes: ' +
      '`Authorization: Bearer <SVC_ADMIN_TOKEN>`. Direct profile only (404 with --public); never rate limited. ' +
      'SVC_METRICS_LISTEN serves the same text on a listener of its own, without a token.',
    tags: ['service'],
    querystring: EmptyQuerySchema,
    response: {
      200: {
        description: 'Every metric, collected now',
        content: { 'text/plain': { schema: Type.String({ description: 'The Prometheus text exposition (version 0.0.4).' }) } },
      },
      400: BAD_REQUEST,
      401: problem("UNAUTHORIZED: no operator token, or not this daemon's"),
      404: problem('NOT_FOUND: the metrics are off (SVC_METRICS=off)'),
      501: problem('MONITORING_DISABLED: the daemon has no operator token (SVC_ADMIN_TOKEN unset or shorter than 24 characters)'),
      503: problem('SERVICE_UNAVAILABLE: the daemon is shutting down (Retry-After)'),
    },
  },
} satisfies Record<string, RouteSchema>;
