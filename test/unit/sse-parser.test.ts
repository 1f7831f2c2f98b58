/**
 * One event-stream parser in two places: the core's (src/core/encoding/sse.ts, the MCP inspector's)
 * and the API client's (src/client/sse.ts, which imports nothing outside src/client, while the
 * core imports no client). The two texts of SseEvent and SseParser must stay identical, so that
 * the client's property tests (client-sse.test.ts) hold for the core's copy too; and both copies
 * parse a stream alike.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SseParser as ClientParser } from '../../src/client/sse.js';
import { SseParser as CoreParser } from '../../src/core/encoding/sse.js';
import { repoRoot } from '../support/cli.js';

/** From `export interface SseEvent` to the end of `class SseParser`. */
function parserText(file: string): string {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const start = text.indexOf('export interface SseEvent {');
  const classAt = text.indexOf('export class SseParser {');
  const end = text.indexOf('\n}\n', classAt);
  expect(start, `${file}: SseEvent`).toBeGreaterThanOrEqual(0);
  expect(classAt, `${file}: SseParser`).toBeGreaterThan(start);
  expect(end, `${file}: the end of SseParser`).toBeGreaterThan(classAt);
  return text.slice(start, end + 2);
}

describe('the two copies of the event-stream parser', () => {
  it('are the same text', () => {
    expect(parserText('src/core/encoding/sse.ts')).toBe(parserText('src/client/sse.ts'));
  });

  it('parse a stream alike, chunk by chunk', () => {
    const chunks = [': comment\r', '\nid: 7\nevent: note\ndata: a\r\ndata:  b\n', '\nretry: 250\ndata: c\r', '\r', 'data: unterminated'];
    const run = (parser: ClientParser | CoreParser) => ({ events: chunks.flatMap((c) => parser.push(c)), end: parser.end(), lastEventId: parser.lastEventId, retryMs: parser.retryMs });
    const core = run(new CoreParser());
    expect(core).toEqual(run(new ClientParser()));
    expect(core.events).toEqual([
      { event: 'note', data: 'a\n b', id: '7' },
      { event: 'message', data: 'c', id: '7' },
    ]);
    expect(core.lastEventId).toBe('7');
    expect(core.retryMs).toBe(250);
  });
});
