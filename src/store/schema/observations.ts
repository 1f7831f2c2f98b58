/**
 * Observation history (docs/history.md#observations) on both engines: the row a read returns with
 * its document, the hash-prefix range, and the LIMIT rule every repository applies. The
 * repositories: sqlite/observations.ts, postgres/observations.ts.
 */
import type { Observation, StoredObservation } from '../../core/history/store.js';
import type { DidDocument } from '../../core/resolve/types.js';

export type StoredRow = Observation & { document: string };

export function withDocument(row: StoredRow): StoredObservation {
  return { ...row, document: JSON.parse(row.document) as DidDocument };
}

const HEX_PREFIX = /^[0-9a-f]{0,64}$/;

/**
 * The bounds of an index range over document hashes that start with `prefix` (lower-case hex):
 * [prefix, prefix + 'g'), as 'g' sorts after every hex digit; the exact substr() test beside it
 * in the queries keeps the answer right whatever a collation makes of the range.
 */
export function hashRange(prefix: string): [string, string] | null {
  return HEX_PREFIX.test(prefix) ? [prefix, `${prefix}g`] : null;
}

/** Distinct hashes of rows given newest first, in that order. */
export function distinctHashes(rows: readonly { documentHash: string }[]): string[] {
  return [...new Set(rows.map((row) => row.documentHash))];
}

/** SQLite reads LIMIT -1 as "no limit"; the interface means "at most", so negatives are 0. */
export function limitOf(limit: number): number {
  return Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
}
