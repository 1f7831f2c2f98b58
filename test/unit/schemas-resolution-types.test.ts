/**
 * The schemas of the resolution routes, the probes and the W3C binding agree with the core types:
 * each core type is assignable to the schema's static type (everything svc answers is allowed by
 * the document) and back (the document promises nothing svc does not produce). Checked by the
 * type checker (`tsc --noEmit` covers test/); the runtime part checks the `$id`s, that the
 * result objects are closed, and the enumerations against the core's tables.
 */
import type { Static, TSchema } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DereferencingResult as CoreDereferencingResult } from '../../src/core/dereference/dereference.js';
import type { ObservationHistory as CoreObservationHistory, SemanticDiff as CoreSemanticDiff } from '../../src/core/history/types.js';
import { KEY_STATUSES } from '../../src/core/keys/types.js';
import { DOMAIN_BINDING_STATUSES, LINKAGE_CREDENTIAL_FORMATS } from '../../src/core/linkage/types.js';
import type { FastDidVerdict as CoreFastDidVerdict } from '../../src/core/resolve/fast-verify.js';
import {
  DIMENSION_IDS,
  DIMENSION_STATES,
  EDGE_STATES,
  OUTCOMES,
  RELATIONSHIPS,
  type DidDocument as CoreDidDocument,
  type Dimension as CoreDimension,
  type EnrichedResolution as CoreEnrichedResolution,
  type Evidence as CoreEvidence,
  type WhoisEvidence as CoreWhoisEvidence,
  type GraphEdge as CoreGraphEdge,
  type GraphNode as CoreGraphNode,
  type Verdict as CoreVerdict,
} from '../../src/core/resolve/types.js';
import type { Observation as CoreObservation } from '../../src/core/store.js';
import { WEBVH_CHECKS, type HistoryEvidence as CoreHistoryEvidence } from '../../src/core/webvh/types.js';
import type { TlsEvidence as CoreTlsEvidence } from '../../src/core/net.js';
import type { DomainBindingEvidence as CoreDomainBindingEvidence } from '../../src/core/linkage/types.js';
import type { ErrorResolutionBody, ResolutionResultBody } from '../../src/server/w3c.js';
import type { Readiness } from '../../src/server/storage.js';
import type { RowUsage } from '../../src/store/index.js';
import { probeRoutes, type STANDARDS } from '../../src/server/routes/probes.js';
import { resolutionRoutes } from '../../src/server/routes/resolution.js';
import { w3cRoutes } from '../../src/server/routes/w3c.js';
import type { ServerContext } from '../../src/server/context.js';
import { COMMON_SCHEMAS } from '../../src/server/schemas/common.js';
import { type HealthSchema, PROBE_SCHEMAS, type ReadySchema, type ServiceStatusSchema } from '../../src/server/schemas/probes.js';
import { RESOLUTION_REFS, RESOLUTION_SCHEMAS } from '../../src/server/schemas/resolution.js';

type Refs = typeof RESOLUTION_REFS;
type S<T extends TSchema> = Static<T, Refs>;
const R = RESOLUTION_REFS;

describe('schemas of the resolution routes, the probes and the W3C binding', () => {
  it('agree with the core types in both directions', () => {
    expectTypeOf<CoreEnrichedResolution>().toExtend<S<typeof R.EnrichedResolution>>();
    expectTypeOf<S<typeof R.EnrichedResolution>>().toExtend<CoreEnrichedResolution>();

    expectTypeOf<CoreEvidence>().toExtend<S<typeof R.Evidence>>();
    expectTypeOf<S<typeof R.Evidence>>().toExtend<CoreEvidence>();

    expectTypeOf<CoreWhoisEvidence>().toExtend<S<typeof R.WhoisEvidence>>();
    expectTypeOf<S<typeof R.WhoisEvidence>>().toExtend<CoreWhoisEvidence>();
    expectTypeOf<CoreHistoryEvidence>().toExtend<S<typeof R.HistoryEvidence>>();
    expectTypeOf<S<typeof R.HistoryEvidence>>().toExtend<CoreHistoryEvidence>();

    expectTypeOf<CoreTlsEvidence>().toExtend<S<typeof R.TlsEvidence>>();
    expectTypeOf<S<typeof R.TlsEvidence>>().toExtend<CoreTlsEvidence>();

    expectTypeOf<CoreDomainBindingEvidence>().toExtend<S<typeof R.DomainBindingEvidence>>();
    expectTypeOf<S<typeof R.DomainBindingEvidence>>().toExtend<CoreDomainBindingEvidence>();

    expectTypeOf<CoreVerdict>().toExtend<S<typeof R.Verdict>>();
    expectTypeOf<S<typeof R.Verdict>>().toExtend<CoreVerdict>();

    expectTypeOf<CoreDimension>().toExtend<S<typeof R.Dimension>>();
    expectTypeOf<S<typeof R.Dimension>>().toExtend<CoreDimension>();

    expectTypeOf<CoreGraphNode>().toExtend<S<typeof R.GraphNode>>();
    expectTypeOf<S<typeof R.GraphNode>>().toExtend<CoreGraphNode>();
    expectTypeOf<CoreGraphEdge>().toExtend<S<typeof R.GraphEdge>>();
    expectTypeOf<S<typeof R.GraphEdge>>().toExtend<CoreGraphEdge>();

    expectTypeOf<CoreDidDocument>().toExtend<S<typeof R.DidDocument>>();
    expectTypeOf<S<typeof R.DidDocument>>().toExtend<CoreDidDocument>();

    expectTypeOf<CoreFastDidVerdict>().toExtend<S<typeof R.FastDidVerdict>>();
    expectTypeOf<S<typeof R.FastDidVerdict>>().toExtend<CoreFastDidVerdict>();

    type GraphResponse = Pick<CoreEnrichedResolution, 'did' | 'observedAt' | 'verdict'> & CoreEnrichedResolution['graph'];
    expectTypeOf<GraphResponse>().toExtend<S<typeof R.GraphResponse>>();
    expectTypeOf<S<typeof R.GraphResponse>>().toExtend<GraphResponse>();

    expectTypeOf<CoreObservation>().toExtend<S<typeof R.Observation>>();
    expectTypeOf<S<typeof R.Observation>>().toExtend<CoreObservation>();
    expectTypeOf<CoreObservationHistory>().toExtend<S<typeof R.ObservationHistory>>();
    expectTypeOf<S<typeof R.ObservationHistory>>().toExtend<CoreObservationHistory>();

    expectTypeOf<CoreSemanticDiff>().toExtend<S<typeof R.SemanticDiff>>();
    expectTypeOf<S<typeof R.SemanticDiff>>().toExtend<CoreSemanticDiff>();

    // contentStream is `unknown` in both; contentMetadata is the open didDocumentMetadata.
    expectTypeOf<CoreDereferencingResult>().toExtend<S<typeof R.DereferencingResult>>();
    expectTypeOf<S<typeof R.DereferencingResult>>().toExtend<CoreDereferencingResult>();

    expectTypeOf<ResolutionResultBody>().toExtend<S<typeof R.W3cResolutionResult>>();
    expectTypeOf<S<typeof R.W3cResolutionResult>>().toExtend<ResolutionResultBody>();
    expectTypeOf<ErrorResolutionBody>().toExtend<S<typeof R.W3cErrorResolutionResult>>();

    type ReadyBody = Extract<Readiness, { ready: true }>;
    expectTypeOf<ReadyBody>().toExtend<Static<typeof ReadySchema>>();
    expectTypeOf<Static<typeof ReadySchema>>().toExtend<ReadyBody>();

    type Standards = { -readonly [K in keyof typeof STANDARDS]: (typeof STANDARDS)[K] extends string ? string : number };
    expectTypeOf<Standards>().toExtend<Static<typeof HealthSchema>['standards']>();
    expectTypeOf<Static<typeof HealthSchema>['standards']>().toExtend<Standards>();

    type StorageOk = Extract<Static<typeof ServiceStatusSchema>['components']['storage'], { status: 'ok' }>;
    expectTypeOf<RowUsage>().toExtend<NonNullable<StorageOk['observations']>>();
    expectTypeOf<NonNullable<StorageOk['observations']>>().toExtend<RowUsage>();
  });

  it('spell the enumerations exactly as the core tables', () => {
    const literals = (schema: TSchema): unknown[] => ((schema as { anyOf: Array<{ const: unknown }> }).anyOf ?? []).map((s) => s.const);
    expect(literals(R.DimensionId)).toEqual([...DIMENSION_IDS]);
    expect(literals(R.DimensionState)).toEqual([...DIMENSION_STATES]);
    expect(literals(R.Outcome)).toEqual([...OUTCOMES]);
    expect(literals(R.Relationship)).toEqual([...RELATIONSHIPS]);
    expect(literals(R.KeyStatus)).toEqual([...KEY_STATUSES]);
    expect(literals(R.DomainBindingStatus)).toEqual([...DOMAIN_BINDING_STATUSES]);
    expect(literals(R.EdgeState)).toEqual([...EDGE_STATES]);
    expect(literals(R.WebvhCheck)).toEqual([...WEBVH_CHECKS]);
    const format = (R.LinkageCredentialEvidence as unknown as { properties: { format: TSchema } }).properties.format;
    expect(literals(format)).toEqual([...LINKAGE_CREDENTIAL_FORMATS]);
  });

  it('name every resource by its $id, once, and close every result object', () => {
    const ids = [...COMMON_SCHEMAS, ...RESOLUTION_SCHEMAS, ...PROBE_SCHEMAS].map((s) => (s as { $id?: string }).$id);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [id, schema] of Object.entries(RESOLUTION_REFS)) expect((schema as { $id?: string }).$id).toBe(id);
    // Open on purpose: what the controller published, and the method's metadata.
    const open = new Set(['DidDocument', 'DidDocumentMetadata']);
    const closed = (schema: unknown, where: string): void => {
      if (typeof schema !== 'object' || schema === null) return;
      const s = schema as Record<string, unknown>;
      if (s['type'] === 'object' && s['properties'] !== undefined && !open.has(String(s['$id']))) {
        expect(s['additionalProperties'], where).toBe(false);
      }
      for (const [key, value] of Object.entries(s)) if (key !== 'witness') closed(value, `${where}.${key}`);
    };
    for (const schema of [...RESOLUTION_SCHEMAS, ...PROBE_SCHEMAS]) closed(schema, String((schema as { $id?: string }).$id));
  });

  it('give every route of the three groups a schema with its statuses', () => {
    const ctx = {} as ServerContext;
    for (const route of [...resolutionRoutes(ctx), ...probeRoutes(ctx), ...w3cRoutes(ctx)]) {
      expect(route.schema, `${route.method} ${route.url}`).toBeDefined();
      const statuses = Object.keys(route.schema!.response).map(Number);
      expect(statuses, route.url).toContain(200);
      expect(
        statuses.some((s) => s >= 400),
        route.url,
      ).toBe(true);
      if (route.budget !== 'none') expect(statuses, route.url).toContain(429);
    }
  });
});
