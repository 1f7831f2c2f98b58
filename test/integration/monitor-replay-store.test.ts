/**
 * Replay on both engines (docs/daemon.md#operator-monitoring, "Replay"): an operator event, one or
 * all dead letters of a watch since an instant, and an owner's delivery (the same row for the
 * active webhook, else a new row with the same bytes signed with the active webhook's secret) —
 * each refusal typed, nothing written when refused; and the counts the status route and the owner
 * page read (disabled webhooks, replays, events by type, every type a key).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customerSignature, sealCustomerDelivery, unixSeconds } from '../../src/core/monitoring/customer.js';
import { MONITOR_EVENT_TYPES, type DeliveryStatus, type MonitorEventType } from '../../src/core/monitoring/store.js';
import type { RuntimeStore, Watch } from '../../src/core/store.js';
import { openStore, StoreError } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

interface Opened {
  store: RuntimeStore;
  close(): Promise<void>;
  sql(statement: string): Promise<void>;
  rows<T>(statement: string): Promise<T[]>;
}

const BACKENDS: Array<{ name: string; describe: (name: string, fn: () => void) => void; open(): Promise<Opened> }> = [
  {
    name: 'SQLite',
    describe,
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'svc-replay-'));
      const store = openStore({ path: path.join(dir, 'svc.db') });
      return {
        store,
        close: async () => {
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
        sql: async (statement) => void store.db.exec(statement),
        rows: async <T>(statement: string) => store.db.prepare(statement).all() as T[],
      };
    },
  },
  {
    name: 'PostgreSQL',
    describe: describePostgres,
    async open() {
      const { schema, drop } = freshSchema();
      const store = await openPostgresStore({ url: postgresUrl, schema });
      return {
        store,
        close: async () => {
          await store.close();
          await drop();
        },
        sql: async (statement) => void (await store.pool.query(statement)),
        rows: async <T>(statement: string) => (await store.pool.query(statement)).rows as T[],
      };
    },
  },
];

const quote = (text: string | null): string => (text === null ? 'NULL' : `'${text.replace(/'/g, "''")}'`);

for (const backend of BACKENDS) {
  backend.describe(`replay: ${backend.name}`, () => {
    let db: Opened;
    let store: RuntimeStore;

    beforeEach(async () => {
      db = await backend.open();
      store = db.store;
    });
    afterEach(async () => {
      await db.close();
    });

    async function watch(n: number): Promise<Watch> {
      const added = await store.watches.add(
        {
          did: `did:web:replay-${n}.example`,
          webhookUrl: `https://hooks.example/${n}`,
          secret: 'whsec_replay',
          intervalSeconds: 300,
          createdAt: '2026-03-01T00:00:00Z',
        },
        100,
      );
      if (added === 'full') throw new Error('full');
      return added;
    }

    /** An event as the deliverer would leave it; returns its id. */
    async function event(
      w: { id: number; did: string },
      status: DeliveryStatus,
      createdAt = '2026-03-02T00:00:00Z',
      type: MonitorEventType = 'identity.document.changed',
    ): Promise<number> {
      await db.sql(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at, lease_expires_at, last_error)
         VALUES (${w.id}, ${quote(w.did)}, '${type}', '{"n":1}', '${createdAt}', '${status}', ${status === 'PENDING' ? 0 : 5},
           ${status === 'RETRY' ? "'2026-03-02T00:05:00Z'" : 'NULL'}, ${status === 'DELIVERING' ? "'2099-01-01T00:00:00Z'" : 'NULL'},
           ${status === 'DEAD_LETTER' ? "'the receiver answered 500'" : 'NULL'})`,
      );
      const [row] = await db.rows<{ id: number }>('SELECT max(id) AS id FROM monitor_events');
      return Number(row!.id);
    }

    const eventRow = async (id: number) =>
      (
        await db.rows<Record<string, unknown>>(
          `SELECT delivery_status AS status, attempts, next_attempt_at AS "next", lease_expires_at AS "lease", last_error AS "error", replays FROM monitor_events WHERE id = ${id}`,
        )
      )[0]!;

    it('replays a DEAD_LETTER or CANCELLED event to PENDING with five fresh attempts, counting the replay', async () => {
      const w = await watch(1);
      const dead = await event(w, 'DEAD_LETTER');
      const cancelled = await event(w, 'CANCELLED');
      const replayed = await store.monitorEvents.replay(dead);
      expect(replayed).toMatchObject({
        outcome: 'replayed',
        event: { id: dead, deliveryStatus: 'PENDING', attempts: 0, nextAttemptAt: null, lastError: null, replays: 1 },
      });
      expect(await eventRow(dead)).toEqual({ status: 'PENDING', attempts: 0, next: null, lease: null, error: null, replays: 1 });
      expect((await store.monitorEvents.replay(cancelled)).outcome).toBe('replayed');
      // The replayed event is claimed again, as attempt 1.
      const claims = await store.monitorEvents.claimDeliveries(10, 60, 5);
      expect(claims.map((c) => [c.event.id, c.attempt])).toEqual([
        [dead, 1],
        [cancelled, 1],
      ]);
      expect(await store.monitorEvents.settle(dead, 1, { delivered: false, error: 'x', retryAfterSeconds: null })).toBe(true);
      expect((await store.monitorEvents.replay(dead)).outcome).toBe('replayed');
      expect((await eventRow(dead))['replays']).toBe(2);
    });

    it('refuses, writing nothing: an event still on its way or delivered, an unknown one, a removed watch, a disabled webhook', async () => {
      const w = await watch(1);
      for (const status of ['PENDING', 'DELIVERING', 'RETRY', 'DELIVERED'] as const) {
        const id = await event(w, status);
        const before = await eventRow(id);
        expect(await store.monitorEvents.replay(id)).toEqual({ outcome: 'not-replayable', status });
        expect(await eventRow(id)).toEqual(before);
      }
      expect(await store.monitorEvents.replay(999_999)).toEqual({ outcome: 'not-found' });
      expect(await store.monitorEvents.replay(0)).toEqual({ outcome: 'not-found' });

      const disabled = await watch(2);
      const onDisabled = await event(disabled, 'CANCELLED');
      await db.sql(
        `UPDATE watches SET webhook_disabled_at = '2026-03-03T00:00:00Z', webhook_disabled_reason = 'the receiver answered 410' WHERE id = ${disabled.id}`,
      );
      expect(await store.monitorEvents.replay(onDisabled)).toEqual({
        outcome: 'webhook-disabled',
        watchId: disabled.id,
        since: '2026-03-03T00:00:00Z',
        reason: 'the receiver answered 410',
      });
      expect(await store.monitorEvents.replaySince(disabled.id, '2026-01-01T00:00:00Z')).toMatchObject({ outcome: 'webhook-disabled' });
      expect((await eventRow(onDisabled))['status']).toBe('CANCELLED');

      const removed = await watch(3);
      const onRemoved = await event(removed, 'DEAD_LETTER');
      expect(await store.watches.remove(removed.id)).toBe(true);
      expect(await store.monitorEvents.replay(onRemoved)).toEqual({ outcome: 'watch-removed', watchId: removed.id });
      expect(await store.monitorEvents.replaySince(removed.id, '2026-01-01T00:00:00Z')).toEqual({ outcome: 'not-found' });
      expect((await eventRow(onRemoved))['status']).toBe('DEAD_LETTER');
    });

    it('two replays of one dead letter at once: exactly one replays it, the other finds it PENDING', async () => {
      const w = await watch(1);
      const dead = await event(w, 'DEAD_LETTER');
      const outcomes = await Promise.all([store.monitorEvents.replay(dead), store.monitorEvents.replay(dead)]);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['not-replayable', 'replayed']);
      expect(outcomes.find((o) => o.outcome === 'not-replayable')).toEqual({ outcome: 'not-replayable', status: 'PENDING' });
      expect((await eventRow(dead))['replays']).toBe(1);
    });

    it('replays every dead letter of a watch created at or after the instant, and nothing else', async () => {
      const w = await watch(1);
      const other = await watch(2);
      const early = await event(w, 'DEAD_LETTER', '2026-03-01T23:59:59Z');
      const atInstant = await event(w, 'DEAD_LETTER', '2026-03-02T00:00:00Z');
      const later = await event(w, 'DEAD_LETTER', '2026-03-05T00:00:00Z');
      const cancelled = await event(w, 'CANCELLED', '2026-03-05T00:00:00Z');
      const delivered = await event(w, 'DELIVERED', '2026-03-05T00:00:00Z');
      const elsewhere = await event(other, 'DEAD_LETTER', '2026-03-05T00:00:00Z');
      expect(await store.monitorEvents.replaySince(w.id, '2026-03-02T00:00:00Z')).toEqual({ outcome: 'replayed', eventIds: [atInstant, later] });
      for (const [id, status] of [
        [early, 'DEAD_LETTER'],
        [cancelled, 'CANCELLED'],
        [delivered, 'DELIVERED'],
        [elsewhere, 'DEAD_LETTER'],
      ] as const)
        expect((await eventRow(id))['status']).toBe(status);
      expect(await store.monitorEvents.replaySince(w.id, '2026-03-02T00:00:00Z')).toEqual({ outcome: 'replayed', eventIds: [] });
      expect(await store.monitorEvents.replaySince(999_999, '2026-03-02T00:00:00Z')).toEqual({ outcome: 'not-found' });
    });

    it('counts disabled webhooks, replays and events by type (every type a key, zeros included)', async () => {
      const w = await watch(1);
      const disabled = await watch(2);
      await db.sql(`UPDATE watches SET webhook_disabled_at = '2026-03-03T00:00:00Z' WHERE id = ${disabled.id}`);
      const a = await event(w, 'DEAD_LETTER');
      await event(w, 'DELIVERED', '2026-03-02T00:00:00Z', 'identity.deactivated');
      await store.monitorEvents.replay(a);
      await db.sql(`UPDATE monitor_events SET delivery_status = 'DEAD_LETTER' WHERE id = ${a}`);
      await store.monitorEvents.replay(a);
      const gauges = await store.monitorEvents.gauges('2026-03-10T00:00:00Z');
      expect(gauges.disabledWebhooks).toBe(1);
      expect(gauges.replays).toBe(2);
      expect(Object.keys(gauges.eventsByType)).toEqual([...MONITOR_EVENT_TYPES]);
      expect(gauges.eventsByType['identity.document.changed']).toBe(1);
      expect(gauges.eventsByType['identity.deactivated']).toBe(1);
      expect(gauges.eventsByType['tls.certificate.changed']).toBe(0);
    });

    describe('an owner replays a delivery', () => {
      const OWNER = 'did:web:owner.example';
      let projectId: string;

      beforeEach(async () => {
        const tenant = await store.accounts.createTenant({ name: 'T', owner: OWNER });
        projectId = (await store.accounts.createProject(tenant.id, { name: 'P' })).id;
      });

      /** A project watch with one recorded event and its delivery for the active webhook; returns the rows. */
      async function projectEvent(): Promise<{ watchRow: number; eventRow: number; deliveryId: string }> {
        const added = await store.customerMonitor.addWatch(OWNER, projectId, 'did:web:watched.example', 100);
        if (added === 'full') throw new Error('full');
        const watchRow = Number(added.watch.id.slice(4));
        const { claims } = await store.customerMonitor.claimDue(10, 18_000);
        const claim = claims.find((c) => c.watch.id === watchRow)!;
        const recorded = await store.customerMonitor.recordCheck(
          {
            watchId: watchRow,
            revision: claim.watch.revision,
            outcome: {
              status: 'RESOLVED',
              documentHash: 'h1',
              fingerprintProfile: null,
              domainBindingStatus: null,
              document: { id: 'did:web:watched.example' },
              problem: null,
              checkedAt: '2026-03-02T00:00:00Z',
              tls: null,
            },
            events: [{ type: 'identity.document.changed', data: { n: 1 } }],
            maxPayloadBytes: 262_144,
            attemptId: claim.attemptId,
          },
          sealCustomerDelivery,
        );
        if (recorded.outcome !== 'recorded') throw new Error(recorded.outcome);
        const eventRow = recorded.eventIds[0]!;
        const [delivery] = await db.rows<{ id: string }>(`SELECT id FROM customer_webhook_deliveries WHERE monitor_event_id = ${eventRow}`);
        return { watchRow, eventRow, deliveryId: delivery!.id };
      }

      const deliveryRow = async (id: string) =>
        (
          await db.rows<Record<string, unknown>>(
            `SELECT status, attempts, body, signature, replays, webhook_id AS "webhookId" FROM customer_webhook_deliveries WHERE id = ${quote(id)}`,
          )
        )[0];

      it('the same row when it is the active webhook’s: PENDING, the stored bytes and signature kept', async () => {
        await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/a', 'whsec_a');
        const { deliveryId } = await projectEvent();
        const before = (await deliveryRow(deliveryId))!;
        await db.sql(`UPDATE customer_webhook_deliveries SET status = 'DEAD_LETTER', attempts = 5 WHERE id = ${quote(deliveryId)}`);
        const replayed = await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId);
        expect(replayed).toMatchObject({ outcome: 'replayed', delivery: { id: deliveryId, status: 'PENDING', attempts: 0 } });
        expect(await deliveryRow(deliveryId)).toEqual({ ...before, status: 'PENDING', attempts: 0, replays: 1 });
        // Queued now: a second replay is refused, naming the status.
        expect(await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId)).toEqual({ outcome: 'not-replayable', status: 'PENDING' });
      });

      it('a project watch’s event is no operator event: the operator replay does not find it', async () => {
        await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/a', 'whsec_a');
        const { eventRow, watchRow } = await projectEvent();
        await db.sql(`UPDATE monitor_events SET delivery_status = 'DEAD_LETTER' WHERE id = ${eventRow}`);
        expect(await store.monitorEvents.replay(eventRow)).toEqual({ outcome: 'not-found' });
        expect(await store.monitorEvents.replaySince(watchRow, '2000-01-01T00:00:00Z')).toEqual({ outcome: 'not-found' });
        expect((await db.rows<{ s: string }>(`SELECT delivery_status AS s FROM monitor_events WHERE id = ${eventRow}`))[0]!.s).toBe('DEAD_LETTER');
      });

      it('a new row for a replaced webhook: the same body bytes, signed with the active webhook’s secret', async () => {
        await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/a', 'whsec_a');
        const { deliveryId, eventRow } = await projectEvent();
        // Replacing the webhook cancels the queued delivery.
        const active = await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/b', 'whsec_b');
        const old = (await deliveryRow(deliveryId))!;
        expect(old['status']).toBe('CANCELLED');
        const replayed = await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId);
        const target = `dlv_${active.id.slice(4)}_${eventRow}`;
        expect(replayed).toMatchObject({ outcome: 'replayed', delivery: { id: target, eventId: `evt_${eventRow}`, webhookId: active.id, status: 'PENDING' } });
        const fresh = (await deliveryRow(target))!;
        expect(fresh['body']).toBe(old['body']);
        const t = unixSeconds(JSON.parse(String(old['body'])).createdAt);
        expect(fresh['signature']).toBe(customerSignature('whsec_b', t, String(old['body'])));
        expect(fresh['replays']).toBe(1);
        expect((await deliveryRow(deliveryId))!['status']).toBe('CANCELLED');
        // The active webhook's delivery is queued: replaying the old one again is refused.
        expect(await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId)).toEqual({ outcome: 'already', deliveryId: target, status: 'PENDING' });
      });

      it('refuses without an active webhook, for a removed watch, another owner, an unknown delivery; all dead letters since an instant', async () => {
        await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/a', 'whsec_a');
        const { deliveryId, watchRow, eventRow } = await projectEvent();
        await db.sql(`UPDATE customer_webhook_deliveries SET status = 'DEAD_LETTER', attempts = 5 WHERE id = ${quote(deliveryId)}`);
        await expect(store.customerMonitor.replayDelivery('did:web:stranger.example', projectId, deliveryId)).rejects.toMatchObject({ code: 'NOT_OWNER' });
        await expect(store.customerMonitor.replayDelivery(OWNER, projectId, 'dlv_9_9')).rejects.toBeInstanceOf(StoreError);

        const since = await store.customerMonitor.replayDeadLetters(OWNER, projectId, watchRow, '2026-03-02T00:00:01Z');
        expect(since).toEqual({ outcome: 'replayed', deliveries: [] });
        const all = await store.customerMonitor.replayDeadLetters(OWNER, projectId, watchRow, '2026-03-02T00:00:00Z');
        expect(all).toMatchObject({ outcome: 'replayed', deliveries: [{ id: deliveryId, eventId: `evt_${eventRow}`, status: 'PENDING' }] });

        await db.sql(`UPDATE customer_webhook_deliveries SET status = 'DEAD_LETTER', attempts = 5 WHERE id = ${quote(deliveryId)}`);
        expect(await store.customerMonitor.disableWebhook(OWNER, projectId)).toBe(true);
        expect(await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId)).toEqual({ outcome: 'no-webhook' });
        expect(await store.customerMonitor.replayDeadLetters(OWNER, projectId, watchRow, '2026-01-01T00:00:00Z')).toEqual({ outcome: 'no-webhook' });
        const counts = await store.customerMonitor.projectCounts(OWNER, projectId);
        expect(counts.webhook).toMatchObject({ state: 'disabled' });

        await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/c', 'whsec_c');
        await store.customerMonitor.removeWatch(OWNER, projectId, watchRow);
        expect(await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId)).toEqual({ outcome: 'watch-removed', watchId: `wch_${watchRow}` });
        await expect(store.customerMonitor.replayDeadLetters(OWNER, projectId, watchRow, '2026-01-01T00:00:00Z')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      });

      it('counts the project: its webhook’s state, replays and events by type in the window', async () => {
        expect((await store.customerMonitor.projectCounts(OWNER, projectId)).webhook).toEqual({ state: 'none' });
        await store.customerMonitor.setWebhook(OWNER, projectId, 'https://hooks.example/a', 'whsec_a');
        const { deliveryId } = await projectEvent();
        // The window is the database clock's last 30 days: bring the rows into it.
        const now = new Date().toISOString().slice(0, 19) + 'Z';
        await db.sql(`UPDATE monitor_events SET created_at = '${now}'`);
        await db.sql(`UPDATE customer_webhook_deliveries SET status = 'DEAD_LETTER', attempts = 5, created_at = '${now}'`);
        await store.customerMonitor.replayDelivery(OWNER, projectId, deliveryId);
        const counts = await store.customerMonitor.projectCounts(OWNER, projectId);
        expect(counts.webhook).toEqual({ state: 'active' });
        expect(counts.replays).toBe(1);
        expect(Object.keys(counts.eventsByType)).toEqual([...MONITOR_EVENT_TYPES]);
        expect(counts.eventsByType['identity.document.changed']).toBe(1);
        await expect(store.customerMonitor.projectCounts('did:web:stranger.example', projectId)).rejects.toMatchObject({ code: 'NOT_OWNER' });
      });
    });
  });
}
