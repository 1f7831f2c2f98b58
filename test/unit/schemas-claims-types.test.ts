/**
 * The schemas of the claim and directory routes agree with the core types: the challenge the
 * route answers is the core's ChallengeTerms, a refusal code is one of the core's, and the
 * methods and purposes are the store's. Checked by the type checker (`tsc --noEmit` covers
 * test/); the runtime part checks that the resources are closed and that the enumerations in
 * openapi.json are exactly the core's lists.
 */
import type { Static, TSchema } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CLAIM_METHODS, CLAIM_PURPOSES, CLAIM_REFUSALS, type ChallengeTerms, type ClaimRefusalCode } from '../../src/core/claims/types.js';
import type { ClaimMethod, ClaimPurpose } from '../../src/core/store.js';
import { CLAIM_REFS, CLAIM_SCHEMAS } from '../../src/server/schemas/claims.js';

type Refs = typeof CLAIM_REFS;
type S<T extends TSchema> = Static<T, Refs>;

describe('schemas of the claim and directory routes', () => {
  it('agree with the core types in both directions', () => {
    expectTypeOf<ChallengeTerms>().toExtend<S<typeof CLAIM_REFS.ClaimChallenge>>();
    expectTypeOf<Omit<S<typeof CLAIM_REFS.ClaimChallenge>, 'signature'>>().toExtend<Omit<ChallengeTerms, 'signature'>>();
    expectTypeOf<ClaimRefusalCode>().toEqualTypeOf<S<typeof CLAIM_REFS.ClaimRefusalCode>>();
    expectTypeOf<ClaimMethod>().toEqualTypeOf<S<typeof CLAIM_REFS.ClaimMethod>>();
    expectTypeOf<ClaimPurpose>().toEqualTypeOf<S<typeof CLAIM_REFS.ClaimPurpose>>();
  });

  it('lists exactly the core enumerations, and every resource is closed', () => {
    const values = (schema: { anyOf: Array<{ const: string }> }) => schema.anyOf.map((s) => s.const);
    expect(values(CLAIM_REFS.ClaimMethod as never)).toEqual([...CLAIM_METHODS]);
    expect(values(CLAIM_REFS.ClaimPurpose as never)).toEqual([...CLAIM_PURPOSES]);
    expect(values(CLAIM_REFS.ClaimRefusalCode as never)).toEqual([...CLAIM_REFUSALS]);
    for (const schema of CLAIM_SCHEMAS) {
      const s = schema as { $id?: string; type?: string; additionalProperties?: unknown };
      expect(s.$id).toBeTypeOf('string');
      if (s.type === 'object') expect(s.additionalProperties, s.$id).toBe(false);
    }
  });
});
