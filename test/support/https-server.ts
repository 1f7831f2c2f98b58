/**
 * Real HTTP(S) servers on 127.0.0.1 for integration tests, with certificates from a throw-away
 * CA (./pki.ts). Each server counts TCP connections, records requests, routes exact paths to
 * small handlers, and `close()` tears everything down (hanging sockets included).
 *
 *   const ca = createTestCa();
 *   const server = await startHttpsServer({ cert: ca.issue({}), ca });
 *   server.route('/.well-known/did.json', json({ id: 'did:web:localhost' }));
 *   ...
 *   await server.close();
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { CertifiedKey, TestCa } from './pki.js';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface TestHttpsServer {
  port: number;
  /** Always '127.0.0.1' (the server listens on IPv4 loopback only). */
  host: string;
  /** `https://localhost:<port>` (`http://…` for startPlainHttpServer). */
  origin: string;
  /** Number of TCP connections accepted so far (counted on 'connection', i.e. before TLS). */
  readonly connections: number;
  /** Number of those connections still open (closed by either side → no longer counted). */
  readonly open: number;
  /** Requests seen, as `METHOD target` (the request target as sent, query included). */
  readonly requests: string[];
  /** Exact path match, query ignored; a later route for the same path replaces the earlier one. */
  route(path: string, handler: Handler): void;
  /** Destroys every open connection but keeps listening (a server dropping idle keep-alives). */
  dropConnections(): void;
  /** Closes the server and destroys every open socket (hanging ones included). Idempotent. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /**
   * server.keepAliveTimeout, default 2000 ms. Node advertises it as `Keep-Alive: timeout=<whole
   * seconds>`, and both Node's Agent and undici subtract a 1 s safety margin from that hint, so
   * anything under 2000 ms means clients never reuse a connection.
   */
  keepAliveTimeoutMs?: number;
}

export interface StartHttpsServerOptions extends ServerOptions {
  cert: CertifiedKey;
  /** When given, its certificate is sent after the leaf (chain: cert, then CA). */
  ca?: TestCa;
}

const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 2000;

export function startHttpsServer(options: StartHttpsServerOptions): Promise<TestHttpsServer> {
  const server = https.createServer({
    key: options.cert.keyPem,
    cert: options.cert.certPem + (options.ca?.certPem ?? ''),
  });
  return start(server, 'https', options);
}

/** Same interface over plain node:http (e.g. to prove https → http redirects are refused). */
export function startPlainHttpServer(options: ServerOptions = {}): Promise<TestHttpsServer> {
  return start(http.createServer(), 'http', options);
}

async function start(server: http.Server | https.Server, scheme: 'http' | 'https', options: ServerOptions): Promise<TestHttpsServer> {
  const routes = new Map<string, Handler>();
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;

  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS;

  server.on('connection', (socket: net.Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client vanishing mid-write must not become an uncaught 'error'.
    socket.on('error', () => {});
  });
  // Failed handshakes are the client's business (that is what the tests provoke); bad HTTP gets
  // Node's default 400 + close.
  server.on('tlsClientError', () => {});

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const target = req.url ?? '/';
    requests.push(`${req.method ?? 'GET'} ${target}`);
    res.on('error', () => {});
    const path = target.split('?', 1)[0] ?? target;
    const handler = routes.get(path) ?? notFound;
    try {
      handler(req, res);
    } catch (err) {
      if (!res.headersSent) {
        send(res, 500, 'application/json', JSON.stringify({ error: String(err) }));
      } else {
        res.destroy();
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    port,
    host: '127.0.0.1',
    origin: `${scheme}://localhost:${port}`,
    get connections() {
      return connections;
    },
    get open() {
      return sockets.size;
    },
    get requests() {
      return requests;
    },
    route(path, handler) {
      routes.set(path, handler);
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
        // closeAllConnections only knows sockets that reached HTTP; raw TCP sockets still in (or
        // stuck before) the TLS handshake are destroyed here.
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

function send(res: http.ServerResponse, status: number, contentType: string, body: string | Uint8Array, headers: Record<string, string> = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': String(bytes.length) });
  res.end(bytes);
}

const notFound: Handler = (_req, res) => send(res, 404, 'application/json', JSON.stringify({ error: 'not found' }));

/** Responds with JSON.stringify(body); default status 200, content type application/json. */
export function json(body: unknown, init: { status?: number; contentType?: string; headers?: Record<string, string> } = {}): Handler {
  const text = JSON.stringify(body);
  return (_req, res) => send(res, init.status ?? 200, init.contentType ?? 'application/json', text, init.headers);
}

/** Responds with the given bytes as-is; default status 200, content type application/octet-stream. */
export function raw(body: string | Uint8Array, init: { status?: number; contentType?: string } = {}): Handler {
  return (_req, res) => send(res, init.status ?? 200, init.contentType ?? 'application/octet-stream', body);
}

/** Redirect (default 302) to `location`, with an empty body. */
export function redirect(location: string, status = 302): Handler {
  return (_req, res) => {
    res.writeHead(status, { location, 'content-length': '0' });
    res.end();
  };
}

/** Never answers; the socket stays open until the client gives up or the server closes. */
export function hang(): Handler {
  return () => {};
}

export interface StreamOptions {
  /** Body size in bytes (the body is JSON when totalBytes ≥ 13). */
  totalBytes: number;
  /** Default 16 KiB. */
  chunkBytes?: number;
  /** Send Content-Length: totalBytes (otherwise chunked). Default false. */
  declareLength?: boolean;
  /** Default application/json. */
  contentType?: string;
}

export interface StreamHandler extends Handler {
  /** Bytes handed to res.write so far, summed over all requests this handler served. */
  readonly bytesWritten: number;
  /** True once some response stopped (client went away) before writing its whole body. */
  readonly aborted: boolean;
  /**
   * Resolves when at least one response has started and every started response has stopped
   * (finished or abandoned), so `bytesWritten` is final.
   */
  stopped(): Promise<void>;
}

const STREAM_PREFIX = '{"padding":"';
const STREAM_SUFFIX = '"}';

/** Bytes [start, end) of the stream body: `{"padding":"xxxx…xxxx"}` (or spaces if too short for that). */
function streamSlice(total: number, start: number, end: number): Buffer {
  const out = Buffer.alloc(end - start, total >= STREAM_PREFIX.length + STREAM_SUFFIX.length + 1 ? 'x' : ' ');
  if (total < STREAM_PREFIX.length + STREAM_SUFFIX.length + 1) return out;
  for (let i = start; i < Math.min(end, STREAM_PREFIX.length); i++) out[i - start] = STREAM_PREFIX.charCodeAt(i);
  const suffixStart = total - STREAM_SUFFIX.length;
  for (let i = Math.max(start, suffixStart); i < end; i++) out[i - start] = STREAM_SUFFIX.charCodeAt(i - suffixStart);
  return out;
}

/**
 * Writes a `totalBytes` JSON-looking body in `chunkBytes` chunks, waiting for 'drain' whenever
 * res.write reports backpressure, and stopping as soon as the response closes (client gone).
 */
export function stream(options: StreamOptions): StreamHandler {
  const total = options.totalBytes;
  const chunk = options.chunkBytes ?? 16 * 1024;
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('stream: totalBytes must be a non-negative integer');
  if (!Number.isSafeInteger(chunk) || chunk <= 0) throw new RangeError('stream: chunkBytes must be a positive integer');

  let bytesWritten = 0;
  let aborted = false;
  let started = 0;
  let active = 0;
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (started > 0 && active === 0) {
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
    }
  };

  const handler = (_req: http.IncomingMessage, res: http.ServerResponse): void => {
    started++;
    active++;
    let offset = 0;
    let closed = false;
    let done = false;
    let resume: (() => void) | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      if (offset < total) aborted = true;
      active--;
      settle();
    };
    res.on('close', () => {
      closed = true;
      resume?.();
      finish();
    });
    res.on('drain', () => resume?.());

    const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
    if (options.declareLength) headers['content-length'] = String(total);
    res.writeHead(200, headers);

    void (async () => {
      while (offset < total && !closed) {
        const end = Math.min(total, offset + chunk);
        const piece = streamSlice(total, offset, end);
        const ok = res.write(piece);
        bytesWritten += piece.length;
        offset = end;
        if (!ok && !closed) {
          await new Promise<void>((resolve) => {
            resume = resolve;
          });
          resume = undefined;
        }
      }
      if (!closed) res.end();
      // On a normal end, 'close' follows once the response is flushed; finish() runs then.
    })();
  };

  return Object.defineProperties(handler, {
    bytesWritten: { get: () => bytesWritten, enumerable: true },
    aborted: { get: () => aborted, enumerable: true },
    stopped: {
      value: () =>
        new Promise<void>((resolve) => {
          waiters.push(resolve);
          settle();
        }),
    },
  }) as StreamHandler;
}

/** A loopback port where nothing listens (bound, then released): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  return port;
}

/** Answers every request to `path` with 204 once its body is read, and counts them (a webhook receiver). */
export function countingReceiver(server: TestHttpsServer, path: string): () => number {
  let received = 0;
  server.route(path, (req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204);
      res.end();
    });
  });
  return () => received;
}
