/**
 * No 500 from content, anywhere. The attacks that broke (or would have) a
 * fresh build, each on a SQLite file and on PostgreSQL, through the real app (inject(): the
 * process boundary is not the subject) over a real store:
 *
 * - event-page with asOf of year 275760 or year −1 → was 500 INTERNAL_ERROR on both engines;
 * - the directory with q holding NUL → was 500 on PostgreSQL (its text refuses NUL);
 * - NUL in the other free text and ids that reach the store — tenant, project, plan and key
 *   names, a subscription's plan, a claim token, ids in paths — was 500 on PostgreSQL;
 * - found by the property suite (test/property/hostile-routes.test.ts), on both engines: an
 *   empty key label (the schema let it through, the store refused it: 500), and closing month
 *   0000-01 (its end written "1-02-01…", before its start as text) or 9999-12 (its end in year
 *   10000): a CHECK constraint, 500.
 *
 * Each is now a precise problem naming the parameter: 400 for a body member or query option,
 * the 404 of an id that does not exist for a path parameter; the edges of the documented range
 * (0000-01-01T00:00:00Z, 9999-12-31T23:59:59Z) are answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { describePostgres } from '../support/postgres.js';
import { didKeyPrincipal } from '../support/receipts.js';

type Answer = Awaited<ReturnType<InjectedApp['anonymous']>>;

/** A problem of this status and code whose detail names `parameter`. */
function refused(answer: Answer, status: number, code: string, parameter: string): void {
  expect({ status: answer.statusCode, type: answer.headers['content-type'] }, answer.body.slice(0, 400)).toEqual({
    status,
    type: 'application/problem+json; charset=utf-8',
  });
  const problem = JSON.parse(answer.body) as { code: string; detail: string; status: number };
  expect(problem.code).toBe(code);
  expect(problem.status).toBe(status);
  expect(problem.detail).toContain(`"${parameter}"`);
}

const NUL = '\u0000';

function suite(engine: 'SQLite' | 'PostgreSQL', describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>) {
  describeEngine(`attacks on content (${engine})`, () => {
    const owner = didKeyPrincipal().did;
    let db: TestDatabase;
    let a: InjectedApp;
    let tenant: string;
    let project: string;
    let pagePath: string;

    beforeAll(async () => {
      db = await open();
      a = await injectedApp(db.target);
      tenant = (await a.accounts.createTenant({ name: 'acme', owner })).id;
      project = (await a.accounts.createProject(tenant, { name: 'web' })).id;
      const created = await a.session(owner, 'POST', `/v1/session/projects/${project}/watches`, { did: owner });
      expect(created.statusCode).toBe(201);
      pagePath = `/v1/session/projects/${project}/watches/${JSON.parse(created.body).watch.id as string}/event-page`;
    });
    afterAll(async () => {
      await a?.close();
      await db?.done();
    });

    it('event-page with asOf in year 275760 (the last instant JS Date holds) → 400 naming asOf, not 500', async () => {
      refused(await a.session(owner, 'POST', pagePath, { limit: 5, asOf: '+275760-09-13T00:00:00.000Z' }), 400, 'INVALID_REQUEST', 'asOf');
    });

    it('event-page with asOf in year −1 → 400 naming asOf, not 500', async () => {
      refused(await a.session(owner, 'POST', pagePath, { limit: 5, asOf: '-000001-01-01T00:00:00Z' }), 400, 'INVALID_REQUEST', 'asOf');
    });

    it('event-page with asOf before year 0 once its offset applies, after 9999, or an impossible day → 400 naming asOf', async () => {
      for (const asOf of ['0000-01-01T00:30:00+01:00', '9999-12-31T23:59:59-00:01', '2025-02-30T00:00:00Z', '2025-01-01T00:00:60Z', '2025-01-01']) {
        refused(await a.session(owner, 'POST', pagePath, { limit: 5, asOf }), 400, 'INVALID_REQUEST', 'asOf');
      }
    });

    it('event-page at both edges of the documented range is answered', async () => {
      for (const [asOf, echoed] of [
        ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00Z'],
        ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59Z'],
      ]) {
        const answer = await a.session(owner, 'POST', pagePath, { limit: 5, asOf });
        expect(answer.statusCode, answer.body).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ events: [], asOf: echoed, hasMore: false, next: null });
      }
    });

    it('the directory with q holding NUL → 400 naming q, not 500', async () => {
      refused(await a.anonymous('GET', '/v1/directory?q=%00'), 400, 'INVALID_OPTIONS', 'q');
      refused(await a.anonymous('GET', '/v1/directory?q=did%00web'), 400, 'INVALID_OPTIONS', 'q');
      // A cursor holding NUL is refused as well, before it is decoded.
      refused(await a.anonymous('GET', '/v1/directory?cursor=%00'), 400, 'INVALID_OPTIONS', 'cursor');
      // Text that both engines hold is still searched.
      expect((await a.anonymous('GET', '/v1/directory?q=%F0%9F%98%80')).statusCode).toBe(200);
    });

    it('NUL in the operator’s tenant, project and plan names and a subscription’s plan → 400 naming the member', async () => {
      refused(await a.operator('POST', '/v1/commercial/tenants', { name: `a${NUL}b`, owner }), 400, 'INVALID_REQUEST', 'name');
      refused(await a.operator('POST', `/v1/commercial/tenants/${tenant}/projects`, { name: `a${NUL}` }), 400, 'INVALID_REQUEST', 'name');
      refused(
        await a.operator('POST', '/v1/commercial/plans', { id: 'basic', name: `b${NUL}`, currency: 'EUR', monthlyPriceMinor: 100, includedRequests: 10 }),
        400,
        'INVALID_REQUEST',
        'name',
      );
      refused(await a.operator('POST', `/v1/commercial/tenants/${tenant}/subscription`, { plan: `basic${NUL}` }), 400, 'INVALID_REQUEST', 'plan');
    });

    it('NUL in a tenant, project or owner id in the path → the 404 of an unknown id, naming the parameter', async () => {
      refused(await a.operator('POST', '/v1/commercial/tenants/ten_%00/projects', { name: 'x' }), 404, 'NOT_FOUND', 'tenant');
      refused(await a.operator('GET', '/v1/commercial/tenants/%00/billing'), 404, 'NOT_FOUND', 'tenant');
      refused(await a.operator('DELETE', `/v1/commercial/tenants/${tenant}/owners/did%3Akey%3A%00`), 404, 'NOT_FOUND', 'subject');
      refused(await a.operator('GET', '/v1/commercial/projects/prj_%00/usage'), 404, 'NOT_FOUND', 'project');
    });

    it('NUL in an owner’s project or key id, or a key label → 404 / 400 naming it', async () => {
      refused(await a.session(owner, 'GET', '/v1/session/projects/prj_%00/watches'), 404, 'NOT_FOUND', 'project');
      refused(await a.session(owner, 'GET', '/v1/session/projects/%00/keys'), 404, 'NOT_FOUND', 'project');
      refused(await a.session(owner, 'DELETE', `/v1/session/projects/${project}/keys/key_%00`), 404, 'NOT_FOUND', 'key');
      refused(await a.session(owner, 'POST', `/v1/session/projects/${project}/keys/%00/rotate`, {}), 404, 'NOT_FOUND', 'key');
      refused(await a.session(owner, 'POST', `/v1/session/projects/${project}/keys`, { label: `ci${NUL}` }), 400, 'INVALID_REQUEST', 'label');
    });

    it('an empty key label (the store takes 1 to 100 characters) → 400 naming label, not 500', async () => {
      refused(await a.session(owner, 'POST', `/v1/session/projects/${project}/keys`, { label: '' }), 400, 'INVALID_REQUEST', 'label');
    });

    it('closing month 0000-01 (the next month was written "1-02") or 9999-12 (its end in year 10000) → an invoice or 400 naming period, not 500', async () => {
      expect(
        (await a.operator('POST', '/v1/commercial/plans', { id: 'basic', name: 'Basic', currency: 'EUR', monthlyPriceMinor: 100, includedRequests: 10 }))
          .statusCode,
      ).toBe(200);
      expect((await a.operator('POST', `/v1/commercial/tenants/${tenant}/subscription`, { plan: 'basic' })).statusCode).toBe(200);
      for (const [period, end] of [
        ['0000-01', '0000-02-01T00:00:00Z'],
        ['0000-12', '0001-01-01T00:00:00Z'],
        ['9999-11', '9999-12-01T00:00:00Z'],
      ]) {
        const closed = await a.operator('POST', `/v1/commercial/tenants/${tenant}/close-period`, { period });
        expect(closed.statusCode, closed.body).toBe(201);
        expect(JSON.parse(closed.body).invoice).toMatchObject({ periodStart: `${period}-01T00:00:00Z`, periodEnd: end });
      }
      refused(await a.operator('POST', `/v1/commercial/tenants/${tenant}/close-period`, { period: '9999-12' }), 400, 'INVALID_REQUEST', 'period');
    });

    it('an operator events filter beyond 2^53 (read as its neighbour) → 400 naming watchId', async () => {
      refused(await a.operator('GET', '/v1/monitoring/events?watchId=9007199254740993'), 400, 'INVALID_OPTIONS', 'watchId');
      expect((await a.operator('GET', '/v1/monitoring/events?watchId=9007199254740991')).statusCode).toBe(200);
    });

    it('NUL in a claim token → 400 naming token', async () => {
      refused(await a.anonymous('POST', '/v1/claims/verify', { did: owner, token: `t${NUL}` }), 400, 'INVALID_REQUEST', 'token');
    });
  });
}

suite('SQLite', describe, () => sqliteDatabase('svc-attacks-content'));
suite('PostgreSQL', describePostgres, postgresDatabase);
