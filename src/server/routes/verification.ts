/**
 * Verification routes (docs/credentials.md): POST /v1/credentials/verify, POST
 * /v1/policies/evaluate and POST /v1/fast-verify/jws. Bodies are strict JSON (a duplicate member is
 * 400 INVALID_REQUEST before anything else); a badly shaped request is 400 with one precise
 * sentence; a failed check is a 200 result. Every DID these routes resolve — issuers, status list
 * issuers, the `kid` of a JWS, the evaluated DID — goes through the daemon's capacity, its cache
 * and its history like any resolution.
 */
import { isJsonObject, type JsonObject } from '../../core/encoding/json.js';
import { verifyCredential } from '../../core/credentials/verify.js';
import { parseDid } from '../../core/did/syntax.js';
import { verifyJws } from '../../core/jws/verify.js';
import { parsePolicy } from '../../core/policy/index.js';
import { trustedIssuersProblem } from '../../core/policy/trusted-issuers.js';
import { decidePolicy } from '../../core/policy/run.js';
import { ProblemError } from '../../core/problems.js';
import type { Relationship } from '../../core/resolve/types.js';
import type { Runtime } from '../../core/runtime.js';
import { outboundWork, resolveFor, type RouteDef, type ServerContext } from '../context.js';
import { objectBody, onlyMembers, queryOptions } from '../http.js';
import { json, problem, bodyRouteProblems, ref, SignedQuerySchema, signedJson } from '../schemas/common.js';
import { signedOption } from '../signing.js';
import {
  CredentialVerificationSchema,
  CredentialVerifyRequestSchema,
  JwsVerificationSchema,
  JwsVerifyRequestSchema,
  PolicyDecisionSchema,
  PolicyEvaluateRequestSchema,
} from '../schemas/verification.js';

/** The Runtime without JSON-LD processing: a request's `"jsonld": false`. */
function withoutJsonLd(runtime: Runtime): Runtime {
  const { jsonld: _jsonld, ...rest } = runtime;
  return rest;
}

function invalid(detail: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', detail);
}

function optionalString(body: JsonObject, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) throw invalid(`"${name}" must be a non-empty string.`);
  return value;
}

/** `trustedIssuers`: at most MAX_TRUSTED_ISSUERS well-formed entries (a bad one is named). */
function optionalTrustedIssuers(body: JsonObject): string[] | undefined {
  const value = body['trustedIssuers'];
  if (value === undefined) return undefined;
  const problem = trustedIssuersProblem(value);
  if (problem !== null) throw invalid(`"trustedIssuers": ${problem}.`);
  return value as string[];
}

/** The options of a verify request beside `credential`. */
const CREDENTIAL_OPTIONS = ['expectedAudience', 'expectedNonce', 'trustedIssuers', 'jsonld'] as const;

/** The credential of a verify request: `{credential, expectedAudience?, expectedNonce?, trustedIssuers?}`, or a bare credential object. */
function credentialRequest(body: JsonObject): {
  credential: unknown;
  expectedAudience?: string;
  expectedNonce?: string;
  trustedIssuers?: string[];
  jsonld?: boolean;
} {
  if (!Object.hasOwn(body, 'credential')) {
    // A bare credential object is the whole body; an option without a credential is a mistake.
    for (const name of CREDENTIAL_OPTIONS) if (Object.hasOwn(body, name)) throw invalid(`"${name}" needs "credential" beside it: {credential, ${name}}.`);
    return { credential: body };
  }
  onlyMembers(body, ['credential', ...CREDENTIAL_OPTIONS]);
  const credential = body['credential'];
  if (!isJsonObject(credential) && typeof credential !== 'string') {
    throw invalid('"credential" must be a credential object, the JSON text of one, or a compact JWT string.');
  }
  const expectedAudience = optionalString(body, 'expectedAudience');
  const expectedNonce = optionalString(body, 'expectedNonce');
  const trustedIssuers = optionalTrustedIssuers(body);
  const jsonld = body['jsonld'];
  if (jsonld !== undefined && typeof jsonld !== 'boolean') throw invalid('"jsonld" must be true or false.');
  return {
    credential,
    ...(jsonld === undefined ? {} : { jsonld }),
    ...(expectedAudience === undefined ? {} : { expectedAudience }),
    ...(expectedNonce === undefined ? {} : { expectedNonce }),
    ...(trustedIssuers === undefined ? {} : { trustedIssuers }),
  };
}

export function verificationRoutes(ctx: ServerContext): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/v1/credentials/verify',
      budget: 'intensive',
      schema: {
        summary: 'Verify a verifiable credential',
        operationId: 'verifyCredential',
        description: 'A failed check is a 200 result (status other than VALID); only VALID means accepted.',
        tags: ['verification'],
        querystring: SignedQuerySchema,
        body: ref(CredentialVerifyRequestSchema),
        response: {
          200: signedJson(ref(CredentialVerificationSchema), 'The verification, whatever its status.'),
          400: problem(
            'INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape (a trustedIssuers entry that is not one is named); INVALID_OPTIONS: an unknown or repeated query option, signed=true on a daemon without a signing key, or "jsonld": true on a daemon without SVC_JSONLD=on.',
          ),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        signedOption(ctx, request, queryOptions(request, ['signed']));
        const { credential, jsonld, ...given } = credentialRequest(objectBody(request, ['signed']));
        if (jsonld === true && ctx.runtime.jsonld === undefined)
          throw new ProblemError('INVALID_OPTIONS', '"jsonld": true asks for JSON-LD processing, which this daemon does not do (SVC_JSONLD is not on).');
        const result = await outboundWork(ctx, request, reply, ({ runtime, keys, signal }) =>
          verifyCredential(credential, { runtime: jsonld === false && runtime.jsonld ? withoutJsonLd(runtime) : runtime, keySource: keys, signal, ...given }),
        );
        return reply.send(result);
      },
    },
    {
      method: 'POST',
      url: '/v1/fast-verify/jws',
      budget: 'standard',
      schema: {
        summary: 'Verify a compact JWS against the DID in its kid',
        operationId: 'fastVerifyJws',
        description:
          'The DID in kid is resolved; the key must be authorised for the relationship (default assertionMethod, then authentication). A failed check is a 200 result.',
        tags: ['verification'],
        body: ref(JwsVerifyRequestSchema),
        response: {
          200: json(ref(JwsVerificationSchema), 'The JWS verification, whatever its status.'),
          400: problem('INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape.'),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        // The schema (JwsVerifyRequest) has checked the members: jws a non-empty string, relationship one of five.
        const { jws, relationship } = objectBody(request) as { jws: string; relationship?: Relationship };
        const result = await outboundWork(ctx, request, reply, ({ runtime, keys, signal }) =>
          verifyJws(jws, { runtime, keySource: keys, signal, ...(relationship ? { relationship } : {}) }),
        );
        return reply.send(result);
      },
    },
    {
      method: 'POST',
      url: '/v1/policies/evaluate',
      budget: 'intensive',
      schema: {
        summary: 'Evaluate a policy against the evidence of a DID',
        operationId: 'evaluatePolicy',
        description:
          'The DID is resolved (a DID that does not resolve is evidence, not an error) and the optional credential verified; a failing policy is a 200 result.',
        tags: ['verification'],
        body: ref(PolicyEvaluateRequestSchema),
        response: {
          200: json(ref(PolicyDecisionSchema), 'The evaluation, the credential verification (or null) and the resolution verdict and dimensions (or null).'),
          400: problem(
            'INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape; INVALID_DID: "did" is not a DID.',
          ),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        // The schema (PolicyEvaluateRequest) has checked the shape; the DID's syntax and the rules' values are the core's.
        const { did, policy: rules, credential } = objectBody(request) as { did: string; policy: unknown; credential?: unknown };
        parseDid(did);
        const policy = parsePolicy(rules);
        const answer = await outboundWork(ctx, request, reply, ({ runtime, slot, signal }) =>
          decidePolicy(did, policy, credential, { runtime, resolveDid: (target, s) => resolveFor(ctx, target, {}, s, slot), signal }),
        );
        return reply.send(answer);
      },
    },
  ];
}
