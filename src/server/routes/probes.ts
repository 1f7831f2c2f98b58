/** Service probes (docs/daemon.md#probes): /health and /ready are never rate limited; /v1/status is. */
import { SUPPORTED_METHODS } from '../../core/methods/registry.js';
import { ProblemError } from '../../core/problems.js';
import { rfc3339 } from '../../core/runtime.js';
import { HASH_PROFILE } from '../../core/canonical.js';
import { SCHEMA_VERSION } from '../../store/index.js';
import { RESOLVER } from '../../version.js';
import type { RouteDef, ServerContext } from '../context.js';
import { queryOptions } from '../http.js';
import { requireOperator } from '../operator.js';
import { notFound } from '../plugins/not-found.js';
import { PROBE_ROUTE_SCHEMAS } from '../schemas/probes.js';

/** Standards svc implements, by the version it follows (reported by /health). */
export const STANDARDS = Object.freeze({
  didCore: '1.0',
  didResolution: '1.0 (Candidate Recommendation Draft)',
  didKey: '0.9',
  didJwk: '1.0',
  didWeb: '1.0',
  didWebvh: '1.0',
  didConfiguration: 'DIF Well Known DID Configuration 1.0',
  dataIntegrity: 'eddsa-jcs-2022, ecdsa-jcs-2019 (P-256)',
  verifiableCredentials: 'VC Data Model 2.0 and 1.1; VC-JOSE-COSE (vc+jwt); VC-JWT 1.1',
  statusLists: 'Bitstring Status List 1.0, StatusList2021',
  delegationReceipts: 'svc-delegation+jwt v1 (experimental, service-defined)',
  jcs: 'RFC 8785',
  jwkThumbprint: 'RFC 7638',
  problemDetails: 'RFC 9457',
  fingerprintProfile: HASH_PROFILE,
  storageSchema: SCHEMA_VERSION,
});

export function probeRoutes(ctx: ServerContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/health',
      budget: 'none',
      schema: PROBE_ROUTE_SCHEMAS.health,
      handler: async (request, reply) => {
        // While draining, the onRequest hook answers 503 before this handler runs.
        queryOptions(request, []);
        return reply.send({
          status: 'ok',
          name: RESOLVER.name,
          version: RESOLVER.version,
          time: rfc3339(ctx.runtime.clock.now()),
          supportedMethods: SUPPORTED_METHODS.map((m) => `did:${m}`),
          standards: STANDARDS,
          monitoring: ctx.operator?.enabled === true,
          rateLimited: true,
          profile: ctx.profile,
          // Operator settings that weaken a default (egress allowances, trusted proxies, an open
          // delegation registry…): [{setting, value, effect}], empty when none.
          relaxations: ctx.relaxations ?? [],
          // Who signs the results asked for with signed=true: public names only, never the key.
          signer: ctx.signer ? { did: ctx.signer.identity.did, kid: ctx.signer.identity.kid, alg: ctx.signer.identity.alg } : null,
        });
      },
    },
    {
      method: 'GET',
      url: '/ready',
      budget: 'none',
      schema: PROBE_ROUTE_SCHEMAS.ready,
      handler: async (request, reply) => {
        queryOptions(request, []);
        // From the signal on (the notice period included): a load balancer stops sending here.
        const readiness =
          ctx.stopping || ctx.draining ? { ready: false as const, reason: 'draining (the daemon is shutting down)' } : await ctx.storage.readiness();
        if (!readiness.ready) throw new ProblemError('NOT_READY', `Not ready: ${readiness.reason}.`, { retryAfter: 5 });
        return reply.send(readiness);
      },
    },
    {
      method: 'GET',
      url: '/v1/status',
      budget: 'standard',
      schema: PROBE_ROUTE_SCHEMAS.status,
      handler: async (request, reply) => {
        queryOptions(request, []);
        const readiness = await ctx.storage.readiness();
        // Rows and ceilings of the history tables; evicted and refused count since the start.
        const usage = readiness.ready ? await ctx.storage.usage() : null;
        const storage = readiness.ready
          ? { status: 'ok', storage: readiness.storage, schema: readiness.schema, schemaVersion: SCHEMA_VERSION, ...usage }
          : { status: 'unavailable', reason: readiness.reason };
        return reply.send({
          status: readiness.ready && !ctx.stopping && !ctx.draining ? 'ok' : 'degraded',
          version: RESOLVER.version,
          profile: ctx.profile,
          startedAt: rfc3339(ctx.startedAt),
          uptimeSeconds: Math.max(0, Math.floor((ctx.runtime.clock.now().getTime() - ctx.startedAt.getTime()) / 1000)),
          components: {
            resolution: {
              status: ctx.stopping || ctx.draining ? 'draining' : 'ok',
              methods: SUPPORTED_METHODS.map((m) => `did:${m}`),
              inFlight: ctx.capacity.inFlight,
              maxConcurrency: ctx.capacity.max,
              maxConcurrencyPerClient: ctx.capacity.perClient,
            },
            // Entries, estimated bytes and both bounds of the in-memory LRU (SVC_CACHE_MAX_ENTRIES / _BYTES).
            cache: { status: 'ok', entries: ctx.runtime.cache.size, ttlSeconds: ctx.runtime.config.cacheTtlSeconds, ...ctx.runtime.cache.usage?.() },
            storage,
            rateLimit:
              ctx.profile === 'public'
                ? { status: 'ok', standardPerMinute: ctx.limits.standardPerMinute, intensivePerMinute: ctx.limits.intensivePerMinute }
                : { status: 'ok', perMinute: ctx.limits.directPerMinute },
            monitoring: { status: ctx.operator?.enabled === true ? 'ok' : 'disabled' },
            claims: {
              status: readiness.ready ? 'ok' : 'unavailable',
              recheckIntervalSeconds: ctx.limits.claimRecheckSeconds,
              periodSeconds: ctx.limits.claimPeriodSeconds,
            },
            // The commercial mode's cookie gateway is the owner console; billing is a mock (usage counted, nothing charged).
            console: { status: ctx.commercial?.enabled === true ? 'enabled' : 'disabled' },
            billing: { status: ctx.commercial?.enabled === true ? 'mock' : 'disabled' },
          },
        });
      },
    },
    {
      // The operator's, as the monitoring routes are (token checked in constant time); never
      // charged to a budget, so a scrape every few seconds is never refused.
      method: 'GET',
      url: '/metrics',
      budget: 'none',
      auth: 'operator',
      directOnly: true,
      schema: PROBE_ROUTE_SCHEMAS.metrics,
      handler: async (request, reply) => {
        // The token first: a caller without it learns nothing from a 400.
        requireOperator(ctx.operator ?? { enabled: false, reason: 'SVC_ADMIN_TOKEN is not set' }, request);
        queryOptions(request, []);
        if (!ctx.metrics) throw notFound('/metrics');
        const text = await ctx.metrics.exposition();
        return reply.type(ctx.metrics.contentType).send(text);
      },
    },
  ];
}
