/**
 * The ledger of a verification's checks, shared by credentials (credentials/verify.ts) and
 * presentations (presentations/verify.ts): each check is recorded once with the status it
 * implies; a fatal failure stops the checks after it (they are reported SKIP, "not run"); the
 * overall status is the most severe status any check implies (STATUS_PRECEDENCE), else VALID.
 */
import type { Finding } from './binding.js';
import { STATUS_PRECEDENCE, type CheckStatus, type CredentialStatus } from './types.js';

export interface LedgerSpec<Id extends string> {
  /** Every check, in the order it is reported. */
  ids: readonly Id[];
  labels: Readonly<Record<Id, string>>;
  /** Checks whose failure stops the rest. */
  fatal: readonly Id[];
  /** The check that binds the key to its signer: only its FAIL stops the rest (an INDETERMINATE binding does not). */
  binding: Id;
}

interface CheckRecord<Id extends string> extends Finding {
  id: Id;
}

export class CheckLedger<Id extends string> {
  /**
   * Each check's record, in the order each was first set (a Map's order, without a Map: a
   * ledger holds a handful of checks, found by a short scan).
   */
  private readonly records: Array<CheckRecord<Id>> = [];
  private fatal: Id | null = null;

  constructor(private readonly spec: LedgerSpec<Id>) {}

  private record(id: Id): CheckRecord<Id> | undefined {
    const records = this.records;
    for (let i = 0; i < records.length; i++) if (records[i]!.id === id) return records[i];
    return undefined;
  }

  set(id: Id, finding: Finding): void {
    // The members a record is read for (a finding may carry more, e.g. signedDigest).
    const record = { id, status: finding.status, implies: finding.implies, detail: finding.detail };
    const records = this.records;
    let i = 0;
    while (i < records.length && records[i]!.id !== id) i++;
    records[i] = record;
    const stops = finding.status === 'FAIL' || (id !== this.spec.binding && (finding.status === 'UNSUPPORTED' || finding.status === 'INDETERMINATE'));
    if (stops && this.fatal === null && this.spec.fatal.includes(id)) this.fatal = id;
  }

  /** True once a fatal failure means no further check runs. */
  get stopped(): boolean {
    return this.fatal !== null;
  }

  /** The most severe status any record implies (the first in STATUS_PRECEDENCE), else VALID. */
  get status(): CredentialStatus {
    let worst = STATUS_PRECEDENCE.length;
    for (const record of this.records) {
      if (record.implies === null) continue;
      const rank = STATUS_PRECEDENCE.indexOf(record.implies);
      if (rank !== -1 && rank < worst) worst = rank;
    }
    return STATUS_PRECEDENCE[worst] ?? 'VALID';
  }

  checks(): Array<{ id: Id; label: string; status: CheckStatus; detail: string }> {
    const ids = this.spec.ids;
    const checks: Array<{ id: Id; label: string; status: CheckStatus; detail: string }> = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const label = this.spec.labels[id];
      const record = this.record(id);
      if (record) checks.push({ id, label, status: record.status, detail: record.detail });
      else checks.push({ id, label, status: 'SKIP', detail: this.fatal ? `Not run: the ${this.fatal} check failed.` : 'Not run.' });
    }
    return checks;
  }

  /** The detail of the check that decides a non-VALID status. */
  deciding(status: CredentialStatus): string | null {
    for (const id of this.spec.ids) {
      const record = this.record(id);
      if (record?.implies === status) return record.detail;
    }
    return null;
  }

  errors(): string[] {
    const details: string[] = [];
    for (const record of this.records) if (record.implies !== null && !details.includes(record.detail)) details.push(record.detail);
    return details;
  }
}

export function pass(detail: string): Finding {
  return { status: 'PASS', implies: null, detail };
}

/** A finding that implies `implies`: check status UNSUPPORTED or INDETERMINATE for those, FAIL otherwise. */
export function failing(implies: CredentialStatus, detail: string): Finding {
  const status = implies === 'UNSUPPORTED' ? 'UNSUPPORTED' : implies === 'INDETERMINATE' ? 'INDETERMINATE' : 'FAIL';
  return { status, implies, detail };
}
