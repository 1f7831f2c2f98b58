/**
 * The web dossier (src/web) behind the daemon: the front page, a permalink per identifier
 * (`/d/<did>`, the same budget and cache as /v1/resolve, JSON when asked for), the web view of
 * an MCP inspection (`/mcp?endpoint=…`, the same core call, budget and egress as
 * /v1/mcp/inspect, JSON when asked for; without an endpoint the form, unbudgeted) and the assets,
 * served from memory. Pages carry a strict Content-Security-Policy; problems on these routes are
 * pages for browsers (sendProblem asks `pageProblemFor`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { observedChanges } from '../../core/history/history.js';
import { ProblemError } from '../../core/problems.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import { decodeIdentifier } from '../../core/did/syntax.js';
import { webAssets } from '../../web/assets.js';
import { dossierPage, dossierPath, problemPage, type TimeMachineInput } from '../../web/dossier.js';
import { homePage } from '../../web/home.js';
import { mcpFormPage, mcpPage, mcpProblemPage } from '../../web/mcp.js';
import { PAGE_CSP } from '../../web/page.js';
import { resolveForRequest, type RouteDef, type ServerContext } from '../context.js';
import { sendResolution } from './resolution.js';
import { booleanOption, identifierAfter, queryOptions, serialized } from '../http.js';
import { inspectMcpFor } from './inspection.js';
import { shouldRecord } from '../recording.js';
import { WEB_ROUTE_SCHEMAS } from '../schemas/web.js';
import { parseAccept, w3cStatusOf } from '../w3c.js';

const HTML_UTF8 = 'text/html; charset=utf-8';
const JSON_UTF8 = 'application/json; charset=utf-8';

/** The page routes, whose problems are pages for a client that prefers HTML. */
export const PAGE_ROUTES: ReadonlySet<string> = new Set(['/', '/d/*', '/mcp', '/assets/:name']);

export function webRoutes(ctx: ServerContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/',
      budget: 'none',
      schema: WEB_ROUTE_SCHEMAS.home,
      handler: async (request, reply) => {
        const query = queryOptions(request, ['did']);
        const did = query['did']?.trim();
        if (did !== undefined) {
          if (did === '') throw new ProblemError('INVALID_DID', 'Type a DID into the search box, e.g. did:web:example.com.');
          // The permalink shows the DID raw where DID syntax allows it, fully encoded otherwise.
          const path = /^did:[A-Za-z0-9._:%-]+$/.test(did) ? did : encodeURIComponent(did);
          return reply.code(303).header('location', dossierPath(path)).send();
        }
        return sendPage(reply, 200, homePage());
      },
    },
    {
      method: 'GET',
      url: '/d/*',
      budget: 'resolve',
      schema: WEB_ROUTE_SCHEMAS.dossier,
      handler: async (request, reply) => {
        const wanted = wantedRepresentation(request, reply);
        const did = identifierAfter(request, '/d/');
        const query = queryOptions(request, ['noCache', 'from', 'to']);
        const result = await resolveForRequest(ctx, request, reply, did, { noCache: booleanOption(query, 'noCache') });
        const status = w3cStatusOf(result);
        if (wanted === 'json') return sendResolution(reply, status, result);
        const timeMachine = await timeMachineFor(ctx, result, query);
        return sendPage(reply, status, dossierPage({ result, timeMachine, mode: 'served' }));
      },
    },
    {
      method: 'GET',
      url: '/mcp',
      budget: 'inspection',
      schema: WEB_ROUTE_SCHEMAS.mcp,
      handler: async (request, reply) => {
        const wanted = wantedRepresentation(request, reply);
        const endpoint = queryOptions(request, ['endpoint'])['endpoint'];
        if (endpoint === undefined) {
          if (wanted === 'json')
            throw new ProblemError(
              'INVALID_OPTIONS',
              'The query option "endpoint" (required) is missing; give the URL of the MCP endpoint, e.g. https://tools.example/mcp.',
            );
          return sendPage(reply, 200, mcpFormPage());
        }
        const result = await inspectMcpFor(ctx, request, reply, endpoint);
        if (wanted === 'json')
          return reply
            .code(200)
            .type(JSON_UTF8)
            .send(serialized(reply, 200, 'application/json', result));
        return sendPage(reply, 200, mcpPage({ result, mode: 'served' }));
      },
    },
    {
      method: 'GET',
      url: '/assets/:name',
      budget: 'none',
      schema: WEB_ROUTE_SCHEMAS.asset,
      handler: async (request, reply) => {
        queryOptions(request, []);
        return sendAsset(request, reply);
      },
    },
  ];
}

/**
 * An asset of the pages (stylesheet, script, icon) from memory: immutable under its hashed name,
 * 304 for a matching If-None-Match, gzip when accepted. The cookie gateway serves its pages'
 * stylesheet and icon with it too.
 */
export function sendAsset(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const asset = webAssets().byPath.get(request.url.split('?')[0]!);
  if (asset === undefined) throw new ProblemError('NOT_FOUND', 'No such asset; pages link the assets of the running build.');
  reply.headers({ 'cache-control': 'public, max-age=31536000, immutable', etag: asset.etag, vary: 'Accept-Encoding' });
  if (matchesEtag(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply
    .code(200)
    .type(asset.contentType)
    .send(gzip ? asset.gzip : asset.body);
}

/** A page route's representation by Accept (varying on it): the page or JSON; neither is 406. */
function wantedRepresentation(request: FastifyRequest, reply: FastifyReply): 'html' | 'json' {
  reply.header('vary', 'Accept');
  const wanted = negotiatePage(request.headers.accept);
  if (wanted === null) throw new ProblemError('REPRESENTATION_NOT_SUPPORTED', 'This page is offered as text/html or application/json.');
  return wanted;
}

/** If-None-Match: `*`, or a list of entity tags (weak ones compared weakly, RFC 9110 §13.1.2). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Accept-Encoding names gzip (or `*`) with a q above 0. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).headers({ 'content-security-policy': PAGE_CSP, 'cache-control': 'no-cache', 'x-frame-options': 'DENY' }).type(HTML_UTF8).send(page);
}

/**
 * What level 4's time machine shows: the DID's observations and one diff (the pair asked for, or
 * the latest two). A diff that cannot be made is said on the page, never a failed page.
 */
async function timeMachineFor(ctx: ServerContext, result: EnrichedResolution, query: Record<string, string>): Promise<TimeMachineInput> {
  const selection = { from: query['from'], to: query['to'] };
  const selected = selection.from !== undefined && selection.to !== undefined ? { from: selection.from, to: selection.to } : null;
  const { runtime } = ctx;
  if (!runtime.store)
    return { history: null, diff: null, selected, unavailable: 'The observation store is unavailable, so no history can be shown; /ready says why.' };
  if (!shouldRecord(ctx, result)) {
    return {
      history: null,
      diff: null,
      selected,
      unavailable:
        'This service does not record the history of self-certifying identifiers (did:key, did:jwk): their document follows from the identifier and cannot change.',
    };
  }
  return { ...(await observedChanges(result.did, runtime, selection)), selected };
}

/**
 * text/html or application/json for a page URL, by the client's Accept: the higher q wins, then
 * the more specific range (`application/json, *∕*` asks for JSON); none or `*∕*` is the page.
 * null: neither is acceptable.
 */
export function negotiatePage(accept: string | undefined): 'html' | 'json' | null {
  if (accept === undefined || accept.trim() === '') return 'html';
  const ranges = parseAccept(accept);
  const score = (type: string, subtype: string): { q: number; level: number } | null => {
    let best: { q: number; level: number } | null = null;
    for (const r of ranges) {
      const level = r.type === '*' ? 0 : r.type !== type ? -1 : r.subtype === '*' ? 1 : r.subtype === subtype ? 2 : -1;
      if (level < 0) continue;
      if (!best || level > best.level) best = { q: r.q, level };
    }
    return best && best.q > 0 ? best : null;
  };
  const html = score('text', 'html');
  const json = score('application', 'json');
  if (!html && !json) return ranges.length === 0 ? 'html' : null;
  if (!json) return 'html';
  if (!html) return 'json';
  if (json.q !== html.q) return json.q > html.q ? 'json' : 'html';
  return json.level > html.level ? 'json' : 'html';
}

/**
 * A problem on a page route, as a page, when the client would rather read HTML; null otherwise
 * (problem+json as everywhere). Called by sendProblem for every error of the app.
 */
export function pageProblemFor(request: FastifyRequest, problem: ProblemError): string | null {
  const route = request.routeOptions.url;
  if (route === undefined || !PAGE_ROUTES.has(route)) return null;
  const accept = request.headers.accept;
  if (negotiatePage(accept) !== 'html' || problem.code === 'REPRESENTATION_NOT_SUPPORTED') return null;
  // A program that reads pages names problem+json to get its problems as data (the API clients do).
  if (accept !== undefined && parseAccept(accept).some((r) => r.type === 'application' && r.subtype === 'problem+json' && r.q > 0)) return null;
  if (route === '/mcp') {
    const endpoint = (request.query as Record<string, unknown> | undefined)?.['endpoint'];
    return mcpProblemPage(problem, typeof endpoint === 'string' ? endpoint : undefined, 'served');
  }
  let did: string | undefined;
  if (route === '/d/*') {
    const raw = (request.raw.url ?? request.url).split('?')[0]!.slice('/d/'.length);
    try {
      did = decodeIdentifier(raw);
    } catch {
      did = raw;
    }
  }
  return problemPage({ problem, mode: 'served', ...(did !== undefined && did !== '' ? { did: did.length > 300 ? `${did.slice(0, 300)}…` : did } : {}) });
}
