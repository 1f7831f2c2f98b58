/**
 * The dossier of a fetched did:web shows where the document came from, the TLS evidence and
 * the domain binding — in the plain-text and the ink renderers alike — and escapes hostile
 * text taken from the remote DID configuration.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dossierText } from '../../src/cli/cmd/resolve/render.js';
import { plainStyle, type Style } from '../../src/cli/cmdutil/layout.js';
import { renderDossier } from '../../src/cli/cmd/resolve/render-ink.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { section } from '../support/text.js';
import { didConfiguration, linkageCredentialDi, linkageCredentialJwt, generateTestKey } from '../support/signing.js';

const markStyle: Style = {
  bold: (s) => s,
  dim: (s) => s,
  green: (s) => `[g]${s}[/g]`,
  yellow: (s) => `[y]${s}[/y]`,
  red: (s) => `[r]${s}[/r]`,
  cyan: (s) => s,
};

let host: DidWebHost;
let verified: EnrichedResolution;
let hostile: EnrichedResolution;

beforeAll(async () => {
  host = await startDidWebHost();
  const origin = `https://localhost:${host.server.port}`;
  const did = host.did('shown');
  host.publish(did);
  host.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(did, origin, host.key, `${did}#key-1`))));
  verified = await resolve(did, host.runtime());

  // A configuration whose credential names an origin full of terminal escapes.
  const evil = host.did('evil');
  host.publish(evil);
  host.server.route(
    '/.well-known/did-configuration.json',
    json(didConfiguration(linkageCredentialJwt(evil, '\u001b[2J\u001b]0;pwned\u0007evil.example', generateTestKey('EdDSA'), `${evil}#key-1`))),
  );
  hostile = await resolve(evil, host.runtime());
});

afterAll(async () => {
  await host.close();
});

describe('the did:web dossier', () => {
  it('lists source, transport and origin-binding evidence in text', () => {
    const text = dossierText(verified, plainStyle);
    const source = section(text, 'Source').join('\n');
    expect(source).toContain(`url             https://localhost:${host.server.port}/shown/did.json`);
    expect(source).toContain('pinned address  127.0.0.1');
    // 18 columns of label and 64 of hash do not fit 80: the hash goes whole on the next line.
    expect(source).toContain(`sha256\n    ${verified.evidence.source.sha256}`);
    const transport = section(text, 'Transport').join('\n');
    expect(transport).toMatch(/protocol +TLSv1\.3, TLS_/);
    expect(transport).toMatch(/host in SAN +yes \(localhost\)/);
    expect(transport).toMatch(/trust anchor +CN=svc test CA, O=svc tests/);
    expect(transport).toContain(verified.evidence.tls!.certificate.sha256Fingerprint);
    const binding = section(text, 'Origin binding').join('\n');
    expect(binding).toMatch(/status +VERIFIED/);
    expect(binding).toMatch(/#0 DATA_INTEGRITY eddsa-jcs-2022 +VERIFIED: /);
  });

  it('colours the binding by what it means', () => {
    const text = dossierText(verified, markStyle);
    expect(section(text, 'Origin binding').join('\n')).toContain('[g]VERIFIED[/g]');
    const bad = dossierText(hostile, markStyle);
    expect(hostile.evidence.domainBinding!.status).toBe('MALFORMED');
    expect(section(bad, 'Origin binding').join('\n')).toContain('[r]MALFORMED[/r]');
  });

  it('escapes control characters quoted from the remote configuration', () => {
    const text = dossierText(hostile, plainStyle);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('\\x1b[2J');
  });

  it('renders the same sections with ink', async () => {
    const stream = Object.assign(new PassThrough(), { columns: 120, rows: 30, isTTY: true });
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    await renderDossier(hostile, { colorLevel: 0, stdout: stream as unknown as NodeJS.WriteStream });
    const out = Buffer.concat(chunks).toString('utf8');
    for (const title of ['Source', 'Transport', 'Origin binding']) expect(out).toContain(title);
    expect(out).toContain('pinned address');
    expect(out).toContain('MALFORMED');
    expect(out).not.toContain('\u0007');
    expect(out).toContain('\\x1b[2J');
  });
});
