/**
 * The web dossier's routes (GET /, GET /d/{did}, GET /mcp, GET /assets/{name}): pages for browsers, in
 * the same document as the API so that every route the daemon serves is described once. A page
 * route answers a problem as a page (text/html) when the client prefers HTML, as problem+json
 * otherwise.
 */
import Type from 'typebox';
import { empty, EmptyQuerySchema, problem, type ContentResponse, type RouteSchema } from './common.js';
import { McpInspectQuerySchema } from './inspection.js';
import { NoCacheQuerySchema } from './resolution.js';

const TAGS = ['web'];
const HTML = { 'text/html': { schema: Type.String({ description: 'An HTML page (UTF-8).' }) } };

/** A problem as problem+json, or as a page for a client that prefers text/html. */
function pageProblem(description: string): ContentResponse {
  const json = problem(description);
  return { description, content: { ...json.content, ...HTML } };
}

const HASH_PATTERN = '^[0-9a-fA-F]{8,64}$';
const HASH_TEXT = 'A document hash of an observation of this DID (as /v1/history lists them), or a unique prefix of at least 8 hex characters.';

const DossierQuerySchema = Type.Object(
  {
    noCache: NoCacheQuerySchema.properties.noCache,
    from: Type.Optional(Type.String({ pattern: HASH_PATTERN, description: `The older observation of the time machine's diff. ${HASH_TEXT}` })),
    to: Type.Optional(Type.String({ pattern: HASH_PATTERN, description: `The newer observation of the time machine's diff. ${HASH_TEXT}` })),
  },
  { additionalProperties: false },
);

const DOSSIER_PROBLEMS = {
  400: pageProblem('INVALID_DID, INVALID_OPTIONS; INVALID_REQUEST (no Host header, malformed percent-encoding)'),
  403: pageProblem("EGRESS_BLOCKED: the DID's host resolves to an address that is not public"),
  404: pageProblem('NOT_FOUND: the document does not exist, or an observation asked for (from, to) was never made'),
  406: problem('REPRESENTATION_NOT_SUPPORTED: Accept names neither text/html nor application/json'),
  408: pageProblem('REQUEST_TIMEOUT: the request ran past its time limit'),
  413: pageProblem('PAYLOAD_TOO_LARGE: a fetched resource is over its size limit'),
  422: pageProblem('INVALID_DID_DOCUMENT: the fetched document or log is invalid'),
  429: pageProblem("RATE_LIMITED: the client's budget is used up (Retry-After)"),
  500: pageProblem('INTERNAL_ERROR'),
  501: pageProblem('METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED'),
  502: pageProblem("UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP)"),
  503: pageProblem('CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down)'),
} as const;

export const WEB_ROUTE_SCHEMAS = {
  home: {
    summary: 'The front page: what svc is, a search box, examples',
    operationId: 'homePage',
    description: 'An HTML page. With `did`, the search box was used: 303 to the dossier of that DID (/d/{did}).',
    tags: TAGS,
    querystring: Type.Object(
      { did: Type.Optional(Type.String({ maxLength: 8192, description: 'A DID typed into the search box; answered with a redirect to its dossier.' })) },
      { additionalProperties: false },
    ),
    response: {
      200: { description: 'The front page', content: HTML },
      303: empty('The dossier of the DID searched for (Location: /d/{did})'),
      400: pageProblem('INVALID_OPTIONS (unknown or repeated query option); INVALID_DID (an empty DID); INVALID_REQUEST (no Host header)'),
      503: pageProblem('SERVICE_UNAVAILABLE: the daemon is shutting down'),
    },
  },
  dossier: {
    summary: 'The web dossier of a DID: four levels, from verdict to time machine',
    operationId: 'dossierPage',
    description:
      'An HTML page (the permalink of an identifier): 1 verdict and dimensions, 2 evidence graph, 3 execution telemetry, ' +
      '4 substrate inspector and time machine (observations, and the diff of `from` → `to`, by default the latest two). ' +
      'With `Accept: application/json` the same URL answers the enriched resolution, as /v1/resolve does. ' +
      'Budget as /v1/resolve: standard, intensive for did:webvh.',
    tags: TAGS,
    params: Type.Object({ did: Type.String({ description: 'The DID, raw or fully percent-encoded.' }) }, { additionalProperties: false }),
    querystring: DossierQuerySchema,
    response: {
      200: {
        description: 'The dossier (text/html), or the enriched resolution (application/json)',
        content: { ...HTML, 'application/json': { schema: Type.Ref('EnrichedResolution') } },
      },
      410: {
        description: 'The DID is deactivated: its dossier, or the full result',
        content: { ...HTML, 'application/json': { schema: Type.Ref('EnrichedResolution') } },
      },
      ...DOSSIER_PROBLEMS,
    },
  },
  mcp: {
    summary: 'The web view of an MCP inspection: status, checks, tools, prompts, resources, drift, transcript',
    operationId: 'mcpInspectionPage',
    description:
      'Without `endpoint`: a page with a form to type one (no budget). With it: the endpoint is inspected exactly as ' +
      'GET /v1/mcp/inspect does (the same core call, limits, egress rules and stored drift; intensive budget) and the ' +
      'result shown as a page: headline and status, the server as it describes itself, the six checks, each tool, ' +
      'prompt, resource and resource template with its fingerprint, drift and risk signals (items with signals first), ' +
      'the drift by kind, the limitations and the transcript. With `Accept: application/json` the same URL answers the ' +
      'McpInspection. A problem (no inspection could be produced) is a page for a client that prefers HTML.',
    tags: TAGS,
    querystring: Type.Object({ endpoint: Type.Optional(McpInspectQuerySchema.properties.endpoint) }, { additionalProperties: false }),
    response: {
      200: {
        description: 'The form (text/html, without endpoint), the inspection (text/html), or the McpInspection (application/json)',
        content: { ...HTML, 'application/json': { schema: Type.Ref('McpInspection') } },
      },
      400: pageProblem(
        'INVALID_OPTIONS: the endpoint is empty, too long or repeated, an unknown option, or no endpoint with Accept: application/json; INVALID_REQUEST: the endpoint is not an absolute URL, or no Host header',
      ),
      403: pageProblem('EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https'),
      404: pageProblem('NOT_FOUND: no MCP endpoint at the URL (answered 404)'),
      406: problem('REPRESENTATION_NOT_SUPPORTED: Accept names neither text/html nor application/json'),
      408: pageProblem('REQUEST_TIMEOUT: the request ran past its time limit'),
      413: pageProblem('PAYLOAD_TOO_LARGE: a fetched resource is over its size limit'),
      429: pageProblem("RATE_LIMITED: the client's intensive budget is used up (Retry-After)"),
      500: pageProblem('INTERNAL_ERROR'),
      502: pageProblem(
        'UPSTREAM_UNAVAILABLE: the host failed or timed out, or did not answer as an MCP server (an HTML page, a JSON API that is not JSON-RPC …); the detail names what was found',
      ),
      503: pageProblem('CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down)'),
    },
  },
  asset: {
    summary: "A stylesheet, script or the icon of the web dossier, named by its content's hash",
    operationId: 'webAsset',
    description: 'Immutable: a new build has new names. Cached for a year; gzip when accepted; 304 for a matching If-None-Match.',
    tags: TAGS,
    params: Type.Object(
      { name: Type.String({ description: 'e.g. dossier.3f9c0e1a2b4d5c6e.css or favicon.0a1b2c3d4e5f6a7b.svg, as the pages link it.' }) },
      { additionalProperties: false },
    ),
    querystring: EmptyQuerySchema,
    response: {
      200: {
        description: 'The asset',
        content: { 'text/css': { schema: Type.String() }, 'text/javascript': { schema: Type.String() }, 'image/svg+xml': { schema: Type.String() } },
      },
      304: empty('Not modified (If-None-Match matched)'),
      400: pageProblem('INVALID_OPTIONS: a query option was given (this route takes none)'),
      404: pageProblem('NOT_FOUND: no asset of that name (an older build’s name, or a typo)'),
      503: pageProblem('SERVICE_UNAVAILABLE: the daemon is shutting down'),
    },
  },
} as const satisfies Record<string, RouteSchema>;
