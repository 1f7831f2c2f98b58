/**
 * The built client (dist/client.js, `svc-evidence/client`) runs in browsers as well as in Node:
 * neither it nor any module it imports names a node: module, a package, or an svc chunk (the
 * rest of svc is built with a node:module banner), and it uses no Node-only global. The source
 * holds the same: src/client imports only src/client and leaf modules of the core (which import
 * nothing). And the module really works where Node's own globals are gone (a process whose `process`, `Buffer`, `require` and `global` were removed).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { assertBuilt, repoRoot } from '../support/cli.js';

const dist = path.join(repoRoot, 'dist');

/**
 * Every module specifier of a module's text, as TypeScript's own pre-processor reads them
 * (static imports and re-exports, side-effect imports, import(), require(); comments and strings
 * are not mistaken for imports).
 */
function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The modules dist/client.js loads, itself included (relative imports followed). */
function graph(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const specs = specifiers(text);
    seen.set(file, specs);
    for (const spec of specs) if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
  };
  visit(entry);
  return seen;
}

describe('the built client', () => {
  it('dist/client.js and every module it imports name no node: module, no package and no other svc chunk', () => {
    assertBuilt();
    const entry = path.join(dist, 'client.js');
    expect(existsSync(entry), 'dist/client.js: run `npm run build`').toBe(true);
    expect(existsSync(path.join(dist, 'client.d.ts'))).toBe(true);
    const modules = graph(entry);
    for (const [file, specs] of modules) {
      const text = readFileSync(file, 'utf8');
      for (const spec of specs) {
        expect(spec.startsWith('node:'), `${path.basename(file)} imports ${spec}`).toBe(false);
        expect(spec.startsWith('.'), `${path.basename(file)} imports the package or builtin ${spec}`).toBe(true);
      }
      expect(text, `${path.basename(file)}: createRequire`).not.toMatch(/createRequire|__svcCreateRequire/);
      expect(text, `${path.basename(file)}: a Node-only global`).not.toMatch(/\bprocess\.|\bBuffer\.|\bglobal\./);
    }
    // No chunk of svc itself: the client is one file of its own.
    const chunks = [...modules.keys()].filter((file) => /chunk-[A-Z0-9]+\.js$/.test(file));
    expect(chunks).toEqual([]);
    expect([...modules.keys()].map((f) => path.relative(dist, f))).toEqual(['client.js']);
  });

  it('the scan would see a node: import (it is not vacuous)', () => {
    // The rest of svc is built with a node:module banner: the scan finds it in dist/index.js.
    const specs = [...graph(path.join(dist, 'index.js')).values()].flat();
    expect(specs.some((s) => s.startsWith('node:'))).toBe(true);
    expect(specifiers("import a from 'node:fs'; export { b } from './c.js'; import './d.js'; await import('e'); require(\"f\"); // import 'g'")).toEqual([
      'node:fs',
      './c.js',
      './d.js',
      'e',
      'f',
    ]);
  });

  it('src/client imports nothing but src/client and leaf modules of the core that import nothing (no node:, no package)', () => {
    const dir = path.join(repoRoot, 'src/client');
    for (const name of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      for (const spec of specifiers(text)) {
        expect(spec, `src/client/${name} imports ${spec}`).toMatch(/^(?:\.\/[a-z-]+|\.\.\/core\/[a-z-]+\/[a-z0-9-]+)\.js$/);
        const target = path.join(dir, spec.replace(/\.js$/, '.ts'));
        expect(existsSync(target), `src/client/${name} imports ${spec}`).toBe(true);
        if (spec.startsWith('../')) expect(specifiers(readFileSync(target, 'utf8')), `${spec}, imported by src/client/${name}, imports`).toEqual([]);
      }
    }
  });

  it('works without Node’s own globals: verifies a webhook and a signed result, parses a stream with process, Buffer, require and global removed', async () => {
    const script = `
      const { createHmac, createHash, generateKeyPairSync, sign } = await import('node:crypto');
      const secret = 'whsec', body = '{"id":"evt_1"}', ts = String(Math.floor(Date.now() / 1000));
      const headers = { 'x-svc-timestamp': ts, 'x-svc-signature-256': 'sha256=' + createHmac('sha256', secret).update(ts + '.' + body).digest('hex') };
      // A signed result, made here: a did:key signer (Ed25519), the payload {"a":1,"b":"x"} in its RFC 8785 form.
      const pair = generateKeyPairSync('ed25519');
      const raw = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x, 'base64url');
      const A = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
      let n = BigInt('0x' + Buffer.concat([Buffer.from([0xed, 0x01]), raw]).toString('hex')), mb = '';
      while (n > 0n) { mb = A[Number(n % 58n)] + mb; n /= 58n; }
      const did = 'did:key:z' + mb, payload = '{"a":1,"b":"x"}';
      const head = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: did + '#z' + mb, typ: 'svc-result+jws', iat: 1700000000, 'svc-canon': 'RFC8785', 'svc-sha256': createHash('sha256').update(payload).digest('hex') })).toString('base64url');
      const jws = head + '..' + sign(null, Buffer.from(head + '.' + Buffer.from(payload).toString('base64url')), pair.privateKey).toString('base64url');
      const write = process.stdout.write.bind(process.stdout);
      for (const name of ['process', 'Buffer', 'require', 'global', 'setImmediate']) delete globalThis[name];
      const c = await import(${JSON.stringify(path.join(dist, 'client.js'))});
      const valid = await c.verifyWebhook(secret, headers, body);
      const tampered = await c.verifyWebhook(secret, headers, body + ' ');
      const signed = (await c.verifyResultSignature({ b: 'x', a: 1 }, jws)).reason;
      const edited = (await c.verifyResultSignature({ b: 'y', a: 1 }, jws)).reason;
      const events = new c.SseParser().push('event: done\\r\\ndata: {}\\r\\n\\r\\n');
      const client = new c.SvcClient({ baseUrl: 'http://127.0.0.1:1' });
      write(JSON.stringify({ valid, tampered, signed, edited, events, methods: typeof client.resolve, noProcess: typeof process }));`;
    const r = await execa(process.execPath, ['--input-type=module', '-e', script], { reject: false, timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(String(r.stdout))).toEqual({
      valid: true,
      tampered: false,
      signed: 'VALID',
      edited: 'EDITED',
      events: [{ event: 'done', data: '{}' }],
      methods: 'function',
      noProcess: 'undefined',
    });
  });
});
