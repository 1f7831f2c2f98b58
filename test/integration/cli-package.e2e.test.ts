/**
 * svc as people install it: the npm tarball (`npm pack` of the built tree) installed globally
 * into a temporary prefix runs as `svc`, and installed into a TypeScript project it is a library
 * whose bundled declarations type-check a consumer's code. Real npm, real tarball, the repo's
 * own tsc; dependencies come from npm's cache (the registry only for what it lacks), and no
 * install script runs (better-sqlite3 is not rebuilt: neither `svc --version` nor the library
 * entry loads it).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, repoRoot } from '../support/cli.js';
import { ED25519_DID } from '../support/dids.js';
import { unsignedCredential } from '../support/peer-issuers.js';
import { rdfcIssuer } from '../support/peer-rdfc.js';

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };

let dir: string;
let tarball: string;
let prefix: string;
let project: string;

/**
 * npm's environment without what a surrounding `npm test` exported (npm_config_local_prefix
 * and friends would point the installs back at the repository).
 */
function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^npm_/i.test(name) && name !== 'NODE_OPTIONS') env[name] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

async function npm(args: string[], cwd: string): Promise<string> {
  const r = await execa('npm', args, { cwd, env: npmEnv(), extendEnv: false, reject: false, timeout: 60_000 });
  if (r.exitCode !== 0) throw new Error(`npm ${args[0]} failed (${r.exitCode}): ${String(r.stderr).trim().split('\n').slice(-3).join(' | ')}`);
  return String(r.stdout);
}

/** Install flags: no scripts, no lockfile churn; npm's cache first. */
const INSTALL = ['--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];

beforeAll(async () => {
  assertBuilt();
  if (!existsSync(path.join(repoRoot, 'dist/index.d.ts'))) throw new Error('dist/index.d.ts is missing: run `npm run build`');
  dir = mkdtempSync(path.join(tmpdir(), 'svc-package-'));
  // The tarball of the tree as built: --ignore-scripts, so `prepare` does not build it again.
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], repoRoot)) as Array<{ filename: string }>;
  tarball = path.join(dir, packed[0]!.filename);

  prefix = path.join(dir, 'prefix');
  project = path.join(dir, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Both installs at once: most of their time is unpacking, which overlaps well.
  await Promise.all([npm(['install', '--global', '--prefix', prefix, ...INSTALL, tarball], dir), npm(['install', ...INSTALL, tarball], project)]);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the npm package', () => {
  it(`is named ${pkg.name} and ships the binary, the library, its declarations, the daemon's writer thread and the licence, nothing from src/`, () => {
    expect(pkg.name).toBe('svc-evidence');
    const installed = path.join(project, 'node_modules', pkg.name);
    for (const file of [
      'bin/svc.js',
      'dist/cli.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/client.js',
      'dist/client.d.ts',
      'dist/sqlite-writer.js',
      'LICENSE',
    ]) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    expect(existsSync(path.join(installed, 'src'))).toBe(false);
    // Every module the declarations import is either a package or a file that was shipped.
    for (const file of ['dist/index.d.ts', 'dist/client.d.ts']) {
      const dts = readFileSync(path.join(installed, file), 'utf8');
      expect(dts).toMatch(/\bresolve\b/);
      for (const [, specifier] of dts.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
        if (specifier!.startsWith('.')) expect(existsSync(path.join(installed, 'dist', specifier!)), specifier).toBe(true);
      }
    }
  });

  it('installed globally, `svc --version` runs from the prefix and names the package version', async () => {
    const bin = path.join(prefix, 'bin', 'svc');
    expect(existsSync(bin)).toBe(true);
    const r = await execa(bin, ['--version'], {
      reject: false,
      env: { ...npmEnv(), PATH: `${path.dirname(process.execPath)}:${process.env['PATH'] ?? ''}` },
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(String(r.stdout)).toContain(pkg.version);
  });

  it('installed globally, `svc verify-credential --jsonld` verifies an eddsa-rdfc-2022 credential: the pinned contexts ship in dist/', async () => {
    const issuer = await rdfcIssuer('eddsa-rdfc-2022');
    const file = path.join(dir, 'rdfc-credential.json');
    writeFileSync(file, JSON.stringify(await issuer.sign(unsignedCredential(issuer.did))));
    const r = await execa(path.join(prefix, 'bin', 'svc'), ['verify-credential', file, '--jsonld', '--json'], {
      reject: false,
      env: { ...npmEnv(), PATH: `${path.dirname(process.execPath)}:${process.env['PATH'] ?? ''}` },
      timeout: 20_000,
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(String(r.stdout)).status).toBe('VALID');
    expect(r.exitCode).toBe(0);
  });

  it('installed globally, `man svc` finds the manual page: npm links share/man/man1/svc.1 (package.json "man" is a list)', async () => {
    const linked = path.join(prefix, 'share', 'man', 'man1', 'svc.1');
    expect(existsSync(linked), linked).toBe(true);
    expect(realpathSync(linked)).toBe(realpathSync(path.join(prefix, 'lib', 'node_modules', pkg.name, 'man', 'svc.1')));
    expect(readFileSync(linked, 'utf8')).toMatch(/^\.TH SVC 1 /m);
    // man-db finds pages beside a PATH directory's bin/ (…/share/man), as after npm install -g.
    if ((await execa('sh', ['-c', 'command -v man'], { reject: false })).exitCode !== 0) return;
    const env = { ...npmEnv(), MANPATH: undefined, PATH: `${path.join(prefix, 'bin')}:${process.env['PATH'] ?? ''}` };
    const man = await execa('man', ['-w', 'svc'], { reject: false, env, extendEnv: false, timeout: 20_000 });
    expect(man.exitCode, String(man.stderr)).toBe(0);
    expect(realpathSync(String(man.stdout).trim())).toBe(realpathSync(linked));
  });

  it('imported by name from a project, the library resolves a did:key', async () => {
    const script = `
      const m = await import('svc-evidence');
      const result = await m.resolve(${JSON.stringify(ED25519_DID)}, m.createRuntime({}));
      console.log(JSON.stringify({ resolve: typeof m.resolve, version: m.VERSION, id: result.didDocument.id, outcome: result.verdict.outcome }));`;
    const r = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: project, reject: false, timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ resolve: 'function', version: pkg.version, id: ED25519_DID, outcome: 'RESOLVED' });
  });

  it('imported by name, svc-evidence/client is the API client', async () => {
    const script = `
      const m = await import('svc-evidence/client');
      const client = new m.SvcClient({ baseUrl: 'http://127.0.0.1:1' });
      console.log(JSON.stringify({ client: typeof m.SvcClient, resolve: typeof client.resolve, error: typeof m.SvcError, verify: typeof m.verifyWebhook }));`;
    const r = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: project, reject: false, timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ client: 'function', resolve: 'function', error: 'function', verify: 'function' });
  });

  it('type-checks a browser consumer of svc-evidence/client (DOM lib, no Node types), and catches wrong types', async () => {
    writeFileSync(
      path.join(project, 'browser.ts'),
      `import { SvcClient, SvcError, verifyWebhook, type EnrichedResolution, type Problem, type StreamFrame } from 'svc-evidence/client';
const client = new SvcClient({ baseUrl: 'https://svc.example', timeoutMs: 5000, retry: { attempts: 3 } });
const result: EnrichedResolution = await client.resolve('did:key:z', { noCache: true, signal: new AbortController().signal });
const outcome: 'RESOLVED' | 'RESOLVED_WITH_WARNINGS' | 'DEACTIVATED' = result.verdict.outcome;
// @ts-expect-error 'RESOLVED_WITH_WARNINGS' and 'DEACTIVATED' do not fit 'RESOLVED'
const narrow: 'RESOLVED' = result.verdict.outcome;
// @ts-expect-error a DID is a string
await client.resolve(42);
const decision = await client.authorizeOrDeny({ chain: [], tool: 'search', trustedRoots: ['did:web:example.com'] });
// @ts-expect-error the DENY helpers require trustedRoots (or anyRoot: true)
await client.authorizeOrDeny({ chain: [], tool: 'search' });
await client.verifyToolOrDeny({ agent: 'did:key:z', tool: 'search', anyRoot: true });
const allowed: boolean = decision.decision === 'ALLOW' && decision.authorized;
const valid: boolean = await verifyWebhook('secret', new Headers(), new Uint8Array());
for await (const frame of client.stream('did:key:z')) {
  const f: StreamFrame = frame;
  if (f.event === 'error') {
    const p: Problem = f.data;
    throw new SvcError({ code: p.code, status: p.status, title: p.title, detail: p.detail, type: p.type });
  }
}
export { outcome, narrow, allowed, valid };
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.browser.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom', 'dom.asynciterable'],
          types: [],
          skipDefaultLibCheck: true,
        },
        files: ['browser.ts'],
      }),
    );
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    // Library checking stays on: the shipped client declarations must hold without @types/node.
    const r = await execa(tsc, ['-p', 'tsconfig.browser.json'], { cwd: project, reject: false, timeout: 90_000 });
    expect(String(r.stdout)).toBe('');
    expect(r.exitCode).toBe(0);
  }, 90_000);

  it("type-checks a TypeScript consumer against the package's declarations, and catches a wrong type", async () => {
    writeFileSync(
      path.join(project, 'good.ts'),
      `import { createRuntime, resolve, type EnrichedResolution, type Outcome } from 'svc-evidence';
const result: EnrichedResolution = await resolve(${JSON.stringify(ED25519_DID)}, createRuntime({}));
const outcome: 'RESOLVED' | 'RESOLVED_WITH_WARNINGS' | 'DEACTIVATED' = result.verdict.outcome;
const same: Outcome = outcome;
// Were the outcome typed loosely (any, string), this line would not be the error it must be.
// @ts-expect-error 'RESOLVED_WITH_WARNINGS' and 'DEACTIVATED' do not fit 'RESOLVED'
const narrow: 'RESOLVED' = result.verdict.outcome;
export { same, narrow };
`,
    );
    writeFileSync(
      path.join(project, 'bad.ts'),
      `import { resolve, createRuntime } from 'svc-evidence';
const count: number = (await resolve('did:key:z', createRuntime({}))).verdict.outcome;
export { count };
`,
    );
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    // One run for both files (tsc's start-up is most of the cost). Library checking stays on
    // (no skipLibCheck), so the shipped declarations themselves must be sound; TypeScript's own
    // lib files are skipped. @types/node from the repository, as a Node project has its own.
    const flags = ['--noEmit', '--strict', '--skipDefaultLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const types = ['--types', 'node', '--typeRoots', path.join(repoRoot, 'node_modules', '@types')];
    const r = await execa(tsc, [...flags, ...types, 'good.ts', 'bad.ts'], { cwd: project, reject: false, timeout: 90_000 });
    expect(r.exitCode).not.toBe(0);
    const errors = String(r.stdout)
      .split('\n')
      .filter((line) => /error TS/.test(line));
    // Exactly the deliberate error: nothing in good.ts, nothing in the declarations.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^bad\.ts\(2,7\): error TS2322: Type '[^']+' is not assignable to type 'number'/);
  }, 90_000);
});
