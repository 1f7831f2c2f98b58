/**
 * `svc resolve <did> --html <file>` (the first run through the built binary, which finds the
 * stylesheet beside its chunks; the others in the test process, svcIn): the offline dossier is written
 * whole (or not at all), the exit code is the resolution's, a problem is written as a problem
 * page; a --html whose folder does not exist is a usage error (exit 2) before anything runs, and
 * a file that cannot be written is OUTPUT_FAILED (exit 4) with nothing left behind.
 * `svc inspect-mcp <endpoint> --html <file>` the same way, with the MCP inspection page.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, onlyJson, parseCliError, svc, svcIn } from '../support/cli.js';
import { closedPort } from '../support/https-server.js';
import { PLAIN_ITEMS, PLAIN_TOOLS, POISONED_TOOLS, startPlainHost, startSdk2Server } from '../support/mcp-servers.js';

const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('svc resolve --html', () => {
  it('writes the self-contained dossier beside the usual output; the exit code is the resolution’s', async () => {
    const file = path.join(dir, 'key.html');
    const run = await svc(['resolve', DID_KEY, '--html', file, '--json', '--db', path.join(dir, 'svc.db')], cleanEnv());
    expect(run.exitCode, run.stderr).toBe(0);
    expect(onlyJson(run).did).toBe(DID_KEY);
    expect(run.stderr).toBe(`svc: the dossier is in ${file}`);
    const page = readFileSync(file, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('id="level-1"');
    expect(page).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'');
    expect(page).not.toMatch(/<script|<link (?!rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,)/);
    // The local history has this resolution: the time machine lists it.
    expect(page).toContain('id="observations"');
  });

  it('with --no-store the time machine says why it is empty; --quiet says nothing', async () => {
    const file = path.join(dir, 'nostore.html');
    const run = await svcIn(['resolve', DID_KEY, '--html', file, '--no-store', '--quiet'], cleanEnv());
    expect({ exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr }).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readFileSync(file, 'utf8')).toContain('--no-store');
  });

  it('a problem is written as a problem page, and the command still answers it (exit 4)', async () => {
    const file = path.join(dir, 'problem.html');
    const run = await svcIn(['resolve', 'did:example:123', '--html', file, '--no-store'], cleanEnv());
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain('svc: METHOD_NOT_SUPPORTED:');
    const page = readFileSync(file, 'utf8');
    expect(page).toContain('data-code="METHOD_NOT_SUPPORTED"');
    expect(page).toContain('data-stage="syntax.parse" data-status="FAIL"');
  });

  it('a folder that does not exist is a usage error (exit 2), said before anything runs', async () => {
    const missing = path.join(dir, 'no-such-folder', 'out.html');
    const run = await svcIn(['resolve', DID_KEY, '--html', missing, '--no-store'], cleanEnv());
    expect({ exitCode: run.exitCode, stdout: run.stdout }).toEqual({ exitCode: 2, stdout: '' });
    const error = parseCliError(run.stderr);
    expect(error).toMatchObject({ code: 'USAGE_ERROR', hint: "see 'svc resolve --help'" });
    expect(error.detail).toBe(`--html: cannot write ${missing}: its directory does not exist`);
  });

  it('a file that cannot be written is OUTPUT_FAILED, exit 4, and leaves nothing behind', async () => {
    // /sys exists and refuses new files, even to root (Linux).
    const run = await svcIn(['resolve', DID_KEY, '--html', '/sys/svc-out.html', '--no-store'], cleanEnv());
    expect(run.exitCode).toBe(4);
    const error = parseCliError(run.stderr);
    expect(error.code).toBe('OUTPUT_FAILED');
    expect(error.detail).toMatch(/EACCES|EPERM|ENOENT/);
    expect(readdirSync('/sys').filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('svc inspect-mcp --html', () => {
  it('writes the inspection as one self-contained page; the exit code and --json are the inspection’s', async () => {
    const plain = await startPlainHost();
    const server = await startSdk2Server({ host: plain, tools: [...PLAIN_TOOLS, POISONED_TOOLS[1]!], ...PLAIN_ITEMS });
    try {
      const file = path.join(dir, 'mcp.html');
      const run = await svcIn(['inspect-mcp', server.url, '--egress-allow', '127.0.0.1/32', '--no-store', '--html', file, '--json'], cleanEnv());
      // Risk signals and plain http warn: 3, as without --html.
      expect(run.exitCode, run.stderr).toBe(3);
      expect(onlyJson(run).tools).toHaveLength(4);
      expect(run.stderr).toBe(`svc: the inspection page is in ${file}`);
      const page = readFileSync(file, 'utf8');
      expect(page.startsWith('<!doctype html>')).toBe(true);
      expect(page).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'');
      expect(page).not.toMatch(/<script|<form|<link (?!rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,)/);
      expect(page).toContain(`data-endpoint="${server.url}" data-status="INSPECTED"`);
      expect(page).toContain('An offline copy made by svc inspect-mcp --html');
      for (const id of ['server', 'checks', 'tools', 'prompts', 'resources', 'resource-templates', 'drift', 'limitations', 'transcript'])
        expect(page, id).toContain(`<section id="${id}"`);
      // The tool with signals first; its zero-width characters shown as U+XXXX.
      expect(page.indexOf('data-key="lookup_word"')).toBeLessThan(page.indexOf('data-key="get_weather"'));
      expect(page).toContain('<span class="codepoint">U+200B</span>');
      expect(page).not.toContain('\u200B');
    } finally {
      await server.close();
      await plain.close();
    }
  });

  it('a problem is written as a problem page naming the endpoint (exit 4)', async () => {
    const file = path.join(dir, 'mcp-problem.html');
    const endpoint = `http://127.0.0.1:${await closedPort()}/mcp`;
    const run = await svcIn(['inspect-mcp', endpoint, '--egress-allow', '127.0.0.1/32', '--no-store', '--html', file], cleanEnv());
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain('svc: UPSTREAM_UNAVAILABLE:');
    const page = readFileSync(file, 'utf8');
    expect(page).toContain('data-code="UPSTREAM_UNAVAILABLE"');
    expect(page).toContain(`For the MCP endpoint <code>${endpoint}</code>`);
    expect(page).not.toMatch(/<form/);
  });
});
