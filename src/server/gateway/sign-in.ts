/**
 * The gateway's own routes (never forwarded): owner sign-in and the session.
 *
 *   POST /sign-in/challenge  strict {did} → 201 {challenge, statement, expiresAt}; 429 RATE_LIMITED
 *                            past the client's or the DID's share of pending challenges, 503
 *                            CAPACITY_EXHAUSTED when all 10,000 are pending
 *   POST /sign-in            strict {did, challenge, jws} → 200 {subject, projects, expiresAt,
 *                            absoluteExpiresAt} + Set-Cookie svc_session
 *   POST /sign-out           revokes the session, clears the cookie (204); needs the Origin
 *   GET  /session            {subject, projects, expiresAt, absoluteExpiresAt} or 401
 *
 * The challenge is consumed before the signature is checked: one attempt per challenge, and two
 * concurrent sign-ins with one challenge cannot both pass. Whether the DID owns a project is
 * asked only once the signature verified (403 FORBIDDEN when it owns none: no session).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  checkSignIn,
  isSecretToken,
  newSecretToken,
  SESSION_ABSOLUTE_SECONDS,
  SESSION_IDLE_SECONDS,
  SIGN_IN_CHALLENGE_TTL_SECONDS,
  signInStatement,
  tokenDigest,
} from '../../core/accounts/sign-in.js';
import { parseDid } from '../../core/did/syntax.js';
import { isJsonObject, parseJsonStrict, StrictJsonError } from '../../core/encoding/json.js';
import { requireResolvable } from '../../core/methods/registry.js';
import { pendingProblem } from '../../core/pending.js';
import { ProblemError } from '../../core/problems.js';
import { SIGN_IN_CHALLENGE_LIMIT, type Project } from '../../core/store.js';
import { ChallengeCapacityError } from '../../store/schema/errors.js';
import { clientOf, outboundWork, storeOf } from '../context.js';
import { clearedSessionCookie, sessionCookie, sessionIdOf } from './cookie.js';
import { refuseForeignOrigin, requireOrigin, requireSession, type GatewayContext } from './session.js';

/** Most a compact JWS of a sign-in may be (its statement is a few hundred bytes). */
const JWS_MAX_CHARS = 16_384;

const projectView = (p: Project) => ({ id: p.id, tenantId: p.tenantId, name: p.name, createdAt: p.createdAt });

/** The body as a strict JSON object with exactly `members` (all strings). */
export function strictBody(request: FastifyRequest, members: readonly string[]): Record<string, string> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/json\s*(;|$)/i.test(type)) throw new ProblemError('INVALID_REQUEST', 'The body must be application/json.');
  const raw = request.body;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  let value: unknown;
  try {
    value = parseJsonStrict(text);
  } catch (err) {
    throw new ProblemError('INVALID_REQUEST', `The request body is not acceptable JSON: ${err instanceof StrictJsonError ? err.message : 'not JSON'}.`);
  }
  if (!isJsonObject(value)) throw new ProblemError('INVALID_REQUEST', `The body must be a JSON object with ${members.join(', ')}.`);
  for (const name of Object.keys(value)) {
    if (!members.includes(name))
      throw new ProblemError('INVALID_REQUEST', `The body has an unknown member "${name.slice(0, 40)}"; it takes ${members.join(', ')} only.`);
  }
  const out: Record<string, string> = {};
  for (const name of members) {
    const member = value[name];
    if (member === undefined) throw new ProblemError('INVALID_REQUEST', `The body lacks "${name}".`);
    if (typeof member !== 'string') throw new ProblemError('INVALID_REQUEST', `"${name}" must be a string.`);
    out[name] = member;
  }
  return out;
}

function didOfBody(text: string): string {
  const { did } = parseDid(text);
  requireResolvable(did, 'so it cannot sign in');
  return did;
}

/** The settings that size the sign-in challenges' shares, named by a refusal. */
const SIGN_IN_SHARE_SETTINGS = { perClient: 'SVC_SIGN_IN_PENDING_PER_CLIENT', perDid: 'SVC_SIGN_IN_PENDING_PER_DID' };

function storeProblem(did: string) {
  return (err: unknown): never => {
    if (err instanceof ChallengeCapacityError) throw pendingProblem(err.refusal, 'sign-in challenges', did, SIGN_IN_SHARE_SETTINGS);
    throw err;
  };
}

export function signInHandlers(g: GatewayContext) {
  const { ctx, commercial } = g;
  return {
    challenge: async (request: FastifyRequest, reply: FastifyReply) => {
      refuseForeignOrigin(g, request);
      const body = strictBody(request, ['did']);
      const did = didOfBody(body['did']!);
      const challenge = newSecretToken();
      // The pool, this client's share and the DID's, counted in the store's one statement: a
      // flood from one address cannot keep an owner elsewhere from signing in.
      const { expiresAt } = await storeOf(ctx.runtime)
        .accounts.createSignInChallenge(
          { tokenDigest: tokenDigest(challenge), did, ttlSeconds: SIGN_IN_CHALLENGE_TTL_SECONDS, client: clientOf(request) },
          { total: SIGN_IN_CHALLENGE_LIMIT, perClient: ctx.limits.signInChallengesPerClient, perDid: ctx.limits.signInChallengesPerDid },
        )
        .catch(storeProblem(did));
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ challenge, statement: signInStatement({ nonce: challenge, origin: commercial.origin, did }), expiresAt });
    },

    signIn: async (request: FastifyRequest, reply: FastifyReply) => {
      refuseForeignOrigin(g, request);
      const body = strictBody(request, ['did', 'challenge', 'jws']);
      const did = didOfBody(body['did']!);
      const challenge = body['challenge']!;
      const jws = body['jws']!;
      if (jws.length > JWS_MAX_CHARS) throw new ProblemError('INVALID_REQUEST', `"jws" is longer than ${JWS_MAX_CHARS} characters.`);
      const store = storeOf(ctx.runtime);
      if (!isSecretToken(challenge) || !(await store.accounts.consumeSignInChallenge(tokenDigest(challenge), did))) {
        throw new ProblemError(
          'UNAUTHORIZED',
          'Sign-in refused: the challenge is unknown, already used, expired or for another DID; ask for a new one (POST /sign-in/challenge).',
        );
      }
      const statement = signInStatement({ nonce: challenge, origin: commercial.origin, did });
      const check = await outboundWork(ctx, request, reply, (w) => checkSignIn(did, statement, jws, { runtime: w.runtime, signal: w.signal }));
      if (!check.ok) throw new ProblemError('UNAUTHORIZED', `Sign-in refused (${check.code}): ${check.reason}. The challenge is used up; ask for a new one.`);
      // Only now, with the signature verified, is ownership asked.
      const projects = await store.accounts.listProjectsOwnedBy(did);
      if (projects.length === 0) {
        throw new ProblemError(
          'FORBIDDEN',
          `${did} owns no project on this daemon, so there is nothing to sign in to; the operator attaches owners to tenants.`,
        );
      }
      const id = newSecretToken();
      const session = await store.accounts.createSession({
        idDigest: tokenDigest(id),
        subject: did,
        idleSeconds: SESSION_IDLE_SECONDS,
        absoluteSeconds: SESSION_ABSOLUTE_SECONDS,
      });
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header('set-cookie', sessionCookie(id, { secure: g.secure, maxAgeSeconds: SESSION_ABSOLUTE_SECONDS }))
        .send({ subject: did, projects: projects.map(projectView), expiresAt: session.expiresAt, absoluteExpiresAt: session.absoluteExpiresAt });
    },

    signOut: async (request: FastifyRequest, reply: FastifyReply) => {
      requireOrigin(g, request);
      const id = sessionIdOf(request.headers.cookie);
      if (id !== null) await storeOf(ctx.runtime).accounts.revokeSession(tokenDigest(id));
      return reply
        .code(204)
        .header('cache-control', 'no-store')
        .header('set-cookie', clearedSessionCookie({ secure: g.secure }))
        .send();
    },

    session: async (request: FastifyRequest, reply: FastifyReply) => {
      const { session } = await requireSession(g, request, reply);
      const projects = await storeOf(ctx.runtime).accounts.listProjectsOwnedBy(session.subject);
      return reply
        .header('cache-control', 'no-store')
        .send({ subject: session.subject, projects: projects.map(projectView), expiresAt: session.expiresAt, absoluteExpiresAt: session.absoluteExpiresAt });
    },
  };
}
