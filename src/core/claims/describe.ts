/**
 * What a claim shows and what it does not, in words a reader of the claims answer can rely on.
 * The limits are part of every answer: a claim is evidence of one act, never of identity.
 */
import type { StoredClaim } from './store.js';
import { CLAIM_DNS_LABEL } from './challenge.js';
import { RECHECK_LIFETIME_INTERVALS, SIGNATURE_CLAIM_SECONDS } from './types.js';

export interface ClaimDescription {
  /** One sentence: who acted, by what, on which day. */
  proves: string;
  /** What a reader must not infer from it. */
  doesNotProve: string[];
}

const IDENTITY = 'the legal or real-world identity of whoever acted';

/** YYYY-MM-DD of an RFC 3339 timestamp. */
function day(timestamp: string): string {
  return timestamp.slice(0, 10);
}

export function describeClaim(claim: StoredClaim): ClaimDescription {
  const date = day(claim.verifiedAt);
  // A re-checked claim also says when the proof was last seen in place.
  const lastSeen = claim.method !== 'signature' && day(claim.checkedAt) !== date ? ` (last found in place on ${day(claim.checkedAt)})` : '';
  switch (claim.method) {
    case 'signature':
      return {
        proves: `Someone able to sign with ${claim.subject} (a key under authentication) acted on ${date}.`,
        doesNotProve: [
          IDENTITY,
          'that the key is still held: a signature is one act, and nothing re-checks it',
          'that the DID document will keep listing the key',
        ],
      };
    case 'well-known':
      return {
        proves: `Someone able to publish at ${claim.subject} acted on ${date}${lastSeen}.`,
        doesNotProve: [IDENTITY, 'control between re-checks: the file is looked for again from time to time, not watched', "control of the DID's keys"],
      };
    case 'dns': {
      const zone = claim.subject.startsWith(`${CLAIM_DNS_LABEL}.`) ? claim.subject.slice(CLAIM_DNS_LABEL.length + 1) : claim.subject;
      return {
        proves: `Someone able to publish in the DNS zone of ${zone} acted on ${date}${lastSeen}.`,
        doesNotProve: [
          IDENTITY,
          'control between re-checks: the record is looked for again from time to time, not watched',
          'control of the web server or of the keys',
        ],
      };
    }
  }
}

/** The statements the claims answer (GET /v1/claims) carries about every claim and the directory. */
export const CLAIM_LIMITATIONS: readonly string[] = [
  "A claim shows that someone able to sign with a DID's key, or to publish on its host or in its DNS zone, acted at a given time; it is not legal or real-world identity.",
  "Claims are evidence a controller chose to give: a DID without claims is not suspect, and svc makes no claim on anyone's behalf.",
  `A signature claim holds ${SIGNATURE_CLAIM_SECONDS / 86_400} days and is never re-checked; a file or DNS claim is re-checked and lapses when the proof is gone, or after ${RECHECK_LIFETIME_INTERVALS} re-check intervals without a successful check.`,
  'The directory lists only DIDs whose controllers opted in with a proof, in the order they were listed; a listing cannot be bought, and it ranks or endorses nothing.',
  "A claim says nothing about whether a DID's documents, keys or services are trustworthy; resolve the DID for that evidence.",
];
