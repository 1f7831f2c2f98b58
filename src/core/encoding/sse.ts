/**
 * A text/event-stream parser (the HTML "event stream interpretation"), fed text as it arrives:
 * lines end in CRLF, LF or CR (a CR at the end of one chunk and the LF at the start of the next
 * are one line end), `data` lines of one event join with LF, a leading space after the colon is
 * dropped, comments (`:`) and unknown fields are ignored, an event is dispatched at a blank line
 * (none when it carried no data), and an event not ended by a blank line when the stream ends is
 * dropped. The caller decodes the bytes (a streaming TextDecoder keeps a UTF-8 sequence split
 * across chunks whole).
 *
 * The one event-stream parser: the MCP inspector reads a server's SSE replies with it
 * (core/mcp/client.ts) and the API client the daemon's stream (src/client/sse.ts). It imports
 * nothing, so the client bundle that carries it stays self-contained.
 */

export interface SseEvent {
  /** The event type (`message` when the event named none). */
  event: string;
  /** The data lines joined with LF. */
  data: string;
  /** The last event ID seen, if any. */
  id?: string;
}

export class SseParser {
  #buffer = '';
  /** A CR ended the last chunk: an LF starting the next belongs to it. */
  #pendingCr = false;
  #event = '';
  #data: string[] = [];
  #id: string | undefined;
  #lastEventId: string | undefined;
  #retryMs: number | undefined;

  /**
   * The last event ID of the stream (set at each dispatch, also by an event without data — an MCP
   * server's priming event is exactly that): what a reconnection sends as Last-Event-ID.
   */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The reconnection time the stream asked for (`retry:` with digits only), milliseconds. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** Feeds text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    let chunk = text;
    if (this.#pendingCr && chunk !== '') {
      this.#pendingCr = false;
      if (chunk.startsWith('\n')) chunk = chunk.slice(1);
    }
    this.#buffer += chunk;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const cr = this.#buffer.indexOf('\r', start);
      const lf = this.#buffer.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 === this.#buffer.length) {
          // Maybe CRLF split across chunks: the line is complete, an LF may follow.
          next = cr + 1;
          this.#pendingCr = true;
        } else {
          next = this.#buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        }
      } else {
        end = lf;
        next = lf + 1;
      }
      const event = this.#line(this.#buffer.slice(start, end));
      if (event !== undefined) events.push(event);
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  /** The stream ended: an unterminated event is dropped (as the HTML standard says). */
  end(): SseEvent[] {
    this.#buffer = '';
    this.#pendingCr = false;
    this.#event = '';
    this.#data = [];
    return [];
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.#retryMs = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    const event = this.#event === '' ? 'message' : this.#event;
    const data = this.#data;
    this.#lastEventId = this.#id;
    this.#event = '';
    this.#data = [];
    if (data.length === 0) return undefined;
    return { event, data: data.join('\n'), ...(this.#id !== undefined ? { id: this.#id } : {}) };
  }
}
