/**
 * The W3C DID Resolution HTTPS binding (docs/daemon.md#the-w3c-did-resolution-binding): GET
 * /1.0/identifiers/{did} with content negotiation, and POST with the resolution options as a JSON
 * body. Errors are embedded in a resolution result (`didDocument: null`) by the error handler; a
 * DID URL (with `/`, `?` or `#`) is dereferenced instead.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isJsonObject } from '../../core/encoding/json.js';
import type { ResolveOptions } from '../../core/methods/types.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import { ProblemError } from '../../core/problems.js';
import { parseVersionOptions } from '../../core/resolve/version-options.js';
import { clientOf, dereferenceFor, resolveForRequest, underLimits, type RouteDef, type ServerContext } from '../context.js';
import { truncate } from '../../core/text.js';
import { booleanOption, queryOptions, serialized } from '../http.js';
import { didUrlAfter, once } from './resolution.js';
import { W3C_ROUTE_SCHEMAS } from '../schemas/w3c.js';
import {
  DID_MEDIA_TYPE,
  DID_RESOLUTION_MEDIA_TYPE,
  DID_URL_DEREFERENCING_MEDIA_TYPE,
  negotiateDereferencing,
  negotiateResolution,
  resolutionResultBody,
  w3cStatusOf,
} from '../w3c.js';

const PREFIX = '/1.0/identifiers/';
const OPTIONS = ['noCache', 'versionId', 'versionTime', 'versionNumber'] as const;

/** Resolution options from a POST body: a JSON object of known members with string/boolean/number values. */
function bodyOptions(body: unknown): Record<string, string> {
  if (body === undefined || body === null) return {};
  if (!isJsonObject(body)) throw new ProblemError('INVALID_OPTIONS', 'The request body must be a JSON object of resolution options.');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'accept') continue;
    if (!(OPTIONS as readonly string[]).includes(name)) {
      throw new ProblemError('INVALID_OPTIONS', `Unknown resolution option "${truncate(name)}"; svc takes ${OPTIONS.join(', ')}, accept.`);
    }
    if (typeof value !== 'string' && typeof value !== 'boolean' && typeof value !== 'number') {
      throw new ProblemError('INVALID_OPTIONS', `The resolution option "${name}" must be a string, number or boolean.`);
    }
    out[name] = String(value);
  }
  return out;
}

/**
 * A DID URL on /1.0, negotiated once the content's type is known: the full result
 * (application/did-url-dereferencing, or application/json — svc's own shape and default), a
 * version's DID document alone (application/did…), or — a service endpoint (text/uri-list) asked
 * for in the binding's terms — 303 to the endpoint with an empty body.
 */
async function dereferenceAnswer(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  identifier: string,
  accept: string | undefined,
): Promise<FastifyReply> {
  const result = await underLimits(ctx, request, reply, (signal) => dereferenceFor(ctx, identifier, signal, clientOf(request)));
  const contentType = result.dereferencingMetadata.contentType;
  const representation = negotiateDereferencing(accept, contentType);
  if (representation === null) {
    throw new ProblemError(
      'REPRESENTATION_NOT_SUPPORTED',
      `None of the media types accepted (${truncate(accept ?? '', 120)}) is served for this DID URL; ask for ${DID_URL_DEREFERENCING_MEDIA_TYPE}${contentType === 'application/json' ? '' : `, ${contentType}`} or application/json.`,
    );
  }
  if (representation === 'spec') return reply.type('application/json').send(result);
  if (contentType === 'text/uri-list') {
    // DID Resolution, HTTPS binding: a service endpoint is a redirect to it, the body empty.
    const first = String(result.contentStream).split('\r\n')[0]!;
    return reply.code(303).header('location', first).send();
  }
  if (representation === 'result') {
    return reply.type(DID_URL_DEREFERENCING_MEDIA_TYPE).send(serialized(reply, 200, DID_URL_DEREFERENCING_MEDIA_TYPE, result));
  }
  // 'content' of a version: its DID document alone (fragments have none: application/json is svc's own shape).
  return reply.type(DID_MEDIA_TYPE).send(serialized(reply, 200, DID_MEDIA_TYPE, result.contentStream));
}

async function answer(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  raw: Record<string, string>,
  accept: string | undefined,
): Promise<FastifyReply> {
  // A DID URL (`/`, `?` or `#`, raw `#` written %23) is dereferenced, as on /v1/dereference.
  const identifier = didUrlAfter(request, PREFIX, 'INVALID_DID');
  if (/[/?#]/.test(identifier)) return dereferenceAnswer(ctx, request, reply, identifier, accept);
  const representation = negotiateResolution(accept);
  if (representation === null) {
    throw new ProblemError(
      'REPRESENTATION_NOT_SUPPORTED',
      `None of the media types accepted (${truncate(accept ?? '', 120)}) is served; ask for application/did-resolution or application/did.`,
    );
  }
  const options: ResolveOptions = { noCache: booleanOption(raw, 'noCache'), ...parseVersionOptions(raw) };
  const result = await resolveForRequest(ctx, request, reply, identifier, options);
  const status = w3cStatusOf(result);
  // A deactivated DID always gets the full result: the document alone would hide the 410's reason.
  if (representation === 'resolution' || status === 410) {
    return reply
      .code(status)
      .type(DID_RESOLUTION_MEDIA_TYPE)
      .send(once(keptResults, result, () => serialized(reply, status, DID_RESOLUTION_MEDIA_TYPE, resolutionResultBody(result))));
  }
  return reply
    .code(status)
    .type(DID_MEDIA_TYPE)
    .send(once(keptDocuments, result, () => serialized(reply, status, DID_MEDIA_TYPE, result.didDocument)));
}

/** A cache hit's bodies, one per representation (its status is the result's own), made once, as on /v1/resolve. */
const keptResults = new WeakMap<EnrichedResolution, Buffer>();
const keptDocuments = new WeakMap<EnrichedResolution, Buffer>();

export function w3cRoutes(ctx: ServerContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: `${PREFIX}*`,
      budget: 'standard',
      schema: W3C_ROUTE_SCHEMAS.get,
      handler: (request, reply) => answer(ctx, request, reply, queryOptions(request, OPTIONS), request.headers.accept),
    },
    {
      method: 'POST',
      url: `${PREFIX}*`,
      budget: 'standard',
      schema: W3C_ROUTE_SCHEMAS.post,
      handler: async (request, reply) => {
        queryOptions(request, []);
        const body = request.body;
        const accept = isJsonObject(body) && typeof body['accept'] === 'string' ? body['accept'] : request.headers.accept;
        return answer(ctx, request, reply, bodyOptions(body), accept);
      },
    },
  ];
}
