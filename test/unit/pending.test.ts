/**
 * Fair shares of the challenge pools without a database: which share a refusal
 * names and its Retry-After (store/pending.ts), the problem it becomes (core/pending.ts), the
 * settings that size the shares and the gateway's budget (limits.ts), and the relaxation their
 * raising is.
 */
import { describe, expect, it } from 'vitest';
import { CHALLENGE_PENDING_LIMITS } from '../../src/core/claims/types.js';
import { isPendingRefusal, pendingProblem } from '../../src/core/pending.js';
import { SIGN_IN_PENDING_LIMITS } from '../../src/core/store.js';
import { DEFAULT_LIMITS, limitsFromEnv } from '../../src/server/limits.js';
import { operatorRelaxations } from '../../src/server/relaxations.js';
import { pendingRefusal, pendingValues, type PendingStateRow } from '../../src/store/schema/pending.js';
import { configError } from '../support/problems.js';

const LIMITS = { total: 100, perClient: 5, perDid: 3 };
const NOW = 1_000_000;
const row = (over: Partial<PendingStateRow>): PendingStateRow => ({
  total: 10,
  totalNextMs: NOW + 500_000,
  client: 1,
  clientNextMs: NOW + 200_000,
  did: 1,
  didNextMs: NOW + 100_000,
  clientOfDid: 0,
  nowMs: NOW,
  ...over,
});

describe('pendingRefusal: which share refused, and until when', () => {
  it("names the client's share first, then the DID's (only while the client holds one of its), then the pool", () => {
    expect(pendingRefusal(row({ client: 5, did: 3, clientOfDid: 1, total: 100 }), LIMITS)).toEqual({ refused: 'client', limit: 5, retryAfterSeconds: 200 });
    expect(pendingRefusal(row({ did: 3, clientOfDid: 1 }), LIMITS)).toEqual({ refused: 'did', limit: 3, retryAfterSeconds: 100 });
    // A full DID share does not refuse a client holding none of the DID's challenges: the pool did.
    expect(pendingRefusal(row({ did: 7, clientOfDid: 0, total: 100 }), LIMITS)).toEqual({ refused: 'total', limit: 100, retryAfterSeconds: 60 });
  });

  it('waits in whole seconds, at least 1; the pool at most a minute; counts as PostgreSQL hands them over (text)', () => {
    expect(pendingRefusal(row({ client: '5', clientNextMs: String(NOW + 1) }), LIMITS).retryAfterSeconds).toBe(1);
    expect(pendingRefusal(row({ client: 5, clientNextMs: NOW + 86_400_000 }), LIMITS).retryAfterSeconds).toBe(86_400);
    expect(pendingRefusal(row({ total: '100', totalNextMs: String(NOW + 2_500) }), LIMITS).retryAfterSeconds).toBe(3);
    expect(pendingRefusal(row({ total: 100, totalNextMs: null }), LIMITS).retryAfterSeconds).toBe(1);
  });

  it('a limit that is not a number refuses (bound as -1)', () => {
    expect(pendingValues({ total: Number.NaN, perClient: 2, perDid: 3 }, 'c', 'did:web:a.example')).toMatchObject({
      total: -1,
      perClient: 2,
      perDid: 3,
      client: 'c',
      did: 'did:web:a.example',
    });
  });
});

describe('pendingProblem', () => {
  const settings = { perClient: 'SVC_CLAIM_PENDING_PER_CLIENT', perDid: 'SVC_CLAIM_PENDING_PER_DID' };
  it("a client's or a DID's share is the client's budget: 429 RATE_LIMITED naming it; the pool is the service's: 503", () => {
    const client = pendingProblem({ refused: 'client', limit: 20, retryAfterSeconds: 86_000 }, 'claim challenges', 'did:web:a.example', settings);
    expect(client).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 86_000 });
    expect(client.message).toBe(
      "This client's share of 20 pending claim challenges is used up (SVC_CLAIM_PENDING_PER_CLIENT): use one of them or let it expire. Retry after 86000 s.",
    );
    const did = pendingProblem({ refused: 'did', limit: 10, retryAfterSeconds: 30 }, 'claim challenges', `did:web:${'x'.repeat(200)}`, settings);
    expect(did).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 30 });
    expect(did.message).toContain("The DID's share of 10 pending claim challenges is used up (SVC_CLAIM_PENDING_PER_DID)");
    expect(did.message.length).toBeLessThan(300);
    expect(pendingProblem({ refused: 'total', limit: 10_000, retryAfterSeconds: 60 }, 'claim challenges', 'did:web:a.example', settings)).toMatchObject({
      code: 'CAPACITY_EXHAUSTED',
      retryAfter: 60,
      message: '10000 claim challenges are pending, the most this service keeps; try again later.',
    });
    expect(isPendingRefusal({ refused: 'total', limit: 1, retryAfterSeconds: 1 })).toBe(true);
    expect(isPendingRefusal({ token: 't' })).toBe(false);
  });
});

describe('the shares and the gateway budget as settings', () => {
  it('default to the documented numbers and take 1..10000 (the gateway 1..1000000); anything else is a ConfigError', () => {
    const limits = limitsFromEnv({});
    expect(limits).toMatchObject({
      claimChallengesPerClient: 20,
      claimChallengesPerDid: 10,
      signInChallengesPerClient: 10,
      signInChallengesPerDid: 3,
      gatewayPerMinute: 120,
    });
    expect([CHALLENGE_PENDING_LIMITS.perClient, CHALLENGE_PENDING_LIMITS.perDid, SIGN_IN_PENDING_LIMITS.perClient, SIGN_IN_PENDING_LIMITS.perDid]).toEqual([
      20, 10, 10, 3,
    ]);
    expect(
      limitsFromEnv({
        SVC_CLAIM_PENDING_PER_CLIENT: '4',
        SVC_CLAIM_PENDING_PER_DID: '2',
        SVC_SIGN_IN_PENDING_PER_CLIENT: '7',
        SVC_SIGN_IN_PENDING_PER_DID: '1',
        SVC_GATEWAY_RATE_LIMIT_PER_MIN: '30',
      }),
    ).toMatchObject({ claimChallengesPerClient: 4, claimChallengesPerDid: 2, signInChallengesPerClient: 7, signInChallengesPerDid: 1, gatewayPerMinute: 30 });
    for (const name of ['SVC_CLAIM_PENDING_PER_CLIENT', 'SVC_CLAIM_PENDING_PER_DID', 'SVC_SIGN_IN_PENDING_PER_CLIENT', 'SVC_SIGN_IN_PENDING_PER_DID']) {
      for (const bad of ['0', '10001', '2.5', 'many'])
        expect(configError(() => limitsFromEnv({ [name]: bad }))).toBe(`${name} must be a whole number between 1 and 10000`);
    }
    expect(configError(() => limitsFromEnv({ SVC_GATEWAY_RATE_LIMIT_PER_MIN: '0' }))).toBe(
      'SVC_GATEWAY_RATE_LIMIT_PER_MIN must be a whole number between 1 and 1000000',
    );
  });

  it('raised above their defaults they are relaxations (announced, in /health); lowered they are not', () => {
    const base = { egress: [], trustedProxies: [], profile: 'public' as const };
    const tight = { ...DEFAULT_LIMITS, delegationRoots: ['did:example:root'] };
    expect(operatorRelaxations({ ...base, limits: { ...tight, claimChallengesPerClient: 1, signInChallengesPerDid: 1, gatewayPerMinute: 1 } })).toEqual([]);
    expect(
      operatorRelaxations({
        ...base,
        limits: {
          ...tight,
          claimChallengesPerClient: 50,
          claimChallengesPerDid: 11,
          signInChallengesPerClient: 20,
          signInChallengesPerDid: 4,
          gatewayPerMinute: 600,
        },
      }),
    ).toEqual([
      { setting: 'SVC_CLAIM_PENDING_PER_CLIENT', value: '50', effect: '50 pending claim challenges per client (default 20)' },
      { setting: 'SVC_CLAIM_PENDING_PER_DID', value: '11', effect: '11 pending claim challenges per DID (default 10)' },
      { setting: 'SVC_SIGN_IN_PENDING_PER_CLIENT', value: '20', effect: '20 pending sign-in challenges per client (default 10)' },
      { setting: 'SVC_SIGN_IN_PENDING_PER_DID', value: '4', effect: '4 pending sign-in challenges per DID (default 3)' },
      { setting: 'SVC_GATEWAY_RATE_LIMIT_PER_MIN', value: '600', effect: '600 cookie-gateway requests per client per minute (default 120)' },
    ]);
  });
});
