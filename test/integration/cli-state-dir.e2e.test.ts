/**
 * A state directory svc cannot use ($XDG_STATE_HOME under /proc, a regular file where the
 * directory should be, a directory without write permission), through the built binary:
 * `svc resolve` still answers with one warning line (recording is best-effort), `svc history`,
 * `svc diff` and `svc backup` end with one line and exit 4, and `svc serve` starts, says why its
 * database is unavailable and stops cleanly. Every run has a time limit: a spin (Node's
 * recursive mkdir loops forever under /proc) fails the test instead of hanging it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, repoRoot, svcBin } from '../support/cli.js';
import { ED25519_DID } from '../support/dids.js';

/** Long enough for a slow cold start, far shorter than the test's own limit: a hang shows as timedOut. */
const RUN_LIMIT_MS = 15_000;

const dir = mkdtempSync(path.join(tmpdir(), 'svc-state-dir-'));
// Traversable by the unprivileged user of the read-only case (mkdtemp makes it 0700).
chmodSync(dir, 0o755);
const readOnly = path.join(dir, 'read-only');
const regularFile = path.join(dir, 'a-file');

/**
 * How to run the CLI so that a 0555 directory really is read-only: directly, unless a write
 * probe shows that permissions do not bind (root); then as user nobody through setpriv when the
 * system has it. null: no way here, the case is skipped.
 */
function readOnlyRunner(): string[] | null {
  rmSync(readOnly, { recursive: true, force: true });
  spawnSync('mkdir', ['-m', '0555', readOnly]);
  try {
    writeFileSync(path.join(readOnly, 'probe'), '');
  } catch {
    return [];
  }
  rmSync(path.join(readOnly, 'probe'));
  const setpriv = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']);
  return setpriv.status === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : null;
}
const readOnlyPrefix = readOnlyRunner();

interface Case {
  name: string;
  /** XDG_STATE_HOME of the case. */
  state: string;
  /** Commands are prefixed with this (setpriv for the read-only case as root). */
  prefix: string[];
  /** The reason each message gives. */
  reason: RegExp;
}

const cases: Case[] = [
  {
    name: 'under /proc (a directory cannot be created there)',
    state: `/proc/svc-test-${process.pid}/state`,
    prefix: [],
    reason: /\/proc does not accept new directories/,
  },
  { name: 'a regular file in place of the directory', state: regularFile, prefix: [], reason: new RegExp(`${regularFile} is not a directory`) },
  { name: 'a read-only directory', state: readOnly, prefix: readOnlyPrefix ?? [], reason: /permission denied/ },
];

interface Run {
  exitCode: number | undefined;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

async function run(c: Case, args: string[]): Promise<Run> {
  const [command, ...rest] = [...c.prefix, process.execPath, svcBin, ...args];
  const r = await execa(command!, rest, {
    reject: false,
    env: cleanEnv({ XDG_STATE_HOME: c.state }),
    extendEnv: true,
    cwd: repoRoot,
    timeout: RUN_LIMIT_MS,
  });
  return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** stderr as lines, and no stack trace among them. */
function lines(stderr: string): string[] {
  const out = stderr.split('\n').filter(Boolean);
  expect(stderr).not.toMatch(/^\s+at /m);
  return out;
}

/** The one line of an error; what may follow it is only an indented hint. */
function errorLine(stderr: string): string {
  const [first = '', ...rest] = lines(stderr);
  for (const line of rest) expect(line).toMatch(/^\s+hint: /);
  return first;
}

beforeAll(() => {
  assertBuilt();
  writeFileSync(regularFile, 'not a directory\n');
});

afterAll(() => {
  chmodSync(readOnly, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

describe.each(cases)('a state directory that is $name', (c) => {
  const skip = c.state === readOnly && readOnlyPrefix === null;
  const directory = path.join(c.state, 'svc');
  const db = path.join(directory, 'svc.db');

  it.skipIf(skip)('svc resolve answers, with one warning naming the directory and why; the exit code is the resolution’s', async () => {
    const r = await run(c, ['resolve', ED25519_DID, '--json']);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).didDocument.id).toBe(ED25519_DID);
    const [warning, ...more] = lines(r.stderr);
    expect(more).toEqual([]);
    expect(warning).toContain(`svc: warning: the resolution was not recorded in ${db}: cannot create the directory ${directory}: `);
    expect(warning).toMatch(c.reason);
  });

  it.skipIf(skip)('svc history and svc diff end with a one-line error naming the directory and why, exit 4', async () => {
    for (const args of [
      ['history', ED25519_DID],
      ['diff', ED25519_DID],
      ['history', ED25519_DID, '--json'],
    ]) {
      const r = await run(c, args);
      expect(r.timedOut, args.join(' ')).toBe(false);
      expect(r.exitCode, args.join(' ')).toBe(4);
      if (args.includes('--json')) {
        // The problem goes to stdout as JSON, as for every --json failure.
        expect(JSON.stringify(JSON.parse(r.stdout))).toContain(directory);
        continue;
      }
      const line = errorLine(r.stderr);
      expect(line).toMatch(/^svc: /);
      expect(line).toContain(`cannot create the directory ${directory}: `);
      expect(line).toMatch(/kernel file system|is not a directory|permission denied/);
      expect(r.stdout).toBe('');
    }
  });

  it.skipIf(skip)('svc backup ends with a one-line error naming the database, exit 4', async () => {
    const r = await run(c, ['backup', path.join(dir, `backup-${cases.indexOf(c)}.db`)]);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(4);
    const line = errorLine(r.stderr);
    expect(line).toMatch(/^svc: /);
    expect(line).toContain(`no database at ${db}; nothing to back up`);
  });

  it.skipIf(skip)('svc serve starts, says why its database is unavailable (/ready 503), and stops cleanly', async () => {
    const [command, ...rest] = [...c.prefix, process.execPath, svcBin, 'serve', '--port', '0'];
    const child = execa(command!, rest, { reject: false, env: cleanEnv({ XDG_STATE_HOME: c.state }), extendEnv: true, cwd: repoRoot, timeout: RUN_LIMIT_MS });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      void child.then(() => reject(new Error(`svc serve exited before listening: ${stderr}`)));
    });
    expect(stderr).toMatch(new RegExp(`svc: warning: the database is unavailable \\(cannot create the directory ${directory}: [^)]*\\); /ready answers 503`));
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toContain(directory);
    // The daemon still resolves.
    expect((await fetch(`${url}/v1/fast-verify/did/${ED25519_DID}`)).status).toBe(200);
    child.kill('SIGTERM');
    const done = await child;
    expect(done.timedOut).toBe(false);
    expect(done.exitCode).toBe(0);
    expect(lines(stderr).filter((l) => / at |Error:/.test(l))).toEqual([]);
  });
});
