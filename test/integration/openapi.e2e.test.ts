/**
 * The API contract: the committed openapi.json is what the built daemon serves at
 * GET /openapi.json (direct and public profiles alike), it is a valid OpenAPI 3.1 document, and
 * it documents every route of the daemon: every status with a response schema, the request
 * schemas, the budget. The responses themselves are held to it by the contract hook of
 * test/support/daemon-client.ts (every call() of the daemon suites).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/node.js';
import { documentedUrl, openApiRoute } from '../../src/server/plugins/openapi.js';
import { appRoutes } from '../../src/server/routes/index.js';
import { Capacity } from '../../src/server/capacity.js';
import type { RouteDef, ServerContext } from '../../src/server/context.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { repoRoot } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, repoContract, startDaemonFor, type OpenApiDocument } from '../support/daemon-client.js';

const committed = readFileSync(path.join(repoRoot, 'openapi.json'), 'utf8');
const doc = JSON.parse(committed) as OpenApiDocument & Record<string, any>;

/** The daemon's route table (the routes buildApp registers), from a context of real pieces. */
function routeTable(): RouteDef[] {
  const storage = new StorageSlot(':memory:', false, { maxObservations: 10, maxMcpObservations: 10, warn: () => {} });
  const runtime = createRuntime({});
  const ctx: ServerContext = {
    runtime,
    storage,
    profile: 'direct',
    limits: DEFAULT_LIMITS,
    capacity: new Capacity(DEFAULT_LIMITS.maxConcurrency, DEFAULT_LIMITS.maxConcurrencyPerClient),
    startedAt: new Date(0),
    draining: false,
    active: 0,
  };
  try {
    return [...appRoutes(ctx), openApiRoute(() => '')];
  } finally {
    storage.close();
  }
}

/** `/v1/resolve/*` → `/v1/resolve/{did}`, as the document names it. */
function documentedPath(route: RouteDef): string {
  return documentedUrl(route.url, route.schema?.params).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

describe('openapi.json', () => {
  let direct: Daemon;
  let pub: Daemon;
  beforeAll(async () => {
    [direct, pub] = await Promise.all([startDaemonFor(null), startDaemonFor(null, { args: ['--public'] })]);
  });
  afterAll(async () => {
    await Promise.all([direct?.stop(), pub?.stop()]);
  });

  it('is what the built daemon serves at GET /openapi.json, on both profiles (run `npm run build && npm run openapi` after a change)', async () => {
    for (const daemon of [direct, pub]) {
      const answer = await call(`${daemon.url}/openapi.json`);
      expectJson(answer, 200);
      expect(answer.text).toBe(committed);
    }
    expect(committed.endsWith('}\n')).toBe(true);
    expect(committed).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('GET /openapi.json takes no query option and is not rate limited', async () => {
    const bad = await call(`${direct.url}/openapi.json?x=1`);
    expect(bad.status).toBe(400);
    expect(doc.paths['/openapi.json']?.['get']?.['x-svc-budget' as never]).toBe('none');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc['info']).toMatchObject({ title: 'svc', version: JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version });
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('documents every route of the daemon: every status with a schema, the request schemas, the budget', () => {
    const routes = routeTable();
    const documented = new Set<string>();
    const operationIds = new Set<string>();
    // Every gap, listed at once (route: what is missing).
    const gaps: string[] = [];
    const need = (ok: boolean, gap: string) => {
      if (!ok) gaps.push(gap);
    };
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      const pathName = documentedPath(route);
      const operation = doc.paths[pathName]?.[route.method.toLowerCase()] as Record<string, any> | undefined;
      documented.add(`${route.method.toLowerCase()} ${pathName}`);
      if (route.schema === undefined || operation === undefined) {
        gaps.push(`${where}: ${route.schema === undefined ? 'no schema' : `not in paths as ${pathName}`}`);
        continue;
      }
      need(typeof operation['summary'] === 'string' && operation['summary'] !== '', `${where}: summary`);
      // The clients name their methods after it (camelCase; snake_case in Python): present, unique.
      need(typeof operation['operationId'] === 'string' && /^[a-z][A-Za-z0-9]*$/.test(operation['operationId']), `${where}: operationId`);
      need(!operationIds.has(operation['operationId']), `${where}: operationId ${operation['operationId']} is not unique`);
      operationIds.add(operation['operationId']);
      need(Array.isArray(operation['tags']) && operation['tags'].length > 0, `${where}: tags`);
      need(
        operation['x-svc-budget'] === (route.budget === 'resolve' ? 'standard' : route.budget === 'inspection' ? 'intensive' : route.budget),
        `${where}: x-svc-budget`,
      );
      const statuses = Object.keys(operation['responses']);
      for (const status of statuses) {
        const response = operation['responses'][status];
        need(typeof response.description === 'string' && response.description !== 'Default Response', `${where} ${status}: description`);
        // No body: 204, a redirect (303), not modified (304).
        if (status === '204' || status === '303' || status === '304') continue;
        const media = Object.entries(response.content ?? {}) as Array<[string, { schema?: unknown }]>;
        need(media.length > 0, `${where} ${status}: no content`);
        for (const [type, { schema }] of media) need(schema !== undefined, `${where} ${status} ${type}: no schema`);
      }
      // Every budgeted route can be refused over budget; every route while shutting down or
      // without a Host header.
      if (route.budget !== 'none') need(statuses.includes('429'), `${where}: 429 (budget ${route.budget})`);
      need(statuses.includes('503'), `${where}: 503`);
      need(statuses.includes('400'), `${where}: 400`);
      if (route.method === 'POST') {
        need(route.schema.body !== undefined && operation['requestBody']?.content?.['application/json']?.schema !== undefined, `${where}: request body schema`);
      } else if (route.url !== '/v1/dereference/*') {
        // Every GET route reads its query options (none: an empty object); a DID URL's query is its own.
        need(route.schema.querystring !== undefined, `${where}: querystring schema`);
      }
      // Every query option and path parameter of the route's schema is a documented parameter.
      const params = ((operation['parameters'] ?? []) as Array<{ in: string; name: string }>).map((p) => `${p.in} ${p.name}`);
      const properties = (schema: unknown) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});
      for (const name of properties(route.schema.querystring)) need(params.includes(`query ${name}`), `${where}: query parameter ${name}`);
      for (const name of properties(route.schema.params)) need(params.includes(`path ${name}`), `${where}: path parameter ${name}`);
      for (const name of pathName.match(/\{([^}]+)\}/g) ?? []) need(params.includes(`path ${name.slice(1, -1)}`), `${where}: path parameter ${name}`);
    }
    expect(gaps).toEqual([]);
    // Nothing else: the internal routes (CORS preflight, 404/405) are not in the document.
    const inDocument = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(inDocument.sort()).toEqual([...documented].sort());
  });

  it('documents the budgets once, with their defaults', () => {
    expect(doc['x-svc-budgets']).toMatchObject({ standard: { publicPerMinute: 20 }, intensive: { publicPerMinute: 10 }, directPerMinute: 120 });
  });

  it('documents the operator webhook under webhooks: the four headers and the envelope', () => {
    const hook = doc['webhooks']?.['monitorEvent']?.['post'];
    expect(hook).toBeDefined();
    const headers = (hook.parameters as Array<{ in: string; name: string; required: boolean }>).map((p) => [p.in, p.name, p.required]);
    expect(headers).toEqual([
      ['header', 'X-Svc-Event', true],
      ['header', 'X-Svc-Event-Id', true],
      ['header', 'X-Svc-Timestamp', true],
      ['header', 'X-Svc-Signature-256', true],
    ]);
    expect(hook.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookEnvelope' });
    const eventTypes = (doc.components!.schemas!['MonitorEventType'] as { anyOf: Array<{ enum: string[] }> }).anyOf.flatMap((s) => s.enum);
    expect(eventTypes).toEqual([
      'identity.document.changed',
      'identity.domain_binding.changed',
      'identity.deactivated',
      'identity.resolution.failed',
      'identity.resolution.recovered',
      'identity.history.rewritten',
      'mcp.inventory.changed',
      'mcp.inspection.failed',
      'mcp.inspection.recovered',
      'a2a.card.changed',
      'a2a.inspection.failed',
      'a2a.inspection.recovered',
      'tls.certificate.expiring',
      'tls.certificate.changed',
    ]);
    // An envelope as docs/daemon.md#operator-monitoring describes it validates; one that breaks it
    // does not.
    const envelope = {
      id: 'evt_42',
      type: 'identity.document.changed',
      did: 'did:web:example.com',
      watchId: '1',
      createdAt: '2026-11-26T10:00:00Z',
      data: {
        fromHash: 'a'.repeat(64),
        toHash: 'b'.repeat(64),
        domainBinding: { from: 'VERIFIED', to: 'VERIFIED' },
        diff: { summary: 'One key rotated.', changedMembers: ['verificationMethod'] },
        headline: 'Resolved.',
        problem: null,
      },
    };
    const valid = (body: unknown) => repoContract().validates('#/components/schemas/WebhookEnvelope', body);
    expect(valid(envelope)).toEqual([]);
    expect(valid({ ...envelope, id: '42' })).not.toEqual([]);
    expect(valid({ ...envelope, type: 'identity.changed' })).not.toEqual([]);
    expect(valid({ ...envelope, data: { ...envelope.data, domainBinding: { from: 'BOUND', to: null } } })).not.toEqual([]);
    const { watchId: _omitted, ...withoutWatch } = envelope;
    expect(valid(withoutWatch)).not.toEqual([]);
    // svc's rewrite event: the same data and its `rewrite` member.
    const side = (c: string) => ({ versionId: `3-Qm${c}`, versionTime: '2026-11-01T00:00:00Z', entryHash: c.repeat(64) });
    const rewrite = { versionNumber: 3, kind: 'CHANGED', kept: side('a'), served: side('b'), detectedAt: '2026-11-26T10:00:00Z' };
    const rewritten = { ...envelope, type: 'identity.history.rewritten', data: { ...envelope.data, rewrite } };
    expect(valid(rewritten)).toEqual([]);
    expect(valid({ ...rewritten, data: { ...rewritten.data, rewrite: { ...rewrite, kind: 'REMOVED', served: null } } })).toEqual([]);
    expect(valid({ ...rewritten, data: { ...rewritten.data, rewrite: { ...rewrite, kept: { ...side('a'), extra: 1 } } } })).not.toEqual([]);
    expect(valid({ ...rewritten, data: { ...rewritten.data, rewrite: { ...rewrite, versionNumber: 0 } } })).not.toEqual([]);
    // The certificate events: their own data.
    const certificate = { sha256Fingerprint: 'AB:CD', subject: 'CN=example.com', issuer: 'CN=Example CA', notAfter: '2026-12-11T00:00:00Z' };
    const expiring = {
      ...envelope,
      type: 'tls.certificate.expiring',
      data: { host: 'example.com', certificate, daysLeft: 15, thresholdDays: 30, expired: false },
    };
    expect(valid(expiring)).toEqual([]);
    expect(valid({ ...expiring, data: { ...expiring.data, thresholdDays: 0 } })).not.toEqual([]);
    const changed = {
      ...envelope,
      type: 'tls.certificate.changed',
      data: { host: 'example.com', from: { sha256Fingerprint: 'EF:01', notAfter: '2026-12-01T00:00:00Z' }, to: certificate },
    };
    expect(valid(changed)).toEqual([]);
    expect(valid({ ...changed, data: { ...changed.data, to: { ...certificate, extra: 1 } } })).not.toEqual([]);
  });

  it('resolves every schema reference (the contract hook compiles each response schema)', () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref') refs.add(value as string);
      return value;
    });
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9_.-]+$/);
      expect(doc.components?.schemas?.[ref.split('/').pop()!], ref).toBeDefined();
    }
    expect(repoContract().templateOf('/v1/resolve/did:web:example.com:a%2Fb')).toBe('/v1/resolve/{did}');
  });
});
