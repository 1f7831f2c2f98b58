/**
 * ARCHITECTURE.md stays a map of the tree as it is: it names every top-level entry of src/ and every
 * top-level folder of the repository (but hidden ones, node_modules and what .gitignore leaves out,
 * such as dist/), every path it writes in backticks exists, it stays within its word budget (counted
 * as `wc -w` counts), and no table row grows into a paragraph.
 *
 * A path in backticks is written from the repository root (`src/cli/program.ts`); a word there is
 * taken for a path when it starts with a top-level entry, ends in '/', or ends in a file extension.
 * Placeholders and globs (`src/server/routes/<x>.ts`, `bench/*.bench.ts`) are checked up to the
 * folder before them. A bare file name (`command.ts`) must name a file somewhere in the tree.
 * Paths into ignored folders (`dist/cli.js`) are what a build makes, and are not checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/fixtures.js';

const DOC = 'ARCHITECTURE.md';
/** ~2,500 words is the page's budget; this is where the test stops it. */
const MAX_WORDS = 2600;
const MAX_TABLE_ROW = 300;
const FILE_EXTENSION = /\.(?:ts|tsx|js|mjs|cjs|json|md|py|css|sh|bash|fish|toml|ya?ml|1)$/;
const PLACEHOLDER = /[*<>{}]/;

/** The .gitignore entries as tests on a top-level name ('dist/' → dist, '*.log' → any .log). */
function ignoredByGit(root: string): (name: string) => boolean {
  const file = path.join(root, '.gitignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
        .map((line) => line.replace(/^\//, '').replace(/\/$/, ''))
        .filter((line) => !line.includes('/'))
        .map(
          (glob) =>
            new RegExp(
              `^${glob
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '.*')
                .replace(/\?/g, '.')}$`,
            ),
        )
    : [];
  return (name) => patterns.some((p) => p.test(name));
}

/** Top-level names a path may start with, and those whose paths are not checked (built, hidden, ignored). */
function topLevel(root: string): { entries: Set<string>; skipped: (name: string) => boolean; folders: string[] } {
  const ignored = ignoredByGit(root);
  const skipped = (name: string): boolean => name.startsWith('.') || name === 'node_modules' || ignored(name);
  const all = readdirSync(root, { withFileTypes: true });
  return {
    entries: new Set(all.map((e) => e.name)),
    skipped,
    folders: all
      .filter((e) => e.isDirectory() && !skipped(e.name))
      .map((e) => e.name)
      .sort(),
  };
}

/** The text outside fenced code blocks. */
const prose = (text: string): string => text.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');

/** The words of inline code spans (`…`) outside fenced blocks that read as file paths. */
function backtickedPaths(text: string, topLevelEntries: ReadonlySet<string>): string[] {
  const paths: string[] = [];
  for (const span of prose(text).matchAll(/`([^`\n]+)`/g)) {
    for (const word of span[1]!.split(/\s+/)) {
      if (word === '' || word.includes(':')) continue;
      if (word.includes('/')) {
        const first = word.split('/')[0]!;
        if (topLevelEntries.has(first) || word.endsWith('/') || FILE_EXTENSION.test(word)) paths.push(word);
      } else if (FILE_EXTENSION.test(word) && !PLACEHOLDER.test(word)) {
        paths.push(word);
      }
    }
  }
  return paths;
}

/** Every file name under the tracked top-level folders and at the root (for bare file names). */
function fileNames(root: string, skipped: (name: string) => boolean): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === '__pycache__') continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else names.add(entry.name);
    }
  };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (skipped(entry.name)) continue;
    if (entry.isDirectory()) walk(path.join(root, entry.name));
    else names.add(entry.name);
  }
  return names;
}

/** Why a backticked path does not hold, or undefined. */
function missing(word: string, root: string, skipped: (name: string) => boolean, names: ReadonlySet<string>): string | undefined {
  if (!word.includes('/')) return names.has(word) ? undefined : `\`${word}\` names no file in the repository`;
  const segments = word.replace(/\/$/, '').split('/');
  if (skipped(segments[0]!)) return undefined;
  const placeholder = segments.findIndex((s) => PLACEHOLDER.test(s));
  const fixed = placeholder === -1 ? segments : segments.slice(0, placeholder);
  const target = path.join(root, ...fixed);
  if (existsSync(target)) return undefined;
  const checked = fixed.length < segments.length ? ` (${fixed.join('/')} is checked, up to its placeholder)` : '';
  return `\`${word}\` does not exist${checked} (paths are written from the repository root)`;
}

describe(`${DOC}, the one-page map`, () => {
  const text = readFileSync(path.join(repoRoot, DOC), 'utf8');
  const { entries, skipped, folders } = topLevel(repoRoot);

  it('names every top-level folder and file of src/', () => {
    const unnamed = readdirSync(path.join(repoRoot, 'src'))
      .map((name) => `src/${name}`)
      .filter((needle) => !new RegExp(`${needle.replace(/[.]/g, '\\.')}(?![\\w.-])`).test(text));
    expect(unnamed, `add a section or a line for each to ${DOC}'s code map`).toEqual([]);
  });

  it('names every top-level folder of the repository (hidden, installed and ignored ones aside)', () => {
    expect(folders.length).toBeGreaterThan(5);
    const unnamed = folders.filter((name) => !new RegExp(`(?<![\\w./-])${name}/`).test(text));
    expect(unnamed, `name each as <folder>/ in ${DOC}'s code map`).toEqual([]);
  });

  it('writes only paths that exist', () => {
    const names = fileNames(repoRoot, skipped);
    const paths = backtickedPaths(text, entries);
    expect(paths.length).toBeGreaterThan(50);
    const problems = [...new Set(paths)].map((word) => missing(word, repoRoot, skipped, names)).filter((p) => p !== undefined);
    expect(problems).toEqual([]);
  });

  it(`stays within ${MAX_WORDS} words, and its table rows within ${MAX_TABLE_ROW} characters`, () => {
    const words = text.split(/\s+/).filter((w) => w !== '').length;
    expect(words, `${DOC} has ${words} words: move detail into the code's comments`).toBeLessThanOrEqual(MAX_WORDS);
    const long = text.split('\n').filter((line) => line.startsWith('|') && line.length > MAX_TABLE_ROW);
    expect(long.map((line) => `${line.slice(0, 60)}… (${line.length} characters)`)).toEqual([]);
  });

  it('reads paths as they are written', () => {
    const top = new Set(['src', 'test', 'bin', 'dist']);
    const sample = [
      '`src/cli/main.ts` and `bin/svc.js → dist/cli.js`, `svc-evidence/client`, `@noble/curves`, `node:crypto`',
      '`src/server/routes/<x>.ts`, `bench/*.bench.ts`, `command.ts`, `*.e2e.test.ts`, `0.0.0.0/0`, `runtime.net`',
      '```',
      '`src/in/a/code/block.ts`',
      '```',
    ].join('\n');
    expect(backtickedPaths(sample, top)).toEqual([
      'src/cli/main.ts',
      'bin/svc.js',
      'dist/cli.js',
      'src/server/routes/<x>.ts',
      'bench/*.bench.ts',
      'command.ts',
    ]);
    const names = new Set(['command.ts']);
    const none = (): boolean => false;
    expect(missing('src/server/routes/<x>.ts', repoRoot, none, names)).toBeUndefined();
    expect(missing('dist/cli.js', repoRoot, (n) => n === 'dist', names)).toBeUndefined();
    expect(missing('command.ts', repoRoot, none, names)).toBeUndefined();
    expect(missing('cmdutil/errors.ts', repoRoot, none, names)).toMatch(/written from the repository root/);
    expect(missing('src/nowhere/<x>.ts', repoRoot, none, names)).toMatch(/src\/nowhere is checked/);
  });
});
