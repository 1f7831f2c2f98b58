import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANSI_COLOR, assertBuilt, cleanEnv, FORBID_INK, repoRoot, svc, svcIn, svcInTty } from '../support/cli.js';
import { ED25519_DID, OFF_CURVE_DID } from '../support/dids.js';

const ED25519 = ED25519_DID;
const OFF_CURVE_JWK = OFF_CURVE_DID;
const BLS_G2 =
  'did:key:zUC7K4ndUaGZgV7Cp2yJy6JtMoUHY6u7tkcSYUvPrEidqBmLCTLmi6d5WvwnUqejscAkERJ3bfjEiSYtdPkRSE8kSa11hFBr4sTgnbZ95SJj19PN2jdvJjyzpSZgxkyyxNnBNnY';
const PRIVATE_JWK = `did:jwk:${Buffer.from(
  JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A' }),
).toString('base64url')}`;

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

beforeAll(() => {
  assertBuilt();
});

describe('svc resolve --json', () => {
  it('prints exactly the EnrichedResolution and exits 0 for a valid did:key', async () => {
    const r = await svcIn(['resolve', ED25519, '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const result = JSON.parse(r.stdout);
    expect(result.did).toBe(ED25519);
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.dimensions.map((d: { id: string }) => d.id)).toEqual(['integrity', 'keys', 'control', 'origin', 'transport', 'history', 'organization']);
    expect(result.resolver).toEqual({ name: 'svc', version: pkg.version });
    expect(result.cached).toBe(false);
  });

  it('accepts a fully percent-encoded DID and decodes it exactly once', async () => {
    const r = await svcIn(['resolve', encodeURIComponent(ED25519), '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).did).toBe(ED25519);
  });

  it('exits 4 with an INVALID_DID problem for not-a-did', async () => {
    const r = await svcIn(['resolve', 'not-a-did', '--json']);
    expect(r.exitCode).toBe(4);
    const problem = JSON.parse(r.stdout);
    expect(problem).toMatchObject({ code: 'INVALID_DID', status: 400, type: 'https://www.w3.org/ns/did#INVALID_DID', title: 'Invalid DID' });
    expect(problem.detail).toMatch(/did:/);
    // The error style: the reason on one line, then the hint (the stages are in the JSON).
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: INVALID_DID: /), "  hint: see 'svc resolve --help'"]);
  });

  it('answers METHOD_NOT_SUPPORTED (501) for did:example with the failing syntax.parse stage', async () => {
    const r = await svcIn(['resolve', 'did:example:123', '--json']);
    expect(r.exitCode).toBe(4);
    const problem = JSON.parse(r.stdout);
    expect(problem.code).toBe('METHOD_NOT_SUPPORTED');
    expect(problem.status).toBe(501);
    expect(problem.trace).toHaveLength(1);
    expect(problem.trace[0]).toMatchObject({ stage: 'syntax.parse', status: 'FAIL' });
  });

  it('answers hostile and oversized input with a one-line INVALID_DID, never echoing control codes', async () => {
    const hostile = 'did:\u001b[31mevil\u0007:x';
    for (const args of [
      ['resolve', hostile, '--json'],
      ['resolve', hostile],
    ]) {
      const r = await svcIn(args);
      expect(r.exitCode).toBe(4);
      expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
      expect(r.stderr).toMatch(/INVALID_DID/);
    }
    const json = await svcIn(['resolve', hostile, '--json']);
    expect(JSON.parse(json.stdout).code).toBe('INVALID_DID');
    const huge = await svcIn(['resolve', `did:key:z${'1'.repeat(10_000)}`, '--json']);
    expect(huge.exitCode).toBe(4);
    expect(JSON.parse(huge.stdout)).toMatchObject({ code: 'INVALID_DID', detail: expect.stringMatching(/longer than 8192/) });
  });

  it('refuses a did:jwk with private key material (exit 4, INVALID_DID)', async () => {
    const r = await svcIn(['resolve', PRIVATE_JWK, '--json']);
    expect(r.exitCode).toBe(4);
    const problem = JSON.parse(r.stdout);
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toMatch(/private key material/);
    expect(r.stdout).not.toContain('nWGxne'); // the private scalar is never echoed
    expect(r.stderr).not.toContain('nWGxne');
  });

  it('exits 1 when a key is invalid (a failed check is a result)', async () => {
    const r = await svcIn(['resolve', OFF_CURVE_JWK, '--json']);
    expect(r.exitCode).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
    expect(result.evidence.keys[0].status).toBe('INVALID_KEY');
  });

  it('exits 3 when a key type is unsupported, and 1 with --strict', async () => {
    const r = await svcIn(['resolve', BLS_G2, '--json']);
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stdout).evidence.keys[0].status).toBe('UNSUPPORTED_KEY');
    const strict = await svcIn(['resolve', BLS_G2, '--json', '--strict']);
    expect(strict.exitCode).toBe(1);
  });
});

describe('usage', () => {
  it('exits 2 with a one-line message for an unknown flag', async () => {
    const r = await svcIn(['resolve', ED25519, '--bogus']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')[0]).toMatch(/unknown option '--bogus'/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('exits 2 for a missing argument, an unknown command and a bare invocation', async () => {
    expect((await svcIn(['resolve'])).exitCode).toBe(2);
    expect((await svcIn(['frobnicate'])).exitCode).toBe(2);
    expect((await svcIn([])).exitCode).toBe(2);
  });

  it('prints the version as the first word', async () => {
    const r = await svcIn(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split(' ')[0]).toBe(pkg.version);
  });

  it('documents the exit codes in --help', async () => {
    const r = await svcIn(['--help']);
    expect(r.exitCode).toBe(0);
    for (const code of ['0 ', '1 ', '2 ', '3 ', '4 ', '130 ']) expect(r.stdout).toMatch(new RegExp(`^\\s+${code}`, 'm'));
    expect(r.stdout).toMatch(/resolve/);
    const sub = await svcIn(['resolve', '--help']);
    expect(sub.exitCode).toBe(0);
    expect(sub.stdout).toMatch(/--json/);
  });
});

describe('did:webvh version options', () => {
  /** A usage error: exit 2, nothing on stdout (not even with --json), `svc: USAGE_ERROR: …` and the hint on stderr, no stack. */
  function expectUsageError(r: { exitCode: number; stdout: string; stderr: string }, pattern: RegExp): void {
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^svc: USAGE_ERROR: /);
    expect(lines[0]).toMatch(pattern);
    expect(lines[1]).toBe("  hint: see 'svc resolve --help'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }

  it('refuses a --version-number that is not a positive whole number (exit 2)', async () => {
    for (const value of ['0', '-1', '1.5', 'abc', '1e3', '']) {
      const r = await svcIn(['resolve', ED25519, '--version-number', value, '--json']);
      expectUsageError(r, /--version-number must be a positive whole number/);
      expect(r.stderr).toContain(`"${value}"`);
    }
    expectUsageError(await svcIn(['resolve', ED25519, '--version-number=-1']), /--version-number/);
  });

  it('refuses a --version-time that is not an RFC 3339 date-time with an offset (exit 2)', async () => {
    for (const value of ['yesterday', '2025-01-01', '2025-01-01T00:00:00', '2025-02-30T00:00:00Z', '1735689600']) {
      expectUsageError(await svcIn(['resolve', ED25519, '--version-time', value]), /--version-time must be an RFC 3339 date-time with an offset/);
    }
  });

  it('never echoes control characters from a bad value', async () => {
    const r = await svcIn(['resolve', ED25519, '--version-time', 'x\u001b[2J\u0007']);
    expectUsageError(r, /--version-time/);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('refuses an empty --version-id (exit 2)', async () => {
    expectUsageError(await svcIn(['resolve', ED25519, '--version-id', '']), /--version-id must not be empty/);
  });

  it('checks the values before the DID: a bad value is a usage error even for an invalid DID', async () => {
    expectUsageError(await svcIn(['resolve', 'not-a-did', '--version-number', '0']), /--version-number/);
  });

  it('answers INVALID_OPTIONS (exit 2: an option that does not apply) for a method without versions', async () => {
    for (const args of [
      ['--version-number', '1'],
      ['--version-time', '2025-01-01T00:00:00Z'],
      ['--version-id', '1-QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE'],
      ['--version-number', '2', '--version-time', '2025-01-01T00:00:00+02:00'],
    ]) {
      const r = await svcIn(['resolve', ED25519, ...args, '--json']);
      expect(r.exitCode).toBe(2);
      const problem = JSON.parse(r.stdout);
      expect(problem.code).toBe('INVALID_OPTIONS');
      expect(problem.trace.at(-1)).toMatchObject({ stage: 'syntax.parse', status: 'FAIL' });
      expect(r.stderr).toMatch(/^svc: INVALID_OPTIONS: /);
    }
  });

  it('lists the options and a did:webvh example in --help', async () => {
    const r = await svcIn(['resolve', '--help']);
    expect(r.exitCode).toBe(0);
    for (const flag of ['--version-id <id>', '--version-time <time>', '--version-number <n>']) expect(r.stdout).toContain(flag);
    expect(r.stdout).toMatch(/\$ svc resolve did:webvh:\S+ --version-number 1/);
  });
});

describe('human output', () => {
  it('prints a plain-text dossier when piped, without colour', async () => {
    const r = await svcIn(['resolve', ED25519]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Confirmed/);
    expect(r.stdout).toMatch(/Not confirmed/);
    expect(r.stdout).toMatch(/Key material/);
    expect(r.stdout).not.toMatch(ANSI_COLOR);
  });

  it('colours piped output under FORCE_COLOR, unless NO_COLOR or --no-color', async () => {
    expect((await svcIn(['resolve', ED25519], cleanEnv({ FORCE_COLOR: '1' }))).stdout).toMatch(ANSI_COLOR);
    expect((await svcIn(['resolve', ED25519], cleanEnv({ FORCE_COLOR: '1', NO_COLOR: '1' }))).stdout).not.toMatch(ANSI_COLOR);
    expect((await svcIn(['resolve', ED25519, '--no-color'], cleanEnv({ FORCE_COLOR: '1' }))).stdout).not.toMatch(ANSI_COLOR);
  });

  it('renders the coloured dossier on a terminal, and honours NO_COLOR there', async () => {
    const r = await svcInTty(['resolve', ED25519]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.match(/Resolved a self-certifying did:key/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/Confirmed/);
    expect(r.stdout).toMatch(/╭/); // the ink verdict box, not the text dossier
    expect(r.stdout).toMatch(ANSI_COLOR);
    expect(r.stdout).not.toContain('\u001b[2J'); // never clears the user's screen or scrollback
    const plain = await svcInTty(['resolve', ED25519], cleanEnv({ NO_COLOR: '1' }));
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toMatch(/Resolved a self-certifying did:key/);
    expect(plain.stdout).not.toMatch(ANSI_COLOR);
  });

  it('falls back to the text dossier on a terminal that reports no size', async () => {
    const r = await svcInTty(['resolve', ED25519], cleanEnv(), { rows: 0, cols: 0 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.match(/Resolved a self-certifying did:key/g)).toHaveLength(1);
    expect(r.stdout).not.toMatch(/╭/);
    expect(r.stdout).not.toContain('\u001b[2J');
  });

  it('never loads ink or React on the --json, piped and --quiet paths, only on a terminal', async () => {
    for (const args of [['--json'], [], ['--quiet']]) {
      const r = await svc(['resolve', ED25519, ...args], cleanEnv(), FORBID_INK);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    const json = await svcInTty(['resolve', ED25519, '--json'], cleanEnv(), undefined, FORBID_INK);
    expect(json.exitCode).toBe(0);
    // Control: the terminal dossier does import ink, so the guard really fires.
    const tty = await svcInTty(['resolve', ED25519], cleanEnv(), undefined, FORBID_INK);
    expect(tty.exitCode).toBe(4);
    expect(tty.stdout).toMatch(/forbidden import: (ink|react)/);
  });

  it('prints no report with --quiet but keeps the exit code, and still the error of a problem', async () => {
    const ok = await svcIn(['resolve', ED25519, '--quiet']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout + ok.stderr).toBe('');
    const bad = await svcIn(['resolve', 'not-a-did', '--quiet']);
    expect(bad.exitCode).toBe(4);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^svc: INVALID_DID: /);
  });

  it('explains a problem on stderr in one line plus the failing stage', async () => {
    const r = await svcIn(['resolve', 'did:example:123']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/METHOD_NOT_SUPPORTED/);
    expect(r.stderr).toMatch(/syntax\.parse/);
  });
});

describe('svc completion', () => {
  for (const [shell, file] of [
    ['bash', 'svc.bash'],
    ['zsh', '_svc'],
    ['fish', 'svc.fish'],
  ] as const) {
    it(`prints the ${shell} script, identical to completions/${file}`, async () => {
      const r = await svcIn(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/resolve/);
      expect(r.stdout).toMatch(/--json/);
      expect(`${r.stdout}\n`).toBe(readFileSync(path.join(repoRoot, 'completions', file), 'utf8'));
    });
  }

  it('rejects an unknown shell as a usage error', async () => {
    const r = await svcIn(['completion', 'tcsh']);
    expect(r.exitCode).toBe(2);
  });
});
