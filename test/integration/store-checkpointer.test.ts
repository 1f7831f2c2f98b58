/**
 * The daemon's WAL checkpoints on a worker thread (src/store/sqlite/checkpointer.ts), on real
 * SQLite files. What the thread did is read from the WAL index (the -shm file, SQLite's
 * documented format): `mxFrame`, the last frame committed to the WAL, and `nBackfill`, the
 * last frame copied into the database file by a checkpoint.
 */
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { BACKSTOP_PAGES } from '../../src/store/sqlite/checkpointer.js';
import { sampleObservation, tempDir } from '../support/store.js';

/** mxFrame (WalIndexHdr, offset 16) and nBackfill (WalCkptInfo, offset 96), in native byte order. */
function walIndex(file: string): { mxFrame: number; nBackfill: number } {
  const shm = fs.readFileSync(`${file}-shm`);
  const read = (offset: number) => (os.endianness() === 'LE' ? shm.readUInt32LE(offset) : shm.readUInt32BE(offset));
  return { mxFrame: read(16), nBackfill: read(96) };
}

/** Waits (bounded) until `done` holds; the thread runs on its own schedule. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

const SUMMARY = 'x'.repeat(2_000);

async function recordMany(store: SqliteStore, count: number, from = 0): Promise<void> {
  for (let i = 0; i < count; i += 16) {
    await Promise.all(
      Array.from({ length: 16 }, (_, j) =>
        store.observations.record(
          sampleObservation({ did: `did:web:host${from + i + j}.example`, documentHash: (from + i + j).toString(16).padStart(64, '0'), summary: SUMMARY }),
        ),
      ),
    );
  }
}

describe('WAL checkpoints on a worker thread (the daemon)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function open(backgroundCheckpoints: boolean): { store: SqliteStore; file: string; dir: string } {
    const { dir, cleanup } = tempDir();
    const file = `${dir}/svc.db`;
    const store = openSqliteStore({ path: file, backgroundCheckpoints });
    cleanups.push(() => {
      store.close();
      cleanup();
    });
    return { store, file, dir };
  }

  it('copies the committed pages into the database file while the event loop keeps writing, the event loop checkpointing only as a backstop', async () => {
    const { store, file } = open(true);
    const size = () => fs.statSync(file).size;
    const before = size();
    await recordMany(store, 480);
    // The event loop's own automatic checkpoint is the backstop, at more pages than all of these
    // records fill (about 1 MB of summaries): in WAL mode only a checkpoint writes the database
    // file, so every page that reaches it below was copied by the thread.
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    expect(fs.statSync(`${file}-wal`).size).toBeLessThan(BACKSTOP_PAGES * 4096);
    await until(() => size() > before + 960_000, 'the thread copied the records into the database file');
    await until(() => walIndex(file).nBackfill === walIndex(file).mxFrame, 'the thread copied every committed frame');
    // More writes: the thread follows them.
    const after = size();
    await recordMany(store, 160, 480);
    await until(() => size() > after + 320_000, 'the thread copied the later records too');
    expect(await store.observations.count('did:web:host500.example')).toBe(1);
  });

  it('without it (the CLI), SQLite checkpoints in the commits as by default and no thread copies anything', async () => {
    const { store, file } = open(false);
    await recordMany(store, 48);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    expect(walIndex(file)).toMatchObject({ nBackfill: 0 });
  });

  it('closes its connection before the store closes: the WAL is checkpointed and removed, every acknowledged row is in the file', async () => {
    const { store, file } = open(true);
    await recordMany(store, 320);
    store.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const again = openSqliteStore({ path: file });
    try {
      expect((again.db.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n).toBe(320);
    } finally {
      again.close();
    }
  });

  it('is not started for a store in memory', async () => {
    const store = openSqliteStore({ path: ':memory:', backgroundCheckpoints: true });
    cleanups.push(() => store.close());
    await recordMany(store, 16);
    expect(store.storage).toBe('memory');
    expect(await store.observations.count('did:web:host0.example')).toBe(1);
  });
});
