/**
 * How much of a did:webvh log svc takes on: at most `maxEntries` entries and `maxBytes` bytes.
 *
 * Verifying a log costs work for every entry (strict JSON, two RFC 8785 serialisations and
 * hashes, parameters, an Ed25519 signature): some 0.2 ms each, so a 6,500-entry log a hostile
 * host serves for free cost 1.4 s of CPU per uncached resolution. The spec sets no bound; real
 * logs are short — every did:webvh log in svc's real-world fixtures has one or two entries, and
 * ten years of monthly key rotation with witnesses is 120 entries and ~200 KB (didwebvh.info
 * performance notes). So the defaults, 1,000 entries and 4 MiB, leave room for eight decades of
 * monthly updates, or three years of daily ones, and bound an uncached resolution to ~0.2 s.
 *
 * Beyond a bound the answer is PAYLOAD_TOO_LARGE (a fetched resource over its size limit,
 * 413), naming the bound and its setting. Not INVALID_DID_DOCUMENT: nothing was found
 * wrong with the log, svc declines to read that much of it, and an operator can raise the bound;
 * and not a service problem (503): the same log fails again, so it must not invite retries.
 * The entry count is read from the bytes before any entry is parsed, so refusing a long log
 * costs a scan for newlines, not its verification.
 */
import { ProblemError } from '../problems.js';

/** Default bound on the entries of a did:webvh log (SVC_WEBVH_MAX_ENTRIES). */
export const DEFAULT_WEBVH_MAX_ENTRIES = 1000;
/** Default bound on the bytes of a did:webvh log (SVC_WEBVH_MAX_BYTES): 4 MiB. */
export const DEFAULT_WEBVH_MAX_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * The number of entries (JSON Lines) in `body`, counted as verifyLogEntries splits them — a
 * final newline ends the last line rather than starting one — but only up to `limit + 1`: the
 * scan stops as soon as the log is known to be over the bound. A newline byte never occurs
 * inside a UTF-8 sequence, so the bytes are counted before they are decoded.
 */
export function countLogEntries(body: Uint8Array, limit: number): number {
  let count = 0;
  let from = 0;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  while (count <= limit) {
    const at = bytes.indexOf(NEWLINE, from);
    if (at < 0) return from < bytes.length ? count + 1 : count;
    count++;
    from = at + 1;
  }
  return count;
}

/** Throws PAYLOAD_TOO_LARGE, naming the bound and its setting, when the log at `url` has more than `maxEntries` entries. */
export function requireLogWithinEntries(body: Uint8Array, maxEntries: number, url: string): void {
  if (countLogEntries(body, maxEntries) > maxEntries) {
    throw new ProblemError(
      'PAYLOAD_TOO_LARGE',
      `The DID log at ${url} has more than ${maxEntries} entries; svc verifies at most ${maxEntries} (SVC_WEBVH_MAX_ENTRIES), so none was verified.`,
    );
  }
}
