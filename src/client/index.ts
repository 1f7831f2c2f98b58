/**
 * The API client of svc (`import { SvcClient } from 'svc-evidence/client'`): one method per
 * operation of openapi.json (the operator monitoring calls authenticated by the `adminToken`
 * option), SvcError, the retry helper, the DENY helpers of the agent routes, the SSE stream,
 * the webhook verifiers and the verifiers of signed results and evidence bundles. Self-contained (fetch, WebCrypto, TextDecoder): it runs in Node ≥ 20
 * and in browsers, imports no node: module and nothing else of svc.
 */
export { SvcClient } from './client.js';
export type {
  AuthorizeOrDenyRequest,
  DenyDecision,
  DiffOptions,
  DirectoryOptions,
  DossierPageOptions,
  FastVerifyJwsOptions,
  FetchedBundle,
  FetchLike,
  MonitorEventsOptions,
  NoCacheOptions,
  OwnerProject,
  OwnerSessionInfo,
  RequestOptions,
  ResolveOptions,
  ResolveW3cBody,
  ResolveW3cOptions,
  Signed,
  SignedIn,
  SignedOptions,
  SignInChallenge,
  StreamFrame,
  SvcClientOptions,
  VerifyCredentialOptions,
  VerifyPresentationOptions,
  VerifyPresentationVcApiOptions,
  VerifyToolOrDenyQuery,
  VerifyToolQuery,
  W3cBody,
  W3cRedirect,
} from './client.js';
export { SvcError, CLIENT_BAD_RESPONSE, CLIENT_NETWORK_ERROR, isProblem, type ClientErrorCode } from './errors.js';
export { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs, retryOptions, withRetry, type ResolvedRetryOptions, type RetryOptions } from './retry.js';
export { SseParser, parseSse, type SseEvent } from './sse.js';
// Signed results (docs/daemon.md#signed-results): the svc-signature header checked over a body;
// an evidence bundle's embedded signature (docs/evidence.md#evidence-bundles).
export {
  BUNDLE_SIGNATURE_TYP,
  SIGNATURE_HEADER,
  SIGNATURE_PROVES,
  verifyBundleSignature,
  verifyResultSignature,
  type ResultSignature,
  type SignatureFetch,
  type SignatureJwk,
  type SignatureKeyResolver,
  type SignatureReason,
  type VerifyResultOptions,
} from './signature.js';
export {
  CUSTOMER_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_TOLERANCE_SECONDS,
  verifyCustomerWebhook,
  verifyWebhook,
  type HeaderValue,
  type WebhookBytes,
  type WebhookHeaders,
  type WebhookVerifyOptions,
} from './webhooks.js';
// The generated types: paths, components, operations, and one alias per component schema
// (EnrichedResolution, CredentialVerification, Problem, TraceStage, …).
export type * from './openapi.js';
