/**
 * The owner sign-in flow with the daemon on PostgreSQL (a database of its own): challenge,
 * sign-in, the session, a forwarded GET, a reused challenge refused, sign-out.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Daemon } from '../support/daemon.js';
import { didKeyPrincipal, gatewayUrl, get, postJson, seedOwner, signIn, signInWith, signStatement, startGatewayDaemon } from '../support/gateway.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';

describePostgres('owner sign-in at the cookie gateway, on PostgreSQL', () => {
  const owner = didKeyPrincipal();
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let projects: string[];
  let daemon: Daemon;
  let gw: string;
  let origin: string;

  beforeAll(async () => {
    database = await freshDatabase();
    projects = await seedOwner(database.url, owner.did, ['pg']);
    const started = await startGatewayDaemon({ noDb: true, args: ['--db', database.url] });
    daemon = started.daemon;
    origin = started.origin;
    gw = gatewayUrl(daemon);
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await database?.drop();
  });

  it('signs in, forwards with the session, refuses a reused challenge, signs out', async () => {
    const signed = await signIn(gw, origin, owner);
    expect(signed.status).toBe(200);
    expect(signed.setCookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const list = await get(gw, '/v1/session/projects', { cookie: signed.cookie, 'x-svc-subject': 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ subject: owner.did, projects: [{ id: projects[0], name: 'pg' }] });

    const challenge = await postJson(gw, '/sign-in/challenge', { did: owner.did });
    const body = { did: owner.did, challenge: challenge.body.challenge, jws: signStatement(owner, challenge.body.statement) };
    expect((await signInWith(gw, origin, body)).status).toBe(200);
    expect((await signInWith(gw, origin, body)).status).toBe(401);

    const out = await fetch(`${gw}/sign-out`, { method: 'POST', headers: { cookie: signed.cookie, origin } });
    expect(out.status).toBe(204);
    expect((await get(gw, '/v1/session/projects', { cookie: signed.cookie })).status).toBe(401);
  });
});
