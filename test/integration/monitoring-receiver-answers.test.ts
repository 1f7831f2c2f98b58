/**
 * What a receiver's answer does to a webhook delivery, on a SQLite file and on PostgreSQL: the
 * daemon in process (test/support/live-daemon.ts: the real app, store, Runtime and poller, a pass
 * at a time) delivering to real HTTPS receivers on loopback (the did:web host's server and CA).
 *
 * - 410 Gone: the watch's webhook is disabled after that one attempt, its queued events are
 *   CANCELLED, no further request reaches the receiver, a later check's event is CANCELLED (and a
 *   claim of a disabled watch's event sends nothing); POST …/webhook enables it again.
 * - 429 with Retry-After: 600: the next attempt 600 s later, not 60 — on the database's clock,
 *   read from the stored next_attempt_at against last_attempt_at (no sleeping) — and five
 *   attempts in all; 503 with an HTTP-date; a Retry-After over the cap waits the cap.
 * - 307 and 302: never followed; the redirect target receives nothing.
 * Each attempt's record (GET /v1/monitoring/events/{id}/attempts) says what it decided and why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_AFTER_CAP_SECONDS } from '../../src/core/monitoring/webhook.js';
import { bearerCaller, call, expectJson, expectProblem } from '../support/daemon-client.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { documentPath, FAR_FROM_EXPIRY_DAYS, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { startLiveDaemon, type LiveDaemon } from '../support/live-daemon.js';
import { describePostgres } from '../support/postgres.js';
import { didDocument, generateTestKey } from '../support/signing.js';

const TOKEN = 'receiver-answers-token-0123456789';

interface Answer {
  status: number;
  headers?: Record<string, string> | (() => Record<string, string>);
}

interface Attempt {
  replay: number;
  attempt: number;
  attemptedAt: string;
  responseStatus: number | null;
  decision: string;
  detail: string;
  nextAttemptAt: string | null;
}

function answersSuite(engine: string, describeEngine: (name: string, fn: () => void) => void, database: () => Promise<TestDatabase>) {
  describeEngine(`receiver answers on ${engine}`, () => {
    let opened: TestDatabase;
    let host: DidWebHost;
    let daemon: LiveDaemon;
    beforeAll(async () => {
      opened = await database();
      host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
      daemon = await startLiveDaemon({ target: opened.target, host, env: { SVC_ADMIN_TOKEN: TOKEN } });
    }, 60_000);
    afterAll(async () => {
      await daemon?.stop();
      await host?.close();
      await opened?.done();
    });

    const send = bearerCaller(() => daemon.url, TOKEN);
    const sql = (statement: string) => opened.sql(statement);
    const pass = () => daemon.jobs.monitor.pass();

    /** A receiver at /hooks/<name> answering each request with the next of `answers` (the last one repeats); counts what it got. */
    function receiver(name: string, answers: Answer[]) {
      const received: string[] = [];
      host.server.route(`/hooks/${name}`, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          const answer = answers[Math.min(received.length, answers.length) - 1]!;
          const headers = typeof answer.headers === 'function' ? answer.headers() : (answer.headers ?? {});
          res.writeHead(answer.status, headers);
          res.end();
        });
      });
      return { url: `https://127.0.0.1:${host.server.port}/hooks/${name}`, received };
    }

    /** A watched did:web whose key rotates on demand; the watch registered, its baseline checked. */
    async function watched(name: string, webhookUrl: string) {
      const did = host.did('answers', name);
      let document = didDocument(did, generateTestKey('EdDSA'));
      host.server.route(documentPath(did), (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/did+json' });
        res.end(JSON.stringify(document));
      });
      const created = expectJson(await send('POST', '/v1/monitoring/watches', { did, webhookUrl }), 201);
      const id: string = created.watch.id;
      expect(expectJson(await send('POST', `/v1/monitoring/watches/${id}/check`), 200)).toMatchObject({ changed: false });
      /** Rotates the key and checks now: one identity.document.changed; its id and what the check says of its delivery. */
      const change = async (): Promise<{ eventId: string; delivery: string }> => {
        document = didDocument(did, generateTestKey('EdDSA'));
        const checked = expectJson(await send('POST', `/v1/monitoring/watches/${id}/check`), 200);
        expect(checked.changed).toBe(true);
        return { eventId: checked.eventId, delivery: checked.delivery };
      };
      return { id, change };
    }

    const row = (eventId: string) => Number(eventId.slice('evt_'.length));
    const statusOf = async (eventId: string) => String((await sql(`SELECT delivery_status AS s FROM monitor_events WHERE id = ${row(eventId)}`))[0]!['s']);
    const watchOf = async (id: string) => expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches.find((w: { id: string }) => w.id === id);
    const attemptsOf = async (eventId: string): Promise<Attempt[]> => {
      const answer = expectJson(await send('GET', `/v1/monitoring/events/${eventId}/attempts`), 200);
      expect(answer.eventId).toBe(eventId);
      return answer.attempts;
    };
    /** Makes the event's next attempt due now (the backoff moved by SQL rather than waited for). */
    const dueNow = (eventId: string) => sql(`UPDATE monitor_events SET next_attempt_at = '2000-01-01T00:00:00Z' WHERE id = ${row(eventId)}`);
    /**
     * The wait before the next attempt, seconds, on the database's clock: next_attempt_at (set when
     * the attempt was settled) less last_attempt_at (when it was claimed), so a second boundary
     * crossed during the attempt (a loopback POST) adds at most 1.
     */
    const waitOf = async (eventId: string) => {
      const [r] = await sql(`SELECT next_attempt_at AS next, last_attempt_at AS last FROM monitor_events WHERE id = ${row(eventId)}`);
      return (Date.parse(String(r!['next'])) - Date.parse(String(r!['last']))) / 1000;
    };
    const expectWait = async (eventId: string, seconds: number) => {
      const wait = await waitOf(eventId);
      expect(wait).toBeGreaterThanOrEqual(seconds);
      expect(wait).toBeLessThanOrEqual(seconds + 1);
    };

    it('410 Gone: disabled after one attempt, queued events CANCELLED, nothing more reaches the receiver, later events CANCELLED; re-enabled by POST …/webhook', async () => {
      const hook = receiver('gone', [{ status: 410 }]);
      const watch = await watched('gone', hook.url);
      const first = await watch.change();
      expect(first.delivery).toBe('queued');
      // A second event waits for a later attempt (a RETRY due in a far future): queued, not sent.
      const second = await watch.change();
      await sql(
        `UPDATE monitor_events SET delivery_status = 'RETRY', attempts = 1, next_attempt_at = '2999-01-01T00:00:00Z' WHERE id = ${row(second.eventId)}`,
      );
      await pass();
      expect(hook.received).toHaveLength(1);
      expect([await statusOf(first.eventId), await statusOf(second.eventId)]).toEqual(['CANCELLED', 'CANCELLED']);

      const disabled = await watchOf(watch.id);
      expect(disabled.webhookDisabled).toEqual({
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        reason: `the receiver answered 410 Gone at ${disabled.webhookDisabled.at} to the delivery of ${first.eventId}`,
      });
      expect(await attemptsOf(first.eventId)).toEqual([
        {
          replay: 0,
          attempt: 1,
          attemptedAt: expect.stringMatching(/Z$/),
          responseStatus: 410,
          decision: 'WEBHOOK_DISABLED',
          detail: expect.stringMatching(/^the receiver answered 410 Gone: the webhook is disabled .* never retried$/),
          nextAttemptAt: null,
        },
      ]);
      // The cancelled queued event was never attempted: no record.
      expect(await attemptsOf(second.eventId)).toEqual([]);

      // A later check: its event is CANCELLED as it is written; passes send nothing.
      const third = await watch.change();
      expect(third.delivery).toBe('none');
      expect(await statusOf(third.eventId)).toBe('CANCELLED');
      await pass();
      await pass();
      expect(hook.received).toHaveLength(1);
      // An event of the disabled watch that is claimed all the same is cancelled without sending.
      await sql(`UPDATE monitor_events SET delivery_status = 'PENDING' WHERE id = ${row(third.eventId)}`);
      await pass();
      expect(hook.received).toHaveLength(1);
      expect(await statusOf(third.eventId)).toBe('CANCELLED');
      expect(await attemptsOf(third.eventId)).toEqual([
        expect.objectContaining({
          attempt: 1,
          responseStatus: null,
          decision: 'CANCELLED',
          detail: expect.stringMatching(/webhook is disabled.*nothing was sent/),
        }),
      ]);

      // Enabling it again: a blocked URL is refused as at registration, an unknown watch is 404.
      expectProblem(await send('POST', `/v1/monitoring/watches/${watch.id}/webhook`, { webhookUrl: 'https://10.0.0.7/hooks' }), 403, 'EGRESS_BLOCKED');
      expectProblem(await send('POST', '/v1/monitoring/watches/999999/webhook', {}), 404, 'NOT_FOUND');
      expectProblem(await send('POST', `/v1/monitoring/watches/${watch.id}/webhook`, { url: 'x' }), 400, 'INVALID_REQUEST');
      expect((await watchOf(watch.id)).webhookDisabled).not.toBeNull();
      const back = receiver('back', [{ status: 204 }]);
      const enabled = expectJson(await send('POST', `/v1/monitoring/watches/${watch.id}/webhook`, { webhookUrl: back.url }), 200);
      expect(enabled.watch).toMatchObject({ id: watch.id, webhook: back.url, webhookDisabled: null, active: true });
      const fourth = await watch.change();
      expect(fourth.delivery).toBe('queued');
      await pass();
      expect(back.received).toHaveLength(1);
      expect(hook.received).toHaveLength(1);
      expect(await statusOf(fourth.eventId)).toBe('DELIVERED');
      expect(await attemptsOf(fourth.eventId)).toEqual([expect.objectContaining({ attempt: 1, responseStatus: 204, decision: 'DELIVERED' })]);
      // Earlier events stay CANCELLED (a replay sends them).
      expect(await statusOf(third.eventId)).toBe('CANCELLED');
      // Without a body: the registered URL again, 200.
      expect(expectJson(await send('POST', `/v1/monitoring/watches/${watch.id}/webhook`), 200).watch.webhook).toBe(back.url);
    }, 60_000);

    it('429 with Retry-After: 600 — each next attempt 600 s later, not the schedule; five attempts in all, then DEAD_LETTER', async () => {
      const hook = receiver('busy', [{ status: 429, headers: { 'retry-after': '600' } }]);
      const watch = await watched('busy', hook.url);
      const { eventId } = await watch.change();
      for (let attempt = 1; attempt <= 5; attempt++) {
        await pass();
        expect(hook.received).toHaveLength(attempt);
        if (attempt < 5) {
          expect(await statusOf(eventId)).toBe('RETRY');
          // max(schedule 60/120/240/480, Retry-After 600) = 600 every time.
          await expectWait(eventId, 600);
          await dueNow(eventId);
        }
      }
      expect(await statusOf(eventId)).toBe('DEAD_LETTER');
      await dueNow(eventId);
      await pass();
      await pass();
      expect(hook.received).toHaveLength(5);
      const attempts = await attemptsOf(eventId);
      expect(attempts.map((a) => [a.attempt, a.responseStatus, a.decision])).toEqual([
        [1, 429, 'RETRY'],
        [2, 429, 'RETRY'],
        [3, 429, 'RETRY'],
        [4, 429, 'RETRY'],
        [5, 429, 'DEAD_LETTER'],
      ]);
      expect(attempts[0]!.detail).toBe('the receiver answered 429 with Retry-After: 600; next attempt in 600 s, not the scheduled 60 s');
      expect(attempts[3]!.detail).toBe('the receiver answered 429 with Retry-After: 600; next attempt in 600 s, not the scheduled 480 s');
      expect(attempts[4]!.detail).toMatch(/^the receiver answered 429 with Retry-After: 600; that was the last of 5 attempts: dead letter$/);
      for (const a of attempts.slice(0, 4)) {
        expect(Date.parse(a.nextAttemptAt!) - Date.parse(a.attemptedAt)).toBeGreaterThanOrEqual(600_000);
        expect(Date.parse(a.nextAttemptAt!) - Date.parse(a.attemptedAt)).toBeLessThanOrEqual(601_000);
      }
      expect(attempts[4]!.nextAttemptAt).toBeNull();
    }, 60_000);

    it(`503 with an HTTP-date waits until then; a Retry-After over the cap waits the cap (${RETRY_AFTER_CAP_SECONDS} s)`, async () => {
      const hook = receiver('dated', [
        // 900 s from the receiver's clock (the database's clock is the same machine's).
        { status: 503, headers: () => ({ 'retry-after': new Date(Date.now() + 900_000).toUTCString() }) },
        { status: 429, headers: { 'retry-after': '86400' } },
      ]);
      const watch = await watched('dated', hook.url);
      const { eventId } = await watch.change();
      await pass();
      expect(hook.received).toHaveLength(1);
      expect(await statusOf(eventId)).toBe('RETRY');
      const wait = await waitOf(eventId);
      // The date is read to the second (an HTTP-date has no fraction), and the answer is a moment after the claim.
      expect(wait).toBeGreaterThanOrEqual(898);
      expect(wait).toBeLessThanOrEqual(901);
      await dueNow(eventId);
      await pass();
      expect(hook.received).toHaveLength(2);
      await expectWait(eventId, RETRY_AFTER_CAP_SECONDS);
      const attempts = await attemptsOf(eventId);
      expect(attempts.map((a) => [a.responseStatus, a.decision])).toEqual([
        [503, 'RETRY'],
        [429, 'RETRY'],
      ]);
      expect(attempts[0]!.detail).toMatch(
        /^the receiver answered 503 with Retry-After: \w{3}, .* GMT; next attempt in (89[89]|90[01]) s, not the scheduled 60 s$/,
      );
      expect(attempts[1]!.detail).toBe(
        `the receiver answered 429 with Retry-After: 86400, capped at ${RETRY_AFTER_CAP_SECONDS} s; next attempt in ${RETRY_AFTER_CAP_SECONDS} s, not the scheduled 120 s`,
      );
    }, 60_000);

    it('307 and 302 are failures, never followed: the redirect target receives nothing; retried on the schedule', async () => {
      const target = receiver('target', [{ status: 204 }]);
      const hook = receiver('moved', [
        { status: 307, headers: { location: target.url } },
        { status: 302, headers: { location: target.url } },
      ]);
      const watch = await watched('moved', hook.url);
      const { eventId } = await watch.change();
      await pass();
      expect(hook.received).toHaveLength(1);
      expect(await statusOf(eventId)).toBe('RETRY');
      await expectWait(eventId, 60);
      await dueNow(eventId);
      await pass();
      expect(hook.received).toHaveLength(2);
      await expectWait(eventId, 120);
      expect(target.received).toHaveLength(0);
      const attempts = await attemptsOf(eventId);
      expect(attempts.map((a) => [a.responseStatus, a.decision])).toEqual([
        [307, 'RETRY'],
        [302, 'RETRY'],
      ]);
      for (const a of attempts) {
        expect(a.detail).toContain(`(Location: ${target.url})`);
        expect(a.detail).toMatch(/redirects are not followed, since the egress policy would have to re-check the new target: register the final URL/);
      }
      const [event] = expectJson(await send('GET', `/v1/monitoring/events?watchId=${watch.id}`), 200).events;
      expect(event).toMatchObject({ id: eventId, deliveryStatus: 'RETRY', attempts: 2 });
    }, 60_000);

    it('attempts of an unknown or malformed event id: 404 NOT_FOUND; without the token: 401', async () => {
      expectProblem(await send('GET', '/v1/monitoring/events/evt_999999/attempts'), 404, 'NOT_FOUND');
      expectProblem(await send('GET', '/v1/monitoring/events/12/attempts'), 404, 'NOT_FOUND');
      expectProblem(await call(`${daemon.url}/v1/monitoring/events/evt_1/attempts`, { method: 'GET' }), 401, 'UNAUTHORIZED');
      expectProblem(await call(`${daemon.url}/v1/monitoring/watches/1/webhook`, { method: 'POST' }), 401, 'UNAUTHORIZED');
    });
  });
}

answersSuite('SQLite', describe, () => sqliteDatabase('svc-answers'));
answersSuite('PostgreSQL', describePostgres, postgresDatabase);
