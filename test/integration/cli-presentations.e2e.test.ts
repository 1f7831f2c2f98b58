/**
 * `svc verify-presentation` as a verifier's gate runs it: the CLI in the test process (svcIn; the
 * standard-input run through the built binary), presentations and credentials made here with
 * test/support/signing.ts (node:crypto), held and issued by did:keys (resolved offline), one issuer
 * a did:web on a port where nothing listens. Exit codes are the contract: 0 VALID; 1 a check
 * failed; 3 INDETERMINATE; 2 usage or an unreadable file. The verifier's rules are the core's
 * (presentation tests); this is the command: its options reaching the verifier, --json, the text.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENTATION_CHECK_IDS } from '../../src/core/presentations/types.js';
import { closedPort } from '../support/https-server.js';
import { ANSI_COLOR, assertBuilt, cleanEnv, expectUsageError, onlyJson, repoRoot, svcBin, svcIn, type Run } from '../support/cli.js';
import { issueDi, jwtIssuer, peerEd25519Issuer, unsignedCredential as peerCredential } from '../support/peer-issuers.js';
import {
  CHALLENGE as PEER_CHALLENGE,
  DOMAIN as PEER_DOMAIN,
  envelopedCredential,
  issueSdJwtVc,
  peerHolder,
  signDiPresentation,
  unsignedPresentation,
} from '../support/peer-presentations.js';
import { generateTestKey, signEddsaJcs2022, signJws } from '../support/signing.js';

const VC2 = 'https://www.w3.org/ns/credentials/v2';
const CHALLENGE = 'f3e1-challenge';
const DOMAIN = 'verifier.example';

const issuerKey = generateTestKey('EdDSA');
const issuerDid = `did:key:${issuerKey.multikey}`;
const issuerVm = `${issuerDid}#${issuerKey.multikey}`;
const holderKey = generateTestKey('EdDSA');
const holderDid = `did:key:${holderKey.multikey}`;
const holderVm = `${holderDid}#${holderKey.multikey}`;
const sdIssuer = jwtIssuer('EdDSA', new Uint8Array(32).fill(51));

function unsigned(issuer = issuerDid, subject = holderDid): Record<string, unknown> {
  return {
    '@context': [VC2],
    type: ['VerifiableCredential', 'ExampleCredential'],
    issuer,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: subject, name: 'Alice' },
  };
}

const credential = signEddsaJcs2022(unsigned(), issuerKey, issuerVm);
/** A vc+jwt about the holder, enveloped as a VC 2.0 presentation carries it. */
const jwtCredential = {
  '@context': VC2,
  type: 'EnvelopedVerifiableCredential',
  id: `data:application/vc+jwt,${signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuerVm }, unsigned(), issuerKey)}`,
};

function presentation(credentials: unknown[], binding: Record<string, unknown> = { challenge: CHALLENGE, domain: DOMAIN }): Record<string, unknown> {
  return signEddsaJcs2022(
    { '@context': [VC2], type: ['VerifiablePresentation'], holder: holderDid, verifiableCredential: credentials },
    holderKey,
    holderVm,
    '2026-01-02T00:00:00Z',
    { proofPurpose: 'authentication', ...binding },
  );
}

let dir: string;
const files: Record<string, string> = {};

function write(name: string, content: string | Record<string, unknown>): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  files[name] = file;
  return file;
}

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-presentation-'));
  write('valid.json', presentation([credential, jwtCredential]));
  write('tampered.json', { ...presentation([credential]), holder: holderDid, type: ['VerifiablePresentation', 'Edited'] });
  const tamperedCredential = { ...credential, credentialSubject: { id: holderDid, name: 'Mallory' } };
  write('bad-credential.json', presentation([credential, tamperedCredential]));
  write('about-bob.json', presentation([signEddsaJcs2022(unsigned(issuerDid, 'did:example:bob'), issuerKey, issuerVm)]));
  const unreachable = `did:web:localhost%3A${await closedPort()}`;
  write('unreachable-issuer.json', presentation([signEddsaJcs2022(unsigned(unreachable), generateTestKey('EdDSA'), `${unreachable}#key-1`)]));
  // Peer-made (test/support/peer-presentations.ts): a Data Integrity credential and an SD-JWT VC whose
  // KB-JWT (nonce PEER_CHALLENGE, aud PEER_DOMAIN) is fresh now, in a presentation by their holder.
  const holder = await peerHolder(52);
  const diIssuer = await peerEd25519Issuer(53);
  const sdJwt = await issueSdJwtVc(sdIssuer, holder, { iat: new Date(Date.now() - 10_000).toISOString() });
  const di = await issueDi(peerCredential(diIssuer.did, { credentialSubject: { id: holder.did, name: 'Erika' } }), diIssuer);
  write('sd-jwt.json', await signDiPresentation(unsignedPresentation(holder.did, [di, envelopedCredential('application/dc+sd-jwt', sdJwt)]), holder));
  write('duplicate.json', JSON.stringify(presentation([credential])).replace('"holder":', '"holder":"did:example:x","holder":'));
  write('big.json', `{"padding": "${'x'.repeat(4 * 1024 * 1024 + 16)}"}`);
  mkdirSync(path.join(dir, 'a-directory'));
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], extra: Record<string, string> = {}) => svcIn(['verify-presentation', ...args], cleanEnv(extra));
const bound = ['--challenge', CHALLENGE, '--domain', DOMAIN];

async function runWithStdin(args: string[], input: string): Promise<Run> {
  const r = await execa(process.execPath, [svcBin, 'verify-presentation', ...args], {
    reject: false,
    env: cleanEnv(),
    extendEnv: true,
    cwd: repoRoot,
    timeout: 20_000,
    input,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

const statusOf = (result: { checks: Array<{ id: string; status: string }> }, id: string) => result.checks.find((c) => c.id === id)?.status;

describe('svc verify-presentation', () => {
  it('a valid presentation with its challenge and domain → exit 0; the text: headline, checks, then each credential compactly', async () => {
    const r = await run([files['valid.json']!, ...bound]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^VALID {2}The presentation is valid/);
    expect(r.stdout).not.toMatch(ANSI_COLOR);
    for (const id of PRESENTATION_CHECK_IDS) expect(r.stdout).toMatch(new RegExp(`✓ PASS +${id}\\b`));
    // The credentials, numbered from 1 as the checks name them: form · format, issuer, binding.
    expect(r.stdout).toMatch(/^Credentials \(2\)$/m);
    expect(r.stdout).toMatch(/^ {2}#1 VALID {2}OBJECT · DATA_INTEGRITY · VC 2\.0$/m);
    expect(r.stdout).toMatch(/^ {2}#2 VALID {2}ENVELOPED · VC_JOSE_COSE · VC 2\.0$/m);
    expect(r.stdout).toContain(`issuer   ${issuerDid}`);
    expect(r.stdout).toMatch(/binding {2}BOUND$/m);
    // The holder's key, by its fragment under the holder (present/text.ts displayKeyId).
    expect(r.stdout).toContain(`key          #${holderKey.multikey}`);
    // Laid out for 80 columns: only a DID too long for any line may overflow.
    for (const line of r.stdout.split('\n')) if ([...line].length > 80) expect(line.trim()).toMatch(/^\S+$/);
  });

  it('--json prints exactly the PresentationVerification, each credential with its verification', async () => {
    const r = await run([files['valid.json']!, ...bound, '--json']);
    expect(r.exitCode).toBe(0);
    const result = onlyJson(r);
    expect(result).toMatchObject({ status: 'VALID', valid: true, format: 'DATA_INTEGRITY', holder: holderDid, challenge: CHALLENGE, domain: [DOMAIN] });
    expect(Object.keys(result)).toHaveLength(16);
    expect(result.checks.map((c: { id: string }) => c.id)).toEqual([...PRESENTATION_CHECK_IDS]);
    expect(result.credentials.map((c: any) => [c.index, c.form, c.holderBinding, c.verification.status])).toEqual([
      [0, 'OBJECT', 'BOUND', 'VALID'],
      [1, 'ENVELOPED', 'BOUND', 'VALID'],
    ]);
  });

  it('no --challenge or --domain → exit 0, their checks SKIP, and the report says what was not excluded', async () => {
    const r = await run([files['valid.json']!]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/- SKIP +challenge/);
    expect(r.stdout).toMatch(/- SKIP +domain/);
    expect(r.stdout).toMatch(/replay/);
  });

  it('--challenge the proof does not carry → exit 1, challenge FAIL; --domain elsewhere → exit 1', async () => {
    const wrong = await run([files['valid.json']!, '--challenge', 'another', '--json']);
    expect(wrong.exitCode).toBe(1);
    expect(statusOf(onlyJson(wrong), 'challenge')).toBe('FAIL');
    const unbound = write('unbound.json', presentation([credential], {}));
    const missing = await run([unbound, '--challenge', CHALLENGE]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toMatch(/^INVALID {2}/);
    expect(missing.stdout).toMatch(/✗ FAIL +challenge/);
    expect((await run([files['valid.json']!, '--domain', 'other.example', '--quiet'])).exitCode).toBe(1);
  });

  it('a tampered presentation → exit 1; one carrying a credential that does not verify → exit 1, that credential and why', async () => {
    expect((await run([files['tampered.json']!, '--quiet'])).exitCode).toBe(1);
    const r = await run([files['bad-credential.json']!, ...bound]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^ {2}#2 INVALID {2}OBJECT/m);
    expect(r.stdout).toMatch(/why +The credential is invalid/);
  });

  it('--audience and --nonce reach the SD-JWT VC (its KB-JWT): the ones it was made for → 0, another nonce → 1; the Data Integrity credential beside it is not asked', async () => {
    const ok = await run([files['sd-jwt.json']!, '--challenge', PEER_CHALLENGE, '--audience', PEER_DOMAIN, '--nonce', PEER_CHALLENGE, '--json']);
    expect(ok.exitCode, ok.stdout.slice(0, 2000)).toBe(0);
    const result = onlyJson(ok);
    const kb = (index: number) => result.credentials[index].verification.checks.find((c: any) => c.id === 'kb.nonce').status;
    expect([kb(0), kb(1)]).toEqual(['SKIP', 'PASS']);
    const other = await run([files['sd-jwt.json']!, '--challenge', PEER_CHALLENGE, '--audience', PEER_DOMAIN, '--nonce', 'another-exchange', '--json']);
    expect(other.exitCode).toBe(1);
    expect(onlyJson(other).credentials.map((c: any) => c.verification.status)).toEqual(['VALID', 'INVALID']);
  });

  it('--trusted-issuer: every issuer listed → 0, each credential its trust; one not listed → 1 and a note on stderr; a bad entry → 2', async () => {
    const trusted = await run([files['valid.json']!, ...bound, '--trusted-issuer', issuerDid]);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(trusted.stdout).toMatch(/^ {5}trust {4}PASS {2}listed$/m);
    const other = await run([files['sd-jwt.json']!, '--challenge', PEER_CHALLENGE, '--trusted-issuer', sdIssuer.did, '--json']);
    expect(other.exitCode).toBe(1);
    expect(onlyJson(other).status).toBe('VALID');
    expect(onlyJson(other).credentials.map((c: any) => c.verification.issuerTrust.status)).toEqual(['FAIL', 'PASS']);
    expect(other.stderr.trim()).toBe('svc: the issuer of credential 1 is not among the trusted issuers (--trusted-issuer)');
    expectUsageError(
      await run([files['valid.json']!, '--trusted-issuer', 'did:web:*example.com']),
      /^--trusted-issuer: trusted issuer 1 /,
      'verify-presentation',
    );
  });

  it('a credential about someone else: reported (exit 0, NOT_BOUND); --require-holder-binding → exit 1', async () => {
    const reported = await run([files['about-bob.json']!, ...bound]);
    expect(reported.exitCode).toBe(0);
    expect(reported.stdout).toMatch(/binding {2}NOT_BOUND/);
    expect(reported.stdout).toMatch(/! WARN +holderBinding/);
    const required = await run([files['about-bob.json']!, ...bound, '--require-holder-binding', '--json']);
    expect(required.exitCode).toBe(1);
    expect(statusOf(onlyJson(required), 'holderBinding')).toBe('FAIL');
  });

  it('an issuer that cannot be reached → exit 3 INDETERMINATE (a result, not a problem)', async () => {
    const r = await run([files['unreachable-issuer.json']!, ...bound, '--json']);
    expect(r.exitCode).toBe(3);
    expect(onlyJson(r)).toMatchObject({ status: 'INDETERMINATE', valid: false });
  });

  it('a duplicate member in the file → exit 1 MALFORMED', async () => {
    const r = await run([files['duplicate.json']!, '--json']);
    expect(r.exitCode).toBe(1);
    expect(onlyJson(r).status).toBe('MALFORMED');
  });

  it('- reads the presentation from standard input', async () => {
    const r = await runWithStdin(['-', ...bound, '--json'], JSON.stringify(presentation([credential])));
    expect(r.exitCode).toBe(0);
    expect(onlyJson(r).status).toBe('VALID');
  });

  it('what svc sign-presentation makes (vp+jwt and Data Integrity, by a keygen holder) verifies: exit 0, VALID with its challenge and domain, 1 with another', async () => {
    const keyFile = path.join(dir, 'holder.jwk');
    const keygen = await svcIn(['keygen', '--out', keyFile, '--json'], cleanEnv());
    expect(keygen.exitCode, keygen.stderr).toBe(0);
    const signedCredential = write('signed-credential.json', credential);
    for (const format of ['vp+jwt', 'di-eddsa-jcs']) {
      const out = path.join(dir, `signed-presentation.${format}`);
      const signed = await svcIn(
        ['sign-presentation', signedCredential, '--key', keyFile, '--challenge', CHALLENGE, '--domain', DOMAIN, '--format', format, '--out', out],
        cleanEnv(),
      );
      expect(signed.exitCode, signed.stderr).toBe(0);
      const r = await run([out, ...bound, '--json']);
      expect(r.exitCode, r.stdout.slice(0, 2000)).toBe(0);
      expect(onlyJson(r)).toMatchObject({ status: 'VALID', holder: JSON.parse(keygen.stdout).didKey, challenge: CHALLENGE });
      expect((await run([out, '--challenge', 'another', '--quiet'])).exitCode).toBe(1);
    }
  });

  describe('usage: exit 2, one line, no stack trace', () => {
    it('a missing file, a directory, a file over 4 MiB', async () => {
      expectUsageError(await run([path.join(dir, 'nope.json')]), /^cannot read the presentation .*nope\.json: no such file$/, 'verify-presentation');
      expectUsageError(await run([path.join(dir, 'a-directory')]), /is not a file/, 'verify-presentation');
      expectUsageError(await run([files['big.json']!]), /larger than 4194304 bytes/, 'verify-presentation');
    });

    it('an empty --challenge, --domain, --audience or --nonce', async () => {
      for (const option of ['--challenge', '--domain', '--audience', '--nonce']) {
        expectUsageError(await run([files['valid.json']!, option, '']), new RegExp(`^${option} must not be empty$`), 'verify-presentation');
      }
    });

    it('no file argument; an unknown option', async () => {
      expectUsageError(await run([]), /missing required argument 'file'/);
      expectUsageError(await run([files['valid.json']!, '--challenge-me']), /unknown option '--challenge-me'/);
    });
  });
});
