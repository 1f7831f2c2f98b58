/**
 * Kept did:webvh logs from the command line (svcIn, a real loopback HTTPS host): `svc resolve`
 * keeps the log in its database and, once the host rewrote entry 3, reports the rewrite side by
 * side with exit 1; `svc history --log` still prints the original, which `svc resolve --log`
 * verifies again from the file alone; none kept is NOT_FOUND, exit 4.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, parseCliError, svcIn } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { generateTestKey, type TestKey } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

let host: DidWebHost;
let dir: string;
let caFile: string;
let db: string;

beforeAll(async () => {
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-kept-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);
  db = path.join(dir, 'svc.db');
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, SVC_EGRESS_ALLOW: '127.0.0.0/8' });

function logOf(key: TestKey, n: number, variant?: number): WebvhTestLog {
  const log = createWebvhLog({ key, domain: `localhost%3A${host.server.port}` });
  for (let i = 2; i <= n; i++)
    log.append({ state: (d) => ({ ...d, alsoKnownAs: [i === variant ? `https://example.com/rewritten-${i}` : `https://example.com/v${i}`] }) });
  return log;
}

function publish(log: WebvhTestLog): void {
  host.server.route('/.well-known/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
  host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
}

describe('svc resolve, svc history --log: a rewritten did:webvh log', () => {
  it('keeps, catches the rewrite, prints the kept log, which verifies again', async () => {
    const key = generateTestKey('EdDSA');
    const original = logOf(key, 5);
    publish(original);
    const first = await svcIn(['resolve', original.did, '--db', db], env());
    expect(first.stderr).toBe('');
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain('Kept: 5 entries now kept, to compare with later logs');

    const rewritten = logOf(key, 5, 3);
    publish(rewritten);
    const caught = await svcIn(['resolve', original.did, '--db', db], { ...env(), COLUMNS: '200' });
    expect(caught.exitCode).toBe(1);
    expect(caught.stdout).toContain('Verifiable history  FAILED');
    expect(caught.stdout).toContain('The log was rewritten at version 3');
    expect(caught.stdout).toMatch(new RegExp(`versionId +${original.entries[2]!['versionId']} +${rewritten.entries[2]!['versionId']}`));

    const printed = await svcIn(['history', '--log', original.did, '--db', db], env());
    expect(printed.stderr).toBe('');
    expect(printed.exitCode).toBe(0);
    // The runner strips one final newline, as execa does.
    expect(`${printed.stdout}\n`).toBe(original.text());

    const file = path.join(dir, 'kept.jsonl');
    writeFileSync(file, `${printed.stdout}\n`);
    const again = await svcIn(['resolve', original.did, '--log', file, '--json'], env());
    expect(again.exitCode).toBe(0);
    const result = JSON.parse(again.stdout);
    expect(result.dimensions.find((d: { id: string }) => d.id === 'history').state).toBe('ESTABLISHED');
    expect(result.didDocumentMetadata.versionId).toBe(original.entries[4]!['versionId']);
  });

  it('none kept: NOT_FOUND, exit 4', async () => {
    const other = logOf(generateTestKey('EdDSA'), 1);
    const r = await svcIn(['history', '--log', other.did, '--db', db], env());
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(parseCliError(r.stderr).code).toBe('NOT_FOUND');
  });
});
