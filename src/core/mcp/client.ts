/**
 * The MCP client of the inspector: Streamable HTTP through the Runtime's egress-checked fetch.
 *
 *   2026-07-28  POST server/discover, then the listings; every request carries
 *               MCP-Protocol-Version and Mcp-Method headers and the version in params._meta.
 *   2025-11-25  POST initialize, POST notifications/initialized, the listings echoing
 *               MCP-Session-Id and MCP-Protocol-Version, then DELETE of the session.
 *
 * The listings, each paginated (listPages): tools/list always; prompts/list when the server
 * declares `capabilities.prompts`; resources/list and resources/templates/list when it declares
 * `capabilities.resources`. None of them needs an Mcp-Name header (only calls, gets and reads do).
 *
 * Which one a server speaks follows the backward-compatibility rule of the 2026-07-28
 * transport: a modern JSON-RPC error (−32020, −32021, −32022) means a modern server; any other
 * 4xx answer to server/discover (empty body, a legacy error such as −32000) means a legacy one.
 * Replies are JSON or SSE. svc never authenticates: a 401 ends the conversation and is reported
 * with its WWW-Authenticate header and the RFC 9728 protected-resource metadata.
 *
 * Everything exchanged is timed into a transcript (methods, statuses, sizes, durations). The
 * session id is a bearer of the session and never leaves this module.
 */
import { decodeJsonText, isJsonObject, parseJsonBytes, parseJsonText, type JsonObject, type JsonValue } from '../encoding/json.js';
import type { FetchRequest, FetchResponse, TlsEvidence } from '../net.js';
import { asProblemError, ProblemError } from '../problems.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../../version.js';
import { MCP_LEGACY_VERSION, MCP_LIMITS, MCP_MODERN_VERSION, type McpAuth, type McpMode, type TranscriptEntry } from './types.js';
import { plural, withArticle } from '../text.js';
import { SseParser, type SseEvent } from '../encoding/sse.js';

/** Modern JSON-RPC error codes (2026-07-28 schema): their presence marks a modern server. */
export const MODERN_ERROR_CODES = {
  HEADER_MISMATCH: -32020,
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;
const MODERN_CODES: ReadonlySet<number> = new Set(Object.values(MODERN_ERROR_CODES));
const METHOD_NOT_FOUND = -32601;

const ACCEPT = 'application/json, text/event-stream';
const META_PREFIX = 'io.modelcontextprotocol/';
/** Largest protected-resource metadata document read. */
const METADATA_MAX_BYTES = 64 * 1024;
/** The stage each exchange reports (the CLI's progress line and --verbose trace). */
export const MCP_STAGES: Readonly<Record<string, string>> = {
  'server/discover': 'mcp.discover',
  initialize: 'mcp.initialize',
  'notifications/initialized': 'mcp.initialized',
  'tools/list': 'mcp.tools_list',
  'prompts/list': 'mcp.prompts_list',
  'resources/list': 'mcp.resources_list',
  'resources/templates/list': 'mcp.resource_templates_list',
  DELETE: 'mcp.session_end',
  'oauth-protected-resource': 'mcp.auth_metadata',
};

/**
 * One answer to a request. `response` is the transport's record of the exchange (the HTTP
 * response; for stdio, its transcript entry): what `annotate` and `refusal` are given back.
 */
export type RpcReply<R = FetchResponse> =
  | { kind: 'result'; result: JsonObject; response: R }
  | { kind: 'error'; code: number | null; data: JsonValue | null; response: R }
  /** No JSON-RPC answer: an HTTP status without one, a body or line that is not one, a time-out. `reason` says which. */
  | {
      kind: 'http';
      reason: string;
      response: R;
      /** Another kind of resource answered (a page, a JSON API without JSON-RPC): the URL is likely wrong. */
      elsewhere?: true;
    };

/**
 * What the handshake and the listings (listPages, listInventory, initializedConversation) need
 * of a transport: Streamable HTTP (McpClient) and stdio (stdio.ts StdioChannel) implement it, so
 * the transport is the only difference between the two inspections.
 */
export interface McpChannel<R extends object> {
  /** A JSON-RPC request; a reply larger than MCP_LIMITS.maxResponseBytes throws ProblemError PAYLOAD_TOO_LARGE. */
  request(method: string, params: JsonObject, version: string | null, modern: boolean): Promise<RpcReply<R>>;
  /** A JSON-RPC notification. */
  notify(method: string, version: string | null): Promise<unknown>;
  /** Replaces the transcript outcome of the exchange that gave `response`. */
  annotate(response: R, outcome: string): void;
  /** The problem when a required step (initialize, the first tools/list page) got no result. */
  refusal(reply: RpcReply<R>, step: string): ProblemError;
  /** HTTP: adopts the session id an initialize reply issued. */
  adoptSession?(response: R): void;
}

/** Raised inside the client when the server answered 401; the inspection becomes AUTH_REQUIRED. */
export class AuthRequired extends Error {
  constructor(readonly response: FetchResponse) {
    super('authentication required');
  }
}

/** One paginated listing as read. */
export interface Listed {
  /** The entries kept, as received. */
  items: JsonObject[];
  /** Null when every page was read; otherwise why the listing stopped. */
  limit: string | null;
  /** Entries skipped (not an object with the key as a string, or a repeated key), and a missing method. */
  skipped: string[];
  pages: number;
}

/** The four listings of the inventory; a listing the server did not declare is empty and complete. */
export interface Listings {
  tools: Listed;
  prompts: Listed;
  resources: Listed;
  resourceTemplates: Listed;
}

export interface McpConversation {
  era: 'modern' | 'legacy';
  mode: McpMode;
  negotiatedVersion: string;
  supportedVersions: string[];
  serverInfo: JsonObject | null;
  capabilities: JsonObject | null;
  instructions: string | null;
  listings: Listings;
}

export type ConversationOutcome =
  | { status: 'INSPECTED'; conversation: McpConversation }
  | { status: 'AUTH_REQUIRED'; auth: McpAuth; mode: McpMode; era: 'modern' | 'legacy' | null };

/** One line for a JSON-RPC error without the server's message (attacker text stays out). */
export function rpcErrorText(code: number | null): string {
  const names: Record<number, string> = {
    [MODERN_ERROR_CODES.HEADER_MISMATCH]: 'HeaderMismatch',
    [MODERN_ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY]: 'MissingRequiredClientCapability',
    [MODERN_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION]: 'UnsupportedProtocolVersion',
    [METHOD_NOT_FOUND]: 'method not found',
    [-32600]: 'invalid request',
    [-32602]: 'invalid params',
    [-32603]: 'internal error',
  };
  if (code === null) return 'a JSON-RPC error without a code';
  const name = names[code];
  return name ? `JSON-RPC error ${code} (${name})` : `JSON-RPC error ${code}`;
}

/** The `data:` payloads of an SSE body, one per event with data (the shared WHATWG parser). */
export function sseMessages(text: string): string[] {
  const parser = new SseParser();
  const events = [...parser.push(text), ...parser.push('\n\n')];
  return events.map((e) => e.data);
}

function isEventStream(contentType: string | null): boolean {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'text/event-stream';
}

/** Server-to-client request methods named in the transcript; any other is "a request". */
const KNOWN_SERVER_REQUESTS: ReadonlySet<string> = new Set(['ping', 'sampling/createMessage', 'elicitation/create', 'roots/list']);

/**
 * The answer to one request read from SSE replies as their bytes arrive (the reply to the POST,
 * then any resumption GETs), by the WHATWG event-stream rules of the shared parser. Every event
 * that is not the JSON-RPC answer to request `id` is skipped: priming events (an id and empty
 * data), notifications, responses to other ids, data that is not JSON, and server-to-client
 * requests, which are queued for the client to answer (never acted on). `push` returns true the
 * moment the answer arrived, or a bound was passed: the caller then stops reading the stream.
 */
export class SseAnswer {
  answer: JsonObject | null = null;
  /** Why reading stopped without the answer (a bound); null otherwise. */
  overflow: string | null = null;
  events = 0;
  bytes = 0;
  readonly skipped = { priming: 0, notifications: 0, requests: 0, otherIds: 0, notJson: 0 };
  /** Server-to-client requests not yet handed to the client (at most MCP_LIMITS.maxServerRequests in all). */
  #requests: Array<{ id: string | number; method: string }> = [];
  #requestsSeen = 0;
  #decoder = new TextDecoder('utf-8');
  #parser = new SseParser();
  #lastEventId: string | undefined;

  constructor(readonly id: number) {}

  /** True once the answer arrived or a bound stopped the reading. */
  get done(): boolean {
    return this.answer !== null || this.overflow !== null;
  }

  /** The stream's last event ID (kept across resumptions), for Last-Event-ID. */
  get lastEventId(): string | undefined {
    return this.#parser.lastEventId ?? this.#lastEventId;
  }

  /** A new stream (a resumption): fresh decoding, the last event ID kept. */
  restart(): void {
    this.#lastEventId = this.lastEventId;
    this.#decoder = new TextDecoder('utf-8');
    this.#parser = new SseParser();
  }

  /** Feeds bytes of the stream; true when reading should stop. Never throws. */
  push(chunk: Uint8Array): boolean {
    if (this.done) return true;
    this.bytes += chunk.length;
    return this.#take(this.#parser.push(this.#decoder.decode(chunk, { stream: true })));
  }

  /** The stream ended: bytes held back by the decoder are read (an unterminated event is dropped). */
  end(): void {
    if (this.done) return;
    this.#take(this.#parser.push(this.#decoder.decode()));
    this.#parser.end();
  }

  /** Server-to-client requests to answer, each handed out once. */
  takeRequests(): Array<{ id: string | number; method: string }> {
    return this.#requests.splice(0);
  }

  /** Why the streams ended without the answer, naming what they carried instead. */
  why(status: number): string {
    if (this.overflow) return this.overflow;
    const seen: string[] = [];
    const { priming, notifications, requests, otherIds, notJson } = this.skipped;
    if (priming) seen.push(plural(priming, 'event') + ' without data');
    if (notifications) seen.push(plural(notifications, 'notification'));
    if (requests) seen.push(plural(requests, 'server request'));
    if (otherIds) seen.push(plural(otherIds, 'answer') + ' to other requests');
    if (notJson) seen.push(plural(notJson, 'event') + ' whose data is not JSON');
    const carried = seen.length ? `: ${seen.join(', ')}` : ' without events';
    return `an HTTP ${status} event stream ended before the JSON-RPC answer to request ${this.id}${carried}`;
  }

  #take(events: SseEvent[]): boolean {
    for (const event of events) {
      this.events += 1;
      if (this.events > MCP_LIMITS.maxEvents) {
        this.overflow = `the server sent more than ${MCP_LIMITS.maxEvents} SSE events without the JSON-RPC answer to request ${this.id}`;
        return true;
      }
      if (event.data.trim() === '') {
        this.skipped.priming += 1;
        continue;
      }
      const parsed = parseJsonText(event.data, 'an SSE message');
      if ('error' in parsed) {
        this.skipped.notJson += 1;
        continue;
      }
      for (const message of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
        if (this.#message(message)) return true;
      }
    }
    return false;
  }

  /** One JSON-RPC message; true when it is the answer. */
  #message(message: JsonValue): boolean {
    const seen = classifyMessage(message, this.id);
    if (seen.kind === 'answer') {
      this.answer = seen.answer;
      return true;
    }
    this.skipped[SKIPPED_AS[seen.kind]] += 1;
    if (seen.kind === 'request' && this.#requestsSeen < MCP_LIMITS.maxServerRequests) {
      this.#requestsSeen += 1;
      this.#requests.push({ id: seen.id, method: seen.method });
    }
    return false;
  }
}

/** What one message read while waiting for the answer to request `id` is (SSE and stdio alike). */
export type SeenMessage =
  | { kind: 'answer'; answer: JsonObject }
  | { kind: 'request'; id: string | number; method: string }
  | { kind: 'notification' }
  | { kind: 'otherId' }
  | { kind: 'notJson' };

/** The counter of `skipped` each kind of message that is not the answer goes to. */
export const SKIPPED_AS = { request: 'requests', notification: 'notifications', otherId: 'otherIds', notJson: 'notJson' } as const;

export function classifyMessage(message: JsonValue, id: number): SeenMessage {
  if (!isJsonObject(message)) return { kind: 'notJson' };
  const messageId = message['id'];
  const method = message['method'];
  if (typeof method === 'string') {
    return typeof messageId === 'string' || (typeof messageId === 'number' && Number.isInteger(messageId))
      ? { kind: 'request', id: messageId, method }
      : { kind: 'notification' };
  }
  const answers = 'result' in message || 'error' in message;
  // A reply to our request has our id; an error about an unreadable request may carry id null.
  if (answers && (messageId === id || (messageId === null && 'error' in message))) return { kind: 'answer', answer: message };
  return { kind: 'otherId' };
}

/** The RpcReply of a JSON-RPC answer object (any transport's). */
export function replyOf<R>(answer: JsonObject, response: R): RpcReply<R> {
  const error = answer['error'];
  if (error !== undefined) {
    const code = isJsonObject(error) && typeof error['code'] === 'number' && Number.isInteger(error['code']) ? error['code'] : null;
    return { kind: 'error', code, data: isJsonObject(error) ? (error['data'] ?? null) : null, response };
  }
  const result = answer['result'];
  if (!isJsonObject(result)) return { kind: 'http', reason: 'a JSON-RPC result that is not an object', response };
  return { kind: 'result', result, response };
}

/**
 * Reads the JSON-RPC answer to request `id` from a JSON or SSE body. For SSE, `sse` is what was
 * read as the body streamed in (with resumptions); without it the whole body is read here.
 */
export function readRpcReply(response: FetchResponse, id: number, sse?: SseAnswer): RpcReply {
  const type = (response.contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') {
    let answer = sse;
    if (!answer) {
      answer = new SseAnswer(id);
      answer.push(response.body);
      answer.end();
    }
    return answer.answer ? replyOf(answer.answer, response) : { kind: 'http', reason: answer.why(response.status), response };
  }
  const text = decodeJsonText(response.body, 'the reply');
  if (typeof text !== 'string') return { kind: 'http', reason: text.error, response };
  if (text.trim() === '') return { kind: 'http', reason: `an empty HTTP ${response.status} reply`, response };
  const parsed = parseJsonText(text, 'the reply');
  if ('error' in parsed) {
    const what = type ? `${withArticle(type)} reply that is not JSON-RPC` : 'a reply that is not JSON-RPC';
    if (response.status >= 400 || type !== 'application/json')
      return { kind: 'http', reason: `${what} (HTTP ${response.status})`, response, ...(response.status < 300 ? { elsewhere: true } : {}) };
    return { kind: 'http', reason: parsed.error, response };
  }
  const objects = (Array.isArray(parsed.value) ? parsed.value : [parsed.value]).filter(isJsonObject);
  const answer = objects.find((m) => m['id'] === id && ('result' in m || 'error' in m)) ?? objects.find((m) => m['id'] === null && 'error' in m);
  if (!answer) {
    // JSON, but no JSON-RPC message at all: another kind of API answered.
    if (!objects.some((m) => m['jsonrpc'] === '2.0')) {
      return {
        kind: 'http',
        reason: `a JSON reply that is not JSON-RPC (HTTP ${response.status}, no "jsonrpc" member)`,
        response,
        ...(response.status < 300 ? { elsewhere: true } : {}),
      };
    }
    return { kind: 'http', reason: `HTTP ${response.status} without a JSON-RPC answer to request ${id}`, response };
  }
  return replyOf(answer, response);
}

/** The transcript outcome of a reply. */
export function outcomeText<R>(reply: RpcReply<R>): string {
  return reply.kind === 'result' ? 'result' : reply.kind === 'error' ? rpcErrorText(reply.code) : reply.reason;
}

/** `name="value"` or `name=token` parameters of a WWW-Authenticate challenge. */
export function challengeParameter(header: string, name: string): string | null {
  const pattern = new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, 'i');
  const match = pattern.exec(header);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? null);
}

function elapsedMs(runtime: Runtime, startUs: number): number {
  return Math.round((runtime.clock.monotonicUs() - startUs) / 100) / 10;
}

/**
 * One conversation with one endpoint: ids, the session, the transcript and the TLS evidence of
 * the first connection.
 */
export class McpClient implements McpChannel<FetchResponse> {
  readonly transcript: TranscriptEntry[] = [];
  tls: TlsEvidence | null = null;
  #nextId = 1;
  #sessionId: string | null = null;
  #sessionIssued = false;
  /** The transcript entry of each response, for its outcome. */
  readonly #entries = new WeakMap<FetchResponse, TranscriptEntry>();

  /** Each HTTP exchange is a stage for the caller's hooks (the CLI's progress line). */
  readonly #stages: StageReporter;

  constructor(
    readonly endpoint: URL,
    private readonly runtime: Runtime,
    private readonly signal?: AbortSignal,
    hooks?: StageHooks,
  ) {
    this.#stages = new StageReporter(runtime.clock, hooks, runtime.telemetry);
  }

  /** True once the server issued a session id (it stays true after the DELETE). */
  get sessionIssued(): boolean {
    return this.#sessionIssued;
  }

  /** Sends one HTTP request to the endpoint and records it; problems are recorded, then rethrown. */
  async #send(
    entry: Pick<TranscriptEntry, 'method' | 'protocolVersion'> & { httpMethod: 'GET' | 'POST' | 'DELETE' },
    headers: Record<string, string>,
    body: string | undefined,
    maxBytes: number,
    url: string = this.endpoint.href,
    accept: string = ACCEPT,
    watchBody?: FetchRequest['watchBody'],
  ): Promise<FetchResponse> {
    const started = this.runtime.clock.monotonicUs();
    const stageName = MCP_STAGES[entry.method] ?? 'mcp.request';
    const label =
      entry.method === 'DELETE' || entry.method === 'oauth-protected-resource' ? `${entry.httpMethod} ${url}` : `${entry.httpMethod} ${entry.method} to ${url}`;
    try {
      const response = await this.#stages.run(stageName, label, async (stage) => {
        const answer = await this.runtime.net.fetch({
          url,
          purpose: entry.method === 'DELETE' ? 'MCP session end' : `MCP ${entry.method} reply`,
          maxBytes,
          accept,
          method: entry.httpMethod,
          headers,
          ...(body !== undefined ? { body } : {}),
          ...(this.signal ? { signal: this.signal } : {}),
          ...(watchBody ? { watchBody } : {}),
          // A development server on the operator's own network may speak plain http; public
          // addresses never (the fetcher enforces it).
          allowPlainHttp: true,
        });
        stage.detail = `HTTP ${answer.status}, ${answer.bytes} bytes`;
        return answer;
      });
      if (this.tls === null && response.tls !== null && new URL(response.url).origin === this.endpoint.origin) this.tls = response.tls;
      const recorded: TranscriptEntry = {
        ...entry,
        status: response.status,
        contentType: response.contentType,
        bytes: response.bytes,
        durationMs: elapsedMs(this.runtime, started),
        outcome: response.status === 401 ? 'authentication required' : `HTTP ${response.status}`,
      };
      this.transcript.push(recorded);
      this.#entries.set(response, recorded);
      return response;
    } catch (err) {
      const problem = asProblemError(err);
      this.transcript.push({
        ...entry,
        status: null,
        contentType: null,
        bytes: 0,
        durationMs: elapsedMs(this.runtime, started),
        outcome: `${problem.code}: ${problem.message}`,
      });
      throw problem;
    }
  }

  refusal(reply: RpcReply, step: string): ProblemError {
    return noMcpAnswer(this.endpoint, reply, step);
  }

  /** Replaces the outcome of the exchange that gave `response` with a more precise one. */
  annotate(response: FetchResponse, outcome: string): void {
    this.#outcomeOf(response, outcome);
  }

  /**
   * The outcome of the exchange that gave `response`: exchanges may overlap (a server request is
   * answered while the reply's stream is still open), so "the last entry" is not always it.
   */
  #outcomeOf(response: FetchResponse, outcome: string): void {
    const entry = this.#entries.get(response);
    if (entry) entry.outcome = outcome;
  }

  /**
   * Called once when a request that carried the session id is answered 404 (the session expired,
   * 2025-11-25 transport): it opens a new session (initialize again), and the request is sent
   * once more. A second 404 is reported like any other.
   */
  renewSession: (() => Promise<void>) | null = null;

  /** A JSON-RPC request. `version` is sent as MCP-Protocol-Version; modern requests also name the method. */
  async request(
    method: string,
    params: JsonObject,
    version: string | null,
    modern: boolean,
    maxBytes: number = MCP_LIMITS.maxResponseBytes,
  ): Promise<RpcReply> {
    const reply = await this.#request(method, params, version, modern, maxBytes);
    if (reply.response.status === 404 && reply.sentSession && this.renewSession) {
      const renew = this.renewSession;
      this.renewSession = null;
      this.#sessionId = null;
      await renew();
      return (await this.#request(method, params, version, modern, maxBytes)).reply;
    }
    return reply.reply;
  }

  async #request(
    method: string,
    params: JsonObject,
    version: string | null,
    modern: boolean,
    maxBytes: number,
  ): Promise<{ reply: RpcReply; response: FetchResponse; sentSession: boolean }> {
    const id = this.#nextId++;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (version) headers['mcp-protocol-version'] = version;
    if (modern) headers['mcp-method'] = method;
    const sentSession = this.#sessionId !== null;
    if (this.#sessionId) headers['mcp-session-id'] = this.#sessionId;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    // An SSE reply is read as it arrives: the answer ends the reading (a server may keep the
    // stream open after it), and server requests on it are answered while it stays open.
    const sse = new SseAnswer(id);
    const answering: Array<Promise<void>> = [];
    const watcher = this.#streamWatcher(sse, answering, version, (status) => status < 300);
    const response = await this.#send(
      { method, httpMethod: 'POST', protocolVersion: version },
      headers,
      body,
      maxBytes,
      this.endpoint.href,
      ACCEPT,
      watcher.watchBody,
    );
    if (response.status === 401) throw new AuthRequired(response);
    let reply: RpcReply;
    if (isEventStream(response.contentType) && response.status < 300) {
      if (!watcher.fed()) sse.push(response.body);
      sse.end();
      // A Net that read the body whole (no watchBody support): its server requests now.
      for (const request of sse.takeRequests()) answering.push(this.#answerServer(request, version));
      const resumable = !sse.done && sse.lastEventId !== undefined;
      const last = await this.#resume(method, version, sse, maxBytes, answering, response.headers['mcp-session-id']);
      // The reply keeps the POST's response (its headers carry the session id of an initialize).
      reply = sse.answer ? readRpcReply(response, id, sse) : { kind: 'http', reason: last.why ?? sse.why(response.status), response };
      if (resumable) {
        this.#outcomeOf(response, 'the event stream closed before the answer; resumed with Last-Event-ID');
        // Later annotations of the reply (the page's tool count) go to the GET that carried it.
        const carrier = last.carrier ? this.#entries.get(last.carrier) : undefined;
        if (carrier) this.#entries.set(response, carrier);
      } else {
        this.#outcomeOf(response, outcomeText(reply));
      }
    } else {
      reply = readRpcReply(response, id);
      this.#outcomeOf(response, outcomeText(reply));
    }
    await Promise.allSettled(answering);
    return { reply, response, sentSession };
  }

  /**
   * Reads an event-stream reply into `sse` as it arrives (the answer stops the reading), answering
   * the server's requests on it; `fed()` says whether the Net streamed the body at all (one that
   * reads it whole leaves it for the caller to push).
   */
  #streamWatcher(sse: SseAnswer, answering: Array<Promise<void>>, version: string | null, accepted: (status: number) => boolean) {
    let fed = false;
    const watchBody = (status: number, contentType: string | null) =>
      accepted(status) && isEventStream(contentType)
        ? (chunk: Uint8Array) => {
            fed = true;
            const stop = sse.push(chunk);
            for (const request of sse.takeRequests()) answering.push(this.#answerServer(request, version));
            return stop;
          }
        : undefined;
    return { watchBody, fed: () => fed };
  }

  /**
   * A stream that closed before the answer, with an event id given: GET with Last-Event-ID (the
   * 2025-11-25 resumability rule), at most MCP_LIMITS.maxResumptions times, within what is left
   * of the reply's byte budget. svc resumes at once rather than after the stream's `retry:` time:
   * an inspection is one bounded exchange, and the server replays from its event store either way.
   * Returns why the resumption could not go on, or null.
   */
  async #resume(
    method: string,
    version: string | null,
    sse: SseAnswer,
    maxBytes: number,
    answering: Array<Promise<void>>,
    issuedSession: string | undefined,
  ): Promise<{ why: string | null; carrier: FetchResponse | null }> {
    let carrier: FetchResponse | null = null;
    for (let attempt = 1; !sse.done && attempt <= MCP_LIMITS.maxResumptions; attempt++) {
      const lastEventId = sse.lastEventId;
      if (lastEventId === undefined) return { why: null, carrier };
      const budget = maxBytes - sse.bytes;
      if (budget <= 0) return { why: `the event stream used the ${maxBytes}-byte budget of one reply without the JSON-RPC answer`, carrier };
      const headers: Record<string, string> = { 'last-event-id': lastEventId };
      if (version) headers['mcp-protocol-version'] = version;
      // An initialize reply resumed before its session was adopted: the session it issued.
      const session = this.#sessionId ?? (issuedSession !== undefined && /^[\x21-\x7e]{1,256}$/.test(issuedSession) ? issuedSession : null);
      if (session) headers['mcp-session-id'] = session;
      sse.restart();
      const watcher = this.#streamWatcher(sse, answering, version, (status) => status === 200);
      const response = await this.#send(
        { method, httpMethod: 'GET', protocolVersion: version },
        headers,
        undefined,
        budget,
        this.endpoint.href,
        'text/event-stream',
        watcher.watchBody,
      );
      if (response.status === 401) throw new AuthRequired(response);
      if (response.status !== 200 || !isEventStream(response.contentType)) {
        const why = `the event stream closed before the JSON-RPC answer, and resuming it (GET with Last-Event-ID) was answered HTTP ${response.status}${response.status === 200 ? ' without an event stream' : ''}`;
        this.#outcomeOf(response, why);
        return { why, carrier };
      }
      carrier = response;
      if (!watcher.fed()) sse.push(response.body);
      sse.end();
      for (const request of sse.takeRequests()) answering.push(this.#answerServer(request, version));
      this.#outcomeOf(
        response,
        sse.answer ? `resumed: ${outcomeText(readRpcReply(response, sse.id, sse))}` : (sse.overflow ?? `resumed (attempt ${attempt}), no answer yet`),
      );
    }
    return {
      why:
        sse.done || sse.lastEventId === undefined
          ? null
          : `the event stream closed ${MCP_LIMITS.maxResumptions + 1} times before the JSON-RPC answer (resumed with Last-Event-ID ${MCP_LIMITS.maxResumptions} times)`,
      carrier,
    };
  }

  /**
   * Answers a server-to-client request seen on a reply stream. svc declares no client
   * capabilities, so it acts on none: `ping` gets the empty result the protocol requires of every
   * receiver, anything else (sampling, elicitation, roots …) JSON-RPC −32601 method not found —
   * JSON-RPC asks every request to be answered. Sent as a POST (202 expected); a failure is
   * recorded, never raised.
   */
  async #answerServer(request: { id: string | number; method: string }, version: string | null): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (version) headers['mcp-protocol-version'] = version;
    if (this.#sessionId) headers['mcp-session-id'] = this.#sessionId;
    const ping = request.method === 'ping';
    const message = ping
      ? { jsonrpc: '2.0', id: request.id, result: {} }
      : { jsonrpc: '2.0', id: request.id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
    const named = KNOWN_SERVER_REQUESTS.has(request.method) ? request.method : 'a request';
    try {
      const response = await this.#send({ method: 'response', httpMethod: 'POST', protocolVersion: version }, headers, JSON.stringify(message), 64 * 1024);
      this.#outcomeOf(response, `${ping ? "answered the server's ping" : `refused the server's ${named} (method not found)`}: HTTP ${response.status}`);
    } catch {
      // Recorded in the transcript; the answer to svc's own request is what matters.
    }
  }

  /** A JSON-RPC notification (no id, 202 expected). */
  async notify(method: string, version: string | null): Promise<FetchResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (version) headers['mcp-protocol-version'] = version;
    if (this.#sessionId) headers['mcp-session-id'] = this.#sessionId;
    const response = await this.#send({ method, httpMethod: 'POST', protocolVersion: version }, headers, JSON.stringify({ jsonrpc: '2.0', method }), 64 * 1024);
    if (response.status === 401) throw new AuthRequired(response);
    this.#outcomeOf(response, response.status === 202 ? 'accepted' : `HTTP ${response.status} (202 expected)`);
    return response;
  }

  adoptSession(response: FetchResponse): void {
    const id = response.headers['mcp-session-id'];
    // A visible-ASCII token (2025-11-25 transport); anything else is not echoed back.
    if (id !== undefined && /^[\x21-\x7e]{1,256}$/.test(id)) {
      this.#sessionId = id;
      this.#sessionIssued = true;
    }
  }

  /** Ends the legacy session (DELETE with its id); a failure is recorded, never raised. */
  async endSession(version: string | null): Promise<void> {
    if (!this.#sessionId) return;
    const headers: Record<string, string> = { 'mcp-session-id': this.#sessionId };
    if (version) headers['mcp-protocol-version'] = version;
    try {
      const response = await this.#send({ method: 'DELETE', httpMethod: 'DELETE', protocolVersion: version }, headers, undefined, 64 * 1024);
      this.#outcomeOf(
        response,
        response.status < 300 ? 'session ended' : response.status === 405 ? 'the server keeps sessions until they expire (405)' : `HTTP ${response.status}`,
      );
    } catch {
      // Recorded in the transcript; the inspection itself is complete.
    } finally {
      this.#sessionId = null;
    }
  }

  /** GET of a protected-resource metadata document (RFC 9728), recorded like the rest. */
  async getMetadata(url: string): Promise<FetchResponse> {
    return this.#send(
      { method: 'oauth-protected-resource', httpMethod: 'GET', protocolVersion: null },
      {},
      undefined,
      METADATA_MAX_BYTES,
      url,
      'application/json',
    );
  }
}

/** The modern request `_meta`: version, client and capabilities in every request (2026-07-28). */
function modernMeta(): JsonObject {
  return {
    [`${META_PREFIX}protocolVersion`]: MCP_MODERN_VERSION,
    [`${META_PREFIX}clientInfo`]: { name: 'svc', version: VERSION },
    [`${META_PREFIX}clientCapabilities`]: {},
  };
}

function stringArray(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function objectOrNull(value: JsonValue | undefined): JsonObject | null {
  return isJsonObject(value) ? value : null;
}

function stringOrNull(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** Why a server that answered neither handshake is no MCP endpoint, as a problem. */
function noMcpAnswer(endpoint: URL, reply: RpcReply, step: string): ProblemError {
  const status = reply.response.status;
  const wrongUrl = { hint: { kind: 'mcp-endpoint' } } as const;
  if (status === 404) return new ProblemError('NOT_FOUND', `No MCP endpoint at ${endpoint.href}: ${step} was answered 404.`, wrongUrl);
  if (status >= 500) return new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server at ${endpoint.host} failed: ${step} was answered ${status}.`);
  if (reply.kind === 'error')
    return new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server at ${endpoint.host} refused ${step}: ${rpcErrorText(reply.code)} (HTTP ${status}).`);
  if (status >= 400) return new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server at ${endpoint.host} refused ${step} with HTTP ${status}.`);
  // Something answered, but not MCP (an HTML page, another JSON API, a stream without the
  // answer): a service problem naming what was found. An MCP endpoint has no DID document.
  // A whole reply of another kind (a page, another JSON API) says the URL is wrong; a broken
  // JSON-RPC reply or an event stream that ended early is a server that misbehaves: no hint.
  const elsewhere = reply.kind === 'http' && reply.elsewhere === true;
  return new ProblemError(
    'UPSTREAM_UNAVAILABLE',
    `${endpoint.href} did not answer ${step} as an MCP server: ${reply.kind === 'http' ? reply.reason : 'no result'}.`,
    elsewhere ? wrongUrl : {},
  );
}

/** What differs between the four listings. */
export interface ListSpec {
  method: 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';
  /** The result member holding the page's entries. */
  member: 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
  /** The member each entry must have as a string, unique in the listing. */
  key: 'name' | 'uri' | 'uriTemplate';
  /** Singular and plural, for transcript outcomes and limits. */
  noun: readonly [string, string];
  /** Entries kept at most; the next one makes the listing partial. */
  max: number;
  /** The limit's words when `max` is passed (the listing "lists more than …"). */
  overLimit: string;
  /**
   * Tools: a failed first page means the endpoint is not an MCP server (a problem). The other
   * listings come after tools/list succeeded: a failure there (a JSON-RPC error, a reply that is
   * not one, a 401) leaves that listing incomplete, with the reason, and the inspection stands.
   */
  required: boolean;
}

export const LIST_SPECS = {
  tools: { method: 'tools/list', member: 'tools', key: 'name', noun: ['tool', 'tools'] },
  prompts: { method: 'prompts/list', member: 'prompts', key: 'name', noun: ['prompt', 'prompts'] },
  resources: { method: 'resources/list', member: 'resources', key: 'uri', noun: ['resource', 'resources'] },
  resourceTemplates: { method: 'resources/templates/list', member: 'resourceTemplates', key: 'uriTemplate', noun: ['resource template', 'resource templates'] },
} as const satisfies Record<string, Omit<ListSpec, 'max' | 'overLimit' | 'required'>>;

/** The shared bound of prompts, resources and templates, in words. */
const SHARED_LIMIT = `${MCP_LIMITS.maxPromptsAndResources} prompts, resources and resource templates together`;

/**
 * One listing assembled page by page: the entry rules and bounds that a conversation
 * (listPages) and a saved listing read from a file (saved.ts) share. An entry that is not an
 * object with the key as a string is skipped, a repeated key too (the first is kept, the key is
 * noted in `duplicates`), and the entry past `spec.max` ends the listing as partial.
 */
export class ListingBuilder {
  readonly items: JsonObject[] = [];
  readonly skipped: string[] = [];
  /** Keys met a second time (skipped). */
  readonly duplicates: string[] = [];
  /** Pages taken, or requested (a page that failed counts). */
  pages = 0;
  readonly #keys = new Set<string>();

  constructor(readonly spec: ListSpec) {}

  /** Why no further page may be read (MCP_LIMITS.maxPages), or null. */
  pageBound(): string | null {
    return this.pages >= MCP_LIMITS.maxPages
      ? `the server has more than ${MCP_LIMITS.maxPages} pages of ${this.spec.noun[1]}; svc reads at most ${MCP_LIMITS.maxPages}`
      : null;
  }

  /** Takes the result of page `this.pages`: null when taken whole, else why the listing stops there. */
  take(result: JsonObject): string | null {
    const { spec } = this;
    const page = result[spec.member];
    if (!Array.isArray(page)) return `${spec.method} page ${this.pages} has no ${spec.member} array`;
    const one = spec.noun[0];
    for (const [index, entry] of page.entries()) {
      const key = isJsonObject(entry) ? entry[spec.key] : undefined;
      if (!isJsonObject(entry) || typeof key !== 'string') {
        this.skipped.push(`entry ${index} of ${spec.method} page ${this.pages} is not ${withArticle(one)} (an object with a string ${spec.key})`);
        continue;
      }
      if (this.#keys.has(key)) {
        this.duplicates.push(key);
        this.skipped.push(`a second ${one} with the ${spec.key} ${JSON.stringify(key.slice(0, 64))} (${spec.method} page ${this.pages}); the first is kept`);
        continue;
      }
      if (this.items.length >= spec.max) return spec.overLimit;
      this.#keys.add(key);
      this.items.push(entry);
    }
    return null;
  }

  /** The listing, complete (limit null) or stopped by `limit`. */
  listed(limit: string | null): Listed {
    return { items: this.items, limit, skipped: this.skipped, pages: this.pages };
  }
}

/**
 * Reads the pages of one listing until there is no cursor, or a bound stops it
 * (MCP_LIMITS: 10 pages of each listing, 2 MiB per reply, `spec.max` entries). A bound yields a
 * partial listing with its reason, never a crash. JSON-RPC −32601 (method not found) to the
 * first page is an empty listing with a line in `skipped`: servers often declare `resources`
 * without implementing templates.
 */
export async function listPages<R extends object>(client: McpChannel<R>, spec: ListSpec, version: string, modern: boolean): Promise<Listed> {
  const list = new ListingBuilder(spec);
  const cursors = new Set<string>();
  const [one, many] = spec.noun;
  let cursor: string | null = null;
  for (;;) {
    const bound = list.pageBound();
    if (bound) return list.listed(bound);
    const params: JsonObject = modern ? { _meta: modernMeta() } : {};
    if (cursor !== null) params['cursor'] = cursor;
    let reply: RpcReply<R>;
    try {
      reply = await client.request(spec.method, params, version, modern);
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'PAYLOAD_TOO_LARGE') {
        return list.listed(`${spec.method} page ${list.pages + 1} is larger than ${MCP_LIMITS.maxResponseBytes} bytes (2 MiB), the limit of one reply`);
      }
      if (err instanceof AuthRequired && !spec.required) {
        return list.listed(`${spec.method} page ${list.pages + 1} was answered HTTP 401 (authentication required); svc does not authenticate`);
      }
      throw err;
    }
    list.pages += 1;
    if (reply.kind === 'error' && reply.code === METHOD_NOT_FOUND && list.pages === 1) {
      return { items: [], limit: null, skipped: [`the server does not implement ${spec.method} (method not found)`], pages: 1 };
    }
    if (reply.kind !== 'result') {
      const why = reply.kind === 'error' ? rpcErrorText(reply.code) : reply.reason;
      if (list.pages === 1 && spec.required) throw client.refusal(reply, spec.method);
      return list.listed(`${spec.method} page ${list.pages} failed: ${why}`);
    }
    const page = reply.result[spec.member];
    if (Array.isArray(page)) {
      client.annotate(
        reply.response,
        `page ${list.pages}, ${plural(page.length, one, many)}${typeof reply.result['nextCursor'] === 'string' && reply.result['nextCursor'] !== '' ? ', more follow' : ''}`,
      );
    }
    const stopped = list.take(reply.result);
    if (stopped) return list.listed(stopped);
    const next = reply.result['nextCursor'];
    if (typeof next !== 'string' || next === '') return list.listed(null);
    if (cursors.has(next)) return list.listed(`${spec.method} page ${list.pages} repeats an earlier cursor; the listing was stopped`);
    cursors.add(next);
    cursor = next;
  }
}

/** A listing not read: empty, complete when the capability is not declared, else with why. */
function notListed(limit: string | null): Listed {
  return { items: [], limit, skipped: [], pages: 0 };
}

/** The listings of an inventory, by the member of McpInspection that reports them. */
export type ListingKind = keyof Listings;

/**
 * Where the listings come from: `has` says whether a listing is there to read (the capability
 * is declared, the file holds such a result; tools are always read), `read` reads it with its
 * bounds (`spec.max`, `spec.overLimit`, `spec.required` set).
 */
export interface ListingSource {
  has(kind: ListingKind): boolean;
  read(kind: ListingKind, spec: ListSpec): Promise<Listed>;
}

/**
 * The four listings, in order: tools, then (when there) prompts, resources and templates, the
 * last three sharing MCP_LIMITS.maxPromptsAndResources. Once that bound stopped one of them, the
 * ones after it are not read: they are incomplete, saying so. The source is a server
 * (listInventory) or a saved file (saved.ts): the bounds are the same.
 */
export async function assembleListings(source: ListingSource): Promise<Listings> {
  const tools = await source.read('tools', {
    ...LIST_SPECS.tools,
    max: MCP_LIMITS.maxTools,
    overLimit: `the server lists more than ${MCP_LIMITS.maxTools} tools; svc inspects the first ${MCP_LIMITS.maxTools}`,
    required: true,
  });
  const overLimit = `the server lists more than ${SHARED_LIMIT}; svc inspects the first ${MCP_LIMITS.maxPromptsAndResources}`;
  let budget = MCP_LIMITS.maxPromptsAndResources;
  let exhausted = false;
  const list = async (kind: 'prompts' | 'resources' | 'resourceTemplates'): Promise<Listed> => {
    if (!source.has(kind)) return notListed(null);
    const spec = LIST_SPECS[kind];
    if (exhausted) return notListed(`${spec.method} was not read: the limit of ${SHARED_LIMIT} was reached`);
    const listed = await source.read(kind, { ...spec, max: budget, overLimit, required: false });
    budget -= listed.items.length;
    if (listed.limit === overLimit) exhausted = true;
    return listed;
  };
  const prompts = await list('prompts');
  const resources = await list('resources');
  const resourceTemplates = await list('resourceTemplates');
  return { tools, prompts, resources, resourceTemplates };
}

/** The four listings from the server: tools always, the others as its capabilities declare them. */
export function listInventory<R extends object>(client: McpChannel<R>, capabilities: JsonObject | null, version: string, modern: boolean): Promise<Listings> {
  const declared = (capability: string) => capabilities !== null && isJsonObject(capabilities[capability]);
  return assembleListings({
    has: (kind) => kind === 'tools' || declared(kind === 'prompts' ? 'prompts' : 'resources'),
    read: (_kind, spec) => listPages(client, spec, version, modern),
  });
}

/** The RFC 9728 metadata of a 401: from WWW-Authenticate's resource_metadata, else the well-known URLs. */
async function readAuth(client: McpClient, response: FetchResponse): Promise<McpAuth> {
  const header = response.headers['www-authenticate'] ?? null;
  const announced = header ? challengeParameter(header, 'resource_metadata') : null;
  const scope = header ? challengeParameter(header, 'scope') : null;
  const endpoint = client.endpoint;
  const path = endpoint.pathname === '/' ? '' : endpoint.pathname;
  const candidates: string[] = [];
  if (announced) {
    try {
      candidates.push(new URL(announced, endpoint).href);
    } catch {
      // An unusable URL: the well-known locations below are tried instead.
    }
  }
  if (candidates.length === 0) {
    candidates.push(`${endpoint.origin}/.well-known/oauth-protected-resource${path}`);
    if (path) candidates.push(`${endpoint.origin}/.well-known/oauth-protected-resource`);
  }
  const auth: McpAuth = {
    status: response.status,
    wwwAuthenticate: header,
    resourceMetadataUrl: candidates[0] ?? null,
    resourceMetadata: null,
    resourceMetadataError: null,
    scope,
  };
  const failures: string[] = [];
  for (const url of candidates) {
    auth.resourceMetadataUrl = url;
    try {
      const metadata = await client.getMetadata(url);
      if (metadata.status !== 200) {
        failures.push(`${url} answered ${metadata.status}`);
        continue;
      }
      const parsed = parseJsonBytes(metadata.body, 'the protected-resource metadata');
      if ('error' in parsed) failures.push(`${url}: ${parsed.error}`);
      else if (!isJsonObject(parsed.value)) failures.push(`${url} is not a JSON object`);
      else {
        auth.resourceMetadata = parsed.value;
        auth.resourceMetadataError = null;
        return auth;
      }
    } catch (err) {
      failures.push(`${url}: ${asProblemError(err).message}`);
    }
  }
  auth.resourceMetadataError = failures.join('; ') || 'no metadata URL';
  return auth;
}

/** Modern era: server/discover answered with a result. */
async function modernConversation(client: McpClient, result: JsonObject): Promise<McpConversation> {
  const meta = objectOrNull(result['_meta']);
  const conversation: Omit<McpConversation, 'listings'> = {
    era: 'modern',
    mode: 'STATELESS',
    negotiatedVersion: MCP_MODERN_VERSION,
    supportedVersions: stringArray(result['supportedVersions']),
    serverInfo: meta ? objectOrNull(meta[`${META_PREFIX}serverInfo`]) : null,
    capabilities: objectOrNull(result['capabilities']),
    instructions: stringOrNull(result['instructions']),
  };
  return { ...conversation, listings: await listInventory(client, conversation.capabilities, MCP_MODERN_VERSION, true) };
}

/** initialize, then notifications/initialized: the 2025-11-25 handshake (HTTP and stdio); returns the initialize result. */
export async function handshake<R extends object>(client: McpChannel<R>): Promise<JsonObject> {
  const init = await client.request(
    'initialize',
    { protocolVersion: MCP_LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'svc', version: VERSION } },
    null,
    false,
  );
  if (init.kind !== 'result') throw client.refusal(init, 'initialize');
  client.adoptSession?.(init.response);
  await client.notify('notifications/initialized', stringOrNull(init.result['protocolVersion']) ?? MCP_LEGACY_VERSION);
  return init.result;
}

/** The listings after an initialize handshake, and the conversation they make (`mode` read once they are done). */
export async function initializedConversation<R extends object>(client: McpChannel<R>, init: JsonObject, mode: () => McpMode): Promise<McpConversation> {
  const version = stringOrNull(init['protocolVersion']) ?? MCP_LEGACY_VERSION;
  const capabilities = objectOrNull(init['capabilities']);
  const listings = await listInventory(client, capabilities, version, false);
  return {
    era: 'legacy',
    mode: mode(),
    negotiatedVersion: version,
    supportedVersions: [version],
    serverInfo: objectOrNull(init['serverInfo']),
    capabilities,
    instructions: stringOrNull(init['instructions']),
    listings,
  };
}

/**
 * Legacy era: initialize, initialized, the listings, DELETE (always attempted once a session
 * exists). A request answered 404 under the session opens one new session and is sent again.
 */
async function legacyConversation(client: McpClient): Promise<McpConversation> {
  let init: JsonObject;
  try {
    init = await handshake(client);
  } catch (err) {
    // A session issued before the handshake failed is still ended.
    await client.endSession(MCP_LEGACY_VERSION);
    throw err;
  }
  const version = stringOrNull(init['protocolVersion']) ?? MCP_LEGACY_VERSION;
  client.renewSession = async () => {
    await handshake(client);
  };
  try {
    return await initializedConversation(client, init, () => (client.sessionIssued ? 'SESSION' : 'STATELESS'));
  } finally {
    client.renewSession = null;
    await client.endSession(version);
  }
}

/**
 * Talks to the endpoint: modern first, legacy by the backward-compatibility rule. Throws a
 * ProblemError when no inspection can be produced; a 401 is an outcome, not an error.
 */
export async function converse(client: McpClient): Promise<ConversationOutcome> {
  let era: 'modern' | 'legacy' | null = null;
  try {
    const discover = await client.request('server/discover', { _meta: modernMeta() }, MCP_MODERN_VERSION, true);
    if (discover.kind === 'result') {
      era = 'modern';
      return { status: 'INSPECTED', conversation: await modernConversation(client, discover.result) };
    }
    if (discover.kind === 'error' && discover.code !== null && MODERN_CODES.has(discover.code)) {
      const supported = isJsonObject(discover.data) ? stringArray(discover.data['supported']) : [];
      // A modern server that does not speak 2026-07-28 but still offers the legacy handshake.
      if (discover.code !== MODERN_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION || !supported.some((v) => v <= MCP_LEGACY_VERSION)) {
        const versions = supported.length ? ` (it supports ${supported.slice(0, 5).join(', ')})` : '';
        throw new ProblemError(
          discover.code === MODERN_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION ? 'FEATURE_NOT_SUPPORTED' : 'UPSTREAM_UNAVAILABLE',
          `The MCP server at ${client.endpoint.host} refused server/discover: ${rpcErrorText(discover.code)}${versions}; svc speaks ${MCP_MODERN_VERSION} and ${MCP_LEGACY_VERSION}.`,
        );
      }
    } else if (discover.response.status >= 500) {
      throw noMcpAnswer(client.endpoint, discover, 'server/discover');
    }
    era = 'legacy';
    return { status: 'INSPECTED', conversation: await legacyConversation(client) };
  } catch (err) {
    if (err instanceof AuthRequired) {
      return {
        status: 'AUTH_REQUIRED',
        auth: await readAuth(client, err.response),
        mode: client.sessionIssued ? 'SESSION' : era === 'modern' ? 'STATELESS' : 'UNKNOWN',
        era,
      };
    }
    throw err;
  }
}
