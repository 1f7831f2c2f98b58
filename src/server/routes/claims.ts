/**
 * Proofs of control and the directory (docs/daemon.md#proofs-of-control-and-the-directory). A
 * controller asks for a challenge (a random token bound to the DID, the method, the purpose and an
 * expiry), signs it or publishes it, and submits the proof; a proof that holds becomes a claim, and
 * a proof made for the purpose `list` also opts the DID in to the directory (`unlist` opts it out)
 * — opting in is always its own explicit act, proved like a claim. Nothing else lists an
 * identifier: no route, flag or setting, and no payment ("listings cannot be bought").
 *
 * A refused proof is a result (200, verified: false, a refusal code and reason), never a
 * problem; problems mean the service gave no answer. Well-known and DNS claims are re-checked by
 * the daemon (jobs/claim-checker.ts) and lapse, with their listing, when the proof disappears.
 */
import { challengeTerms, checkProof, CLAIM_LIMITATIONS, describeClaim, methodUnavailable, newClaimToken } from '../../core/claims/index.js';
import {
  CHALLENGE_ATTEMPTS,
  CHALLENGE_LIMIT,
  CHALLENGE_PENDING_LIMITS,
  CHALLENGE_TTL,
  RECHECK_LIFETIME_INTERVALS,
  SIGNATURE_CLAIM_SECONDS,
  DIRECTORY_LIMIT,
  type ClaimMethod,
  type ClaimPurpose,
  type ClaimRefusalCode,
} from '../../core/claims/types.js';
import { didKeySource } from '../../core/credentials/keys.js';
import { base64urlDecode, base64urlEncode } from '../../core/encoding/base64url.js';
import { parseDid } from '../../core/did/syntax.js';
import { requireResolvable } from '../../core/methods/registry.js';
import { isPendingRefusal, pendingProblem } from '../../core/pending.js';
import { ProblemError } from '../../core/problems.js';
import { rfc3339 } from '../../core/runtime.js';
import type { ChallengeRefusal, ClaimChallenge, StoredClaim } from '../../core/store.js';
import { clientOf, outboundWork, resolveFor, storeOf, type RouteDef, type ServerContext } from '../context.js';
import { identifierAfter, objectBody, queryOptions } from '../http.js';
import { bodyRouteProblems, DidParamSchema, EmptyQuerySchema, json, problem, ref } from '../schemas/common.js';
import {
  ClaimChallengeRequestSchema,
  ClaimChallengeSchema,
  ClaimListSchema,
  ClaimProofRequestSchema,
  ClaimVerificationSchema,
  DirectoryPageSchema,
  DirectoryQuerySchema,
} from '../schemas/claims.js';

/** Lapsed claims a listing of a DID's claims shows at most. */
const LAPSED_SHOWN = 10;

/** The settings that size the claim challenges' shares, named by a refusal. */
const CLAIM_SHARE_SETTINGS = { perClient: 'SVC_CLAIM_PENDING_PER_CLIENT', perDid: 'SVC_CLAIM_PENDING_PER_DID' };

const REFUSAL_OF: Record<ChallengeRefusal, { code: ClaimRefusalCode; reason: string }> = {
  unknown: { code: 'CHALLENGE_UNKNOWN', reason: 'no challenge with this token was made for this DID (or it was removed after expiring)' },
  expired: { code: 'CHALLENGE_EXPIRED', reason: 'the challenge has expired; ask for a new one' },
  used: { code: 'CHALLENGE_USED', reason: 'the challenge was used by an earlier proof; each challenge proves once' },
  exhausted: { code: 'CHALLENGE_EXHAUSTED', reason: `the challenge had its ${CHALLENGE_ATTEMPTS} verification attempts; ask for a new one` },
};

export function claimView(claim: StoredClaim) {
  return {
    method: claim.method,
    subject: claim.subject,
    ...describeClaim(claim),
    verifiedAt: claim.verifiedAt,
    lastCheckedAt: claim.checkedAt,
    expiresAt: claim.expiresAt,
    nextCheckAt: claim.nextCheckAt,
  };
}

function lapsedView(claim: StoredClaim) {
  return {
    method: claim.method,
    subject: claim.subject,
    verifiedAt: claim.verifiedAt,
    // An expired claim the sweep has not reached yet has no lapse time of its own: its expiry is it.
    lapsedAt: claim.lapsedAt ?? claim.expiresAt,
    reason: claim.lapseReason ?? (claim.method === 'signature' ? 'expired' : `not re-checked successfully since ${claim.checkedAt}`),
  };
}

/** The DID of a request (syntax only: a claim needs no resolution to be asked for or read). */
function didOf(value: string): string {
  return parseDid(value).did;
}

// ---------------------------------------------------------------- directory cursor

interface CursorState {
  after: number;
  q: string | null;
  method: string | null;
}

/**
 * The cursor is opaque to clients: base64url of the last seq and the query it belongs to. A
 * cursor of another query (q or method changed) or one that does not decode is a 400: following
 * it would skip or repeat entries silently.
 */
export function encodeCursor(state: CursorState): string {
  return base64urlEncode(Buffer.from(JSON.stringify({ v: 1, a: state.after, q: state.q, m: state.method }), 'utf8'));
}

export function decodeCursor(cursor: string, q: string | null, method: string | null): number {
  const invalid = () => new ProblemError('INVALID_OPTIONS', 'The query option "cursor" is not a cursor this directory gave; start again without it.');
  const bytes = base64urlDecode(cursor);
  if (bytes === null) throw invalid();
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw invalid();
  }
  const s = state as { v?: unknown; a?: unknown; q?: unknown; m?: unknown };
  if (typeof s !== 'object' || s === null || s.v !== 1 || !Number.isSafeInteger(s.a) || (s.a as number) < 0) throw invalid();
  if ((s.q ?? null) !== q || (s.m ?? null) !== method) {
    throw new ProblemError(
      'INVALID_OPTIONS',
      'The cursor belongs to another query (q or method changed); give the same q and method, or start again without a cursor.',
    );
  }
  return s.a as number;
}

// ---------------------------------------------------------------- routes

const DID_PROBLEMS = {
  400: problem(
    'INVALID_DID: did is not a DID; INVALID_REQUEST: the body is not valid (the member is named), or the method does not apply to the DID (well-known and dns need a host).',
  ),
  501: problem('METHOD_NOT_SUPPORTED: the DID names a method svc does not resolve.'),
};

export function claimRoutes(ctx: ServerContext): RouteDef[] {
  const tags = ['claims'];
  return [
    {
      method: 'POST',
      url: '/v1/claims/challenges',
      budget: 'intensive',
      schema: {
        summary: 'Ask for a challenge to prove control of a DID',
        operationId: 'createClaimChallenge',
        description:
          'Three free ways: sign the challenge with a key under authentication (signature), host the token at /.well-known/svc-claim.txt (well-known; did:web and did:webvh), ' +
          'or publish it in a DNS TXT record _svc-claim.<host> (dns; did:web and did:webvh). purpose "list" opts the DID in to the directory once the proof holds; "unlist" opts it out. ' +
          `A challenge holds for expiresInSeconds, allows ${CHALLENGE_ATTEMPTS} verification attempts and proves once. ` +
          `Of the ${CHALLENGE_LIMIT} pending challenges the service keeps, one client holds at most ${CHALLENGE_PENDING_LIMITS.perClient} and one DID at most ${CHALLENGE_PENDING_LIMITS.perDid}, ` +
          "unless the client asking holds none of the DID's (defaults; 429 past a share).",
        tags,
        body: ref(ClaimChallengeRequestSchema),
        response: {
          201: json(ref(ClaimChallengeSchema), 'The challenge: what to sign or publish, and until when.'),
          ...bodyRouteProblems(),
          ...DID_PROBLEMS,
          429: problem(
            `RATE_LIMITED: the client's budget is used up, or its share of pending challenges (${CHALLENGE_PENDING_LIMITS.perClient} by default), or the DID's share (${CHALLENGE_PENDING_LIMITS.perDid} by default) while this client holds one of the DID's challenges (Retry-After: until one of them expires).`,
          ),
          503: problem(
            `CAPACITY_EXHAUSTED: ${CHALLENGE_LIMIT} challenges are pending, or the service is busy (Retry-After); SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down.`,
          ),
        },
      },
      handler: (request, reply) =>
        outboundWork(
          ctx,
          request,
          reply,
          async () => {
            const body = objectBody(request) as { did: string; method: ClaimMethod; purpose?: ClaimPurpose; expiresInSeconds?: number };
            const did = didOf(body.did);
            requireResolvable(did, 'so control of it cannot be shown here');
            const unavailable = methodUnavailable(did, body.method);
            if (unavailable !== null) throw new ProblemError('INVALID_REQUEST', `The method ${body.method} does not apply: ${unavailable}.`);
            const ttl = CHALLENGE_TTL[body.method];
            const ttlSeconds = body.expiresInSeconds ?? ttl.default;
            if (ttlSeconds > ttl.max) throw new ProblemError('INVALID_REQUEST', `expiresInSeconds is at most ${ttl.max} for the ${body.method} method.`);
            // The client's and the DID's shares are counted with the pool, in the store's one statement.
            const created = await storeOf(ctx.runtime).claims.createChallenge(
              { token: newClaimToken(), did, method: body.method, purpose: body.purpose ?? 'claim', ttlSeconds, client: clientOf(request) },
              { total: CHALLENGE_LIMIT, perClient: ctx.limits.claimChallengesPerClient, perDid: ctx.limits.claimChallengesPerDid },
            );
            if (isPendingRefusal(created)) throw pendingProblem(created, 'claim challenges', did, CLAIM_SHARE_SETTINGS);
            return reply.code(201).send(challengeTerms(created));
          },
          true,
        ),
    },
    {
      method: 'POST',
      url: '/v1/claims/verify',
      budget: 'intensive',
      schema: {
        summary: 'Submit the proof of a challenge',
        operationId: 'verifyClaim',
        description:
          'Checks the proof now (the DID resolved afresh for a signature; the file or the TXT record fetched through the egress policy). ' +
          'A proof that does not hold is a 200 with verified: false and a refusal (code and reason), never an error. A proof that holds becomes a claim; ' +
          'its purpose is applied (list: the DID is listed; unlist: it is not).',
        tags,
        body: ref(ClaimProofRequestSchema),
        response: {
          200: json(ref(ClaimVerificationSchema), 'What the check found: the claim, or why not.'),
          ...bodyRouteProblems(),
          ...DID_PROBLEMS,
          503: problem('CAPACITY_EXHAUSTED (Retry-After); SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down.'),
        },
      },
      handler: (request, reply) =>
        outboundWork(
          ctx,
          request,
          reply,
          async ({ signal, slot, runtime }) => {
            const body = objectBody(request) as { did: string; token: string; jws?: string };
            const did = didOf(body.did);
            requireResolvable(did, 'so control of it cannot be shown here');
            const store = storeOf(ctx.runtime);
            const refused = (code: ClaimRefusalCode, reason: string, challenge: ClaimChallenge | null) =>
              reply.send({
                did,
                token: body.token,
                method: challenge?.method ?? null,
                purpose: challenge?.purpose ?? null,
                status: 'REFUSED',
                verified: false,
                refusal: { code, reason },
                claim: null,
                listed: null,
                checkedAt: rfc3339(ctx.runtime.clock.now()),
              });
            const attempt = await store.claims.attemptChallenge(did, body.token, CHALLENGE_ATTEMPTS);
            if (!attempt.ok) return refused(REFUSAL_OF[attempt.refusal].code, REFUSAL_OF[attempt.refusal].reason, attempt.challenge);
            const challenge = attempt.challenge;
            // "Resolved afresh": a signature is judged against the document as it is now, not a cached one.
            const keySource = didKeySource(runtime, (d, s) => resolveFor(ctx, d, { noCache: true }, s, slot));
            const check = await checkProof(challenge, { jws: body.jws ?? null }, { runtime, signal, keySource });
            if (!check.ok) return refused(check.code, check.reason, challenge);
            const recheck = challenge.method === 'signature' ? null : ctx.limits.claimRecheckSeconds;
            const recorded = await store.claims.recordProof({
              token: challenge.token,
              subject: check.subject,
              lifetimeSeconds: recheck === null ? SIGNATURE_CLAIM_SECONDS : RECHECK_LIFETIME_INTERVALS * recheck,
              recheckSeconds: recheck,
            });
            if (recorded.outcome !== 'recorded') return refused(REFUSAL_OF[recorded.outcome].code, REFUSAL_OF[recorded.outcome].reason, challenge);
            return reply.send({
              did,
              token: challenge.token,
              method: challenge.method,
              purpose: challenge.purpose,
              status: 'VERIFIED',
              verified: true,
              refusal: null,
              claim: claimView(recorded.claim),
              listed: recorded.listed,
              checkedAt: rfc3339(ctx.runtime.clock.now()),
            });
          },
          true,
        ),
    },
    {
      method: 'GET',
      url: '/v1/claims/*',
      budget: 'standard',
      schema: {
        summary: 'The current proofs of control of a DID',
        operationId: 'listClaims',
        description:
          'Each claim states what it proves ("someone able to sign with this key / publish on this domain / in this DNS zone acted on <date>") and what it does not (legal identity, ongoing control). ' +
          'Only current, unexpired claims; the latest lapsed ones are listed apart with their reason.',
        tags,
        params: DidParamSchema,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(ClaimListSchema), "The DID's claims."),
          400: problem('INVALID_DID; INVALID_OPTIONS (this route takes no query option); INVALID_REQUEST (no Host header, malformed percent-encoding).'),
          408: problem('REQUEST_TIMEOUT: the request ran past its time limit.'),
          429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
          500: problem('INTERNAL_ERROR: no answer could be produced.'),
          503: problem('SERVICE_UNAVAILABLE: the database is unavailable (see /ready; Retry-After), or the daemon is shutting down.'),
        },
      },
      handler: async (request, reply) => {
        const did = didOf(identifierAfter(request, '/v1/claims/'));
        queryOptions(request, []);
        const found = await storeOf(ctx.runtime).claims.forDid(did, LAPSED_SHOWN);
        return reply.send({
          did,
          claims: found.current.map(claimView),
          lapsed: found.past.map(lapsedView),
          listed: found.listed,
          limitations: CLAIM_LIMITATIONS,
        });
      },
    },
    {
      method: 'GET',
      url: '/v1/directory',
      budget: 'standard',
      schema: {
        summary: 'Identifiers whose controllers proved control and opted in',
        operationId: 'listDirectory',
        description:
          'Oldest listing first, in a stable order: a page ends with nextCursor (null on the last page), and listings added meanwhile come after it, so paging neither repeats nor skips. ' +
          'A listing lapses with the claim behind it. Listings cannot be bought: only a proven controller opts in (a proof with purpose "list").',
        tags,
        querystring: DirectoryQuerySchema,
        response: {
          200: json(ref(DirectoryPageSchema), 'One page of the directory.'),
          400: problem(
            'INVALID_OPTIONS: an unknown or repeated query option, q over 100 characters, limit outside 1..50, a method other than web, key, jwk, webvh, or a cursor of another query.',
          ),
          408: problem('REQUEST_TIMEOUT: the request ran past its time limit.'),
          429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
          500: problem('INTERNAL_ERROR: no answer could be produced.'),
          503: problem('SERVICE_UNAVAILABLE: the database is unavailable (see /ready; Retry-After), or the daemon is shutting down.'),
        },
      },
      handler: async (request, reply) => {
        const query = queryOptions(request, ['q', 'method', 'limit', 'cursor']);
        const q = query['q'] === undefined || query['q'] === '' ? null : query['q'];
        // The route's schema has checked method (one of DIRECTORY_METHODS), limit (1..50) and q (≤ 100).
        const method = query['method'] ?? null;
        const limit = query['limit'] === undefined ? DIRECTORY_LIMIT.default : Number(query['limit']);
        const after = query['cursor'] === undefined ? null : decodeCursor(query['cursor'], q, method);
        const page = await storeOf(ctx.runtime).claims.directory({ q, didMethod: method, limit, after });
        const last = page.entries.at(-1);
        return reply.send({
          entries: page.entries.map((e) => ({ did: e.did, method: e.didMethod, listedAt: e.listedAt, claims: e.claims })),
          nextCursor: page.more && last ? encodeCursor({ after: last.seq, q, method }) : null,
        });
      },
    },
  ];
}
