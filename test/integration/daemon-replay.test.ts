/**
 * Replay through the daemon's routes (docs/daemon.md, "Replay"), on a SQLite file and on
 * PostgreSQL: the daemon and its cookie gateway in process (test/support/live-daemon.ts), a did:web
 * host with a test CA and real HTTPS receivers on it; every answer held to openapi.json.
 *
 * - An owner (cookie session, through the gateway): a delivery the receiver refused five times is
 *   dead-lettered; nothing sends it again; the webhook replaced, a replay makes a new delivery for
 *   the active webhook with the same body bytes, signed with its secret — delivered once; the
 *   refusals (delivered, queued elsewhere, no webhook, another owner, unknown ids, a bad instant)
 *   are 409 CONFLICT or 404 with a line naming the state; the owner page counts the replay.
 * - The operator (bearer token): replay of an event whose webhook the receiver disabled is 409
 *   naming the re-enable route; once enabled, 202 and the status route counts it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCustomerWebhook } from '../../src/client/webhooks.js';
import { MONITOR_EVENT_TYPES } from '../../src/core/monitoring/store.js';
import { checkContract, until } from '../support/daemon-client.js';
import { documentPath, FAR_FROM_EXPIRY_DAYS, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { ADMIN_TOKEN, didKeyPrincipal, ownerSession, seedOwner, signIn, type SessionAnswer } from '../support/gateway.js';
import { postgresSql, sqliteDatabase, type Sql, type TestDatabase } from '../support/databases.js';
import { afterPasses, schemaUrl, startLiveDaemon, type LiveDaemon } from '../support/live-daemon.js';
import { schemaPool } from '../support/pg-schemas.js';
import { describePostgres, postgresUrl } from '../support/postgres.js';
import { didDocument, generateTestKey } from '../support/signing.js';

const rowOf = (id: string) => Number(/_([0-9]+)$/.exec(id)![1]);

function expectAnswer(answer: SessionAnswer, status: number, code?: string): any {
  expect({ status: answer.status, code: answer.body?.code }, answer.text.slice(0, 500)).toEqual({ status, code });
  return answer.body;
}

function suite(engine: string, describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>) {
  describeEngine(`replay through the routes (${engine})`, () => {
    const owner = didKeyPrincipal();
    const other = didKeyPrincipal();
    let opened: TestDatabase;
    let host: DidWebHost;
    let daemon: LiveDaemon;
    let project: string;
    let gw: string;
    let A: ReturnType<typeof ownerSession>;
    let B: ReturnType<typeof ownerSession>;
    const sql: Sql = (statement) => opened.sql(statement);

    /** An operator request at the daemon itself, held to openapi.json. */
    async function operator(method: string, route: string, body?: unknown): Promise<SessionAnswer> {
      const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${daemon.url}${route}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      const text = await res.text();
      checkContract(method, `${daemon.url}${route}`, { status: res.status, header: (name) => res.headers.get(name) ?? '', text });
      return { status: res.status, headers: res.headers, text, body: text === '' ? null : JSON.parse(text) };
    }

    beforeAll(async () => {
      opened = await open();
      host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
      [project] = (await seedOwner(opened.target, owner.did, ['replays'])) as [string];
      await seedOwner(opened.target, other.did, ['elsewhere']);
      const env = { SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_COMMERCIAL: 'on', SVC_RATE_LIMIT_PER_MIN: '100000', SVC_GATEWAY_RATE_LIMIT_PER_MIN: '100000' };
      daemon = await startLiveDaemon({ target: opened.target, host, env, gateway: true });
      gw = daemon.gatewayUrl!;
      const a = await signIn(gw, daemon.origin!, owner);
      const b = await signIn(gw, daemon.origin!, other);
      A = ownerSession(gw, daemon.origin!, a.cookie, { contract: true });
      B = ownerSession(gw, daemon.origin!, b.cookie, { contract: true });
    }, 60_000);

    afterAll(async () => {
      await daemon?.stop();
      await host?.close();
      await opened?.done();
    });

    const passesUntil = (what: string, check: () => boolean | Promise<boolean>) => afterPasses(what, daemon.jobs.customer, check);

    /** A receiver on the host answering every delivery with `status` while `answer()` says so. */
    function receiver(name: string, answer: () => number) {
      const deliveries: Array<{ headers: Record<string, string>; body: string }> = [];
      host.server.route(`/hooks/${name}`, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          deliveries.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(answer());
          res.end();
        });
      });
      return { url: `https://127.0.0.1:${host.server.port}/hooks/${name}`, deliveries };
    }

    it('an owner replays a dead letter to the replaced webhook: a new delivery, the same bytes, signed with the new secret, delivered once', async () => {
      const base = `/v1/session/projects/${project}`;
      const dead = receiver('dead', () => 500);
      const first = expectAnswer(await A.post(`${base}/webhook`, { url: dead.url }), 201);
      const did = host.did('replay', 'owner');
      let document = didDocument(did, generateTestKey('EdDSA'));
      host.server.route(documentPath(did), (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/did+json' });
        res.end(JSON.stringify(document));
      });
      const watch = expectAnswer(await A.post(`${base}/watches`, { did }), 201).watch.id as string;
      await passesUntil(
        'the baseline',
        async () => (await sql(`SELECT last_status FROM watches WHERE id = ${rowOf(watch)}`))[0]!['last_status'] === 'RESOLVED',
      );
      document = didDocument(did, generateTestKey('EdDSA'));
      await sql(`UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z' WHERE id = ${rowOf(watch)}`);

      // Five refusals, each retry made due by SQL.
      const statusOf = async () =>
        (await sql(`SELECT id, status FROM customer_webhook_deliveries WHERE project_id = '${project}'`))[0] as { id: string; status: string } | undefined;
      for (let attempt = 1; attempt <= 5; attempt++) {
        await passesUntil(`attempt ${attempt}`, () => dead.deliveries.length === attempt);
        await until(`attempt ${attempt} settled`, async () => (await statusOf())?.status === (attempt < 5 ? 'RETRY' : 'DEAD_LETTER'), 10_000);
        await sql(`UPDATE customer_webhook_deliveries SET next_attempt_at = '2000-01-01T00:00:00Z' WHERE project_id = '${project}' AND status = 'RETRY'`);
      }
      const deadLetter = (await statusOf())!.id;
      for (let i = 0; i < 5; i++) await daemon.jobs.customer.pass();
      expect(dead.deliveries).toHaveLength(5);

      // The webhook replaced: the dead letter stays; a replay makes the new webhook's delivery.
      const fixed = receiver('fixed', () => 204);
      const second = expectAnswer(await A.post(`${base}/webhook`, { url: fixed.url }), 201);
      const replayed = expectAnswer(await A.post(`${base}/webhook-deliveries/${deadLetter}/replay`), 202);
      const target = `dlv_${rowOf(second.config.id)}_${deadLetter.split('_')[2]}`;
      expect(replayed.delivery).toMatchObject({ id: target, webhookId: second.config.id, status: 'PENDING', attempts: 0 });
      await passesUntil('the replay delivered', () => fixed.deliveries.length === 1);
      await until(
        'DELIVERED',
        async () => (await sql(`SELECT status FROM customer_webhook_deliveries WHERE id = '${target}'`))[0]!['status'] === 'DELIVERED',
        10_000,
      );
      for (let i = 0; i < 5; i++) await daemon.jobs.customer.pass();
      expect(fixed.deliveries).toHaveLength(1);
      expect(dead.deliveries).toHaveLength(5);
      const [got] = fixed.deliveries;
      expect(got!.body).toBe(dead.deliveries[0]!.body);
      expect(got!.headers['x-svc-event-id']).toBe(dead.deliveries[0]!.headers['x-svc-event-id']);
      expect(await verifyCustomerWebhook(second.secret, got!.headers, got!.body)).toBe(true);
      expect(await verifyCustomerWebhook(first.secret, got!.headers, got!.body)).toBe(false);

      // Refusals, each one line naming the state.
      const again = expectAnswer(await A.post(`${base}/webhook-deliveries/${deadLetter}/replay`), 409, 'CONFLICT');
      expect(again.detail).toBe(`The active webhook already has ${target} for this event, DELIVERED; replay that one when it is DEAD_LETTER or CANCELLED.`);
      expect(expectAnswer(await A.post(`${base}/webhook-deliveries/${target}/replay`), 409, 'CONFLICT').detail).toMatch(
        new RegExp(`^${target} is DELIVERED; only DEAD_LETTER or CANCELLED deliveries can be replayed`),
      );
      expectAnswer(await B.post(`${base}/webhook-deliveries/${deadLetter}/replay`), 404, 'NOT_FOUND');
      expectAnswer(await A.post(`${base}/webhook-deliveries/dlv_999_999/replay`), 404, 'NOT_FOUND');
      expectAnswer(await A.post(`${base}/webhook-deliveries/nope/replay`), 404, 'NOT_FOUND');
      expectAnswer(await A.post(`${base}/watches/${watch}/replay`, { since: 'yesterday' }), 400, 'INVALID_REQUEST');
      expectAnswer(await A.post(`${base}/watches/${watch}/replay`, {}), 400, 'INVALID_REQUEST');
      // The only dead letter's event is delivered to the active webhook already: nothing to replay.
      expect(expectAnswer(await A.post(`${base}/watches/${watch}/replay`, { since: '2000-01-01T00:00:00Z' }), 202)).toEqual({ replayed: [], count: 0 });
      expectAnswer(await A.post(`${base}/watches/wch_999999/replay`, { since: '2000-01-01T00:00:00Z' }), 404, 'NOT_FOUND');

      // The owner page counts it.
      const page = await A.get('/');
      expect(page.text).toContain('Replays in the last 30 days: 1');
      expect(page.text).toContain('Webhook: enabled');
      expect(page.text).toContain('<code>identity.document.changed</code> 1');

      await A.del(`${base}/webhook`);
      expect(expectAnswer(await A.post(`${base}/webhook-deliveries/${deadLetter}/replay`), 409, 'CONFLICT').detail).toMatch(
        /^The project has no active webhook to replay to: set one first/,
      );
      expectAnswer(await A.post(`${base}/watches/${watch}/replay`, { since: '2000-01-01T00:00:00Z' }), 409, 'CONFLICT');
      expect((await A.get('/')).text).toMatch(/Webhook: <strong>disabled<\/strong> since \d{4}-/);
    }, 120_000);

    it('the operator: a disabled webhook refuses the replay, naming the re-enable route; enabled, 202 and counted', async () => {
      const hook = receiver('operator', () => 204);
      const did = host.did('replay', 'operator');
      host.server.route(documentPath(did), (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/did+json' });
        res.end(JSON.stringify(didDocument(did, generateTestKey('EdDSA'))));
      });
      const watchId = expectAnswer(await operator('POST', '/v1/monitoring/watches', { did, webhookUrl: hook.url }), 201).watch.id as string;
      await sql(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, last_error)
         VALUES (${watchId}, '${did}', 'identity.deactivated', '{"fromHash":null,"toHash":null,"domainBinding":null,"diff":null,"headline":"h","problem":null}',
           '2026-11-20T00:00:00Z', 'CANCELLED', 1, 'the receiver answered 410')`,
      );
      await sql(
        `UPDATE watches SET webhook_disabled_at = '2026-11-20T00:00:01Z', webhook_disabled_reason = 'the receiver answered 410 Gone' WHERE id = ${watchId}`,
      );
      const event = expectAnswer(await operator('GET', `/v1/monitoring/events?watchId=${watchId}`), 200).events[0].id as string;
      expect(expectAnswer(await operator('GET', '/v1/monitoring/status'), 200).disabledWebhooks).toBe(1);

      const refusal = expectAnswer(await operator('POST', `/v1/monitoring/events/${event}/replay`), 409, 'CONFLICT');
      expect(refusal.detail).toBe(
        `The watch's webhook is disabled since 2026-11-20T00:00:01Z (the receiver answered 410 Gone): re-enable it first (POST /v1/monitoring/watches/${watchId}/webhook).`,
      );
      expectAnswer(await operator('POST', `/v1/monitoring/watches/${watchId}/replay`, { since: '2026-01-01T00:00:00Z' }), 409, 'CONFLICT');
      await sql(`UPDATE watches SET webhook_disabled_at = NULL, webhook_disabled_reason = NULL WHERE id = ${watchId}`);

      const replayed = expectAnswer(await operator('POST', `/v1/monitoring/events/${event}/replay`), 202);
      expect(replayed.event).toMatchObject({ id: event, deliveryStatus: 'PENDING', attempts: 0, replays: 1 });
      expect(expectAnswer(await operator('POST', `/v1/monitoring/events/${event}/replay`), 409, 'CONFLICT').detail).toBe(
        `${event} is PENDING; only DEAD_LETTER or CANCELLED events can be replayed (it is still being delivered: wait for it to settle).`,
      );
      expectAnswer(await operator('POST', '/v1/monitoring/events/evt_999999/replay'), 404, 'NOT_FOUND');
      expectAnswer(await operator('POST', '/v1/monitoring/events/7/replay'), 404, 'NOT_FOUND');
      expectAnswer(await operator('POST', `/v1/monitoring/watches/${watchId}/replay`, { since: '2026-13-01T00:00:00Z' }), 400, 'INVALID_REQUEST');
      expect(expectAnswer(await operator('POST', `/v1/monitoring/watches/${watchId}/replay`, { since: '2026-01-01T00:00:00.5+02:00' }), 202)).toEqual({
        replayed: [],
        count: 0,
      });
      expectAnswer(await operator('POST', '/v1/monitoring/watches/999999/replay', { since: '2026-01-01T00:00:00Z' }), 404, 'NOT_FOUND');
      const status = expectAnswer(await operator('GET', '/v1/monitoring/status'), 200);
      expect(status).toMatchObject({ disabledWebhooks: 0, replays: 1 });
      expect(Object.keys(status.eventsByType)).toEqual([...MONITOR_EVENT_TYPES]);
      expect(status.eventsByType['identity.deactivated']).toBe(1);
      // Unauthenticated: 401 before anything is read.
      const anonymous = await fetch(`${daemon.url}/v1/monitoring/events/${event}/replay`, { method: 'POST' });
      expect(anonymous.status).toBe(401);
    }, 60_000);
  });
}

const schemas = schemaPool();
afterAll(() => schemas.dispose());

suite('SQLite', describe, () => sqliteDatabase('svc-replay-routes'));
suite('PostgreSQL', describePostgres, async () => {
  const { schema, drop } = await schemas.take();
  const target = schemaUrl(postgresUrl, schema);
  return { target, sql: postgresSql(target), done: drop };
});
