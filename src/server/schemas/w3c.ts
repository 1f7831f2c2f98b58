/**
 * The W3C DID Resolution HTTPS binding's routes (docs/daemon.md#the-w3c-did-resolution-binding; GET
 * and POST /1.0/identifiers/{did}): content negotiation, and errors with a /1.0 status as the
 * resolution result with the problem embedded. The resources they answer with (W3cResolutionResult,
 * W3cErrorResolutionResult, DereferencingResult, DidDocument) are resolution.ts's.
 */
import Type from 'typebox';
import { DidParamSchema, empty, EmptyQuerySchema, problem, type ContentResponse, type RouteSchema } from './common.js';
import { ResolveQuerySchema } from './resolution.js';

/** The W3C binding's POST body: resolution options (values are read as strings) and `accept`. */
export const W3cOptionsBodySchema = Type.Object(
  {
    noCache: Type.Optional(Type.Union([Type.String(), Type.Boolean(), Type.Number()])),
    versionId: Type.Optional(Type.Union([Type.String(), Type.Boolean(), Type.Number()])),
    versionTime: Type.Optional(Type.Union([Type.String(), Type.Boolean(), Type.Number()])),
    versionNumber: Type.Optional(Type.Union([Type.String(), Type.Boolean(), Type.Number()])),
    accept: Type.Optional(Type.Unknown({ description: 'The media types asked for, in place of the Accept header (when a string).' })),
  },
  { additionalProperties: false },
);

/** An error on /1.0 with a /1.0 status: the resolution result with the problem embedded. */
const embedded = { schema: Type.Ref('W3cErrorResolutionResult') };
const plainProblem = { schema: Type.Ref('Problem') };

function w3cError(description: string, withProblem = false): ContentResponse {
  return {
    description,
    content: withProblem ? { 'application/did-resolution': embedded, 'application/problem+json': plainProblem } : { 'application/did-resolution': embedded },
  };
}

function w3cRouteSchema(post: boolean): RouteSchema {
  return {
    summary: post ? 'Resolve a DID (W3C DID Resolution HTTPS binding), options in the body' : 'Resolve a DID (W3C DID Resolution HTTPS binding)',
    operationId: post ? 'resolveW3cPost' : 'resolveW3c',
    description:
      'Content negotiation (Accept, or `accept` in a POST body): application/did-resolution (or application/ld+json ' +
      'with the DID-resolution profile) gives the resolution result; absent, */*, application/json, application/did, ' +
      'application/did+json, application/did+ld+json or application/ld+json the DID document alone (application/did). ' +
      'A deactivated DID is 410 with the full result. Errors with a /1.0 status are the resolution result with ' +
      'the problem in didResolutionMetadata.error (application/did-resolution); the others are problem+json. An identifier ' +
      'with `/`, `?` or `#` (written %23) is dereferenced: with no Accept, application/json or only wildcards the ' +
      "dereferencing result as application/json (svc's own shape, as on /v1/dereference); application/did-url-dereferencing gives the same result under " +
      "that media type; application/did (did+json, did+ld+json) gives a version's DID document alone; a service endpoint " +
      '(text/uri-list) asked for as application/did-url-dereferencing or text/uri-list is 303 to the endpoint with an empty body.',
    tags: ['w3c'],
    params: DidParamSchema,
    ...(post ? { querystring: EmptyQuerySchema, body: W3cOptionsBodySchema } : { querystring: ResolveQuerySchema }),
    response: {
      200: {
        description: 'The DID document, the resolution result, or the dereferencing result of a DID URL',
        content: {
          'application/did': { schema: Type.Ref('DidDocument') },
          'application/did-resolution': { schema: Type.Ref('W3cResolutionResult') },
          'application/json': { schema: Type.Ref('DereferencingResult') },
          'application/did-url-dereferencing': { schema: Type.Ref('DereferencingResult') },
        },
      },
      303: empty(
        'A service endpoint (contentType text/uri-list) asked for as application/did-url-dereferencing or text/uri-list: Location is the (first) endpoint URL; the body is empty',
      ),
      410: {
        description: 'The DID is deactivated: the full result, didDocumentMetadata.deactivated true',
        content: { 'application/did-resolution': { schema: Type.Ref('W3cResolutionResult') } },
      },
      400: w3cError(
        post
          ? 'INVALID_DID, INVALID_DID_URL, INVALID_OPTIONS (embedded); INVALID_REQUEST (problem+json: a body that is not acceptable JSON or not application/json, no Host header, malformed percent-encoding)'
          : 'INVALID_DID, INVALID_DID_URL, INVALID_OPTIONS (embedded); INVALID_REQUEST (problem+json: no Host header, malformed percent-encoding)',
        true,
      ),
      404: w3cError('NOT_FOUND (embedded)'),
      406: problem('REPRESENTATION_NOT_SUPPORTED: nothing acceptable can be sent'),
      408: problem('REQUEST_TIMEOUT: the request ran past its time limit'),
      413: problem(
        post ? 'PAYLOAD_TOO_LARGE: the body, or a fetched resource, is over its size limit' : 'PAYLOAD_TOO_LARGE: a fetched resource is over its size limit',
      ),
      429: w3cError('RATE_LIMITED (embedded; Retry-After)'),
      500: w3cError('INVALID_DID_DOCUMENT, EGRESS_BLOCKED, UPSTREAM_UNAVAILABLE, INTERNAL_ERROR (embedded)'),
      501: w3cError('METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED (embedded)'),
      503: w3cError('CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (embedded)'),
    },
  };
}

export const W3C_ROUTE_SCHEMAS = { get: w3cRouteSchema(false), post: w3cRouteSchema(true) };
