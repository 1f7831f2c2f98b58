/**
 * Behaviour signals on the official MCP reference server (@modelcontextprotocol/server-everything,
 * run as a real process as its README runs it: `PORT=<p> node dist/index.js streamableHttp`),
 * inspected by the built CLI. Of its 13 tools exactly two say what they do in a way a reader
 * must see: `get-env` reads the environment (declared read_only, estimated sensitive_read), and
 * `gzip-file-as-resource` fetches the URL it is given in `data`. The other eleven raise nothing.
 * (The interoperability matrix covers the rest of this server; this file only its signals.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, onlyJson, repoRoot, svc } from '../support/cli.js';
import { freePort } from '../support/gateway.js';

const SERVER = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let child: ChildProcess;
let url: string;

/** Starts server-everything on a free port and resolves once it says it listens. */
async function startEverything(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [SERVER, 'streamableHttp'], { cwd: repoRoot, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      if (output.includes(`listening on port ${port}`)) resolve();
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`server-everything exited (${code}) before listening:\n${output}`)));
  });
  // Drained from here on: a full pipe would stall the server.
  proc.stdout!.resume();
  proc.stderr!.resume();
  return { child: proc, url: `http://127.0.0.1:${port}/mcp` };
}

beforeAll(async () => {
  assertBuilt();
  ({ child, url } = await startEverything());
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

const inspect = (...extra: string[]) => svc(['inspect-mcp', url, '--egress-allow', '127.0.0.1/32', '--no-store', ...extra], cleanEnv());

describe('server-everything: behaviour signals of the reference tools', () => {
  it('get-env reads the environment, gzip-file-as-resource fetches URLs; the other eleven tools raise nothing', async () => {
    const r = await inspect('--json');
    expect(r.exitCode).toBe(3);
    const result = onlyJson(r);
    const byName = Object.fromEntries(
      result.tools.map((t: any) => [t.name, [t.heuristicClass, t.riskSignals.map((s: any) => [s.id, s.location, ...(s.parameter ? [s.parameter] : []), s.detail])]]),
    );
    expect(Object.keys(byName)).toHaveLength(13);
    expect(byName['get-env']).toEqual([
      'sensitive_read',
      [
        ['reads_environment', 'name', 'the words "get env" in the name'],
        ['reads_environment', 'description', 'the words "returns all environment variables"'],
      ],
    ]);
    expect(byName['gzip-file-as-resource']).toEqual([
      'unknown',
      [['fetches_urls', 'parameter', 'data', 'a URL parameter and the words "url … of the file content"']],
    ]);
    for (const [name, [, signals]] of Object.entries(byName) as [string, [string, unknown[]]][]) {
      if (name !== 'get-env' && name !== 'gzip-file-as-resource') expect(signals, name).toEqual([]);
    }

    // The server's claim stays as it sent it, beside svc's estimate.
    const getEnv = result.tools.find((t: any) => t.name === 'get-env');
    expect([getEnv.annotations.readOnlyHint, getEnv.declaredClass, getEnv.heuristicClass]).toEqual([true, 'read_only', 'sensitive_read']);
    expect(result.classCounts.heuristic.sensitive_read).toBe(1);
    expect(result.checks.find((c: any) => c.id === 'inventory').detail).toBe('2 tools of 13 have risk signals: "get-env", "gzip-file-as-resource".');
  });

  it('the text report names the words and shows the excerpt', async () => {
    const r = await inspect();
    expect(r.exitCode).toBe(3);
    const text = r.stdout.replace(/\n {4,}/g, ' ');
    expect(text).toContain('! get-env · reads_environment in the description: the words "returns all environment variables"');
    expect(text).toContain('“Returns all environment variables, helpful for debugging MCP server configurati…”');
    expect(text).toContain('! gzip-file-as-resource · fetches_urls in the parameter data: a URL parameter and the words "url … of the file content"');
  });
});
