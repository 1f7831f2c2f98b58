/**
 * `svc delegate`, `svc verify-delegation` and `svc authorize` in the test process (svcIn; the
 * standard-input runs as processes of the built binary): receipts minted by `svc delegate` with
 * did:key issuers (Ed25519 keys from node:crypto, JWK files of mode 0600) verify with
 * `svc verify-delegation` and with jose directly; `svc authorize` gates tools. Exit codes are the
 * contract: 0 VALID/ALLOW; 1 INVALID, MALFORMED or DENY; 3 INDETERMINATE (DENY on an INDETERMINATE
 * chain), and VALID/ALLOW without a trusted root (no --trusted-root, SVC_DELEGATION_ROOTS or
 * --any-root: the gates fail closed); 4 no answer; 2 usage or unreadable file. No output of any run
 * may carry the private key.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { compactVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/https-server.js';
import { ANSI_COLOR, assertBuilt, cleanEnv, repoRoot, svcIn, svcBin, type Run, expectUsageError, onlyJson } from '../support/cli.js';
import { multikey, splitMultikey } from '../support/codec.js';

interface Principal {
  did: string;
  mk: string;
  keyFile: string;
  /** The private JWK's file content and its `d`: neither may appear in any output. */
  keyText: string;
  d: string;
}

let dir: string;
let alice: Principal;
let bob: Principal;
let agent: Principal;
let mallory: Principal;
/** Every run of this file, checked at the end for the private keys. */
const runs: Run[] = [];

function file(name: string, content: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
}

function principal(name: string): Principal {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as { x: string; d: string };
  const mk = multikey(0xed, Buffer.from(jwk.x, 'base64url'));
  const keyText = `${JSON.stringify(jwk)}\n`;
  const keyFile = path.join(dir, `${name}.jwk`);
  writeFileSync(keyFile, keyText, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  return { did: `did:key:${mk}`, mk, keyFile, keyText, d: jwk.d };
}

async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const r = await svcIn(args, cleanEnv(env));
  runs.push(r);
  return r;
}

async function runWithStdin(args: string[], input: string): Promise<Run> {
  const r = await execa(process.execPath, [svcBin, ...args], { reject: false, env: cleanEnv(), extendEnv: true, cwd: repoRoot, timeout: 20_000, input });
  const out = { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  runs.push(out);
  return out;
}

async function delegate(from: Principal, to: Principal | string, caps: string[], extra: string[] = []): Promise<Run> {
  return run(['delegate', '--key', from.keyFile, '--iss', from.did, '--aud', typeof to === 'string' ? to : to.did, '--cap', ...caps, ...extra]);
}

/** jose, with the public key taken from the issuer's did:key. */
async function joseVerify(receipt: string, issuerDid: string) {
  const { code, key } = splitMultikey(issuerDid.slice('did:key:'.length));
  expect(code).toBe(0xed);
  const publicKey = await importJWK({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') }, 'EdDSA');
  const { payload, protectedHeader } = await compactVerify(receipt, publicKey, { algorithms: ['EdDSA'] });
  return { header: protectedHeader, payload: JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown> };
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'ascii').digest('hex');

/** root (alice → bob: payments:*, read) and leaf (bob → agent: payments:charge), minted in beforeAll. */
let root: string;
let leaf: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-delegation-'));
  alice = principal('alice');
  bob = principal('bob');
  agent = principal('agent');
  mallory = principal('mallory');

  const r0 = await delegate(alice, bob, ['payments:*', 'read'], ['--ttl', '1d']);
  expect(r0.exitCode, r0.stderr).toBe(0);
  root = r0.stdout.trim();
  files['root'] = file('root.jwt', r0.stdout);
  const r1 = await delegate(bob, agent, ['payments:charge'], ['--ttl', '1h', '--parent', files['root']]);
  expect(r1.exitCode, r1.stderr).toBe(0);
  leaf = r1.stdout.trim();
  files['leaf'] = file('leaf.jwt', r1.stdout);
  files['chain.txt'] = file('chain.txt', `${root}\n\n${leaf}\n`);
  files['chain.json'] = file('chain.json', JSON.stringify([root, leaf], null, 2));
  files['body.json'] = file('body.json', JSON.stringify({ chain: [root, leaf], trustedRoots: [] }));
  files['empty.txt'] = file('empty.txt', '\n\n');
  files['bad.json'] = file('bad.json', '[ "unterminated');
  mkdirSync(path.join(dir, 'a-directory'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('svc delegate', () => {
  it('prints one receipt line that jose verifies with the did:key of the issuer', async () => {
    expect(root).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const { header, payload } = await joseVerify(root, alice.did);
    expect(header).toEqual({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: `${alice.did}#${alice.mk}` });
    expect(payload).toMatchObject({ iss: alice.did, aud: bob.did, cap: ['payments:*', 'read'] });
    expect((payload['exp'] as number) - (payload['nbf'] as number)).toBe(86400);
    expect(Math.abs((payload['nbf'] as number) - Date.now() / 1000)).toBeLessThan(120);
    expect(payload['prf']).toBeUndefined();
    expect(typeof payload['jti']).toBe('string');
  });

  it('chains a child onto --parent: prf is the SHA-256 of the parent, and jose verifies it', async () => {
    const { header, payload } = await joseVerify(leaf, bob.did);
    expect(header['kid']).toBe(`${bob.did}#${bob.mk}`);
    expect(payload).toMatchObject({ iss: bob.did, aud: agent.did, cap: ['payments:charge'], prf: sha256Hex(root) });
    expect((payload['exp'] as number) - (payload['nbf'] as number)).toBe(3600);
  });

  it('--json prints {receipt, digest, header, payload}', async () => {
    const r = await delegate(alice, bob, ['read'], ['--ttl', '90', '--jti', 'fixed-id', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = onlyJson(r);
    expect(Object.keys(out).sort()).toEqual(['digest', 'header', 'payload', 'receipt']);
    expect(out.digest).toBe(sha256Hex(out.receipt));
    expect(out.header).toEqual({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: `${alice.did}#${alice.mk}` });
    expect(out.payload).toMatchObject({ iss: alice.did, aud: bob.did, cap: ['read'], jti: 'fixed-id' });
    expect(out.payload.exp - out.payload.nbf).toBe(90);
    expect((await joseVerify(out.receipt, alice.did)).payload).toEqual(out.payload);
  });

  it('takes the last receipt of a chain file as the parent, and the key from standard input', async () => {
    const r = await runWithStdin(
      ['delegate', '--key', '-', '--iss', agent.did, '--aud', mallory.did, '--cap', 'PAYMENTS:CHARGE', '--ttl', '15m', '--parent', files['chain.json']!],
      agent.keyText,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await joseVerify(r.stdout.trim(), agent.did)).payload['prf']).toBe(sha256Hex(leaf));
  });

  // Everything svc delegate reads is an option's value: a refusal is INVALID_OPTIONS, exit 2.
  it('refuses a child outliving its parent (exit 2) and suggests a shorter --ttl', async () => {
    const r = await delegate(bob, agent, ['payments:charge'], ['--ttl', '2d', '--parent', files['root']!]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/outlive/);
    expect(r.stderr).toMatch(/--ttl/);
    const j = await delegate(bob, agent, ['payments:charge'], ['--ttl', '2d', '--parent', files['root']!, '--json']);
    expect(j.exitCode).toBe(2);
    expect(onlyJson(j)).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });
  });

  it('refuses an uncovered capability, an issuer that is not the parent audience and a foreign key (exit 2)', async () => {
    const uncovered = await delegate(bob, agent, ['refund'], ['--parent', files['root']!]);
    expect(uncovered.exitCode).toBe(2);
    expect(uncovered.stderr).toMatch(/does not grant "refund"/);
    const notAudience = await delegate(mallory, agent, ['payments:charge'], ['--parent', files['root']!]);
    expect(notAudience.exitCode).toBe(2);
    expect(notAudience.stderr).toContain(`not to ${mallory.did}`);
    const foreign = await run(['delegate', '--key', mallory.keyFile, '--iss', alice.did, '--aud', bob.did, '--cap', 'read']);
    expect(foreign.exitCode).toBe(2);
    expect(foreign.stderr).toMatch(/not the key of/);
    const web = await run(['delegate', '--key', alice.keyFile, '--iss', 'did:web:example.com', '--aud', bob.did, '--cap', 'read']);
    expect(web.exitCode).toBe(2);
    expect(web.stderr).toMatch(/--kid is required for did:web issuers/);
  });

  it('refuses a public-only key file (exit 2) without printing it', async () => {
    const publicOnly = file('public.jwk', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(splitMultikey(alice.mk).key).toString('base64url') }));
    chmodSync(publicOnly, 0o600);
    const r = await run(['delegate', '--key', publicOnly, '--iss', alice.did, '--aud', bob.did, '--cap', 'read']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/no private member "d"/);
    const notJson = file('not-json.jwk', `${alice.keyText.slice(0, -3)}\n`);
    chmodSync(notJson, 0o600);
    const bad = await run(['delegate', '--key', notJson, '--iss', alice.did, '--aud', bob.did, '--cap', 'read']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not valid JSON/);
  });

  it('warns about a key file readable by group or others, and still mints', async () => {
    const exposed = file('exposed.jwk', alice.keyText);
    chmodSync(exposed, 0o644);
    const r = await run(['delegate', '--key', exposed, '--iss', alice.did, '--aud', bob.did, '--cap', 'read']);
    expect(r.exitCode, r.stderr).toBe(0);
    if (process.platform !== 'win32') expect(r.stderr).toMatch(/warning: the private key file .* is readable by group or others \(mode 0644\)/);
    await joseVerify(r.stdout.trim(), alice.did);
  });

  it('usage errors exit 2: missing or unreadable files, a bad --ttl, missing options', async () => {
    expectUsageError(await delegate({ ...alice, keyFile: path.join(dir, 'missing.jwk') }, bob, ['read']), /cannot read the private key file .*no such file/);
    expectUsageError(await delegate(alice, bob, ['read'], ['--parent', path.join(dir, 'a-directory')]), /is not a file/);
    expectUsageError(await delegate(alice, bob, ['read'], ['--ttl', '1w']), /--ttl must be a duration/);
    expectUsageError(await delegate(alice, bob, ['read'], ['--ttl', '367d']), /at most 366d/);
    expectUsageError(await delegate(alice, bob, ['read'], ['--ttl', '0']), /longer than zero/);
    expectUsageError(await run(['delegate', '--key', alice.keyFile, '--iss', alice.did, '--aud', bob.did]), /--cap/);
    expectUsageError(await delegate(alice, bob, ['read'], ['--key', '-', '--parent', '-']), /cannot both read standard input/);
  });
});

describe('svc verify-delegation', () => {
  it('a chain minted by svc delegate (one receipt per line) → exit 0 and a readable report', async () => {
    const r = await run(['verify-delegation', files['chain.txt']!, '--trusted-root', alice.did]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^VALID {2}/);
    expect(r.stdout).toContain('Link 0');
    expect(r.stdout).toContain('Link 1');
    expect(r.stdout).toMatch(/✓ PASS +signature/);
    expect(r.stdout).toContain('payments:charge');
    expect(r.stdout).not.toMatch(ANSI_COLOR);
  });

  it('--json prints the DelegationChainResult; a JSON array, a request body and standard input work alike', async () => {
    const r = await run(['verify-delegation', files['chain.json']!, '--any-root', '--json']);
    expect(r.exitCode).toBe(0);
    const result = onlyJson(r);
    expect(Object.keys(result).sort()).toEqual(
      ['checks', 'effectiveCapabilities', 'format', 'headline', 'leaf', 'limitations', 'links', 'notAfter', 'root', 'status', 'trustedRoot'].sort(),
    );
    expect(result).toMatchObject({ status: 'VALID', root: alice.did, leaf: agent.did, effectiveCapabilities: ['payments:charge'], trustedRoot: null });
    expect(result.links).toHaveLength(2);
    expect(result.links[1].digest).toBe(sha256Hex(leaf));
    expect(result.links[0].digest).toBe(sha256Hex(root));
    expect((await run(['verify-delegation', files['body.json']!, '--any-root'])).exitCode).toBe(0);
    const stdin = await runWithStdin(['verify-delegation', '-', '--trusted-root', alice.did, '--json'], `${root}\n${leaf}\n`);
    expect(stdin.exitCode).toBe(0);
    expect(onlyJson(stdin).status).toBe('VALID');
  });

  it('a tampered receipt → exit 1 (INVALID)', async () => {
    const [h, , s] = leaf.split('.');
    const payload = JSON.parse(Buffer.from(leaf.split('.')[1]!, 'base64url').toString('utf8'));
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, cap: ['*'] })).toString('base64url')}.${s}`;
    const tampered = file('tampered.txt', `${root}\n${forged}\n`);
    const r = await run(['verify-delegation', tampered, '--json']);
    expect(r.exitCode).toBe(1);
    const result = onlyJson(r);
    expect(result.status).toBe('INVALID');
    expect(result.effectiveCapabilities).toEqual([]);
    expect(result.links[1].signatureValid).toBe(false);
    const auth = await run(['authorize', '--chain', tampered, '--tool', 'anything']);
    expect(auth.exitCode).toBe(1);
    expect(auth.stdout).toMatch(/^DENY/);
  });

  it('--trusted-root: listed → exit 0 with trustedRoot; another root → exit 1; not a DID → exit 2', async () => {
    const ok = await run(['verify-delegation', files['chain.txt']!, '--trusted-root', mallory.did, '--trusted-root', alice.did, '--json']);
    expect(ok.exitCode).toBe(0);
    expect(onlyJson(ok).trustedRoot).toBe(alice.did);
    const other = await run(['verify-delegation', files['chain.txt']!, '--trusted-root', mallory.did, '--json']);
    expect(other.exitCode).toBe(1);
    const result = onlyJson(other);
    expect(result.status).toBe('INVALID');
    expect(result.checks.find((c: { id: string }) => c.id === 'trustedRoot').status).toBe('FAIL');
    expectUsageError(await run(['verify-delegation', files['chain.txt']!, '--trusted-root', 'alice']), /--trusted-root must be a bare DID/);
  });

  it('an empty chain → exit 1 (MALFORMED, a failing depth check)', async () => {
    const r = await run(['verify-delegation', files['empty.txt']!, '--json']);
    expect(r.exitCode).toBe(1);
    const result = onlyJson(r);
    expect(result).toMatchObject({ status: 'MALFORMED', links: [], effectiveCapabilities: [] });
    expect(result.checks).toEqual([expect.objectContaining({ id: 'depth', status: 'FAIL' })]);
  });

  it('an issuer DID that does not resolve → exit 3 (INDETERMINATE); authorize DENY → 3', async () => {
    const web = `did:web:localhost%3A${await closedPort()}`;
    const minted = await run(['delegate', '--key', alice.keyFile, '--iss', web, '--kid', `${web}#key-1`, '--aud', bob.did, '--cap', 'read']);
    expect(minted.exitCode, minted.stderr).toBe(0);
    const chain = file('unresolvable.txt', minted.stdout);
    const r = await run(['verify-delegation', chain, '--egress-allow', '127.0.0.0/8', '--json']);
    expect(r.exitCode, r.stdout).toBe(3);
    expect(onlyJson(r).status).toBe('INDETERMINATE');
    const auth = await run(['authorize', '--chain', chain, '--tool', 'read', '--egress-allow', '127.0.0.0/8']);
    expect(auth.exitCode).toBe(3);
    expect(auth.stdout).toMatch(/^DENY/);
  });

  it('unreadable input → exit 2; JSON that does not parse → exit 4', async () => {
    expectUsageError(await run(['verify-delegation', path.join(dir, 'missing.txt')]), /cannot read the delegation chain .*no such file/);
    expectUsageError(await run(['verify-delegation', path.join(dir, 'a-directory')]), /is not a file/);
    expectUsageError(await run(['verify-delegation']), /missing required argument/);
    const bad = await run(['verify-delegation', files['bad.json']!, '--json']);
    expect(bad.exitCode).toBe(4);
    expect(onlyJson(bad).code).toBe('INVALID_REQUEST');
  });
});

describe('svc authorize', () => {
  it('ALLOW when a leaf capability grants the tool → exit 0', async () => {
    const r = await run(['authorize', '--chain', files['chain.txt']!, '--tool', 'payments:charge', '--trusted-root', alice.did]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^ALLOW {2}/);
    expect(r.stdout).toContain(agent.did);
    expect(r.stdout).toMatch(/chain +VALID/);
  });

  it('DENY (scope) → exit 1; payments:* does not grant refund but grants payments:refund', async () => {
    const scope = await run(['authorize', '--chain', files['chain.txt']!, '--tool', 'payments:refund']);
    expect(scope.exitCode).toBe(1);
    expect(scope.stdout).toMatch(/^DENY {2}/);
    const refund = await run(['authorize', '--chain', files['root']!, '--tool', 'refund', '--json']);
    expect(refund.exitCode).toBe(1);
    expect(onlyJson(refund).authorization).toMatchObject({ decision: 'DENY', authorized: false, agent: bob.did, tool: 'refund' });
    const prefixed = await run(['authorize', '--chain', files['root']!, '--tool', 'PAYMENTS:Refund', '--trusted-root', alice.did, '--json']);
    expect(prefixed.exitCode).toBe(0);
    expect(onlyJson(prefixed).authorization).toMatchObject({ decision: 'ALLOW', matchedCapability: 'payments:*', root: alice.did });
  });

  it('--json prints {authorization, chain}', async () => {
    const r = await run(['authorize', '--chain', files['chain.json']!, '--tool', 'payments:charge', '--trusted-root', alice.did, '--json']);
    expect(r.exitCode).toBe(0);
    const out = onlyJson(r);
    expect(Object.keys(out).sort()).toEqual(['authorization', 'chain']);
    expect(out.authorization).toMatchObject({
      agent: agent.did,
      tool: 'payments:charge',
      decision: 'ALLOW',
      authorized: true,
      matchedCapability: 'payments:charge',
      root: alice.did,
    });
    expect(out.authorization.expires).toBe(out.chain.notAfter);
    expect(out.chain.status).toBe('VALID');
    expect(out.chain.trustedRoot).toBe(alice.did);
  });

  it('a root outside --trusted-root → DENY, exit 1, the chain headline as the reason', async () => {
    const r = await run(['authorize', '--chain', files['chain.txt']!, '--tool', 'payments:charge', '--trusted-root', mallory.did, '--json']);
    expect(r.exitCode).toBe(1);
    const out = onlyJson(r);
    expect(out.chain.status).toBe('INVALID');
    expect(out.authorization).toMatchObject({ decision: 'DENY', reason: out.chain.headline });
  });

  it('usage errors exit 2: no --tool, an empty --tool, an unreadable chain', async () => {
    expectUsageError(await run(['authorize', '--chain', files['chain.txt']!]), /--tool/);
    expectUsageError(await run(['authorize', '--chain', files['chain.txt']!, '--tool', ' ']), /--tool must not be empty/);
    expectUsageError(await run(['authorize', '--chain', path.join(dir, 'missing.txt'), '--tool', 'x']), /no such file/);
  });
});

describe('without a trusted root the gates fail closed', () => {
  const NOTE = 'svc: needs attention: no trusted root was given; pass --trusted-root <did> or --any-root';
  const authorizeArgs = (...extra: string[]) => ['authorize', '--chain', files['chain.txt']!, '--tool', 'payments:charge', ...extra];

  it('authorize: ALLOW without a root exits 3 and says why on stderr; the JSON result is the one --any-root prints', async () => {
    const text = await run(authorizeArgs());
    expect(text.exitCode).toBe(3);
    expect(text.stdout).toMatch(/^ALLOW {2}/);
    expect(text.stderr).toBe(NOTE);
    const json = await run(authorizeArgs('--json'));
    expect(json.exitCode).toBe(3);
    expect(json.stderr).toBe(NOTE);
    const anyRoot = await run(authorizeArgs('--any-root', '--json'));
    expect({ exitCode: anyRoot.exitCode, stderr: anyRoot.stderr }).toEqual({ exitCode: 0, stderr: '' });
    // The result is unchanged: the same authorization and chain, the trustedRoot check a SKIP.
    const [without, withAny] = [onlyJson(json), onlyJson(anyRoot)];
    expect(Object.keys(without).sort()).toEqual(['authorization', 'chain']);
    expect(without.authorization).toEqual(withAny.authorization);
    expect(without.authorization).toMatchObject({ decision: 'ALLOW', authorized: true, root: alice.did });
    expect(without.chain.checks).toEqual(withAny.chain.checks);
    expect(without.chain.checks.find((c: { id: string }) => c.id === 'trustedRoot').status).toBe('SKIP');
    // --quiet hides the report, never the reason for the exit code.
    expect(await run(authorizeArgs('-q'))).toMatchObject({ exitCode: 3, stdout: '', stderr: NOTE });
  });

  it('authorize: a DENY stays 1 without a root (the note is printed all the same)', async () => {
    const deny = await run(['authorize', '--chain', files['chain.txt']!, '--tool', 'refund']);
    expect(deny.exitCode).toBe(1);
    expect(deny.stdout).toMatch(/^DENY {2}/);
    expect(deny.stderr).toBe(NOTE);
  });

  it('SVC_DELEGATION_ROOTS supplies the trusted roots: listed → 0, another root → DENY 1; --trusted-root takes precedence', async () => {
    const listed = await run(authorizeArgs('--json'), { SVC_DELEGATION_ROOTS: `${mallory.did}, ${alice.did}` });
    expect({ exitCode: listed.exitCode, stderr: listed.stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(onlyJson(listed).chain.trustedRoot).toBe(alice.did);
    const other = await run(authorizeArgs('--json'), { SVC_DELEGATION_ROOTS: mallory.did });
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toBe('');
    expect(onlyJson(other).chain.checks.find((c: { id: string }) => c.id === 'trustedRoot')).toMatchObject({ status: 'FAIL' });
    const flag = await run(authorizeArgs('--trusted-root', alice.did, '-q'), { SVC_DELEGATION_ROOTS: mallory.did });
    expect(flag.exitCode).toBe(0);
    // --any-root on purpose, whatever SVC_DELEGATION_ROOTS says.
    expect((await run(authorizeArgs('--any-root', '-q'), { SVC_DELEGATION_ROOTS: mallory.did })).exitCode).toBe(0);
    expectUsageError(await run(authorizeArgs(), { SVC_DELEGATION_ROOTS: 'alice' }), /^SVC_DELEGATION_ROOTS: /);
  });

  it('verify-delegation: VALID without a root exits 3 with the note; --any-root 0; SVC_DELEGATION_ROOTS 0 (or 1 when the root is not listed)', async () => {
    const without = await run(['verify-delegation', files['chain.txt']!, '--json']);
    expect(without.exitCode).toBe(3);
    expect(without.stderr).toBe(NOTE);
    expect(onlyJson(without)).toMatchObject({ status: 'VALID', trustedRoot: null });
    expect((await run(['verify-delegation', files['chain.txt']!, '--any-root'])).exitCode).toBe(0);
    const env = await run(['verify-delegation', files['chain.txt']!, '--json'], { SVC_DELEGATION_ROOTS: alice.did });
    expect({ exitCode: env.exitCode, stderr: env.stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(onlyJson(env).trustedRoot).toBe(alice.did);
    const notListed = await run(['verify-delegation', files['chain.txt']!, '--json'], { SVC_DELEGATION_ROOTS: mallory.did });
    expect(notListed.exitCode).toBe(1);
    expect(onlyJson(notListed).status).toBe('INVALID');
    // A failed chain stays 1 without a root.
    expect((await run(['verify-delegation', files['empty.txt']!])).exitCode).toBe(1);
  });

  it('verify-delegation --register without a root registers nothing (exit 3); with --any-root it registers', async () => {
    const db = path.join(dir, 'gate.db');
    const refused = await run(['verify-delegation', files['chain.txt']!, '--register', '--db', db, '--json']);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toBe(NOTE);
    expect(onlyJson(refused)).toEqual({
      result: expect.objectContaining({ status: 'VALID' }),
      registered: false,
      registrationReason:
        'No trusted root was given (--trusted-root or SVC_DELEGATION_ROOTS), so nothing was registered; pass --any-root to register a chain of any root.',
    });
    const none = await run(['verify-tool', '--agent', agent.did, '--tool', 'payments:charge', '--db', db, '-q']);
    expect(none.exitCode).toBe(1);
    const registered = await run(['verify-delegation', files['chain.txt']!, '--register', '--db', db, '--any-root', '--json']);
    expect(registered.exitCode, registered.stderr).toBe(0);
    expect(onlyJson(registered).registered).toBe(true);
    expect((await run(['verify-tool', '--agent', agent.did, '--tool', 'payments:charge', '--root', alice.did, '--db', db, '-q'])).exitCode).toBe(0);
  });

  it('--any-root beside --trusted-root is a usage error (exit 2); both commands document the rule', async () => {
    expectUsageError(await run(authorizeArgs('--any-root', '--trusted-root', alice.did)), /^--any-root and --trusted-root exclude each other/, 'authorize');
    expectUsageError(
      await run(['verify-delegation', files['chain.txt']!, '--trusted-root', alice.did, '--any-root']),
      /exclude each other/,
      'verify-delegation',
    );
    for (const command of ['authorize', 'verify-delegation']) {
      const help = await run([command, '--help']);
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain('--any-root');
      const flat = help.stdout.replace(/\s+/g, ' ');
      expect(flat).toContain('"needs attention: no trusted root was given; pass --trusted-root <did> or --any-root"');
      // Every example passes a root.
      const examples = help.stdout.split('\n').filter((l) => l.trimStart().startsWith('$ ') && l.includes(`svc ${command} `));
      expect(examples.length).toBeGreaterThanOrEqual(2);
      for (const example of examples) expect(example, example).toMatch(/--trusted-root|SVC_DELEGATION_ROOTS=|--any-root/);
    }
  });
});

describe('private keys', () => {
  it('never appear in any output of any run above', () => {
    expect(runs.length).toBeGreaterThan(30);
    for (const p of [alice, bob, agent, mallory]) {
      for (const r of runs) {
        expect(r.stdout).not.toContain(p.d);
        expect(r.stderr).not.toContain(p.d);
        expect(r.stdout).not.toContain(p.keyText.trim());
      }
    }
  });
});
