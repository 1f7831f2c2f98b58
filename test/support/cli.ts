/**
 * Runs the built CLI (bin/svc.js → dist/cli.js) as a real process, as users and CI do (svc,
 * svcInTty), or in this process from the sources where the process is not the subject (svcIn).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import type { ConnectionOptions, SecureContext, TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const svcBin = path.join(repoRoot, 'bin/svc.js');

export function assertBuilt(): void {
  if (!existsSync(path.join(repoRoot, 'dist/cli.js'))) {
    throw new Error('dist/cli.js is missing: run `npm run build` (npm test does it first)');
  }
}

/**
 * The state directory of this test process's CLI runs: `svc resolve` records observations under
 * $XDG_STATE_HOME/svc/, never in the user's own history. Removed when the process exits.
 */
export const testStateHome = mkdtempSync(path.join(tmpdir(), 'svc-cli-state-'));
process.on('exit', () => rmSync(testStateHome, { recursive: true, force: true }));

/**
 * Environment without the caller's colour, width and pager settings, so tests decide them; state
 * in a test directory. No pager (SVC_PAGER=cat): a report taller than a test's pseudo-terminal
 * would otherwise wait in less for a key (test/integration/cli-pager.e2e.test.ts asks for one).
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    COLUMNS: undefined,
    TERM: 'xterm-256color',
    CI: undefined,
    XDG_STATE_HOME: testStateHome,
    // No svc.config.json of the user's (none is in the state directory).
    XDG_CONFIG_HOME: testStateHome,
    SVC_CONFIG: undefined,
    SVC_DATABASE_URL: undefined,
    PAGER: undefined,
    SVC_PAGER: 'cat',
    ...extra,
  };
}

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function asRun(r: { exitCode?: number | undefined; stdout: unknown; stderr: unknown }): Run {
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

export async function svc(args: string[], env: Record<string, string | undefined> = cleanEnv(), nodeArgs: string[] = []): Promise<Run> {
  return asRun(await execa(process.execPath, [...nodeArgs, svcBin, ...args], { reject: false, env, extendEnv: true, cwd: repoRoot, timeout: 20_000 }));
}

/**
 * Runs the CLI in this test process: `main()` of src/cli/main.ts (the sources, not dist/) with
 * the io a piped child process of `svc()` has, so the same Run comes back without paying a node
 * start and a bundle load per run:
 *
 * - stdout and stderr are captured (isTTY false, no columns, no colour depth: a pipe), each
 *   write encoded to UTF-8 as a pipe would (a lone surrogate becomes U+FFFD) and one final
 *   newline stripped, as execa does;
 * - the environment is this process's merged with `env` (execa's extendEnv), undefined values
 *   removed, and reaches the CLI through io.env only;
 * - the working directory is repoRoot (checked: vitest runs from it);
 * - what only a fresh process gives is restored per run (runScope below): the trust anchors
 *   NODE_EXTRA_CA_CERTS names (node reads it once, at start), and the connections the run opened
 *   end with it (a process's sockets end when it exits).
 *
 * The rest of the CLI's module-level state is per run already or pure: every run builds its own
 * program, io, runtime (resolution cache, connection pool, freeze mode from SVC_FREEZE_RESULTS),
 * store and colour level (chalk instances per level; the shared chalk only for ink, on a TTY);
 * the memo tables (key checks, did:web locations, RFC 3339 stamps, webvh key objects, the last
 * date-time read) are pure functions of their keys; lazily loaded modules load once.
 *
 * What it cannot be, it refuses (use svc()): the daemons (serve, webhook listen: they own the
 * process's signals), a setting node reads at start (NODE_OPTIONS, TZ …) different from this
 * process's, a log level (the logger writes to process.stderr). Standard input is this process's
 * (a pipe vitest never writes to, like svc()'s): a run that reads it stays on execa with `input`.
 * Node flags, a terminal, signals, the pager and the dist/ bundle itself are svc()'s and
 * svcInTty()'s (test/integration/cli-in-process.e2e.test.ts holds the two to the same output).
 */
export async function svcIn(args: string[], env: Record<string, string | undefined> = cleanEnv()): Promise<Run> {
  const help = args.includes('--help') || args.includes('-h');
  if (!help && (args[0] === 'serve' || (args[0] === 'webhook' && args[1] === 'listen'))) {
    throw new Error(`svcIn: svc ${args.slice(0, 2).join(' ')} is a daemon (it owns the process's signals); use svc()`);
  }
  if (process.cwd() !== repoRoot) throw new Error(`svcIn runs the CLI with this process's working directory, ${process.cwd()}, not ${repoRoot}: use svc()`);
  const merged: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) merged[name] = value;
  for (const name of NODE_START_SETTINGS) {
    if (merged[name] !== process.env[name]) throw new Error(`svcIn: ${name} is read by node when a process starts; this run needs one: use svc()`);
  }
  if (merged['SVC_LOG_LEVEL'] && ['debug', 'info', 'warn', 'error'].includes(merged['SVC_LOG_LEVEL'])) {
    throw new Error('svcIn: the log lines of SVC_LOG_LEVEL go to process.stderr, not the run’s; use svc()');
  }
  const [{ main }, scope] = await Promise.all([import('../../src/cli/main.js'), runScope(merged['NODE_EXTRA_CA_CERTS'])]);
  const stdout = new PipeCapture();
  const stderr = new PipeCapture();
  // Each run listens for SIGINT while it runs, as each process does: runs at the same time are
  // not a leak.
  running += 1;
  if (process.getMaxListeners() < 10 + running) process.setMaxListeners(10 + running);
  try {
    const exitCode = await scope.storage.run(scope.run, () => main(args, { stdout, stderr, env: merged }));
    // A process writes what it queued before it exits: let anything queued on this turn land.
    await new Promise((resolve) => setImmediate(resolve));
    return { exitCode, stdout: stripFinalNewline(stdout.text()), stderr: stripFinalNewline(stderr.text()) };
  } finally {
    running -= 1;
    for (const socket of scope.run.sockets) socket.destroy();
  }
}

/** svcIn runs under way. */
let running = 0;

/** Settings node reads once, when a process starts (or reads from process.env, never io.env). */
const NODE_START_SETTINGS = [
  'NODE_OPTIONS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'NODE_NO_WARNINGS',
  'NODE_DEBUG',
  'NODE_PENDING_DEPRECATION',
  'NODE_ICU_DATA',
  'UV_THREADPOOL_SIZE',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'TZ',
  'LANG',
  'LC_ALL',
  'HOME',
  'TMPDIR',
];

/** A pipe's end of a child process: no terminal, everything written kept as UTF-8 bytes. */
class PipeCapture {
  readonly isTTY = false;
  readonly #chunks: Buffer[] = [];

  write(chunk: string | Uint8Array): boolean {
    this.#chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    return true;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** execa's stripFinalNewline (strip-final-newline): one trailing LF, and a CR before it. */
function stripFinalNewline(text: string): string {
  return text.at(-1) === '\n' ? text.slice(0, text.at(-2) === '\r' ? -2 : -1) : text;
}

interface RunState {
  /** The default trust anchors of a process started with this run's NODE_EXTRA_CA_CERTS, when they differ from this one's. */
  secureContext: SecureContext | undefined;
  /** Connections opened during the run, ended with it. */
  sockets: Set<Socket>;
}

let storage: AsyncLocalStorage<RunState> | undefined;
/** The trust anchors of a process by the extra certificates it was started with. */
const contexts = new Map<string, SecureContext>();

/**
 * The run's scope: node:tls and node:net are wrapped once (connect, createConnection) so that a
 * connection opened inside a run is recorded, and a TLS connection that names no trust anchors
 * of its own trusts what a process started with the run's NODE_EXTRA_CA_CERTS would: node's
 * bundled roots plus that file's certificates (none when unset). Outside a run nothing changes.
 */
async function runScope(extraCaCerts: string | undefined): Promise<{ storage: AsyncLocalStorage<RunState>; run: RunState }> {
  if (storage === undefined) {
    const store = (storage = new AsyncLocalStorage<RunState>());
    const require = createRequire(import.meta.url);
    const tls = require('node:tls') as typeof import('node:tls');
    const net = require('node:net') as typeof import('node:net');
    const tlsConnect = tls.connect;
    const netConnect = net.connect;
    const recorded = <T extends Socket>(socket: T): T => {
      store.getStore()?.sockets.add(socket);
      return socket;
    };
    tls.connect = function (this: unknown, ...args: unknown[]) {
      const run = store.getStore();
      if (run?.secureContext !== undefined && typeof args[0] === 'object' && args[0] !== null) {
        const options = args[0] as ConnectionOptions;
        if (options.secureContext === undefined && options.ca === undefined) args[0] = { ...options, secureContext: run.secureContext };
      }
      return recorded((tlsConnect as (...a: unknown[]) => TLSSocket).apply(this, args));
    } as typeof tls.connect;
    net.connect = net.createConnection = function (this: unknown, ...args: unknown[]) {
      return recorded((netConnect as (...a: unknown[]) => Socket).apply(this, args));
    } as typeof net.connect;
    syncBuiltinESMExports();
  }
  let secureContext: SecureContext | undefined;
  if (extraCaCerts !== process.env['NODE_EXTRA_CA_CERTS']) {
    let extra = '';
    if (extraCaCerts !== undefined && extraCaCerts !== '') {
      try {
        extra = readFileSync(extraCaCerts, 'utf8');
      } catch {
        // node warns on stderr and goes on without them: a process's business.
        throw new Error(`svcIn: NODE_EXTRA_CA_CERTS=${extraCaCerts} cannot be read; node's warning about it needs a process: use svc()`);
      }
    }
    secureContext = contexts.get(extra);
    if (secureContext === undefined) {
      const { createSecureContext, rootCertificates } = await import('node:tls');
      secureContext = createSecureContext({ ca: extra === '' ? [...rootCertificates] : [...rootCertificates, extra] });
      contexts.set(extra, secureContext);
    }
  }
  return { storage, run: { secureContext, sockets: new Set() } };
}

/** Node flags that make any import of ink or react throw (see forbid-ink.mjs). */
export const FORBID_INK = ['--import', path.join(repoRoot, 'test/support/forbid-ink.mjs')];

/**
 * Runs the CLI under a pseudo-terminal (util-linux `script`) so stdout is a real TTY. The
 * terminal gets a size, as a user's has; `rows = 0` tests the size-less case.
 */
export async function svcInTty(
  args: string[],
  env: Record<string, string | undefined> = cleanEnv(),
  size: { rows: number; cols: number } = { rows: 40, cols: 100 },
  nodeArgs: string[] = [],
): Promise<Run> {
  const quoted = [process.execPath, ...nodeArgs, svcBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const command = `stty rows ${size.rows} cols ${size.cols}; ${quoted}`;
  return asRun(
    await execa('script', ['-qec', command, '/dev/null'], {
      reject: false,
      env,
      extendEnv: true,
      cwd: repoRoot,
      timeout: 20_000,
    }),
  );
}

export const ANSI_COLOR = /\u001b\[(?:3[0-9]|9[0-7]|38;)/;

/** An error block as `parseCliError` reads it (src/cli/cmdutil/errors.ts writes it). */
export interface CliErrorBlock {
  /** A problem code (INVALID_DID …) or the CLI's own (USAGE_ERROR, LISTEN_FAILED …). */
  code: string;
  /** The rest of the first line, after `svc: CODE: `. */
  detail: string;
  /** Each `  failed at <stage> (<label>)` line's `<stage> (<label>)`, in order. */
  failedAt: string[];
  /** `<stage> (<label>): <its detail>` for each stage whose own detail is written under it. */
  stageDetails: string[];
  /** The `  hint: …` line's text, after `hint: `. */
  hint: string;
}

const ERROR_FIRST_LINE = /^svc: ([A-Z][A-Z0-9_]*): (\S.*)$/;
const ERROR_FAILED_AT = /^ {2}failed at (\S.*)$/;
// A failing stage's own detail, written under its `failed at` line only when it differs from the error's.
const ERROR_STAGE_DETAIL = /^ {4}(\S.*)$/;
const ERROR_HINT = /^ {2}hint: (\S.*)$/;
const STACK_FRAME = /^\s+at \S/;

/**
 * Reads stderr as exactly one error block in the CLI's one error style, and throws (failing the
 * test) on anything else:
 *
 *   svc: CODE: one-line detail
 *     failed at <stage> (<label>)       zero or more
 *     hint: …                           exactly one, last
 *
 * Nothing else: no other line before or after (not even a blank one; the one newline that ends
 * the block may be there or stripped, as svc() strips it), no colour, no stack trace. A `failed at` line may carry its stage's own detail on the next line, indented by four
 * (errors.ts writes it only when it differs from the error's detail); those are returned apart.
 */
export function parseCliError(stderr: string): CliErrorBlock {
  const fail = (why: string): never => {
    throw new Error(`stderr is not one svc error block (${why}):\n${JSON.stringify(stderr)}`);
  };
  if (/\u001b|\r/.test(stderr)) fail('escape sequences or carriage returns');
  // The CLI ends the block with one newline; svc() (execa) strips it, a raw capture keeps it.
  const lines = (stderr.endsWith('\n') ? stderr.slice(0, -1) : stderr).split('\n');
  const first = ERROR_FIRST_LINE.exec(lines[0] ?? '') ?? fail('the first line is not `svc: CODE: detail`');
  const last = ERROR_HINT.exec(lines.at(-1) ?? '');
  if (lines.length < 2 || !last) fail('the last line is not `  hint: …`');
  const failedAt: string[] = [];
  const stageDetails: string[] = [];
  let afterStage = false;
  for (const line of lines.slice(1, -1)) {
    if (STACK_FRAME.test(line)) fail('a stack trace');
    const stage = ERROR_FAILED_AT.exec(line);
    const detail = ERROR_STAGE_DETAIL.exec(line);
    if (stage) failedAt.push(stage[1]!);
    else if (detail && afterStage) stageDetails.push(`${failedAt.at(-1)!}: ${detail[1]!}`);
    else fail(`unexpected line ${JSON.stringify(line)}`);
    afterStage = stage !== null;
  }
  return { code: first[1]!, detail: first[2]!, failedAt, hint: last![1]!, stageDetails };
}

/** Exactly one JSON document on stdout (stderr shown when it is not). */
export function onlyJson(r: Run): any {
  expect(r.stdout.trimEnd().startsWith('{'), r.stderr).toBe(true);
  return JSON.parse(r.stdout);
}

/**
 * A usage error: exit 2, nothing on stdout, and the one error block with code USAGE_ERROR, its
 * detail matching `detail`; with `command`, the hint names that command's --help.
 */
export function expectUsageError(r: Run, detail: RegExp, command?: string): CliErrorBlock {
  expect({ exitCode: r.exitCode, stdout: r.stdout }, r.stderr).toEqual({ exitCode: 2, stdout: '' });
  const error = parseCliError(r.stderr);
  expect(error.code).toBe('USAGE_ERROR');
  expect(error.detail).toMatch(detail);
  if (command !== undefined) expect(error.hint).toBe(`see 'svc ${command} --help'`);
  return error;
}
