/**
 * The operator poller's pass (MonitorPoller.pass) over more due watches than it checks at once,
 * on both engines: every claimed watch is checked and recorded (a checker goes on to its next
 * watch while the recording of its last one is written); and a recording that fails fails the
 * pass only once every recording in flight has ended, none left behind, the other watches'
 * checks recorded. The store's failure is injected through the Runtime (its store seen through a
 * proxy), the rest is the daemon's own code over a real database.
 */
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordCheck, RecordedCheck, RuntimeStore } from '../../src/core/store.js';
import { systemClock } from '../../src/runtime/node.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { MonitorPoller } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { multikey } from '../support/codec.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { describePostgres } from '../support/postgres.js';
import { testRuntime } from '../support/runtime.js';

/** More than the checks of a pass that run at once (8), and not a multiple of them. */
const WATCHES = 21;

const freshDidKey = () => `did:key:${multikey(0xed, ed25519.getPublicKey(randomBytes(32)))}`;

function engineSuite(open: () => Promise<TestDatabase>): void {
  let database: TestDatabase;
  let storage: StorageSlot;
  /** What the poller's Runtime answers for `store` (the slot's store unless a test wraps it). */
  let storeSeen: () => RuntimeStore | undefined;
  let ctx: ServerContext;

  beforeAll(async () => {
    database = await open();
    storage = new StorageSlot(database.target, false);
    await storage.open();
    storeSeen = () => storage.store;
    const runtime = testRuntime(systemClock);
    Object.defineProperty(runtime, 'store', { get: () => storeSeen(), enumerable: true });
    ctx = {
      runtime,
      storage,
      profile: 'direct',
      limits: { ...DEFAULT_LIMITS, maxConcurrency: 64, maxConcurrencyPerClient: 64 },
      capacity: new Capacity(64, 64),
      startedAt: new Date(),
      draining: false,
      active: 0,
    };
    for (let i = 0; i < WATCHES; i++) {
      const added = await storage.store!.watches.add(
        { did: freshDidKey(), webhookUrl: 'https://hooks.example/svc', secret: 'whsec_poller', intervalSeconds: 60, createdAt: '2026-11-27T00:00:00Z' },
        100,
      );
      expect(added).not.toBe('full');
    }
  });

  afterAll(async () => {
    await storage?.close();
    await database?.done();
  });

  const makeDue = () => database.sql("UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z'");

  it('a pass checks and records every due watch, and the next finds none due', async () => {
    const poller = new MonitorPoller(ctx);
    expect(await poller.pass()).toBe(WATCHES);
    const watches = await storage.store!.watches.list();
    expect(watches.map((w) => [w.revision, w.lastStatus])).toEqual(Array.from({ length: WATCHES }, () => [1, 'RESOLVED']));
    expect(await poller.pass()).toBe(0);
    // The steady pass: nothing changed, each watch one revision on.
    await makeDue();
    expect(await poller.pass()).toBe(WATCHES);
    expect((await storage.store!.watches.list()).map((w) => w.revision)).toEqual(Array.from({ length: WATCHES }, () => 2));
    expect(await storage.store!.monitorEvents.list({ limit: 5 })).toEqual([]);
  });

  it('a recording that fails fails the pass once every recording in flight has ended; the other checks are recorded', async () => {
    const store = storage.store!;
    const victim = (await store.watches.list())[3]!;
    let inFlight = 0;
    let inFlightAtFailure: number | null = null;
    const failure = new Error('the database went away while recording');
    const recordCheck = async (check: RecordCheck): Promise<RecordedCheck> => {
      inFlight += 1;
      try {
        if (check.watchId === victim.id) throw failure;
        return await store.watches.recordCheck(check);
      } finally {
        inFlight -= 1;
      }
    };
    /** `target` seen with `member` replaced (its methods called on it, not on the proxy). */
    const replacing = <T extends object>(target: T, member: string, value: unknown): T =>
      new Proxy(target, {
        get: (t, p) => {
          if (p === member) return value;
          const v: unknown = Reflect.get(t, p);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
        },
      });
    const watches = replacing(store.watches, 'recordCheck', recordCheck);
    storeSeen = () => replacing(store, 'watches', watches);
    try {
      await makeDue();
      const poller = new MonitorPoller(ctx);
      await expect(
        poller.pass().catch((error: unknown) => {
          inFlightAtFailure = inFlight;
          throw error;
        }),
      ).rejects.toBe(failure);
      expect(inFlightAtFailure).toBe(0);
      const after = await store.watches.list();
      expect(after.find((w) => w.id === victim.id)?.revision).toBe(2);
      // Checkers stop taking watches after the failure: those checked before it are recorded, none twice.
      const recorded = after.filter((w) => w.revision === 3).length;
      expect(recorded).toBeGreaterThan(0);
      expect(after.every((w) => w.revision === 2 || w.revision === 3)).toBe(true);
    } finally {
      storeSeen = () => storage.store;
    }
  });
}

describe('the poller pass: SQLite', () => engineSuite(() => sqliteDatabase('svc-poller-pass')));
describePostgres('the poller pass: PostgreSQL', () => engineSuite(postgresDatabase));
