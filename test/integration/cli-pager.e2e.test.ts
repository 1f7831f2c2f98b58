/**
 * The pager of long terminal reports, through the built binary under a real
 * pseudo-terminal (util-linux `script`, svcInTty): a report taller than the screen goes to the
 * pager; --json, --no-pager, a pipe, a report that fits, and SVC_PAGER=cat do not. The pager is a
 * real program, a small node script named by SVC_PAGER (or PAGER) that records what it was given.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, svc, svcInTty } from '../support/cli.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
/** The did:key dossier is some 60 lines: taller than 20 rows, shorter than 200. */
const SHORT_SCREEN = { rows: 20, cols: 100 };
const TALL_SCREEN = { rows: 200, cols: 100 };

let dir: string;
let fakePager: string;
let runs = 0;

interface Recorded {
  args: string[];
  less: string | null;
  stdoutTTY: boolean;
  text: string;
}

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-pager-'));
  fakePager = path.join(dir, 'pager.mjs');
  // Reads the report to its end (as less does), records it, and exits with the status in FAKE_PAGER_EXIT.
  writeFileSync(
    fakePager,
    `import { writeFileSync } from 'node:fs';
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
writeFileSync(process.argv[2], JSON.stringify({ args: process.argv.slice(3), less: process.env.LESS ?? null, stdoutTTY: process.stdout.isTTY === true, text: Buffer.concat(chunks).toString('utf8') }));
process.exit(Number(process.env.FAKE_PAGER_EXIT ?? 0));
`,
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh record file and the pager command line that writes it. */
function pager(...args: string[]): { command: string; record: () => Recorded | null } {
  const file = path.join(dir, `record-${(runs += 1)}.json`);
  return {
    command: [process.execPath, fakePager, file, ...args].join(' '),
    record: () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Recorded) : null),
  };
}

const env = (extra: Record<string, string> = {}) => ({ ...cleanEnv(extra), PAGER: extra['PAGER'], SVC_PAGER: extra['SVC_PAGER'], LESS: undefined });

describe('the pager', () => {
  it('pages a report taller than the terminal: the whole dossier, colours kept, no cursor codes; the exit code is the command’s', async () => {
    const p = pager('--flag');
    const r = await svcInTty(['resolve', DID, '--no-store'], env({ SVC_PAGER: p.command, FAKE_PAGER_EXIT: '1' }), SHORT_SCREEN);
    expect(r.exitCode, r.stdout).toBe(0);
    const recorded = p.record();
    expect(recorded, 'the pager ran').not.toBeNull();
    expect(recorded!.args).toEqual(['--flag']);
    // The pager writes to the terminal itself.
    expect(recorded!.stdoutTTY).toBe(true);
    expect(recorded!.text).toContain(DID);
    expect(recorded!.text).toContain('Update authority');
    expect(recorded!.text).toMatch(/\u001b\[[0-9;]*m/);
    expect(recorded!.text).not.toMatch(/\u001b\[\?/);
    // svc printed none of it itself.
    expect(r.stdout).not.toContain('Update authority');
    // Only a `less` named without options gets LESS=FRX.
    expect(recorded!.less).toBeNull();
  });

  it('PAGER is the pager when SVC_PAGER is unset; SVC_PAGER wins over it', async () => {
    const viaPager = pager();
    await svcInTty(['resolve', DID, '--no-store'], env({ PAGER: viaPager.command }), SHORT_SCREEN);
    expect(viaPager.record()?.text).toContain(DID);
    const ours = pager();
    const theirs = pager();
    await svcInTty(['resolve', DID, '--no-store'], env({ SVC_PAGER: ours.command, PAGER: theirs.command }), SHORT_SCREEN);
    expect(ours.record()).not.toBeNull();
    expect(theirs.record()).toBeNull();
  });

  it('not with --json, --no-pager or --quiet, nor for a report that fits', async () => {
    const json = pager();
    const asJson = await svcInTty(['resolve', DID, '--no-store', '--json'], env({ SVC_PAGER: json.command }), SHORT_SCREEN);
    expect(json.record()).toBeNull();
    expect(asJson.stdout).toContain('"didDocument"');

    const off = pager();
    const noPager = await svcInTty(['resolve', DID, '--no-store', '--no-pager'], env({ SVC_PAGER: off.command }), SHORT_SCREEN);
    expect(off.record()).toBeNull();
    expect(noPager.exitCode).toBe(0);
    expect(noPager.stdout).toContain('Update authority');

    const quiet = pager();
    await svcInTty(['resolve', DID, '--no-store', '--quiet'], env({ SVC_PAGER: quiet.command }), SHORT_SCREEN);
    expect(quiet.record()).toBeNull();

    const fits = pager();
    const tall = await svcInTty(['resolve', DID, '--no-store'], env({ SVC_PAGER: fits.command }), TALL_SCREEN);
    expect(fits.record()).toBeNull();
    expect(tall.stdout).toContain('Update authority');
  });

  it('not into a pipe', async () => {
    const p = pager();
    const piped = await svc(['resolve', DID, '--no-store'], env({ SVC_PAGER: p.command, COLUMNS: '100', LINES: '20' }));
    expect(piped.exitCode).toBe(0);
    expect(p.record()).toBeNull();
    expect(piped.stdout).toContain('Update authority');
  });

  it('SVC_PAGER=cat means no pager; a pager that cannot start costs nothing', async () => {
    const cat = await svcInTty(['resolve', DID, '--no-store'], env({ SVC_PAGER: 'cat' }), SHORT_SCREEN);
    expect(cat.exitCode).toBe(0);
    expect(cat.stdout).toContain('Update authority');
    const missing = await svcInTty(['resolve', DID, '--no-store'], env({ SVC_PAGER: path.join(dir, 'no-such-pager') }), SHORT_SCREEN);
    expect(missing.exitCode).toBe(0);
    expect(missing.stdout).toContain('Update authority');
  });

  it('pages the other long reports too (svc history)', async () => {
    const state = { XDG_STATE_HOME: path.join(dir, 'state') };
    for (let i = 0; i < 8; i += 1) expect((await svc(['resolve', DID, '--quiet'], env(state))).exitCode).toBe(0);
    const p = pager();
    const r = await svcInTty(['history', DID], env({ ...state, SVC_PAGER: p.command }), { rows: 5, cols: 100 });
    expect(r.exitCode).toBe(0);
    expect(p.record()?.text).toContain(DID);
    const off = pager();
    await svcInTty(['history', DID, '--no-pager'], env({ ...state, SVC_PAGER: off.command }), { rows: 5, cols: 100 });
    expect(off.record()).toBeNull();
  });
});
