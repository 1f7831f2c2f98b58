/**
 * Property suite, route level: the routes built last turns — the owner's session core
 * (projects, keys, watches, events, event pages, reports, webhook, deliveries, scheduled usage),
 * the operator's commercial and monitoring routes, claims and the directory, the VC-API
 * verifier and the presentation routes — fed hostile timestamps, cursors and ids, NUL, lone surrogates (percent-encoded as
 * WTF-8 in paths and queries, escaped in JSON) and huge or negative numbers (raw JSON literals
 * such as 1e400 and 2^63), on a SQLite file and on PostgreSQL.
 *
 * The real app answers through inject() over a real store with the commercial mode on; session
 * requests carry the bridge secret and subject as the cookie gateway sets them. The invariant:
 * no answer ≥ 500 but the documented 503s (SERVICE_UNAVAILABLE, CAPACITY_EXHAUSTED), and every
 * answer is JSON the route documents or a problem+json — held to openapi.json by the contract.
 *
 * No case makes svc reach the network: URLs are refused by the egress policy before any lookup
 * (loopback, not https, malformed), DIDs that would be fetched name loopback hosts, and the
 * customer monitor worker is off.
 *
 * Cases per engine: propertyRuns(150) (SVC_PROPERTY_RUNS for a longer run, SVC_PROPERTY_SEED to
 * replay one).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { repoContract } from '../support/daemon-client.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { describePostgres } from '../support/postgres.js';
import { didKeyPrincipal } from '../support/receipts.js';
import { generateTestKey, signEddsaJcs2022 } from '../support/signing.js';
import { propertyParameters, propertyTimeout, wtf8 } from './support/hostile.js';

const RUNS = 150;
const params = propertyParameters(RUNS);
const TIMEOUT = propertyTimeout(RUNS, 400);

// ---------------------------------------------------------------- hostile values

/** Percent-encoding as a hostile client writes it: every byte but the unreserved ones, lone surrogates as WTF-8. */
function pct(text: string): string {
  let out = '';
  for (const byte of wtf8(text))
    out += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** A JSON string literal; lone surrogates escaped (\ud800), as JSON.stringify writes them. */
const lit = (text: string): string => JSON.stringify(text);

const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '\u202e\u2066',
  '\ufeff',
  '%00',
  '%ED%A0%80',
  '../../etc/passwd',
  "' OR 1=1 --",
  '\\',
  '',
  ' ',
  'x'.repeat(3000),
  '\ud83d\ude00',
  'did:key:\u0000',
  'did:web:exa%00mple.com',
];
const text = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 40 }));

/** Years JS Date holds and years it does not, as RFC 3339 spells them (expanded beyond 0000–9999). */
function yearText(year: number): string {
  if (year >= 0 && year <= 9999) return String(year).padStart(4, '0');
  return `${year < 0 ? '-' : '+'}${String(Math.abs(year)).padStart(6, '0')}`;
}

const EDGE_TIMES = [
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00+00:01',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59-00:01',
  '2025-02-29T00:00:00Z',
  '2024-02-29T23:59:60Z',
  '2025-13-01T00:00:00Z',
  '2026-01-01T00:00:00.123456789Z',
  '2026-01-01T00:00:00+99:99',
  '2026-01-01',
  '1e400',
  'NaN',
  '',
  '2026-01-01T00:00:00Z\u0000',
];
const timestamp = fc.oneof(
  fc.constantFrom(...EDGE_TIMES),
  fc
    .record({
      year: fc.integer({ min: -300_000, max: 300_000 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 25 }),
      zone: fc.constantFrom('Z', '+14:00', '-23:59', '+00:00', 'z', ''),
    })
    .map(
      ({ year, month, day, hour, zone }) =>
        `${yearText(year)}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00${zone}`,
    ),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  text,
);

/** Raw JSON number literals (and a few non-numbers where a number goes). */
const number = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
    `1${'0'.repeat(400)}`,
    '1e-400',
    '-0',
    '0.5',
    '1E2',
    '0',
    '-1',
    '101',
    '9007199254740993',
    '"5"',
    'null',
    'true',
    '[]',
    '{}',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
);

/** Ids with svc's prefix: well-formed, overflowing, negative, padded, or plain hostile text. */
const idOf = (prefix: string) =>
  fc.oneof(
    fc.constantFrom(
      `${prefix}_1`,
      `${prefix}_0`,
      `${prefix}_-1`,
      `${prefix}_01`,
      `${prefix}_1e400`,
      `${prefix}_1.5`,
      `${prefix}_0x10`,
      `${prefix}_ 1`,
      `${prefix}_1\u0000`,
      `${prefix}_\ud800`,
    ),
    fc.constantFrom(
      `${prefix}_999999999999999`,
      `${prefix}_9999999999999999`,
      `${prefix}_9223372036854775807`,
      `${prefix}_9223372036854775808`,
      `${prefix}_18446744073709551616`,
    ),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => `${prefix}_${n}`),
    text,
  );

/** URLs refused before any DNS lookup: loopback or private addresses, not https, malformed. */
const url = fc.oneof(
  fc.constantFrom(
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://10.0.0.1/hook',
    'http://127.0.0.1/hook',
    'https://\u0000/',
    'https://127.0.0.1/\u0000',
    'https://a%00b/',
    'ftp://127.0.0.1/',
    'https://',
    '',
    'https://127.0.0.1:99999/',
  ),
  text,
);

/** A JSON object text of the members given (undefined ones left out). */
function object(members: Record<string, string | undefined>): string {
  return `{${Object.entries(members)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${v!}`)
    .join(',')}}`;
}

/** A query string of the options given (undefined ones left out). */
function query(options: Record<string, string | undefined>): string {
  const parts = Object.entries(options)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${pct(v!)}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

// ---------------------------------------------------------------- the requests

interface Op {
  who: 'owner' | 'operator' | 'anonymous';
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: string;
}

interface Fixtures {
  owner: string;
  tenant: string;
  project: string;
  /** Another tenant's project, which the owner does not own. */
  foreign: string;
  watch: string;
  issuerDid: string;
  credential: Record<string, unknown>;
}

function operations(f: Fixtures): fc.Arbitrary<Op> {
  const did = fc.oneof(
    fc.constant(f.owner),
    fc.constant('did:web:127.0.0.1'),
    fc.constant('did:web:127.0.0.1%3A8443:x'),
    text,
    text.map((t) => `did:key:${t}`),
    text.map((t) => `did:web:${t}`),
  );
  const project = fc.oneof(fc.constant(f.project), fc.constant(f.foreign), idOf('prj'), text);
  const watch = fc.oneof(fc.constant(f.watch), idOf('wch'));
  const tenant = fc.oneof(fc.constant(f.tenant), idOf('ten'), text);
  const session = (p: string) => `/v1/session/projects/${pct(p)}`;

  const owner: Array<fc.Arbitrary<Op>> = [
    fc.constantFrom<Op>({ who: 'owner', method: 'GET', url: '/v1/session/projects' }, { who: 'owner', method: 'GET', url: '/v1/session/scheduled-usage' }),
    project.chain((p) =>
      fc.constantFrom<Op>(
        { who: 'owner', method: 'GET', url: `${session(p)}/watches` },
        { who: 'owner', method: 'GET', url: `${session(p)}/webhook` },
        { who: 'owner', method: 'DELETE', url: `${session(p)}/webhook` },
        { who: 'owner', method: 'GET', url: `${session(p)}/webhook-deliveries` },
        { who: 'owner', method: 'GET', url: `${session(p)}/keys` },
      ),
    ),
    fc.record({ p: project, d: did }).map(({ p, d }) => ({ who: 'owner', method: 'POST', url: `${session(p)}/watches`, body: object({ did: lit(d) }) })),
    fc.record({ p: project, w: watch }).map(({ p, w }) => ({ who: 'owner', method: 'GET', url: `${session(p)}/watches/${pct(w)}/events` })),
    fc
      .record({ p: project, w: watch, limit: opt(number), asOf: opt(timestamp), snapshot: opt(idOf('evt')), before: opt(idOf('evt')), extra: opt(text) })
      .map(({ p, w, limit, asOf, snapshot, before, extra }) => ({
        who: 'owner',
        method: 'POST',
        url: `${session(p)}/watches/${pct(w)}/event-page`,
        body: object({
          limit: limit ?? '5',
          asOf: asOf === undefined ? undefined : lit(asOf),
          snapshotEventId: snapshot === undefined ? undefined : lit(snapshot),
          beforeEventId: before === undefined ? undefined : lit(before),
          ...(extra !== undefined ? { [extra]: '1' } : {}),
        }),
      })),
    fc
      .record({ p: project, w: watch, body: fc.constantFrom('{}', '{"asOf":"+275760-09-13T00:00:00Z"}', '[]', 'null', '{"x":1e400}') })
      .map(({ p, w, body }) => ({ who: 'owner', method: 'POST', url: `${session(p)}/watches/${pct(w)}/report`, body })),
    // Never the fixture watch itself: the other cases need it.
    fc
      .record({ p: project, w: idOf('wch').filter((w) => w !== f.watch) })
      .map(({ p, w }) => ({ who: 'owner', method: 'DELETE', url: `${session(p)}/watches/${pct(w)}` })),
    fc.record({ p: project, u: url }).map(({ p, u }) => ({ who: 'owner', method: 'POST', url: `${session(p)}/webhook`, body: object({ url: lit(u) }) })),
    fc.record({ p: project, label: opt(text) }).map(({ p, label }) => ({
      who: 'owner',
      method: 'POST',
      url: `${session(p)}/keys`,
      body: object({ label: label === undefined ? undefined : lit(label) }),
    })),
    fc
      .record({ p: project, k: fc.oneof(idOf('key'), text) })
      .chain(({ p, k }) =>
        fc.constantFrom<Op>(
          { who: 'owner', method: 'DELETE', url: `${session(p)}/keys/${pct(k)}` },
          { who: 'owner', method: 'POST', url: `${session(p)}/keys/${pct(k)}/rotate`, body: '{}' },
        ),
      ),
  ];

  const operator: Array<fc.Arbitrary<Op>> = [
    fc.constantFrom<Op>(
      { who: 'operator', method: 'GET', url: '/v1/commercial/plans' },
      { who: 'operator', method: 'GET', url: '/v1/monitoring/watches' },
      { who: 'operator', method: 'GET', url: '/v1/monitoring/status' },
    ),
    fc
      .record({ name: text, owner: did })
      .map(({ name, owner }) => ({ who: 'operator', method: 'POST', url: '/v1/commercial/tenants', body: object({ name: lit(name), owner: lit(owner) }) })),
    fc
      .record({ t: tenant, name: text })
      .map(({ t, name }) => ({ who: 'operator', method: 'POST', url: `/v1/commercial/tenants/${pct(t)}/projects`, body: object({ name: lit(name) }) })),
    fc
      .record({ t: tenant, subject: did })
      .map(({ t, subject }) => ({ who: 'operator', method: 'POST', url: `/v1/commercial/tenants/${pct(t)}/owners`, body: object({ subject: lit(subject) }) })),
    // Never the fixture owner of the fixture tenant: the owner's cases need it.
    fc
      .record({ t: tenant, subject: did })
      .filter(({ t, subject }) => !(t === f.tenant && subject === f.owner))
      .map(({ t, subject }) => ({ who: 'operator', method: 'DELETE', url: `/v1/commercial/tenants/${pct(t)}/owners/${pct(subject)}` })),
    project.map((p) => ({ who: 'operator', method: 'GET', url: `/v1/commercial/projects/${pct(p)}/usage` })),
    fc
      .record({ id: fc.oneof(fc.constant('basic'), text), name: text, currency: fc.oneof(fc.constant('EUR'), text), price: number, included: number })
      .map(({ id, name, currency, price, included }) => ({
        who: 'operator',
        method: 'POST',
        url: '/v1/commercial/plans',
        body: object({ id: lit(id), name: lit(name), currency: lit(currency), monthlyPriceMinor: price, includedRequests: included }),
      })),
    fc
      .record({ t: tenant, plan: fc.oneof(fc.constant('basic'), text) })
      .map(({ t, plan }) => ({ who: 'operator', method: 'POST', url: `/v1/commercial/tenants/${pct(t)}/subscription`, body: object({ plan: lit(plan) }) })),
    fc
      .record({ t: tenant, period: fc.oneof(fc.constantFrom('0000-01', '9999-12', '2026-13', '10000-01', '-0001-01', '2026-01'), text) })
      .map(({ t, period }) => ({
        who: 'operator',
        method: 'POST',
        url: `/v1/commercial/tenants/${pct(t)}/close-period`,
        body: object({ period: lit(period) }),
      })),
    tenant.map((t) => ({ who: 'operator', method: 'GET', url: `/v1/commercial/tenants/${pct(t)}/billing` })),
    timestamp.map((before) => ({ who: 'operator', method: 'GET', url: `/v1/monitoring/retention-preview${query({ before })}` })),
    fc.oneof(number, text).map((watchId) => ({ who: 'operator', method: 'GET', url: `/v1/monitoring/events${query({ watchId })}` })),
    fc
      .oneof(number, text)
      .chain((id) =>
        fc.constantFrom<Op>(
          { who: 'operator', method: 'DELETE', url: `/v1/monitoring/watches/${pct(id)}` },
          { who: 'operator', method: 'POST', url: `/v1/monitoring/watches/${pct(id)}/check`, body: '{}' },
        ),
      ),
    fc.record({ d: did, u: url, interval: opt(number) }).map(({ d, u, interval }) => ({
      who: 'operator',
      method: 'POST',
      url: '/v1/monitoring/watches',
      body: object({ did: lit(d), webhookUrl: lit(u), intervalSeconds: interval }),
    })),
  ];

  // A directory cursor: hostile text, or base64url of a cursor-shaped JSON with a hostile position.
  const cursor = fc.oneof(
    text,
    fc
      .record({ a: number, q: opt(text) })
      .map(({ a, q }) => Buffer.from(`{"v":1,"a":${a},"q":${q === undefined ? 'null' : lit(q)},"m":null}`, 'utf8').toString('base64url')),
  );
  const anonymous: Array<fc.Arbitrary<Op>> = [
    fc
      .record({
        d: did,
        method: fc.oneof(fc.constantFrom('signature', 'well-known', 'dns'), text),
        purpose: opt(fc.oneof(fc.constantFrom('claim', 'list'), text)),
        ttl: opt(number),
      })
      .map(({ d, method, purpose, ttl }) => ({
        who: 'anonymous',
        method: 'POST',
        url: '/v1/claims/challenges',
        body: object({ did: lit(d), method: lit(method), purpose: purpose === undefined ? undefined : lit(purpose), expiresInSeconds: ttl }),
      })),
    fc.record({ d: did, token: text, jws: opt(text) }).map(({ d, token, jws }) => ({
      who: 'anonymous',
      method: 'POST',
      url: '/v1/claims/verify',
      body: object({ did: lit(d), token: lit(token), jws: jws === undefined ? undefined : lit(jws) }),
    })),
    did.map((d) => ({ who: 'anonymous', method: 'GET', url: `/v1/claims/${pct(d)}` })),
    fc
      .record({ q: opt(text), method: opt(fc.oneof(fc.constantFrom('web', 'key'), text)), limit: opt(fc.oneof(number, text)), cursor: opt(cursor) })
      .map((options) => ({ who: 'anonymous', method: 'GET', url: `/v1/directory${query(options)}` })),
    // VC-API: a signed credential with hostile dates, issuer or proof time; or an enveloped one.
    fc
      .record({
        validFrom: opt(timestamp),
        validUntil: opt(timestamp),
        issuer: opt(did),
        created: opt(timestamp),
        checks: opt(fc.array(text, { maxLength: 3 })),
      })
      .map(({ validFrom, validUntil, issuer, created, checks }) => {
        const credential: Record<string, unknown> = { ...f.credential };
        if (validFrom !== undefined) credential['validFrom'] = validFrom;
        if (validUntil !== undefined) credential['validUntil'] = validUntil;
        if (issuer !== undefined) credential['issuer'] = issuer;
        if (created !== undefined) credential['proof'] = { ...(f.credential['proof'] as object), created };
        return {
          who: 'anonymous',
          method: 'POST',
          url: '/credentials/verify',
          body: JSON.stringify({ verifiableCredential: credential, ...(checks ? { options: { checks } } : {}) }),
        };
      }),
    text.map((jwt) => ({
      who: 'anonymous',
      method: 'POST',
      url: '/credentials/verify',
      body: JSON.stringify({
        verifiableCredential: {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: 'EnvelopedVerifiableCredential',
          id: `data:application/vc+jwt,${jwt}`,
        },
      }),
    })),
    // Presentations: the signed credential in an unsigned presentation (object or JSON text) with hostile
    // options and trusted issuers; an enveloped vp+jwt of hostile text on the VC-API binding.
    fc
      .record({ challenge: opt(text), domain: opt(text), trusted: opt(fc.array(did, { maxLength: 3 })), asText: fc.boolean() })
      .map(({ challenge, domain, trusted, asText }) => {
        const vp = {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: ['VerifiablePresentation'],
          holder: f.issuerDid,
          verifiableCredential: [f.credential],
        };
        return {
          who: 'anonymous',
          method: 'POST',
          url: '/v1/presentations/verify',
          body: JSON.stringify({ presentation: asText ? JSON.stringify(vp) : vp, challenge, domain, trustedIssuers: trusted }),
        };
      }),
    fc.record({ jwt: text, challenge: opt(text) }).map(({ jwt, challenge }) => ({
      who: 'anonymous',
      method: 'POST',
      url: '/presentations/verify',
      body: JSON.stringify({
        verifiablePresentation: {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: 'EnvelopedVerifiablePresentation',
          id: `data:application/vp+jwt,${jwt}`,
        },
        ...(challenge === undefined ? {} : { options: { challenge } }),
      }),
    })),
    fc
      .constantFrom(
        `{"verifiableCredential":{"validFrom":1e400}}`,
        `{"verifiableCredential":{"issuer":"\\ud800"}}`,
        `{"verifiableCredential":{"issuer":"a\\u0000"},"options":{"checks":["\\u0000"]}}`,
      )
      .map((body) => ({
        who: 'anonymous',
        method: 'POST',
        url: '/credentials/verify',
        body,
      })),
  ];

  return fc.oneof(...owner, ...operator, ...anonymous);
}

// ---------------------------------------------------------------- the invariant

const DOCUMENTED_503 = new Set(['SERVICE_UNAVAILABLE', 'CAPACITY_EXHAUSTED']);
const STACK = /\n\s+at \S|node:internal|file:\/\/\/|\.[cm]?[jt]sx?:\d+:\d+/;

async function send(app: InjectedApp, owner: string, op: Op) {
  switch (op.who) {
    case 'owner':
      return app.session(owner, op.method, op.url, op.body);
    case 'operator':
      return app.operator(op.method, op.url, op.body);
    default:
      return app.anonymous(op.method, op.url, op.body);
  }
}

function expectAnswered(op: Op, answer: Awaited<ReturnType<InjectedApp['anonymous']>>): void {
  const label = `${op.method} ${op.url.slice(0, 300)}${op.body !== undefined ? ` ${JSON.stringify(op.body.slice(0, 300))}` : ''} → ${answer.statusCode} ${answer.body.slice(0, 300)}`;
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.statusCode === 204) {
    expect(answer.body, label).toBe('');
  } else {
    expect(type, label).toMatch(/^application\/(problem\+)?json; charset=utf-8$/);
    const body = JSON.parse(answer.body) as { code?: string; status?: number; detail?: string };
    if (type.startsWith('application/problem+json')) {
      expect(body.status, label).toBe(answer.statusCode);
      expect(STACK.test(body.detail ?? ''), label).toBe(false);
      if (answer.statusCode >= 500) expect(answer.statusCode === 503 && DOCUMENTED_503.has(body.code ?? ''), label).toBe(true);
    }
  }
  expect(answer.statusCode < 500 || answer.statusCode === 503, label).toBe(true);
  // What the route documents, status and body alike (openapi.json).
  repoContract().check(op.method, `http://svc.test${op.url}`, {
    status: answer.statusCode,
    header: (name: string) => String(answer.headers[name.toLowerCase()] ?? ''),
    text: answer.body,
  });
}

// ---------------------------------------------------------------- per engine

function suite(engine: 'SQLite' | 'PostgreSQL', describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>) {
  describeEngine(`hostile requests on the session, commercial, monitoring, claims, directory and VC-API routes (${engine})`, () => {
    let db: TestDatabase;
    let app: InjectedApp;
    let fixtures: Fixtures;

    beforeAll(async () => {
      db = await open();
      app = await injectedApp(db.target);
      const owner = didKeyPrincipal().did;
      const tenant = (await app.accounts.createTenant({ name: 'acme', owner })).id;
      const project = (await app.accounts.createProject(tenant, { name: 'web' })).id;
      const other = (await app.accounts.createTenant({ name: 'other', owner: didKeyPrincipal().did })).id;
      const foreign = (await app.accounts.createProject(other, { name: 'theirs' })).id;
      const created = await app.session(owner, 'POST', `/v1/session/projects/${project}/watches`, { did: owner });
      expect(created.statusCode, created.body).toBe(201);
      const watch = JSON.parse(created.body).watch.id as string;
      // A few events of the watch, so that pages, cursors and reports have rows to walk.
      const row = Number(watch.slice(4));
      for (let i = 0; i < 3; i++) {
        await db.sql(
          `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, watch_revision) VALUES (${row}, '${owner}', 'identity.resolution.failed', ` +
            `'{"fromHash":null,"toHash":null,"domainBinding":null,"diff":null,"problem":null,"headline":"filler ${i}"}', '${new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')}', 'PENDING', NULL)`,
        );
      }
      const key = generateTestKey('EdDSA');
      const issuerDid = `did:key:${key.multikey!}`;
      const credential = signEddsaJcs2022(
        {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: ['VerifiableCredential'],
          issuer: issuerDid,
          validFrom: '2025-01-01T00:00:00Z',
          credentialSubject: { id: 'did:example:subject', name: 'Alice' },
        },
        key,
        `${issuerDid}#${key.multikey!}`,
        '2025-01-01T00:00:00Z',
      ) as Record<string, unknown>;
      fixtures = { owner, tenant, project, foreign, watch, issuerDid, credential };
      // The fixture answers before any hostile request: a page of the three events.
      const page = await app.session(owner, 'POST', `/v1/session/projects/${project}/watches/${watch}/event-page`, { limit: 5 });
      expect(JSON.parse(page.body).events).toHaveLength(3);
    });
    afterAll(async () => {
      await app?.close();
      await db?.done();
    });

    it(
      'no answer ≥ 500 but the documented 503s; every answer a documented result or a problem',
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.constant(null).chain(() => operations(fixtures)),
            async (op) => {
              expectAnswered(op, await send(app, fixtures.owner, op));
            },
          ),
          params,
        );
      },
      TIMEOUT,
    );

    it(
      'each route family at its hostile edges (every case once, whatever the random draw)',
      async () => {
        const { owner, project, watch } = fixtures;
        const page = `/v1/session/projects/${project}/watches/${watch}/event-page`;
        const cases: Op[] = [
          ...EDGE_TIMES.map((asOf): Op => ({ who: 'owner', method: 'POST', url: page, body: object({ limit: '5', asOf: lit(asOf) }) })),
          ...['1e400', '9223372036854775808', '-1', '0', '101'].map((limit): Op => ({ who: 'owner', method: 'POST', url: page, body: object({ limit }) })),
          ...['evt_9223372036854775808', 'evt_1e400', 'evt_-1', 'evt_0', 'evt_\u0000', 'evt_999999999999999'].map(
            (id): Op => ({ who: 'owner', method: 'POST', url: page, body: object({ limit: '5', snapshotEventId: lit(id), beforeEventId: lit(id) }) }),
          ),
          ...HOSTILE_TEXT.map((q): Op => ({ who: 'anonymous', method: 'GET', url: `/v1/directory${query({ q: q.slice(0, 100) })}` })),
          ...HOSTILE_TEXT.map(
            (name): Op => ({
              who: 'operator',
              method: 'POST',
              url: '/v1/commercial/tenants',
              body: object({ name: lit(name.slice(0, 100)), owner: lit(owner) }),
            }),
          ),
          ...HOSTILE_TEXT.map((p): Op => ({ who: 'owner', method: 'GET', url: `/v1/session/projects/${pct(p)}/keys` })),
          ...EDGE_TIMES.map((before): Op => ({ who: 'operator', method: 'GET', url: `/v1/monitoring/retention-preview${query({ before })}` })),
          ...EDGE_TIMES.map(
            (validFrom): Op => ({
              who: 'anonymous',
              method: 'POST',
              url: '/credentials/verify',
              body: JSON.stringify({ verifiableCredential: { ...fixtures.credential, validFrom } }),
            }),
          ),
        ];
        for (const op of cases) expectAnswered(op, await send(app, owner, op));
      },
      TIMEOUT,
    );
  });
}

suite('SQLite', describe, () => sqliteDatabase('svc-hostile-routes'));
suite('PostgreSQL', describePostgres, postgresDatabase);
