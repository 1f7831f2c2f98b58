/**
 * The storage contracts the core offers the shells, gathered in one place: an index of
 * re-exports only. Each contract lives in its domain (history/store.ts, delegation/store.ts,
 * mcp/store.ts, monitoring/store.ts, monitoring/customer-store.ts, claims/store.ts,
 * accounts/store.ts, webvh/store.ts, resolve/cache-store.ts, pending.ts), the composite in runtime-store.ts.
 * Modules inside src/core import the domain files, never this index.
 */
export type { NewObservation, Observation, ObservationStore, Recorded, StoredObservation } from './history/store.js';
export type { ChainAdmission, DelegationChainStore, RegistryShares, StoredDelegationChain } from './delegation/store.js';
export type { AppendKeptLog, KeptLog, KeptLogEntry, KeptLogStore, KeptLogText, LogRewrite, NewKeptLogEntry } from './webvh/store.js';
export type { McpObservationStore, McpSnapshot, McpSnapshotItem, McpSnapshotTool, NewMcpSnapshot } from './mcp/store.js';
export type {
  CheckOutcome,
  DeliveryAttempt,
  DeliveryClaim,
  DeliveryResult,
  DeliveryStatus,
  MonitorEvent,
  MonitorEventStore,
  MonitorEventType,
  MonitoringGauges,
  NewWatch,
  PlannedEvent,
  RecordCheck,
  RecordedCheck,
  RetentionCandidates,
  TlsState,
  Watch,
  WatchCheckInput,
  WatchKind,
  WatchStore,
} from './monitoring/store.js';
export {
  CUSTOMER_MONITOR_LIMITS,
  type CustomerCheckClaim,
  type CustomerDeliveryClaim,
  type CustomerDeliveryMetadata,
  type CustomerEvent,
  type CustomerMonitorStore,
  type CustomerWebhookConfig,
  type EventPage,
  type EventPageQuery,
  type ProjectWatch,
  type ScheduledUsage,
  type SealDelivery,
  type WatchReport,
} from './monitoring/customer-store.js';
export type { ClaimMethod, ClaimPurpose } from './claims/types.js';
export type { PendingLimits, PendingRefusal, PendingShare } from './pending.js';
export type {
  ChallengeAttempt,
  ChallengeRefusal,
  ClaimChallenge,
  ClaimStore,
  DirectoryEntry,
  DirectoryPage,
  DirectoryQuery,
  NewClaimChallenge,
  NewProof,
  RecheckResult,
  RecordedProof,
  StoredClaim,
} from './claims/store.js';
export {
  PROJECT_KEY_LIMITS,
  SIGN_IN_CHALLENGE_LIMIT,
  SIGN_IN_PENDING_LIMITS,
  type AccountStore,
  type ApiKeyMetadata,
  type ApiKeyStatus,
  type Invoice,
  type KeyPrincipal,
  type LedgerEntry,
  type NewApiKey,
  type NewOwnerSession,
  type NewPlan,
  type NewSignInChallenge,
  type OwnerSession,
  type Plan,
  type Project,
  type Subscription,
  type Tenant,
  type TenantBilling,
  type UsageRow,
} from './accounts/store.js';
export type { RuntimeStore } from './runtime-store.js';
export type { SharedResolutionCache } from './resolve/cache-store.js';
