/**
 * A customer monitor event as a webhook delivery (docs/daemon.md#customer-monitoring, "Delivery"):
 * svc's own design.
 *
 * - Event types are the operator's: identity.* for DIDs (identity.history.rewritten concerns
 *   did:webvh, which a project cannot watch), mcp.* and a2a.* for MCP endpoints and agent cards,
 *   tls.* for certificates.
 * - The body is the CustomerEvent's JSON, members in a fixed order:
 *   `{id: "evt_<n>", type, projectId, watchId: "wch_<n>", did, createdAt, data}` — `mcpEndpoint` or
 *   `a2aCard` in place of `did` for those watches (a DID watch's bytes are as they always were); the
 *   project and watch are named so that a receiver binds the event to its owner before trusting it.
 * - Headers: `X-SVC-Event-ID: evt_<n>` and `X-SVC-Signature: t=<creationTime>,v1=<hex>`, where
 *   `t` is the event's creation time in unix seconds and the hex is HMAC-SHA256, keyed with the
 *   webhook secret's UTF-8 bytes, over `<t>.<exact UTF-8 body>`.
 * - Body and signature are made once, when the event is written, and stored: every retry sends the
 *   same bytes, id and signature (so receivers verify with a window wider than the retry schedule:
 *   the clients' 1800 s).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { ProblemError } from '../problems.js';
import type { CustomerEvent } from './customer-store.js';
import type { WatchKind } from './store.js';

/** The delivery body (JSON, fixed member order). */
export function customerBody(event: CustomerEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    projectId: event.projectId,
    watchId: event.watchId,
    ...subjectOf(event),
    createdAt: event.createdAt,
    data: event.data,
  });
}

/** The member naming the event's subject (did, mcpEndpoint or a2aCard), as the event has it. */
function subjectOf(event: CustomerEvent): Record<string, string> {
  if (event.mcpEndpoint !== undefined) return { mcpEndpoint: event.mcpEndpoint };
  if (event.a2aCard !== undefined) return { a2aCard: event.a2aCard };
  return { did: event.did ?? '' };
}

/** A project watch's or event's subject member from its kind and the stored subject (did watches: `did`, as always). */
export function subjectMembers(kind: WatchKind, subject: string): { did: string } | { mcpEndpoint: string } | { a2aCard: string } {
  return kind === 'mcp' ? { mcpEndpoint: subject } : kind === 'a2a' ? { a2aCard: subject } : { did: subject };
}

/** Unix seconds of an RFC 3339 instant. */
export function unixSeconds(rfc3339: string): number {
  return Math.floor(Date.parse(rfc3339) / 1000);
}

/** The X-SVC-Signature value: `t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function customerSignature(secret: string, t: number, body: string): string {
  const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${hex}`;
}

/** The stored body and signature of the event's delivery (a SealDelivery). */
export function sealCustomerDelivery(event: CustomerEvent, secret: string): { body: string; signature: string } {
  const body = customerBody(event);
  return { body, signature: customerSignature(secret, unixSeconds(event.createdAt), body) };
}

/** The headers of every attempt of a stored delivery (lower-case names). */
export function customerHeaders(eventId: string, signature: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-svc-event-id': eventId, 'x-svc-signature': signature };
}

/** A new webhook secret: `whsec_` and 32 random bytes in base64url (shown once, kept to sign). */
export function customerWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Public ids of the rows: `wch_<n>`, `evt_<n>`, `whk_<n>`. */
export const watchPublicId = (n: number): string => `wch_${n}`;
export const eventPublicId = (n: number): string => `evt_${n}`;
export const webhookPublicId = (n: number): string => `whk_${n}`;

/** The row number of a public id with that prefix (`wch_12` → 12), or null: not one of ours. */
export function rowOf(prefix: 'wch' | 'evt' | 'whk', id: string): number | null {
  const m = new RegExp(`^${prefix}_([1-9][0-9]{0,14})$`).exec(id);
  return m === null ? null : Number(m[1]);
}

/** The DID methods a project may watch: key, jwk, web. */
export const WATCHABLE_METHODS: ReadonlySet<string> = new Set(['key', 'jwk', 'web']);

/** INVALID_REQUEST naming the methods, unless a project may watch `did` (a parsed DID of a method svc resolves). */
export function requireWatchable(did: string): void {
  const method = did.split(':', 2)[1]!;
  if (!WATCHABLE_METHODS.has(method))
    throw new ProblemError('INVALID_REQUEST', `A project can watch did:key, did:jwk and did:web identifiers, not did:${method}.`);
}
