/**
 * The operator monitoring rules that are not about one check or one delivery: the limits of
 * SPEC §8 and the retention preview of §4.18 (how a cutoff is read, what is never counted).
 * The routes and the poller read them from here.
 */

/** Stored watches at most (SPEC §8); the 501st registration is refused. */
export const WATCH_LIMIT = 500;
/** Stored events at most, terminal ones included (SPEC §8). */
export const EVENT_LIMIT = 10_000;
/** Largest serialised event payload (SPEC §8). */
export const EVENT_PAYLOAD_LIMIT_BYTES = 256 * 1024;

const RFC3339 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/;

/**
 * A retention cutoff: an RFC 3339 date-time (upper-case T and Z, seconds required, an optional
 * fraction, Z or ±hh:mm) normalised to UTC at whole seconds as the schema stores timestamps
 * (`YYYY-MM-DDTHH:MM:SSZ`). A fraction rounds up to the next second, so that "strictly before the
 * cutoff" compared as text keeps its meaning: a row at …:00Z is before …:00.5Z, and before
 * …:01Z. null for anything else (an impossible date, a leap second, a year outside 0000–9999).
 */
export function retentionCutoff(raw: string): string | null {
  const m = RFC3339.exec(raw);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = m[7];
  const zone = m[8]!;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  date.setUTCHours(hour, minute, second, 0);
  const roundUp = fraction !== undefined && /[1-9]/.test(fraction) ? 1_000 : 0;
  const utc = new Date(date.getTime() - offsetMinutes * 60_000 + roundUp);
  const y = utc.getUTCFullYear();
  if (y < 0 || y > 9999) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${two(utc.getUTCMonth() + 1)}-${two(utc.getUTCDate())}T${two(utc.getUTCHours())}:${two(utc.getUTCMinutes())}:${two(utc.getUTCSeconds())}Z`;
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

