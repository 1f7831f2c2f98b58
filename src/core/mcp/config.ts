/**
 * MCP client configuration files (`svc inspect-mcp --config <file>`): the servers they name.
 *
 *   Claude Desktop  claude_desktop_config.json   {"mcpServers": {name: {command, args, env} | {url}}}
 *   Cursor          .cursor/mcp.json             the same `mcpServers` shape (`url` for remote servers)
 *   Windsurf        mcp_config.json              `mcpServers`, a remote server's URL as `serverUrl`
 *   VS Code         .vscode/mcp.json             {"servers": {name: {type: "stdio"|"http", command, args, env, url}}}
 *                   settings.json                the same under {"mcp": {"servers": …}}
 *
 * A server is stdio when it has a `command`, HTTP when it has a `url` (or `serverUrl`); `type`
 * (VS Code) or `transport`, when given, must agree. Values are taken as written: `${input:…}`,
 * `${env:…}` and `envFile` are not expanded (the child gets the text as is). `type: "sse"` (the
 * 2024-11-05 HTTP+SSE transport) is listed as a server svc cannot inspect. Anything else wrong —
 * not JSON, no known shape, a server with neither command nor url, arguments that are not
 * strings — is one problem naming the file (INVALID_OPTIONS: the file an option names, exit 2).
 */
import { isJsonObject, parseJsonText, type JsonObject, type JsonValue } from '../encoding/json.js';
import { ProblemError } from '../problems.js';

export type ConfiguredServer =
  | { name: string; kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { name: string; kind: 'http'; url: string }
  /** A server svc cannot inspect (e.g. the legacy SSE transport), with why. */
  | { name: string; kind: 'unsupported'; reason: string; url: string | null };

/** Where a config file's servers sit, by the client that writes it. */
function serversOf(config: JsonObject): { servers: JsonObject; where: string } | null {
  if (isJsonObject(config['mcpServers'])) return { servers: config['mcpServers'], where: 'mcpServers' };
  if (isJsonObject(config['servers'])) return { servers: config['servers'], where: 'servers' };
  const mcp = config['mcp'];
  if (isJsonObject(mcp) && isJsonObject(mcp['servers'])) return { servers: mcp['servers'], where: 'mcp.servers' };
  return null;
}

function stringList(value: JsonValue | undefined): string[] | null {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((v): v is string => typeof v === 'string') ? value : null;
}

function stringMap(value: JsonValue | undefined): Record<string, string> | null {
  if (value === undefined) return {};
  if (!isJsonObject(value)) return null;
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null;
    out[name] = v;
  }
  return out;
}

/** The servers of a configuration file's text; `file` names it in problems. */
export function parseMcpConfig(text: string, file: string): ConfiguredServer[] {
  const bad = (why: string) => new ProblemError('INVALID_OPTIONS', `${file}: ${why}.`);
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''), 'the configuration');
  if ('error' in parsed) throw bad(`not JSON (${parsed.error.replace(/\.$/, '')})`);
  if (!isJsonObject(parsed.value)) throw bad('not an MCP client configuration (a JSON object is expected)');
  const found = serversOf(parsed.value);
  if (!found) throw bad('not an MCP client configuration: no "mcpServers" (Claude Desktop, Cursor, Windsurf) or "servers" (VS Code) object');
  const servers: ConfiguredServer[] = [];
  for (const [name, entry] of Object.entries(found.servers)) {
    const at = `${found.where}.${JSON.stringify(name).slice(1, -1)}`;
    if (!isJsonObject(entry)) throw bad(`server "${at}" is not an object`);
    const type = typeof entry['type'] === 'string' ? entry['type'] : typeof entry['transport'] === 'string' ? entry['transport'] : null;
    const url = typeof entry['url'] === 'string' ? entry['url'] : typeof entry['serverUrl'] === 'string' ? entry['serverUrl'] : null;
    const command = typeof entry['command'] === 'string' && entry['command'] !== '' ? entry['command'] : null;
    if (type === 'sse') {
      servers.push({ name, kind: 'unsupported', reason: 'the HTTP+SSE transport (2024-11-05) is not one svc speaks (Streamable HTTP and stdio only)', url });
      continue;
    }
    if (command !== null && url !== null) throw bad(`server "${at}" has both a command and a url`);
    if (command !== null) {
      if (type !== null && type !== 'stdio') throw bad(`server "${at}" has a command but type "${type.slice(0, 40)}"`);
      const args = stringList(entry['args']);
      if (args === null) throw bad(`server "${at}": "args" must be an array of strings`);
      const env = stringMap(entry['env']);
      if (env === null) throw bad(`server "${at}": "env" must be an object of strings named like environment variables`);
      servers.push({ name, kind: 'stdio', command, args, env });
    } else if (url !== null) {
      if (type !== null && !['http', 'streamable-http', 'streamableHttp'].includes(type)) throw bad(`server "${at}" has a url but type "${type.slice(0, 40)}"`);
      servers.push({ name, kind: 'http', url });
    } else {
      throw bad(`server "${at}" has neither a command nor a url`);
    }
  }
  return servers;
}
