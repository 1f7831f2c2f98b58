/**
 * An MCP server built with mcp-lite (an implementation independent of the official SDKs; it
 * speaks protocol versions 2025-06-18 and 2025-03-26 and negotiates a client asking for another
 * down to 2025-03-26), its StreamableHttpTransport with in-memory sessions (the README's
 * single-server set-up), tool schemas through zod's own toJSONSchema, on 127.0.0.1, for the
 * interoperability matrix (test/integration/mcp-matrix.e2e.test.ts).
 *
 *   node mcp-lite.mjs [port]        (default 0: a free port)
 *
 * Prints `listening <endpoint URL>` on stdout once it accepts connections; runs until killed.
 */
import { InMemorySessionAdapter, McpServer, StreamableHttpTransport } from 'mcp-lite';
import { z } from 'zod';
import { listen } from './web-server.mjs';

const server = new McpServer({ name: 'matrix-mcp-lite', version: '1.0.0', schemaAdapter: (schema) => z.toJSONSchema(schema) });
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.tool('get_weather', {
  title: 'Weather',
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string().describe('City name') }),
  annotations: { readOnlyHint: true },
  handler: ({ city }) => text(`Sunny in ${city}`),
});
server.tool('add', { description: 'Add two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }), handler: ({ a, b }) => text(String(a + b)) });
server.tool('create_note', {
  description: 'Create a note with a title and a body.',
  inputSchema: z.object({ title: z.string(), body: z.string().optional() }),
  outputSchema: z.object({ id: z.string() }),
  annotations: { destructiveHint: false },
  handler: ({ title }) => ({ ...text(`created ${title}`), structuredContent: { id: title } }),
});

server.prompt('summarize', {
  description: 'Summarise a text in three sentences.',
  arguments: z.object({ text: z.string().describe('The text to summarise') }),
  handler: ({ text: t }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarise in three sentences:\n\n${t}` } }] }),
});
server.prompt('greeting', {
  title: 'Greeting',
  description: 'A friendly greeting.',
  handler: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }] }),
});

server.resource('notes://readme', { name: 'Read me', description: 'How the notes are kept.', mimeType: 'text/markdown' }, async (uri) => ({
  contents: [{ uri: uri.href, type: 'text', text: '# Notes' }],
}));
server.resource('notes://changelog', { name: 'Changelog', mimeType: 'text/plain', _meta: { revision: 7 } }, async (uri) => ({
  contents: [{ uri: uri.href, type: 'text', text: 'v1' }],
}));
server.resource('notes://note/{id}', { name: 'Note', description: 'One note by its id.', mimeType: 'text/plain' }, async (uri, { id }) => ({
  contents: [{ uri: uri.href, type: 'text', text: `note ${id}` }],
}));

const handler = new StreamableHttpTransport({ sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: 1024 }) }).bind(server);
const port = await listen(
  (request) => (new URL(request.url).pathname === '/mcp' ? handler(request) : new Response(null, { status: 404 })),
  Number(process.argv[2] ?? 0),
);
process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
