/**
 * Routes and their schemas (ARCHITECTURE.md, src/server): each src/server/routes/<x>.ts has its
 * schemas in src/server/schemas/<x>.ts, and a route file builds no TypeBox schema of its own — no
 * `Type.` call, no TypeBox value imported — so that what a route takes and answers is read in one
 * place: its schema file, or schemas/common.ts for what several share (the empty querystring and
 * body, `{did}`, `{project}`, `ref(schema)` for a component). Every TypeBox value a schema file
 * exports is named …Schema. A failure names the file and the line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/fixtures.js';

const ROUTES = path.join(repoRoot, 'src/server/routes');
const SCHEMAS = path.join(repoRoot, 'src/server/schemas');

/** Route files: every .ts of routes/ but the index, which only lists them. */
const routeFiles = (): string[] =>
  readdirSync(ROUTES)
    .filter((name) => name.endsWith('.ts') && name !== 'index.ts')
    .sort();

/** The text with its comments blanked (line breaks kept, so line numbers stay). Strings are left as they are. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).replace(/^(\s*)\/\/.*$/gm, '$1');
}

/** `line: text` of each `Type.` call, and of each import of a TypeBox value (a type-only import is fine). */
function typeboxInRoute(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  code.split('\n').forEach((line, i) => {
    if (/\bType\s*\.\s*[A-Za-z_$]/.test(line)) found.push(`${i + 1}: ${line.trim()}`);
  });
  for (const m of code.matchAll(/^import\s+(?!type\s)[^;]*?from\s+['"]typebox['"];?/gm)) {
    const line = code.slice(0, m.index).split('\n').length;
    found.push(`${line}: ${m[0].split('\n')[0]!.trim()} (a TypeBox value: the schema belongs in schemas/)`);
  }
  return found;
}

/** `line: name` of each exported TypeBox value whose name does not end in Schema. */
function unsuffixedSchemas(text: string): string[] {
  const found: string[] = [];
  withoutComments(text)
    .split('\n')
    .forEach((line, i) => {
      const m = /^export const (\w+)\s*(?::[^=]+)?=\s*(?:Type\s*\.|Nullable\(|StoredText\()/.exec(line);
      if (m && !m[1]!.endsWith('Schema')) found.push(`${i + 1}: ${m[1]}`);
    });
  return found;
}

describe('routes and their schemas', () => {
  it('pair by file name: routes/<x>.ts has schemas/<x>.ts', () => {
    const schemas = new Set(readdirSync(SCHEMAS));
    const unpaired = routeFiles().filter((name) => !schemas.has(name));
    expect(unpaired, `route files without src/server/schemas/<same name>: ${unpaired.join(', ')}`).toEqual([]);
  });

  it('a route file builds no TypeBox schema (no Type. call, no TypeBox value imported)', () => {
    const found = routeFiles().flatMap((name) =>
      typeboxInRoute(readFileSync(path.join(ROUTES, name), 'utf8')).map((hit) => `src/server/routes/${name}:${hit}`),
    );
    expect(found, `move these into src/server/schemas/<same name>.ts (or common.ts when shared) as an exported …Schema:\n${found.join('\n')}`).toEqual([]);
  });

  it('every TypeBox value a schema file exports is named …Schema', () => {
    const found = readdirSync(SCHEMAS)
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .flatMap((name) => unsuffixedSchemas(readFileSync(path.join(SCHEMAS, name), 'utf8')).map((hit) => `src/server/schemas/${name}:${hit}`));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('the checks find what they are about, and not comments or type-only imports', () => {
    const route = [
      "import type { TSchema } from 'typebox';",
      '/** Type.Ref in a comment is fine. */',
      '// so is Type.Object here',
      "import { json, ref } from '../schemas/common.js';",
      '      params: Type.Object({ tenant: StoredText() }, { additionalProperties: false }),',
      "import Type from 'typebox';",
      "import { Object as O } from 'typebox';",
    ].join('\n');
    expect(typeboxInRoute(route)).toEqual([
      '5: params: Type.Object({ tenant: StoredText() }, { additionalProperties: false }),',
      "6: import Type from 'typebox'; (a TypeBox value: the schema belongs in schemas/)",
      "7: import { Object as O } from 'typebox'; (a TypeBox value: the schema belongs in schemas/)",
    ]);
    expect(unsuffixedSchemas('export const Tenant = Type.Object({});\nexport const TenantSchema = Type.Object({});\nexport const LIMIT = 5;')).toEqual([
      '1: Tenant',
    ]);
  });
});
