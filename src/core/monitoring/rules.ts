/**
 * The operator monitoring rules that are not about one check or one delivery: the limits of
 * watches and events and the retention preview (how a cutoff is read, what is never counted).
 * The routes and the poller read them from here.
 */
import { ProblemError } from '../problems.js';
import { rfc3339 } from '../runtime.js';
import { INSTANT_MAX_MS, readInstant } from '../storable.js';

/** Stored watches at most; the 501st registration is refused. */
export const WATCH_LIMIT = 500;
/** Stored events at most, terminal ones included. */
export const EVENT_LIMIT = 10_000;
/** Largest serialised event payload. */
export const EVENT_PAYLOAD_LIMIT_BYTES = 256 * 1024;

/**
 * A retention cutoff: an RFC 3339 date-time (upper-case T and Z, seconds required, an optional
 * fraction, Z or ±hh:mm) normalised to UTC at whole seconds as the schema stores timestamps
 * (`YYYY-MM-DDTHH:MM:SSZ`). A fraction rounds up to the next second, so that "strictly before the
 * cutoff" compared as text keeps its meaning: a row at …:00Z is before …:00.5Z, and before
 * …:01Z. null for anything else (an impossible date, a leap second, an instant outside the range
 * every request is held to: core/storable.ts, years 0000–9999).
 */
export function retentionCutoff(raw: string): string | null {
  const instant = readInstant(raw);
  if (instant === null) return null;
  const ms = Math.floor(instant.ms / 1000) * 1000 + (instant.subSecond ? 1_000 : 0);
  return ms > INSTANT_MAX_MS ? null : rfc3339(new Date(ms));
}

export const PRESERVATION_RULES = [
  'The latest observation of every DID is kept, however old.',
  'The latest MCP inventory observation of every endpoint is kept, however old.',
  'An observation or MCP observation seen again at or after the cutoff (last seen not before it) is kept.',
  'A row whose timestamps are not in the stored UTC form (YYYY-MM-DDTHH:MM:SSZ) is kept.',
  'Monitor events still to be delivered (PENDING, DELIVERING, RETRY) and dead-lettered events (DEAD_LETTER) are kept.',
  'A monitor event with a delivery claim (a lease) is kept, whatever its status.',
  'Only DELIVERED or CANCELLED monitor events without a claim, created strictly before the cutoff, are counted.',
  'A row counts only when its time is strictly before the cutoff: a row exactly at the cutoff is kept.',
];

export const RETENTION_LIMITATIONS =
  'A preview only: nothing is deleted, and no cleanup runs from this route. The counts are read in one snapshot and can change before any cleanup (new observations, deliveries, claims); they name no row.';

/** The CONFLICT of a replay of an event (or an owner's delivery) that is not DEAD_LETTER or CANCELLED. */
export function notReplayable(id: string, status: string, what: 'events' | 'deliveries'): ProblemError {
  const why = status === 'DELIVERED' ? 'the receiver already acknowledged it' : 'it is still being delivered: wait for it to settle';
  return new ProblemError('CONFLICT', `${id} is ${status}; only DEAD_LETTER or CANCELLED ${what} can be replayed (${why}).`);
}
