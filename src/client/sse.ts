/**
 * The client's reader of the daemon's own stream (`SvcClient.stream()`). The parser itself is the
 * core's (src/core/encoding/sse.ts, which the MCP inspector reads with too): one parser, in a leaf
 * module that imports nothing, so the client bundle stays self-contained
 * (test/integration/client-bundle.e2e.test.ts allows src/client exactly such imports).
 */
import { SseParser, type SseEvent } from '../core/encoding/sse.js';

export { SseParser, type SseEvent };

/** The events of a byte stream (e.g. a fetch Response body), as they complete. */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        yield* parser.push(decoder.decode());
        parser.end();
        return;
      }
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    // Left early (the consumer stopped, or an error): release the connection.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
