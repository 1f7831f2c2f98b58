/** `svc webhook listen`'s work, loaded when it runs (its options: options.ts, registered by command.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from '../../../runtime/node.js';
import { usageError } from '../../cmdutil/errors.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { listenFailure } from '../../cmdutil/listen.js';
import { listenerTls, tlsSetupText, webhookUrl } from './tls.js';
import type { ListenOptions } from './options.js';

/** Largest delivery body read; a larger one is answered 413 and reported. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface Delivery {
  receivedAt: string;
  id: string | null;
  type: string | null;
  did: string | null;
  verified: boolean;
  /** The envelope's data when verified; null otherwise (unverified data is not passed on). */
  data: unknown;
  /** Why it was rejected (absent when verified). */
  reason?: string;
}

function portOf(text: string): number {
  const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 65535)) throw usageError(`--port must be a port number 0..65535 (0 picks a free port), not ${printable(text.slice(0, 32))}`);
  return value;
}

function toleranceOf(text: string): number {
  const value = /^[0-9]{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1)) throw usageError(`--tolerance must be a whole number of seconds (1 at least), not ${printable(text.slice(0, 32))}`);
  return value;
}

function secretOf(option: string | undefined, env: NodeJS.ProcessEnv, url: string | null): string {
  if (option !== undefined) {
    if (option === '') throw usageError('--secret is empty');
    return option;
  }
  const fromEnv = env['SVC_WEBHOOK_SECRET'] ?? '';
  if (fromEnv === '') {
    throw usageError(
      'no webhook secret: set SVC_WEBHOOK_SECRET (or --secret)',
      url === null
        ? 'export SVC_WEBHOOK_SECRET=<the secret svc monitor watch add printed> (an argument shows in ps)'
        : `the certificate is ready: start the daemon as above, then export SVC_WEBHOOK_SECRET=$(svc monitor watch add <did> ${url} -q) and run this again`,
    );
  }
  return fromEnv;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Why verifyCustomerWebhook said no, as far as the headers tell. */
function customerRejection(req: IncomingMessage, toleranceSeconds: number): string {
  const id = header(req, 'x-svc-event-id');
  const signature = header(req, 'x-svc-signature');
  if (id === undefined || id === '') return 'no X-SVC-Event-ID header';
  if (signature === undefined) return 'no X-SVC-Signature header';
  const t = /(?:^|,)\s*t=([^,]*)/.exec(signature)?.[1]?.trim();
  if (t === undefined || !/^[0-9]{1,15}$/.test(t)) return 'X-SVC-Signature has no t=<unix seconds>';
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(t)) > toleranceSeconds) return `t is more than ${toleranceSeconds} s from now`;
  if (!/(?:^|,)\s*v1=[0-9a-f]{64}\s*(?:,|$)/.test(signature)) return 'X-SVC-Signature has no v1=<64 hex digits>';
  return 'the signature does not match (another secret, or a changed body)';
}

/** Why verifyWebhook said no, as far as the headers tell (the signature itself is opaque). */
function rejection(req: IncomingMessage, toleranceSeconds: number): string {
  const timestamp = header(req, 'x-svc-timestamp');
  const signature = header(req, 'x-svc-signature-256');
  if (timestamp === undefined) return 'no X-Svc-Timestamp header';
  if (signature === undefined) return 'no X-Svc-Signature-256 header';
  if (!/^[0-9]{1,15}$/.test(timestamp)) return 'X-Svc-Timestamp is not unix seconds';
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > toleranceSeconds) return `the timestamp is more than ${toleranceSeconds} s from now`;
  if (!/^sha256=[0-9a-f]{64}$/.test(signature)) return 'X-Svc-Signature-256 is not sha256=<64 hex digits>';
  return 'the signature does not match (another secret, or a changed body)';
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The envelope's fields, read leniently: {id, type, did, data}. */
function envelope(body: Buffer): { id: string | null; type: string | null; did: string | null; data: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { id: null, type: null, did: null, data: null };
  }
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { id: text(record['id']), type: text(record['type']), did: text(record['did']), data: record['data'] ?? null };
}

export function deliveryLine(d: Delivery): string {
  const verdict = d.verified ? 'verified' : `REJECTED: ${d.reason ?? 'invalid'}`;
  return `${d.receivedAt}  ${printable(d.id ?? '-')}  ${printable(d.type ?? '-')}  ${printable(d.did ?? '-')}  ${printable(verdict)}\n`;
}

export async function webhookListenAction(io: CliIo, setExit: (code: number) => void, options: ListenOptions): Promise<void> {
  const port = portOf(options.port);
  const toleranceSeconds = toleranceOf(options.tolerance ?? (options.customer ? '1800' : '300'));
  // With --tls the certificate comes first: without a secret yet, its setup is what to do next.
  const tls = options.tls ? await listenerTls(io.env, options.host) : null;
  const secret = (() => {
    try {
      return secretOf(options.secret, io.env, tls && webhookUrl(tls.urlHost, port === 0 ? null : port));
    } catch (err) {
      if (tls) io.stderr.write(tlsSetupText(tls, port === 0 ? null : port));
      throw err;
    }
  })();
  const [{ createServer: createHttpServer }, { createServer: createHttpsServer }, { verifyWebhook, verifyCustomerWebhook }] = await Promise.all([
    import('node:http'),
    import('node:https'),
    import('../../../client/webhooks.js'),
  ]);
  const verify = options.customer ? verifyCustomerWebhook : verifyWebhook;
  const why = options.customer ? customerRejection : rejection;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const receivedAt = new Date().toISOString();
    const body = await readBody(req);
    let delivery: Delivery;
    if (body === null) {
      delivery = { receivedAt, id: null, type: null, did: null, verified: false, data: null, reason: `the body is larger than ${MAX_BODY_BYTES} bytes` };
      res.writeHead(413, { connection: 'close' }).end();
    } else {
      const verified = await verify(secret, req.headers, body, { toleranceSeconds });
      const fields = envelope(body);
      delivery = verified
        ? { receivedAt, ...fields, verified: true }
        : { receivedAt, ...fields, data: null, verified: false, reason: why(req, toleranceSeconds) };
      res.writeHead(verified ? 204 : 401).end();
    }
    io.stdout.write(options.json ? `${JSON.stringify(delivery)}\n` : deliveryLine(delivery));
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(400).end();
      else res.end();
    });
  };
  const server = tls ? createHttpsServer({ key: tls.keyPem, cert: tls.certPem, minVersion: 'TLSv1.2' }, listener) : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: unknown) => {
    if (err instanceof ConfigError) throw err;
    throw listenFailure(err, options.host, port) ?? err;
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  if (tls) io.stderr.write(tlsSetupText(tls, bound));
  io.stderr.write(`svc: listening for webhooks on ${tls ? 'https' : 'http'}://${shownHost}:${bound}/\n`);

  // The CLI's own SIGINT handler exits at once; this one closes the server first.
  process.removeAllListeners('SIGINT');
  const exitCode = await new Promise<number>((resolve) => {
    const stop = (code: number) => {
      process.removeListener('SIGTERM', onTerm);
      process.removeListener('SIGINT', onInt);
      server.close(() => resolve(code));
      server.closeAllConnections();
    };
    const onTerm = () => stop(EXIT.PASS);
    const onInt = () => stop(EXIT.INTERRUPTED);
    process.once('SIGTERM', onTerm);
    process.once('SIGINT', onInt);
  });
  setExit(exitCode);
}
