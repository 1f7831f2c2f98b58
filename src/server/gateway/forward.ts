/**
 * What the cookie gateway forwards to the session core: exactly these methods and
 * paths (ids one path segment of safe characters), plus svc's GET /v1/session/projects. Anything
 * else is the gateway's own 404.
 *
 * A forwarded request: for POST and DELETE the configured Origin first (403), then a live
 * session (401, the cookie cleared); then every client header is dropped but Content-Type and
 * Accept — Authorization, Cookie and every X-SVC-* (bridge, subject, role) never reach the core —
 * and the gateway adds X-SVC-Bridge (this start's secret) and X-SVC-Subject (the session's DID).
 * It goes over loopback HTTP to the daemon's own listener; the answer's status, Content-Type,
 * Retry-After, Allow and body come back (never Set-Cookie nor hop-by-hop headers).
 */
import { request as httpRequest } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import { BRIDGE_HEADER, SUBJECT_HEADER } from '../commercial.js';
import { requireOrigin, requireSession, type GatewayContext } from './session.js';
import { REQUEST_ID_HEADER } from '../request-id.js';

type Method = 'GET' | 'POST' | 'DELETE';

const ID = '[A-Za-z0-9_-]{1,128}';
const P = `^/v1/session/projects/${ID}`;

/** The forwarded routes: a path pattern, its methods, and its template (as the access log names it). */
export const FORWARDED: ReadonlyArray<{ pattern: RegExp; methods: readonly Method[]; template: string }> = [
  { pattern: /^\/v1\/session\/projects$/, methods: ['GET'], template: '/v1/session/projects' },
  { pattern: new RegExp(`${P}/keys$`), methods: ['GET', 'POST'], template: '/v1/session/projects/{project}/keys' },
  { pattern: new RegExp(`${P}/keys/${ID}$`), methods: ['DELETE'], template: '/v1/session/projects/{project}/keys/{key}' },
  { pattern: new RegExp(`${P}/keys/${ID}/rotate$`), methods: ['POST'], template: '/v1/session/projects/{project}/keys/{key}/rotate' },
  { pattern: new RegExp(`${P}/watches$`), methods: ['GET', 'POST'], template: '/v1/session/projects/{project}/watches' },
  { pattern: new RegExp(`${P}/watches/${ID}$`), methods: ['DELETE'], template: '/v1/session/projects/{project}/watches/{watch}' },
  { pattern: new RegExp(`${P}/watches/${ID}/events$`), methods: ['GET'], template: '/v1/session/projects/{project}/watches/{watch}/events' },
  { pattern: new RegExp(`${P}/watches/${ID}/event-page$`), methods: ['POST'], template: '/v1/session/projects/{project}/watches/{watch}/event-page' },
  { pattern: new RegExp(`${P}/watches/${ID}/report$`), methods: ['POST'], template: '/v1/session/projects/{project}/watches/{watch}/report' },
  { pattern: new RegExp(`${P}/webhook$`), methods: ['GET', 'POST', 'DELETE'], template: '/v1/session/projects/{project}/webhook' },
  { pattern: new RegExp(`${P}/webhook-deliveries$`), methods: ['GET'], template: '/v1/session/projects/{project}/webhook-deliveries' },
  {
    pattern: new RegExp(`${P}/webhook-deliveries/${ID}/replay$`),
    methods: ['POST'],
    template: '/v1/session/projects/{project}/webhook-deliveries/{delivery}/replay',
  },
  { pattern: new RegExp(`${P}/watches/${ID}/replay$`), methods: ['POST'], template: '/v1/session/projects/{project}/watches/{watch}/replay' },
  { pattern: /^\/v1\/session\/scheduled-usage$/, methods: ['GET'], template: '/v1/session/scheduled-usage' },
];

/** The forwarded route's template for `method` at `path` (the raw path, without the query), or null: not forwarded. */
export function forwardedRoute(method: string, path: string): string | null {
  return FORWARDED.find((route) => route.pattern.test(path) && (route.methods as readonly string[]).includes(method))?.template ?? null;
}

/** The methods forwarded at `path` (a path of the table asked with another method: 405 with them in Allow), or null: no such path. */
export function forwardedMethods(path: string): readonly Method[] | null {
  const methods = FORWARDED.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods);
  return methods.length === 0 ? null : methods;
}

/** Whether the gateway forwards `method` at `path`. */
export function isForwarded(method: string, path: string): boolean {
  return forwardedRoute(method, path) !== null;
}

/** Where the daemon's own listener is reached over loopback. */
export interface Upstream {
  host: string;
  port: number;
}

/** The loopback address that reaches a listener bound to `address` (0.0.0.0 → 127.0.0.1, :: → ::1; otherwise itself). */
export function upstreamHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '::1';
  return address;
}

const RELAYED = ['content-type', 'retry-after', 'allow'] as const;

/** Forwards one request (already matched by isForwarded). */
export async function forward(g: GatewayContext, upstream: Upstream, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const method = request.method;
  if (method !== 'GET') requireOrigin(g, request);
  const { session } = await requireSession(g, request, reply);
  const body = Buffer.isBuffer(request.body) ? request.body : null;
  const headers: Record<string, string> = {
    host: `${upstream.host.includes(':') ? `[${upstream.host}]` : upstream.host}:${upstream.port}`,
    [BRIDGE_HEADER]: g.commercial.bridgeSecret,
    [SUBJECT_HEADER]: session.subject,
    // The daemon keeps the gateway's id (of sane shape by construction): one id in both logs and the answer.
    [REQUEST_ID_HEADER]: request.id,
  };
  const type = request.headers['content-type'];
  if (typeof type === 'string' && body !== null) headers['content-type'] = type;
  const accept = request.headers.accept;
  if (typeof accept === 'string') headers['accept'] = accept;
  if (body !== null) headers['content-length'] = String(body.length);
  const answer = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: upstream.host, port: upstream.port, method, path: request.raw.url ?? request.url, headers, timeout: g.ctx.limits.requestTimeoutMs },
      (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Answers of the session core are bounded (a report: 8 MiB); anything far past it is cut.
          if (size > 16 * 1024 * 1024) {
            incoming.destroy();
            reject(new ProblemError('INTERNAL_ERROR', 'The session core answered more than the gateway relays.'));
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body: Buffer.concat(chunks) }));
        incoming.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new ProblemError('REQUEST_TIMEOUT', 'The session core did not answer within the time limit.')));
    outgoing.on('error', (err) =>
      reject(
        err instanceof ProblemError ? err : new ProblemError('SERVICE_UNAVAILABLE', 'The session core could not be reached over loopback.', { retryAfter: 5 }),
      ),
    );
    outgoing.end(body ?? undefined);
  });
  reply.code(answer.status);
  for (const name of RELAYED) {
    const value = answer.headers[name];
    if (typeof value === 'string') reply.header(name, value);
  }
  return reply.send(answer.body.length > 0 ? answer.body : undefined);
}
