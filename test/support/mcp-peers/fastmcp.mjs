/**
 * An MCP server built with fastmcp (the framework, as its README shows), served over Streamable
 * HTTP on 127.0.0.1 for the interoperability matrix (test/integration/mcp-matrix.e2e.test.ts).
 *
 *   node fastmcp.mjs <port> [--stateless] [--json]
 *
 * Three tools (parameters as zod schemas), two prompts, two resources and one resource template.
 * Prints `listening <endpoint URL>` on stdout once it accepts connections; runs until killed.
 */
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const port = Number(process.argv[2]);
const stateless = process.argv.includes('--stateless');
const json = process.argv.includes('--json');

const server = new FastMCP({ name: 'matrix-fastmcp', version: '1.0.0', instructions: 'A catalogue of notes for the interoperability matrix.' });

server.addTool({
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: z.object({ city: z.string().describe('City name') }),
  annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
  execute: async ({ city }) => `Sunny in ${city}`,
});
server.addTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});
server.addTool({
  name: 'create_note',
  description: 'Create a note with a title and a body.',
  parameters: z.object({ title: z.string(), body: z.string().optional() }),
  annotations: { destructiveHint: false },
  execute: async ({ title }) => `created ${title}`,
});

server.addPrompt({
  name: 'summarize',
  description: 'Summarise a text in three sentences.',
  arguments: [{ name: 'text', description: 'The text to summarise', required: true }],
  load: async ({ text }) => `Summarise in three sentences:\n\n${text}`,
});
server.addPrompt({
  name: 'greeting',
  description: 'A friendly greeting.',
  load: async () => 'Say hello.',
});

server.addResource({
  uri: 'notes://readme',
  name: 'Read me',
  mimeType: 'text/markdown',
  description: 'How the notes are kept.',
  load: async () => ({ text: '# Notes' }),
});
server.addResource({ uri: 'notes://changelog', name: 'Changelog', mimeType: 'text/plain', load: async () => ({ text: 'v1' }) });
server.addResourceTemplate({
  uriTemplate: 'notes://note/{id}',
  name: 'Note',
  description: 'One note by its id.',
  mimeType: 'text/plain',
  arguments: [{ name: 'id', description: 'Note id', required: true }],
  load: async ({ id }) => ({ text: `note ${id}` }),
});

await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp', stateless, enableJsonResponse: json } });
process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
