/**
 * An MCP server built with mcp-framework (tool, prompt and resource classes registered with
 * addTool / addPrompt / addResource), on its `http-stream` transport (the SDK 1.x transport with
 * sessions, SSE replies — the framework's default response mode) on 127.0.0.1, for the
 * interoperability matrix (test/integration/mcp-matrix.e2e.test.ts).
 *
 *   node mcp-framework.mjs <port>
 *
 * The framework's schemas are zod 3 (its own dependency), imported from where it resolves it. Prints `listening <endpoint URL>` on stdout once
 * it accepts connections; runs until killed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MCPPrompt, MCPResource, MCPServer, MCPTool } from 'mcp-framework';

const here = fileURLToPath(new URL('.', import.meta.url));
// zod's ESM entry as the framework resolves it (require() would give the CommonJS twin, whose
// classes the framework's `instanceof` checks do not recognise).
const zodPackage = createRequire(fileURLToPath(import.meta.resolve('mcp-framework'))).resolve('zod/package.json');
const zodEntry = JSON.parse(readFileSync(zodPackage, 'utf8')).exports['.'].import;
const { z } = await import(pathToFileURL(path.join(path.dirname(zodPackage), zodEntry)).href);
const port = Number(process.argv[2]);

class WeatherTool extends MCPTool {
  name = 'get_weather';
  title = 'Weather';
  description = 'Get the current weather for a city.';
  annotations = { readOnlyHint: true, openWorldHint: true };
  schema = z.object({ city: z.string().describe('City name') });
  async execute({ city }) {
    return `Sunny in ${city}`;
  }
}

class AddTool extends MCPTool {
  name = 'add';
  description = 'Add two numbers.';
  schema = z.object({ a: z.number().describe('First addend'), b: z.number().describe('Second addend') });
  async execute({ a, b }) {
    return a + b;
  }
}

class NoteTool extends MCPTool {
  name = 'create_note';
  description = 'Create a note with a title and a body.';
  annotations = { destructiveHint: false };
  schema = z.object({ title: z.string().describe('Note title'), body: z.string().optional().describe('Note body') });
  async execute({ title }) {
    return `created ${title}`;
  }
}

class SummarizePrompt extends MCPPrompt {
  name = 'summarize';
  description = 'Summarise a text in three sentences.';
  schema = { text: { type: z.string(), description: 'The text to summarise', required: true } };
  async generateMessages({ text }) {
    return [{ role: 'user', content: { type: 'text', text: `Summarise in three sentences:\n\n${text}` } }];
  }
}

class ReadmeResource extends MCPResource {
  uri = 'notes://readme';
  name = 'Read me';
  description = 'How the notes are kept.';
  mimeType = 'text/markdown';
  async read() {
    return [{ uri: this.uri, mimeType: this.mimeType, text: '# Notes' }];
  }
}

class NoteResource extends MCPResource {
  uri = 'notes://note/1';
  name = 'Note';
  description = 'One note by its id.';
  mimeType = 'text/plain';
  template = { uriTemplate: 'notes://note/{id}', description: 'One note by its id.' };
  async read() {
    return [{ uri: this.uri, mimeType: this.mimeType, text: 'note 1' }];
  }
}

const server = new MCPServer({
  name: 'matrix-mcp-framework',
  version: '1.0.0',
  // No tools/, prompts/ or resources/ folders here: only the classes added below are served.
  basePath: here,
  transport: { type: 'http-stream', options: { port, host: '127.0.0.1', endpoint: '/mcp' } },
});
server.addTool(WeatherTool);
server.addTool(AddTool);
server.addTool(NoteTool);
server.addPrompt(SummarizePrompt);
server.addResource(ReadmeResource);
server.addResource(NoteResource);
// start() resolves only when the server stops; the framework logs "Server running and ready."
// (on stderr) once it serves.
server.start().catch((err) => {
  process.stderr.write(`${err}\n`);
  process.exit(1);
});
