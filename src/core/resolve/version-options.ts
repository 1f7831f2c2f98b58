/**
 * The did:webvh version selectors (`versionId`, `versionTime`, `versionNumber`) as text — from a
 * query string, a DID URL or a command line — checked and typed once for every shell. Whether
 * they apply to the DID's method, or agree with each other, is resolve()'s answer
 * (INVALID_OPTIONS, NOT_FOUND); this only decides whether each value is well formed.
 */
import { ProblemError } from '../problems.js';
import { parseDateTime } from '../proofs/datetime.js';
import type { ResolveOptions } from '../methods/types.js';

export const VERSION_PARAMETERS = ['versionId', 'versionTime', 'versionNumber'] as const;
export type VersionParameter = (typeof VERSION_PARAMETERS)[number];

export type VersionOptions = Pick<ResolveOptions, VersionParameter>;

/** Whether any version selector is set (a versioned request: cached under its own key, never recorded). */
export function hasVersionOptions(options: VersionOptions): boolean {
  return options.versionId !== undefined || options.versionTime !== undefined || options.versionNumber !== undefined;
}

/** A value quoted in a message: one line, and short. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

/**
 * Checks the version selectors given as text. Absent (undefined) selectors are left out.
 * Throws INVALID_OPTIONS naming the selector: an empty versionId, a versionTime that is not an
 * RFC 3339 date-time with an offset, a versionNumber that is not a positive whole number.
 * `label` names a selector in messages (the CLI passes its flag names, e.g. `--version-time`).
 */
export function parseVersionOptions(
  values: Partial<Record<VersionParameter, string | undefined>>,
  label: (name: VersionParameter) => string = (name) => name,
): VersionOptions {
  const selected: VersionOptions = {};
  const { versionId, versionTime, versionNumber } = values;
  if (versionId !== undefined) {
    if (versionId === '') throw new ProblemError('INVALID_OPTIONS', `${label('versionId')} must not be empty.`);
    selected.versionId = versionId;
  }
  if (versionTime !== undefined) {
    if (parseDateTime(versionTime) === null) {
      throw new ProblemError(
        'INVALID_OPTIONS',
        `${label('versionTime')} must be an RFC 3339 date-time with an offset, e.g. 2025-01-01T00:00:00Z, not ${quoted(versionTime)}.`,
      );
    }
    selected.versionTime = versionTime;
  }
  if (versionNumber !== undefined) {
    const value = /^[0-9]+$/.test(versionNumber) ? Number(versionNumber) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ProblemError(
        'INVALID_OPTIONS',
        `${label('versionNumber')} must be a positive whole number (1 is the first version), not ${quoted(versionNumber)}.`,
      );
    }
    selected.versionNumber = value;
  }
  return selected;
}
