/**
 * What a request may hand to storage, on both engines (no 500 from content). The
 * daemon's schemas apply these rules at the edge (server/compilers.ts), so that a value either
 * engine would refuse — PostgreSQL's text refuses NUL, UTF-8 has no form for a lone surrogate,
 * and an instant beyond year 9999 or before year 0 has no RFC 3339 form svc writes, nor a
 * timestamptz, nor a stored text that compares in time order — is answered as a precise 400 (or,
 * for an id in a path, the 404 of an id that does not exist) rather than failing inside a store.
 *
 * - Instants: RFC 3339 date-times (upper-case T and Z, seconds required, an optional fraction,
 *   Z or ±hh:mm; no leap second) of a real calendar day, from 0000-01-01T00:00:00Z to
 *   9999-12-31T23:59:59.999Z once the offset is applied: finite epoch milliseconds that JS Date,
 *   SQLite's REAL/INTEGER, PostgreSQL's bigint and timestamptz all hold, whose stored text
 *   (YYYY-MM-DDTHH:MM:SSZ) sorts as time does.
 * - Text: no NUL (U+0000) and no lone surrogate.
 */

/** The first instant a request may name: 0000-01-01T00:00:00Z. */
export const INSTANT_MIN_MS = -62_167_219_200_000;
/** The last: 9999-12-31T23:59:59.999Z. */
export const INSTANT_MAX_MS = 253_402_300_799_999;
/** The range as the problems and the documentation say it. */
export const INSTANT_RANGE = '0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z';

const RFC3339 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/;

export interface Instant {
  /** Epoch milliseconds (a fraction beyond milliseconds is cut). */
  ms: number;
  /** Whether the text named a fraction of a second that is not zero. */
  subSecond: boolean;
}

/** The instant an RFC 3339 date-time names within the range, or null (see the module comment). */
export function readInstant(text: string): Instant | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const zone = m[8]!;
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
  const fraction = m[7];
  const ms = date.getTime() + (fraction === undefined ? 0 : Math.floor(Number(`0${fraction}`) * 1000)) - offsetMinutes * 60_000;
  if (!(ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS)) return null;
  return { ms, subSecond: fraction !== undefined && /[1-9]/.test(fraction) };
}

/** Epoch milliseconds of an RFC 3339 date-time within the range, or null. */
export function parseInstant(text: string): number | null {
  return readInstant(text)?.ms ?? null;
}

/**
 * The JSON Schema pattern of text both engines store (ECMAScript with the u flag, as Ajv runs it:
 * a surrogate pair is one code point outside the class, so only a lone surrogate is refused).
 */
export const STORED_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;

/** Whether both engines can hold `text` (no NUL, no lone surrogate). */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** What a refused text holds, for a problem's detail. */
export const UNSTORABLE_TEXT = 'a NUL character or a lone surrogate, which svc never stores';
