/**
 * Kept did:webvh logs on both engines (tables of schema v14): columns as the contract's
 * members, and the stored rewrite read back. The repositories: sqlite/kept-logs.ts,
 * postgres/kept-logs.ts.
 */
import type { KeptLogEntry, LogRewrite } from '../../core/webvh/store.js';

export interface KeptLogRow {
  did: string;
  scid: string;
  entries: number;
  bytes: number;
  firstKeptAt: string;
  updatedAt: string;
  rewrite: string | null;
}

export const KEPT_LOG_COLUMNS = (q: string): string =>
  `did, scid, entries, bytes, first_kept_at AS ${q}firstKeptAt${q}, updated_at AS ${q}updatedAt${q}, rewrite`;

export const KEPT_ENTRY_COLUMNS = (q: string): string =>
  `version_number AS ${q}versionNumber${q}, version_id AS ${q}versionId${q}, version_time AS ${q}versionTime${q}, entry_hash AS ${q}entryHash${q}, line_sha256 AS ${q}lineSha256${q}`;

/** The stored rewrite, or null (a row the CHECK let through that is not one reads as none). */
export function readRewrite(text: string | null): LogRewrite | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as LogRewrite;
    return typeof value === 'object' && value !== null && typeof value.versionNumber === 'number' ? value : null;
  } catch {
    return null;
  }
}

export function toEntry(row: KeptLogEntry): KeptLogEntry {
  return { ...row, versionNumber: Number(row.versionNumber) };
}
