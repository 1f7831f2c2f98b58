/** Delegation receipts (docs/delegation.md): read, verify a chain, authorise one tool call. */
export { authorize } from './authorize.js';
export { capabilityCovered, grants, matchCapability, validateCapability } from './capability.js';
export { DELEGATION_LIMITATIONS, verifyDelegationChain, type VerifyChainOptions } from './chain.js';
export { didKeyOf, MAX_RECEIPT_TTL_SECONDS, mintReceipt, type MintedReceipt, type MintOptions } from './mint.js';
export { chainId, isReceipt, readReceipt, readReceiptClaims, receiptDigest, type Receipt, type ReceiptFailure } from './receipt.js';
export * from './types.js';
