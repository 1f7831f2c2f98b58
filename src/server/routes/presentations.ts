/**
 * POST /v1/presentations/verify (docs/credentials.md#presentations): a verifiable presentation and
 * every credential it carries, through the core's verifyPresentation. Built as POST
 * /v1/credentials/verify is: strict JSON (a duplicate member is 400 INVALID_REQUEST before anything
 * else), one schema for the request, the intensive budget, every DID it resolves — the holder's,
 * each issuer's, each status list's — through the daemon's capacity and cache, and `signed=true`.
 * A failed check is a 200 result: a missing challenge the caller asked for is INVALID, not a 400.
 */
import { trustedIssuersProblem } from '../../core/policy/trusted-issuers.js';
import { ProblemError } from '../../core/problems.js';
import { verifyPresentation } from '../../core/presentations/verify.js';
import type { VerifyPresentationOptions } from '../../core/presentations/types.js';
import { outboundWork, type RouteDef, type ServerContext } from '../context.js';
import { objectBody, queryOptions } from '../http.js';
import { bodyRouteProblems, problem, ref, SignedQuerySchema, signedJson } from '../schemas/common.js';
import { PresentationVerificationSchema, PresentationVerifyRequestSchema } from '../schemas/presentations.js';
import { signedOption } from '../signing.js';

/** The request as the schema (PresentationVerifyRequest) has checked it. */
interface PresentationRequest {
  presentation: Record<string, unknown> | string;
  challenge?: string;
  domain?: string;
  expectedAudience?: string;
  expectedNonce?: string;
  trustedIssuers?: string[];
  requireHolderBinding?: boolean;
}

/** The verifier's options of a request: only the members it gave (an absent one is no constraint). */
export function presentationOptions(
  request: Omit<PresentationRequest, 'presentation'>,
): Omit<VerifyPresentationOptions, 'runtime' | 'keySource' | 'signal' | 'hooks'> {
  const { challenge, domain, expectedAudience, expectedNonce, trustedIssuers, requireHolderBinding } = request;
  return {
    ...(challenge === undefined ? {} : { challenge }),
    ...(domain === undefined ? {} : { domain }),
    ...(expectedAudience === undefined ? {} : { expectedAudience }),
    ...(expectedNonce === undefined ? {} : { expectedNonce }),
    ...(trustedIssuers === undefined ? {} : { trustedIssuers }),
    ...(requireHolderBinding === undefined ? {} : { requireHolderBinding }),
  };
}

export function presentationRoutes(ctx: ServerContext): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/v1/presentations/verify',
      budget: 'intensive',
      schema: {
        summary: 'Verify a verifiable presentation and the credentials it carries',
        operationId: 'verifyPresentation',
        description:
          "The presentation's proof (Data Integrity with proofPurpose authentication, vp+jwt, or a VC-JWT 1.1 vp token), its challenge and domain against the caller's, and each embedded credential as /v1/credentials/verify verifies one. A failed check is a 200 result (status other than VALID); only VALID means accepted.",
        tags: ['verification'],
        querystring: SignedQuerySchema,
        body: ref(PresentationVerifyRequestSchema),
        response: {
          200: signedJson(ref(PresentationVerificationSchema), 'The verification, whatever its status.'),
          400: problem(
            'INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, lacks "presentation", or has a member of the wrong shape (a trustedIssuers entry that is not one is named); INVALID_OPTIONS: an unknown or repeated query option, or signed=true on a daemon without a signing key.',
          ),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        signedOption(ctx, request, queryOptions(request, ['signed']));
        // The schema has checked every member: presentation an object or a string, the options non-empty strings, a boolean, a list.
        const { presentation, ...given } = objectBody(request, ['signed']) as unknown as PresentationRequest;
        // Each entry as the credential route reads it: a bad one is named here, before anything is verified.
        const problem = given.trustedIssuers === undefined ? null : trustedIssuersProblem(given.trustedIssuers);
        if (problem !== null) throw new ProblemError('INVALID_REQUEST', `"trustedIssuers": ${problem}.`);
        const options = presentationOptions(given);
        const result = await outboundWork(ctx, request, reply, ({ runtime, keys, signal }) =>
          verifyPresentation(presentation, { runtime, keySource: keys, signal, ...options }),
        );
        return reply.send(result);
      },
    },
  ];
}
