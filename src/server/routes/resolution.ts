/**
 * Native resolution routes: resolve, stream (SSE), dereference,
 * fast-verify, history, diff, graph. Each translates the request into a core call and the
 * result into JSON; the rules live in the core.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { diffOf, historyOf } from '../../core/history/history.js';
import { KEPT_LOG_MEDIA_TYPE, keptLogText } from '../../core/webvh/kept-log.js';
import { ProblemError } from '../../core/problems.js';
import { fastVerdict } from '../../core/resolve/fast-verify.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import { parseVersionOptions } from '../../core/resolve/version-options.js';
import { clientOf, dereferenceFor, outboundWork, resolveForRequest, storeOf, underLimits, type RouteDef, type ServerContext } from '../context.js';
import { booleanOption, identifierAfter, queryOptions, rawQuery, serialized } from '../http.js';
import { RESOLUTION_ROUTE_SCHEMAS } from '../schemas/resolution.js';
import { signedOption } from '../signing.js';
import { streamResolution } from '../sse.js';
import { w3cStatusOf } from '../w3c.js';
import { BUNDLE_MEDIA_TYPE, encodeBundle } from '../../core/bundle/format.js';
import { asRecordedResult, bundleResolveOptions } from '../../core/bundle/kinds.js';
import { recordingRuntime } from '../../core/bundle/record.js';
import { signBundle } from '../../core/bundle/signature.js';
import { makeBundle } from '../../core/bundle/verify.js';
import type { ResolveOptions } from '../../core/methods/types.js';
import { resolve } from '../../core/resolve/resolve.js';

const VERSION_OPTIONS = ['versionId', 'versionTime', 'versionNumber'] as const;

/** The resolution of the DID after `prefix`, for routes whose only option is noCache. */
async function plainResolution(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, prefix: string): Promise<EnrichedResolution> {
  const did = identifierAfter(request, prefix);
  const query = queryOptions(request, ['noCache']);
  return resolveForRequest(ctx, request, reply, did, { noCache: booleanOption(query, 'noCache') });
}

export function resolutionRoutes(ctx: ServerContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/resolve/*',
      budget: 'resolve',
      schema: RESOLUTION_ROUTE_SCHEMAS.resolve,
      handler: async (request, reply) => {
        const did = identifierAfter(request, '/v1/resolve/');
        const query = queryOptions(request, ['noCache', ...VERSION_OPTIONS, 'signed', 'bundle']);
        signedOption(ctx, request, query);
        const options = { noCache: booleanOption(query, 'noCache'), ...parseVersionOptions(query) };
        if (booleanOption(query, 'bundle')) return sendBundle(ctx, request, reply, did, options);
        const result = await resolveForRequest(ctx, request, reply, did, options);
        // DEACTIVATED is HTTP 410 with the full result, the same rule as on /1.0.
        const status = w3cStatusOf(result);
        return sendResolution(reply, status, result);
      },
    },
    {
      method: 'GET',
      url: '/v1/stream/*',
      budget: 'intensive',
      schema: RESOLUTION_ROUTE_SCHEMAS.stream,
      stream: true,
      handler: async (request, reply) => {
        const did = identifierAfter(request, '/v1/stream/');
        const query = queryOptions(request, ['noCache']);
        await streamResolution(ctx, request, reply, did, { noCache: booleanOption(query, 'noCache') });
      },
    },
    {
      method: 'GET',
      url: '/v1/dereference/*',
      budget: 'standard',
      schema: RESOLUTION_ROUTE_SCHEMAS.dereference,
      handler: async (request, reply) => {
        const didUrl = dereferenceTarget(request);
        const result = await underLimits(ctx, request, reply, (signal) => dereferenceFor(ctx, didUrl, signal, clientOf(request)));
        return reply.send(result);
      },
    },
    {
      method: 'GET',
      url: '/v1/fast-verify/did/*',
      budget: 'standard',
      schema: RESOLUTION_ROUTE_SCHEMAS.fastVerify,
      handler: async (request, reply) => {
        const result = await plainResolution(ctx, request, reply, '/v1/fast-verify/did/');
        return reply.type(JSON_UTF8).send(once(serialisedVerdicts, result, () => serialized(reply, 200, 'application/json', fastVerdict(result))));
      },
    },
    {
      method: 'GET',
      url: '/v1/graph/*',
      budget: 'standard',
      schema: RESOLUTION_ROUTE_SCHEMAS.graph,
      handler: async (request, reply) => {
        const result = await plainResolution(ctx, request, reply, '/v1/graph/');
        return reply.send({ did: result.did, observedAt: result.observedAt, verdict: result.verdict, nodes: result.graph.nodes, edges: result.graph.edges });
      },
    },
    {
      method: 'GET',
      url: '/v1/history/*',
      budget: 'standard',
      schema: RESOLUTION_ROUTE_SCHEMAS.history,
      handler: async (request, reply) => {
        const did = identifierAfter(request, '/v1/history/');
        queryOptions(request, []);
        return reply.send(await historyOf(did, requireStore(ctx)));
      },
    },
    {
      method: 'GET',
      url: '/v1/kept-log/*',
      budget: 'standard',
      schema: RESOLUTION_ROUTE_SCHEMAS.keptLog,
      handler: async (request, reply) => {
        const did = identifierAfter(request, '/v1/kept-log/');
        queryOptions(request, []);
        return reply.type(KEPT_LOG_MEDIA_TYPE).send(await keptLogText(did, requireStore(ctx)));
      },
    },
    {
      method: 'GET',
      url: '/v1/diff/*',
      budget: 'standard',
      schema: RESOLUTION_ROUTE_SCHEMAS.diff,
      handler: async (request, reply) => {
        const did = identifierAfter(request, '/v1/diff/');
        const query = queryOptions(request, ['from', 'to']);
        return reply.send(await diffOf(did, requireStore(ctx), { from: query['from'], to: query['to'] }));
      },
    },
  ];
}

const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * A cache hit is the same deep-frozen result object each time, so what a route answers for it is
 * serialised once (with the route's schema) and kept beside it as its UTF-8 bytes: the hot paths
 * of /v1/resolve and /v1/fast-verify are then a lookup, not the serialisation of the same object
 * again, nor its measuring and encoding at every write. A fresh result is serialised as it is.
 */
const serialisedResults = new WeakMap<EnrichedResolution, Buffer>();
const serialisedVerdicts = new WeakMap<EnrichedResolution, Buffer>();

/**
 * ?bundle=true: a fresh resolution through a recording Runtime (never the cache: a cached result
 * has no bytes behind it), answered as its evidence bundle — canonical JSON, signed when the daemon
 * has a key. A resolution that ends in a problem is answered as that problem, as without bundle.
 */
async function sendBundle(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, did: string, options: ResolveOptions): Promise<FastifyReply> {
  const { bundle, status } = await outboundWork(
    ctx,
    request,
    reply,
    async (work) => {
      const recording = recordingRuntime(work.runtime);
      const result = await resolve(did, recording.runtime, { ...options, noCache: true, signal: work.signal });
      const made = makeBundle({
        command: { kind: 'resolve', subject: did, options: bundleResolveOptions(options) },
        observedAt: recording.observedAt,
        recorder: recording.recorder,
        result: asRecordedResult(result),
      });
      return { bundle: ctx.signer ? signBundle(made, ctx.signer.sign) : made, status: w3cStatusOf(result) };
    },
    true,
  );
  const name = did.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return reply
    .code(status)
    .type(BUNDLE_MEDIA_TYPE)
    .header('content-disposition', `attachment; filename="${name}.bundle.json"`)
    .send(Buffer.from(encodeBundle(bundle)));
}

/** The enriched resolution as JSON (serialised once per cached result), for /v1/resolve and the dossier's JSON form. */
export function sendResolution(reply: FastifyReply, status: number, result: EnrichedResolution): FastifyReply {
  return reply
    .code(status)
    .type(JSON_UTF8)
    .send(once(serialisedResults, result, () => resolutionJson(result)));
}

/**
 * The enriched resolution as JSON text: JSON.stringify, not the route's schema serialiser.
 * fast-json-stringify checks every `anyOf` member against its alternatives with Ajv before writing
 * it, and this result has unions throughout its evidence and trace: 3–5× the time of
 * JSON.stringify over distinct did:key results (about 15% of an uncached resolution's time in the
 * daemon).
 * The result is the core's own plain data, and its schema holds it (additionalProperties false
 * throughout; the daemon suites check every answer against openapi.json; a unit test holds the two
 * serialisations to the same members): the same members, in the result's own order.
 */
export function resolutionJson(result: EnrichedResolution): string {
  return JSON.stringify(result);
}

/** The body of a result: its text when fresh; for a cache hit, its bytes, made once and kept beside it. */
export function once(kept: WeakMap<EnrichedResolution, Buffer>, result: EnrichedResolution, text: () => string): string | Buffer {
  if (!result.cached) return text();
  let json = kept.get(result);
  if (json === undefined) {
    json = Buffer.from(text(), 'utf8');
    kept.set(result, json);
  }
  return json;
}

/** History and diff read the store: while it is unavailable they answer 503, never an empty history. */
function requireStore(ctx: ServerContext): ServerContext['runtime'] {
  storeOf(ctx.runtime);
  return ctx.runtime;
}

/**
 * The DID URL after `prefix`, decoded exactly once, with the fragment delimiter of the raw form:
 * a client cannot send a bare `#`, so a raw DID URL writes it `%23` and its first `%23` is the
 * delimiter. A fully encoded identifier (`did%3A…`) has been decoded once already: a `%23` left
 * in it was written `%2523` and is a literal `%23`, not a delimiter.
 */
export function didUrlAfter(request: FastifyRequest, prefix: string, code: 'INVALID_DID' | 'INVALID_DID_URL'): string {
  const didUrl = identifierAfter(request, prefix, code);
  const encodedForm = /^did%3A/i.test((request.raw.url ?? request.url).slice(prefix.length));
  if (encodedForm || didUrl.includes('#')) return didUrl;
  const hash = didUrl.indexOf('%23');
  return hash < 0 ? didUrl : `${didUrl.slice(0, hash)}#${didUrl.slice(hash + 3)}`;
}

/**
 * The DID URL of a dereference request: the path after the prefix (see didUrlAfter), followed by
 * the request's own query string as the DID URL query.
 */
export function dereferenceTarget(request: FastifyRequest): string {
  const didUrl = didUrlAfter(request, '/v1/dereference/', 'INVALID_DID_URL');
  const query = rawQuery(request);
  if (query === '') return didUrl;
  if (didUrl.includes('?'))
    throw new ProblemError('INVALID_DID_URL', 'The DID URL has a query both inside the encoded identifier and in the request; give one.');
  const hash = didUrl.indexOf('#');
  return hash < 0 ? `${didUrl}?${query}` : `${didUrl.slice(0, hash)}?${query}${didUrl.slice(hash)}`;
}
