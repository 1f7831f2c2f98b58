/**
 * `svc sign-credential`, `svc sign-presentation` and `svc key show` as the built binary runs them,
 * in the order a newcomer types them: `svc keygen`, sign, `svc verify-credential` — exit codes,
 * what goes to stdout (the credential only) and stderr (notes, one-line errors), files created
 * anew with mode 0600, key files refused when open to group or others. `svc key show` prints
 * what `svc keygen` printed for the same key. No output ever holds the private key.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, svc, type Run } from '../support/cli.js';

let dir: string;
/** The `d` of every key made here: never in any output. */
const secrets: string[] = [];
const runs: Run[] = [];

async function run(args: string[]): Promise<Run> {
  const r = await svc(args, cleanEnv());
  runs.push(r);
  return r;
}

const at = (name: string): string => path.join(dir, name);

interface Keygen {
  didKey: string;
  didJwk: string;
  curve: string;
  out: string;
}

async function keygen(name: string, curve = 'Ed25519'): Promise<Keygen> {
  const r = await run(['keygen', '--curve', curve, '--out', at(name), '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  secrets.push(JSON.parse(readFileSync(at(name), 'utf8')).d as string);
  return JSON.parse(r.stdout) as Keygen;
}

const CLAIMS = {
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  type: ['VerifiableCredential'],
  credentialSubject: { id: 'did:example:alice', name: 'Alice' },
};

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-sign-'));
  writeFileSync(at('claims.json'), JSON.stringify(CLAIMS, null, 2));
});

afterAll(() => {
  // However each test went: no run printed a private key.
  for (const r of runs) for (const d of secrets) expect(`${r.stdout}${r.stderr}`).not.toContain(d);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('svc key show', () => {
  for (const curve of ['Ed25519', 'P-256', 'secp256k1']) {
    it(`${curve}: the did:key and did:jwk svc keygen printed for the key, from the private and from the public JWK`, async () => {
      const made = await keygen(`show-${curve}.jwk`, curve);
      const shown = await run(['key', 'show', made.out, '--json']);
      expect(shown.exitCode, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toEqual({ didKey: made.didKey, didJwk: made.didJwk, curve, file: made.out, private: true });
      const { d: _d, ...publicJwk } = JSON.parse(readFileSync(made.out, 'utf8')) as Record<string, unknown>;
      writeFileSync(at(`public-${curve}.jwk`), JSON.stringify(publicJwk));
      const fromPublic = await run(['key', 'show', at(`public-${curve}.jwk`), '--json']);
      expect(JSON.parse(fromPublic.stdout)).toMatchObject({ didKey: made.didKey, didJwk: made.didJwk, private: false });
      const text = await run(['key', 'show', made.out]);
      expect(text.stdout).toContain(made.didKey);
      expect(text.stdout).toContain(made.didJwk);
    });
  }

  it('warns about a private key file open to others; refuses a file that holds no key, in one line, exit 2', async () => {
    const made = await keygen('show-exposed.jwk');
    chmodSync(made.out, 0o644);
    const exposed = await run(['key', 'show', made.out, '--json']);
    expect(exposed.exitCode).toBe(0);
    expect(exposed.stderr).toMatch(/^svc: warning: the private key file .* is open to group or others \(mode 0644\); restrict it with: chmod 600 /);
    writeFileSync(at('not-a-key.json'), '{"kty":"RSA","n":"sXch","e":"AQAB"}');
    const bad = await run(['key', 'show', at('not-a-key.json')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('svc: INVALID_OPTIONS: The key file holds no usable key: RSA keys are not supported.');
    expect(bad.stdout).toBe('');
  });
});

describe('svc keygen, svc sign-credential, svc verify-credential', () => {
  it('the pair: claims signed as vc+jwt (the default) by a new key verify; the issuer is filled and said so', async () => {
    const made = await keygen('issuer.jwk');
    const signed = await run(['sign-credential', at('claims.json'), '--key', made.out]);
    expect(signed.exitCode, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/^ey[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signed.stderr).toBe(`svc: The input names no issuer: it is issued by ${made.didKey} (the key's did:key).`);
    writeFileSync(at('cred.jwt'), `${signed.stdout}\n`);
    const verified = await run(['verify-credential', at('cred.jwt'), '--json']);
    expect(verified.exitCode, verified.stdout).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ status: 'VALID', format: 'VC_JOSE_COSE', issuer: made.didKey });
  });

  it('--format di-eddsa-jcs --out: a new file of mode 0600 that verify-credential accepts; an existing --out is never overwritten', async () => {
    const made = await keygen('di.jwk');
    const out = at('cred.di.json');
    const signed = await run(['sign-credential', at('claims.json'), '--key', made.out, '--format', 'di-eddsa-jcs', '--out', out]);
    expect(signed.exitCode, signed.stderr).toBe(0);
    expect(signed.stdout).toBe('');
    expect(signed.stderr).toContain(`svc: written to ${out}`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(out, 'utf8')).proof).toMatchObject({ cryptosuite: 'eddsa-jcs-2022', proofPurpose: 'assertionMethod' });
    expect((await run(['verify-credential', out, '--quiet'])).exitCode).toBe(0);
    const before = readFileSync(out, 'utf8');
    const again = await run(['sign-credential', at('claims.json'), '--key', made.out, '--out', out]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr.split('\n')[0]).toBe(`svc: USAGE_ERROR: cannot write to ${out}: it already exists; svc sign-credential never overwrites a file`);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('refuses a key file open to group or others (as SVC_SIGNING_KEY), before anything is signed', async () => {
    const made = await keygen('exposed.jwk');
    chmodSync(made.out, 0o640);
    const r = await run(['sign-credential', at('claims.json'), '--key', made.out]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      `svc: USAGE_ERROR: --key: the private key file ${made.out} is open to group or others (mode 0640); restrict it with: chmod 600 ${made.out}`,
    );
  });

  it('input that cannot be signed exits 4 (INVALID_REQUEST); a key that cannot sign it exits 2 (INVALID_OPTIONS)', async () => {
    const made = await keygen('errors.jwk');
    writeFileSync(at('duplicate.json'), '{"type":["VerifiableCredential"],"type":[]}');
    const duplicate = await run(['sign-credential', at('duplicate.json'), '--key', made.out]);
    expect(duplicate.exitCode).toBe(4);
    expect(duplicate.stderr.split('\n')[0]).toMatch(/^svc: INVALID_REQUEST: The credential file has a duplicate member "type"/);
    const p256 = await keygen('errors-p256.jwk', 'P-256');
    const wrongCurve = await run(['sign-credential', at('claims.json'), '--key', p256.out, '--format', 'di-eddsa-jcs']);
    expect(wrongCurve.exitCode).toBe(2);
    expect(wrongCurve.stderr.split('\n')[0]).toBe(
      'svc: INVALID_OPTIONS: --format di-eddsa-jcs signs with an Ed25519 key; this is a P-256 key: give --format di-ecdsa-jcs (ecdsa-jcs-2019).',
    );
  });
});

describe('svc sign-credential --format sd-jwt, then svc sign-presentation', () => {
  it('an SD-JWT VC bound to the holder key, presented with a KB-JWT, verifies with the audience; without --challenge: exit 2', async () => {
    const issuer = await keygen('sd-issuer.jwk', 'P-256');
    const holder = await keygen('sd-holder.jwk');
    writeFileSync(at('pid.json'), JSON.stringify({ vct: 'https://credentials.example/pid', given_name: 'Erika', birthdate: '1963-08-12' }));
    const issued = await run([
      'sign-credential',
      at('pid.json'),
      '--key',
      issuer.out,
      '--format',
      'sd-jwt',
      '--disclose',
      '/given_name',
      '--holder-key',
      holder.out,
    ]);
    expect(issued.exitCode, issued.stderr).toBe(0);
    expect(issued.stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~[A-Za-z0-9_-]+~$/);
    writeFileSync(at('pid.sd-jwt'), issued.stdout);
    const noChallenge = await run(['sign-presentation', at('pid.sd-jwt'), '--key', holder.out]);
    expect(noChallenge.exitCode).toBe(2);
    expect(noChallenge.stderr.split('\n')[0]).toMatch(/^svc: USAGE_ERROR: --challenge is required/);
    const presented = await run(['sign-presentation', at('pid.sd-jwt'), '--key', holder.out, '--challenge', 'n-42', '--domain', 'https://verifier.example']);
    expect(presented.exitCode, presented.stderr).toBe(0);
    expect(presented.stdout.startsWith(issued.stdout)).toBe(true);
    writeFileSync(at('presented.sd-jwt'), presented.stdout);
    const verified = await run(['verify-credential', at('presented.sd-jwt'), '--audience', 'https://verifier.example', '--json']);
    expect(verified.exitCode, verified.stdout).toBe(0);
    expect(JSON.parse(verified.stdout).disclosures.keyBinding).toMatchObject({ status: 'PASS', nonce: 'n-42', audience: 'https://verifier.example' });
    // Another holder's key cannot make the KB-JWT.
    const stranger = await keygen('sd-stranger.jwk');
    const wrong = await run(['sign-presentation', at('pid.sd-jwt'), '--key', stranger.out, '--challenge', 'n-42', '--domain', 'https://verifier.example']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr.split('\n')[0]).toMatch(/^svc: INVALID_OPTIONS: Credential 1 \(an SD-JWT VC\) binds another key/);
  });

  it('a vp+jwt of two credentials, to stdout; a credential without proof exits 4', async () => {
    const holder = await keygen('vp-holder.jwk');
    const issuer = await keygen('vp-issuer.jwk');
    for (const [format, out] of [
      ['vc+jwt', 'vp-cred.jwt'],
      ['di-eddsa-jcs', 'vp-cred.json'],
    ]) {
      expect((await run(['sign-credential', at('claims.json'), '--key', issuer.out, '--format', format!, '--out', at(out!)])).exitCode).toBe(0);
    }
    const vp = await run([
      'sign-presentation',
      at('vp-cred.jwt'),
      at('vp-cred.json'),
      '--key',
      holder.out,
      '--challenge',
      'c-1',
      '--domain',
      'https://verifier.example',
    ]);
    expect(vp.exitCode, vp.stderr).toBe(0);
    const payload = JSON.parse(Buffer.from(vp.stdout.split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload).toMatchObject({ holder: holder.didKey, nonce: 'c-1', aud: 'https://verifier.example', type: ['VerifiablePresentation'] });
    expect(payload.verifiableCredential).toHaveLength(2);
    const unsigned = await run(['sign-presentation', at('claims.json'), '--key', holder.out, '--challenge', 'c-1']);
    expect(unsigned.exitCode).toBe(4);
    expect(unsigned.stderr.split('\n')[0]).toBe('svc: INVALID_REQUEST: Credential 1 has no proof: sign it first (svc sign-credential).');
  });
});
