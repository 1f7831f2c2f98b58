/**
 * svc.config.json: found by --config, SVC_CONFIG, $XDG_CONFIG_HOME/svc/config.json, then
 * ./svc.config.json; its values are the lowest layer (file < environment < flag), as
 * `svc config show --json` reports each with its origin; refused in one line naming the file and
 * the key (exit 2): unknown keys (with the nearest), wrong types, secrets, a secret file others can
 * read, and a file that is not JSON (with line:column). `svc serve` runs with the file's settings.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { ShownConfig } from '../../src/cli/cmd/config/action.js';
import { CONFIG_KEYS, ENVIRONMENT_ONLY } from '../../src/cli/cmdutil/config-keys.js';
import { readConfigFile } from '../../src/cli/cmdutil/config-file.js';
import { configCandidates } from '../../src/cli/cmdutil/config-lookup.js';
import { configSchema } from '../../src/cli/cmdutil/config-schema.js';
import { ENVIRONMENT } from '../../src/cli/cmdutil/environment.js';
import { cleanEnv, repoRoot, svcIn } from '../support/cli.js';
import { startInProcessDaemon } from '../support/daemon.js';

const root = mkdtempSync(path.join(tmpdir(), 'svc-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;

/** A fresh folder holding `name` with `content` (an object is written as JSON); returns the file's path. */
function configFile(content: unknown, name = 'svc.config.json', mode = 0o644): string {
  const dir = path.join(root, String(made++));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2), { mode });
  chmodSync(file, mode);
  return file;
}

async function show(args: string[], env: Record<string, string> = {}): Promise<ShownConfig> {
  const r = await svcIn([...args], cleanEnv(env));
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as ShownConfig;
}

const setting = (shown: ShownConfig, key: string) => shown.settings.find((s) => s.key === key)!;

describe('where svc looks, and the order of the layers', () => {
  it('file < environment < flag, each setting with its origin', async () => {
    const xdg = path.join(root, 'xdg');
    mkdirSync(path.join(xdg, 'svc'), { recursive: true });
    const file = path.join(xdg, 'svc', 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        $schema: '../../svc.config.schema.json',
        cache: { ttl: 600, maxEntries: 50 },
        daemon: { url: 'http://svc.internal:8080' },
        dns: { servers: ['10.20.0.53', '10.20.0.54:5353'] },
        server: { production: true, accessLog: 'text' },
      }),
    );
    const shown = await show(['config', 'show', '--json', '--daemon', 'http://127.0.0.1:9'], { XDG_CONFIG_HOME: xdg, SVC_CACHE_TTL: '30' });
    expect(shown.file).toBe(file);
    expect(setting(shown, 'cache.ttl')).toMatchObject({ value: '30', origin: 'env SVC_CACHE_TTL' });
    expect(setting(shown, 'cache.maxEntries')).toMatchObject({ value: '50', origin: `file ${file}` });
    expect(setting(shown, 'daemon.url')).toMatchObject({ value: 'http://127.0.0.1:9', origin: 'flag --daemon' });
    expect(setting(shown, 'dns.servers')).toMatchObject({ value: '10.20.0.53,10.20.0.54:5353', origin: `file ${file}` });
    expect(setting(shown, 'server.production')).toMatchObject({ value: '1', variable: 'SVC_PRODUCTION' });
    expect(setting(shown, 'cache.maxBytes')).toMatchObject({ value: null, origin: 'default', default: '67108864 (64 MiB)' });
    expect(shown.settings.map((s) => s.key)).toEqual(CONFIG_KEYS.map((k) => k.key));
    // An empty variable counts as unset: the file's value applies.
    expect(setting(await show(['config', 'show', '--json'], { XDG_CONFIG_HOME: xdg, SVC_CACHE_TTL: '' }), 'cache.ttl')).toMatchObject({ value: '600' });
  });

  it('prints a table that fits the terminal: the origin in a word, the file named once above, long values wrapped under their column', async () => {
    const file = configFile({ cache: { ttl: 600 } });
    const r = await svcIn(['config', 'show', '--config', file], cleanEnv({ COLUMNS: '80', SVC_CACHE_MAX_ENTRIES: '7' }));
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`config file: ${file}`);
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    const column = lines[2]!.indexOf('VALUE');
    expect(lines.find((line) => line.startsWith('cache.ttl '))).toMatch(/^cache\.ttl +file +600$/);
    expect(lines.find((line) => line.startsWith('cache.maxEntries '))).toMatch(/^cache\.maxEntries +env +7$/);
    // A continuation line starts under VALUE.
    const continued = lines.filter((line) => /^ +\S/.test(line));
    expect(continued.length).toBeGreaterThan(0);
    expect(continued.every((line) => line.length - line.trimStart().length === column)).toBe(true);
  });

  it('--config (before or after the command) and SVC_CONFIG name the file; a named file that is missing is exit 2', async () => {
    const file = configFile({ egress: { allow: ['10.0.0.0/8'] } });
    for (const args of [
      ['--config', file, 'config', 'show', '--json'],
      ['config', 'show', '--json', '--config', file],
    ]) {
      expect(setting(await show(args), 'egress.allow')).toMatchObject({ value: '10.0.0.0/8', origin: `file ${file}` });
    }
    const flagged = await show(['config', 'show', '--json', '--egress-allow', '192.168.0.0/16'], { SVC_CONFIG: file });
    expect(setting(flagged, 'egress.allow')).toMatchObject({ value: '10.0.0.0/8,192.168.0.0/16', origin: 'flag --egress-allow' });

    const missing = path.join(root, 'nowhere.json');
    for (const [args, env, by] of [
      [['--config', missing, 'config', 'show'], {}, '--config'],
      [['config', 'show'], { SVC_CONFIG: missing }, 'SVC_CONFIG'],
    ] as const) {
      const r = await svcIn([...args], cleanEnv(env));
      expect(r.exitCode).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`svc: USAGE_ERROR: config file ${missing} (from ${by}) does not exist`);
    }
  });

  it('none found: config show says where it looked; config path exits 1', async () => {
    const shown = await show(['config', 'show', '--json']);
    expect(shown.file).toBeNull();
    expect(shown.searched.map((s) => s.by)).toEqual(['$XDG_CONFIG_HOME/svc/config.json', './svc.config.json']);
    expect((await svcIn(['config', 'show'])).stdout.split('\n')[0]).toMatch(/^config file: none \(looked for .+svc\/config\.json, .+svc\.config\.json\)$/);
    const r = await svcIn(['config', 'path']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^svc: no config file; looked for /);
  });

  it('the order: --config, SVC_CONFIG, $XDG_CONFIG_HOME (else ~/.config), then the current directory', () => {
    const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/x' };
    expect(configCandidates('a.json', { ...env, SVC_CONFIG: '/b.json' }, '/w').map((c) => c.path)).toEqual(['/w/a.json']);
    expect(configCandidates(undefined, { ...env, SVC_CONFIG: 'b.json' }, '/w').map((c) => c.path)).toEqual(['/w/b.json']);
    expect(configCandidates(undefined, env, '/w').map((c) => c.path)).toEqual(['/x/svc/config.json', '/w/svc.config.json']);
    expect(configCandidates(undefined, { HOME: '/home/u', XDG_CONFIG_HOME: 'relative' }, '/w').map((c) => c.path)).toEqual([
      '/home/u/.config/svc/config.json',
      '/w/svc.config.json',
    ]);
  });
});

describe('refusals: one line naming the file and the key, exit 2', () => {
  async function refused(content: unknown, mode?: number): Promise<{ file: string; line: string; hint: string }> {
    const file = configFile(content, 'svc.config.json', mode);
    const r = await svcIn(['--config', file, 'config', 'show']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const [line, hint] = r.stderr.split('\n');
    return { file, line: line!, hint: hint!.trim() };
  }

  it('an unknown key, with the nearest known one', async () => {
    const { file, line } = await refused({ cache: { tll: 60 } });
    expect(line).toBe(`svc: USAGE_ERROR: ${file}: unknown key cache.tll (did you mean cache.ttl?)`);
    expect((await refused({ cahce: { ttl: 60 } })).line).toMatch(/: unknown key cahce \(did you mean cache\?\)$/);
    expect((await refused({ telemetry: { x: 1 } })).line).toMatch(/: unknown key telemetry$/);
  });

  it('a value of the wrong type', async () => {
    const { file, line } = await refused({ cache: { ttl: '60' } });
    expect(line).toBe(`svc: USAGE_ERROR: ${file}: cache.ttl must be a whole number of at least 0, not the string "60"`);
    expect((await refused({ egress: { allow: '10.0.0.0/8' } })).line).toMatch(/: egress\.allow must be an array of strings/);
    expect((await refused({ server: { accessLog: 'loud' } })).line).toMatch(/: server\.accessLog must be one of "json", "text", "off", not the string "loud"$/);
    expect((await refused({ cache: 60 })).line).toMatch(/: cache must be an object of settings, not the number 60$/);
    expect((await refused([1])).line).toMatch(/: must hold a JSON object of sections/);
  });

  it('secrets: a token, a private key, a project key, a password in the database URL', async () => {
    const token = await refused({ admin: { token: 'correct-horse-battery-staple-0123456789' } });
    expect(token.line).toBe(
      `svc: USAGE_ERROR: ${token.file}: admin.token is a secret: set SVC_ADMIN_TOKEN in the environment, or admin.tokenFile to a file of mode 0600`,
    );
    expect((await refused({ signing: { key: { kty: 'OKP', d: 'x' } } })).line).toMatch(/: signing\.key is a private key: give its file as signing\.keyFile/);
    expect((await refused({ owner: { projectKey: 'svc_pk_0123' } })).line).toMatch(
      /: owner\.projectKey looks like a secret, which a shared file must not hold$/,
    );
    const url = await refused({ database: { url: 'postgres://svc:hunter2@db/svc' } });
    expect(url.line).toMatch(/: database\.url holds a password, which a shared file must not hold$/);
    expect(url.line).not.toContain('hunter2');
    expect(url.hint).toMatch(/PGPASSWORD/);
  });

  it('a secret file open to group or others; mode 0600 is read, and shown redacted', async () => {
    const dir = path.dirname(configFile('{}'));
    const tokenFile = path.join(dir, 'admin-token');
    writeFileSync(tokenFile, 'q7Vn3kLx9PzR2mWc8TbY4hJd\n', { mode: 0o640 });
    chmodSync(tokenFile, 0o640);
    const config = path.join(dir, 'svc.config.json');
    writeFileSync(config, JSON.stringify({ admin: { tokenFile: 'admin-token' } }));
    const open = await svcIn(['--config', config, 'config', 'show']);
    expect(open.exitCode).toBe(2);
    expect(open.stderr).toBe(
      `svc: USAGE_ERROR: ${config}: admin.tokenFile: ${tokenFile} is open to group or others (mode 0640)\n  hint: run chmod 600 ${tokenFile}`,
    );
    chmodSync(tokenFile, 0o600);
    const shown = await show(['--config', config, 'config', 'show', '--json']);
    expect(setting(shown, 'admin.tokenFile')).toMatchObject({ variable: 'SVC_ADMIN_TOKEN', value: 'set (redacted)', origin: `file ${config}` });
    expect(JSON.stringify(shown)).not.toContain('q7Vn3kLx9PzR2mWc8TbY4hJd');
    expect(setting(await show(['config', 'show', '--json'], { SVC_ADMIN_TOKEN: 'from-the-environment-0123456789' }), 'admin.tokenFile').value).toBe(
      'set (redacted)',
    );
  });

  it('a file that is not JSON, or has a duplicate member: its line and column', async () => {
    const { file, line } = await refused('{\n  "cache": { "ttl": 60, }\n}\n');
    expect(line).toBe(`svc: USAGE_ERROR: ${file}:2:25: not valid JSON: expected a member name`);
    const duplicate = await refused('{\n  "cache": { "ttl": 60 },\n  "cache": { "ttl": 5 }\n}');
    expect(duplicate.line).toMatch(/svc\.config\.json:3:\d+: not valid JSON: duplicate member "cache"$/);
  });

  it('every command refuses it before it runs, except help, completion and version', async () => {
    const file = configFile({ cache: { tll: 1 } });
    const resolve = await svcIn(['resolve', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', '--config', file]);
    expect(resolve.exitCode).toBe(2);
    expect(resolve.stderr).toMatch(/unknown key cache\.tll/);
    for (const args of [['version'], ['help', 'resolve'], ['completion', 'bash'], ['resolve', '--help']]) {
      expect((await svcIn(args, cleanEnv({ SVC_CONFIG: file }))).exitCode).toBe(0);
    }
  });

  it('a command whose own --config means another file keeps it; svc --config before it is the settings file', async () => {
    const settings = configFile({ cache: { tll: 1 } });
    const r = await svcIn(['--config', settings, 'inspect-mcp', '--config', path.join(root, 'missing-mcp.json')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/unknown key cache\.tll/);
  });
});

describe('one table', () => {
  it('every variable of the environment table is set by one key, or is environment-only with a reason', () => {
    const mapped = CONFIG_KEYS.map((k) => k.variable);
    expect(new Set(mapped).size).toBe(mapped.length);
    expect(new Set(CONFIG_KEYS.map((k) => k.key)).size).toBe(CONFIG_KEYS.length);
    for (const k of CONFIG_KEYS)
      expect(
        ENVIRONMENT.map((v) => v.name),
        k.key,
      ).toContain(k.variable);
    const unmapped = ENVIRONMENT.map((v) => v.name).filter((name) => !mapped.includes(name) && ENVIRONMENT_ONLY[name] === undefined);
    expect(unmapped, 'add a row to CONFIG_KEYS (src/cli/cmdutil/config-keys.ts), or to ENVIRONMENT_ONLY with the reason').toEqual([]);
  });

  it('the JSON Schema accepts what the reader accepts and refuses what it refuses', () => {
    const validate = new Ajv2020({ strict: false }).compile(configSchema());
    const tokenFile = configFile('a-token-of-the-operator-0123456789', 'token', 0o600);
    const good = {
      $schema: 'https://example.test/schema.json',
      egress: { allow: ['10.0.0.0/8'] },
      monitoring: { tlsExpiryDays: [30, 7] },
      commercial: { enabled: false },
      log: { level: 'warn' },
      admin: { tokenFile },
    };
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    expect(readConfigFile(configFile(good)).get('SVC_COMMERCIAL')).toEqual({ key: 'commercial.enabled', value: 'off' });
    for (const bad of [
      { cache: { tll: 1 } },
      { cache: { ttl: -1 } },
      { cache: { ttl: 1.5 } },
      { egress: { allow: ['10.0.0.0/8,10.1.0.0/16'] } },
      { monitoring: { tlsExpiryDays: [] } },
      { log: { level: 'loud' } },
      { admin: { token: 'x' } },
      { daemon: { url: '' } },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
      expect(() => readConfigFile(configFile(bad)), JSON.stringify(bad)).toThrow();
    }
  });
});

describe('svc serve runs with the file', () => {
  it("the file's rate limit and egress allowance govern the daemon; the environment overrides the file", async () => {
    const file = configFile({ server: { rateLimitPerMinute: 2 }, egress: { allow: ['10.99.0.0/16'] } });
    const daemon = await startInProcessDaemon({ args: ['--config', file] });
    try {
      expect(daemon.stderr()).toContain('10.99.0.0/16');
      const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${daemon.url}/v1/resolve/${did}`)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await daemon.stop();
    }
    const overridden = await startInProcessDaemon({ args: ['--config', file], env: { SVC_RATE_LIMIT_PER_MIN: '100' } });
    try {
      const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
      for (let i = 0; i < 3; i++) expect((await fetch(`${overridden.url}/v1/resolve/${did}`)).status).toBe(200);
    } finally {
      await overridden.stop();
    }
  });
});

describe('docs/configuration.md', () => {
  it('its complete example is a file svc reads (its secret files made here)', () => {
    const text = readFileSync(path.join(repoRoot, 'docs/configuration.md'), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(text)![1]!) as { signing: { keyFile: string }; admin: { tokenFile: string } };
    const keyFile = configFile('{}', 'signing.jwk', 0o600);
    example.signing.keyFile = keyFile;
    example.admin.tokenFile = configFile('an-operator-token-for-the-example-0123', 'admin-token', 0o600);
    const values = readConfigFile(configFile(example));
    expect(values.get('SVC_SIGNING_KEY')?.value).toBe(keyFile);
    expect(values.get('SVC_TRUST_PROXY')?.value).toBe('10.20.0.10,10.20.0.11');
    expect(values.get('SVC_PRODUCTION')?.value).toBe('1');
    expect(values.get('SVC_TLS_EXPIRY_DAYS')?.value).toBe('30,14,3');
  });
});

describe('a value the command cannot use', () => {
  it('is refused as the variable would be, naming the file and the key it came from', async () => {
    const file = configFile({ cache: { ttl: 99999999999 } });
    const r = await svcIn(['resolve', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', '--no-store', '--config', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^svc: USAGE_ERROR: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cache\\.ttl: SVC_CACHE_TTL `));
    // The same value from the environment names only the variable.
    const env = await svcIn(['resolve', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', '--no-store'], cleanEnv({ SVC_CACHE_TTL: '99999999999' }));
    expect(env.stderr.split('\n')[0]).toMatch(/^svc: USAGE_ERROR: SVC_CACHE_TTL /);
  });
});
