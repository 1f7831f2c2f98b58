/**
 * Conformance with the did:key test vectors of w3c-ccg/did-method-key
 * (../shared/fixtures/did-key/test-vectors). Every DID in every file is checked; the expected
 * keys come from the fixtures (publicKeyJwk, or publicKeyBase58 decoded and, for compressed
 * EC points, decompressed here), never from the code under test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { beforeAll, expect, it } from 'vitest';
import { checkMultikey } from '../../src/core/keys/inspect.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { RELATIONSHIPS, type EnrichedResolution, type Relationship } from '../../src/core/resolve/types.js';
import { b64url, fromB64url, refBase58Decode, rfc7638Thumbprint, splitMultikey } from '../support/codec.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { testRuntime } from '../support/runtime.js';

type Jwk = { kty: string; crv?: string; x?: string; y?: string; n?: string; e?: string };
type FixtureVm = { id: string; type: string; publicKeyBase58?: string; publicKeyJwk?: Jwk };
type FixtureDoc = { id: string; verificationMethod: FixtureVm[] } & Partial<Record<Relationship, string[]>>;

interface Vector {
  file: string;
  did: string;
  doc: FixtureDoc;
}

const SUPPORTED = new Set(['Ed25519', 'X25519', 'P-256', 'P-384', 'P-521', 'secp256k1']);
const UNSUPPORTED_FILES = new Set(['bls12381.json', 'rsa.json']);

/** Legacy suites that publish raw keys as publicKeyBase58, and the curve each implies. */
const BASE58_CURVES: Record<string, string> = {
  Ed25519VerificationKey2018: 'Ed25519',
  X25519KeyAgreementKey2019: 'X25519',
  EcdsaSecp256k1VerificationKey2019: 'secp256k1',
  P256Key2021: 'P-256',
};

/** The public JWK a fixture verification method denotes. */
function fixtureJwk(vm: FixtureVm): Jwk {
  if (vm.publicKeyJwk) {
    const { kty, crv, x, y } = vm.publicKeyJwk;
    return kty === 'EC' ? { kty, crv, x, y } : { kty, crv, x };
  }
  const curve = BASE58_CURVES[vm.type];
  if (!curve || vm.publicKeyBase58 === undefined) throw new Error(`fixture method ${vm.id} (${vm.type}) has no key this test reads`);
  const raw = refBase58Decode(vm.publicKeyBase58);
  if (curve === 'Ed25519' || curve === 'X25519') {
    expect(raw.length).toBe(32);
    return { kty: 'OKP', crv: curve, x: b64url(raw) };
  }
  expect(raw.length).toBe(33);
  expect([0x02, 0x03]).toContain(raw[0]);
  const impl = curve === 'secp256k1' ? secp256k1 : p256;
  const full = impl.Point.fromBytes(raw).toBytes(false);
  return { kty: 'EC', crv: curve, x: b64url(full.subarray(1, 33)), y: b64url(full.subarray(33, 65)) };
}

function fragment(id: string): string {
  const hash = id.indexOf('#');
  expect(hash, `${id} has a fragment`).toBeGreaterThanOrEqual(0);
  return id.slice(hash + 1);
}

/** Relationships under which the fixture document lists the method with this fragment. */
function fixtureRelationships(doc: FixtureDoc, frag: string): Relationship[] {
  return RELATIONSHIPS.filter((rel) => (doc[rel] ?? []).some((ref) => fragment(ref) === frag));
}

function sorted<T>(values: readonly T[]): T[] {
  return [...values].sort();
}

function loadVectors(dir: string): { vectors: Vector[]; didCount: number; files: string[] } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const vectors: Vector[] = [];
  let didCount = 0;
  for (const file of files) {
    const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    // x25519.json is {didDocument: {did → document}}; the others map did → {…, didDocument}.
    const byDid =
      Object.keys(json).length === 1 && 'didDocument' in json
        ? Object.fromEntries(Object.entries(json['didDocument'] as Record<string, FixtureDoc>).map(([did, doc]) => [did, { didDocument: doc }]))
        : (json as Record<string, { didDocument: FixtureDoc }>);
    for (const [did, entry] of Object.entries(byDid)) {
      expect(did.startsWith('did:key:z'), `${file}: ${did} is a did:key`).toBe(true);
      didCount++;
      expect(entry.didDocument?.id, `${file}: ${did} has its didDocument`).toBe(did);
      vectors.push({ file, did, doc: entry.didDocument });
    }
  }
  return { vectors, didCount, files };
}

describeWithFixtures('did:key test vectors (w3c-ccg/did-method-key)', 'did-key/test-vectors', (dir) => {
  const { vectors, didCount, files } = loadVectors(dir);
  const results = new Map<string, EnrichedResolution>();
  const checked = new Set<string>();

  beforeAll(async () => {
    const runtime = testRuntime();
    for (const v of vectors) results.set(v.did, await resolve(v.did, runtime));
  });

  it('finds all six vector files', () => {
    expect(files).toEqual(['bls12381.json', 'ed25519-x25519.json', 'nist-curves.json', 'rsa.json', 'secp256k1.json', 'x25519.json']);
    expect(didCount).toBeGreaterThan(0);
  });

  const supported = vectors.filter((v) => !UNSUPPORTED_FILES.has(v.file));
  const unsupported = vectors.filter((v) => UNSUPPORTED_FILES.has(v.file));

  it.each(supported.map((v) => [`${v.file} ${v.did.slice(0, 40)}…`, v] as const))('%s', async (_name, v) => {
    const did = v.did;
    const msid = did.slice('did:key:'.length);
    const primary = v.doc.verificationMethod.find((vm) => fragment(vm.id) === msid);
    expect(primary, 'the fixture document has the primary key').toBeDefined();
    const expected = fixtureJwk(primary!);
    expect(SUPPORTED.has(expected.crv!), `curve ${expected.crv}`).toBe(true);

    // (a) checkMultikey on the identifier's own multibase value.
    const check = await checkMultikey(msid);
    expect(check.status).toBe('VALID_KEY');
    expect(check.detail).toBeNull();
    expect(check.curve).toBe(expected.crv);
    expect(check.publicJwk?.kty).toBe(expected.kty);
    expect(check.publicJwk?.crv).toBe(expected.crv);
    expect(check.publicJwk?.x).toBe(expected.x);
    if (expected.kty === 'EC') expect(check.publicJwk?.y).toBe(expected.y);

    // (b) resolution: one key per fixture method, same thumbprint, status and relationships.
    const result = results.get(did)!;
    expect(result.did).toBe(did);
    const keys = result.evidence.keys;
    expect(sorted(keys.map((k) => fragment(k.id)))).toEqual(sorted(v.doc.verificationMethod.map((vm) => fragment(vm.id))));
    for (const vm of v.doc.verificationMethod) {
      const frag = fragment(vm.id);
      const jwk = fixtureJwk(vm);
      const key = keys.find((k) => fragment(k.id) === frag)!;
      expect(key.id).toBe(`${did}#${frag}`);
      expect(key.status, frag).toBe('VALID_KEY');
      expect(key.curve).toBe(jwk.crv);
      expect(key.jwkThumbprint).toBe(rfc7638Thumbprint(jwk));
      expect(sorted(key.relationships)).toEqual(sorted(fixtureRelationships(v.doc, frag)));
      for (const rel of RELATIONSHIPS) {
        const listed = result.evidence.document.relationships[rel].map(fragment).includes(frag);
        expect(listed, `${rel} lists ${frag}`).toBe(fixtureRelationships(v.doc, frag).includes(rel));
      }
      // The fragment is the key's own Multikey value.
      const fragCheck = await checkMultikey(frag);
      expect(fragCheck.status).toBe('VALID_KEY');
      expect(fragCheck.publicJwk?.x).toBe(jwk.x);
    }

    if (expected.crv === 'Ed25519') {
      // The derived X25519 keyAgreement key is the fixture's, byte for byte.
      const agreementRefs = v.doc.keyAgreement ?? [];
      expect(agreementRefs).toHaveLength(1);
      const fixtureVm = v.doc.verificationMethod.find((vm) => fragment(vm.id) === fragment(agreementRefs[0]!))!;
      const fixtureRaw = fixtureVm.publicKeyJwk ? fromB64url(fixtureVm.publicKeyJwk.x!) : refBase58Decode(fixtureVm.publicKeyBase58!);
      expect(fixtureRaw).toHaveLength(32);

      const derivedId = result.evidence.document.relationships.keyAgreement;
      expect(derivedId).toHaveLength(1);
      const derivedVm = (result.didDocument['verificationMethod'] as Array<Record<string, unknown>>).find((m) => m['id'] === derivedId[0]);
      expect(derivedVm).toBeDefined();
      const { code, key } = splitMultikey(derivedVm!['publicKeyMultibase'] as string);
      expect(code).toBe(0xec);
      expect(Buffer.from(key).equals(Buffer.from(fixtureRaw))).toBe(true);
      expect(result.evidence.keys.find((k) => k.id === derivedId[0])?.curve).toBe('X25519');
    }

    expect(result.dimensions.find((d) => d.id === 'keys')?.state).toBe('ESTABLISHED');
    checked.add(did);
  });

  it.each(unsupported.map((v) => [`${v.file} ${v.did.slice(0, 40)}…`, v] as const))('%s (unsupported key type)', (_name, v) => {
    const result = results.get(v.did)!;
    expect(result.did).toBe(v.did);
    expect(result.evidence.keys.length).toBeGreaterThan(0);
    for (const key of result.evidence.keys) {
      expect(key.status).toBe('UNSUPPORTED_KEY');
      expect(key.detail).toEqual(expect.any(String));
    }
    expect(result.dimensions.find((d) => d.id === 'keys')?.state).toBe('INDETERMINATE');
    checked.add(v.did);
  });

  // Runs last (tests of a file run in order): a vector skipped or not reached fails here.
  it('checked every DID of every file', () => {
    expect(supported.length + unsupported.length).toBe(didCount);
    expect(checked.size).toBe(didCount);
    expect(vectors.filter((v) => !checked.has(v.did)).map((v) => v.did)).toEqual([]);
  });
});
