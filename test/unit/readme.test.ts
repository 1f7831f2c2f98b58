/**
 * The front door and the map stay true: README.md is short (≤ 300 lines) and starts with the two
 * set-up commands CI runs; every relative link of README.md and docs/ reaches a file (and, when it
 * names one, a heading, by GitHub's anchors); the README's offline commands — did:key and did:jwk
 * resolutions, keygen, help, the delegation walk-through — run in this process with the exit codes
 * their comments state; and the facts most likely to go stale (the schema version, the names of
 * environment variables) are read from the code.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/cli/cmdutil/environment.js';
import { SCHEMA_VERSION } from '../../src/store/index.js';
import { cleanEnv, repoRoot, svcIn, type Run } from '../support/cli.js';
import { anchorsOf, githubSlug, markdownFiles, proseLines } from '../support/markdown.js';

const README = path.join(repoRoot, 'README.md');
const DOCS = path.join(repoRoot, 'docs');

const pages = [README, ...markdownFiles(DOCS)];

interface Link {
  from: string;
  line: number;
  target: string;
}

/** The relative links of a page: inline Markdown links outside code, not URLs with a scheme. */
function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  proseLines(readFileSync(file, 'utf8')).forEach((raw, index) => {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const match of line.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ from: file, line: index + 1, target });
    }
  });
  return links;
}

/** What is wrong with a link, or null when it reaches its file and anchor. */
function brokenLink(link: Link): string | null {
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = pathPart === '' ? link.from : path.resolve(path.dirname(link.from), decodeURIComponent(pathPart));
  if (path.relative(repoRoot, target).startsWith('..')) return 'leaves the repository';
  if (!existsSync(target)) return 'no such file';
  if (anchor === undefined) return null;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `an anchor into ${path.relative(repoRoot, target)}, which has no headings`;
  return anchorsOf(target).has(anchor) ? null : `no heading #${anchor} in ${path.relative(repoRoot, target)}`;
}

describe('README.md is the front door', () => {
  const text = readFileSync(README, 'utf8');

  it('is at most 300 lines', () => {
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('starts with the two set-up commands CI runs, unchanged', () => {
    const setup = ['npm ci && npx svc resolve did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'npm test'];
    expect(text.split('\n').slice(2, 6)).toEqual(['```sh', ...setup, '```']);
    const ci = readFileSync(path.join(repoRoot, '.ci/run'), 'utf8').split('\n');
    for (const command of setup) expect(ci).toContain(command);
  });

  it('never sends a reader to the registry package named svc', () => {
    // `npx svc` is safe in the clone only (the set-up commands); the install section names svc-evidence.
    const npxOutsideSetup = text
      .split('\n')
      .slice(6)
      .filter((line) => /npx svc\b/.test(line.replace(/`npx svc[^`]*`/g, '')));
    expect(npxOutsideSetup).toEqual([]);
    expect(text).not.toMatch(/npm (install|i) (-g )?svc(\s|$)/m);
    expect(text).toContain('svc-evidence');
  });
});

describe('links', () => {
  it('finds the pages', () => {
    expect(pages.map((p) => path.relative(repoRoot, p))).toEqual(
      expect.arrayContaining(['README.md', 'docs/README.md', 'docs/cli.md', 'docs/evidence.md', 'docs/daemon.md', 'docs/security.md']),
    );
  });

  it('every relative link of README.md and docs/ reaches a file and, when it names one, a heading', () => {
    const links = pages.flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(100);
    const broken = links.flatMap((link) => {
      const why = brokenLink(link);
      return why === null ? [] : [`${path.relative(repoRoot, link.from)}:${link.line} (${link.target}): ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('every page of docs/ is reachable from the README through the index', () => {
    const index = new Set(relativeLinks(path.join(DOCS, 'README.md')).map((l) => path.resolve(DOCS, l.target.split('#')[0]!)));
    const readmeLinks = new Set(relativeLinks(README).map((l) => path.resolve(repoRoot, l.target.split('#')[0]!)));
    expect(readmeLinks).toContain(path.join(DOCS, 'README.md'));
    const unlisted = markdownFiles(DOCS).filter((p) => p !== path.join(DOCS, 'README.md') && !index.has(p));
    expect(unlisted.map((p) => path.relative(repoRoot, p))).toEqual([]);
  });

  it('reads anchors as GitHub writes them', () => {
    expect(githubSlug('Progress and --verbose')).toBe('progress-and---verbose');
    expect(githubSlug("Authorise an agent's tool call")).toBe('authorise-an-agents-tool-call');
    expect(githubSlug('did:key and did:jwk')).toBe('didkey-and-didjwk');
    expect(githubSlug('The `svc serve` daemon: profiles')).toBe('the-svc-serve-daemon-profiles');
    expect(githubSlug('SVC_DATABASE_URL, [PostgreSQL](x.md)')).toBe('svc_database_url-postgresql');
  });
});

describe('facts read from the code', () => {
  const texts = pages.map((file) => ({ file: path.relative(repoRoot, file), text: readFileSync(file, 'utf8') }));

  it('every schema version the docs state is the one this build writes', () => {
    const stated = texts.flatMap(({ file, text }) => [...text.matchAll(/schema version (\d+)/gi)].map((m) => `${file}: ${m[1]}`));
    expect(stated.length).toBeGreaterThan(0);
    expect(stated.filter((s) => !s.endsWith(`: ${SCHEMA_VERSION}`))).toEqual([]);
  });

  it('cite no document the repository does not hold (SPEC sections, issue numbers): they restate the fact', () => {
    const citations = texts.flatMap(({ file, text }) => [...text.matchAll(/\bSPEC\b[^\n]{0,20}|\bissues? \d+/g)].map((m) => `${file}: ${m[0]}`));
    expect(citations).toEqual([]);
  });

  it('every SVC_ variable the docs name is one svc reads (or one of the test suite)', () => {
    const known = new Set(ENVIRONMENT.map((v) => v.name));
    const testOnly = new Set(['SVC_TEST_DATABASE_URL', 'SVC_CHROMIUM', 'SVC_SHARED_FIXTURES', 'SVC_PROPERTY_RUNS', 'SVC_PROPERTY_SEED', 'SVC_BENCH_BASELINE']);
    const unknown = texts.flatMap(({ file, text }) =>
      [...new Set([...text.matchAll(/\bSVC_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]))]
        // `SVC_CACHE_*` and `SVC_MAX_CONCURRENCY…` name a family.
        .filter((name) => !known.has(name) && !testOnly.has(name) && ![...known].some((k) => k.startsWith(`${name}_`)))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The README's offline commands, run as a reader would run them, in order, in one folder.

/** One command line of a shell block: the command and its comment. */
interface ShellLine {
  command: string;
  comment: string;
}

/** The `sh` blocks of a Markdown text, as logical lines (continuations joined, comments split off). */
function shellLines(text: string): ShellLine[] {
  const lines: ShellLine[] = [];
  for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) {
      const at = commentStart(line);
      const command = (at < 0 ? line : line.slice(0, at)).trim();
      if (command !== '') lines.push({ command, comment: at < 0 ? '' : line.slice(at + 1).trim() });
    }
  }
  return lines;
}

/** Where a shell comment starts: a `#` outside quotes, at the start or after white space. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return i;
    }
  }
  return -1;
}

/** Splits a command into words as the shell would for these lines: quotes, and $VAR expanded. Null when a variable is unknown. */
function words(command: string, vars: Map<string, string>): string[] | null {
  const out: string[] = [];
  let unknown = false;
  const expand = (s: string) =>
    s.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => {
      const value = vars.get(name);
      if (value === undefined) unknown = true;
      return value ?? '';
    });
  for (const match of command.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    out.push(match[1] ?? expand(match[2] ?? match[3]!));
  }
  return unknown ? null : out;
}

/** Commands that need no network and no daemon, given did:key / did:jwk identifiers. */
const OFFLINE = new Set([
  'resolve',
  'dereference',
  'graph',
  'keygen',
  'help',
  'version',
  'completion',
  'delegate',
  'verify-delegation',
  'authorize',
  'verify-tool',
]);

function offline(args: string[]): boolean {
  const [command] = args;
  if (command === undefined || !OFFLINE.has(command)) return false;
  const dids = args.filter((a) => a.startsWith('did:'));
  return dids.every((did) => did.startsWith('did:key:') || did.startsWith('did:jwk:'));
}

interface Ran {
  command: string;
  expected: number;
  run: Run;
}

describe("the README's offline commands", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-readme-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A file name on a command line is a file in the reader's folder: here, dir. */
  const local = (word: string) => (/^[A-Za-z0-9][\w.-]*\.(jwk|txt|jwt|json|html|sarif|pem|db)$/.test(word) ? path.join(dir, word) : word);
  const env = { ...cleanEnv(), SVC_DELEGATION_ROOTS: undefined, SVC_EGRESS_ALLOW: undefined };

  it('run with the exit codes their comments state', async () => {
    const vars = new Map<string, string>();
    const ran: Ran[] = [];
    const failures: string[] = [];
    for (const { command, comment } of shellLines(readFileSync(README, 'utf8'))) {
      const expected = Number(/\bexit (\d+)/.exec(comment)?.[1] ?? 0);
      // NAME=$(svc … --json | jq -r .member)
      const capture = /^([A-Z_][A-Z0-9_]*)=\$\(svc (.*?)\s*\|\s*jq -r \.(\w+)\)$/.exec(command);
      const cat = /^cat ((?:\S+ )+)(>>?) (\S+)$/.exec(command);
      let argsText: string;
      let redirect: { append: boolean; file: string } | null = null;
      let pipedToJq = false;
      if (capture) {
        argsText = capture[2]!;
      } else if (cat) {
        const sources = words(cat[1]!, vars);
        if (sources === null || !sources.every((s) => existsSync(local(s)))) continue;
        const body = sources.map((s) => readFileSync(local(s), 'utf8')).join('');
        (cat[2] === '>>' ? appendFileSync : writeFileSync)(local(cat[3]!), body);
        continue;
      } else if (command.startsWith('svc ')) {
        const redirected = /^svc (.*?)\s*(>>?)\s*(\S+)$/.exec(command);
        const piped = /^svc (.*?)\s*\|\s*jq .*$/.exec(command);
        if (redirected) {
          argsText = redirected[1]!;
          redirect = { append: redirected[2] === '>>', file: redirected[3]! };
        } else if (piped) {
          argsText = piped[1]!;
          pipedToJq = true;
        } else {
          argsText = command.slice(4);
        }
        if (/[|<>;&`]|\$\(/.test(argsText)) continue;
      } else {
        continue;
      }
      const args = words(argsText, vars);
      if (args === null || !offline(args)) continue;
      const run = await svcIn(args.map(local), env);
      ran.push({ command, expected, run });
      if (run.exitCode !== expected) failures.push(`${command}\n  exit ${run.exitCode}, the README says ${expected}\n  ${run.stderr.split('\n').join('\n  ')}`);
      if (capture) {
        const value = (JSON.parse(run.stdout) as Record<string, unknown>)[capture[3]!];
        if (typeof value === 'string') vars.set(capture[1]!, value);
      }
      if (redirect) (redirect.append ? appendFileSync : writeFileSync)(local(redirect.file), run.stdout === '' ? '' : `${run.stdout}\n`);
      if (pipedToJq && run.exitCode === 0) expect(() => JSON.parse(run.stdout), command).not.toThrow();
    }
    expect(failures).toEqual([]);

    // What ran: each kind of offline command of the README, so that a change to the README or to
    // this reader cannot silently leave them untested.
    const subcommands = new Set(ran.map((r) => r.command.replace(/^[A-Z_]+=\$\(/, '').split(/\s+/)[1]));
    expect([...subcommands].sort()).toEqual(['authorize', 'delegate', 'dereference', 'help', 'keygen', 'resolve', 'verify-delegation', 'verify-tool']);
    expect(ran.length).toBeGreaterThanOrEqual(14);
    expect(ran.filter((r) => r.expected !== 0).length).toBeGreaterThanOrEqual(2);

    const keygen = ran.find((r) => r.command.startsWith('svc keygen --out me.jwk'))!;
    expect(keygen.run.stdout).toMatch(/did:key:z/);
    expect(keygen.run.stdout).toMatch(/did:jwk:ey/);
    expect(existsSync(path.join(dir, 'dossier.html'))).toBe(true);
    expect(readFileSync(path.join(dir, 'dossier.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    const help = ran.find((r) => r.command.startsWith('svc help environment'))!;
    expect(help.run.stdout).toContain('SVC_EGRESS_ALLOW');
  }, 120_000);
});
