/**
 * Integration tests of the daemon's routes over real HTTP: one request helper that keeps the
 * status, the headers and the body, the checks every answer must pass (exact status and content
 * type, the headers every answer carries — on successes and on problems alike), a daemon set up to
 * reach a loopback did:web host as an operator would configure it (the host's CA through
 * NODE_EXTRA_CA_CERTS, 127.0.0.0/8 through SVC_EGRESS_ALLOW), and polling with a deadline.
 *
 * The contract: every answer `call()` receives is held to openapi.json (the committed OpenAPI
 * document, which the daemon also serves): its status must be documented for the route, its
 * content type one documented for that status, and a JSON body must validate against the
 * documented schema. Answers outside the document (an unknown path, a method not served) must be
 * problems. A breach throws, naming the route, the status and the schema errors.
 */
import http from 'node:http';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { repoRoot } from './cli.js';
import { startDaemon, startInProcessDaemon, type Daemon, type DaemonHandle, type DaemonOptions, type InProcessDaemon } from './daemon.js';
import type { DidWebHost } from './did-web-host.js';

export interface Answer {
  status: number;
  headers: Headers;
  /** The header value, '' when absent. */
  header(name: string): string;
  text: string;
  /** The body parsed as JSON (throws with the text when it is not JSON). */
  json(): any;
}

/** One request; the body is read whole and held to the contract (openapi.json, see checkContract). */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  const answer = answerOf(res, text);
  checkContract(init.method ?? 'GET', url, answer);
  return answer;
}

/**
 * A caller of one daemon with a bearer token (the operator's, a key's): `send(method, route,
 * body?)` sends JSON when a body is given; every answer is checked against openapi.json (call).
 */
export function bearerCaller(baseUrl: () => string, token: string): (method: string, route: string, body?: unknown) => Promise<Answer> {
  return (method, route, body) =>
    call(`${baseUrl()}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
}

/**
 * A POST of a body larger than the daemon accepts. The daemon may answer 413 and close the
 * connection before the client has finished writing, and fetch then throws EPIPE instead of
 * handing back the answer it was sent; node:http delivers the answer and the write error is
 * ignored once an answer has begun.
 */
export function callOversized(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const fetched = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') fetched.set(name, value);
          const answer = answerOf({ status: response.statusCode ?? 0, headers: fetched } as Response, text);
          checkContract('POST', url, answer);
          resolve(answer);
        });
        response.on('error', reject);
      },
    );
    request.on('error', (err) => {
      if (!answered) reject(err);
    });
    request.end(body);
  });
}

function answerOf(res: Response, text: string): Answer {
  return {
    status: res.status,
    headers: res.headers,
    header: (name) => res.headers.get(name) ?? '',
    text,
    json: () => {
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`not JSON (status ${res.status}): ${text.slice(0, 300)}`);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The contract hook.

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Where the document sits for Ajv: `$ref`s into it are `BASE#/…`, its own refs `#/components/schemas/…`. */
const BASE = 'https://svc.invalid/openapi.json';

/** The document, its path templates as patterns, and each schema compiled once. */
export class Contract {
  readonly #doc: OpenApiDocument;
  readonly #ajv: Ajv2020;
  readonly #templates: Array<{ template: string; pattern: RegExp }>;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
    // Not strict: the document carries OpenAPI keywords and x- extensions next to the schemas.
    this.#ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: BASE });
    // Static paths first, then templates with more literal text first: /v1/fast-verify/did/{did}
    // before anything more general.
    this.#templates = Object.keys(doc.paths)
      .map((template) => ({ template, pattern: templatePattern(template) }))
      .sort(
        (a, b) =>
          Number(a.template.includes('{')) - Number(b.template.includes('{')) ||
          b.template.replace(/\{[^}]*\}/g, '').length - a.template.replace(/\{[^}]*\}/g, '').length,
      );
  }

  /** The path template a request path falls under, or undefined. */
  templateOf(pathname: string): string | undefined {
    return this.#templates.find((t) => t.pattern.test(pathname))?.template;
  }

  /** Throws when the answer breaks the contract. */
  check(method: string, url: string, answer: Pick<Answer, 'status' | 'header' | 'text'>): void {
    const verb = method.toUpperCase();
    const pathname = new URL(url).pathname;
    // CORS preflights are answered by an internal route the document does not list.
    if (verb === 'OPTIONS' && answer.status === 204) return;
    const template = this.templateOf(pathname);
    const operation = template !== undefined ? this.#doc.paths[template]?.[(verb === 'HEAD' ? 'GET' : verb).toLowerCase()] : undefined;
    const where = `${verb} ${template ?? pathname}`;
    const mediaType = (answer.header('content-type').split(';')[0] ?? '').trim().toLowerCase();
    if (operation === undefined || template === undefined) {
      // Not a documented operation (unknown path, method not served): a problem, nothing else.
      if (answer.status < 400) throw new ContractError(where, answer.status, 'an undocumented route answered with a success');
      if (verb === 'HEAD') return;
      if (mediaType !== 'application/problem+json')
        throw new ContractError(where, answer.status, `content type ${mediaType || '(none)'} is not application/problem+json`);
      this.#validate(where, answer.status, `${BASE}#/components/schemas/Problem`, answer.text);
      return;
    }
    const response = operation.responses[String(answer.status)];
    if (response === undefined) {
      throw new ContractError(where, answer.status, `status ${answer.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
    }
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) {
      if (answer.text !== '') throw new ContractError(where, answer.status, 'a body was sent where the document has none');
      return;
    }
    if (verb === 'HEAD') return;
    const media = content[mediaType];
    if (media === undefined) {
      throw new ContractError(where, answer.status, `content type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`);
    }
    if (media.schema === undefined || !isJsonMediaType(mediaType)) return;
    const pointer = `#/paths/${escapePointer(template)}/${verb.toLowerCase()}/responses/${answer.status}/content/${escapePointer(mediaType)}/schema`;
    this.#validate(where, answer.status, `${BASE}${pointer}`, answer.text);
  }

  /** The errors of `body` against a schema of the document (`#/components/schemas/X`): [] when it validates. */
  validates(pointer: string, body: unknown): string[] {
    const validate = this.#compile(`${BASE}${pointer}`);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  }

  #compile(ref: string): ValidateFunction {
    let compiled = this.#compiled.get(ref);
    if (compiled === undefined) {
      compiled = this.#ajv.compile({ $ref: ref });
      this.#compiled.set(ref, compiled);
    }
    return compiled;
  }

  #validate(where: string, status: number, ref: string, text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ContractError(where, status, `the body is not JSON: ${text.slice(0, 200)}`);
    }
    const validate = this.#compile(ref);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 10)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''} (${e.schemaPath})`);
      throw new ContractError(where, status, `the body does not match the schema:\n  ${errors.join('\n  ')}\n  body: ${text.slice(0, 500)}`);
    }
  }
}

export class ContractError extends Error {
  constructor(where: string, status: number, reason: string) {
    super(`contract (openapi.json): ${where} → ${status}: ${reason}`);
    this.name = 'ContractError';
  }
}

/** JSON bodies: application/json and every +json / DID representation (not text/event-stream). */
function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType === 'application/did' || mediaType === 'application/did-resolution';
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A path template as a pattern over the raw request path: `{name}` is one segment, except a last
 * parameter, which takes the rest of the path (the daemon's wildcard routes: DIDs and DID URLs
 * may carry `/`).
 */
function templatePattern(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/);
  const source = parts
    .map((part, i) => {
      if (!/^\{[^}]+\}$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return i === parts.length - 2 && parts[parts.length - 1] === '' ? '.*' : '[^/]+';
    })
    .join('');
  return new RegExp(`^${source}$`);
}

let contract: Contract | undefined;

/** The contract of the committed openapi.json, loaded once. */
export function repoContract(): Contract {
  contract ??= new Contract(JSON.parse(readFileSync(path.join(repoRoot, 'openapi.json'), 'utf8')) as OpenApiDocument);
  return contract;
}

/** Holds one answer to openapi.json; throws a ContractError naming route, status and errors. */
export function checkContract(method: string, url: string, answer: Pick<Answer, 'status' | 'header' | 'text'>): void {
  repoContract().check(method, url, answer);
}

/** Every answer, success or problem, carries these (docs/daemon.md#requests-and-answers). */
export function expectCommonHeaders(answer: Answer): void {
  expect({
    'x-content-type-options': answer.header('x-content-type-options'),
    'referrer-policy': answer.header('referrer-policy'),
    'access-control-allow-origin': answer.header('access-control-allow-origin'),
  }).toEqual({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'access-control-allow-origin': '*' });
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
export const DID_TYPE = 'application/did';
export const DID_RESOLUTION_TYPE = 'application/did-resolution';

/** Exact status and content type plus the common headers; returns the JSON body. */
export function expectJson(answer: Answer, status: number, contentType = JSON_TYPE): any {
  expect({ status: answer.status, contentType: answer.header('content-type') }, answer.text.slice(0, 500)).toEqual({ status, contentType });
  expectCommonHeaders(answer);
  return answer.json();
}

export const W3C_TYPE = (code: string) => `https://www.w3.org/ns/did#${code}`;

/** A /v1 problem: exact status, application/problem+json, the common headers, the code and its type URI. */
export function expectProblem(answer: Answer, status: number, code: string): any {
  const problem = expectJson(answer, status, PROBLEM_TYPE);
  expect(problem).toMatchObject({ status, code });
  expect(typeof problem.title).toBe('string');
  expect(typeof problem.detail).toBe('string');
  expect(problem.type).toMatch(new RegExp(`#${code}$`));
  return problem;
}

/**
 * A daemon that trusts the host's CA and may fetch from loopback (no host: neither). Its rate
 * bucket is raised out of the way: the limits have their own tests (daemon-limits.test.ts).
 */
export function startDaemonFor(host: DidWebHost | null, options: DaemonOptions = {}): Promise<Daemon> {
  return daemonFor(host, options, startDaemon);
}

/** startDaemonFor's daemon in this process (startInProcessDaemon): the same settings, no process start. */
export function startInProcessDaemonFor(host: DidWebHost | null, options: DaemonOptions = {}): Promise<InProcessDaemon> {
  return daemonFor(host, options, startInProcessDaemon);
}

async function daemonFor<D extends DaemonHandle>(host: DidWebHost | null, options: DaemonOptions, start: (options: DaemonOptions) => Promise<D>): Promise<D> {
  const caDir = mkdtempSync(path.join(tmpdir(), 'svc-daemon-ca-'));
  const env: Record<string, string | undefined> = { SVC_RATE_LIMIT_PER_MIN: '100000', ...options.env };
  if (host) {
    const file = path.join(caDir, 'ca.pem');
    writeFileSync(file, host.ca.certPem);
    env['NODE_EXTRA_CA_CERTS'] = file;
    env['SVC_EGRESS_ALLOW'] = '127.0.0.0/8';
  }
  let daemon: D;
  try {
    daemon = await start({ ...options, env });
  } catch (err) {
    rmSync(caDir, { recursive: true, force: true });
    throw err;
  }
  const stop = daemon.stop.bind(daemon);
  daemon.stop = async (signal) => {
    try {
      return await stop(signal);
    } finally {
      rmSync(caDir, { recursive: true, force: true });
    }
  };
  return daemon;
}

/** One GET over a fresh connection from `localAddress` (a loopback address standing for a client), with extra headers; the status. */
export function statusFrom(url: string, localAddress: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { localAddress, headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Polls `check` until it returns true; fails naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
