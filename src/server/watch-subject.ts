/**
 * What a watch registration names (docs/daemon.md#operator-monitoring), for operator and project
 * watches alike: exactly one of `did`, `mcpEndpoint` (a Streamable HTTP MCP endpoint) or `a2aCard`
 * (an agent's origin or card URL, as svc a2a takes it), and for MCP and A2A an optional `baseline`
 * (an svc-mcp-baseline or svc-a2a-baseline document, as svc mcp approve / svc a2a approve write
 * it). The endpoint or card must pass the egress policy now (as every check will); a baseline
 * must parse and hold the entry approved from this subject, and becomes the watch's revision-0
 * baseline (what the first check compares with).
 */
import { a2aBaselineOf, agentFor } from '../core/a2a/baseline.js';
import { cardTarget } from '../core/a2a/fetch.js';
import { isJsonObject, type JsonValue } from '../core/encoding/json.js';
import { entryForTarget, mcpBaselineOf } from '../core/mcp/baseline.js';
import { parseEndpoint } from '../core/mcp/inspect.js';
import { snapshotOutcome } from '../core/monitoring/target-events.js';
import type { CheckOutcome, WatchKind } from '../core/monitoring/store.js';
import { ProblemError } from '../core/problems.js';
import type { Runtime } from '../core/runtime.js';

/** The members that name a watch's subject, in the order problems list them. */
export const SUBJECT_MEMBERS = ['did', 'mcpEndpoint', 'a2aCard'] as const;

const WHERE = 'The baseline';

/** The one subject member of a body; INVALID_REQUEST naming the members when there are none or several. */
export function subjectOf(body: Record<string, unknown>): { kind: WatchKind; value: string } {
  const present = SUBJECT_MEMBERS.filter((m) => body[m] !== undefined);
  if (present.length !== 1) {
    const has = present.length === 0 ? 'the body names none' : `the body names ${present.join(' and ')}`;
    throw new ProblemError('INVALID_REQUEST', `Name exactly one subject to watch: did, mcpEndpoint or a2aCard (${has}).`);
  }
  const member = present[0]!;
  const value = body[member];
  if (typeof value !== 'string' || value === '') throw new ProblemError('INVALID_REQUEST', `${member} must be a non-empty string.`);
  return { kind: member === 'did' ? 'did' : member === 'mcpEndpoint' ? 'mcp' : 'a2a', value };
}

/** An MCP or A2A subject checked (its URL as stored, the egress policy) with its uploaded baseline as the watch's revision 0. */
export async function targetSubject(
  runtime: Runtime,
  kind: 'mcp' | 'a2a',
  value: string,
  baseline: unknown,
  createdAt: string,
): Promise<{ subject: string; baseline?: CheckOutcome }> {
  if (baseline !== undefined && !isJsonObject(baseline as JsonValue))
    throw new ProblemError('INVALID_REQUEST', `${WHERE} must be a JSON object (the baseline file's content).`);
  if (kind === 'mcp') {
    const subject = parseEndpoint(value).href;
    // As an inspection: plain http only from an address the operator's allowance admits.
    await runtime.net.checkDestination(subject, 'MCP endpoint', { allowPlainHttp: true });
    if (baseline === undefined) return { subject };
    const parsed = mcpBaselineOf(baseline as JsonValue, WHERE);
    const { entry } = entryForTarget(parsed, subject, WHERE);
    return { subject, baseline: snapshotOutcome(entry, createdAt) };
  }
  const fetched = cardTarget(value).url.href;
  const url = new URL(value);
  url.hash = '';
  const subject = url.href;
  await runtime.net.checkDestination(fetched, 'agent card URL');
  if (baseline === undefined) return { subject };
  const parsed = a2aBaselineOf(baseline as JsonValue, WHERE);
  // The entry approved from the card's URL: the well-known card of an origin, or the URL given.
  const cardUrl = Object.values(parsed.agents).some((a) => a.cardUrl === fetched) ? fetched : subject;
  const { entry } = agentFor(parsed, cardUrl, WHERE);
  return { subject, baseline: snapshotOutcome({ ...entry, signatureStatus: null }, createdAt) };
}

/** INVALID_REQUEST when a DID watch's body carries a baseline (baselines are for MCP and A2A watches). */
export function noBaselineForDid(body: Record<string, unknown>): void {
  if (body['baseline'] !== undefined)
    throw new ProblemError('INVALID_REQUEST', 'baseline is for mcpEndpoint and a2aCard watches; a DID watch takes its first check as its baseline.');
}
