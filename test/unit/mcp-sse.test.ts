/**
 * The MCP client's reading of SSE replies (src/core/mcp/client.ts, SseAnswer + McpClient) on
 * hand-written streams: a priming event (an id, empty data), `retry:` lines, comments, a
 * notification and server-to-client requests before the answer, answers to other ids, CRLF and a
 * BOM, the answer cut into chunks at every byte (inside CRLF and inside a UTF-8 sequence), and
 * over a real loopback HTTP server: a stream kept open after the answer (used at once), a stream
 * closed after the priming event (resumed with Last-Event-ID), a stream that never answers (the
 * fetch's configured time limit → a clear problem), too many events, an expired session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient, SseAnswer } from '../../src/core/mcp/client.js';
import { inspectMcp } from '../../src/core/mcp/inspect.js';
import { MCP_LEGACY_VERSION, MCP_LIMITS } from '../../src/core/mcp/types.js';
import { systemClock } from '../../src/runtime/node.js';
import { tableLookup } from '../support/did-web-host.js';
import { startPlainHttpServer, type TestHttpsServer } from '../support/https-server.js';
import { testRuntime } from '../support/runtime.js';

const encoder = new TextEncoder();
const ANSWER = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'grüße_☃', inputSchema: { type: 'object' } }] } };

/** Priming event, retry, comment, a notification, two server requests, an answer to another id, then ours; CRLF and a BOM. */
const NOISY = [
  '\ufeffid: ev-0\r\nretry: 3000\r\ndata: \r\n\r\n',
  ': keep-alive\r\n\r\n',
  'event: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\r\n\r\n',
  'id: ev-1\r\ndata: {"jsonrpc":"2.0","id":"s-1","method":"ping"}\r\n\r\n',
  'data: {"jsonrpc":"2.0","id":7,"method":"sampling/createMessage",\r\ndata: "params":{}}\r\n\r\n',
  'data: {"jsonrpc":"2.0","id":99,"result":{}}\r\n\r\n',
  `id: ev-2\r\ndata: ${JSON.stringify(ANSWER)}\r\n\r\n`,
].join('');

function feed(bytes: Uint8Array, cuts: number[]): SseAnswer {
  const sse = new SseAnswer(1);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (sse.push(bytes.subarray(at, cut))) break;
    at = cut;
  }
  sse.end();
  return sse;
}

describe('SseAnswer (hand-written streams)', () => {
  it('skips the priming event, retry, comments, a notification, server requests and other ids; takes the answer', () => {
    const sse = feed(encoder.encode(NOISY), []);
    expect(sse.answer).toEqual(ANSWER);
    expect(sse.skipped).toEqual({ priming: 1, notifications: 1, requests: 2, otherIds: 1, notJson: 0 });
    expect(sse.takeRequests()).toEqual([
      { id: 's-1', method: 'ping' },
      { id: 7, method: 'sampling/createMessage' },
    ]);
    expect(sse.lastEventId).toBe('ev-2');
  });

  it('gives the same answer for every cut of the bytes into two chunks, and byte by byte', () => {
    const bytes = encoder.encode(NOISY);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const sse = feed(bytes, [cut]);
      expect(sse.answer, `cut at ${cut}`).toEqual(ANSWER);
      expect(sse.skipped.priming, `cut at ${cut}`).toBe(1);
    }
    const single = feed(
      bytes,
      Array.from({ length: bytes.length }, (_, i) => i + 1),
    );
    expect(single.answer).toEqual(ANSWER);
  });

  it('stops at the answer: what follows is never read', () => {
    const sse = new SseAnswer(1);
    expect(sse.push(encoder.encode(`data: ${JSON.stringify(ANSWER)}\n\n`))).toBe(true);
    expect(sse.push(encoder.encode('data: {"jsonrpc":"2.0","method":"x"}\n\n'))).toBe(true);
    expect(sse.skipped.notifications).toBe(0);
  });

  it('a stream without the answer says what it carried; past the event bound it stops', () => {
    const sse = feed(encoder.encode('id: 5\ndata:\n\ndata: <html>\n\n: c\n\n'), []);
    expect(sse.answer).toBeNull();
    expect(sse.why(200)).toBe('an HTTP 200 event stream ended before the JSON-RPC answer to request 1: 1 event without data, 1 event whose data is not JSON');
    const flood = new SseAnswer(1);
    expect(flood.push(encoder.encode('data: {"jsonrpc":"2.0","method":"n"}\n\n'.repeat(MCP_LIMITS.maxEvents + 1)))).toBe(true);
    expect(flood.why(200)).toBe(`the server sent more than ${MCP_LIMITS.maxEvents} SSE events without the JSON-RPC answer to request 1`);
  });
});

// ---------------------------------------------------------------------------------------------
// A scripted legacy MCP server on loopback (plain http, operator-allowed): what it does with each
// request is set per test.

interface Seen {
  method: string;
  rpc: Record<string, unknown> | null;
  headers: IncomingMessage['headers'];
}

let server: TestHttpsServer;
const seen: Seen[] = [];
let script: (rpc: Record<string, any> | null, req: IncomingMessage, res: ServerResponse) => void = () => undefined;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = await startPlainHttpServer();
  server.route('/mcp', (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const rpc = body ? (JSON.parse(body) as Record<string, any>) : null;
      seen.push({ method: req.method ?? '', rpc, headers: req.headers });
      open.add(res);
      res.on('close', () => open.delete(res));
      script(rpc, req, res);
    });
  });
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await server.close();
});

function runtime(totalMs = 10_000) {
  return testRuntime(systemClock, { allow: ['127.0.0.0/8'], lookup: tableLookup(), limits: { totalMs } });
}

const endpoint = () => `${server.origin}/mcp`;
const sse = (res: ServerResponse, headers: Record<string, string> = {}) => res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
const event = (message: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(message)}\n\n`;

/** The legacy handshake and DELETE; tools/list goes to `tools`. */
function legacy(tools: (rpc: Record<string, any>, req: IncomingMessage, res: ServerResponse) => void): void {
  seen.length = 0;
  script = (rpc, req, res) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method === 'GET') return tools(rpc ?? {}, req, res);
    if (rpc?.['method'] === 'server/discover')
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request' } }));
    if (rpc?.['method'] === 'initialize') {
      sse(res, { 'mcp-session-id': 'session-1' });
      return void res.end(
        event({
          jsonrpc: '2.0',
          id: rpc['id'],
          result: { protocolVersion: MCP_LEGACY_VERSION, capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } },
        }),
      );
    }
    if (rpc?.['method'] === 'tools/list') return tools(rpc, req, res);
    return void res.writeHead(202).end();
  };
}

const toolsResult = (id: unknown) => ({ jsonrpc: '2.0', id, result: { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] } });

describe('McpClient over a real loopback server', () => {
  it('uses the answer at once on a stream kept open, written byte by byte after noise; answers ping and refuses sampling', async () => {
    legacy((rpc, _req, res) => {
      sse(res);
      const text = `\ufeffid: p-0\r\nretry: 5\r\ndata:\r\n\r\n: comment\r\n\r\n${event({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })}${event({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' })}${event({ jsonrpc: '2.0', id: 'srv-2', method: 'sampling/createMessage', params: {} })}${event(toolsResult(rpc['id']), 'p-1')}`;
      const bytes = Buffer.from(text, 'utf8');
      for (let i = 0; i < bytes.length; i++) res.write(bytes.subarray(i, i + 1));
      // Never ended: a client reading to the end would run into the time limit.
    });
    const result = await inspectMcp(endpoint(), { runtime: runtime(3_000) });
    expect(result).toMatchObject({ status: 'INSPECTED', mode: 'SESSION', negotiatedVersion: MCP_LEGACY_VERSION });
    expect(result.tools.map((t) => t.name)).toEqual(['get_weather']);
    const answers = seen.filter((s) => s.rpc && !('method' in s.rpc)).map((s) => s.rpc);
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 'srv-1', result: {} },
        { jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'Method not found' } },
      ]),
    );
    expect(result.transcript.map((e) => e.outcome)).toEqual(
      expect.arrayContaining(["answered the server's ping: HTTP 202", "refused the server's sampling/createMessage (method not found): HTTP 202"]),
    );
    expect(seen.at(-1)?.method).toBe('DELETE');
  });

  it('a stream closed after the priming event is resumed with a GET carrying Last-Event-ID', async () => {
    let asked: unknown = null;
    legacy((rpc, req, res) => {
      sse(res);
      if (req.method === 'POST') {
        asked = rpc['id'];
        return void res.end('id: stream-7_0\nretry: 1\ndata:\n\n');
      }
      res.end(event(toolsResult(asked), 'stream-7_1'));
    });
    const result = await inspectMcp(endpoint(), { runtime: runtime() });
    expect(result.status).toBe('INSPECTED');
    expect(result.tools.map((t) => t.name)).toEqual(['get_weather']);
    const get = seen.find((s) => s.method === 'GET');
    expect(get?.headers['last-event-id']).toBe('stream-7_0');
    expect(get?.headers['mcp-session-id']).toBe('session-1');
    expect(get?.headers['accept']).toBe('text/event-stream');
    expect(result.transcript.filter((e) => e.method === 'tools/list').map((e) => [e.httpMethod, e.outcome])).toEqual([
      ['POST', 'the event stream closed before the answer; resumed with Last-Event-ID'],
      ['GET', 'page 1, 1 tool'],
    ]);
  });

  it('resumption is bounded; a stream closed without an event id is reported, not resumed', async () => {
    legacy((_rpc, _req, res) => {
      sse(res);
      res.end('id: again\ndata:\n\n');
    });
    const problem = await inspectMcp(endpoint(), { runtime: runtime() }).catch((err: unknown) => err);
    expect(problem).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect((problem as Error).message).toContain('the event stream closed 3 times before the JSON-RPC answer (resumed with Last-Event-ID 2 times)');
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(MCP_LIMITS.maxResumptions);

    legacy((_rpc, _req, res) => {
      sse(res);
      res.end(`: nothing\n\n${event({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}`);
    });
    const unresumable = await inspectMcp(endpoint(), { runtime: runtime() }).catch((err: unknown) => err);
    expect(unresumable).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect((unresumable as Error).message).toContain(
      'did not answer tools/list as an MCP server: an HTTP 200 event stream ended before the JSON-RPC answer to request 3: 1 notification',
    );
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(0);
  });

  it('a stream that never answers ends at the configured time limit with a clear problem', async () => {
    legacy((_rpc, _req, res) => {
      sse(res);
      res.write('id: 1\ndata:\n\n');
    });
    const problem = await inspectMcp(endpoint(), { runtime: runtime(300) }).catch((err: unknown) => err);
    expect(problem).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect((problem as Error).message).toMatch(/did not deliver the MCP tools\/list reply within the 300 ms limit of a fetch/);
  });

  it('an expired session (404) opens one new session and the request is sent again; a second 404 is reported', async () => {
    let sessions = 0;
    const base = (expireTwice: boolean) => {
      sessions = 0;
      seen.length = 0;
      script = (rpc, req, res) => {
        if (req.method === 'DELETE') return void res.writeHead(200).end();
        if (rpc?.['method'] === 'server/discover') return void res.writeHead(400).end();
        if (rpc?.['method'] === 'initialize') {
          sessions += 1;
          return void res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `s${sessions}` }).end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: rpc['id'],
              result: { protocolVersion: MCP_LEGACY_VERSION, capabilities: {}, serverInfo: { name: 'x', version: '1' } },
            }),
          );
        }
        if (rpc?.['method'] === 'tools/list') {
          if (req.headers['mcp-session-id'] === 's1' || expireTwice)
            return void res
              .writeHead(404, { 'content-type': 'application/json' })
              .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(toolsResult(rpc['id'])));
        }
        res.writeHead(202).end();
      };
    };
    base(false);
    const result = await inspectMcp(endpoint(), { runtime: runtime() });
    expect(result.status).toBe('INSPECTED');
    expect(sessions).toBe(2);
    expect(seen.filter((s) => s.rpc?.['method'] === 'tools/list').map((s) => s.headers['mcp-session-id'])).toEqual(['s1', 's2']);
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 's2' } });

    base(true);
    await expect(inspectMcp(endpoint(), { runtime: runtime() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(sessions).toBe(2);
  });

  it('McpClient.request reads a JSON reply and an SSE reply alike', async () => {
    legacy((rpc, _req, res) => {
      sse(res);
      res.end(event(toolsResult(rpc['id'])));
    });
    const client = new McpClient(new URL(endpoint()), runtime());
    const reply = await client.request('tools/list', {}, MCP_LEGACY_VERSION, false);
    expect(reply).toMatchObject({ kind: 'result', result: { tools: [{ name: 'get_weather' }] } });
  });
});
