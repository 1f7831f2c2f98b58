/**
 * The MCP stdio transport (2025-11-25): a local server started as a child process, spoken to in
 * newline-delimited JSON-RPC on its stdin and stdout. StdioChannel is the McpChannel the shared
 * handshake and listings (client.ts) call; the transport is the only difference from HTTP.
 *
 * The process itself is the Runtime side's (src/runtime/mcp-stdio.ts: spawn, process group,
 * ending it): the core sees a StdioProcess — send a line, read the next chunk within a time,
 * end it — so no timer, no node:child_process and no environment is read here.
 *
 * Bounds (MCP_LIMITS): one line (one message) at most maxResponseBytes (2 MiB, like one HTTP
 * reply: a longer one fails the request waiting, PAYLOAD_TOO_LARGE); stdioMaxBytes of stdout in
 * all (past it the conversation is cut); maxEvents lines per request without its answer; a reply
 * within stdioReplyMs and the whole conversation within stdioTotalMs. A line that is not a
 * JSON-RPC message is skipped and counted. Server-to-client requests are answered as over HTTP
 * (ping: an empty result; anything else: −32601).
 */
import { isJsonObject, parseJsonText, type JsonObject, type JsonValue } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { plural } from '../text.js';
import {
  classifyMessage,
  MCP_STAGES,
  SKIPPED_AS,
  handshake,
  initializedConversation,
  outcomeText,
  replyOf,
  rpcErrorText,
  type SeenMessage,
  type McpChannel,
  type McpConversation,
  type RpcReply,
} from './client.js';
import { MCP_LIMITS, type TranscriptEntry } from './types.js';

/** What is started: the program, its arguments and the whole environment it gets. */
export interface StdioCommand {
  command: string;
  args: string[];
  /** The child's entire environment (childEnvironment): nothing else of svc's is inherited. */
  env: Record<string, string>;
}

export type StdioRead = { kind: 'data'; chunk: Uint8Array } | { kind: 'end' } | { kind: 'timeout' };

/** A started server process (src/runtime/mcp-stdio.ts). */
export interface StdioProcess {
  readonly pid: number;
  /** Writes to the server's stdin; a closed pipe is ignored (the reads then end). */
  send(text: string): void;
  /** The next chunk of stdout, `end` once stdout closed, `timeout` after `ms` without one. */
  read(ms: number): Promise<StdioRead>;
  /**
   * Ends the server and everything it started: stdin closed, then SIGTERM to its process group,
   * then SIGKILL, each after MCP_LIMITS.stdioGraceMs. Resolves with how it ended, one line.
   */
  end(): Promise<string>;
  /** The last bytes the server wrote on stderr (at most MCP_LIMITS.stdioStderrTail), and how many in all. */
  stderr(): { tail: string; bytes: number };
}

/** Starts a server; throws ProblemError (naming the command) when it cannot start. */
export type StdioLauncher = (command: StdioCommand) => Promise<StdioProcess>;

/** The bounds of one stdio conversation; tests shorten the times. */
export interface StdioLimits {
  replyMs: number;
  totalMs: number;
  maxBytes: number;
}

export const STDIO_LIMITS: Readonly<StdioLimits> = { replyMs: MCP_LIMITS.stdioReplyMs, totalMs: MCP_LIMITS.stdioTotalMs, maxBytes: MCP_LIMITS.stdioMaxBytes };

/** The variables every server gets from svc's environment when set; others only when named. */
export const STDIO_BASE_ENV = ['PATH', 'HOME'] as const;

/**
 * The child's environment: PATH and HOME from svc's, each `--env NAME` from svc's (a name not
 * set is left out), and the config file's `env` values as written. Nothing else.
 */
export function childEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
  configured: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...STDIO_BASE_ENV, ...names]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...configured };
}

/** One argument as a POSIX shell would need it written (for display and the drift key only: nothing runs through a shell). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command line, quoted: what svc prints before running it and what keys its drift. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellWord).join(' ');
}

/** The result's `endpoint` for a stdio server: `stdio:` and the command line (environment values never appear). */
export function stdioEndpoint(command: string, args: readonly string[]): string {
  return `stdio:${commandLine(command, args)}`;
}

const NEWLINE = 0x0a;

/** The JSON-RPC conversation with one stdio server: ids, line framing, bounds and the transcript. */
export class StdioChannel implements McpChannel<TranscriptEntry> {
  readonly transcript: TranscriptEntry[] = [];
  /** Lines skipped in all: not JSON, not a JSON-RPC message, answers to other ids, notifications. */
  readonly skipped = { notJson: 0, notifications: 0, otherIds: 0, requests: 0 };
  /** Why the conversation was cut (a flood, the total time), once it was. */
  cut: string | null = null;
  #nextId = 1;
  #bytes = 0;
  /** Bytes of the line being read (held until its newline). */
  #partial: Uint8Array[] = [];
  #partialBytes = 0;
  /** The line being read passed 2 MiB: it is dropped up to its newline. */
  #oversize = false;
  #ended = false;
  #lines: string[] = [];
  #decoder = new TextDecoder('utf-8', { fatal: false });
  readonly #stages: StageReporter;
  readonly #startedUs: number;

  constructor(
    readonly endpoint: string,
    private readonly child: StdioProcess,
    private readonly runtime: Runtime,
    private readonly limits: StdioLimits = STDIO_LIMITS,
    hooks?: StageHooks,
  ) {
    this.#stages = new StageReporter(runtime.clock, hooks, runtime.telemetry);
    this.#startedUs = runtime.clock.monotonicUs();
  }

  #elapsedMs(startUs: number): number {
    return Math.round((this.runtime.clock.monotonicUs() - startUs) / 100) / 10;
  }

  #write(message: JsonObject): number {
    const line = `${JSON.stringify(message)}\n`;
    this.child.send(line);
    return utf8Length(line);
  }

  async notify(method: string): Promise<void> {
    const bytes = this.#write({ jsonrpc: '2.0', method });
    this.transcript.push({ method, httpMethod: 'STDIO', protocolVersion: null, status: null, contentType: null, bytes, durationMs: 0, outcome: 'sent' });
  }

  annotate(response: TranscriptEntry, outcome: string): void {
    response.outcome = outcome;
  }

  refusal(reply: RpcReply<TranscriptEntry>, step: string): ProblemError {
    if (reply.kind === 'error')
      return new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server ${this.endpoint} refused ${step}: ${rpcErrorText(reply.code)}.`);
    return new ProblemError(
      'UPSTREAM_UNAVAILABLE',
      `${this.endpoint} did not answer ${step} as an MCP server: ${reply.kind === 'http' ? reply.reason : 'no result'}.`,
    );
  }

  async request(method: string, params: JsonObject, version: string | null): Promise<RpcReply<TranscriptEntry>> {
    const id = this.#nextId++;
    const started = this.runtime.clock.monotonicUs();
    const entry: TranscriptEntry = {
      method,
      httpMethod: 'STDIO',
      protocolVersion: version,
      status: null,
      contentType: null,
      bytes: 0,
      durationMs: 0,
      outcome: '',
    };
    this.transcript.push(entry);
    return this.#stages.run(MCP_STAGES[method] ?? 'mcp.request', `${method} to ${this.endpoint}`, async (stage) => {
      try {
        const reply = await this.#await(id, entry, () => this.#write({ jsonrpc: '2.0', id, method, params }));
        entry.outcome = outcomeText(reply);
        stage.detail = `${entry.bytes} bytes`;
        return reply;
      } catch (err) {
        const problem = err instanceof ProblemError ? err : new ProblemError('UPSTREAM_UNAVAILABLE', String(err));
        entry.outcome = `${problem.code}: ${problem.message}`;
        throw problem;
      } finally {
        entry.durationMs = this.#elapsedMs(started);
      }
    });
  }

  /** Sends the request, then reads lines until its answer, a bound, or the end of stdout. */
  async #await(id: number, entry: TranscriptEntry, send: () => void): Promise<RpcReply<TranscriptEntry>> {
    const none = (reason: string): RpcReply<TranscriptEntry> => ({ kind: 'http', reason, response: entry });
    if (this.cut) return none(this.cut);
    send();
    const requestStarted = this.runtime.clock.monotonicUs();
    let lines = 0;
    for (;;) {
      const line = this.#lines.shift();
      if (line !== undefined) {
        lines += 1;
        if (lines > MCP_LIMITS.maxEvents) return none(`the server wrote more than ${MCP_LIMITS.maxEvents} lines without the JSON-RPC answer to request ${id}`);
        const answer = this.#message(line, id);
        if (answer) {
          entry.bytes = utf8Length(line);
          return replyOf(answer, entry);
        }
        continue;
      }
      if (this.#oversizeSeen) {
        this.#oversizeSeen = false;
        throw new ProblemError(
          'PAYLOAD_TOO_LARGE',
          `The MCP server ${this.endpoint} wrote a line longer than ${MCP_LIMITS.maxResponseBytes} bytes (2 MiB), the limit of one message.`,
        );
      }
      if (this.cut) return none(this.cut);
      if (this.#ended) return none(`the server closed its stdout before the JSON-RPC answer to request ${id}${this.#skippedText()}`);
      const total = this.limits.totalMs - this.#elapsedMs(this.#startedUs);
      const reply = this.limits.replyMs - this.#elapsedMs(requestStarted);
      if (total <= 0) {
        this.cut = `the conversation took longer than ${seconds(this.limits.totalMs)}, svc's bound for one stdio server`;
        return none(this.cut);
      }
      if (reply <= 0) return none(`no JSON-RPC answer to request ${id} within ${seconds(this.limits.replyMs)}${this.#skippedText()}`);
      const read = await this.child.read(Math.ceil(Math.min(total, reply)));
      if (read.kind === 'data') this.#take(read.chunk);
      else if (read.kind === 'end') this.#endOfStdout();
    }
  }

  /** An oversize line ended since the last request looked. */
  #oversizeSeen = false;

  #skippedText(): string {
    const { notJson, notifications, otherIds, requests } = this.skipped;
    const seen: string[] = [];
    if (notJson) seen.push(plural(notJson, 'line') + ' that are not JSON-RPC');
    if (notifications) seen.push(plural(notifications, 'notification'));
    if (requests) seen.push(plural(requests, 'server request'));
    if (otherIds) seen.push(plural(otherIds, 'answer') + ' to other requests');
    return seen.length ? ` (skipped so far: ${seen.join(', ')})` : '';
  }

  /** Splits stdout into lines, within the bounds. */
  #take(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.limits.maxBytes) {
      this.cut = `the server wrote more than ${this.limits.maxBytes} bytes on stdout; svc stopped reading (a flood)`;
      return;
    }
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.#oversize) {
        this.#partial.push(chunk.subarray(start, end));
        this.#partialBytes += end - start;
        if (this.#partialBytes > MCP_LIMITS.maxResponseBytes) {
          this.#oversize = true;
          this.#oversizeSeen = true;
          this.#partial = [];
          this.#partialBytes = 0;
        }
      }
      if (newline === -1) return;
      if (this.#oversize) {
        this.#oversize = false;
      } else {
        this.#line();
      }
      start = newline + 1;
    }
  }

  #line(): void {
    const bytes = new Uint8Array(this.#partialBytes);
    let at = 0;
    for (const part of this.#partial) {
      bytes.set(part, at);
      at += part.length;
    }
    this.#partial = [];
    this.#partialBytes = 0;
    const text = this.#decoder.decode(bytes).replace(/\r$/, '');
    if (text.trim() !== '') this.#lines.push(text);
  }

  #endOfStdout(): void {
    if (this.#partialBytes > 0 && !this.#oversize) this.#line();
    this.#ended = true;
  }

  /** One line; the answer object when it answers request `id`. */
  #message(line: string, id: number): JsonObject | null {
    const parsed = parseJsonText(line, 'a stdio message');
    if ('error' in parsed) {
      this.skipped.notJson += 1;
      return null;
    }
    for (const message of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const answer = this.#one(message, id);
      if (answer) return answer;
    }
    return null;
  }

  #one(message: JsonValue, id: number): JsonObject | null {
    // A line is a JSON-RPC message only with "jsonrpc": "2.0" (banners and logs on stdout are not).
    const seen: SeenMessage = isJsonObject(message) && message['jsonrpc'] === '2.0' ? classifyMessage(message, id) : { kind: 'notJson' };
    if (seen.kind === 'answer') return seen.answer;
    this.skipped[SKIPPED_AS[seen.kind]] += 1;
    if (seen.kind === 'request' && this.skipped.requests <= MCP_LIMITS.maxServerRequests) this.#answerServer(seen.id, seen.method);
    return null;
  }

  /** svc declares no client capability: ping gets an empty result, anything else −32601. */
  #answerServer(id: string | number, method: string): void {
    const ping = method === 'ping';
    const bytes = this.#write(ping ? { jsonrpc: '2.0', id, result: {} } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    this.transcript.push({
      method: 'response',
      httpMethod: 'STDIO',
      protocolVersion: null,
      status: null,
      contentType: null,
      bytes,
      durationMs: 0,
      outcome: ping ? "answered the server's ping" : "refused the server's request (method not found)",
    });
  }

  /** Ends the process (the transcript's last entry says how) and returns the stderr limitation, if any. */
  async close(): Promise<string | null> {
    const started = this.runtime.clock.monotonicUs();
    const how = await this.child.end();
    this.transcript.push({
      method: 'end',
      httpMethod: 'STDIO',
      protocolVersion: null,
      status: null,
      contentType: null,
      bytes: 0,
      durationMs: this.#elapsedMs(started),
      outcome: how,
    });
    const { tail, bytes } = this.child.stderr();
    if (bytes === 0) return null;
    const shown = tail
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
      .trim()
      .split('\n')
      .slice(-5)
      .join(' | ');
    return `The server wrote ${plural(bytes, 'byte')} on stderr${bytes > tail.length ? ` (the last ${tail.length} kept)` : ''}: ${shown.slice(-400)}`;
  }

  /** Lines skipped over the whole conversation, for the limitations. */
  skippedSummary(): string | null {
    const text = this.#skippedText();
    return text ? `Lines the server wrote besides the answers were skipped${text.replace(' (skipped so far:', ':').replace(/\)$/, '')}.` : null;
  }
}

const ENCODER = new TextEncoder();
function utf8Length(text: string): number {
  return ENCODER.encode(text).length;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** initialize, initialized, the listings: the conversation over stdio (the process is the session). */
export async function converseStdio(channel: StdioChannel): Promise<McpConversation> {
  const init = await handshake(channel);
  return initializedConversation(channel, init, () => 'SESSION');
}
