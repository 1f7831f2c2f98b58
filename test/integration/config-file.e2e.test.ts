/**
 * The built binary finds svc.config.json as users meet it: ./svc.config.json in the working
 * directory (which svcIn cannot change), $XDG_CONFIG_HOME/svc/config.json before it, and a real
 * `svc serve` process started there runs with the file's settings.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, svcBin } from '../support/cli.js';

let work: string;
let xdg: string;

beforeAll(() => {
  assertBuilt();
  work = mkdtempSync(path.join(tmpdir(), 'svc-config-e2e-'));
  xdg = path.join(work, 'xdg');
  mkdirSync(path.join(xdg, 'svc'), { recursive: true });
  writeFileSync(path.join(work, 'svc.config.json'), JSON.stringify({ egress: { allow: ['10.98.0.0/16'] }, cache: { ttl: 90 } }));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const env = () => cleanEnv({ XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: path.join(work, 'state') });

describe('svc.config.json in the working directory', () => {
  it('is found there; one in $XDG_CONFIG_HOME/svc comes first', async () => {
    const here = await execa(process.execPath, [svcBin, 'config', 'path', '--json'], { cwd: work, env: env(), reject: false });
    expect(here.exitCode).toBe(0);
    expect(JSON.parse(here.stdout)).toMatchObject({ file: path.join(work, 'svc.config.json'), by: './svc.config.json' });

    const user = path.join(xdg, 'svc', 'config.json');
    writeFileSync(user, JSON.stringify({ cache: { ttl: 30 } }));
    try {
      const shown = await execa(process.execPath, [svcBin, 'config', 'show', '--json'], { cwd: work, env: env(), reject: false });
      const parsed = JSON.parse(shown.stdout) as { file: string; settings: Array<{ key: string; value: string | null; origin: string }> };
      expect(parsed.file).toBe(user);
      expect(parsed.settings.find((s) => s.key === 'cache.ttl')).toMatchObject({ value: '30', origin: `file ${user}` });
      // Only the first file found is read: the working directory's allowance is not.
      expect(parsed.settings.find((s) => s.key === 'egress.allow')).toMatchObject({ value: null, origin: 'default' });
    } finally {
      rmSync(user);
    }
  });

  it('svc serve started there announces the allowance the file gives', async () => {
    const child = spawn(process.execPath, [svcBin, 'serve', '--host', '127.0.0.1', '--port', '0', '--memory'], {
      cwd: work,
      env: { ...process.env, ...Object.fromEntries(Object.entries(env()).filter((e): e is [string, string] => e[1] !== undefined)), NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8');
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: string) => {
          err += chunk;
          if (/listening on http/.test(err)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`svc serve exited (${code}):\n${err}`)));
      });
      expect(err).toMatch(/10\.98\.0\.0\/16/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
  });
});
