/**
 * Registered delegation chains (docs/delegation.md#the-registry) on both engines: the row, the
 * shares' check, the dry run of registerWithin. The repositories: sqlite/delegation-chains.ts,
 * postgres/delegation-chains.ts.
 */
import type { ChainAdmission, RegistryShares, StoredDelegationChain } from '../../core/delegation/store.js';

export type ChainRow = Omit<StoredDelegationChain, 'chain' | 'client'> & { chain: string; client: string | null };

/** A registration displaced to make room (registerWithin). */
export type DisplacedRow = Pick<StoredDelegationChain, 'id' | 'rootDid' | 'leafDid'> & { client: string | null };

/** Thrown inside a dry run's transaction so that it rolls back; never escapes registerWithin. */
export class DryRun {
  constructor(readonly admission: ChainAdmission) {}
}

/** RangeError unless each share is a whole number, 1 or more (a NaN would make every comparison false). */
export function checkShares(shares: RegistryShares): void {
  for (const [name, value] of Object.entries(shares)) {
    if (!(Number.isSafeInteger(value) && value >= 1)) throw new RangeError(`the registry share ${name} must be a whole number, 1 or more`);
  }
}

/** The stored JSON array back as receipts; a row whose text is not an array of strings reads as []. */
export function withChain(row: ChainRow): StoredDelegationChain {
  let chain: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.chain);
    if (Array.isArray(parsed) && parsed.every((r) => typeof r === 'string')) chain = parsed as string[];
  } catch {
    // json_valid() in the table's CHECK makes this unreachable; an empty chain never verifies.
  }
  return { ...row, chain };
}
