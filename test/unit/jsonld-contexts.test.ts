/**
 * The pinned JSON-LD context set (src/jsonld/contexts.ts): each URL's file has the SHA-256 written
 * here, and the ones taken from npm packages are byte for byte what those packages ship. The
 * document loader answers these URLs (and the operator's files, checked against their digest) and
 * refuses every other one by name, touching no network.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRdfCanonicaliser, PINNED_CONTEXTS } from '../../src/jsonld/index.js';
import { repoRoot } from '../support/fixtures.js';

const DIGESTS: ReadonlyArray<[string, string]> = [
  ['https://www.w3.org/2018/credentials/v1', '00d7dd6d3ad8b920e3e550dd3a3d9090bffcac84cdbf943da6924b3e0a5c8bb8'],
  ['https://www.w3.org/ns/credentials/v2', '8a9f494a89ecc51db093e90e84713e07e84d6d9204364a9b3c7868b21751236f'],
  ['https://w3id.org/security/data-integrity/v1', 'b5d829bd09aa7c42abc6efa0c8ed7635313b5487f37ccfce3ecd149ca9418554'],
  ['https://w3id.org/security/data-integrity/v2', '0f77743daf5b4e8fc067fc5ba5b21044283053aa717fc6b0219843bed3b00363'],
  ['https://w3id.org/security/suites/ed25519-2020/v1', 'b9e1ab971fd8bf2c7553e0c4a9438e0b9450afde1ea1ca5b2492368b9f549588'],
  ['https://www.w3.org/ns/credentials/status/v1', 'fd08cbf28ddd829ab2f1978c48f43ab07a112c1c90245a0cfac7ba721c65170c'],
  ['https://w3id.org/vc/status-list/2021/v1', '634d71c159289f068c96012e4511c657fdf82ac4231900081bda3ba24e2e1160'],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context.json', 'b077fa134d909d92c1dcd1c153f2af1b244aeb415967fdc1467d7fc5dd48ac10'],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.1.json', 'cfc147db5fd5e3575b06bd471fe04784e92de69296f64a351b8dff0ec3372e9c'],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.2.json', 'bba433989e1e700ca60838a3c22378e7d8381aeb0c9590f9ddf84d1714f10296'],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json', '3d34f4d4ef1bce691106e63798beb5e7b862ba841423f5ee1e53ab7ddf3bca84'],
  ['https://purl.imsglobal.org/spec/ob/v3p0/extensions.json', '146f85aa16effd7ca1da8056eb443f53ce1eca8a34186cb062832c0a97d889c3'],
  ['https://purl.imsglobal.org/spec/clr/v2p0/context.json', 'e198d7b517d74c5036434ce495086f67b10244709e9a3df9dcb7f8b1579b6167'],
  ['https://purl.imsglobal.org/spec/clr/v2p0/context-2.0.1.json', '880f1902d4158f2f33ce06af41b90719977cd1ea337a9de2e41edb3ff5e543d6'],
];

/** The contexts taken from npm packages: the package file each is a copy of. */
const FROM_PACKAGES: Readonly<Record<string, string>> = {
  'https://www.w3.org/2018/credentials/v1': '@digitalbazaar/credentials-context/contexts/v1.jsonld',
  'https://www.w3.org/ns/credentials/v2': '@digitalbazaar/credentials-context/contexts/v2.jsonld',
  'https://w3id.org/security/data-integrity/v1': '@digitalbazaar/data-integrity-context/contexts/data-integrity-v1.jsonld',
  'https://w3id.org/security/data-integrity/v2': '@digitalbazaar/data-integrity-context/contexts/data-integrity-v2.jsonld',
  'https://w3id.org/security/suites/ed25519-2020/v1': 'ed25519-signature-2020-context/contexts/ed25519-signature-2020-v1.jsonld',
  'https://www.w3.org/ns/credentials/status/v1': '@digitalbazaar/vc-bitstring-status-list-context/contexts/vc-bitstring-status-list-v1.jsonld',
};

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
const fileOf = (name: string): string => path.join(repoRoot, 'src/jsonld/contexts', name);

describe('the pinned context set', () => {
  it('holds exactly these URLs, each file with its SHA-256', () => {
    expect(PINNED_CONTEXTS.map((c) => [c.url, c.sha256])).toEqual(DIGESTS);
    for (const context of PINNED_CONTEXTS) {
      const bytes = readFileSync(fileOf(context.file));
      expect(sha256(bytes), context.url).toBe(context.sha256);
      expect(JSON.parse(bytes.toString('utf8')), context.url).toEqual(context.document);
    }
  });

  it('docs/credentials.md lists every pinned URL with its SHA-256', () => {
    const page = readFileSync(new URL('../../docs/credentials.md', import.meta.url), 'utf8');
    for (const context of PINNED_CONTEXTS) expect(page, context.url).toContain(`| \`${context.url}\` | \`${context.sha256}\` |`);
  });

  it("the contexts taken from npm packages are those packages' files", () => {
    for (const [url, file] of Object.entries(FROM_PACKAGES)) {
      const pinned = PINNED_CONTEXTS.find((c) => c.url === url)!;
      const shipped = readFileSync(path.join(repoRoot, 'node_modules', file));
      expect(sha256(shipped), url).toBe(pinned.sha256);
    }
  });
});

describe('the document loader', () => {
  it('answers pinned URLs and refuses any other by name, asking nothing of the network', async () => {
    const asked: string[] = [];
    const canonicaliser = createRdfCanonicaliser({ onLoad: (url) => asked.push(url) });
    const ok = await canonicaliser.canonicalise({ '@context': 'https://www.w3.org/ns/credentials/v2', type: 'VerifiableCredential', name: 'x' });
    expect(ok.ok).toBe(true);
    const refused = await canonicaliser.canonicalise({ '@context': ['https://www.w3.org/ns/credentials/v2', 'https://schema.org/'], name: 'x' });
    expect(refused).toEqual({ ok: false, failure: { kind: 'UNPINNED_CONTEXT', url: 'https://schema.org/' } });
    // A pinned context is loaded once and kept resolved (in this canonicaliser's own cache); a refused one is asked each time.
    expect(asked).toEqual(['https://www.w3.org/ns/credentials/v2', 'https://schema.org/']);
    await canonicaliser.canonicalise({ '@context': ['https://www.w3.org/ns/credentials/v2', 'https://schema.org/'], name: 'x' });
    expect(asked).toEqual(['https://www.w3.org/ns/credentials/v2', 'https://schema.org/', 'https://schema.org/']);
  });

  it('takes an operator context only from a file with the expected SHA-256', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-contexts-'));
    try {
      const file = path.join(dir, 'c.json');
      writeFileSync(file, '{"@context":{"a":"https://a.example/a"}}');
      const url = 'https://a.example/context';
      expect(createRdfCanonicaliser({ localContexts: [{ url, path: file, sha256: sha256(readFileSync(file)) }] }).contexts).toContain(url);
      expect(() => createRdfCanonicaliser({ localContexts: [{ url, path: file, sha256: 'f'.repeat(64) }] })).toThrow(/not the expected/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops at each bound and names it', async () => {
    const canonicaliser = createRdfCanonicaliser();
    const document = { '@context': 'https://www.w3.org/ns/credentials/v2', type: 'VerifiableCredential', name: 'x'.repeat(2000) };
    expect(await canonicaliser.canonicalise(document, { maxInputBytes: 1000 })).toEqual({
      ok: false,
      failure: { kind: 'BOUND_EXCEEDED', bound: 'input size', limit: 1000 },
    });
    expect(await canonicaliser.canonicalise(document, { maxQuads: 1 })).toEqual({
      ok: false,
      failure: { kind: 'BOUND_EXCEEDED', bound: 'number of quads', limit: 1 },
    });
    expect(await canonicaliser.canonicalise(document, { maxDepth: 0 })).toEqual({
      ok: false,
      failure: { kind: 'BOUND_EXCEEDED', bound: 'expansion depth', limit: 0 },
    });
  });
});
