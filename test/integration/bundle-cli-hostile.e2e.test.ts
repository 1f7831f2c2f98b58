/**
 * `svc verify-bundle` through the built binary, on hostile files: what is refused and with which
 * exit code (a file that is not a bundle 4, one over 16 MiB 4 before it is read, a command line
 * that is wrong 2), each as one escaped error line, never a stack trace. (The cases in process,
 * and what each refusal says: bundle-hostile.test.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBundle } from '../../src/core/bundle/format.js';
import { asRecordedResult } from '../../src/core/bundle/kinds.js';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { makeBundle } from '../../src/core/bundle/verify.js';
import { canonicalize } from '../../src/core/canonical.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { assertBuilt, cleanEnv, parseCliError, svc, type Run } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';

let host: DidWebHost;
let dir: string;
let good: string;
const file = (name: string) => path.join(dir, name);
const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: file('ca.pem') });

beforeAll(async () => {
  assertBuilt();
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-bundle-cli-'));
  writeFileSync(file('ca.pem'), host.ca.certPem);
  const did = host.did('alice');
  host.publish(did);
  const runtime = host.runtime();
  const observedAt = runtime.clock.now();
  const { runtime: recording, recorder } = recordingRuntime(runtime);
  const result = await resolve(did, recording);
  good = new TextDecoder().decode(
    encodeBundle(makeBundle({ command: { kind: 'resolve', subject: did, options: {} }, observedAt, recorder, result: asRecordedResult(result) })),
  );
  writeFileSync(file('good.bundle.json'), good);
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

function edited(name: string, edit: (b: any) => void): string {
  const copy = JSON.parse(good);
  edit(copy);
  writeFileSync(file(name), `${canonicalize(copy)}\n`);
  return file(name);
}

/** A refusal: the exit code, nothing on stdout, one error block with the code, its detail matching. */
function refused(r: Run, exitCode: number, code: string, detail: RegExp): void {
  expect({ exitCode: r.exitCode, stdout: r.stdout }, r.stderr).toEqual({ exitCode, stdout: '' });
  const error = parseCliError(r.stderr);
  expect(error.code).toBe(code);
  expect(error.detail).toMatch(detail);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('svc verify-bundle on hostile files', () => {
  it('the bundle as written verifies: exit 0', async () => {
    const r = await svc(['verify-bundle', file('good.bundle.json'), '--json'], env());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).outcome).toBe('VERIFIED');
  });

  it('a 17 MiB file is PAYLOAD_TOO_LARGE, exit 4, refused on its size', async () => {
    const big = file('big.bundle.json');
    writeFileSync(big, '');
    truncateSync(big, 17 * 1024 * 1024);
    refused(await svc(['verify-bundle', big], env()), 4, 'PAYLOAD_TOO_LARGE', /is 17825792 bytes; svc reads at most 16777216 bytes \(16 MiB\) of a bundle/);
  });

  it('not a bundle (a JSON array, empty, a newer version): INVALID_BUNDLE, exit 4', async () => {
    writeFileSync(file('array.json'), '[]\n');
    refused(await svc(['verify-bundle', file('array.json')], env()), 4, 'INVALID_BUNDLE', /array\.json: not a JSON object/);
    writeFileSync(file('empty.json'), '');
    refused(await svc(['verify-bundle', file('empty.json')], env()), 4, 'INVALID_BUNDLE', /empty\.json is empty \(0 bytes\)/);
    const json = await svc(['verify-bundle', file('empty.json'), '--json'], env());
    expect(json.exitCode).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ code: 'INVALID_BUNDLE', status: 422 });
    const newer = edited('v2.bundle.json', (b) => {
      b.version = 2;
    });
    refused(await svc(['verify-bundle', newer], env()), 4, 'INVALID_BUNDLE', /is format version 2; this svc reads version 1 — verify it with a newer svc/);
  });

  it('a refusal quoting the bundle shows its escape sequences escaped', async () => {
    const hostile = edited('escape.bundle.json', (b) => {
      b['\u001b[2J\u001b]0;owned\u0007'] = true;
    });
    refused(await svc(['verify-bundle', hostile], env()), 4, 'INVALID_BUNDLE', /unknown member "\\x1b\[2J\\x1b\]0;owned\\x07"/);
  });

  it('a command line that is wrong is exit 2: no such file, a directory, a --now that is not a time', async () => {
    refused(await svc(['verify-bundle', file('missing.json')], env()), 2, 'USAGE_ERROR', /missing\.json: no such file/);
    mkdirSync(file('a-directory'));
    refused(await svc(['verify-bundle', file('a-directory')], env()), 2, 'USAGE_ERROR', /a-directory: not a file/);
    refused(await svc(['verify-bundle', file('good.bundle.json'), '--now', 'tomorrow'], env()), 2, 'USAGE_ERROR', /--now tomorrow is not an RFC 3339 time/);
  });
});
