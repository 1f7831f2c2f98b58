/**
 * The client's SSE parser (src/client/sse.ts) on adversarial input: every way of cutting the
 * bytes into chunks gives the same events as the whole stream (a CRLF split between chunks is
 * one line end, a UTF-8 sequence split between chunks survives), CRLF, LF and CR line ends,
 * multi-line data, comments, unknown fields, an unterminated last event dropped, and the body
 * released when the consumer stops early.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, parseSse, type SseEvent } from '../../src/client/sse.js';

const encoder = new TextEncoder();

/** A byte stream delivering `chunks` one read at a time. */
function streamOf(chunks: Uint8Array[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
    cancel() {
      onCancel?.();
    },
  });
}

async function collect(chunks: Uint8Array[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of parseSse(streamOf(chunks))) out.push(event);
  return out;
}

/** `bytes` cut at the given offsets. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets)].filter((o) => o > 0 && o < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const p of points) {
    chunks.push(bytes.slice(start, p));
    start = p;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

// What the daemon sends, with the line ends and oddities a proxy or another server may add.
const STREAM =
  '\uFEFF: a comment first\r\n' +
  'event: stage\r\ndata: {"stage":"syntax.parse","detail":"é ✓ 𝄞"}\r\n\r\n' +
  'event: stage\ndata: {"stage":"document.derive"}\n\n' +
  'event: stage\rdata: {"stage":"cr.only"}\r\r' +
  'id: 7\nevent: result\ndata: {"a":1,\ndata:  "b": [\ndata: 2]}\nretry: 1000\nunknown: x\n\n' +
  'event: nothing\n\n' + // no data: not dispatched
  'data\n\n' + // a field name alone: an empty data line
  'event: done\ndata: {}\n\n' +
  'event: stage\ndata: {"never":"terminated"}'; // no blank line at the end: dropped

const EXPECTED: SseEvent[] = [
  { event: 'stage', data: '{"stage":"syntax.parse","detail":"é ✓ 𝄞"}' },
  { event: 'stage', data: '{"stage":"document.derive"}' },
  { event: 'stage', data: '{"stage":"cr.only"}' },
  { event: 'result', data: '{"a":1,\n "b": [\n2]}', id: '7' },
  { event: 'message', data: '', id: '7' },
  { event: 'done', data: '{}', id: '7' },
];

describe('SSE parser', () => {
  it('reads the whole stream: CRLF, LF and CR line ends, multi-line data, comments, unknown fields, the BOM', async () => {
    expect(await collect([encoder.encode(STREAM)])).toEqual(EXPECTED);
  });

  it('gives the same events for every single cut of the bytes (inside CRLF, inside a UTF-8 sequence)', async () => {
    const bytes = encoder.encode(STREAM);
    for (let at = 1; at < bytes.length; at++) {
      expect(await collect(cut(bytes, [at])), `cut at byte ${at}`).toEqual(EXPECTED);
    }
  });

  it('gives the same events one byte at a time', async () => {
    const bytes = encoder.encode(STREAM);
    expect(await collect([...bytes].map((b) => Uint8Array.of(b)))).toEqual(EXPECTED);
  });

  it('gives the same events for random cuts, empty chunks included', async () => {
    const bytes = encoder.encode(STREAM);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), fc.integer({ min: 0, max: 5 }), async (offsets, empties) => {
        const chunks = cut(bytes, offsets);
        for (let i = 0; i < empties; i++) chunks.splice((i * 7) % (chunks.length + 1), 0, new Uint8Array(0));
        expect(await collect(chunks)).toEqual(EXPECTED);
      }),
      { numRuns: 200 },
    );
  });

  it('a CR ending one chunk and an LF starting the next are one line end, not two (even with an empty chunk between)', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('')).toEqual([]);
    expect(parser.push('\ndata: b\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([{ event: 'message', data: 'a\nb' }]);
    // The CR that ended the last chunk was a whole line end: a following LF is not a second blank line.
    expect(parser.push('\nevent: x\ndata: c\n\n')).toEqual([{ event: 'x', data: 'c' }]);
  });

  it('a lone CR followed by other text ends the line', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\r')).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('keeps only one leading space of a value, and a colon inside the value', () => {
    const parser = new SseParser();
    expect(parser.push('data:no space\ndata:  two: spaces\n\n')).toEqual([{ event: 'message', data: 'no space\n two: spaces' }]);
  });

  it('the event type resets after each event', () => {
    const parser = new SseParser();
    expect(parser.push('event: stage\ndata: 1\n\ndata: 2\n\n')).toEqual([
      { event: 'stage', data: '1' },
      { event: 'message', data: '2' },
    ]);
  });

  it('releases the body (cancels it) when the consumer stops early', async () => {
    let cancelled = false;
    const body = streamOf([encoder.encode('event: stage\ndata: 1\n\nevent: stage\ndata: 2\n\n'), encoder.encode('event: done\ndata: {}\n\n')], () => {
      cancelled = true;
    });
    for await (const event of parseSse(body)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('an error of the body stream reaches the consumer', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(encoder.encode('event: stage\ndata: 1\n\n'));
        else controller.error(new Error('connection reset'));
      },
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of parseSse(body)) seen.push(event.data);
      })(),
    ).rejects.toThrow('connection reset');
    expect(seen).toEqual(['1']);
  });
});
