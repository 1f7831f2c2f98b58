import { describe, expect, it } from 'vitest';
import { accessLogMode, accessLogWriter } from '../../src/server/access-log.js';

const entry = { method: 'GET', route: '/v1/resolve/*', status: 200, durationMs: 1.5, client: '127.0.0.1', requestId: 'req_abc' };
const at = () => new Date('2026-01-02T03:04:05.000Z');

describe('access log', () => {
  it('gathers the lines of one turn of the event loop into one write', async () => {
    const writes: string[] = [];
    const log = accessLogWriter('json', (text) => writes.push(text), at)!;
    log(entry);
    log({ ...entry, status: null });
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    expect(
      writes[0]!
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { time: '2026-01-02T03:04:05.000Z', access: true, ...entry },
      { time: '2026-01-02T03:04:05.000Z', access: true, ...entry, status: null },
    ]);
    log(entry);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
    // flush() writes what is pending at once (the daemon's own lines come after it).
    log(entry);
    log.flush();
    expect(writes).toHaveLength(3);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(3);
  });

  it('text on a terminal, json off it, off writes nothing; an unknown mode is a configuration error', async () => {
    expect(accessLogMode({}, true)).toBe('text');
    expect(accessLogMode({}, false)).toBe('json');
    expect(accessLogMode({ SVC_ACCESS_LOG: 'off' }, false)).toBe('off');
    expect(accessLogWriter('off', () => {})).toBeUndefined();
    expect(() => accessLogMode({ SVC_ACCESS_LOG: 'loud' }, false)).toThrow(/SVC_ACCESS_LOG must be json, text or off/);
    const writes: string[] = [];
    accessLogWriter('text', (text) => writes.push(text))!({ ...entry, status: null });
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['127.0.0.1 GET /v1/resolve/* aborted 1.5 ms req_abc\n']);
  });
});
