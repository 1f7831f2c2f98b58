/**
 * svc as a command people live in: one error style for every command (and --quiet never hiding
 * it), help and version, a daemon that cannot listen, broken pipes, and the configuration
 * documented where people look (svc help environment, completions that offer files, the man
 * page). The CLI in the test process (svcIn) for what it prints; the built binary where the
 * process is the subject (a daemon that cannot listen, real pipes), a real bash and a real groff.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFiles, describe as describeTree } from '../../src/cli/cmdutil/completion.js';
import { ENVIRONMENT } from '../../src/cli/cmdutil/environment.js';
import { buildProgram, REGISTRATIONS } from '../../src/cli/program.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { assertBuilt, cleanEnv, repoRoot, svc, svcIn, svcBin, type Run } from '../support/cli.js';
import { ED25519_DID, OFF_CURVE_DID } from '../support/dids.js';

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  man?: string[];
  files?: string[];
  scripts: Record<string, string>;
};

let dir: string;

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-help-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The one error style: `svc: CODE: detail` on the first line, `  hint: …` on the last, nothing
 * on stdout (unless --json), no stack trace.
 */
function expectError(r: Run, exitCode: number, code: string, hint: string, detail?: RegExp): void {
  expect({ exitCode: r.exitCode, stderr: r.stderr }).toMatchObject({ exitCode });
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(new RegExp(`^svc: ${code}: \\S`));
  if (detail) expect(lines[0]).toMatch(detail);
  expect(lines.at(-1)).toBe(`  hint: ${hint}`);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('one error style for every command', () => {
  it('commander refusing a command line: the code, the reason and the command whose help to read (exit 2)', async () => {
    const unknownOption = await svcIn(['resolve', ED25519_DID, '--bogus']);
    expectError(unknownOption, 2, 'USAGE_ERROR', "see 'svc resolve --help'", /unknown option '--bogus'/);
    expect(unknownOption.stdout).toBe('');
    expectError(await svcIn(['verify-credential']), 2, 'USAGE_ERROR', "see 'svc verify-credential --help'", /missing required argument 'file'/);
    expectError(await svcIn(['evaluate-policy', ED25519_DID]), 2, 'USAGE_ERROR', "see 'svc evaluate-policy --help'", /--policy/);
    expectError(await svcIn(['completion', 'tcsh']), 2, 'USAGE_ERROR', "see 'svc completion --help'", /tcsh/);
    expectError(await svcIn(['resolv', ED25519_DID]), 2, 'USAGE_ERROR', "see 'svc --help'", /unknown command 'resolv' \(did you mean resolve\?\)$/);
    expectError(await svcIn(['--bogus']), 2, 'USAGE_ERROR', "see 'svc --help'", /unknown option '--bogus'/);
  });

  it("a bad option value or unreadable file names the command's help; a bad variable, the environment help", async () => {
    expectError(await svcIn(['resolve', ED25519_DID, '--version-number', '0']), 2, 'USAGE_ERROR', "see 'svc resolve --help'", /--version-number/);
    expectError(await svcIn(['verify-credential', path.join(dir, 'missing.json')]), 2, 'USAGE_ERROR', "see 'svc verify-credential --help'", /no such file/);
    const setting = await svcIn(['resolve', ED25519_DID], cleanEnv({ SVC_LOG_LEVEL: 'loud' }));
    expectError(setting, 2, 'USAGE_ERROR', "see 'svc help environment'", /^svc: USAGE_ERROR: SVC_LOG_LEVEL must be one of/);
  });

  it('a problem (no answer) reads the same, with its failing stage, on stderr; with --json the problem is on stdout too', async () => {
    const text = await svcIn(['resolve', 'did:example:123']);
    expectError(text, 4, 'METHOD_NOT_SUPPORTED', "see 'svc resolve --help'");
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^ {2}failed at syntax\.parse/m);
    const json = await svcIn(['resolve', 'not-a-did', '--json']);
    expectError(json, 4, 'INVALID_DID', "see 'svc resolve --help'");
    expect(json.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(JSON.parse(json.stdout).code).toBe('INVALID_DID');
  });

  it('a failed check is a result, not an error: it prints its report and no error line', async () => {
    const r = await svcIn(['resolve', OFF_CURVE_DID]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/did:jwk/);
    expect(r.stderr).not.toMatch(/^svc: /m);
  });

  it('the commands that wrote their own lines before use the same style (backup without a database)', async () => {
    const env = cleanEnv({ XDG_STATE_HOME: path.join(dir, 'no-state') });
    expectError(await svcIn(['backup', path.join(dir, 'copy.db')], env), 4, 'NOT_FOUND', "see 'svc backup --help'", /no database at .*nothing to back up/);
  });

  it('never echoes control characters from the command line', async () => {
    const r = await svcIn(['resolve', ED25519_DID, '--bogus\u001b[2J']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });
});

describe('--quiet hides the report, never an error', () => {
  it('prints the error of a problem (exit 4), and nothing on stdout', async () => {
    const r = await svcIn(['resolve', 'notadid', '-q']);
    expectError(r, 4, 'INVALID_DID', "see 'svc resolve --help'");
    expect(r.stdout).toBe('');
  });

  it('with --json: the problem on stdout and the error on stderr', async () => {
    const r = await svcIn(['resolve', 'notadid', '-q', '--json']);
    expectError(r, 4, 'INVALID_DID', "see 'svc resolve --help'");
    expect(JSON.parse(r.stdout).code).toBe('INVALID_DID');
  });

  it('hides the report of a result: nothing at all for a pass or a failed check', async () => {
    expect(await svcIn(['resolve', ED25519_DID, '-q'])).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(await svcIn(['resolve', OFF_CURVE_DID, '-q'])).toMatchObject({ exitCode: 1, stdout: '', stderr: '' });
  });

  it('svc backup -q still says why it failed', async () => {
    const env = cleanEnv({ XDG_STATE_HOME: path.join(dir, 'no-state') });
    expectError(await svcIn(['backup', path.join(dir, 'copy.db'), '-q'], env), 4, 'NOT_FOUND', "see 'svc backup --help'");
  });
});

describe('help', () => {
  it('svc help and svc help <command> print on stdout and exit 0, exactly as --help does', async () => {
    const overview = await svcIn(['help']);
    expect(overview).toMatchObject({ exitCode: 0, stderr: '' });
    expect(overview.stdout).toBe((await svcIn(['--help'])).stdout);
    expect(overview.stdout).toMatch(/^Usage: svc /);
    const resolve = await svcIn(['help', 'resolve']);
    expect(resolve).toMatchObject({ exitCode: 0, stderr: '' });
    expect(resolve.stdout).toBe((await svcIn(['resolve', '--help'])).stdout);
  });

  it('svc help <unknown> is a usage error in the one style (exit 2)', async () => {
    const r = await svcIn(['help', 'nosuchcmd']);
    expectError(r, 2, 'USAGE_ERROR', "see 'svc --help'", /nosuchcmd/);
    expect(r.stdout).toBe('');
  });

  it('svc alone prints the help on stderr and exits 2 (nothing was asked)', async () => {
    const r = await svcIn([]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: svc /);
  });

  it('the overview says where the environment variables are listed and that svc alone exits 2', async () => {
    const r = await svcIn(['--help']);
    expect(r.stdout).toMatch(/svc help environment/);
    expect(r.stdout).toMatch(/svc alone prints this help on stderr and exits 2/);
  });

  it('no repeatable option shows an empty default, yet each still starts empty', async () => {
    const commands = describeTree(buildProgram({ stdout: process.stdout, stderr: process.stderr, env: {} }, () => {})).commands.map((c) => c.name);
    expect(commands).toEqual(expect.arrayContaining(['resolve', 'serve', 'verify-delegation', 'inspect-mcp']));
    const texts = await Promise.all(commands.map(async (c) => (await svcIn([c, '--help'])).stdout));
    for (const text of texts) expect(text).not.toContain('(default: [])');
    expect(texts.join('\n')).toMatch(/--egress-allow <cidr>/);
    // Behaviour unchanged: a resolution without --egress-allow still works (an empty allowance).
    expect((await svcIn(['resolve', ED25519_DID, '--json'])).exitCode).toBe(0);
  }, 60_000);
});

describe('the tree a command line builds', () => {
  const io = { stdout: process.stdout, stderr: process.stderr, env: {} };
  const topLevel = (program: ReturnType<typeof buildProgram>) => program.commands.flatMap((c) => [c.name(), ...c.aliases()]);

  it('each registration adds exactly the commands it is listed with, and together they are the whole tree', () => {
    const whole = topLevel(buildProgram(io, () => {}));
    const listed = REGISTRATIONS.flatMap((r) => r.names);
    expect(listed).toEqual(whole);
    for (const { names } of REGISTRATIONS) {
      const alone = buildProgram(io, () => {}, [names[0]!, '--help']);
      const expected = REGISTRATIONS.find((r) => r.names.includes(names[0]!))!.whole ? whole : names;
      expect(topLevel(alone)).toEqual(expected);
    }
  });

  it('gives every command, at any depth, the help of the whole tree', () => {
    const whole = buildProgram(io, () => {});
    const helpOf = (program: ReturnType<typeof buildProgram>, path: readonly string[]) => {
      let cmd = program;
      for (const name of path) cmd = cmd.commands.find((c) => c.name() === name)!;
      return cmd.helpInformation();
    };
    const paths: string[][] = [];
    const walk = (cmd: ReturnType<typeof buildProgram>, path: string[]) => {
      for (const sub of cmd.commands) {
        paths.push([...path, sub.name()]);
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(whole, []);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths)
      expect(
        helpOf(
          buildProgram(io, () => {}, path),
          path,
        ),
      ).toBe(helpOf(whole, path));
  });

  it('builds the whole tree for no command, an option first, a misspelt command, help and completion', () => {
    const all = REGISTRATIONS.flatMap((r) => r.names);
    for (const argv of [[], ['--help'], ['-V'], ['reslove', 'did:key:z'], ['help', 'resolve'], ['completion', 'bash']]) {
      expect(topLevel(buildProgram(io, () => {}, argv))).toEqual(all);
    }
    expect(topLevel(buildProgram(io, () => {}, ['resolve', 'did:key:z']))).toEqual(['resolve']);
  });

  it('still suggests the command meant', async () => {
    const r = await svcIn(['reslove', ED25519_DID]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/resolve/);
  });
});

describe('help examples', () => {
  /** Every example line (`$ svc …`) of every command's full help, as `svc --help` prints it. */
  function exampleLines(): string[] {
    const program = buildProgram({ stdout: process.stdout, stderr: process.stderr, env: {} } as never, () => {});
    const lines: string[] = [];
    const walk = (cmd: ReturnType<typeof buildProgram>) => {
      for (const sub of cmd.commands) {
        let text = '';
        sub.configureOutput({ writeOut: (t) => (text += t), writeErr: (t) => (text += t) });
        sub.outputHelp();
        for (const line of text.split('\n')) {
          const example = /\$ (svc .*)$/.exec(line)?.[1];
          if (example !== undefined) lines.push(example.replace(/\s+#.*$/, ''));
        }
        walk(sub);
      }
    };
    walk(program);
    return lines;
  }

  it('use ids of the forms the commands print (the forms openapi.json gives), or a prefix and …', () => {
    const schemas = (
      JSON.parse(readFileSync(path.join(repoRoot, 'openapi.json'), 'utf8')) as {
        components: { schemas: Record<string, { properties: { id: { pattern?: string; description?: string } } }> };
      }
    ).components.schemas;
    /** The form of an id: its pattern, or "prefix_ and 22 base64url characters." as a pattern. */
    const form = (schema: string): { re: RegExp; placeholder: string | null } => {
      const id = schemas[schema]!.properties.id;
      if (id.pattern) {
        const prefix = /^\^([a-z]+_)/.exec(id.pattern)?.[1] ?? null;
        return { re: new RegExp(id.pattern), placeholder: prefix && `${prefix}…` };
      }
      const prefix = /^([a-z]+_) and 22 base64url characters/.exec(id.description ?? '')![1]!;
      return { re: new RegExp(`^${prefix}[A-Za-z0-9_-]{22}$`), placeholder: `${prefix}…` };
    };
    const rules: Array<{ command: RegExp; id: RegExp; schema: string }> = [
      { command: /^svc monitor /, id: /(?:watch (?:check|rm|remove)|--watch) (\S+)/g, schema: 'Watch' },
      { command: /^svc owner /, id: /--watch (\S+)/g, schema: 'ProjectWatch' },
      { command: /^svc owner /, id: /--project (\S+)/g, schema: 'Project' },
      { command: /^svc owner /, id: /--tenant (\S+)/g, schema: 'Tenant' },
      { command: /^svc owner keys /, id: /--key (\S+)/g, schema: 'ApiKeyMetadata' },
    ];
    const lines = exampleLines();
    expect(lines.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    let checked = 0;
    for (const line of lines) {
      for (const rule of rules) {
        if (!rule.command.test(line)) continue;
        const { re, placeholder } = form(rule.schema);
        for (const m of line.matchAll(rule.id)) {
          checked += 1;
          if (!re.test(m[1]!) && m[1] !== placeholder) wrong.push(`${line}  (${m[1]} is not a ${rule.schema} id: ${re})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(wrong).toEqual([]);
  });
});

describe('version', () => {
  it('svc version, --version and -V print one line whose first word is the version', async () => {
    const resolver = JSON.parse((await svcIn(['resolve', ED25519_DID, '--json', '--no-store'])).stdout).resolver as { name: string; version: string };
    const expected = `${pkg.version} (resolver ${resolver.name}/${resolver.version}, node ${process.version})`;
    for (const args of [['version'], ['--version'], ['-V']]) {
      const r = await svcIn(args);
      expect(r).toMatchObject({ exitCode: 0, stderr: '' });
      expect(r.stdout.trimEnd()).toBe(expected);
      expect(r.stdout.split(' ')[0]).toBe(pkg.version);
    }
  });

  it('svc version --json prints an object', async () => {
    const r = await svcIn(['version', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ version: pkg.version, resolver: { name: 'svc', version: pkg.version }, node: process.version });
  });
});

describe('svc serve that cannot listen', () => {
  let busy: Server;
  let port: number;
  // No setting that weakens a default, so the start-up prints no relaxation line before the error.
  const env = { ...cleanEnv({ SVC_DELEGATION_ROOTS: ED25519_DID }), NODE_EXTRA_CA_CERTS: undefined };

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  });

  it('a port in use: a plain message, exit 4', async () => {
    const r = await svc(['serve', '--port', String(port), '--memory'], env);
    expectError(r, 4, 'LISTEN_FAILED', 'stop what holds it, or choose another --port (0 picks a free one)');
    expect(r.stderr).toContain(`svc: LISTEN_FAILED: cannot listen on 127.0.0.1:${port}: the port is in use\n`);
  });

  it('a host name that does not resolve: a usage error, exit 2', async () => {
    const r = await svc(['serve', '--host', 'nohost.invalid', '--port', '0', '--memory'], env);
    expectError(r, 2, 'USAGE_ERROR', "see 'svc serve --help'", /cannot listen on nohost\.invalid:0: the host name nohost\.invalid does not resolve/);
  });

  it('svc serve --help documents its exit codes', async () => {
    const r = await svc(['serve', '--help']);
    expect(r.stdout).toMatch(/Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT; 2 [^;]*does not resolve[^;]*; 4 cannot listen/);
  });
});

describe('a reader that stops early (broken pipe)', () => {
  /** `svc … | reader` through a real shell pipe; bash's pipefail reports svc's own exit code. */
  async function piped(args: string[], reader: string): Promise<Run> {
    const quoted = [process.execPath, svcBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const r = await execa('bash', ['-c', `set -o pipefail; ${quoted} | ${reader}`], { reject: false, env: cleanEnv(), cwd: repoRoot, timeout: 20_000 });
    return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  }

  for (const args of [
    ['verify-credential', '--help'],
    ['resolve', ED25519_DID],
    ['completion', 'bash'],
    ['help', 'environment'],
  ]) {
    it(`svc ${args.join(' ')} ends quietly with its own exit code`, async () => {
      // head -1 reads one line and leaves; `true` reads nothing, so svc always writes into a closed pipe.
      for (const reader of ['head -1', 'true']) {
        const r = await piped(args, reader);
        expect(r.stderr, reader).toBe('');
        expect(r.exitCode, reader).toBe(0);
      }
      expect((await piped(args, 'head -1')).stdout.split('\n')).toHaveLength(1);
    });
  }

  it('a failed check still exits 1 when the reader has gone', async () => {
    const r = await piped(['resolve', OFF_CURVE_DID], 'true');
    expect(r).toMatchObject({ exitCode: 1, stderr: '' });
  });
});

describe('svc help environment', () => {
  /** Every SVC_ name the source reads or mentions (the build-time __SVC_VERSION__ is not a variable). */
  function svcNamesInSource(): Set<string> {
    const names = new Set<string>();
    const walk = (d: string): void => {
      for (const entry of readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && full !== path.join(repoRoot, 'src/cli/cmdutil/environment.ts')) {
          for (const m of readFileSync(full, 'utf8').matchAll(/(?<![A-Za-z0-9_])SVC_[A-Z0-9_]*[A-Z0-9]/g)) names.add(m[0]);
        }
      }
    };
    walk(path.join(repoRoot, 'src'));
    return names;
  }

  it('every SVC_ variable in src/ is in the table, and every SVC_ entry of the table is read somewhere', () => {
    const inSource = svcNamesInSource();
    expect(inSource.size).toBeGreaterThan(10);
    const documented = new Set(ENVIRONMENT.map((v) => v.name));
    expect([...inSource].filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => name.startsWith('SVC_') && !inSource.has(name))).toEqual([]);
    expect(new Set(ENVIRONMENT.map((v) => v.name)).size).toBe(ENVIRONMENT.length);
  });

  it("the daemon's documented defaults are the ones it uses", () => {
    const defaults: Record<string, number> = {
      SVC_RATE_LIMIT_PER_MIN: DEFAULT_LIMITS.directPerMinute,
      SVC_REQUEST_TIMEOUT_MS: DEFAULT_LIMITS.requestTimeoutMs,
      SVC_MAX_CONCURRENCY: DEFAULT_LIMITS.maxConcurrency,
      SVC_DRAIN_MS: DEFAULT_LIMITS.drainMs,
      SVC_DRAIN_NOTICE: DEFAULT_LIMITS.drainNoticeMs / 1000,
      SVC_REGISTRATIONS_PER_CLIENT: DEFAULT_LIMITS.registrationsPerClient,
      SVC_MAX_OBSERVATIONS: DEFAULT_LIMITS.maxObservations,
      SVC_MAX_MCP_OBSERVATIONS: DEFAULT_LIMITS.maxMcpObservations,
      SVC_CLAIM_PENDING_PER_CLIENT: DEFAULT_LIMITS.claimChallengesPerClient,
      SVC_CLAIM_PENDING_PER_DID: DEFAULT_LIMITS.claimChallengesPerDid,
      SVC_SIGN_IN_PENDING_PER_CLIENT: DEFAULT_LIMITS.signInChallengesPerClient,
      SVC_SIGN_IN_PENDING_PER_DID: DEFAULT_LIMITS.signInChallengesPerDid,
      SVC_GATEWAY_RATE_LIMIT_PER_MIN: DEFAULT_LIMITS.gatewayPerMinute,
    };
    for (const [name, value] of Object.entries(defaults)) expect(ENVIRONMENT.find((v) => v.name === name)?.default, name).toBe(String(value));
    expect(ENVIRONMENT.find((v) => v.name === 'SVC_TLS_EXPIRY_DAYS')?.default).toBe(DEFAULT_LIMITS.tlsExpiryDays.join(','));
  });

  it('prints every variable of the table with its description and default, wrapped to the width, and the standard ones svc honours', async () => {
    const r = await svcIn(['help', 'environment']);
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    for (const v of ENVIRONMENT) {
      // The entry: its name line and the continuation lines indented under the text.
      const start = lines.findIndex((line) => new RegExp(`^ {2}${v.name} +\\S`).test(line));
      expect(start, v.name).toBeGreaterThanOrEqual(0);
      const column = lines[start]!.length - lines[start]!.slice(2 + v.name.length).trimStart().length;
      let end = start + 1;
      while (end < lines.length && /^ +\S/.test(lines[end]!) && lines[end]!.length - lines[end]!.trimStart().length === column) end += 1;
      const entry = lines
        .slice(start, end)
        .map((line) => line.trim())
        .join(' ')
        .replace(/\s+/g, ' ');
      expect(entry).toBe(`${v.name} ${v.description} (default: ${v.default})`.replace(/\s+/g, ' '));
    }
    const wide = await svcIn(['help', 'environment'], cleanEnv({ COLUMNS: '200' }));
    for (const v of ENVIRONMENT) expect(wide.stdout).toContain(`${v.description} (default: ${v.default})`);
    for (const name of ['NO_COLOR', 'FORCE_COLOR', 'TERM', 'XDG_STATE_HOME', 'NODE_EXTRA_CA_CERTS', 'SVC_EGRESS_ALLOW', 'SVC_TRUST_PROXY']) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    }
  });
});

describe('completions offer files where a command takes a file', () => {
  let work: string;

  beforeAll(() => {
    work = path.join(dir, 'completion-cwd');
    mkdirSync(path.join(work, 'keys'), { recursive: true });
    for (const name of ['credential.json', 'policy.json', 'with space.jwt']) writeFileSync(path.join(work, name), '{}');
  });

  /** What bash's completion function offers for a command line whose last word is being completed. */
  async function complete(words: string[]): Promise<string[]> {
    const script = `
source ${JSON.stringify(path.join(repoRoot, 'completions/svc.bash'))}
COMP_WORDS=(${words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')})
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
COMP_LINE="\${COMP_WORDS[*]}"
COMP_POINT=\${#COMP_LINE}
_svc svc "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await execa('bash', ['--norc', '--noprofile', '-c', script], { cwd: work, reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    return String(r.stdout)
      .split('\n')
      .filter((l) => l !== '');
  }

  it('bash: svc verify-credential <TAB> offers the files of the directory, names with spaces intact', async () => {
    expect((await complete(['svc', 'verify-credential', ''])).sort()).toEqual(['credential.json', 'keys', 'policy.json', 'with space.jwt']);
    expect(await complete(['svc', 'verify-credential', 'cre'])).toEqual(['credential.json']);
    expect(await complete(['svc', 'verify-credential', '--json', 'with'])).toEqual(['with space.jwt']);
  });

  it('bash: file options (--policy, --db, --key, --chain, --out) offer files; other values and arguments do not', async () => {
    expect(await complete(['svc', 'evaluate-policy', ED25519_DID, '--policy', 'pol'])).toEqual(['policy.json']);
    expect(await complete(['svc', 'evaluate-policy', ED25519_DID, '--policy', '=', 'pol'])).toEqual(['policy.json']);
    expect(await complete(['svc', 'resolve', ED25519_DID, '--db', 'cr'])).toEqual(['credential.json']);
    expect(await complete(['svc', 'delegate', '--key', 'k'])).toEqual(['keys']);
    expect(await complete(['svc', 'authorize', '--chain', 'w'])).toEqual(['with space.jwt']);
    expect(await complete(['svc', 'keygen', '--out', 'k'])).toEqual(['keys']);
    expect(await complete(['svc', 'backup', 'p'])).toEqual(['policy.json']);
    // A DID and a free option value are not files.
    expect(await complete(['svc', 'resolve', 'cr'])).toEqual([]);
    expect(await complete(['svc', 'verify-credential', '--audience', 'cr'])).toEqual([]);
  });

  it('bash: options, choices and help topics still complete', async () => {
    expect(await complete(['svc', 'verify-credential', '--js'])).toEqual(['--jsonld', '--json']);
    expect(await complete(['svc', 'verify-jws', '--js'])).toEqual(['--json']);
    expect(await complete(['svc', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete(['svc', 'help', 'env'])).toEqual(['environment']);
    expect(await complete(['svc', 'ver'])).toEqual(expect.arrayContaining(['version', 'verify-credential', 'verify-jws']));
  });

  it('zsh and fish mark the same arguments and options as files', async () => {
    const zsh = readFileSync(path.join(repoRoot, 'completions/_svc'), 'utf8');
    /** The _arguments of one command, up to its `;;`. */
    const zshCase = (name: string) => {
      const start = zsh.indexOf(`\n      ${name})\n`);
      expect(start).toBeGreaterThan(0);
      return zsh.slice(start, zsh.indexOf('\n        ;;', start));
    };
    expect(zshCase('verify-credential')).toContain(`'1:file:_files'`);
    expect(zshCase('evaluate-policy')).toMatch(/--policy'\[[^\n]*\]:value:_files'/);
    expect(zshCase('resolve')).toContain(`'1:did: '`);
    const fish = readFileSync(path.join(repoRoot, 'completions/svc.fish'), 'utf8');
    expect(fish).toContain("complete -c svc -n '__fish_seen_subcommand_from verify-credential' -F\n");
    expect(fish).toMatch(/__fish_seen_subcommand_from evaluate-policy' -l policy -r -F /);
    expect(fish).toMatch(/^complete -c svc -f$/m);
  });

  it('every option whose value is a <file> or a <path> is marked as a file in the command tree', () => {
    const program = buildProgram({ stdout: process.stdout, stderr: process.stderr, env: {} }, () => {});
    const unmarked: string[] = [];
    for (const cmd of program.commands) {
      for (const option of cmd.options) {
        if (!/<(file|path)>/.test(option.flags)) continue;
        const info = describeTree(program)
          .commands.find((c) => c.name === cmd.name())!
          .options.find((o) => o.flags.includes(option.long!))!;
        if (info.value?.kind !== 'file') unmarked.push(`${cmd.name()} ${option.flags}`);
      }
    }
    expect(unmarked).toEqual([]);
    // A mark on a name the command does not have is refused at once.
    expect(() => completeFiles(program.commands[0]!, '--no-such-option')).toThrow(/no option or argument --no-such-option/);
  });
});

describe('the man page', () => {
  const committed = () => readFileSync(path.join(repoRoot, 'man/svc.1'), 'utf8');

  it('man/svc.1 is the page generated from the command tree (npm run man)', async () => {
    const generated = await execa(process.execPath, ['--input-type=module', '-e', "process.stdout.write((await import('./dist/cli.js')).manPage())"], {
      cwd: repoRoot,
      stripFinalNewline: false,
    });
    expect(committed()).toBe(generated.stdout);
    expect(pkg.scripts['man']).toContain('manPage()');
  });

  it('has the sections, every command, every variable and every exit code', () => {
    const page = committed();
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'ENVIRONMENT', '"EXIT STATUS"', 'FILES', '"SEE ALSO"']) {
      expect(page).toMatch(new RegExp(`^\\.SH ${section}$`, 'm'));
    }
    const program = buildProgram({ stdout: process.stdout, stderr: process.stderr, env: {} }, () => {});
    for (const c of describeTree(program).commands) expect(page).toContain(`\n.SS "svc ${c.name.replace(/-/g, '\\-')} `);
    for (const v of ENVIRONMENT) expect(page).toContain(`.B ${v.name.replace(/-/g, '\\-')}\n`);
    for (const code of ['0', '1', '2', '3', '4', '130']) expect(page).toContain(`.TP\n.B ${code}\n`);
    expect(page).toMatch(/\\fB\\-\\-policy\\fR \\fI<file>\\fR/);
  });

  it('renders without a warning', async () => {
    const groff = await execa('groff', ['-man', '-Tutf8', '-ww', path.join(repoRoot, 'man/svc.1')], { reject: false });
    expect(groff.exitCode).toBe(0);
    expect(groff.stderr).toBe('');
    // Bold and underline are overstruck (c\bc); read the text without them.
    expect(groff.stdout.replace(/.\u0008/g, '')).toMatch(/EXIT STATUS/);
    const man = await execa('man', ['--warnings', '-l', path.join(repoRoot, 'man/svc.1')], {
      reject: false,
      env: { MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
    });
    expect(man.stderr).toBe('');
    expect(man.stdout.replace(/.\u0008/g, '')).toMatch(/svc help environment/);
  });

  it('ships with the package', () => {
    // A list: npm links only a list's pages into <prefix>/share/man on a global install (cli-package.e2e.test.ts).
    expect(pkg.man).toEqual(['./man/svc.1']);
    expect(pkg.files).toContain('man');
  });
});
