/**
 * The dependency rules of src (ARCHITECTURE.md "Dependency rules"), checked over the import
 * graph as it is on disk when the test runs. Every .ts/.tsx file under src is read by a small scanner
 * (comments, strings, templates and regular expressions set aside; no TypeScript program, so the test
 * takes well under a second), and every `import … from`, `import '…'`, `export … from`, `import(…)`
 * and `typeof import(…)` becomes an edge with its line. Relative specifiers resolve as NodeNext does
 * for this tree ('./x.js' → x.ts, x.tsx, x/index.ts). No file name is listed here but the entries the
 * rules are about (src/version.ts, src/pages.ts, the CLI's serve command), so files can move freely.
 *
 * Type-only means erased from the JavaScript: `import type`, `export type`, an import in a type
 * (`typeof import('…')`). With `verbatimModuleSyntax` (tsconfig.json), `import { type X } from '…'`
 * is not erased: tsc and esbuild keep it as `import {} from '…'`, which loads the module, so it counts
 * as a runtime import here.
 *
 * The rules, by top-level folder of src ("area"):
 *   1. core    imports only core and src/version.ts, and of packages only CORE_PACKAGES (a new
 *              framework or I/O import fails); present (the shared view model) the same, plus present.
 *   2. shells  do not import each other: web imports only core, present, version (and web);
 *              cli never imports web (it reaches the page renderers through src/pages.ts), nor server,
 *              except its serve command, which starts the daemon; server never imports cli;
 *              src/pages.ts imports only web, present, core, version.
 *   3. store, net, runtime and client import no shell (cli, server, web, present, src/pages.ts).
 *   4. no runtime circle anywhere in src (type-only imports excluded); no circle at all inside core
 *      (type-only imports included).
 *   5. src/store/postgres/ never imports src/store/sqlite/ (type-only imports included): the two
 *      engines share only src/store/schema/.
 *   6. jsonld (the opt-in JSON-LD processing) imports only core and itself, and of packages only
 *      JSONLD_PACKAGES; only runtime and the shells that build a Runtime (cli, server) import it.
 *
 * Beside the import graph, one scan of the code itself (ARCHITECTURE.md, src/core invariants): the
 * core reads no environment, wall clock or global fetch — no `process.` (nor `process[`), no
 * `Date.now`, `new Date()` without an argument, `performance.now`, no bare `fetch(…)` call nor
 * `globalThis.fetch` — only what `runtime` hands it. Comments, strings and regular expressions are set
 * aside first (the same lexer), so a doc comment or a pattern that mentions `process.env` is no finding.
 * What it does not see: a global reached through an alias (`const f = fetch`, then `f(…)`);
 * `globalThis[…]` is refused whatever it names; `node:process` and `node:perf_hooks` are rule 1's.
 * KNOWN_IMPURE lists the lines that break it today, each with its reason; empty, and may only shrink.
 *
 * KNOWN_VIOLATIONS lists the import pairs that break a rule today and are being fixed elsewhere; the
 * test fails on any other violation and on an entry that no longer occurs, so the list only shrinks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

/**
 * Import pairs ("from → to", paths from the repository root) that break a rule today, each fixed on
 * another branch. Empty this list as those branches land; never add to it.
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

/** The only packages (and node: modules) the core and the view model may import: no framework, no I/O. */
const CORE_PACKAGES: readonly string[] = ['node:crypto', 'node:util', 'node:zlib', '@noble/curves'];

/**
 * Core lines that read the environment, the wall clock or the global fetch today, as
 * 'src/core/…:line' → why it is allowed. Empty; an entry must name its reason, and the test fails on
 * one that no longer occurs, so the list only shrinks.
 */
const KNOWN_IMPURE: Readonly<Record<string, string>> = {};

/** The packages src/jsonld/ may import: Digital Bazaar's JSON-LD stack and node: modules. */
const JSONLD_PACKAGES: readonly string[] = ['jsonld', 'rdf-canonize'];

/** The areas that may import src/jsonld/ (always by dynamic import: a start without the opt-in never loads it). */
const JSONLD_IMPORTERS: ReadonlySet<string> = new Set(['runtime', 'cli', 'server']);

/** Shells: the areas that draw or serve; nothing below them imports them. */
const SHELLS: ReadonlySet<string> = new Set(['cli', 'server', 'web', 'present', 'pages']);

/** The CLI's serve command (`svc serve` starts the daemon): the one CLI entry that may import src/server. */
const SERVE_COMMAND = /^src\/cli\/(?:[^/]+\/)*serve(?:\/|\.tsx?$)/;

interface Edge {
  from: string;
  /** A repository-relative file ('src/…') or a package specifier. */
  to: string;
  internal: boolean;
  line: number;
  typeOnly: boolean;
}

interface Import {
  specifier: string;
  line: number;
  typeOnly: boolean;
}

/** Words after which a '/' starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof']);

const isSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || code === 0x2028 || code === 0x2029;
const isWordChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
const QUOTED: Record<string, RegExp> = { "'": /'(?:[^'\\\n]|\\[\s\S])*'?/y, '"': /"(?:[^"\\\n]|\\[\s\S])*"?/y };
const REGEX_LITERAL = /\/(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\]?)*\/?/y;
const TEMPLATE_STOP = /\\[\s\S]|`|\$\{/g;

/**
 * What of a source is not code: the [start, end) ranges of its comments, string and template texts
 * (quotes and backticks stay code) and regular expressions, in order, and the value of each single-
 * or double-quoted string by the offset of its opening quote. A string or a regular expression ends at
 * the end of its line at the latest, so a misread '/' costs at most that line.
 */
function lex(text: string): { ranges: number[]; strings: Map<number, string> } {
  const ranges: number[] = [];
  const strings = new Map<number, string>();
  /** Open template substitutions: the brace depth at which each `${` resumes its template. */
  const templates: number[] = [];
  let depth = 0;
  // The end of the last non-code range, and the significant code before it ('a' for an identifier).
  let boundary = 0;
  let boundaryPrevious = '';
  let boundaryWord = '';
  /** The last significant character of code before i ('a' for an identifier), and that identifier. */
  const previousAt = (i: number): [string, string] => {
    let j = i - 1;
    while (j >= boundary && isSpace(text.charCodeAt(j))) j -= 1;
    if (j < boundary) return [boundaryPrevious, boundaryWord];
    if (!isWordChar(text.charCodeAt(j))) return [text[j]!, ''];
    let start = j;
    while (start > boundary && isWordChar(text.charCodeAt(start - 1))) start -= 1;
    return ['a', text.slice(start, j + 1)];
  };
  const skip = (start: number, end: number, previous: string): number => {
    if (end > start) ranges.push(start, end);
    boundary = end;
    boundaryPrevious = previous;
    boundaryWord = '';
    return end;
  };
  /** Template text from i (after '`' or a substitution's '}'); returns the offset after its '`' or '${'. */
  const template = (i: number): number => {
    TEMPLATE_STOP.lastIndex = i;
    for (let m = TEMPLATE_STOP.exec(text); m !== null; m = TEMPLATE_STOP.exec(text)) {
      if (m[0] === '`') {
        skip(i, m.index, '`');
        return (boundary = m.index + 1);
      }
      if (m[0] === '${') {
        skip(i, m.index, '{');
        templates.push(depth);
        depth += 1;
        return (boundary = m.index + 2);
      }
    }
    return skip(i, text.length, '`');
  };
  const outside = /['"`/]/g;
  const inside = /['"`/{}]/g;
  let i = 0;
  for (;;) {
    const special = templates.length > 0 ? inside : outside;
    special.lastIndex = i;
    const m = special.exec(text);
    if (m === null) break;
    i = m.index;
    const c = m[0];
    const n = text[i + 1];
    if (c === '/' && (n === '/' || n === '*')) {
      const [previous, word] = previousAt(i);
      const end = n === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      i = skip(i, end === -1 ? text.length : n === '/' ? end : end + 2, previous);
      boundaryWord = word;
    } else if (c === "'" || c === '"') {
      const quoted = QUOTED[c]!;
      quoted.lastIndex = i;
      const end = i + quoted.exec(text)![0].length;
      const closed = end - i > 1 && text[end - 1] === c;
      strings.set(i, text.slice(i + 1, closed ? end - 1 : end));
      skip(i + 1, closed ? end - 1 : end, c);
      i = boundary = end;
    } else if (c === '`') {
      i = template(i + 1);
    } else if (c === '/') {
      const [previous, word] = previousAt(i);
      if (previous === '' || '(,=:[!&|?{};+-*%<>~^'.includes(previous) || BEFORE_REGEX.has(word)) {
        REGEX_LITERAL.lastIndex = i;
        i = skip(i, i + REGEX_LITERAL.exec(text)![0].length, '/');
      } else i += 1;
    } else if (c === '{') {
      depth += 1;
      i += 1;
    } else {
      depth -= 1;
      i += 1;
      if (templates[templates.length - 1] === depth) {
        templates.pop();
        i = template(i);
      }
    }
  }
  return { ranges, strings };
}

const KEYWORD = /(?<![\w$.])(import|export)(?![\w$])/g;
/** After `import`: a declaration's clause (`x`, `{ … }`, `* as x`, `x, { … }`, `x, * as y`), perhaps `type`, then `from` and the quote. */
const IMPORT_CLAUSE = /\s*(type\s+)?((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)|[\w$]+)\s*from\s*(['"])/y;
/** After `import`: what is not an import of a module (`import.meta`, `import x = Namespace.y`). */
const NOT_A_MODULE = /\s*(?:\.|(?:type\s+)?[\w$]+\s*=\s*(?!require\b)[\w$.]+\s*;)/y;
/** After `export`: a re-export (`* from`, `* as x from`, `{ … } from`), perhaps `type`. */
const EXPORT_CLAUSE = /\s*(type\s+)?(\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])/y;
const DYNAMIC = /\s*\(\s*(['"`]?)/y;
const SIDE_EFFECT = /\s*(['"])/y;
/**
 * The imports of one source text: `import … from`, `import '…'`, `export … from`, `import(…)` and
 * `typeof import(…)` / `import(…).Name` in a type, each with its line and whether it is erased from the
 * JavaScript (`import type`, `export type`, an import in a type). A computed `import(x)`
 * is returned with the specifier '(computed)', an `import` the scanner cannot read with '(unrecognized)'.
 */
function importsOf(text: string): Import[] {
  const { ranges, strings } = lex(text);
  let code = '';
  for (let r = 0, at = 0; r <= ranges.length; r += 2) {
    const start = ranges[r] ?? text.length;
    code += text.slice(at, start);
    if (r < ranges.length) code += text.slice(start, (at = ranges[r + 1]!)).replace(/[^\n]+/g, (run) => ' '.repeat(run.length));
  }
  const lineStarts = [0];
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) lineStarts.push(k + 1);
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const found: Import[] = [];
  const at = (pattern: RegExp, offset: number): RegExpExecArray | null => {
    pattern.lastIndex = offset;
    return pattern.exec(code);
  };
  const add = (pattern: RegExp, typeOnly: boolean): void => {
    const quote = pattern.lastIndex - 1;
    found.push({ specifier: strings.get(quote) ?? '', line: lineOf(quote), typeOnly });
  };
  for (const keyword of code.matchAll(KEYWORD)) {
    const after = keyword.index + keyword[0].length;
    if (keyword[1] === 'export') {
      const m = at(EXPORT_CLAUSE, after);
      if (m) add(EXPORT_CLAUSE, m[1] !== undefined);
      continue;
    }
    const dynamic = at(DYNAMIC, after);
    if (dynamic) {
      if (dynamic[1] !== "'" && dynamic[1] !== '"') {
        found.push({ specifier: '(computed)', line: lineOf(keyword.index), typeOnly: false });
        continue;
      }
      const close = DYNAMIC.lastIndex + 1 + (strings.get(DYNAMIC.lastIndex - 1)?.length ?? 0);
      const inType =
        /typeof\s*$/.test(code.slice(Math.max(0, keyword.index - 12), keyword.index)) ||
        /^\s*\)\s*\.\s*(?!then\b|catch\b|finally\b)[\w$]/.test(code.slice(close, close + 40));
      add(DYNAMIC, inType);
      continue;
    }
    if (at(SIDE_EFFECT, after)) {
      add(SIDE_EFFECT, false);
      continue;
    }
    const m = at(IMPORT_CLAUSE, after);
    if (m) add(IMPORT_CLAUSE, m[1] !== undefined);
    else if (!at(NOT_A_MODULE, after)) found.push({ specifier: '(unrecognized)', line: lineOf(keyword.index), typeOnly: false });
  }
  return found;
}

/** The code of a source text: comments, strings, templates' text and regular expressions blanked, line breaks kept. */
function codeOf(text: string): string {
  const { ranges } = lex(text);
  let code = '';
  let at = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    code += text.slice(at, ranges[r]) + text.slice(ranges[r], ranges[r + 1]).replace(/[^\n]/g, ' ');
    at = ranges[r + 1]!;
  }
  return code + text.slice(at);
}

/** What the core may not touch: a pattern over code (see codeOf) and what it reads. */
const IMPURE: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /(?<![\w$.])process\s*(?:\??\.|\[)/g, what: 'process (environment, argv, exit…): use runtime.config' },
  { pattern: /(?<![\w$])Date\s*\.\s*now(?![\w$])/g, what: 'Date.now: use runtime.clock' },
  { pattern: /(?<![\w$.])new\s+Date(?![\w$])\s*(?:\(\s*\)|(?!\s*\())/g, what: 'new Date() without an argument: use runtime.clock' },
  { pattern: /(?<![\w$])performance\s*\.\s*now(?![\w$])/g, what: 'performance.now: use runtime.clock' },
  {
    pattern: /(?<![\w$])globalThis\s*(?:\??\.\s*(?:fetch|process|performance)(?![\w$])|\[)/g,
    what: 'a global through globalThis: use runtime.net, runtime.clock, runtime.config',
  },
];

/**
 * The lines of a source text that read the environment, the wall clock or the global fetch, each as
 * [line, what]. A bare `fetch(…)` (not after '.', not a method: a method's parentheses are followed by
 * '{' or ':') is a call of the global.
 */
function impurities(text: string): Array<[number, string]> {
  const code = codeOf(text);
  const lineOf = (offset: number): number => code.slice(0, offset).split('\n').length;
  const found: Array<[number, string]> = [];
  for (const { pattern, what } of IMPURE) for (const m of code.matchAll(pattern)) found.push([lineOf(m.index), what]);
  for (const m of code.matchAll(/(?<![\w$.])fetch\s*\(/g)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < code.length; i++) {
      if (code[i] === '(') depth += 1;
      else if (code[i] === ')' && --depth === 0) break;
    }
    const after = code.slice(i + 1).match(/^\s*(\S)/)?.[1];
    if (after !== '{' && after !== ':') found.push([lineOf(m.index), 'the global fetch: use runtime.net']);
  }
  return found.sort((a, b) => a[0] - b[0]);
}

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();

/** './x.js' → x.ts, x.tsx, then x.js itself (an asset), x/index.ts; undefined when none exists. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const target = resolve(dirname(fromFile), specifier);
  const stem = target.replace(/\.(?:[cm]?js|jsx)$/, '');
  return [`${stem}.ts`, `${stem}.tsx`, target, join(stem, 'index.ts'), join(stem, 'index.tsx')].find(isFile);
}

const toPosix = (path: string): string => path.split(sep).join('/');

function importGraph(): { files: string[]; edges: Edge[]; unresolved: string[] } {
  const files = sourceFiles(SRC);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const file of files) {
    const from = toPosix(relative(ROOT, file));
    for (const { specifier, line, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (specifier === '(computed)') unresolved.push(`${from}:${line} imports a computed specifier, which no rule can check: import a string literal`);
      else if (specifier === '(unrecognized)') unresolved.push(`${from}:${line} has an \`import\` this test cannot read: teach importsOf its form`);
      else if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const target = resolveRelative(file, specifier);
        if (target === undefined) unresolved.push(`${from}:${line} imports '${specifier}', which resolves to no file`);
        else edges.push({ from, to: toPosix(relative(ROOT, target)), internal: true, line, typeOnly });
      } else {
        edges.push({ from, to: specifier, internal: false, line, typeOnly });
      }
    }
  }
  return { files: files.map((f) => toPosix(relative(ROOT, f))), edges, unresolved };
}

/** The top-level folder of src a file sits in, or the name of a top-level file ('version', 'pages', 'index'). */
function area(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src') return 'outside src';
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.tsx?$/, '');
}

const allowedPackage = (specifier: string): boolean => CORE_PACKAGES.some((p) => specifier === p || specifier.startsWith(`${p}/`));

/** The layering rules (1–3): the reason an edge breaks one, or undefined. */
function layerRule(edge: Edge): string | undefined {
  const from = area(edge.from);
  if (!edge.internal) {
    if ((from === 'core' || from === 'present') && !allowedPackage(edge.to)) return `${from} imports only the packages ${CORE_PACKAGES.join(', ')}`;
    if (from === 'jsonld' && !edge.to.startsWith('node:') && !JSONLD_PACKAGES.some((p) => edge.to === p || edge.to.startsWith(`${p}/`)))
      return `jsonld imports only node: modules and the packages ${JSONLD_PACKAGES.join(', ')}`;
    return undefined;
  }
  if (area(edge.to) === 'jsonld' && area(edge.from) !== 'jsonld' && !JSONLD_IMPORTERS.has(area(edge.from))) return 'only runtime, cli and server import jsonld';
  if (edge.from.startsWith('src/store/postgres/') && edge.to.startsWith('src/store/sqlite/'))
    return 'src/store/postgres/ does not import src/store/sqlite/ (the engines share only src/store/schema/)';
  const to = area(edge.to);
  if (from === to) return undefined;
  switch (from) {
    case 'jsonld':
      return to === 'core' ? undefined : 'jsonld imports only core';
    case 'core':
      return to === 'version' ? undefined : 'core imports only core and src/version.ts';
    case 'present':
      return to === 'core' || to === 'version' ? undefined : 'present imports only core and src/version.ts';
    case 'web':
      return to === 'core' || to === 'present' || to === 'version' ? undefined : 'web imports only core, present and src/version.ts';
    case 'pages':
      return to === 'web' || to === 'present' || to === 'core' || to === 'version'
        ? undefined
        : 'src/pages.ts imports only web, present, core and src/version.ts';
    case 'cli':
      if (to === 'web') return 'cli does not import web (the page renderers through src/pages.ts)';
      if (to === 'server' && !SERVE_COMMAND.test(edge.from)) return 'cli imports server only from its serve command';
      return undefined;
    case 'server':
      return to === 'cli' ? 'server does not import cli' : undefined;
    case 'store':
    case 'net':
    case 'runtime':
    case 'client':
      return SHELLS.has(to) ? `${from} imports no shell (cli, server, web, present, src/pages.ts)` : undefined;
    default:
      return undefined;
  }
}

/** Strongly connected components with more than one file or a file importing itself (Tarjan). */
function circles(nodes: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components;
}

/** The shortest path from → … → to inside one component (breadth first, in name order). */
function shortestPath(from: string, to: string, next: ReadonlyMap<string, readonly string[]>, within: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node === to) break;
    for (const target of next.get(node) ?? []) {
      if (within.has(target) && !previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  const path = [to];
  while (path[0] !== from) path.unshift(previous.get(path[0]!)!);
  return path;
}

/** Rule 4: every edge that lies on a circle of the given edges, with the shortest circle through it. */
function circleViolations(edges: readonly Edge[], rule: string): Array<{ edge: Edge; rule: string; circle: string }> {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const targets = next.get(edge.from) ?? [];
    if (!targets.includes(edge.to)) targets.push(edge.to);
    next.set(edge.from, targets);
  }
  for (const targets of next.values()) targets.sort();
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const found: Array<{ edge: Edge; rule: string; circle: string }> = [];
  for (const component of circles(nodes, next)) {
    const members = new Set(component);
    const circle = `${rule}: a circle of ${component.length} files through ${component.sort()[0]}`;
    for (const edge of edges) {
      if (!members.has(edge.from) || !members.has(edge.to)) continue;
      const back = shortestPath(edge.to, edge.from, next, members);
      found.push({ edge, rule: `${rule}: ${[edge.from, ...back].join(' → ')}`, circle });
    }
  }
  return found;
}

interface Violation {
  pair: string;
  rule: string;
  lines: number[];
  /** For rule 4: the circle (strongly connected files) the import lies on. */
  circle?: string;
}

function violations(edges: readonly Edge[]): Violation[] {
  const raw: Array<{ edge: Edge; rule: string; circle?: string }> = [];
  for (const edge of edges) {
    const rule = layerRule(edge);
    if (rule !== undefined) raw.push({ edge, rule });
  }
  const internal = edges.filter((e) => e.internal);
  raw.push(
    ...circleViolations(
      internal.filter((e) => !e.typeOnly),
      'no runtime circle in src',
    ),
  );
  raw.push(
    ...circleViolations(
      internal.filter((e) => area(e.from) === 'core' && area(e.to) === 'core'),
      'no circle in core, type-only imports included',
    ),
  );
  const grouped = new Map<string, Violation>();
  for (const { edge, rule, circle } of raw) {
    const pair = `${edge.from} → ${edge.to}`;
    const key = `${pair}\u0000${rule}`;
    const entry = grouped.get(key) ?? { pair, rule, lines: [], ...(circle === undefined ? {} : { circle }) };
    if (!entry.lines.includes(edge.line)) entry.lines.push(edge.line);
    grouped.set(key, entry);
  }
  return [...grouped.values()].sort((a, b) => a.pair.localeCompare(b.pair) || a.rule.localeCompare(b.rule));
}

/** How many imports of one circle the failure message shows. */
const CIRCLE_LINES = 6;

const describeViolation = (v: Violation): string => {
  const [from, to] = v.pair.split(' → ');
  return `${from}:${v.lines.sort((a, b) => a - b).join(',')} imports ${to} — ${v.rule}`;
};

describe('dependency rules (ARCHITECTURE.md "Dependency rules")', () => {
  it('the scanner sees every import form, which are erased (type-only), and nothing in comments, strings, templates or regular expressions', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from './b.js';",
      'import {',
      '  type C,',
      '  type D,',
      "} from './c.js';",
      "import { type E, f } from './e.js';",
      "import './side-effect.js';",
      "export * from './g.js';",
      "export type { H } from './h.js';",
      "export { type I } from './i.js';",
      "const j = await import('./j.js');",
      "type K = typeof import('./k.js');",
      "const s = \"import x from './not-an-import.js'\"; // import y from './comment.js'",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the string is source text with a template literal in it.
      "const t = `${'import z from \"./in-template.js\"'} ${`import(\\`nested\\`)`} import('./template.js')`;",
      "const r = /import('\"`/.test(s) ? 1 / 2 : 3; /* import w from './block.js' */",
      "import * as l from 'node:fs';",
      "export const m = import.meta.url, n = (await import('./n.js')).n;",
      "let o: import('./o.js').O;",
      'import p, * as q from "./p.js";',
      'const u = await import(name);',
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { specifier: './a.js', line: 1, typeOnly: false },
      { specifier: './b.js', line: 2, typeOnly: true },
      { specifier: './c.js', line: 6, typeOnly: false },
      { specifier: './e.js', line: 7, typeOnly: false },
      { specifier: './side-effect.js', line: 8, typeOnly: false },
      { specifier: './g.js', line: 9, typeOnly: false },
      { specifier: './h.js', line: 10, typeOnly: true },
      { specifier: './i.js', line: 11, typeOnly: false },
      { specifier: './j.js', line: 12, typeOnly: false },
      { specifier: './k.js', line: 13, typeOnly: true },
      { specifier: 'node:fs', line: 17, typeOnly: false },
      { specifier: './n.js', line: 18, typeOnly: false },
      { specifier: './o.js', line: 19, typeOnly: true },
      { specifier: './p.js', line: 20, typeOnly: false },
      { specifier: '(computed)', line: 21, typeOnly: false },
    ]);
  });

  it('src follows the layers, the shells stay apart, and no circle forms', () => {
    const { files, edges, unresolved } = importGraph();
    expect(files.length).toBeGreaterThan(100);
    const found = violations(edges);
    const known = new Set(KNOWN_VIOLATIONS);
    const fresh = found.filter((v) => !known.has(v.pair));
    const stale = KNOWN_VIOLATIONS.filter((pair) => !found.some((v) => v.pair === pair));
    // Layer rules first; then each circle, at most CIRCLE_LINES of its imports (one new import can close a large one),
    // those that break a layer rule too first: they are where a circle is most likely to be cut.
    const layered = new Set(fresh.filter((v) => v.circle === undefined).map((v) => v.pair));
    const circleLines = new Map<string, string[]>();
    for (const v of [...fresh.filter((f) => layered.has(f.pair)), ...fresh.filter((f) => !layered.has(f.pair))])
      if (v.circle !== undefined) circleLines.set(v.circle, [...(circleLines.get(v.circle) ?? []), describeViolation(v)]);
    const problems = [
      ...unresolved,
      ...fresh.filter((v) => v.circle === undefined).map(describeViolation),
      ...[...circleLines.entries()].flatMap(([circle, lines]) =>
        lines.length <= CIRCLE_LINES
          ? lines
          : [
              ...lines.slice(0, CIRCLE_LINES),
              `… and ${lines.length - CIRCLE_LINES} more imports on ${circle.replace(/^[^:]*: /, '')} (${circle.replace(/:.*/, '')})`,
            ],
      ),
      ...stale.map((pair) => `${pair} is in KNOWN_VIOLATIONS but breaks no rule any more: remove it from the list`),
    ];
    const count = unresolved.length + fresh.length + stale.length;
    expect(count, `${count} dependency rule problem(s):\n${problems.join('\n')}\n`).toBe(0);
  });

  it('the purity scan finds each way of reading the environment, the clock or the global fetch, and nothing in comments, strings or methods', () => {
    const text = [
      'const a = process.env.HOME;',
      "const b = process['argv'];",
      'const c = Date.now();',
      'const d = new Date();',
      'const e = new Date;',
      'const f = performance.now();',
      'const g = await fetch(url, { method: "GET" });',
      'const h = globalThis.fetch;',
      '// process.env, Date.now(), new Date(), fetch(x) in a comment',
      "const i = 'process.env Date.now() new Date() fetch(x)';",
      'const j = /process\\.env|fetch\\(/.test(s);',
      'const k = new Date(ms), l = new Date(Date.UTC(2020, 0)), m = runtime.net.fetch(request);',
      'class N { async fetch(request: R): Promise<S> { return this.net.fetch(request); } }',
      'interface O { fetch(request: R, trace?: T): Promise<S>; }',
      'const p = { process: 1, DateNow: 2 }; const q = new DateFormat(); const r = p.process;',
    ].join('\n');
    expect(impurities(text)).toEqual([
      [1, expect.stringContaining('process')],
      [2, expect.stringContaining('process')],
      [3, expect.stringContaining('Date.now')],
      [4, expect.stringContaining('new Date()')],
      [5, expect.stringContaining('new Date()')],
      [6, expect.stringContaining('performance.now')],
      [7, expect.stringContaining('fetch')],
      [8, expect.stringContaining('globalThis')],
    ]);
  });

  it('src/core reads no environment, wall clock or global fetch: only runtime.config, runtime.clock, runtime.net', () => {
    const files = sourceFiles(join(SRC, 'core'));
    expect(files.length).toBeGreaterThan(50);
    const found = new Map<string, string[]>();
    for (const file of files) {
      const name = toPosix(relative(ROOT, file));
      for (const [line, what] of impurities(readFileSync(file, 'utf8'))) found.set(`${name}:${line}`, [...(found.get(`${name}:${line}`) ?? []), what]);
    }
    const problems = [
      ...[...found].filter(([at]) => !(at in KNOWN_IMPURE)).map(([at, what]) => `${at} reads ${what.join('; ')}`),
      ...Object.keys(KNOWN_IMPURE)
        .filter((at) => !found.has(at))
        .map((at) => `${at} is in KNOWN_IMPURE but reads nothing impure any more: remove it from the list`),
    ];
    expect(problems.length, `${problems.length} core purity problem(s):\n${problems.join('\n')}\n`).toBe(0);
  });
});
