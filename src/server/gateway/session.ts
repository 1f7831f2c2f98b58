/** The gateway's session helpers: the live session of a request, the Origin rule, the store's errors as problems. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tokenDigest } from '../../core/accounts/sign-in.js';
import { ProblemError } from '../../core/problems.js';
import type { OwnerSession } from '../../core/store.js';
import { storeOf, type ServerContext } from '../context.js';
import type { CommercialAccess } from '../commercial.js';
import { clearedSessionCookie, sessionIdOf } from './cookie.js';

export type EnabledCommercial = Extract<CommercialAccess, { enabled: true }>;

export interface GatewayContext {
  ctx: ServerContext;
  commercial: EnabledCommercial;
  /** Whether cookies carry Secure (the configured origin is https). */
  secure: boolean;
}

/** The request's live session (its idle expiry moved on), or null — with the cookie cleared when one was sent. */
export async function liveSession(g: GatewayContext, request: FastifyRequest, reply: FastifyReply): Promise<{ id: string; session: OwnerSession } | null> {
  const id = sessionIdOf(request.headers.cookie);
  if (id === null) {
    if (request.headers.cookie?.includes('svc_session=')) reply.header('set-cookie', clearedSessionCookie({ secure: g.secure }));
    return null;
  }
  const session = await storeOf(g.ctx.runtime).accounts.touchSession(tokenDigest(id));
  if (session === null) {
    reply.header('set-cookie', clearedSessionCookie({ secure: g.secure }));
    return null;
  }
  return { id, session };
}

/** The live session, or 401 UNAUTHORIZED (the cookie cleared). */
export async function requireSession(g: GatewayContext, request: FastifyRequest, reply: FastifyReply): Promise<{ id: string; session: OwnerSession }> {
  const live = await liveSession(g, request, reply);
  if (live === null)
    throw new ProblemError(
      'UNAUTHORIZED',
      'No live owner session: sign in at this gateway (svc owner login); a session ends after 30 minutes idle, 12 hours at most, or at sign-out.',
    );
  return live;
}

/** Writes need the configured origin exactly: 403 FORBIDDEN without it or with another. */
export function requireOrigin(g: GatewayContext, request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined)
    throw new ProblemError('FORBIDDEN', `A write through the cookie gateway must carry Origin: ${g.commercial.origin}; this request carries none.`);
  if (origin !== g.commercial.origin) {
    throw new ProblemError('FORBIDDEN', `A write through the cookie gateway must carry Origin: ${g.commercial.origin}; this request carries another origin.`);
  }
}

/** When an Origin is sent it must be the configured one (sign-in: a page of another site gets nothing). */
export function refuseForeignOrigin(g: GatewayContext, request: FastifyRequest): void {
  if (request.headers.origin !== undefined) requireOrigin(g, request);
}
