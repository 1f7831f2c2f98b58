/**
 * The storage the Runtime carries (`runtime.store`): one repository per table group, each
 * contract owned by its domain (history/store.ts, delegation/store.ts, mcp/store.ts,
 * monitoring/store.ts and customer-store.ts, claims/store.ts, accounts/store.ts, webvh/store.ts). Implemented in
 * src/store on SQLite (better-sqlite3, the embedded default) and PostgreSQL (several daemon
 * replicas on one database); the core never imports a driver.
 *
 * Every method of every repository returns a Promise: a backend reached over the network cannot
 * answer synchronously, and the SQLite one simply resolves with what it read or wrote.
 * Implementations must be safe under concurrent callers in one process: each call is
 * self-contained (no state carried between calls, no transaction left open across an await), and
 * a multi-step write — record()'s read of the latest row, coalescing or eviction, and insert — is
 * one transaction inside the implementation, so two calls in flight never interleave within it.
 */
import type { AccountStore } from './accounts/store.js';
import type { ClaimStore } from './claims/store.js';
import type { DelegationChainStore } from './delegation/store.js';
import type { ObservationStore } from './history/store.js';
import type { McpObservationStore } from './mcp/store.js';
import type { CustomerMonitorStore } from './monitoring/customer-store.js';
import type { MonitorEventStore, WatchStore } from './monitoring/store.js';
import type { KeptLogStore } from './webvh/store.js';

/** Storage the Runtime offers the core (the schema: docs/history.md#the-schema). */
export interface RuntimeStore {
  readonly storage: 'file' | 'memory' | 'postgres';
  readonly observations: ObservationStore;
  /** Delegation chains registered through verify-delegation `register: true`. */
  readonly delegationChains: DelegationChainStore;
  /** MCP inventories by endpoint, for drift. */
  readonly mcpObservations: McpObservationStore;
  /** Operator watches. */
  readonly watches: WatchStore;
  /** Monitor events and their delivery state. */
  readonly monitorEvents: MonitorEventStore;
  /** Proofs of control, their challenges, and the opt-in directory. */
  readonly claims: ClaimStore;
  /** Owner accounts: tenants, projects, owners, project keys, usage, sessions, sign-in challenges. */
  readonly accounts: AccountStore;
  /** Customer monitoring: project watches, their events, webhooks and deliveries, scheduled attempts. */
  readonly customerMonitor: CustomerMonitorStore;
  /** Kept did:webvh logs, compared with each later log (webvh/store.ts). */
  readonly keptLogs: KeptLogStore;
}
