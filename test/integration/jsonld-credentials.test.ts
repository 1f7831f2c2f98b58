/**
 * The opt-in verification of RDF-canonicalised credentials (runtime.jsonld, src/jsonld/):
 * eddsa-rdfc-2022, ecdsa-rdfc-2019 (P-256, P-384) and Ed25519Signature2020 credentials signed by
 * Digital Bazaar's stack verify VALID with it, as @digitalbazaar/vc says in the same test; tampered
 * ones are INVALID; without it they stay UNSUPPORTED with today's reason. An unpinned context is
 * UNSUPPORTED naming its URL with nothing fetched; a canonicalisation bomb is INDETERMINATE naming
 * the bound it hit. The real Open Badges 3.0 and CLR 2.0 credentials of 1EdTech's validator
 * (../shared/fixtures/real-world/credentials, read in place) get the proof answer Digital Bazaar's
 * stack gives, with the Ed25519 key their verification method names; and `svc verify-credential
 * --jsonld` (or SVC_JSONLD=on) turns it on from the command line.
 */
import { generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { decodeMultikey } from '../../src/core/keys/multicodec.js';
import { verifyRdfcProof } from '../../src/core/proofs/rdfc.js';
import { operatorRelaxations } from '../../src/server/relaxations.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import type { Runtime } from '../../src/core/runtime.js';
import { createRdfCanonicaliser } from '../../src/jsonld/index.js';
import { unsignedCredential, VC1_CONTEXT, VC2_CONTEXT, type Json } from '../support/peer-issuers.js';
import { cleanEnv, svcIn } from '../support/cli.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { injectedApp } from '../support/injected.js';
import { peerVerifyRdfc, peerVerifyRdfcProof, rdfcIssuer, type RdfcSuite } from '../support/peer-rdfc.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const loads: string[] = [];
const canonicaliser = createRdfCanonicaliser({ onLoad: (url) => loads.push(url) });
const plain = (): Runtime => testRuntime(fixedClock('2025-06-01T00:00:00Z'));
const withJsonLd = (): Runtime => ({ ...plain(), jsonld: canonicaliser });

const ED25519_2020_CONTEXT = 'https://w3id.org/security/suites/ed25519-2020/v1';

function credentialFor(suite: RdfcSuite, issuer: string): Json {
  if (suite === 'Ed25519Signature2020')
    return {
      '@context': [VC1_CONTEXT, ED25519_2020_CONTEXT],
      id: 'urn:uuid:4c9f3a2e-0000-4000-8000-000000000002',
      type: ['VerifiableCredential'],
      issuer,
      issuanceDate: '2025-01-01T00:00:00Z',
      credentialSubject: { id: 'did:example:subject' },
    };
  return unsignedCredential(issuer);
}

const cases: Array<[string, RdfcSuite, 'P-256' | 'P-384']> = [
  ['eddsa-rdfc-2022', 'eddsa-rdfc-2022', 'P-256'],
  ['ecdsa-rdfc-2019 on P-256', 'ecdsa-rdfc-2019', 'P-256'],
  ['ecdsa-rdfc-2019 on P-384', 'ecdsa-rdfc-2019', 'P-384'],
  ['Ed25519Signature2020', 'Ed25519Signature2020', 'P-256'],
];

describe('RDF-canonicalised credentials signed by @digitalbazaar/vc', () => {
  for (const [name, suite, curve] of cases) {
    it(`${name}: VALID with JSON-LD on (as the peer says), INVALID tampered, UNSUPPORTED without it`, async () => {
      const issuer = await rdfcIssuer(suite, curve);
      const signed = await issuer.sign(credentialFor(suite, issuer.did));
      expect(await peerVerifyRdfc(signed)).toBe(true);
      const result = await verifyCredential(signed, { runtime: withJsonLd() });
      expect(result.errors).toEqual([]);
      expect(result.status).toBe('VALID');
      expect(result.proof?.suite).toBe(suite);
      expect(result.proof?.detail).toContain('RDFC-1.0');
      expect(result.proof?.detail).toContain('pinned JSON-LD context set');
      expect(result.limitations.some((l) => l.includes('pinned JSON-LD contexts only'))).toBe(true);

      const subject = signed['credentialSubject'] as Json;
      const tampered = { ...signed, credentialSubject: { ...subject, id: 'did:example:mallory' } };
      expect(await peerVerifyRdfc(tampered)).toBe(false);
      const bad = await verifyCredential(tampered, { runtime: withJsonLd() });
      expect(bad.status).toBe('INVALID');
      expect(bad.checks.find((c) => c.id === 'proof')?.detail).toMatch(/signature does not verify/);

      const off = await verifyCredential(signed, { runtime: plain() });
      expect(off.status).toBe('UNSUPPORTED');
      const expected =
        suite === 'Ed25519Signature2020'
          ? 'Proof type Ed25519Signature2020 (JSON-LD) is not supported; svc verifies eddsa-jcs-2022 and ecdsa-jcs-2019 (P-256) Data Integrity proofs.'
          : `Cryptosuite ${suite} (JSON-LD, RDF canonicalization) is not supported; svc verifies eddsa-jcs-2022 and ecdsa-jcs-2019 (P-256) Data Integrity proofs.`;
      expect(off.checks.find((c) => c.id === 'proof')?.detail).toBe(expected);
    });
  }

  it('a term no context defines is MALFORMED naming the term, where the peer refuses too', async () => {
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    const signed = await issuer.sign({ ...credentialFor('Ed25519Signature2020', issuer.did), '@context': [VC1_CONTEXT] });
    const odd = { ...signed, favouriteColour: 'blue' };
    expect(await peerVerifyRdfc(odd)).toBe(false);
    const result = await verifyCredential(odd, { runtime: withJsonLd() });
    expect(result.status).toBe('MALFORMED');
    expect(result.checks.find((c) => c.id === 'proof')?.detail).toContain('"favouriteColour"');
  });

  it('an unpinned context is UNSUPPORTED naming its URL, and nothing is fetched', async () => {
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    const signed = await issuer.sign(credentialFor('eddsa-rdfc-2022', issuer.did));
    const other = { ...signed, '@context': [VC2_CONTEXT, 'https://example.com/contexts/mine.jsonld'] };
    loads.length = 0;
    let fetches = 0;
    const runtime = withJsonLd();
    const counted: Runtime = {
      ...runtime,
      net: {
        ...runtime.net,
        fetch: (...args: Parameters<Runtime['net']['fetch']>) => {
          fetches += 1;
          return runtime.net.fetch(...args);
        },
      },
    };
    const result = await verifyCredential(other, { runtime: counted });
    expect(result.status).toBe('UNSUPPORTED');
    expect(result.checks.find((c) => c.id === 'proof')?.detail).toContain('https://example.com/contexts/mine.jsonld');
    expect(fetches).toBe(0);
    expect(loads).toContain('https://example.com/contexts/mine.jsonld');
  });

  it('a canonicalisation bomb is INDETERMINATE naming the bound', async () => {
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    // Blank nodes that all look alike (a clique): RDFC-1.0's worst case, beyond its work bound.
    const nodes = Array.from({ length: 12 }, (_, i) => ({
      '@id': `_:b${i}`,
      'https://example.com/p': Array.from({ length: 12 }, (_, j) => ({ '@id': `_:b${j}` })),
    }));
    const signed = await issuer.sign(credentialFor('eddsa-rdfc-2022', issuer.did));
    const bomb = { ...signed, credentialSubject: { id: 'did:example:subject', 'https://example.com/knows': nodes } };
    const result = await verifyCredential(bomb, { runtime: withJsonLd() });
    expect(result.status).toBe('INDETERMINATE');
    expect(result.checks.find((c) => c.id === 'proof')?.detail).toMatch(/bound on canonicalisation work/);
    const deep = { ...signed, credentialSubject: JSON.parse(`${'{"https://example.com/n":'.repeat(40)}"x"${'}'.repeat(40)}`) };
    const nested = await verifyCredential(deep, { runtime: withJsonLd() });
    expect(nested.status).toBe('INDETERMINATE');
    expect(nested.checks.find((c) => c.id === 'proof')?.detail).toMatch(/bound on expansion depth \(32\)/);
  });
});

/** The real credentials' proofs, with the Ed25519 key their verification method ends with (`…z6Mk…`): what svc and the peer answer. */
describeWithFixtures('real Open Badges 3.0 and CLR 2.0 credentials (1EdTech validator)', 'real-world', (dir) => {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8')) as { files: Array<{ kind: string; file: string; repo: string }> };
  const credentials = manifest.files.filter((f) => f.kind === 'credentials' && f.file.endsWith('.json'));

  it("every proof svc can key offline gets the peer's answer; the signed ones verify, the broken ones do not", async () => {
    const answers: Record<string, string> = {};
    for (const entry of credentials) {
      const document = JSON.parse(readFileSync(path.join(dir, entry.file), 'utf8')) as Json;
      const proofs = Array.isArray(document['proof']) ? document['proof'] : [document['proof']];
      const proof = proofs[0] as Json | undefined;
      const vm = typeof proof?.['verificationMethod'] === 'string' ? proof['verificationMethod'] : '';
      const key = /(z6Mk[1-9A-HJ-NP-Za-km-z]+)$/.exec(vm)?.[1];
      if (proofs.length !== 1 || proof === undefined || key === undefined) continue;
      const decoded = decodeMultikey(key);
      if (typeof decoded === 'string') continue;
      const jwk = { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(decoded.bytes).toString('base64url') };
      const svc = await verifyRdfcProof(document, proof, jwk, Date.parse('2025-06-01T00:00:00Z'), canonicaliser);
      const peer = await peerVerifyRdfcProof(document, key, vm.split('#')[0]!);
      expect({ file: entry.file, valid: svc.result.status === 'VALID' }).toEqual({ file: entry.file, valid: peer });
      answers[path.basename(entry.file)] = svc.result.status;
    }
    // Signed as published: eddsa-rdfc-2022 (VC 2.0, OB 3.0.x contexts) and Ed25519Signature2020 (VC 1.1).
    for (const name of ['simple-did-key-method.json', 'simple.json', 'complete.json', 'simple_v1.json', 'credential-status-revoked.json', 'complex.json'])
      expect(answers[name], name).toBe('VALID');
    expect(answers['simple-err-proof-value.json']).toBe('INVALID');
    // A type outside the OB context: safe mode names it; a context never pinned is named, never fetched.
    expect(answers['simple-err-type.json']).toBe('MALFORMED');
    expect(answers['simple_old_safesigned.json']).toBe('UNSUPPORTED');
    expect(Object.keys(answers).length).toBeGreaterThanOrEqual(30);
  });

  it('the RS256 VC-JWT fixtures with JSON-LD processing: what each answers (their issuers cannot be resolved offline)', async () => {
    const tokens = manifest.files.filter((f) => f.kind === 'credentials' && f.file.endsWith('.jwt'));
    const answers: Record<string, string> = {};
    for (const entry of tokens) {
      const token = readFileSync(path.join(dir, entry.file), 'utf8').trim();
      const result = await verifyCredential(token, { runtime: withJsonLd() });
      answers[entry.file.split('/').slice(-2).join('/')] = `${result.status}: ${result.checks.find((c) => c.id === 'proof')?.detail}`;
    }
    // The two 1EdTech tokens name an https:// issuer and no kid (their header's embedded jwk is never
    // used); Velocity's kid is a did:velocity key. No key, so no signature is checked.
    const https = `INDETERMINATE: The JWT names no key ("kid"), so the issuer's keys were to be tried: https://example.edu/issuers/565049 is not a DID; svc finds keys only through DIDs.`;
    expect(answers['clr20/simple.jwt']).toBe(https);
    expect(answers['ob30/simple.jwt']).toBe(https);
    expect(answers['ob30/velocity.jwt']).toMatch(/^INDETERMINATE: The key did:velocity:.*the DID method "velocity" is not supported/);
  });

  it('simple-did-key-method.json through verify-credential: INDETERMINATE (a bare did:key names no key, the issuer is a urn:uuid); the peer refuses it too', async () => {
    const entry = credentials.find((f) => f.file.endsWith('ob30/simple-did-key-method.json'))!;
    const document = JSON.parse(readFileSync(path.join(dir, entry.file), 'utf8')) as Json;
    const result = await verifyCredential(document, { runtime: withJsonLd() });
    expect(result.status).toBe('INDETERMINATE');
    expect(result.checks.find((c) => c.id === 'proof')?.detail).toContain('is not a DID URL');
    // No key, so nothing was canonicalised: the RDF limitation is not stated.
    expect(result.limitations.some((l) => l.includes('RDF canonical form'))).toBe(false);
    expect(await peerVerifyRdfc(document)).toBe(false);
  });
});

describe('the RDF limitation is stated only when a proof was canonicalised and checked', () => {
  it('stated when the signature fails; not when the key is not in the DID document', async () => {
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    const signed = await issuer.sign(credentialFor('eddsa-rdfc-2022', issuer.did));
    const rdf = (l: string) => l.includes('RDF canonical form');
    const tampered = await verifyCredential({ ...signed, credentialSubject: { id: 'did:example:mallory' } }, { runtime: withJsonLd() });
    expect(tampered.status).toBe('INVALID');
    expect(tampered.limitations.filter(rdf)).toHaveLength(1);
    const proof = signed['proof'] as Json;
    const elsewhere = { ...signed, proof: { ...proof, verificationMethod: `${issuer.did}#no-such-key` } };
    const missing = await verifyCredential(elsewhere, { runtime: withJsonLd() });
    expect(missing.status).toBe('INVALID');
    expect(missing.checks.find((c) => c.id === 'proof')?.detail).toContain('is not a verification method');
    expect(missing.limitations.some(rdf)).toBe(false);
  });
});

/** An issuer whose did:jwk holds an RSA public key, signing VC-JWT 1.1 credentials with jose. */
async function rsaIssuer(bits: number) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const jwk = await exportJWK(publicKey);
  const did = `did:jwk:${Buffer.from(JSON.stringify({ kty: 'RSA', n: jwk.n, e: jwk.e })).toString('base64url')}`;
  const sign = (alg: 'RS256' | 'PS256', kid: string | null = `${did}#0`) =>
    new SignJWT({ vc: { '@context': [VC1_CONTEXT], type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:subject' } } })
      .setProtectedHeader(kid === null ? { alg, typ: 'JWT' } : { alg, typ: 'JWT', kid })
      .setIssuer(did)
      .setNotBefore(Math.floor(Date.parse('2025-01-01T00:00:00Z') / 1000))
      .sign(privateKey);
  return { did, sign };
}

/** The last character of a token's signature changed: the signature no longer verifies. */
function tamperedSignature(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

describe('VC-JWT signed with RS256 and PS256 (JSON-LD processing on)', () => {
  for (const alg of ['RS256', 'PS256'] as const) {
    it(`${alg}: VALID with it (with a kid and without), INVALID tampered, UNSUPPORTED without it with today's reason`, async () => {
      const issuer = await rsaIssuer(2048);
      const token = await issuer.sign(alg);
      const result = await verifyCredential(token, { runtime: withJsonLd() });
      expect(result.errors).toEqual([]);
      expect(result.status).toBe('VALID');
      expect(result.proof?.suite).toBe(alg);
      expect(result.checks.find((c) => c.id === 'proof')?.detail).toBe(`The ${alg} signature verifies with ${issuer.did}#0.`);
      expect(result.limitations.some((l) => l.includes('RDF canonical form'))).toBe(false);
      expect((await verifyCredential(await issuer.sign(alg, null), { runtime: withJsonLd() })).status).toBe('VALID');

      const bad = await verifyCredential(tamperedSignature(token), { runtime: withJsonLd() });
      expect(bad.status).toBe('INVALID');
      expect(bad.checks.find((c) => c.id === 'proof')?.detail).toBe(`The ${alg} signature does not verify.`);

      const off = await verifyCredential(token, { runtime: plain() });
      expect(off.status).toBe('UNSUPPORTED');
      expect(off.checks.find((c) => c.id === 'proof')?.detail).toBe(`The algorithm ${alg} (RSA) is not supported; svc verifies EdDSA, ES256 and ES256K.`);
    });
  }

  it('an RS256 token checked as PS256 (the header changed) does not verify; a 1024-bit key is refused by its size', async () => {
    const issuer = await rsaIssuer(2048);
    const token = await issuer.sign('RS256');
    const [, payload, signature] = token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'PS256', typ: 'JWT', kid: `${issuer.did}#0` })).toString('base64url');
    expect((await verifyCredential(`${header}.${payload}.${signature}`, { runtime: withJsonLd() })).status).toBe('INVALID');

    // jose signs with no key under 2048 bits: this token is signed with node:crypto.
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const jwk = publicKey.export({ format: 'jwk' });
    const did = `did:jwk:${Buffer.from(JSON.stringify({ kty: 'RSA', n: jwk.n, e: jwk.e })).toString('base64url')}`;
    const input = `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: `${did}#0` })).toString('base64url')}.${Buffer.from(
      JSON.stringify({
        iss: did,
        nbf: 1735689600,
        vc: { '@context': [VC1_CONTEXT], type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:subject' } },
      }),
    ).toString('base64url')}`;
    const weakToken = `${input}.${cryptoSign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
    const weak = await verifyCredential(weakToken, { runtime: withJsonLd() });
    expect(weak.status).toBe('INVALID');
    expect(weak.checks.find((c) => c.id === 'proof')?.detail).toBe('The RSA key is 1024 bits; svc verifies RSA signatures with keys of 2048 bits or more.');
  });

  it('RS512 stays UNSUPPORTED, naming the RSA algorithms verified with JSON-LD processing', async () => {
    const issuer = await rsaIssuer(2048);
    const [, payload, signature] = (await issuer.sign('RS256')).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RS512', typ: 'JWT' })).toString('base64url');
    const result = await verifyCredential(`${header}.${payload}.${signature}`, { runtime: withJsonLd() });
    expect(result.status).toBe('UNSUPPORTED');
    expect(result.checks.find((c) => c.id === 'proof')?.detail).toBe(
      'The algorithm RS512 (RSA) is not supported; svc verifies EdDSA, ES256, ES256K, RS256 and PS256.',
    );
  });
});

describe('svc verify-credential --jsonld', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-jsonld-'));
  const stateHome = mkdtempSync(path.join(tmpdir(), 'svc-jsonld-state-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(stateHome, { recursive: true, force: true });
  });
  const run = (args: string[], env: Record<string, string> = {}) => svcIn(args, cleanEnv({ XDG_STATE_HOME: stateHome, ...env }));

  it('--jsonld or SVC_JSONLD=on: VALID, exit 0; neither: UNSUPPORTED, exit 1', async () => {
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    const file = path.join(dir, 'badge.json');
    writeFileSync(file, JSON.stringify(await issuer.sign(unsignedCredential(issuer.did))));
    const on = await run(['verify-credential', file, '--jsonld', '--json']);
    expect(on.exitCode).toBe(0);
    expect(JSON.parse(on.stdout).status).toBe('VALID');
    const env = await run(['verify-credential', file, '--json'], { SVC_JSONLD: 'on' });
    expect(JSON.parse(env.stdout).status).toBe('VALID');
    const off = await run(['verify-credential', file, '--json']);
    expect(off.exitCode).toBe(1);
    expect(JSON.parse(off.stdout).status).toBe('UNSUPPORTED');
    const bad = await run(['verify-credential', file, '--json'], { SVC_JSONLD: 'maybe' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('SVC_JSONLD must be on or off');
    // A bundle is re-run without JSON-LD processing: refused rather than recorded with another answer.
    const bundled = await run(['verify-credential', file, '--jsonld', '--bundle', path.join(dir, 'badge.bundle.json')]);
    expect(bundled.exitCode).toBe(2);
    expect(bundled.stderr).toContain('--bundle is not available with JSON-LD processing');
  });

  it("SVC_JSONLD_CONTEXTS adds the operator's context from a file with its SHA-256; a wrong digest is a usage error", async () => {
    const url = 'https://badges.example/contexts/extra.json';
    const context = JSON.stringify({ '@context': { favouriteColour: 'https://badges.example/vocab#favouriteColour' } });
    writeFileSync(path.join(dir, 'extra.json'), context);
    const digest = (await import('node:crypto')).createHash('sha256').update(context).digest('hex');
    writeFileSync(path.join(dir, 'contexts.json'), JSON.stringify({ [url]: { path: 'extra.json', sha256: digest } }));
    writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify({ [url]: { path: 'extra.json', sha256: '0'.repeat(64) } }));
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    const credential: Json = { ...unsignedCredential(issuer.did), '@context': [VC2_CONTEXT, url] };
    credential['credentialSubject'] = { id: 'did:example:subject', favouriteColour: 'blue' };
    const file = path.join(dir, 'extra-badge.json');
    // The peer signs with the same context (its loader does not know it: served here for the signing only).
    const signed = await issuer.sign(credential, undefined, { [url]: JSON.parse(context) });
    writeFileSync(file, JSON.stringify(signed));
    const withContexts = await run(['verify-credential', file, '--jsonld', '--json'], { SVC_JSONLD_CONTEXTS: path.join(dir, 'contexts.json') });
    expect(JSON.parse(withContexts.stdout).status).toBe('VALID');
    const without = await run(['verify-credential', file, '--jsonld', '--json']);
    expect(JSON.parse(without.stdout).checks.find((c: { id: string }) => c.id === 'proof').detail).toContain(url);
    const wrong = await run(['verify-credential', file, '--jsonld'], { SVC_JSONLD_CONTEXTS: path.join(dir, 'wrong.json') });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('not the expected');
  });
});

describe('POST /v1/credentials/verify with "jsonld"', () => {
  it('a daemon with SVC_JSONLD=on verifies by default, "jsonld": false turns it off; without it, "jsonld": true is INVALID_OPTIONS', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-jsonld-daemon-'));
    const injected = await injectedApp(path.join(dir, 'svc.db'), { clock: fixedClock('2025-06-01T00:00:00Z') });
    try {
      const issuer = await rdfcIssuer('ecdsa-rdfc-2019');
      const credential = await issuer.sign(unsignedCredential(issuer.did));
      const ask = async (body: unknown) => {
        const response = await injected.anonymous('POST', '/v1/credentials/verify', body);
        return { code: response.statusCode, body: response.json() as { status?: string; code?: string; detail?: string } };
      };
      expect((await ask({ credential })).body.status).toBe('UNSUPPORTED');
      const refused = await ask({ credential, jsonld: true });
      expect(refused.code).toBe(400);
      expect(refused.body.code).toBe('INVALID_OPTIONS');
      expect((await ask({ credential, jsonld: 'yes' })).code).toBe(400);

      injected.ctx.runtime.jsonld = canonicaliser;
      expect((await ask({ credential })).body.status).toBe('VALID');
      expect((await ask({ credential, jsonld: true })).body.status).toBe('VALID');
      expect((await ask({ credential, jsonld: false })).body.status).toBe('UNSUPPORTED');
    } finally {
      await injected.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SVC_JSONLD=on is listed among the relaxations (GET /health, the start-up lines)', () => {
    const listed = operatorRelaxations({ egress: [], trustedProxies: [], limits: DEFAULT_LIMITS, profile: 'direct', jsonld: canonicaliser.description });
    expect(listed.filter((r) => r.setting === 'SVC_JSONLD')).toEqual([
      {
        setting: 'SVC_JSONLD',
        value: 'on',
        effect: `eddsa-rdfc-2022, ecdsa-rdfc-2019 and Ed25519Signature2020 proofs are verified through JSON-LD processing, ${canonicaliser.description}`,
      },
    ]);
  });
});
