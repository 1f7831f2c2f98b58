/** Stores on real SQLite files in a fresh temporary directory, for tests that need persistence. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewObservation } from '../../src/core/store.js';
import { openStore, type OpenStoreOptions, type Store } from '../../src/store/index.js';

export interface TempStore {
  store: Store;
  /** The temporary directory (mode 0700 from mkdtemp), removed by cleanup. */
  dir: string;
  /** The database file inside `dir`. */
  path: string;
  /** Closes the store (if still open) and removes the directory. */
  cleanup(): void;
}

/** A temporary directory of its own, removed with everything in it by the returned function. */
export function tempDir(prefix = 'svc-store-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a new database file `svc.db` in a fresh temporary directory. */
export function tempStore(options: Omit<OpenStoreOptions, 'path'> = {}): TempStore {
  const { dir, cleanup } = tempDir();
  const file = path.join(dir, 'svc.db');
  let store: Store;
  try {
    store = openStore({ ...options, path: file });
  } catch (error) {
    cleanup();
    throw error;
  }
  return {
    store,
    dir,
    path: file,
    cleanup() {
      store.close();
      cleanup();
    },
  };
}

/** An observation of `did` with a small document; fields overridable. */
export function sampleObservation(overrides: Partial<NewObservation> = {}): NewObservation {
  const did = overrides.did ?? 'did:web:example.com';
  return {
    did,
    documentHash: 'a'.repeat(64),
    document: { id: did, '@context': ['https://www.w3.org/ns/did/v1'] },
    observedAt: '2025-03-04T05:06:07Z',
    latencyMs: 12,
    resolverVersion: '0.1.0',
    domainBindingStatus: 'VERIFIED',
    summary: 'Resolved',
    ...overrides,
  };
}
