/**
 * The storage contract of kept did:webvh logs (docs/history.md#kept-didwebvh-logs): the verified
 * entries of each log svc verified, as the host published them, so that a later log that does
 * not extend them — an entry changed, removed or reordered — is caught (core/webvh/kept-log.ts),
 * as the did:webvh specification's watchers do. Implemented on both engines in src/store
 * (sqlite/kept-logs.ts, postgres/kept-logs.ts).
 *
 * An entry is stored once per DID and position (its versionNumber), never again per resolution:
 * a log that grew adds only its new entries. A kept entry is never overwritten.
 */
import type { LogRewrite } from './types.js';

export type { LogRewrite, RewriteSide } from './types.js';

/** One kept entry, without its text: what a comparison reads. */
export interface KeptLogEntry {
  versionNumber: number;
  versionId: string;
  versionTime: string;
  /** SHA-256 (hex) of the entry's RFC 8785 form, proof included: a reformatted line is the same entry. */
  entryHash: string;
  /** SHA-256 (hex) of the line as published (UTF-8, without its newline): the cheap first comparison. */
  lineSha256: string;
}

export interface NewKeptLogEntry extends KeptLogEntry {
  /** The JSON line as the host published it. */
  line: string;
}

export interface KeptLog {
  did: string;
  scid: string;
  /** In order, versionNumber 1 to n. */
  entries: KeptLogEntry[];
  /** UTF-8 bytes of the kept lines. */
  bytes: number;
  firstKeptAt: string;
  updatedAt: string;
  /** The first rewrite svc saw, kept for good; null when none. */
  rewrite: LogRewrite | null;
}

export interface KeptLogText {
  /** The kept lines in order, as published. */
  lines: string[];
  /** did-witness.json as last verified with the log (JSON text), or null. */
  witness: string | null;
}

export interface AppendKeptLog {
  did: string;
  scid: string;
  /** How many entries the caller saw kept: the new ones follow them. */
  after: number;
  entries: NewKeptLogEntry[];
  /** The witness file verified with the log (replaces the kept one), or null to leave it. */
  witness: string | null;
  at: string;
  /** Most DIDs the store keeps a log of: a DID not kept yet is refused beyond it. */
  maxLogs: number;
}

export interface KeptLogStore {
  /** The DID's kept log without its text, or undefined when none is kept. */
  get(did: string): Promise<KeptLog | undefined>;
  /** The DID's kept lines and witness file, or undefined when none is kept. */
  text(did: string): Promise<KeptLogText | undefined>;
  /**
   * Appends entries after the first `after` (one transaction); entries at positions already kept
   * are left as they are. Resolves to how many were added, or null when the DID had no kept log
   * and the store already keeps `maxLogs` (nothing written).
   */
  append(log: AppendKeptLog): Promise<number | null>;
  /** Records a rewrite; the first one recorded for the DID stays. */
  markRewritten(did: string, rewrite: LogRewrite): Promise<void>;
}
