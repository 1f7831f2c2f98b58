/**
 * One check of an MCP or A2A watch, without I/O (docs/daemon.md#operator-monitoring): the
 * snapshot an inspection leaves as the watch's baseline, and the events a new snapshot means
 * against the watch's baselines.
 *
 * - The snapshot is the entry form of the approved baseline files: for MCP the server entry of an
 *   svc-mcp-baseline (core/mcp/baseline.ts: target, serverInfo, instructions, tools, prompts,
 *   resources, resourceTemplates, each item its definition and fingerprint), for A2A the agent
 *   entry of an svc-a2a-baseline (core/a2a/baseline.ts: cardUrl, the card without signatures, its
 *   canonical hash, the signing keys) and one more member, `signatureStatus` (the inspection's
 *   signature check: PASS, WARN, FAIL or SKIP; null for an uploaded baseline, which does not say).
 *   An uploaded baseline's entry is stored in the same form, so the first check compares with it.
 * - The first check of a watch without an uploaded baseline establishes it and emits nothing.
 * - A failure emits `mcp.inspection.failed` / `a2a.inspection.failed` once (not again while it
 *   keeps failing); the first success after it emits `…inspection.recovered`.
 * - Changes are measured against the last good snapshot (not the last check), so a change made
 *   while the endpoint was down is reported when it comes back: `mcp.inventory.changed` names each
 *   item added, removed or changed (with the members that differ) and the server's own words that
 *   changed; `a2a.card.changed` names the skills, interfaces and signing keys added, removed or
 *   changed, the card's other members that changed, and the signature status before and after (a
 *   change of it counts only when the earlier snapshot knew it).
 */
import { a2aEntryDifferences, type A2aBaselineAgent } from '../a2a/baseline.js';
import type { A2aItemChanges } from '../a2a/types.js';
import { HASH_PROFILE, jcsSha256 } from '../canonical.js';
import type { JsonObject } from '../encoding/json.js';
import { compareWithBaseline, type McpBaselineServer } from '../mcp/baseline.js';
import { KINDS, type Kind } from '../mcp/drift.js';
import type { DidDocument } from '../resolve/types.js';
import type { CheckBaselines } from './check.js';
import type { CheckOutcome, MonitorEventType, PlannedEvent } from './store.js';

/** An A2A watch's snapshot: the baseline entry and the signature status of the inspection. */
export interface A2aSnapshot extends A2aBaselineAgent {
  signatureStatus: string | null;
}

/** What a target watch's snapshot is: an MCP server entry or an A2A agent entry. */
export type TargetSnapshot = McpBaselineServer | A2aSnapshot;

/** The outcome of a check whose inspection produced a snapshot (status RESOLVED; its hash is the snapshot's RFC 8785 SHA-256). */
export function snapshotOutcome(snapshot: TargetSnapshot, checkedAt: string): CheckOutcome {
  const document = snapshot as unknown as JsonObject;
  return {
    status: 'RESOLVED',
    documentHash: jcsSha256(document),
    fingerprintProfile: HASH_PROFILE,
    domainBindingStatus: null,
    // The baseline's document column holds any JSON object; a target's is its snapshot.
    document: document as unknown as DidDocument,
    problem: null,
    checkedAt,
    tls: null,
  };
}

/** An MCP item named in an event: its kind (singular) and key (a name, a URI, a URI template). */
export type McpItemKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
const SINGULAR: Readonly<Record<Kind, McpItemKind>> = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'resourceTemplate' };

export interface McpInventoryChanges {
  added: Array<{ kind: McpItemKind; name: string }>;
  removed: Array<{ kind: McpItemKind; name: string }>;
  changed: Array<{ kind: McpItemKind; name: string; fields: string[] }>;
  /** The server's own words that differ: `serverInfo.<member>`, `instructions`. */
  server: string[];
}

/** Two MCP snapshots compared item by item (core/mcp/baseline.ts's comparison, both complete). */
export function mcpChanges(then: McpBaselineServer, now: McpBaselineServer): McpInventoryChanges {
  const current = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      Object.entries(now[kind]).map(([key, item]) => ({ key, definition: item.definition, definitionSha256: item.definitionSha256 })),
    ]),
  ) as unknown as Parameters<typeof compareWithBaseline>[0];
  const complete = Object.fromEntries(KINDS.map((kind) => [kind, true])) as Record<Kind, boolean>;
  const server = { target: now.target, serverInfo: now.serverInfo, instructions: now.instructions };
  const drift = compareWithBaseline(current, server, { file: 'the baseline', name: then.target, entry: then }, complete);
  const out: McpInventoryChanges = { added: [], removed: [], changed: [], server: drift.inventory.baseline?.server ?? [] };
  for (const kind of KINDS) {
    const k = kind === 'tools' ? { added: drift.inventory.added, removed: drift.inventory.removed, changed: drift.inventory.changed } : drift.inventory[kind];
    for (const name of k.added) out.added.push({ kind: SINGULAR[kind], name });
    for (const name of k.removed) out.removed.push({ kind: SINGULAR[kind], name });
    for (const name of k.changed) out.changed.push({ kind: SINGULAR[kind], name, fields: drift.items[kind].get(name)?.changedFields ?? [] });
  }
  return out;
}

const q = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** One sentence naming what changed (the first few of each list). */
function listed<T>(items: readonly T[], verb: string, show: (item: T) => string): string | null {
  if (items.length === 0) return null;
  const shown = items.slice(0, 3).map(show).join(', ');
  return `${verb} ${shown}${items.length > 3 ? ` and ${items.length - 3} more` : ''}`;
}

function mcpHeadline(endpoint: string, c: McpInventoryChanges): string {
  const parts = [
    listed(c.added, 'added', (i) => `${i.kind} ${q(i.name)}`),
    listed(c.removed, 'removed', (i) => `${i.kind} ${q(i.name)}`),
    listed(c.changed, 'changed', (i) => `${i.kind} ${q(i.name)} (${i.fields.join(', ')})`),
    c.server.length > 0 ? `the server's own words changed (${c.server.join(', ')})` : null,
  ].filter((p): p is string => p !== null);
  return `The MCP server at ${endpoint} ${parts.join('; ')}.`;
}

export interface A2aCardChanges {
  skills: A2aItemChanges;
  interfaces: A2aItemChanges;
  signingKeys: A2aItemChanges;
  /** Top-level members of the card (skills apart, signatures never) that differ. */
  members: string[];
  /** null when unchanged (or the earlier snapshot did not know it). */
  signatureStatus: { from: string | null; to: string | null } | null;
}

/** Two A2A snapshots compared (core/a2a/baseline.ts's comparison). */
export function a2aChanges(then: A2aSnapshot, now: A2aSnapshot): A2aCardChanges {
  const d = a2aEntryDifferences(then, now);
  const statusChanged = then.signatureStatus !== null && then.signatureStatus !== now.signatureStatus;
  return { ...d, signatureStatus: statusChanged ? { from: then.signatureStatus, to: now.signatureStatus } : null };
}

function a2aChanged(c: A2aCardChanges): boolean {
  const any = (i: A2aItemChanges) => i.added.length + i.removed.length + i.changed.length > 0;
  return any(c.skills) || any(c.interfaces) || any(c.signingKeys) || c.members.length > 0 || c.signatureStatus !== null;
}

function a2aHeadline(card: string, c: A2aCardChanges): string {
  const parts: string[] = [];
  for (const [kind, noun] of [
    ['skills', 'skill'],
    ['interfaces', 'interface'],
    ['signingKeys', 'signing key'],
  ] as const) {
    const changes = c[kind];
    const p = [
      listed(changes.added, 'added', (k) => `${noun} ${q(k)}`),
      listed(changes.removed, 'removed', (k) => `${noun} ${q(k)}`),
      listed(changes.changed, 'changed', (k) => `${noun} ${q(k.key)} (${k.changedFields.join(', ')})`),
    ];
    parts.push(...p.filter((x): x is string => x !== null));
  }
  if (c.members.length > 0) parts.push(`card members changed (${c.members.join(', ')})`);
  if (c.signatureStatus !== null) parts.push(`the signature check went from ${c.signatureStatus.from} to ${c.signatureStatus.to}`);
  return `The agent card at ${card}: ${parts.join('; ')}.`;
}

/**
 * The events one check of an MCP (`kind` 'mcp') or A2A ('a2a') watch means, in a fixed order
 * (recovered before changed); none for the first check. `subject` is the endpoint or card URL.
 */
export function plannedTargetEvents(kind: 'mcp' | 'a2a', subject: string, baselines: CheckBaselines, next: CheckOutcome): PlannedEvent[] {
  const { previous, lastResolved } = baselines;
  if (previous === null) return [];
  const member = kind === 'mcp' ? 'endpoint' : 'card';
  const fromHash = lastResolved?.documentHash ?? null;
  if (next.status === 'FAILED') {
    if (previous.status === 'FAILED') return [];
    const data: JsonObject = { [member]: subject, fromHash, toHash: null, problem: next.problem, headline: null };
    return [{ type: `${kind}.inspection.failed` as MonitorEventType, data }];
  }
  const events: PlannedEvent[] = [];
  const toHash = next.documentHash;
  let headline: string | null = null;
  let changed: PlannedEvent | null = null;
  if (lastResolved !== null && lastResolved.document !== null && next.document !== null && lastResolved.documentHash !== toHash) {
    if (kind === 'mcp') {
      const c = mcpChanges(lastResolved.document as unknown as McpBaselineServer, next.document as unknown as McpBaselineServer);
      if (c.added.length + c.removed.length + c.changed.length + c.server.length > 0) {
        headline = mcpHeadline(subject, c);
        changed = { type: 'mcp.inventory.changed', data: { endpoint: subject, fromHash, toHash, ...c, headline } as unknown as JsonObject };
      }
    } else {
      const c = a2aChanges(lastResolved.document as unknown as A2aSnapshot, next.document as unknown as A2aSnapshot);
      if (a2aChanged(c)) {
        headline = a2aHeadline(subject, c);
        const signatureStatus = c.signatureStatus ?? {
          from: (lastResolved.document as unknown as A2aSnapshot).signatureStatus,
          to: (next.document as unknown as A2aSnapshot).signatureStatus,
        };
        changed = { type: 'a2a.card.changed', data: { card: subject, fromHash, toHash, ...c, signatureStatus, headline } as unknown as JsonObject };
      }
    }
  }
  if (previous.status === 'FAILED') {
    const recovered = headline ?? `The ${kind === 'mcp' ? 'MCP server' : 'agent card'} at ${subject} answers again, unchanged.`;
    events.push({
      type: `${kind}.inspection.recovered` as MonitorEventType,
      data: { [member]: subject, fromHash, toHash, problem: null, headline: recovered },
    });
  }
  if (changed !== null) events.push(changed);
  return events;
}
