/**
 * Which version of a verified did:webvh log a request gets (did:webvh spec
 * §"Reading did:webvh DID URLs"; docs/evidence.md#versions):
 *
 *   no selector      the last entry — only when the whole log verifies
 *   versionId        the entry with exactly that versionId
 *   versionNumber    the entry numbered so
 *   versionTime      the entry active at that time: the last one whose versionTime is at or
 *                    before it (an entry is active from exactly its own versionTime)
 *
 * Several selectors must name the same version. A version that exists and verifies is served
 * even when a later entry is broken. Answers that are no answer:
 *   NOT_FOUND             the log has no such version (or the selectors disagree)
 *   INVALID_DID_DOCUMENT  the version asked for is at or after the first failing entry
 *   FEATURE_NOT_SUPPORTED the version asked for is at or after an entry that follows a version
 *                         of the specification svc does not implement (never called invalid)
 */
import { ProblemError } from '../problems.js';
import { parseDateTime } from '../proofs/datetime.js';
import type { LogVerification, VerifiedVersion } from './verify.js';

export interface VersionSelectors {
  versionId?: string;
  versionTime?: string;
  versionNumber?: number;
}

/** FEATURE_NOT_SUPPORTED naming the version, when verification stopped at an entry of a version svc does not implement. */
export function unsupportedVersion(failure: { versionNumber: number; unsupportedMethod?: string }, asked: string): ProblemError {
  return new ProblemError(
    'FEATURE_NOT_SUPPORTED',
    `Entry ${failure.versionNumber} of the DID log follows ${failure.unsupportedMethod}, a version of the did:webvh specification svc does not implement (it implements did:webvh:0.5 and did:webvh:1.0), so ${asked} cannot be verified; nothing was found wrong with the log.`,
  );
}

function broken(log: LogVerification, asked: string): ProblemError {
  const f = log.failure!;
  if (f.unsupportedMethod !== undefined) return unsupportedVersion(f, asked.charAt(0).toLowerCase() + asked.slice(1));
  return new ProblemError(
    'INVALID_DID_DOCUMENT',
    `${asked} cannot be shown: entry ${f.versionNumber} of the DID log fails verification (${f.check}: ${f.reason}).`,
  );
}

function notFound(detail: string): ProblemError {
  return new ProblemError('NOT_FOUND', detail);
}

/** Parses a versionTime selector; INVALID_OPTIONS when it is not an RFC 3339 date-time. */
export function parseVersionTime(value: string): number {
  const time = parseDateTime(value);
  if (time === null)
    throw new ProblemError('INVALID_OPTIONS', `versionTime "${value}" is not an RFC 3339 date-time with an offset (e.g. 2025-01-23T04:12:36Z).`);
  return time.getTime();
}

function byNumber(log: LogVerification, n: number): VerifiedVersion {
  if (!Number.isSafeInteger(n) || n < 1) throw notFound(`versionNumber ${n} names no version; versions are numbered from 1.`);
  const version = log.valid[n - 1];
  if (version) return version;
  if (n <= log.entries.length && log.failure) throw broken(log, `Version ${n}`);
  throw notFound(`The DID log has ${log.entries.length} version${log.entries.length === 1 ? '' : 's'}; there is no version ${n}.`);
}

function byId(log: LogVerification, id: string): VerifiedVersion {
  const version = log.valid.find((v) => v.versionId === id);
  if (version) return version;
  if (log.failure && log.writtenVersionIds.includes(id)) throw broken(log, `Version ${id}`);
  throw notFound(`No entry of the DID log has the versionId ${id}.`);
}

function byTime(log: LogVerification, value: string): VerifiedVersion {
  const t = parseVersionTime(value);
  let active: VerifiedVersion | undefined;
  for (const v of log.valid) {
    if (v.timeMs > t) break;
    active = v;
  }
  const first = log.valid[0];
  if (!active) {
    if (!first && log.failure) throw broken(log, `The version active at ${value}`);
    throw notFound(`The DID did not exist at ${value}; its first version is from ${first?.versionTime ?? 'later'}.`);
  }
  // After the last valid version, a broken later entry may be the one that was active.
  if (active === log.valid[log.valid.length - 1] && log.failure) throw broken(log, `The version active at ${value}`);
  return active;
}

export function selectVersion(log: LogVerification, selectors: VersionSelectors): VerifiedVersion {
  const picks: Array<[string, VerifiedVersion]> = [];
  if (selectors.versionId !== undefined) picks.push([`versionId ${selectors.versionId}`, byId(log, selectors.versionId)]);
  if (selectors.versionNumber !== undefined) picks.push([`versionNumber ${selectors.versionNumber}`, byNumber(log, selectors.versionNumber)]);
  if (selectors.versionTime !== undefined) picks.push([`versionTime ${selectors.versionTime}`, byTime(log, selectors.versionTime)]);
  if (picks.length === 0) {
    if (log.failure) throw broken(log, 'The current version');
    const latest = log.valid[log.valid.length - 1];
    if (!latest) throw new ProblemError('INVALID_DID_DOCUMENT', 'The DID log is empty.');
    return latest;
  }
  const [firstLabel, chosen] = picks[0]!;
  for (const [label, version] of picks.slice(1)) {
    if (version !== chosen) {
      throw notFound(`The selectors name different versions: ${firstLabel} is version ${chosen.versionNumber}, ${label} is version ${version.versionNumber}.`);
    }
  }
  return chosen;
}
