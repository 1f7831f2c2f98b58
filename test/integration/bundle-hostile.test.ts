/**
 * Hostile evidence bundles, in process: a bundle is a file from anyone, so every way of breaking
 * one gives a precise answer — the problem INVALID_BUNDLE or PAYLOAD_TOO_LARGE with a one-line
 * detail naming what is wrong, or a FAILED result naming the part — never a crash, a hang or a
 * huge allocation. Also: a bundle keeps no secret a host sent, and `svc verify-bundle`'s text
 * shows what a bundle quotes escaped. (Through the binary: bundle-cli-hostile.e2e.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { rootCertificates } from 'node:tls';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { asRecordedResult } from '../../src/core/bundle/kinds.js';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { anchorsFor, chainStructure, parseAnchors } from '../../src/core/bundle/tls.js';
import { makeBundle, verifyBundle, type BundleVerification } from '../../src/core/bundle/verify.js';
import { canonicalize } from '../../src/core/canonical.js';
import { ProblemError } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { RESOLVER } from '../../src/version.js';
import { cleanEnv, parseCliError, svcIn } from '../support/cli.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didDocument } from '../support/signing.js';

let host: DidWebHost;
let dir: string;
/** A bundle of a did:web resolution as svc wrote it: r1 the DID configuration (404), r2 the document. */
let goodText: string;
let good: EvidenceBundle;

async function bundleOf(did: string): Promise<Uint8Array> {
  const runtime = host.runtime();
  const observedAt = runtime.clock.now();
  const { runtime: recording, recorder } = recordingRuntime(runtime);
  const result = await resolve(did, recording);
  return encodeBundle(makeBundle({ command: { kind: 'resolve', subject: did, options: {} }, observedAt, recorder, result: asRecordedResult(result) }));
}

beforeAll(async () => {
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-bundle-hostile-'));
  writeFileSync(path.join(dir, 'ca.pem'), host.ca.certPem);
  const did = host.did('alice');
  host.publish(did);
  goodText = new TextDecoder().decode(await bundleOf(did));
  good = decodeBundle(new TextEncoder().encode(goodText));
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const utf8 = (text: string) => new TextEncoder().encode(text);
/** The bundle, changed by `edit`, written back in canonical form (so only the change is wrong). */
function edited(edit: (b: any) => void): Uint8Array {
  const copy = JSON.parse(goodText);
  edit(copy);
  return utf8(`${canonicalize(copy)}\n`);
}

/** The problem decodeBundle refuses `bytes` with. */
function refusal(bytes: Uint8Array): { code: string; detail: string } {
  try {
    decodeBundle(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    const { code, detail } = err as ProblemError;
    expect(detail, 'one line').not.toMatch(/\n/);
    expect(detail.length, detail).toBeLessThan(300);
    return { code, detail };
  }
  throw new Error('decodeBundle accepted the bundle');
}

function invalid(bytes: Uint8Array, detail: RegExp): void {
  const r = refusal(bytes);
  expect(r.code, r.detail).toBe('INVALID_BUNDLE');
  expect(r.detail).toMatch(detail);
}

async function verified(bytes: Uint8Array): Promise<BundleVerification> {
  return verifyBundle(decodeBundle(bytes), { runtime: host.runtime(), trustAnchors: parseAnchors([host.ca.certPem]) });
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

describe('a bundle that is not one svc can read is INVALID_BUNDLE, naming what is wrong', () => {
  it('the bundle as svc wrote it verifies (the cases below each change one thing)', async () => {
    expect((await verified(utf8(goodText))).outcome).toBe('VERIFIED');
    expect(good.resources.map((r) => r.purpose)).toEqual(['DID configuration', 'DID document']);
  });

  it('duplicate members, at the top level and inside a resource', () => {
    invalid(utf8(goodText.replace('{', '{"version":1,')), /duplicate member "version" \(at \/version\)/);
    invalid(utf8(goodText.replace('"status":200', '"status":200,"status":404')), /duplicate member "status" \(at \/resources\/1\/response\/status\)/);
  });

  it('two resources with one id, two inputs with one name', () => {
    invalid(
      edited((b) => {
        b.resources[1].id = 'r1';
      }),
      /two resources or failures are r1/,
    );
    const input = { name: 'credential.json', mediaType: 'application/json', sha256: 'a'.repeat(64), body: 'e30=' };
    invalid(
      edited((b) => {
        b.inputs = [input, { ...input, body: 'W10=' }];
      }),
      /two inputs are named "credential\.json"/,
    );
  });

  it('a body that states 10 GiB is compared with what it holds, never allocated', () => {
    invalid(
      edited((b) => {
        b.resources[1].response.bytes = 10_737_418_240;
      }),
      /resource r2: the response body is \d+ bytes, not the 10737418240 bytes it states/,
    );
  });

  it('a chain of 10,000 certificates is refused before any is parsed', () => {
    const bytes = edited((b) => {
      b.resources[1].tls.chain = Array.from({ length: 10_000 }, () => b.resources[1].tls.chain[0]);
    });
    expect(bytes.length).toBeGreaterThan(6_000_000);
    invalid(bytes, /resource r2: its TLS chain is not a list of 1 to 16 certificates/);
  });

  it('garbage base64 in a body, a certificate, an input', () => {
    invalid(
      edited((b) => {
        b.resources[1].response.body = 'not base64!';
      }),
      /resource r2: the response body is not base64/,
    );
    invalid(
      edited((b) => {
        b.resources[0].tls.chain[1] = 'AAAA====';
      }),
      /resource r1: certificate 2 of its chain is not base64/,
    );
    invalid(
      edited((b) => {
        b.inputs = [{ name: 'x', mediaType: null, sha256: 'a'.repeat(64), body: 'e30' }];
      }),
      /input 1: "body" is not base64/,
    );
    // One text per byte string: pad bits set ("e31=" decodes as "e30=" does), line breaks, no padding.
    const document = good.resources[1]!.response.body;
    for (const body of ['e31=', `${document.slice(0, 76)}\n${document.slice(76)}`, 'e30']) {
      invalid(
        edited((b) => {
          b.resources[1].response.body = body;
        }),
        /resource r2: the response body is not base64/,
      );
    }
  });

  it('a newer format version says to verify it with a newer svc, before anything else is read', () => {
    invalid(
      edited((b) => {
        b.version = 2;
        b.resources = 'a version 2 may hold anything';
      }),
      /is format version 2; this svc reads version 1 — verify it with a newer svc/,
    );
    invalid(
      edited((b) => {
        b.version = 0;
      }),
      /"version" is not a positive integer/,
    );
  });

  it('a reformatted (pretty-printed) bundle, extra whitespace, a byte order mark', () => {
    invalid(utf8(JSON.stringify(JSON.parse(goodText), null, 2)), /not in its canonical form \(RFC 8785\)/);
    invalid(utf8(`${goodText}\n`), /not in its canonical form/);
    invalid(utf8(`\ufeff${goodText}`), /begins with a byte order mark/);
    // The final newline is the writer's; a copy that lost it (curl --data @file strips it) still reads.
    expect(decodeBundle(utf8(goodText.slice(0, -1))).resources).toHaveLength(2);
  });

  it('bytes that are not UTF-8, an empty file, text that is not JSON, a JSON array', () => {
    const bytes = utf8(goodText);
    invalid(new Uint8Array([...bytes.slice(0, 40), 0xc3, 0x28, ...bytes.slice(40)]), /is not UTF-8 text/);
    invalid(new Uint8Array(), /is empty/);
    invalid(utf8('hello'), /is not valid JSON \(unexpected character at offset 0\)/);
    invalid(utf8('[]\n'), /not a JSON object, so not an svc evidence bundle/);
    invalid(utf8('{"format":"something else"}\n'), /"format" is not "svc-evidence-bundle"/);
  });

  it('JSON nested 10,000 deep is refused at the parser’s limit, without recursing that deep', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    invalid(utf8(goodText.replace('"result":{', `"result":{"x":${deep},`)), /nested too deeply \(nesting deeper than 120\)/);
    invalid(utf8(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`), /nested too deeply/);
  });

  it('over 16 MiB is PAYLOAD_TOO_LARGE, before it is decoded', () => {
    const r = refusal(new Uint8Array(16 * 1024 * 1024 + 1));
    expect(r).toEqual({ code: 'PAYLOAD_TOO_LARGE', detail: 'the bundle is 16777217 bytes; svc reads at most 16777216 bytes (16 MiB) of a bundle.' });
  });

  it('more resources than any work makes are refused before they are replayed', () => {
    invalid(
      edited((b) => {
        const r = { ...b.resources[0], tls: null };
        b.resources = Array.from({ length: 1001 }, (_, i) => ({ ...r, id: `r${i + 1}` }));
      }),
      /holds 1001 resources; a bundle holds at most 1000/,
    );
  });

  it('the most a bundle may hold — 1,000 resources, each with a 16-certificate chain — is checked, each chain once', async () => {
    const bytes = edited((b) => {
      const r = b.resources[1];
      r.tls.chain = [r.tls.chain[0], ...Array.from({ length: 15 }, () => r.tls.chain[1])];
      b.resources = Array.from({ length: 1000 }, (_, i) => ({ ...r, id: `r${i + 1}` }));
    });
    expect(bytes.length).toBeGreaterThan(10_000_000);
    const result = await verified(bytes);
    expect(result.resources).toHaveLength(1000);
    expect(result.tls.every((t) => t.summary === 'valid at observation, valid now')).toBe(true);
    // Every resource answers the document's URL: the re-run finds no DID configuration.
    expect(result.outcome).toBe('FAILED');
    expect(result.atObservation!.unrecorded).toEqual([expect.stringMatching(/^GET https:\/\/localhost:\d+\/\.well-known\/did-configuration\.json$/)]);
  });

  it('a signature that is not a flattened JWS with a detached payload', () => {
    for (const signature of [
      'eyJhbGciOiJFZERTQSJ9..c2ln',
      { protected: 'eyJhbGciOiJFZERTQSJ9', signature: 'c2ln', payload: 'eyJ9' },
      { protected: 'eyJhbGciOiJFZERTQSJ9' },
      { protected: 'not base64url!', signature: 'c2ln' },
      { protected: 'eyJhbGciOiJFZERTQSJ9', signature: 'c2ln==' },
    ]) {
      invalid(
        edited((b) => {
          b.signature = signature;
        }),
        /"signature" is not a flattened JWS \(protected, signature: base64url\)/,
      );
    }
  });

  it('an unknown top-level member is named', () => {
    invalid(
      edited((b) => {
        b.comment = 'added later';
      }),
      /unknown member "comment" \(version 1 has none\)/,
    );
  });

  it('a resource URL that is not an http(s) URL', () => {
    for (const url of ['file:///etc/passwd', 'not a url', 'javascript:alert(1)', '']) {
      invalid(
        edited((b) => {
          b.resources[1].request.url = url;
        }),
        /resource r2: its request URL is not an absolute https or http URL/,
      );
    }
    invalid(
      edited((b) => {
        b.resources[1].response.url = 'ftp://localhost/did.json';
      }),
      /resource r2: its response URL is not an absolute https or http URL/,
    );
    invalid(
      edited((b) => {
        b.resources[1].redirects = [{ from: b.resources[1].request.url, to: 'data:,x', status: 302 }];
      }),
      /resource r2: its redirects are malformed/,
    );
  });

  it('an unknown command kind', () => {
    invalid(
      edited((b) => {
        b.command.kind = 'format-disk';
      }),
      /"command\.kind" is not one of resolve, verify-credential, inspect-mcp, inspect-a2a/,
    );
  });
});

describe('a readable bundle whose parts do not hold is FAILED, naming the part', () => {
  it('a body that does not match its SHA-256 names the resource', async () => {
    const result = await verified(
      edited((b) => {
        const body = unb64(b.resources[1].response.body);
        body[10] = body[10]! ^ 1;
        b.resources[1].response.body = b64(body);
      }),
    );
    expect(result.outcome).toBe('FAILED');
    expect(result.summary).toMatch(/^r2 \(DID document, https:\/\/localhost:\d+\/alice\/did\.json\): its bytes do not match the SHA-256 recorded with them/);
    expect(result.resources.map((r) => r.intact)).toEqual([true, false]);
  });

  it('a certificate cut in half: the chain check names it, the outcome is FAILED, nothing throws', async () => {
    for (const index of [0, 1]) {
      const result = await verified(
        edited((b) => {
          const der = unb64(b.resources[1].tls.chain[index]);
          b.resources[1].tls.chain[index] = b64(der.slice(0, der.length >> 1));
        }),
      );
      expect(result.outcome).toBe('FAILED');
      const r2 = result.tls.find((t) => t.id === 'r2')!;
      expect(r2.summary).toBe('invalid at observation');
      expect(r2.atObservation.problems).toContain(`certificate ${index + 1} of the chain is not a DER X.509 certificate (truncated or damaged)`);
      expect(result.summary).toContain(`r2: the TLS chain of localhost was not valid at observation (certificate ${index + 1} of the chain`);
    }
  });

  it('a re-run that differs from the recorded result says which member, recorded and re-run', async () => {
    const result = await verified(
      edited((b) => {
        b.result.verdict.outcome = 'SOMETHING_ELSE';
      }),
    );
    expect(result.outcome).toBe('FAILED');
    expect(result.summary).toMatch(/^re-run at the bundle's time: verdict\.outcome gives "?\w+"?, recorded "?SOMETHING_ELSE"?/);
  });
});

describe('svc.version is informational', () => {
  it('a bundle from a newer svc of the same format verifies: the version that computed the result is not a difference', async () => {
    const result = await verified(
      edited((b) => {
        b.svc.version = '99.0.0';
        b.result.resolver.version = '99.0.0';
      }),
    );
    expect(result.outcome, result.summary).toBe('VERIFIED');
    expect(result.bundle.svcVersion).toBe('99.0.0');
  });

  it('when the re-run differs, the summary says another svc made the bundle', async () => {
    const result = await verified(
      edited((b) => {
        b.svc.version = '99.0.0';
        b.result.verdict.outcome = 'SOMETHING_ELSE';
      }),
    );
    expect(result.outcome).toBe('FAILED');
    expect(result.summary).toContain(`(the bundle was made by svc 99.0.0, this is svc ${RESOLVER.version}: svc's checks may have changed between them)`);
  });
});

describe('a bundle keeps no secret', () => {
  it('of a host sending cookies, credentials and API keys, no header but those that decide how a resource is read', async () => {
    const did = host.did('secretive');
    const secrets = {
      'set-cookie': 'session=SECRET-COOKIE-1; HttpOnly',
      authorization: 'Bearer SECRET-TOKEN-2',
      'proxy-authorization': 'Basic SECRET-TOKEN-3',
      'x-api-key': 'SECRET-KEY-4',
      'x-auth-token': 'SECRET-TOKEN-5',
    };
    host.server.route(documentPath(did), json(didDocument(did, host.key), { contentType: 'application/did+json', headers: secrets }));
    const bytes = await bundleOf(did);
    const text = new TextDecoder().decode(bytes);
    for (const [name, value] of Object.entries(secrets)) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(`"${name}"`);
    }
    const bundle = decodeBundle(bytes);
    const document = bundle.resources.find((r) => r.purpose === 'DID document')!;
    expect(Object.keys(document.response.headers).sort()).toEqual(['content-length', 'content-type', 'date']);
    // Request headers are never kept: a request is its method and URL (and a body's digest and bytes).
    for (const r of bundle.resources) expect(Object.keys(r.request).sort()).toEqual(['method', 'url']);
    expect((await verified(bytes)).outcome).toBe('VERIFIED');
  });
});

describe('the trust store svc verify-bundle reads', () => {
  it('anchorsFor parses only the anchors the chains end in, and trusts exactly what every anchor parsed would', () => {
    const store = [...rootCertificates, host.ca.certPem];
    const chain = good.resources[1]!.tls!.chain;
    const found = anchorsFor([chain], store);
    expect(found.map((c) => c.fingerprint256)).toEqual(parseAnchors([host.ca.certPem]).map((c) => c.fingerprint256));
    const all = parseAnchors(store);
    expect(all.length).toBeGreaterThan(100);
    expect(chainStructure(chain, 'localhost', found).anchorTrusted).toBe(true);
    expect(chainStructure(chain, 'localhost', all).anchorTrusted).toBe(true);
    // A chain not ending in a self-signed certificate may be issued by any anchor: all are read.
    expect(anchorsFor([chain.slice(0, 1)], store)).toHaveLength(all.length);
    expect(chainStructure(chain.slice(0, 1), 'localhost', anchorsFor([chain.slice(0, 1)], store)).anchorTrusted).toBe(true);
    // An anchor this machine does not hold is not found, and not trusted.
    expect(anchorsFor([chain], [...rootCertificates])).toEqual([]);
    expect(chainStructure(chain, 'localhost', []).anchorTrusted).toBe(false);
  });
});

describe('svc verify-bundle shows what a bundle quotes escaped', () => {
  const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') });
  const write = (name: string, bytes: Uint8Array) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  };

  it('terminal escape sequences in the purpose, the svc version and the URL are printed as \\x1b', async () => {
    const file = write(
      'escapes.bundle.json',
      edited((b) => {
        b.resources[1].purpose = 'DID \u001b[2J\u001b]0;owned\u0007document';
        b.svc.version = '1.0\u001b[31m';
      }),
    );
    const r = await svcIn(['verify-bundle', file], env());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain('DID \\x1b[2J\\x1b]0;owned\\x07document');
    expect(r.stdout).toContain('by svc 1.0\\x1b[31m');

    const failed = write(
      'escapes-failed.bundle.json',
      edited((b) => {
        b.resources[1].purpose = 'DID \u001b[2Jdocument';
        b.resources[1].request.url += '?\u001b[31m';
        const body = utf8('{"id":"\u001b[31m"}');
        b.resources[1].response.body = b64(body);
        b.resources[1].response.bytes = body.length;
      }),
    );
    const f = await svcIn(['verify-bundle', failed], env());
    expect(f.exitCode, f.stderr).toBe(1);
    expect(f.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const headline = f.stdout.split('\n\n')[0]!.replace(/\s+/g, ' ');
    expect(headline).toMatch(/^FAILED r2 \(DID \\x1b\[2Jdocument, https:\/\/localhost:\d+\/alice\/did\.json\?\\x1b\[31m\)/);
  });

  it('a refusal quoting the bundle is one escaped line, exit 4', async () => {
    const file = write(
      'member.bundle.json',
      edited((b) => {
        b['\u001b]0;owned\u0007'] = 1;
      }),
    );
    const r = await svcIn(['verify-bundle', file], env());
    expect(r.exitCode).toBe(4);
    const error = parseCliError(r.stderr);
    expect(error.code).toBe('INVALID_BUNDLE');
    expect(error.detail).toContain('unknown member "\\x1b]0;owned\\x07"');
  });
});
