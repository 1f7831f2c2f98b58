/**
 * A2A watches on the agent cards real publishers serve (../shared/fixtures/real-world/a2a, each
 * from its MANIFEST source), served byte for byte by a loopback HTTPS host and checked by the
 * daemon's own check route (in process, on a SQLite file):
 *
 * - every card: the first check is the watch's baseline, and checking the same bytes again emits
 *   nothing — no card's key order, unknown members or missing ones make a change out of nothing;
 * - a publisher's English card replaced by its German one at the same URL (azhyshchev.de serves
 *   both): exactly one a2a.card.changed, whose skills added and removed are the set difference of
 *   the two files' skill ids computed here from the raw JSON, not by svc.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerCaller, expectJson } from '../support/daemon-client.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { FAR_FROM_EXPIRY_DAYS, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { sharedFixturesDir } from '../support/fixtures.js';
import { raw } from '../support/https-server.js';
import { startLiveDaemon, type LiveDaemon } from '../support/live-daemon.js';

const TOKEN = 'real-world-cards-token-0123456789';
const FIXTURES = sharedFixturesDir();
const CARDS = FIXTURES === null ? '' : path.join(FIXTURES, 'real-world/a2a');

/** Every .json file below `dir`, in a stable order. */
function jsonFilesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.json')) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

/** The skill ids of a card file, read here from the raw JSON. */
function skillIds(file: string): Set<string> {
  const card = JSON.parse(readFileSync(file, 'utf8')) as { skills?: Array<{ id?: unknown }> };
  return new Set((card.skills ?? []).map((s) => s.id).filter((id): id is string => typeof id === 'string'));
}

describe.skipIf(FIXTURES === null)('A2A watches on real-world agent cards', () => {
  let opened: TestDatabase;
  let host: DidWebHost;
  let daemon: LiveDaemon;
  let hookUrl: string;
  beforeAll(async () => {
    opened = await sqliteDatabase('svc-real-cards-');
    host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
    daemon = await startLiveDaemon({ target: opened.target, host, env: { SVC_ADMIN_TOKEN: TOKEN } });
    hookUrl = `${host.server.origin}/hooks/cards`;
    host.server.route('/hooks/cards', (_req, res) => {
      res.writeHead(204);
      res.end();
    });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await host?.close();
    await opened?.done();
  });

  const send = bearerCaller(() => daemon.url, TOKEN);
  const watchOf = async (cardUrl: string): Promise<string> =>
    expectJson(await send('POST', '/v1/monitoring/watches', { a2aCard: cardUrl, webhookUrl: hookUrl }), 201).watch.id as string;
  const check = async (id: string) => expectJson(await send('POST', `/v1/monitoring/watches/${id}/check`), 200) as { changed: boolean };
  const events = async (id: string) => expectJson(await send('GET', `/v1/monitoring/events?watchId=${id}`), 200).events as Array<Record<string, any>>;

  it('every card: the first check is the baseline, and the same bytes checked again emit nothing', async () => {
    const files = jsonFilesBelow(CARDS);
    expect(files.length).toBeGreaterThanOrEqual(13);
    const statuses: Record<string, number> = {};
    for (const [i, file] of files.entries()) {
      const route = `/cards/${i}.json`;
      host.server.route(route, raw(readFileSync(file), { contentType: 'application/json' }));
      const id = await watchOf(`${host.server.origin}${route}`);
      expect((await check(id)).changed, path.relative(CARDS, file)).toBe(false);
      expect((await check(id)).changed, path.relative(CARDS, file)).toBe(false);
      expect(await events(id), path.relative(CARDS, file)).toEqual([]);
      const watch = (expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches as Array<Record<string, unknown>>).find((w) => w['id'] === id)!;
      const status = String(watch['lastStatus']);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    // Most published cards are read as cards; what svc cannot read is a FAILED check, never a 500.
    expect(Object.keys(statuses).every((s) => s === 'RESOLVED' || s === 'FAILED')).toBe(true);
    expect(statuses['RESOLVED'] ?? 0).toBeGreaterThanOrEqual(10);
  });

  it("a publisher's English card replaced by its German one: one a2a.card.changed, its skills the set difference of the two files", async () => {
    const english = path.join(CARDS, 'Azhy34__azhyshchev.de/.well-known/agent.json');
    const german = path.join(CARDS, 'Azhy34__azhyshchev.de/de/.well-known/agent-card.json');
    let served = readFileSync(english);
    host.server.route('/azhy/agent-card.json', (req, res) => raw(served, { contentType: 'application/json' })(req, res));
    const id = await watchOf(`${host.server.origin}/azhy/agent-card.json`);
    expect((await check(id)).changed).toBe(false);
    served = readFileSync(german);
    expect((await check(id)).changed).toBe(true);
    expect((await check(id)).changed).toBe(false);
    const listed = await events(id);
    expect(listed.map((e) => e['eventType'])).toEqual(['a2a.card.changed']);
    const before = skillIds(english);
    const after = skillIds(german);
    const data = listed[0]!['data'] as { skills: { added: string[]; removed: string[] }; headline: string };
    expect(new Set(data.skills.added)).toEqual(new Set([...after].filter((s) => !before.has(s))));
    expect(new Set(data.skills.removed)).toEqual(new Set([...before].filter((s) => !after.has(s))));
    expect(data.headline.length).toBeGreaterThan(0);
  });
});
