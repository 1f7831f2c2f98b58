/**
 * The official SDK client as its own process, for the MCP benchmark's memory row:
 *
 *   node bench/support/sdk-client-list.mjs <endpoint>
 *
 * Connects (Client + StreamableHTTPClientTransport), lists tools, prompts, resources and resource
 * templates (each every page, each only when the server announces it; −32601 on a first page: none), closes, and prints
 * `{"tools": n, "prompts": n, "resources": n, "resourceTemplates": n, "bytes": n}` — `bytes`
 * being every response body byte the transport's fetch read. test/support/mcp-reference.ts
 * does the same listing in process (TypeScript, which a plain node process cannot load).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

let bytes = 0;
/** fetch, with every response body counted as it is read. */
async function countingFetch(input, init) {
  const response = await fetch(input, init);
  if (!response.body) return response;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2]), { fetch: countingFetch }));
const capabilities = client.getServerCapabilities() ?? {};
const counts = { tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 };
const lists = [
  ['tools', 'tools', (p) => client.listTools(p)],
  ['prompts', 'prompts', (p) => client.listPrompts(p)],
  ['resources', 'resources', (p) => client.listResources(p)],
  ['resourceTemplates', 'resources', (p) => client.listResourceTemplates(p)],
];
for (const [kind, capability, list] of lists) {
  if (capabilities[capability] === undefined) continue;
  let cursor;
  do {
    let page;
    try {
      page = await list(cursor === undefined ? undefined : { cursor });
    } catch (err) {
      // A server announcing `resources` need not serve resources/templates/list: none listed.
      if (err?.code === -32601 && cursor === undefined) break;
      throw err;
    }
    counts[kind] += page[kind].length;
    cursor = page.nextCursor;
  } while (cursor);
}
await client.close();
process.stdout.write(`${JSON.stringify({ ...counts, bytes })}\n`);
