/**
 * Document hash prefixes, as git abbreviates object names: `svc diff --from 3f9a0c1e` (and
 * `/v1/diff?from=3f9a0c1e`) names the observation whose document hash starts with those
 * characters, when exactly one distinct hash of that DID's history does.
 *
 * A document hash is the RFC 8785 SHA-256 of the document written as 64 lower-case hex
 * characters, with no algorithm label (`evidence.document.jcsSha256`); a prefix is the first 8
 * to 64 of those characters. Eight is the floor (32 bits: a collision among one DID's
 * observations is then an accident, never the everyday case); `svc history` shows 12, more when
 * 12 would not tell two of the DID's hashes apart. Prefixes are matched within one DID only,
 * and a prefix two distinct hashes share is refused, never resolved to the newer one.
 */
import { ProblemError } from '../problems.js';
import type { RuntimeStore } from '../runtime-store.js';
import { MIN_HASH_PREFIX, SHOWN_HASH_PREFIX } from './types.js';

export { MIN_HASH_PREFIX, SHOWN_HASH_PREFIX };

/** A whole document hash. */
export const HASH_LENGTH = 64;

const HEX_RE = /^[0-9a-f]*$/;

export type HashOption = 'from' | 'to';

/**
 * Checks the syntax of a `from` / `to` value: a whole hash or a prefix of at least 8 lower-case
 * hex characters. INVALID_OPTIONS otherwise, saying which rule the value breaks.
 */
export function checkHashPrefix(name: HashOption, value: string): void {
  if (!HEX_RE.test(value) || value.length > HASH_LENGTH) {
    throw new ProblemError(
      'INVALID_OPTIONS',
      `"${name}" must be a document hash (${HASH_LENGTH} lower-case hexadecimal characters) or a unique prefix of one (at least ${MIN_HASH_PREFIX}).`,
    );
  }
  if (value.length < MIN_HASH_PREFIX) {
    throw new ProblemError(
      'INVALID_OPTIONS',
      `"${name}" is too short: a document hash prefix needs at least ${MIN_HASH_PREFIX} hexadecimal characters (${value.length} given).`,
    );
  }
}

/**
 * The distinct document hashes of the DID's history, newest first (rows without documents:
 * what `svc history` needs to choose a prefix length that tells all of them apart).
 */
export async function documentHashes(store: RuntimeStore, did: string): Promise<string[]> {
  const { observations } = store;
  const rows = await observations.list(did, await observations.count(did));
  return [...new Set(rows.map((row) => row.documentHash))];
}

/**
 * The prefix length `svc history` prints for the DID: uniquePrefixLength over every distinct
 * hash of its history, without reading them all. The store walks its hash index for the first
 * SHOWN_HASH_PREFIX characters of each; only hashes that share those with a neighbour (almost
 * never: 48 bits) are read whole, and only they can make the length longer.
 */
export async function historyPrefixLength(store: RuntimeStore, did: string): Promise<number> {
  const prefixes = await store.observations.hashPrefixes(did, SHOWN_HASH_PREFIX);
  const shared = new Set<string>();
  for (let i = 1; i < prefixes.length; i++) if (prefixes[i] === prefixes[i - 1]) shared.add(prefixes[i]!);
  if (shared.size === 0) return SHOWN_HASH_PREFIX;
  const clashing = await Promise.all([...shared].map((prefix) => store.observations.hashesWithPrefix(did, prefix)));
  return uniquePrefixLength(clashing.flat());
}

/**
 * The whole document hash a checked `value` names for the DID: the value itself when it is whole
 * (whether it was observed is the caller's lookup), else the one distinct hash of the DID's
 * history it starts. NOT_FOUND when none does; INVALID_OPTIONS naming how many when several do
 * (each a rejection, as is a value that fails checkHashPrefix).
 */
export async function expandHashPrefix(store: RuntimeStore, did: string, name: HashOption, value: string): Promise<string> {
  checkHashPrefix(name, value);
  if (value.length === HASH_LENGTH) return value;
  // An index range over the DID's hashes: no other row, and no document, is read.
  const matches = await store.observations.hashesWithPrefix(did, value);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new ProblemError('NOT_FOUND', `No document hash observed for ${did} starts with the "${name}" prefix ${value}.`);
  }
  const length = uniquePrefixLength(matches, value.length + 1);
  const shown = matches.slice(0, 5).map((hash) => hash.slice(0, length));
  const more = matches.length > shown.length ? ` and ${matches.length - shown.length} more` : '';
  throw new ProblemError(
    'INVALID_OPTIONS',
    `The "${name}" prefix ${value} is ambiguous: ${matches.length} document hashes observed for ${did} start with it (${shown.join(', ')}${more}); give more characters.`,
  );
}

/**
 * The fewest characters, at least `min`, at which the given hashes all differ: the prefix length
 * `svc history` prints, so that each printed prefix names one hash. Duplicates are ignored.
 */
export function uniquePrefixLength(hashes: readonly string[], min: number = SHOWN_HASH_PREFIX): number {
  const sorted = [...new Set(hashes)].sort();
  let length = Math.min(Math.max(min, 1), HASH_LENGTH);
  // Neighbours in sorted order share the longest prefixes; one past their common part tells them apart.
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    let common = 0;
    while (common < a.length && a[common] === b[common]) common++;
    length = Math.max(length, Math.min(common + 1, HASH_LENGTH));
  }
  return length;
}
