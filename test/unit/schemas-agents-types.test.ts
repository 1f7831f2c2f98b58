/**
 * The schemas of the verification, presentation, delegation and inspection routes agree with the core types:
 * each core type is assignable to the schema's static type (everything svc answers is allowed by
 * the document) and back (the document promises nothing svc does not produce). Checked by the
 * type checker (`tsc --noEmit` covers test/); the runtime part checks the `$id`s and that every
 * result object is closed.
 */
import type { Static, TSchema } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { A2aInspection as CoreA2aInspection } from '../../src/core/a2a/types.js';
import type { CredentialVerification as CoreCredentialVerification } from '../../src/core/credentials/types.js';
import type { Authorization as CoreAuthorization, DelegationChainResult as CoreDelegationChainResult } from '../../src/core/delegation/types.js';
import type { JwsVerification as CoreJwsVerification } from '../../src/core/jws/verify.js';
import type { McpInspection as CoreMcpInspection } from '../../src/core/mcp/types.js';
import type { PolicyRuleValues } from '../../src/core/policy/types.js';
import type { PolicyDecision as CorePolicyDecision } from '../../src/core/policy/run.js';
import type { PresentationVerification as CorePresentationVerification } from '../../src/core/presentations/types.js';
import { DELEGATION_REFS, DELEGATION_SCHEMAS } from '../../src/server/schemas/delegation.js';
import { COMMON_SCHEMAS } from '../../src/server/schemas/common.js';
import { INSPECTION_REFS, INSPECTION_SCHEMAS } from '../../src/server/schemas/inspection.js';
import { PRESENTATION_REFS, PRESENTATION_SCHEMAS } from '../../src/server/schemas/presentations.js';
import { PROBE_SCHEMAS } from '../../src/server/schemas/probes.js';
import { RESOLUTION_REFS, RESOLUTION_SCHEMAS } from '../../src/server/schemas/resolution.js';
import { VERIFICATION_REFS, VERIFICATION_SCHEMAS } from '../../src/server/schemas/verification.js';

const REFS = { ...RESOLUTION_REFS, ...VERIFICATION_REFS, ...PRESENTATION_REFS, ...DELEGATION_REFS, ...INSPECTION_REFS };
type Refs = typeof REFS;
type S<T extends TSchema> = Static<T, Refs>;

/** The registration outcome of verify-delegation (routes/delegation.ts). */
interface DelegationVerification {
  result: CoreDelegationChainResult;
  registered: boolean;
  registrationReason?: string;
}

describe('schemas of the verification, delegation and inspection routes', () => {
  it('agree with the core types in both directions', () => {
    expectTypeOf<CoreCredentialVerification>().toExtend<S<typeof VERIFICATION_REFS.CredentialVerification>>();
    expectTypeOf<S<typeof VERIFICATION_REFS.CredentialVerification>>().toExtend<CoreCredentialVerification>();

    expectTypeOf<CorePresentationVerification>().toExtend<S<typeof PRESENTATION_REFS.PresentationVerification>>();
    expectTypeOf<S<typeof PRESENTATION_REFS.PresentationVerification>>().toExtend<CorePresentationVerification>();

    expectTypeOf<CoreJwsVerification>().toExtend<S<typeof VERIFICATION_REFS.JwsVerification>>();
    expectTypeOf<S<typeof VERIFICATION_REFS.JwsVerification>>().toExtend<CoreJwsVerification>();

    expectTypeOf<CorePolicyDecision>().toExtend<S<typeof VERIFICATION_REFS.PolicyDecision>>();
    expectTypeOf<S<typeof VERIFICATION_REFS.PolicyDecision>>().toExtend<CorePolicyDecision>();

    // A validated policy's rules are what the request schema allows.
    expectTypeOf<Partial<PolicyRuleValues>>().toExtend<S<typeof VERIFICATION_REFS.PolicyRules>>();
    expectTypeOf<S<typeof VERIFICATION_REFS.PolicyRules>>().toExtend<Partial<PolicyRuleValues>>();

    expectTypeOf<CoreDelegationChainResult>().toExtend<S<typeof DELEGATION_REFS.DelegationChainResult>>();
    expectTypeOf<S<typeof DELEGATION_REFS.DelegationChainResult>>().toExtend<CoreDelegationChainResult>();

    expectTypeOf<CoreAuthorization>().toExtend<S<typeof DELEGATION_REFS.Authorization>>();
    expectTypeOf<S<typeof DELEGATION_REFS.Authorization>>().toExtend<CoreAuthorization>();

    expectTypeOf<DelegationVerification>().toExtend<S<typeof DELEGATION_REFS.DelegationVerification>>();
    expectTypeOf<S<typeof DELEGATION_REFS.DelegationVerification>>().toExtend<DelegationVerification>();

    expectTypeOf<{ authorization: CoreAuthorization; chain: CoreDelegationChainResult }>().toExtend<S<typeof DELEGATION_REFS.AuthorizeResponse>>();
    expectTypeOf<S<typeof DELEGATION_REFS.AuthorizeResponse>>().toExtend<{ authorization: CoreAuthorization; chain: CoreDelegationChainResult }>();

    expectTypeOf<CoreMcpInspection>().toExtend<S<typeof INSPECTION_REFS.McpInspection>>();
    expectTypeOf<S<typeof INSPECTION_REFS.McpInspection>>().toExtend<CoreMcpInspection>();

    expectTypeOf<CoreA2aInspection>().toExtend<S<typeof INSPECTION_REFS.A2aInspection>>();
    expectTypeOf<S<typeof INSPECTION_REFS.A2aInspection>>().toExtend<CoreA2aInspection>();
  });

  it('give every resource a unique $id, its key in the REFS maps', () => {
    for (const refs of [VERIFICATION_REFS, PRESENTATION_REFS, DELEGATION_REFS, INSPECTION_REFS]) {
      for (const [id, schema] of Object.entries(refs)) expect((schema as { $id?: string }).$id).toBe(id);
    }
    const ids = [
      ...COMMON_SCHEMAS,
      ...PROBE_SCHEMAS,
      ...RESOLUTION_SCHEMAS,
      ...VERIFICATION_SCHEMAS,
      ...PRESENTATION_SCHEMAS,
      ...DELEGATION_SCHEMAS,
      ...INSPECTION_SCHEMAS,
    ].map((s) => (s as { $id?: string }).$id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('close every result object of these routes', () => {
    const open: string[] = [];
    const walk = (schema: unknown, path: string): void => {
      if (typeof schema !== 'object' || schema === null) return;
      const s = schema as Record<string, unknown>;
      if (s['type'] === 'object' && s['properties'] !== undefined && s['additionalProperties'] !== false) open.push(path);
      for (const [key, value] of Object.entries(s)) {
        if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}.${key}[${i}]`));
        else walk(value, `${path}.${key}`);
      }
    };
    for (const schema of [...VERIFICATION_SCHEMAS, ...PRESENTATION_SCHEMAS, ...DELEGATION_SCHEMAS, ...INSPECTION_SCHEMAS])
      walk(schema, (schema as { $id: string }).$id);
    expect(open).toEqual([]);
  });
});
