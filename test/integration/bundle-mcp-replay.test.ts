/**
 * An MCP inspection's bundle replays the conversation as it happened (src/core/bundle/record.ts
 * ReplayNet: each request matched by method, URL and body digest, else the next recorded answer
 * to that URL), on the hard cases of the 2025-11-25 transport — a scripted legacy server on
 * loopback (plain http, operator-allowed), as in test/unit/mcp-sse.test.ts:
 *
 *   - an SSE reply kept open after the answer, written byte by byte after noise, with a ping and a
 *     sampling request the client answers with POSTs while the stream is open;
 *   - a stream closed after its priming event, resumed with a GET carrying Last-Event-ID;
 *   - an expired session (404): a new session, the request sent again;
 *   - a stream that never answers: the fetch's time limit, a problem — recorded as a failure.
 *
 * Each is recorded as `svc inspect-mcp --bundle` records it, and verified offline: VERIFIED.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { bundleKind } from '../../src/core/bundle/kinds.js';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { makeBundle, verifyBundle, type BundleVerification } from '../../src/core/bundle/verify.js';
import { MCP_LEGACY_VERSION } from '../../src/core/mcp/types.js';
import { systemClock } from '../../src/runtime/node.js';
import { tableLookup } from '../support/did-web-host.js';
import { startPlainHttpServer, type TestHttpsServer } from '../support/https-server.js';
import { testRuntime } from '../support/runtime.js';

let server: TestHttpsServer;
let script: (rpc: Record<string, any> | null, req: IncomingMessage, res: ServerResponse) => void = () => undefined;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = await startPlainHttpServer();
  server.route('/mcp', (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      open.add(res);
      res.on('close', () => open.delete(res));
      script(body ? (JSON.parse(body) as Record<string, any>) : null, req, res);
    });
  });
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await server.close();
});

const sse = (res: ServerResponse, headers: Record<string, string> = {}) => res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
const event = (message: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(message)}\n\n`;
const toolsResult = (id: unknown) => ({ jsonrpc: '2.0', id, result: { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] } });

/** The legacy handshake and DELETE; tools/list (and a resuming GET) go to `tools`. */
function legacy(tools: (rpc: Record<string, any>, req: IncomingMessage, res: ServerResponse) => void): void {
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

/** The inspection as `svc inspect-mcp <url> --no-store --bundle` makes it, decoded from its bytes. */
async function recorded(totalMs = 10_000): Promise<EvidenceBundle> {
  const live = testRuntime(systemClock, { allow: ['127.0.0.0/8'], lookup: tableLookup(), limits: { totalMs } });
  const command = { kind: 'inspect-mcp' as const, subject: `${server.origin}/mcp`, options: { storage: 'off' } };
  const recording = recordingRuntime(live);
  const result = await bundleKind('inspect-mcp')!.rerun(recording.runtime, command, new Map());
  return decodeBundle(encodeBundle(makeBundle({ command, observedAt: recording.observedAt, recorder: recording.recorder, result })));
}

function verify(bundle: EvidenceBundle): Promise<BundleVerification> {
  return verifyBundle(bundle, { runtime: testRuntime(systemClock), trustAnchors: [] });
}

const exchanges = (bundle: EvidenceBundle) =>
  [...bundle.resources, ...(bundle.failures ?? [])]
    .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))
    .map((r) => `${r.request.method} ${'response' in r ? r.response.status : r.problem.code}`);

describe('MCP conversations replayed from their bundle', () => {
  it('a stream kept open, byte by byte, with a ping and a sampling request answered while it is open', async () => {
    legacy((rpc, _req, res) => {
      sse(res);
      const text = `\ufeffid: p-0\r\nretry: 5\r\ndata:\r\n\r\n: comment\r\n\r\n${event({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })}${event({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' })}${event({ jsonrpc: '2.0', id: 'srv-2', method: 'sampling/createMessage', params: {} })}${event(toolsResult(rpc['id']), 'p-1')}`;
      const bytes = Buffer.from(text, 'utf8');
      for (let i = 0; i < bytes.length; i++) res.write(bytes.subarray(i, i + 1));
      // Never ended: the answer ends the reading.
    });
    const bundle = await recorded(3_000);
    expect(bundle.result).toMatchObject({ status: 'INSPECTED', tools: [{ name: 'get_weather' }] });
    // The two answers to the server's requests are POSTs of their own, with their bodies recorded.
    expect(bundle.resources.filter((r) => r.request.body !== undefined && r.purpose === 'MCP response reply')).toHaveLength(2);
    const verified = await verify(bundle);
    expect(verified.summary).toMatch(/^every recorded resource is intact/);
    expect(verified.outcome).toBe('VERIFIED');
  });

  it('a stream closed after its priming event, resumed with Last-Event-ID', async () => {
    let asked: unknown = null;
    legacy((rpc, req, res) => {
      sse(res);
      if (req.method === 'POST') {
        asked = rpc['id'];
        return void res.end('id: stream-7_0\nretry: 1\ndata:\n\n');
      }
      res.end(event(toolsResult(asked), 'stream-7_1'));
    });
    const bundle = await recorded();
    expect(exchanges(bundle)).toEqual(['POST 400', 'POST 200', 'POST 202', 'POST 200', 'GET 200', 'DELETE 200']);
    expect((await verify(bundle)).outcome).toBe('VERIFIED');
  });

  it('an expired session: a new one, the request sent again', async () => {
    let sessions = 0;
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
        if (req.headers['mcp-session-id'] === 's1')
          return void res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(toolsResult(rpc['id'])));
      }
      res.writeHead(202).end();
    };
    const bundle = await recorded();
    expect(bundle.result).toMatchObject({ status: 'INSPECTED' });
    expect(exchanges(bundle)).toEqual(['POST 400', 'POST 200', 'POST 202', 'POST 404', 'POST 200', 'POST 202', 'POST 200', 'DELETE 200']);
    // The session ids the server issued are kept (they decide which session the replay is in).
    expect(bundle.resources.map((r) => r.response.headers['mcp-session-id']).filter(Boolean)).toEqual(['s1', 's2']);
    expect((await verify(bundle)).outcome).toBe('VERIFIED');
  });

  it('a stream that never answers: the time limit is a recorded failure, the problem the recorded result', async () => {
    legacy((_rpc, _req, res) => {
      sse(res);
      res.write('id: 1\ndata:\n\n');
    });
    const bundle = await recorded(300);
    expect(bundle.result).toMatchObject({ problem: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(bundle.failures).toEqual([
      expect.objectContaining({ purpose: 'MCP tools/list reply', problem: expect.objectContaining({ code: 'UPSTREAM_UNAVAILABLE' }) }),
    ]);
    const verified = await verify(bundle);
    expect(verified.outcome).toBe('VERIFIED');
    expect(verified.failures.map((f) => f.purpose)).toEqual(['MCP tools/list reply']);
  });
});
