/**
 * A daemon with the commercial mode and its loopback cookie gateway, as a real process or started
 * in this process from the same command line (startInProcessDaemon), and the
 * owner's side of a sign-in: a did:key owner, its JWS over the gateway's statement (signed with
 * node:crypto here, not with svc's signer), the cookie.
 */
import { sign } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import type { AccountStore } from '../../src/core/store.js';
import { checkContract } from './daemon-client.js';
import { startDaemon, startInProcessDaemon, type Daemon, type DaemonHandle, type DaemonOptions, type InProcessDaemon } from './daemon.js';
import { didKeyPrincipal, type Principal } from './receipts.js';

export const ADMIN_TOKEN = 'gateway-test-operator-token-0123456789';

export interface GatewayDaemon<D extends DaemonHandle = Daemon> {
  daemon: D;
  /** The gateway's origin (also SVC_COMMERCIAL_ORIGIN). */
  origin: string;
}

/** A free loopback port (bound, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Seeds the database at `target` (a SQLite file or a postgres:// URL) through the store API, before the daemon opens it. */
export async function seed(target: string, work: (accounts: AccountStore) => Promise<void>): Promise<void> {
  const db = await openDatabase({ target });
  try {
    await work(db.accounts);
  } finally {
    await db.close();
  }
}

/** A tenant owned by `owner` with the named projects; their ids. */
export async function seedOwner(target: string, owner: string, projects: string[]): Promise<string[]> {
  const ids: string[] = [];
  await seed(target, async (accounts) => {
    const tenant = await accounts.createTenant({ name: `t-${owner.slice(-8)}`, owner });
    for (const name of projects) ids.push((await accounts.createProject(tenant.id, { name })).id);
  });
  return ids;
}

type GatewayOptions = DaemonOptions & { origin?: (port: number) => string };

/** Starts `svc serve` with the commercial mode and the gateway on a free port. */
export function startGatewayDaemon(options: GatewayOptions = {}): Promise<GatewayDaemon> {
  return gatewayDaemon(options, startDaemon);
}

/** The same daemon and gateway started in this process (startInProcessDaemon). */
export function startInProcessGatewayDaemon(options: GatewayOptions = {}): Promise<GatewayDaemon<InProcessDaemon>> {
  return gatewayDaemon(options, startInProcessDaemon);
}

async function gatewayDaemon<D extends DaemonHandle>(options: GatewayOptions, start: (options: DaemonOptions) => Promise<D>): Promise<GatewayDaemon<D>> {
  // The gateway's port was free a moment ago, but the daemon's own listener (port 0) may be given
  // that very port before the gateway binds it: then the start is tried again on another one.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const origin = options.origin ? options.origin(port) : `http://127.0.0.1:${port}`;
    const daemon = await start({
      ...options,
      args: [...(options.args ?? []), '--gateway-port', String(port)],
      env: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_COMMERCIAL: 'on', SVC_COMMERCIAL_ORIGIN: origin, ...options.env },
    });
    // The gateway is announced after the daemon's own listener.
    const deadline = Date.now() + 10_000;
    while (!/cookie gateway on/.test(daemon.stderr())) {
      if (/LISTEN_FAILED: cannot listen on 127\.0\.0\.1:\d+: the port is in use/.test(daemon.stderr()) && attempt < 3) break;
      if (Date.now() > deadline) throw new Error(`no gateway:\n${daemon.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    if (/cookie gateway on/.test(daemon.stderr())) return { daemon, origin };
    await daemon.stop().catch(() => undefined);
  }
}

/** The gateway URL of a started daemon (from its announcement). */
export function gatewayUrl(daemon: DaemonHandle): string {
  return /cookie gateway on (http:\/\/\S+)/.exec(daemon.stderr())![1]!;
}

/** A database file path inside a daemon's own directory is not known before start: a fixed path in `dir`. */
export function dbIn(dir: string): string {
  return path.join(dir, 'svc.db');
}

/** A compact EdDSA JWS over exactly `statement` (its UTF-8 bytes, base64url) by `principal`. */
export function signStatement(principal: Principal, statement: string, kid = principal.kid): string {
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid })).toString('base64url');
  const payload = Buffer.from(statement, 'utf8').toString('base64url');
  const input = `${header}.${payload}`;
  return `${input}.${sign(null, Buffer.from(input), principal.privateKey).toString('base64url')}`;
}

export { didKeyPrincipal, type Principal };

export interface SignedIn {
  status: number;
  body: any;
  setCookie: string;
  /** `svc_session=<id>` for a Cookie header ('' when none was set). */
  cookie: string;
}

/** Challenge + signature + sign-in at `gateway` with `origin`. */
export async function signIn(gateway: string, origin: string, principal: Principal): Promise<SignedIn> {
  const challenge = await postJson(gateway, '/sign-in/challenge', { did: principal.did }, { origin });
  if (challenge.status !== 201) throw new Error(`challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const jws = signStatement(principal, challenge.body.statement);
  return signInWith(gateway, origin, { did: principal.did, challenge: challenge.body.challenge, jws });
}

export async function signInWith(gateway: string, origin: string, body: unknown): Promise<SignedIn> {
  const answer = await postJson(gateway, '/sign-in', body, { origin });
  const setCookie = answer.headers.get('set-cookie') ?? '';
  const cookie = /^(svc_session=[A-Za-z0-9_-]{43});/.exec(setCookie)?.[1] ?? '';
  return { status: answer.status, body: answer.body, setCookie, cookie };
}

export async function postJson(base: string, route: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text === '' ? null : (JSON.parse(text) as any) };
}

export async function get(base: string, route: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${base}${route}`, { method, headers });
  const text = await res.text();
  let body: any = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** One answer of an owner-session request at the gateway (the body parsed when it is JSON). */
export interface SessionAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/**
 * An owner's requests at the gateway with the session cookie — and the configured Origin on
 * writes (POST, DELETE), as a browser of that origin sends them. With `contract`, every answer is
 * held to openapi.json as well (the gateway relays the core's answers).
 */
export function ownerSession(gateway: string, origin: string, cookie: string, options: { contract?: boolean } = {}) {
  const send = async (method: string, route: string, body?: unknown): Promise<SessionAnswer> => {
    const headers: Record<string, string> = { cookie };
    if (method !== 'GET' && method !== 'HEAD') headers['origin'] = origin;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${gateway}${route}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    let parsed: any = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (options.contract) checkContract(method, `${gateway}${route}`, { status: res.status, header: (name) => res.headers.get(name) ?? '', text });
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  return {
    send,
    get: (route: string) => send('GET', route),
    post: (route: string, body: unknown = {}) => send('POST', route, body),
    del: (route: string) => send('DELETE', route),
  };
}
