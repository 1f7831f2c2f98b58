/**
 * What a refused challenge answers (docs/operations.md#fair-shares): the one rule by which both
 * pools of pending challenges — claim challenges and sign-in challenges — turn a PendingRefusal of
 * the store into a problem. A client's or a DID's share is that client's budget, not the
 * service's: 429 RATE_LIMITED, Retry-After until one of the challenges holding it expires. Only
 * the whole pool is the service's capacity: 503 CAPACITY_EXHAUSTED.
 */
import { ProblemError } from './problems.js';
import { truncate } from './text.js';

/**
 * The fair shares of a pool of pending (unused, unexpired) challenges: the pool in all, what one
 * client may hold, what one DID may hold. The DID's share never shuts out a client that holds none
 * of the DID's pending challenges: a flood of challenges for a DID by others cannot stop its
 * controller from asking for one.
 */
export interface PendingLimits {
  total: number;
  perClient: number;
  perDid: number;
}

/** Which share refused a new challenge: the whole pool, the client's, or the DID's. */
export type PendingShare = 'total' | 'client' | 'did';

/**
 * A challenge refused: the share that is used up, its size, and the whole seconds (>= 1) until
 * one of the challenges holding it expires (a use frees one sooner).
 */
export interface PendingRefusal {
  refused: PendingShare;
  limit: number;
  retryAfterSeconds: number;
}

/** Whether createChallenge answered with a refusal rather than a challenge. */
export function isPendingRefusal(value: object): value is PendingRefusal {
  return 'refused' in value;
}

/**
 * The problem of a refusal. `pool` names the challenges in a sentence ("claim challenges",
 * "sign-in challenges"); `setting` the environment variables that size the shares.
 */
export function pendingProblem(refusal: PendingRefusal, pool: string, did: string, settings: { perClient: string; perDid: string }): ProblemError {
  const wait = refusal.retryAfterSeconds;
  switch (refusal.refused) {
    case 'client':
      return new ProblemError(
        'RATE_LIMITED',
        `This client's share of ${refusal.limit} pending ${pool} is used up (${settings.perClient}): use one of them or let it expire. Retry after ${wait} s.`,
        { retryAfter: wait },
      );
    case 'did':
      return new ProblemError(
        'RATE_LIMITED',
        `The DID's share of ${refusal.limit} pending ${pool} is used up (${settings.perDid}), and this client holds one of them for ${truncate(did, 80)}: use it, or retry after ${wait} s.`,
        { retryAfter: wait },
      );
    case 'total':
      return new ProblemError('CAPACITY_EXHAUSTED', `${refusal.limit} ${pool} are pending, the most this service keeps; try again later.`, {
        retryAfter: wait,
      });
  }
}
