/**
 * The telemetry seam (core/telemetry.ts, server/telemetry.ts): with a telemetry on the daemon,
 * each request is a span whose children are the stages, fetches and database calls of its work,
 * on both engines; a refused fetch ends with its problem's code. Without one, nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combinedTelemetry, type SpanNote, type Telemetry, type TelemetryEvent } from '../../src/core/telemetry.js';
import { ED25519_DID } from '../support/dids.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { allSpans, RecordingTelemetry } from '../support/telemetry.js';

describe.each([
  ['SQLite', () => sqliteDatabase('svc-telemetry')],
  ['PostgreSQL', () => postgresDatabase()],
])('a request as a span (%s)', (_engine, open) => {
  let database: TestDatabase;
  let daemon: InjectedApp;
  const telemetry = new RecordingTelemetry();

  beforeAll(async () => {
    database = await open();
    daemon = await injectedApp(database.target, { telemetry });
  });
  afterAll(async () => {
    await daemon?.close();
    await database?.done();
  });

  it('holds the stages and the database calls of a resolution, ended with its route pattern and status', async () => {
    const before = telemetry.roots.length;
    const answer = await daemon.anonymous('GET', `/1.0/identifiers/${ED25519_DID}`);
    expect(answer.statusCode).toBe(200);
    const requests = telemetry.roots.slice(before);
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request).toMatchObject({ kind: 'request', name: 'GET', route: '/1.0/identifiers/*', status: 200, ended: true });
    const inside = allSpans(request.children);
    expect(inside.filter((span) => span.kind === 'stage').map((span) => span.name)).toContain('syntax.parse');
    expect(inside.filter((span) => span.kind === 'stage').every((span) => span.ended && span.outcome === 'PASS')).toBe(true);
    const db = inside.filter((span) => span.kind === 'db');
    expect(db.length).toBeGreaterThan(0);
    expect(db.every((span) => /^[a-zA-Z]+\.[a-zA-Z]+$/.test(span.name) && span.outcome === 'ok')).toBe(true);
    // No name carries the DID.
    expect(inside.some((span) => span.name.includes('did:key'))).toBe(false);
  });

  it('ends a fetch the egress policy refused with EGRESS_BLOCKED', async () => {
    const before = telemetry.roots.length;
    const answer = await daemon.anonymous('GET', '/1.0/identifiers/did:web:localhost%3A9');
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    const inside = allSpans(telemetry.roots.slice(before));
    const fetches = inside.filter((span) => span.kind === 'fetch');
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.every((span) => span.outcome === 'EGRESS_BLOCKED')).toBe(true);
  });
});

describe('combinedTelemetry', () => {
  const recorder = (spans: string[], events: TelemetryEvent[]): Telemetry => ({
    within(kind, name, body) {
      const note: SpanNote = { outcome: 'ok' };
      try {
        const result = body(note);
        if (result instanceof Promise) return result.finally(() => spans.push(`${kind}:${name}:${note.outcome}`)) as typeof result;
        spans.push(`${kind}:${name}:${note.outcome}`);
        return result;
      } catch (error) {
        spans.push(`${kind}:${name}:thrown`);
        throw error;
      }
    },
    record: (event) => void events.push(event),
  });

  it('gives every part the outcome the body set, and every event', async () => {
    const a: string[] = [];
    const b: string[] = [];
    const events: TelemetryEvent[] = [];
    const both = combinedTelemetry([recorder(a, events), recorder(b, events)])!;
    const value = await both.within('fetch', 'GET', async (note) => {
      note.outcome = 'UPSTREAM_UNAVAILABLE';
      return 7;
    });
    expect(value).toBe(7);
    expect(both.within('db', 'claims.get', (note) => ((note.outcome = 'ok'), 'sync'))).toBe('sync');
    both.record({ type: 'refusal', reason: 'budget' });
    expect(a).toEqual(['fetch:GET:UPSTREAM_UNAVAILABLE', 'db:claims.get:ok']);
    expect(b).toEqual(a);
    expect(events).toHaveLength(2);
  });

  it('is nothing for no part and the part itself for one', () => {
    expect(combinedTelemetry([])).toBeUndefined();
    const one = recorder([], []);
    expect(combinedTelemetry([one])).toBe(one);
  });
});
