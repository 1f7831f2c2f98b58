/**
 * What the daemon limit tests need beyond test/support/daemon-client.ts: the Retry-After check
 * (whole seconds, at least 1), and raw HTTP/1.1 over a socket for what fetch cannot send (a body
 * that trickles in slower than the time limit).
 */
import net from 'node:net';
import { expect } from 'vitest';
import type { Answer } from './daemon-client.js';

/** The Retry-After header as whole seconds; fails unless it is a positive integer. */
export function retryAfterOf(answer: Answer): number {
  const value = answer.header('retry-after');
  expect(value).toMatch(/^[1-9][0-9]*$/);
  return Number(value);
}

export interface RawExchange {
  /** Everything the server sent before closing. */
  received: string;
  /** The socket error, if any (the server may reset a connection it gave up on). */
  error?: string;
}

/**
 * Opens a TCP connection to the daemon, writes `head` at once, then `trickle` one byte every
 * `everyMs` until the server closes the connection; resolves with what the server sent.
 */
export function rawExchange(url: string, head: string, trickle: string, everyMs: number, timeoutMs = 15_000): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    let error: string | undefined;
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
    }, everyMs);
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${timeoutMs} ms; received so far: ${received}`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(deadline);
      resolve(error === undefined ? { received } : { received, error });
    });
    socket.write(head);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits the raw bytes of HTTP/1.1 responses (Content-Length framed) into responses. */
export function parseRawResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.1 ([0-9]{3}) /.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    if (!Number.isSafeInteger(length)) throw new Error(`response without Content-Length: ${statusLine}`);
    out.push({ status, headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}
