/**
 * The Python client uses Python's standard library only (ARCHITECTURE.md, clients/python): every
 * import in clients/python/svc_client/**\/*.py names either a standard-library module of
 * STDLIB_USED or the package's own modules (`from . import x`, `from .x import y`,
 * `svc_client.x`, each resolving to a file of the package). Read in this process; no Python runs.
 *
 * The files are read by a small scanner: comments and strings (docstrings included) are blanked
 * first, so an example in a docstring is no import; a statement continued by parentheses or a
 * backslash is joined; statements split on ';'. Imports inside functions count like the others.
 * What it does not see: a module loaded by name (`importlib.import_module(…)`, `__import__(…)`) —
 * those two are refused outright, since the client has no use for them.
 *
 * STDLIB_USED is the standard-library modules the client imports today. A new one fails here until
 * it is added: check it is in the standard library of Python 3.9 (the oldest the client supports)
 * before adding it. A module no longer imported fails too, so the list stays the one in use.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/fixtures.js';

const PACKAGE = 'svc_client';
const PACKAGE_DIR = path.join(repoRoot, 'clients/python', PACKAGE);

/** The standard-library modules the client imports, by the name it imports them by. */
const STDLIB_USED: readonly string[] = [
  '__future__',
  'base64',
  'codecs',
  'email.utils',
  'hashlib',
  'hmac',
  'http.client',
  'json',
  'math',
  'random',
  're',
  'socket',
  'time',
  'typing',
  'urllib.error',
  'urllib.parse',
  'urllib.request',
];

function pythonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === '__pycache__' ? [] : pythonFiles(full);
      return entry.name.endsWith('.py') ? [full] : [];
    })
    .sort();
}

/** The code of a Python source: comments and string literals (with their quotes) blanked, line breaks kept. */
function codeOf(text: string): string {
  return text.replace(/#[^\n]*|[rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|$)|"""[\s\S]*?(?:"""|$)|'(?:[^'\\\n]|\\[\s\S])*'?|"(?:[^"\\\n]|\\[\s\S])*"?)/g, (m) =>
    m.replace(/[^\n]/g, ' '),
  );
}

interface PyImport {
  line: number;
  /** The module as written: 'a.b', '.x', '.', 'svc_client.x'. */
  module: string;
  statement: string;
}

/** Every module an import statement of the source names, with the line the statement starts on. */
function importsOf(text: string): PyImport[] {
  const code = codeOf(text);
  const lines = code.split('\n');
  const found: PyImport[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let logical = lines[i]!;
    // Join a statement continued by a backslash or an open parenthesis.
    const open = (s: string): number => (s.match(/[([{]/g)?.length ?? 0) - (s.match(/[)\]}]/g)?.length ?? 0);
    while (i + 1 < lines.length && (/\\\s*$/.test(logical) || open(logical) > 0)) logical = `${logical.replace(/\\\s*$/, '')} ${lines[++i]}`;
    for (const statement of logical.split(';').map((s) => s.trim())) {
      const from = /^from\s+(\.*[\w.]*)\s+import\s+(.+)$/s.exec(statement);
      if (from) {
        const module = from[1]!;
        if (/^\.+$/.test(module)) {
          // `from . import a, b as c`: each name is a module of the package (or a name of its __init__).
          for (const name of from[2]!.replace(/[()]/g, '').split(',')) {
            const bare = name.trim().split(/\s+/)[0];
            if (bare) found.push({ line: start + 1, module: `${module}${bare}`, statement });
          }
        } else found.push({ line: start + 1, module, statement });
        continue;
      }
      const plain = /^import\s+(.+)$/s.exec(statement);
      if (plain) for (const part of plain[1]!.split(',')) found.push({ line: start + 1, module: part.trim().split(/\s+/)[0]!, statement });
    }
  }
  return found;
}

/** Whether a module of the package ('.x', 'svc_client.x'; '..x' leaves it) names one of its files; undefined for another module. */
function ownModule(file: string, module: string): boolean | undefined {
  const dotted = module.startsWith('.')
    ? module.replace(/^\./, '')
    : module.startsWith(`${PACKAGE}.`) || module === PACKAGE
      ? module.slice(PACKAGE.length + 1)
      : null;
  if (dotted === null) return undefined;
  if (module.startsWith('..')) return false;
  const base = module.startsWith('.') ? path.dirname(file) : PACKAGE_DIR;
  if (dotted === '') return existsSync(path.join(base, '__init__.py'));
  const target = path.join(base, ...dotted.split('.'));
  return existsSync(`${target}.py`) || existsSync(path.join(target, '__init__.py'));
}

describe('the Python client uses the standard library only (ARCHITECTURE.md, clients/python)', () => {
  it('the scanner reads every import form and nothing in comments or strings', () => {
    const text = [
      '"""Example:',
      '    from requests import get',
      '"""',
      'from __future__ import annotations',
      'import a.b as c, d  # import e',
      'from . import _x, _y as z',
      'from .client import (',
      '    One,',
      '    Two,',
      ')',
      "s = 'import f'; import g",
      'def h():',
      '    import i.j',
      'import k, \\',
      '    l',
    ].join('\n');
    expect(importsOf(text).map(({ line, module }) => `${line} ${module}`)).toEqual([
      '4 __future__',
      '5 a.b',
      '5 d',
      '6 ._x',
      '6 ._y',
      '7 .client',
      '11 g',
      '13 i.j',
      '14 k',
      '14 l',
    ]);
  });

  it('every import in clients/python/svc_client is a standard-library module of STDLIB_USED or the package’s own', () => {
    const files = pythonFiles(PACKAGE_DIR);
    expect(files.length).toBeGreaterThan(3);
    const problems: string[] = [];
    const used = new Set<string>();
    for (const file of files) {
      const name = path.relative(repoRoot, file).split(path.sep).join('/');
      const text = readFileSync(file, 'utf8');
      for (const { line, module } of importsOf(text)) {
        const own = ownModule(file, module);
        if (own === true) continue;
        if (own === false) problems.push(`${name}:${line} imports '${module}', which names no module of ${PACKAGE}`);
        else if (STDLIB_USED.includes(module)) used.add(module);
        else
          problems.push(
            `${name}:${line} imports '${module}', which is not in STDLIB_USED: the client uses the standard library only (a standard-library module of Python 3.9 may be added to the list)`,
          );
      }
      codeOf(text)
        .split('\n')
        .forEach((code, i) => {
          if (/\b(?:__import__\s*\(|importlib\b)/.test(code)) problems.push(`${name}:${i + 1} loads a module by name, which this test cannot check: import it`);
        });
    }
    for (const module of STDLIB_USED)
      if (!used.has(module)) problems.push(`'${module}' is in STDLIB_USED but no file imports it any more: remove it from the list`);
    expect(problems, `${problems.length} import problem(s):\n${problems.join('\n')}\n`).toEqual([]);
  });
});
