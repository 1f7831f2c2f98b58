/**
 * Property suite, fetched surfaces: hostile JSON served by real loopback HTTPS hosts (test CA,
 * svc's own fetcher and egress policy — nothing mocked) and read through the core:
 *
 *   did.json            resolve() of a did:web whose document is hostile
 *   did-configuration   resolve() of a valid did:web whose origin serves a hostile DID configuration
 *   did.jsonl           resolve() of a did:webvh whose log has one hostile entry
 *   A2A cards           inspectA2a() of a hostile card (a signed card mutated)
 *   MCP replies         inspectMcp() of a server whose server/discover or tools/list reply is
 *                       hostile, as JSON or as an SSE event, with a store (drift is compared)
 *
 * Bodies are written as WTF-8, so a raw lone surrogate reaches svc as the bytes a hostile server
 * would send. The invariant (./support/hostile.ts): a result or a precise problem, never
 * INTERNAL_ERROR, never a stack trace. Cases: propertyRuns() (SVC_PROPERTY_RUNS; README, Testing).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectA2a } from '../../src/core/a2a/inspect.js';
import { inspectMcp } from '../../src/core/mcp/inspect.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { Runtime } from '../../src/core/runtime.js';
import { a2aKey, agentCard, publishJwks, signCard } from '../support/a2a-agent.js';
import { documentPath, startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { didConfiguration, didDocument, linkageCredentialDi } from '../support/signing.js';
import { tempStore, type TempStore } from '../support/store.js';
import { createWebvhLog } from '../support/webvh-log.js';
import { expectNoInternalError, hostileJson, propertyParameters, propertyTimeout, wtf8, type HostileCase } from './support/hostile.js';

const TIMEOUT = propertyTimeout(50, 400);
const params = propertyParameters(50);

let host: DidWebHost;
let runtime: Runtime;

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com'] });
  // example.com:443 is the same loopback host (did:webvh names a domain without a port).
  runtime = host.runtime({ lookup: tableLookup({ 'example.com': ['127.0.0.1'] }), connectTo: (_h, port) => (port === 443 ? host.server.port : undefined) });
});
afterAll(async () => {
  await host.close();
});

/** Serves `text` (as WTF-8) at `path`. */
function serve(path: string, text: string, contentType = 'application/json'): void {
  host.server.route(path, raw(wtf8(text), { contentType }));
}

describe('did:web documents', () => {
  it(
    'a hostile did.json: a result or a precise problem (INVALID_DID_DOCUMENT…), never INTERNAL_ERROR',
    async () => {
      const did = host.did('property', 'document');
      const base = didDocument(did, host.key);
      serve(documentPath(did), JSON.stringify(base), 'application/did+json');
      expect((await resolve(did, runtime, { noCache: true })).verdict.outcome).toBe('RESOLVED');
      await fc.assert(
        fc.asyncProperty(hostileJson(base), async ({ text }: HostileCase) => {
          serve(documentPath(did), text, 'application/did+json');
          await expectNoInternalError('did.json', () => resolve(did, runtime, { noCache: true }));
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it(
    'a valid document beside a hostile DID configuration: the binding is a status, never INTERNAL_ERROR',
    async () => {
      const did = host.did('property', 'linked');
      host.publish(did);
      const base = didConfiguration(linkageCredentialDi(did, host.server.origin, host.key, `${did}#key-1`));
      try {
        serve('/.well-known/did-configuration.json', JSON.stringify(base));
        expect((await resolve(did, runtime, { noCache: true })).evidence.domainBinding?.status).toBe('VERIFIED');
        await fc.assert(
          fc.asyncProperty(hostileJson(base), async ({ text }: HostileCase) => {
            serve('/.well-known/did-configuration.json', text);
            await expectNoInternalError('did-configuration', () => resolve(did, runtime, { noCache: true }));
          }),
          params,
        );
      } finally {
        host.server.route('/.well-known/did-configuration.json', raw('not found', { status: 404 }));
      }
    },
    TIMEOUT,
  );
});

describe('did:webvh logs', () => {
  it(
    'a did.jsonl with one hostile entry',
    async () => {
      const log = createWebvhLog({ domain: 'example.com' });
      log.append();
      const lines = log.entries.map((e) => JSON.stringify(e));
      serve('/.well-known/did.jsonl', `${lines.join('\n')}\n`, 'text/jsonl');
      expect((await resolve(log.did, runtime, { noCache: true })).didDocumentMetadata).toMatchObject({ versionNumber: 2 });
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: 1 }),
          hostileJson(log.entries[0]),
          hostileJson(log.entries[1]),
          async (which, first: HostileCase, second: HostileCase) => {
            const entries = which === 0 ? [first.text, lines[1]!] : [lines[0]!, second.text];
            serve('/.well-known/did.jsonl', `${entries.join('\n')}\n`, 'text/jsonl');
            // A Runtime keeps the verified prefix of a log: a fresh one reads every entry.
            const fresh = host.runtime({
              lookup: tableLookup({ 'example.com': ['127.0.0.1'] }),
              connectTo: (_h, port) => (port === 443 ? host.server.port : undefined),
            });
            await expectNoInternalError('did.jsonl', () => resolve(log.did, fresh, { noCache: true }));
          },
        ),
        params,
      );
    },
    TIMEOUT,
  );
});

describe('A2A agent cards', () => {
  it(
    'inspectA2a of a hostile card (signed, then mutated)',
    async () => {
      const key = await a2aKey('ES256');
      const jku = publishJwks(host.server, [{ key, kid: 'card-key-1' }]);
      const base = await signCard(agentCard(host.server.origin), key, { kid: 'card-key-1', jku });
      const url = `${host.server.origin}/property/agent-card.json`;
      serve('/property/agent-card.json', JSON.stringify(base));
      expect((await inspectA2a(url, { runtime })).signatures.map((sig) => sig.status)).toEqual(['VALID']);
      await fc.assert(
        fc.asyncProperty(hostileJson(base), async ({ text }: HostileCase) => {
          serve('/property/agent-card.json', text);
          await expectNoInternalError('A2A card', () => inspectA2a(url, { runtime }));
        }),
        params,
      );
    },
    TIMEOUT,
  );
});

describe('MCP replies', () => {
  const MODERN = '2026-07-28';
  const discover = {
    jsonrpc: '2.0',
    id: 1,
    result: { supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'prop', version: '1.0.0' } } },
  };
  const toolsList = {
    jsonrpc: '2.0',
    id: 2,
    result: {
      tools: [
        {
          name: 'get_weather',
          description: 'Returns the weather.',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
          annotations: { readOnlyHint: true },
        },
        {
          name: 'send_email',
          description: 'Sends an email.',
          inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
        },
      ],
    },
  };
  let temp: TempStore;
  beforeAll(() => {
    temp = tempStore();
  });
  afterAll(() => {
    temp.cleanup();
  });

  /** A 2026-07-28 server answering server/discover and tools/list with the texts given. */
  function mcpServer(texts: { discover: string; toolsList: string }, sse: boolean) {
    return (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const method = (JSON.parse(body) as { method?: string }).method;
        const text = method === 'server/discover' ? texts.discover : method === 'tools/list' ? texts.toolsList : null;
        if (text === null) {
          res.writeHead(404).end();
          return;
        }
        const bytes = sse ? Buffer.concat([Buffer.from('event: message\ndata: '), wtf8(text), Buffer.from('\n\n')]) : wtf8(text);
        res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json', 'content-length': String(bytes.length) });
        res.end(bytes);
      });
    };
  }

  it(
    'inspectMcp of a server whose discover or tools/list reply is hostile (JSON or SSE), with drift against a store',
    async () => {
      const url = `${host.server.origin}/property/mcp`;
      const withStore = host.runtime();
      withStore.store = temp.store;
      host.server.route('/property/mcp', mcpServer({ discover: JSON.stringify(discover), toolsList: JSON.stringify(toolsList) }, false));
      const baseline = await inspectMcp(url, { runtime: withStore });
      expect({ status: baseline.status, tools: baseline.tools.map((t) => t.name) }).toEqual({ status: 'INSPECTED', tools: ['get_weather', 'send_email'] });
      await fc.assert(
        fc.asyncProperty(
          fc.boolean(),
          fc.boolean(),
          hostileJson(discover),
          hostileJson(toolsList),
          async (inDiscover, sse, hostileDiscover: HostileCase, hostileList: HostileCase) => {
            const texts = inDiscover
              ? { discover: hostileDiscover.text, toolsList: JSON.stringify(toolsList) }
              : { discover: JSON.stringify(discover), toolsList: hostileList.text };
            host.server.route('/property/mcp', mcpServer(texts, sse));
            await expectNoInternalError('MCP', () => inspectMcp(url, { runtime: withStore }));
          },
        ),
        params,
      );
    },
    TIMEOUT,
  );
});
