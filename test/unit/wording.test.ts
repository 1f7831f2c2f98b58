/**
 * User-visible wording: the article before a key or algorithm label is the one it is read aloud
 * with ("an EdDSA", "an Ed25519", "a P-256"), counts go through plural() (never "observation(s)"),
 * and nothing svc prints cites SPEC section numbers. Each case drives the code that words the
 * message — the delegation verifier, the minting refusals, the key checks, history, the trace,
 * the CLI's help — so the old wording coming back fails here.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { verifyDelegationChain } from '../../src/core/delegation/index.js';
import { didKeyOf, mintReceipt } from '../../src/core/delegation/mint.js';
import { diffOf, recordObservation } from '../../src/core/history/index.js';
import { checkPublicJwk } from '../../src/core/keys/jwk.js';
import { checkMultikey, checkVerificationMethod } from '../../src/core/keys/inspect.js';
import { readRpcReply } from '../../src/core/mcp/client.js';
import type { FetchResponse } from '../../src/core/net.js';
import { ProblemError } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { Runtime } from '../../src/core/runtime.js';
import type { RuntimeStore } from '../../src/core/store.js';
import { withArticle } from '../../src/core/text.js';
import { openStore } from '../../src/store/index.js';
import { repoRoot, svcIn } from '../support/cli.js';
import { b64url, multikey } from '../support/codec.js';
import { ED25519_DID } from '../support/dids.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const NOW = new Date('2025-03-04T05:06:07Z');
const runtime = () => testRuntime(fixedClock('2025-03-04T05:06:07Z'));

/** A did:key P-256 (one verification method, no derived X25519 key). */
const P256_DID = 'did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169';

type PrivateJwk = { kty: string; crv: string; x: string; y?: string; d: string };

/** A fresh private key and the did:key of its public half. */
function party(type: 'ed25519' | 'P-256' = 'ed25519'): { jwk: PrivateJwk; did: string } {
  const pair = type === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.privateKey.export({ format: 'jwk' }) as PrivateJwk;
  const { d: _d, ...publicJwk } = jwk;
  return { jwk, did: didKeyOf(publicJwk) };
}

function refusalOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('withArticle: the article a label is read aloud with', () => {
  it.each([
    ['EdDSA', 'an EdDSA'],
    ['Ed25519', 'an Ed25519'],
    ['Ed25519VerificationKey2020', 'an Ed25519VerificationKey2020'],
    ['ed25519-pub', 'an ed25519-pub'],
    ['ES256', 'an ES256'],
    ['ES256K', 'an ES256K'],
    ['EC', 'an EC'],
    ['X25519', 'an X25519'],
    ['RSA', 'an RSA'],
    ['HS256', 'an HS256'],
    ['OKP', 'an OKP'],
    ['SD-JWT', 'an SD-JWT'],
    ['ML-DSA', 'an ML-DSA'],
    ['object', 'an object'],
    ['unknown', 'an unknown'],
    ['8-bit', 'an 8-bit'],
    ['11', 'an 11'],
    ['P-256', 'a P-256'],
    ['PS256', 'a PS256'],
    ['secp256k1', 'a secp256k1'],
    ['Multikey', 'a Multikey'],
    ['JsonWebKey2020', 'a JsonWebKey2020'],
    ['URL', 'a URL'],
    ['UTF-8', 'a UTF-8'],
    ['string', 'a string'],
    ['3', 'a 3'],
    ['110', 'a 110'],
  ])('%s → %s', (word, expected) => {
    expect(withArticle(word)).toBe(expected);
  });
});

describe('articles in reasons', () => {
  it('a delegation receipt reads "An EdDSA …" and "An ES256 …" receipt', async () => {
    const root = party();
    const mid = party('P-256');
    const leaf = party();
    const r0 = mintReceipt({ privateJwk: root.jwk, iss: root.did, aud: mid.did, cap: ['tools:*'], ttlSeconds: 3600, now: NOW });
    const r1 = mintReceipt({ privateJwk: mid.jwk, iss: mid.did, aud: leaf.did, cap: ['tools:search'], ttlSeconds: 600, now: NOW, parent: r0.receipt });
    const result = await verifyDelegationChain([r0.receipt, r1.receipt], { runtime: runtime(), now: NOW });
    expect(result.status, result.headline).toBe('VALID');
    const receipt = (i: number) => result.links[i]!.checks.find((c) => c.id === 'receipt')!.detail;
    expect(receipt(0)).toBe(`An EdDSA svc-delegation+jwt receipt from ${root.did} to ${mid.did}.`);
    expect(receipt(1)).toBe(`An ES256 svc-delegation+jwt receipt from ${mid.did} to ${leaf.did}.`);
  });

  it('svc delegate refuses a JWK restricted to another alg: "an Ed25519 key signs receipts with EdDSA"', () => {
    const key = party();
    const refusal = refusalOf(() =>
      mintReceipt({ privateJwk: { ...key.jwk, alg: 'ES256' }, iss: key.did, aud: party().did, cap: ['*'], ttlSeconds: 60, now: NOW }),
    );
    expect(refusal.message).toContain('but an Ed25519 key signs receipts with EdDSA.');
  });

  it('key checks: "an Ed25519 key", "an X25519 key", "an ed25519-pub key", "an Ed25519VerificationKey2020"', async () => {
    const short = Buffer.alloc(31, 7).toString('base64url');
    expect((await checkPublicJwk({ kty: 'OKP', crv: 'Ed25519', x: short })).detail).toContain('the "x" coordinate of an Ed25519 key is 32 bytes, not 31');
    expect((await checkPublicJwk({ kty: 'OKP', crv: 'X25519', x: short })).detail).toContain('the "x" coordinate of an X25519 key is 32 bytes, not 31');
    expect((await checkMultikey(multikey(0xed, new Uint8Array(31)))).detail).toContain('an ed25519-pub key is 32 bytes, not 31');
    const p256 = P256_DID.slice('did:key:'.length);
    const mismatch = await checkVerificationMethod({
      id: 'did:example:a#k',
      type: 'Ed25519VerificationKey2020',
      controller: 'did:example:a',
      publicKeyMultibase: p256,
    });
    expect(mismatch.detail).toContain('an Ed25519VerificationKey2020 must hold an Ed25519 key, not P-256');
  });

  it('an MCP reply that is not JSON-RPC: "an application/xml reply", "a text/html reply"', () => {
    const reply = (contentType: string): FetchResponse => {
      const body = new TextEncoder().encode('<error/>');
      return {
        url: 'https://tools.example/mcp',
        status: 502,
        contentType,
        headers: { 'content-type': contentType },
        body,
        bytes: body.length,
        sha256: '',
        peerAddress: '192.0.2.1',
        redirects: [],
        latencyMs: 1,
        tls: null as never,
        allowances: [],
      };
    };
    expect(readRpcReply(reply('application/xml'), 1)).toMatchObject({ kind: 'http', reason: 'an application/xml reply that is not JSON-RPC (HTTP 502)' });
    expect(readRpcReply(reply('text/html'), 1)).toMatchObject({ kind: 'http', reason: 'a text/html reply that is not JSON-RPC (HTTP 502)' });
  });

  it('a JWT credential whose "iat" is an object: "is an object, not a NumericDate"', async () => {
    const payload = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: 'did:example:a',
      credentialSubject: { id: 'did:example:b' },
      iat: {},
    };
    const token = `${b64url(JSON.stringify({ alg: 'EdDSA', typ: 'vc+jwt' }))}.${b64url(JSON.stringify(payload))}.${b64url('sig')}`;
    const result = await verifyCredential(token, { runtime: runtime() });
    expect(result.checks.find((c) => c.id === 'structure')!.detail).toContain('The JWT "iat" is an object, not a NumericDate');
  });
});

describe('plurals, not "(s)"', () => {
  const opened: Array<{ close(): void }> = [];
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
  });
  function runtimeWithStore(): Runtime & { store: RuntimeStore } {
    const store = openStore({ path: ':memory:' });
    opened.push(store);
    return { ...runtime(), store };
  }

  it('a diff with too few observations says "0 observations", then "1 observation"', async () => {
    const rt = runtimeWithStore();
    const detail = async () => {
      try {
        await diffOf(ED25519_DID, rt);
      } catch (err) {
        return (err as ProblemError).message;
      }
      throw new Error('expected NOT_FOUND');
    };
    expect(await detail()).toBe(`${ED25519_DID} has 0 observations; a diff needs two.`);
    await recordObservation(rt, await resolve(ED25519_DID, rt, {}));
    expect(await detail()).toBe(`${ED25519_DID} has 1 observation; a diff needs two.`);
  });

  it('the document.inspect stage counts methods and services in words', async () => {
    const stage = async (did: string) => (await resolve(did, runtime(), {})).trace.find((s) => s.stage === 'document.inspect')!.detail;
    expect(await stage(P256_DID)).toBe('1 verification method, 0 services');
    expect(await stage(ED25519_DID)).toBe('2 verification methods, 0 services');
  });
});

/** Every string literal and template text of a TypeScript file, with its line. */
function literals(file: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the strings in src/', () => {
  const files = sourceFiles(path.join(repoRoot, 'src'));
  const offending = (pattern: RegExp) =>
    files.flatMap((file) =>
      literals(file)
        .filter((l) => pattern.test(l.text))
        .map((l) => `${path.relative(repoRoot, file)}:${l.line}: ${l.text.slice(0, 100)}`),
    );

  it('cite no SPEC sections', () => {
    expect(offending(/\bSPEC\b/)).toEqual([]);
  });

  it('write no "(s)" plurals (http(s) is a scheme, not a plural)', () => {
    expect(offending(/(?<!http)\(s\)/)).toEqual([]);
  });

  it('put no "a" before a label read with a vowel sound', () => {
    expect(offending(/\b[Aa] (?:Ed(?:DSA|25519|448)|E[CS]\d*K?\b|X25519|X448|RSA\b|OKP\b|HS\d|SD-JWT)/)).toEqual([]);
  });
});

describe('the help svc prints', () => {
  it('cites no SPEC sections, in the overview or any command', async () => {
    const overview = await svcIn(['--help']);
    expect(overview.exitCode).toBe(0);
    const commands = [...overview.stdout.matchAll(/^ {2}([a-z][a-z0-9-]+)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands).toEqual(expect.arrayContaining(['resolve', 'verify-credential', 'delegate', 'serve']));
    for (const text of [overview.stdout, ...(await Promise.all(commands.map(async (c) => (await svcIn([c, '--help'])).stdout)))]) {
      expect(text).not.toMatch(/\bSPEC\b|§/);
    }
  }, 60_000);
});
