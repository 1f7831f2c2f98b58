/**
 * An MCP server built with tmcp (an implementation independent of the official SDKs) and its
 * HTTP transport (@tmcp/transport-http: the 2025-11-25 session handshake and the 2026-07-28
 * per-request protocol), tool schemas through @tmcp/adapter-zod, on 127.0.0.1, for the
 * interoperability matrix (test/integration/mcp-matrix.e2e.test.ts).
 *
 *   node tmcp.mjs [port]        (default 0: a free port)
 *
 * Prints `listening <endpoint URL>` on stdout once it accepts connections; runs until killed.
 */
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { McpServer } from 'tmcp';
import { z } from 'zod';
import { listen } from './web-server.mjs';

const server = new McpServer(
  { name: 'matrix-tmcp', version: '1.0.0', description: 'A catalogue of notes for the interoperability matrix.' },
  {
    adapter: new ZodJsonSchemaAdapter(),
    capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
  },
);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.tool(
  {
    name: 'get_weather',
    title: 'Weather',
    description: 'Get the current weather for a city.',
    schema: z.object({ city: z.string().describe('City name') }),
    annotations: { readOnlyHint: true },
  },
  async ({ city }) => text(`Sunny in ${city}`),
);
server.tool({ name: 'add', description: 'Add two numbers.', schema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => text(String(a + b)));
server.tool(
  {
    name: 'create_note',
    description: 'Create a note with a title and a body.',
    schema: z.object({ title: z.string(), body: z.string().optional() }),
    annotations: { destructiveHint: false },
  },
  async ({ title }) => text(`created ${title}`),
);

server.prompt(
  { name: 'summarize', description: 'Summarise a text in three sentences.', schema: z.object({ text: z.string().describe('The text to summarise') }) },
  async ({ text: t }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarise in three sentences:\n\n${t}` } }] }),
);
server.prompt({ name: 'greeting', description: 'A friendly greeting.' }, async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
}));

server.resource({ name: 'Read me', description: 'How the notes are kept.', uri: 'notes://readme', mimeType: 'text/markdown' }, async (uri) => ({
  contents: [{ uri, mimeType: 'text/markdown', text: '# Notes' }],
}));
server.resource({ name: 'Changelog', uri: 'notes://changelog', mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri, text: 'v1' }] }));
server.template({ name: 'Note', description: 'One note by its id.', uri: 'notes://note/{id}', mimeType: 'text/plain' }, async (uri, { id }) => ({
  contents: [{ uri, text: `note ${id}` }],
}));

const transport = new HttpTransport(server, { path: '/mcp' });
const port = await listen((request) => transport.respond(request), Number(process.argv[2] ?? 0));
process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
