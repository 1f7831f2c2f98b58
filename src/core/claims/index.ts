/** Proofs of control: challenges, their checks and re-checks, and what a claim means. */
export * from './types.js';
export {
  CLAIM_AUDIENCE,
  CLAIM_DNS_LABEL,
  CLAIM_FILE_PATH,
  challengeTerms,
  claimFileUrl,
  claimHostOf,
  claimPayload,
  claimRecordName,
  claimStatement,
  isClaimToken,
  methodUnavailable,
  newClaimToken,
  type ClaimHost,
} from './challenge.js';
export { checkProof, recheckClaim, type ProofOptions, type ProofSubmission } from './verify.js';
export { CLAIM_LIMITATIONS, describeClaim, type ClaimDescription } from './describe.js';
