/**
 * The MCP inventory history an inspection read and wrote, kept in its bundle. An MCP inspection's
 * drift and history checks rest on the local store — the last stored inventory of the endpoint,
 * and what storing this one answered — not on the network, so a bundle keeps that exchange as an
 * input (`mcp-history`, JSON) beside the fetched bytes, and the re-run reads it back from there:
 * the same drift, the same history check, nothing written anywhere.
 */
import { canonicalize } from '../canonical.js';
import { isJsonObject, parseJsonStrict, type JsonValue } from '../encoding/json.js';
import type { Recorded } from '../history/store.js';
import type { McpObservationStore, McpSnapshot, NewMcpSnapshot } from '../mcp/store.js';
import { ProblemError } from '../problems.js';
import type { RuntimeStore } from '../runtime-store.js';

/** The name of the input that holds it. */
export const MCP_HISTORY_INPUT = 'mcp-history';

/** What the inspection's store answered: the latest snapshot it read, and what recording the new one gave. */
export interface McpHistoryRecord {
  /** The endpoint's latest stored inventory (null: none, or the store could not be read). */
  latest: McpSnapshot | null;
  /** What recording this inventory answered; `{ failed }` when the write failed; null when nothing was recorded. */
  recorded: Recorded<McpSnapshot> | { failed: true } | null;
}

/** Keeps what the inspection's `mcpObservations` answered; every other repository is the store's own. */
export class McpHistoryRecorder {
  readonly record: McpHistoryRecord = { latest: null, recorded: null };

  /** `store` with its MCP repository recorded. */
  wrap(store: RuntimeStore): RuntimeStore {
    const inner = store.mcpObservations;
    const kept = this.record;
    const observations: McpObservationStore = {
      async latest(endpoint: string) {
        const snapshot = await inner.latest(endpoint);
        kept.latest = snapshot ?? null;
        return snapshot;
      },
      async record(snapshot: NewMcpSnapshot) {
        try {
          const answer = await inner.record(snapshot);
          kept.recorded = answer;
          return answer;
        } catch (err) {
          kept.recorded = { failed: true };
          throw err;
        }
      },
    };
    return new Proxy(store, { get: (target, name) => (name === 'mcpObservations' ? observations : Reflect.get(target, name, target)) });
  }

  /** The input's bytes: the canonical JSON of what was read and written. */
  bytes(): Uint8Array {
    // Through JSON first: a snapshot's absent kinds are undefined members, which JSON leaves out.
    return new TextEncoder().encode(canonicalize(JSON.parse(JSON.stringify(this.record)) as JsonValue));
  }
}

/**
 * A store that answers the inspection's history as recorded (`bytes`: the `mcp-history` input),
 * and has nothing else: an MCP inspection reads no other repository.
 */
export function replayMcpStore(bytes: Uint8Array): RuntimeStore {
  let value: JsonValue;
  try {
    value = parseJsonStrict(new TextDecoder().decode(bytes), { maxDepth: 120 });
  } catch {
    value = null;
  }
  if (!isJsonObject(value)) throw new ProblemError('INVALID_BUNDLE', `The bundle's ${MCP_HISTORY_INPUT} input is not the JSON object svc writes.`);
  const record = value as unknown as McpHistoryRecord;
  const mcpObservations: McpObservationStore = {
    latest: async () => record.latest ?? undefined,
    async record() {
      const recorded = record.recorded;
      if (recorded === null || recorded === undefined || 'failed' in recorded) throw new Error('The inventory was not stored when the bundle was made.');
      return recorded;
    },
  };
  return { storage: 'memory', mcpObservations } as unknown as RuntimeStore;
}
