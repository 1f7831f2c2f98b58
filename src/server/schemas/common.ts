/**
 * The pieces every route schema shares: the problem object, the response shapes, and
 * the route schema type, and the request schemas several route files share. Resource schemas
 * carry an `$id`: @fastify/swagger makes them `components.schemas`; schemas refer to them with
 * `Type.Ref(id)`, routes with `ref(schema)`. A route file builds no schema of its own: what it
 * takes and answers is in schemas/<its name>.ts or here (test/unit/route-schemas.test.ts).
 *
 * The same schemas validate requests and serialise responses (compilers.ts) and make
 * openapi.json; the contract test holds every answer of the daemon suites to the document.
 */
import Type, { type TRef, type TSchema, type TStringOptions } from 'typebox';
import { STORED_TEXT_PATTERN } from '../../core/storable.js';

/** `schema` or null (`anyOf [schema, null]` in the document). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Text a request hands to storage: a string without NUL or a lone surrogate (core/storable.ts),
 * which PostgreSQL's text or UTF-8 cannot hold; refused as 400 naming the member (a path
 * parameter: the 404 of an id that does not exist). Not for a member that has its own pattern.
 */
export const StoredText = (options: TStringOptions = {}) => Type.String({ ...options, pattern: STORED_TEXT_PATTERN });

/** A stage of a trace, as problems and resolutions carry it. */
export const TraceStageSchema = Type.Object(
  {
    stage: Type.String(),
    label: Type.String(),
    status: Type.Union([Type.Literal('PASS'), Type.Literal('WARN'), Type.Literal('FAIL'), Type.Literal('SKIP')]),
    /** Start, in microseconds since the work began (monotonic clock). */
    startedUs: Type.Number(),
    durationUs: Type.Number(),
    detail: Type.String(),
  },
  { $id: 'TraceStage', additionalProperties: false },
);

/** The problem object (application/problem+json, RFC 9457). */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: Type.String(),
    code: Type.String(),
    trace: Type.Optional(Type.Array(Type.Ref('TraceStage'))),
    retryAfter: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The request's id, as in the X-Request-Id response header: quote it when reporting a problem. */
    requestId: Type.Optional(Type.String({ description: "The request's id, as in the X-Request-Id response header: quote it when reporting a problem." })),
  },
  { $id: 'Problem', additionalProperties: false },
);

export const COMMON_SCHEMAS: TSchema[] = [TraceStageSchema, ProblemSchema];

/**
 * A reference to a resource schema (one with an `$id`, a component of openapi.json): `Type.Ref` of
 * its id, taken from the schema value itself so that a route cannot name a component that does not
 * exist. A schema without an `$id` is a mistake of this code, found when the routes are built.
 */
export function ref(schema: TSchema): TRef {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('ref(): the schema has no $id, so it is no component to refer to');
  return Type.Ref(id);
}

// Request schemas several route files share. Without an `$id` (and outside ALL_SCHEMAS), each is
// inlined in the document where a route uses it, as it was written in the route before.

/** The querystring of a route that takes no query option: anything in the query is a 400. */
export const EmptyQuerySchema = Type.Object({}, { additionalProperties: false });

/** The body of a route that takes nothing: an empty object. */
export const EmptyBodySchema = Type.Object({}, { additionalProperties: false, description: 'Nothing: an empty object.' });

/** `{did}`: the DID of a resolution route, of the W3C binding's (w3c.ts) and of a DID's claims. */
export const DidParamSchema = Type.Object({ did: Type.String({ description: 'The DID, raw or fully percent-encoded.' }) }, { additionalProperties: false });

/** `{project}`: a project of the commercial routes and the session core's (keys, monitoring). */
export const ProjectParamsSchema = Type.Object({ project: StoredText() }, { additionalProperties: false });

/**
 * `signed`: ask for a signed result (docs/daemon.md#signed-results) — true (also 1 or empty) or
 * false (also 0). Its routes: GET /v1/resolve, POST /v1/credentials/verify, POST
 * /v1/presentations/verify, GET /v1/mcp/inspect, GET /v1/a2a/inspect.
 */
export const SignedOptionSchema = Type.Optional(
  Type.Enum(['true', '1', '', 'false', '0'], {
    description:
      "true (also 1 or empty): sign the answer — its svc-signature header carries a detached JWS over the RFC 8785 form of the body. A daemon without a signing key (its operator's SVC_SIGNING_KEY) answers 400 INVALID_OPTIONS, never an unsigned result.",
  }),
);

/** The querystring of a route whose only option is `signed`. */
export const SignedQuerySchema = Type.Object({ signed: SignedOptionSchema }, { additionalProperties: false });

/** The svc-signature response header of a signed result. */
export const SignatureHeaderSchema = Type.String({
  description:
    'Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says.',
});

/** A response in one content type. */
export interface ContentResponse {
  description: string;
  content: Record<string, { schema: TSchema }>;
}

/** A response without a body (a redirect, 304): `type: 'null'` is how @fastify/swagger writes one with no content. */
export interface EmptyResponse {
  description: string;
  type: 'null';
}

export function empty(description: string): EmptyResponse {
  return { description, type: 'null' };
}

/** A JSON response (application/json). */
export function json(schema: TSchema, description: string): ContentResponse {
  return { description, content: { 'application/json': { schema } } };
}

/** A JSON response that carries the svc-signature header when the request asked signed=true. */
export function signedJson(schema: TSchema, description: string): ContentResponse & { headers: Record<string, TSchema> } {
  return { ...json(schema, description), headers: { 'svc-signature': SignatureHeaderSchema } };
}

/** A problem response (application/problem+json). */
export function problem(description: string): ContentResponse {
  return { description, content: { 'application/problem+json': { schema: Type.Ref('Problem') } } };
}

/**
 * The problems every budgeted route that reads a request body can answer with, beyond its own
 * 400s. `deny`: the route decides authorisation, so a client must read any of them as DENY.
 */
export function bodyRouteProblems(options: { deny?: boolean } = {}): Record<408 | 413 | 429 | 500 | 503, ContentResponse> {
  const asDeny = options.deny ? ' (read it as DENY)' : '';
  return {
    408: problem(`REQUEST_TIMEOUT: the request ran past its time limit${asDeny}.`),
    413: problem('PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB).'),
    429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
    500: problem(`INTERNAL_ERROR: no answer could be produced${asDeny}.`),
    503: problem('CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down).'),
  };
}

/** The schema of one route: what it takes and every status it answers with. */
export interface RouteSchema {
  summary: string;
  /**
   * The operation's name in openapi.json, and the method of the clients (camelCase in TypeScript,
   * snake_case in Python): unique, stable.
   */
  operationId: string;
  description?: string;
  tags: string[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** Every status the route answers with (the problems too), by status code. */
  response: Record<number, ContentResponse | EmptyResponse>;
}
