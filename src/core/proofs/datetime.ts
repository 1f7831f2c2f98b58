/**
 * Date-time stamps of credentials and proofs: RFC 3339 / XML Schema `dateTimeStamp` with an
 * explicit offset (`Z` or ±hh:mm), as VC Data Model 2.0 requires and VC 1.1 issuers write in
 * practice. Parsed by hand because `Date.parse` rolls impossible dates over (2023-02-30 becomes
 * March 2) and accepts forms these documents must not use.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The last stamp read and its instant (NaN: not a stamp): a credential's `created` is read twice. */
let lastText: string | null = null;
let lastTime = Number.NaN;

/** The instant a date-time stamp denotes, or null when it is not a valid stamp with an offset. */
export function parseDateTime(text: string): Date | null {
  if (text !== lastText) {
    const date = readDateTime(text);
    lastText = text;
    lastTime = date === null ? Number.NaN : date.getTime();
  }
  return Number.isNaN(lastTime) ? null : new Date(lastTime);
}

function readDateTime(text: string): Date | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  // Every month has 28 days: only a later day needs the month's length.
  if (month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month))) return null;
  // A leap second (…:60) is read as the following instant, as RFC 3339 §5.6 permits.
  if (hour > 23 || minute > 59 || second > 60) return null;
  const fraction = m[7] ? Number(`0${m[7]}`) : 0;
  const zone = m[8]!;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(fraction * 1000) - offsetMinutes * 60_000;
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The instant of a JWT NumericDate (RFC 7519 §2), or null when it is not a usable number. */
export function numericDate(value: unknown): Date | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}
