/**
 * Every citation a reader meets resolves. The code, the tests, the benchmarks, the scripts, the
 * Python client and the Markdown pages may point at a page of docs/ (`docs/operations.md#bounded-history`):
 * that file must exist and, when an anchor is named, hold a heading with GitHub's anchor. They may
 * cite public standards by section (`RFC 9112 §3.2`, `VC Data Model 2.0 §4.4`). They must not cite
 * what the repository does not hold: sections of the specification svc was built from, issue
 * numbers of its tracker, sections of the README (its reference moved to docs/), or design and
 * research notes by section. Each finding names file:line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/fixtures.js';
import { anchorsOf, markdownFiles, proseLines } from '../support/markdown.js';

/** Folders of code whose comments and strings are read, and the file names read there. */
const CODE_DIRS = ['src', 'test', 'bench', 'scripts', 'clients'];
const CODE_FILE = /\.(ts|tsx|mts|mjs|js|py)$/;
/** Generated from openapi.json; its descriptions come from src/server/schemas, which are read. */
const GENERATED = new Set(['src/client/openapi.ts', 'clients/python/svc_client/_schema.py']);

/**
 * Files whose bare `§n.n` are sections of one public standard, named once at the top of the file:
 * the VC Data Model rules and their test, where every rule carries its section.
 */
const SECTIONS_OF_ONE_STANDARD = new Map([
  ['src/core/credentials/vcdm-rules.ts', 'VC Data Model 2.0 and 1.1'],
  ['test/integration/credential-structure-rules.test.ts', 'VC Data Model 2.0 and 1.1'],
]);

/** The names of public standards a `§` may follow (the section is then in a document anyone can read). */
const STANDARD =
  /(?:\bRFC ?\d{3,5}|\bDID Core|\bVC Data Model(?: v?\d(?:\.\d)*)?|\bVC Data Integrity(?: \d(?:\.\d)*)?|\bvc-di-(?:eddsa|ecdsa)|\bVC-JOSE-COSE|\bA2A(?: \d(?:\.\d)*)?|\bSARIF(?: \d(?:\.\d)*)?|\bdraft-ietf-[a-z0-9-]+|\bdid:webvh(?: v\d(?:\.\d)*)?)\s*[,(]?\s*$/i;

/** A section list going backwards: a section, then `,`, `and`, `or`, `to` or a dash. */
const SECTION_BEFORE = /§\s*\d+(?:\.\d+)*[a-z]?(?:\s*(?:step|rule)s?\s*\d+)?\s*(?:,|and|or|to|–|-)?\s*$/i;

/** Whether the `§` at `index` of `line` follows the name of a public standard (directly or through a list). */
function citesStandard(line: string, index: number): boolean {
  let before = line.slice(0, index);
  for (let previous = ''; previous !== before; ) {
    previous = before;
    before = before.replace(SECTION_BEFORE, '');
  }
  return STANDARD.test(before);
}

/** What a line cites that the repository does not hold, one phrase per finding. */
function danglingCitations(line: string, file = ''): string[] {
  const found: string[] = [];
  if (/\bSPEC(?:\.md)?\s*§/.test(line)) found.push('a section of SPEC, which the repository does not hold');
  else {
    for (const match of line.matchAll(/§\s*\d/g)) {
      if (SECTIONS_OF_ONE_STANDARD.has(file) || citesStandard(line, match.index)) continue;
      found.push('a section sign with no public standard named before it');
      break;
    }
  }
  if (/\bissues?\s+#?\d+/i.test(line)) found.push('an issue number of a tracker the repository does not hold');
  if (/\bREADME(?:\.md)?(?:'s)?\s*["“]/.test(line)) found.push('a section of the README, whose reference moved to docs/');
  return found;
}

/** The docs/ pages a line names (repository-relative), with the anchor when it names one. */
function docsMentions(line: string): { file: string; anchor: string | undefined }[] {
  return [...line.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md(?:#([\p{L}\p{N}_-]+))?/gu)].map((m) => ({
    file: m[0].split('#')[0]!,
    anchor: m[1],
  }));
}

/** Why a docs/ mention does not resolve, or null. */
function unresolved(mention: { file: string; anchor: string | undefined }): string | null {
  const target = path.join(repoRoot, mention.file);
  let anchors: Set<string>;
  try {
    anchors = anchorsOf(target);
  } catch {
    return `${mention.file}: no such file`;
  }
  if (mention.anchor === undefined || anchors.has(mention.anchor)) return null;
  return `${mention.file}#${mention.anchor}: no heading with that anchor`;
}

function codeFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(repoRoot, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === '__pycache__' ? [] : codeFiles(rel);
    return CODE_FILE.test(entry.name) && !GENERATED.has(rel) ? [rel] : [];
  });
}

/** Every Markdown page of the repository (not what npm installed or the build wrote). */
const markdown = readdirSync(repoRoot, { withFileTypes: true })
  .flatMap((entry) => {
    if (entry.isFile()) return entry.name.endsWith('.md') ? [path.join(repoRoot, entry.name)] : [];
    return entry.isDirectory() && !['node_modules', 'dist', '.git'].includes(entry.name) ? markdownFiles(path.join(repoRoot, entry.name)) : [];
  })
  .map((file) => path.relative(repoRoot, file));
const code = CODE_DIRS.flatMap(codeFiles);

/** Each line of a file with its number (prose lines only for Markdown: code blocks are examples). */
function linesOf(file: string): { text: string; number: number }[] {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const lines = file.endsWith('.md') ? proseLines(text) : text.split('\n');
  return lines.map((line, i) => ({ text: line, number: i + 1 }));
}

const S = '§';
const Q = '"';

describe('the citation matcher', () => {
  it('finds the citations of documents the repository does not hold', () => {
    for (const line of [`(SPEC ${S}4.7 rule 5)`, `SPEC ${S}2.11`, `the window of ${S}6.2`, `(DESIGN ${S}10)`, `field notes ${S}5`]) {
      expect(danglingCitations(line), line).toHaveLength(1);
    }
    for (const line of [`(issue ${26})`, `Issue #${38}; more`, `README ${Q}Bounded history"`, `the README's ${Q}Verify from files"`]) {
      expect(danglingCitations(line), line).toHaveLength(1);
    }
  });

  it('lets public standards be cited by section, and names of other projects by their address', () => {
    for (const line of [
      `Host (RFC 9112 ${S}3.2)`,
      `RFC 9901 ${S}4.3, ${S}7.3`,
      `W3C DID Core ${S}3.1–3.2 ABNF`,
      `(VC Data Model 2.0 ${S}4.4 Identifiers, rule "id")`,
      `vc-di-eddsa ${S}3.3.2 step 4`,
      `SARIF 2.1.0 ${S}3.13 – ${S}3.58`,
      'w3c/did-resolution#160',
      'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/123',
      'the issue is open',
    ]) {
      expect(danglingCitations(line), line).toEqual([]);
    }
  });

  it('reads docs/ mentions with their anchors', () => {
    expect(docsMentions('see docs/operations.md#bounded-history and docs/reference/problems.md.')).toEqual([
      { file: 'docs/operations.md', anchor: 'bounded-history' },
      { file: 'docs/reference/problems.md', anchor: undefined },
    ]);
  });
});

describe('citations resolve', () => {
  it('finds the files', () => {
    expect(code).toEqual(
      expect.arrayContaining(['src/cli/main.ts', 'test/unit/citations.test.ts', 'scripts/gen-docs.ts', 'clients/python/svc_client/client.py']),
    );
    expect(code.length).toBeGreaterThan(500);
    expect(markdown).toEqual(
      expect.arrayContaining([
        'README.md',
        'ARCHITECTURE.md',
        'CONTRIBUTING.md',
        'docs/operations.md',
        'docs/reference/problems.md',
        'clients/python/README.md',
      ]),
    );
  });

  it('no code or page cites SPEC sections, issue numbers, README sections or notes by section', () => {
    const findings = [...code, ...markdown].flatMap((file) =>
      linesOf(file).flatMap(({ text, number }) => danglingCitations(text, file).map((why) => `${file}:${number}: ${why}: ${text.trim().slice(0, 120)}`)),
    );
    expect(findings).toEqual([]);
  });

  it('every docs/ page the code and the pages name exists, and holds the anchor named', () => {
    let mentions = 0;
    const findings = [...code, ...markdown].flatMap((file) =>
      linesOf(file).flatMap(({ text, number }) =>
        docsMentions(text).flatMap((mention) => {
          mentions += 1;
          const why = unresolved(mention);
          return why === null ? [] : [`${file}:${number}: ${why}`];
        }),
      ),
    );
    expect(findings).toEqual([]);
    expect(mentions).toBeGreaterThan(0);
  });
});
