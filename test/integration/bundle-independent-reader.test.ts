/**
 * An evidence bundle read without svc: the reader below uses only JSON.parse and node:crypto
 * (SHA-256, X509Certificate) and what docs/evidence.md#the-format-version-1 says — nothing from
 * src/ (src only makes the bundle). It lists the resources, checks each body against its SHA-256,
 * parses every certificate of every TLS chain, and checks that the file is exactly its RFC 8785
 * canonical form plus a newline. If it needs something the page does not say, the page is wrong.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBundle } from '../../src/core/bundle/format.js';
import { asRecordedResult } from '../../src/core/bundle/kinds.js';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { makeBundle } from '../../src/core/bundle/verify.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didConfiguration, didDocument, linkageCredentialDi } from '../support/signing.js';

// ------------------------------------------------------------------ the reader (no svc code)

/** RFC 8785 for the JSON of a bundle: keys sorted by UTF-16 code units, strings and numbers as ECMAScript writes them. */
function canonical(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not I-JSON: a number that is not finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    // Array.prototype.sort compares strings by UTF-16 code units, as RFC 8785 §3.2.3 asks.
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
      .join(',')}}`;
  }
  throw new Error(`not JSON: ${typeof value}`);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const base64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

interface Listed {
  id: string;
  purpose: string;
  url: string;
  status: number;
  bytes: number;
  intact: boolean;
  certificates: string[];
}

/** Reads a bundle's bytes: its resources listed and checked, or the first thing that is wrong. */
function readBundle(file: Uint8Array): { listed: Listed[]; canonical: boolean } {
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(file);
  const bundle = JSON.parse(text);
  if (bundle.format !== 'svc-evidence-bundle' || bundle.version !== 1) throw new Error('not a version 1 svc evidence bundle');
  // Re-serialised, the parsed object gives the file back: nothing was reformatted, and no member
  // was lost to JSON.parse (a duplicate keeps only its last value, so the text would differ).
  const isCanonical = text === `${canonical(bundle)}\n`;
  const listed = (bundle.resources as any[]).map((r): Listed => {
    const body = base64(r.response.body);
    return {
      id: r.id,
      purpose: r.purpose,
      url: r.request.url,
      status: r.response.status,
      bytes: r.response.bytes,
      intact: body.length === r.response.bytes && sha256(body) === r.response.sha256 && Buffer.from(body).toString('base64') === r.response.body,
      // Leaf first, the anchor last: each signed by the next, the last by itself.
      certificates: ((r.tls?.chain ?? []) as string[]).map((der, i, chain) => {
        const cert = new X509Certificate(base64(der));
        const issuer = new X509Certificate(base64(chain[Math.min(i + 1, chain.length - 1)]!));
        if (!cert.verify(issuer.publicKey)) throw new Error(`${r.id}: certificate ${i + 1} is not signed by the next`);
        return cert.subject.replace(/\n/g, ', ');
      }),
    };
  });
  return { listed, canonical: isCanonical };
}

// ------------------------------------------------------------------ a bundle made by svc

let host: DidWebHost;
let file: Uint8Array;
let did: string;

beforeAll(async () => {
  host = await startDidWebHost();
  did = host.did('alice');
  // Non-ASCII and astral-plane text, so key order and escaping are put to the test.
  const document = {
    ...didDocument(did, host.key),
    service: [{ id: `${did}#😀`, type: 'LinkedDomains', serviceEndpoint: 'https://example.com/é' }],
    ünïcode: 'ü',
    'z\u007f': '\u2028',
    '\ud83d\ude00': 1.5e-7,
    '\uff71': 'sorted before the emoji by code point, after it by UTF-16 code unit',
  };
  host.server.route(documentPath(did), json(document, { contentType: 'application/did+json' }));
  const origin = `https://localhost:${host.server.port}`;
  host.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(did, origin, host.key, `${did}#key-1`))));
  const runtime = host.runtime();
  const observedAt = runtime.clock.now();
  const { runtime: recording, recorder } = recordingRuntime(runtime);
  const result = await resolve(did, recording);
  file = encodeBundle(makeBundle({ command: { kind: 'resolve', subject: did, options: {} }, observedAt, recorder, result: asRecordedResult(result) }));
});
afterAll(() => host.close());

describe('an evidence bundle read with JSON.parse and node:crypto alone', () => {
  it('lists its resources, each body matching its SHA-256, each chain of parsable certificates, and is canonical', () => {
    const { listed, canonical: isCanonical } = readBundle(file);
    expect(isCanonical).toBe(true);
    const origin = `https://localhost:${host.server.port}`;
    expect(listed.map(({ certificates: _c, ...r }) => r)).toEqual([
      {
        id: 'r1',
        purpose: 'DID configuration',
        url: `${origin}/.well-known/did-configuration.json`,
        status: 200,
        bytes: expect.any(Number),
        intact: true,
      },
      { id: 'r2', purpose: 'DID document', url: `${origin}/alice/did.json`, status: 200, bytes: expect.any(Number), intact: true },
    ]);
    for (const r of listed) expect(r.certificates).toEqual(['CN=localhost, O=svc tests', 'CN=svc test CA, O=svc tests']);
  });

  it('finds what svc finds: a changed body, a reformatted file, a duplicate member', () => {
    const text = new TextDecoder().decode(file);
    const bundle = JSON.parse(text);
    const body = base64(bundle.resources[1].response.body);
    body[0] = body[0]! ^ 1;
    bundle.resources[1].response.body = Buffer.from(body).toString('base64');
    const tampered = readBundle(new TextEncoder().encode(`${canonical(bundle)}\n`));
    expect(tampered.canonical).toBe(true);
    expect(tampered.listed.map((r) => r.intact)).toEqual([true, false]);

    expect(readBundle(new TextEncoder().encode(JSON.stringify(JSON.parse(text), null, 2))).canonical).toBe(false);
    expect(readBundle(new TextEncoder().encode(text.replace('{', '{"version":1,'))).canonical).toBe(false);
  });
});
