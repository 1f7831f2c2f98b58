/**
 * The generated reference pages of docs/reference/, made from the code so they cannot drift from
 * it: the command tree (src/cli/program.ts, as the man page is made), the environment table, the
 * exit codes, the problem table with its hints, and the routes of openapi.json. One pure function
 * per page returns its text; `npm run docs` (tsx scripts/gen-docs.ts) writes them, and
 * `--check` only compares. test/unit/docs-generated.test.ts regenerates every page and fails on
 * any difference. No timestamps, no version: the same sources give the same bytes.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argument, Command, Help, Option } from 'commander';
import { CLIENT_BAD_RESPONSE, CLIENT_NETWORK_ERROR } from '../src/client/errors.js';
import { CONFIG_KEYS, ENVIRONMENT_ONLY, REFUSED_KEYS, type ConfigKind } from '../src/cli/cmdutil/config-keys.js';
import { configSchemaText } from '../src/cli/cmdutil/config-schema.js';
import { ENVIRONMENT, ENVIRONMENT_RULE, SCOPE_TITLES, type EnvironmentScope, type EnvironmentVariable } from '../src/cli/cmdutil/environment.js';
import { CLI_ERROR_GUIDE } from '../src/cli/cmdutil/errors.js';
import { exitCodeDescriptions, exitForProblem } from '../src/cli/cmdutil/exit-codes.js';
import { buildProgram, OUTPUT_HELP } from '../src/cli/program.js';
import {
  DEFAULT_PROBLEMS_BASE,
  PROBLEM_GUIDE,
  hintSentence,
  hintText,
  PROBLEM_HINT_CODES,
  PROBLEMS,
  problemType,
  W3C_DID_NAMESPACE,
  type ProblemCode,
  type ProblemHint,
} from '../src/core/problems.js';

/** The repository's root (this file is in scripts/). */
export const REPO_ROOT: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// Markdown (GitHub-flavoured)

/**
 * Text as Markdown shows it: the characters that would start markup (emphasis, links, HTML,
 * strikethrough, math) escaped, an underscore only where it could open emphasis (after a
 * letter or digit it cannot: SVC_ADMIN_TOKEN and ten_… stay searchable in the raw file); a
 * `code span` of the text is kept as one, as the help and openapi.json's descriptions
 * (CommonMark) mean it.
 */
export function inline(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : literal(part)))
    .join('');
}

/** Text with every character that could start markup escaped. */
function literal(text: string): string {
  return text
    .replace(/[\\`*[\]<~$]/g, '\\$&')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
    .replace(/(?<![\p{L}\p{N}])_/gu, '\\_');
}

/** A table cell: inline text, with `|` escaped and no line breaks. */
function cell(text: string): string {
  return inline(oneLine(text)).replace(/\|/g, '\\|');
}

/** A code span; in a table cell `|` is escaped, as GitHub's tables need even there. */
function code(text: string, inTable = true): string {
  const ticks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = ticks.length > 1 ? ' ' : '';
  return `${ticks}${pad}${inTable ? text.replace(/\|/g, '\\|') : text}${pad}${ticks}`;
}

/** Hand-wrapped lines as one line. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

/** A paragraph of prose: one line, escaped, and never read as a heading, list item or quote. */
function paragraph(text: string): string {
  return inline(oneLine(text))
    .replace(/^(\d+)([.)])(\s)/, '$1\\$2$3')
    .replace(/^>|^[#+-](?=\s|$)/, '\\$&');
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function fence(language: string, lines: readonly string[]): string {
  const ticks = '`'.repeat(Math.max(3, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length + 1))));
  return [`${ticks}${language}`, ...lines.map((l) => l.trimEnd()), ticks].join('\n');
}

/**
 * The anchors GitHub gives a page's headings: lower case, punctuation other than `-` and `_`
 * dropped, each space a `-`; a repeated one gets `-1`, `-2` …
 */
export class Anchors {
  readonly #seen = new Map<string, number>();

  add(heading: string): string {
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = this.#seen.get(base) ?? 0;
    this.#seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  }
}

/** The anchor of a heading that is unique on its page (a command, a problem code). */
function anchorOf(heading: string): string {
  return new Anchors().add(heading);
}

/** A whole page: the generated-file line, then blocks separated by blank lines, ending in one newline. */
function page(source: string, blocks: ReadonlyArray<string | null>): string {
  const header = `<!-- Generated by scripts/gen-docs.ts from ${source}; edit the source, then run npm run docs. -->`;
  return `${[header, ...blocks.filter((b): b is string => b !== null && b !== '')].join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Help text as Markdown

/**
 * The text a command adds after its help (examples, exit status notes), as commander prints it
 * from its 'afterHelp' event; the same event is asked for it here (as in src/cli/man.ts).
 */
function afterHelp(cmd: Command): string {
  let text = '';
  // A Command is an EventEmitter at run time; its typings leave that out.
  (cmd as unknown as NodeJS.EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => ((text += s), true) });
  return text;
}

type HelpPart = { kind: 'prose'; text: string } | { kind: 'code'; lines: string[] };

/**
 * Help text in parts: blank lines separate blocks; within a block, lines at the margin are prose
 * (wrapped by hand, joined here) and indented lines are preformatted (examples, aligned lists).
 */
function helpParts(text: string): HelpPart[] {
  const parts: HelpPart[] = [];
  for (const block of text.replace(/\r/g, '').split(/\n[ \t]*\n/)) {
    let current: HelpPart | undefined;
    for (const line of block.split('\n')) {
      if (line.trim() === '') continue;
      const indented = /^\s/.test(line);
      if (current?.kind === 'code' && indented) current.lines.push(line);
      else if (current?.kind === 'prose' && !indented) current.text += `\n${line}`;
      else parts.push((current = indented ? { kind: 'code', lines: [line] } : { kind: 'prose', text: line }));
    }
  }
  return parts;
}

/** Preformatted lines: shell examples (`$ …`) as an sh block without the prompt, anything else as text. */
function codeBlock(lines: readonly string[]): string {
  const indent = Math.min(...lines.map((l) => /^ */.exec(l)![0].length));
  const body = lines.map((l) => l.slice(indent));
  const shell = body.every((l, i) => l.startsWith('$ ') || (i > 0 && body[i - 1]!.trimEnd().endsWith('\\')));
  return shell
    ? fence(
        'sh',
        body.map((l) => (l.startsWith('$ ') ? l.slice(2) : l)),
      )
    : fence('text', body);
}

/**
 * An aligned list of environment variables (as `svc serve --help` prints part of the table): the
 * same variables as a table, and a line after them that names no variable (`and SVC_… as for
 * every command`) as prose. Null when the lines are no such list.
 */
function environmentList(lines: readonly string[]): string[] | null {
  const indent = Math.min(...lines.map((l) => /^ */.exec(l)![0].length));
  const variableAt = (line: string) => {
    const name = /^([A-Z][A-Z0-9_]*) {2,}/.exec(line.slice(indent))?.[1];
    return line.length - line.trimStart().length === indent ? ENVIRONMENT.find((v) => v.name === name) : undefined;
  };
  if (variableAt(lines[0]!) === undefined) return null;
  const variables: EnvironmentVariable[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    const variable = variableAt(line);
    if (variable !== undefined) variables.push(variable);
    else if (rest.length > 0 || line.length - line.trimStart().length === indent) rest.push(line.trim());
  }
  return [environmentTable(variables), ...(rest.length > 0 ? [paragraph(rest.join('\n'))] : [])];
}

function helpMarkdown(text: string): string[] {
  return helpParts(text).flatMap((p) => (p.kind === 'code' ? (environmentList(p.lines) ?? [codeBlock(p.lines)]) : [paragraph(p.text)]));
}

// ---------------------------------------------------------------------------------------------
// commands.md

/** The command tree as `svc` builds it, with an io that writes nowhere and an empty environment. */
export function docsProgram(): Command {
  const sink = { write: () => true };
  return buildProgram({ stdout: sink, stderr: sink, env: {} }, () => {});
}

interface CommandEntry {
  cmd: Command;
  /** `svc monitor watch add` */
  path: string;
  depth: number;
}

/** Every visible command at any depth, in the order of the help. */
function commandEntries(program: Command): CommandEntry[] {
  const help = program.createHelp();
  const walk = (cmd: Command, prefix: string, depth: number): CommandEntry[] =>
    help.visibleCommands(cmd).flatMap((c) => {
      const entryPath = `${prefix} ${c.name()}`;
      return [{ cmd: c, path: entryPath, depth }, ...walk(c, entryPath, depth + 1)];
    });
  return walk(program, program.name(), 0);
}

/** `<did>`, `[topic...]`: as the usage line writes an argument. */
function argumentUsage(a: Argument): string {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${name}>` : `[${name}]`;
}

/** Every option but -h, --help, which every command has (the page says so once). */
function documentedOptions(help: Help, cmd: Command): Option[] {
  return help.visibleOptions(cmd).filter((o) => o.long !== '--help');
}

/** A command's description as a sentence (the help leaves out the final period). */
function sentenceOf(text: string): string {
  const line = oneLine(text);
  return /[.!?]$/.test(line) || line === '' ? line : `${line}.`;
}

function commandSection(entry: CommandEntry, help: Help): string[] {
  const { cmd } = entry;
  const blocks = [`${'#'.repeat(entry.depth + 2)} ${entry.path}`, paragraph(sentenceOf(help.commandDescription(cmd))), fence('text', [help.commandUsage(cmd)])];
  if (cmd.aliases().length > 0) {
    const parent = entry.path.slice(0, entry.path.lastIndexOf(' '));
    blocks.push(
      `Also written ${cmd
        .aliases()
        .map((a) => code(`${parent} ${a}`, false))
        .join(', ')}.`,
    );
  }
  if (cmd.registeredArguments.length > 0) {
    blocks.push(
      table(
        ['Argument', 'Description'],
        cmd.registeredArguments.map((a) => [code(argumentUsage(a)), cell(help.argumentDescription(a))]),
      ),
    );
  }
  const options = documentedOptions(help, cmd);
  if (options.length > 0)
    blocks.push(
      table(
        ['Option', 'Description'],
        options.map((o) => [code(help.optionTerm(o)), cell(help.optionDescription(o))]),
      ),
    );
  const subcommands = help.visibleCommands(cmd);
  if (subcommands.length > 0) {
    const link = (name: string) => `[${code(name, false)}](#${anchorOf(name)})`;
    blocks.push(`Subcommands: ${subcommands.map((s) => link(`${entry.path} ${s.name()}`)).join(', ')}.`);
  }
  blocks.push(...helpMarkdown(afterHelp(cmd)));
  return blocks;
}

export function commandsPage(program: Command = docsProgram()): string {
  const help = program.createHelp();
  const entries = commandEntries(program);
  return page('src/cli/program.ts (the command tree)', [
    '# Commands',
    [
      'Every svc command with its arguments, options and examples: what `svc <command> --help` prints, from the same command tree as',
      'the man page and the shell completions. Every command also takes `-h, --help`. What the exit codes mean:',
      '[exit-codes.md](exit-codes.md); the environment variables: [environment.md](environment.md).',
    ].join(' '),
    paragraph(OUTPUT_HELP),
    table(
      ['Command', 'What it does'],
      entries.map((e) => [`[${code(e.path)}](#${anchorOf(e.path)})`, cell(help.commandDescription(e.cmd))]),
    ),
    '## Global options',
    table(
      ['Option', 'Description'],
      help.visibleOptions(program).map((o) => [code(help.optionTerm(o)), cell(help.optionDescription(o))]),
    ),
    ...entries.flatMap((e) => commandSection(e, help)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// environment.md

function environmentTable(variables: readonly EnvironmentVariable[]): string {
  return table(
    ['Variable', 'What it does', 'Default'],
    variables.map((v) => [code(v.name), cell(v.description), cell(v.default)]),
  );
}

export function environmentPage(variables: readonly EnvironmentVariable[] = ENVIRONMENT): string {
  const scopes = Object.keys(SCOPE_TITLES) as EnvironmentScope[];
  return page('src/cli/cmdutil/environment.ts', [
    '# Environment variables',
    'Every environment variable svc reads, from the one table that `svc help environment`, the man page and `svc serve --help` print. ' +
      inline(ENVIRONMENT_RULE),
    table(
      ['Scope', 'Variables'],
      scopes.map((s) => [`[${cell(SCOPE_TITLES[s])}](#${anchorOf(SCOPE_TITLES[s])})`, String(variables.filter((v) => v.scope === s).length)]),
    ),
    ...scopes.flatMap((s) => [`## ${SCOPE_TITLES[s]}`, environmentTable(variables.filter((v) => v.scope === s))]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// configuration.md

function kindText(kind: ConfigKind): string {
  switch (kind.type) {
    case 'string':
      return 'string';
    case 'integer':
      return `integer ≥ ${kind.minimum}`;
    case 'integers':
      return 'array of integers';
    case 'list':
      return 'array of strings';
    case 'boolean':
      return `boolean (${kind.on} / ${kind.off})`;
    case 'enum':
      return kind.values.join(', ');
    case 'path':
      return kind.private ? 'file path (mode 0600)' : 'file path';
    case 'secret-file':
      return 'file path (mode 0600): the file holds the secret';
  }
}

export function configurationPage(): string {
  return page('src/cli/cmdutil/config-keys.ts', [
    '# svc.config.json keys',
    'Every key of svc.config.json (the guide: [Configuration file](../configuration.md)). Each sets one environment variable, ' +
      'which the environment and then the flag override. The schema is `svc.config.schema.json` in the package. ' +
      'A relative file path is relative to the config file.',
    table(
      ['Key', 'Type', 'Sets', 'What it does', 'Default'],
      CONFIG_KEYS.map((k) => {
        const v = ENVIRONMENT.find((e) => e.name === k.variable);
        return [
          code(k.key),
          cell(kindText(k.kind)),
          `${code(k.variable)}${k.flag !== undefined ? ` (${code(k.flag)} overrides)` : ''}`,
          cell(v?.description ?? ''),
          cell(v?.default ?? ''),
        ];
      }),
    ),
    '## Refused keys',
    'Secrets stay in the environment, or in files named by path; a key named like a secret (token, secret, password, private key …) is refused too.',
    table(
      ['Key', 'Why'],
      Object.entries(REFUSED_KEYS).map(([key, why]) => [code(key), cell(why)]),
    ),
    '## Environment only',
    'Variables no key sets:',
    table(
      ['Variable', 'Why'],
      Object.entries(ENVIRONMENT_ONLY).map(([name, why]) => [code(name), cell(why)]),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------
// exit-codes.md

/** The `Exit status:` paragraph of a command's help, without its label; null when it has none. */
function exitStatusOf(cmd: Command): string | null {
  const part = helpParts(afterHelp(cmd)).find((p): p is { kind: 'prose'; text: string } => p.kind === 'prose' && p.text.startsWith('Exit status:'));
  return part === undefined ? null : oneLine(part.text.slice('Exit status:'.length));
}

export function exitCodesPage(program: Command = docsProgram()): string {
  const { codes, notes } = exitCodeDescriptions();
  const rows = codes.map(({ code: c, name, text }) => {
    const colon = text.indexOf(': ');
    const meaning = colon < 0 ? cell(text) : `**${cell(text.slice(0, colon))}**: ${cell(text.slice(colon + 2))}`;
    return [code(String(c)), code(name), meaning];
  });
  // The problems' exit codes, grouped: the most common first.
  const byExit = new Map<number, ProblemCode[]>();
  for (const c of Object.keys(PROBLEMS) as ProblemCode[]) byExit.set(exitForProblem(c), [...(byExit.get(exitForProblem(c)) ?? []), c]);
  const groups = [...byExit].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  const [usual, ...exceptions] = groups;
  const problemLine =
    usual === undefined
      ? ''
      : `A problem (no answer; see [problems.md](problems.md)) exits ${code(String(usual[0]))}` +
        exceptions.map(([exit, list]) => `, except ${list.map((c) => `[${code(c)}](problems.md#${anchorOf(c)})`).join(', ')}: ${code(String(exit))}`).join('') +
        `. [The CLI’s own codes](problems.md#${anchorOf(CLI_CODES_HEADING)}): ` +
        Object.entries(CLI_ERROR_GUIDE)
          .map(([c, g]) => `${code(c, false)} ${code(String(g.exit), false)}`)
          .join(', ') +
        '.';
  // What each command's help says about its codes, commands that say the same thing together.
  const byText = new Map<string, string[]>();
  for (const e of commandEntries(program)) {
    const text = exitStatusOf(e.cmd);
    if (text !== null) byText.set(text, [...(byText.get(text) ?? []), e.path]);
  }
  const perCommand = [...byText].map(([text, paths]) => `- ${paths.map((p) => `[${code(p)}](commands.md#${anchorOf(p)})`).join(', ')}: ${inline(text)}`);
  return page("src/cli/cmdutil/exit-codes.ts and each command's help", [
    '# Exit codes',
    [
      'svc exits with the same codes whatever the command, so shell scripts and CI gates can rely on them; it never exits 0 when',
      'nothing was checked. `svc --help` prints this list.',
    ].join(' '),
    table(['Code', 'Name', 'Meaning'], rows),
    notes.length > 0 ? paragraph(notes.join('\n')) : null,
    '## When there is no answer',
    problemLine,
    '## By command',
    paragraph('What the codes mean for each command that says more in its help (the rest follow the table above):'),
    perCommand.join('\n'),
  ]);
}

// ---------------------------------------------------------------------------------------------
// problems.md

const CLI_CODES_HEADING = 'The CLI’s own codes';

/** Each hint with placeholders for its particulars, as the page shows it. */
const HINT_EXAMPLES: { readonly [K in ProblemHint['kind']]: Extract<ProblemHint, { kind: K }> } = {
  'egress-allow': { kind: 'egress-allow', cidr: '<cidr>' },
  'extra-ca': { kind: 'extra-ca' },
  'host-name': { kind: 'host-name', host: '<host>' },
  'did-web-port': { kind: 'did-web-port', method: 'web', port: '<port>', suggested: 'did:web:<host>%3A<port>' },
  'mcp-endpoint': { kind: 'mcp-endpoint' },
};

/** A hint as the terminal's `hint:` line says it (PROBLEM_HINTS), with placeholders. */
function hintWords(kind: ProblemHint['kind']): string {
  return hintText(HINT_EXAMPLES[kind]);
}

function hintKinds(c: ProblemCode): Array<ProblemHint['kind']> {
  return (Object.keys(PROBLEM_HINT_CODES) as Array<ProblemHint['kind']>).filter((k) => PROBLEM_HINT_CODES[k].includes(c));
}

function problemSection(c: ProblemCode): string[] {
  const spec = PROBLEMS[c];
  const guide = PROBLEM_GUIDE[c];
  const facts = [
    `HTTP ${code(String(spec.status))}`,
    spec.w3cStatus === null ? 'not used on the /1.0 routes' : `on the W3C /1.0 routes ${code(String(spec.w3cStatus))}`,
    `exit ${code(String(exitForProblem(c)))}`,
    `type ${code(problemType(c))}`,
  ];
  const kinds = hintKinds(c);
  return [
    `### ${c}`,
    `**${inline(spec.title)}**: ${facts.join(' · ')}.`,
    `${paragraph(guide.meaning)} **What to do:** ${inline(oneLine(guide.handling))}`,
    kinds.length === 0
      ? null
      : `When svc knows the cause it says what to do instead (the \`hint:\` line, the end of the detail):\n\n${kinds
          .map((k) => `- ${inline(hintSentence(HINT_EXAMPLES[k]))}`)
          .join('\n')}`,
  ].filter((b): b is string => b !== null);
}

export function problemsPage(): string {
  const codes = Object.keys(PROBLEMS) as ProblemCode[];
  const hintKindsAll = Object.keys(PROBLEM_HINT_CODES) as Array<ProblemHint['kind']>;
  return page('src/core/problems.ts and src/cli/cmdutil/errors.ts', [
    '# Problem codes',
    [
      'When svc cannot produce an answer it returns a problem with a stable code: an RFC 9457 object (`application/problem+json`)',
      'from the daemon and with `--json`, a line `svc: CODE: detail` and a `hint:` line on the terminal. A failed check is a result,',
      `never a problem. The type of a W3C code is \`${W3C_DID_NAMESPACE}#CODE\`; of svc's own, \`SVC_PROBLEMS_BASE#CODE\``,
      `(by default \`${DEFAULT_PROBLEMS_BASE}#CODE\`).`,
    ].join(' '),
    table(
      ['Code', 'Title', 'HTTP', '/1.0', 'Exit', 'W3C'],
      codes.map((c) => {
        const spec = PROBLEMS[c];
        return [
          `[${code(c)}](#${anchorOf(c)})`,
          cell(spec.title),
          String(spec.status),
          spec.w3cStatus === null ? '–' : String(spec.w3cStatus),
          String(exitForProblem(c)),
          spec.w3c ? 'yes' : '',
        ];
      }),
    ),
    paragraph('HTTP: the status on the /v1 routes; /1.0: on the W3C DID Resolution routes (– where the code is not used there); Exit: the CLI’s exit code.'),
    '## The codes',
    ...codes.flatMap(problemSection),
    `## ${CLI_CODES_HEADING}`,
    `The command line reports these beside the problem codes, in the same ${code('svc: CODE: detail', false)} form; they never come from the daemon.`,
    table(
      ['Code', 'Exit', 'Meaning'],
      Object.entries(CLI_ERROR_GUIDE).map(([c, g]) => [code(c), String(g.exit), cell(g.meaning)]),
    ),
    paragraph(
      `The API clients (TypeScript and Python) add two codes of their own for what is not a problem from the daemon: ${CLIENT_NETWORK_ERROR}` +
        ` (no HTTP answer) and ${CLIENT_BAD_RESPONSE} (an answer that is not what openapi.json says).`,
    ),
    '## Hints',
    paragraph('The fixes svc names when it knows the cause of a problem, with the codes each comes with (placeholders in angle brackets):'),
    table(
      ['Hint', 'Codes', 'What svc says'],
      hintKindsAll.map((k) => [code(k), PROBLEM_HINT_CODES[k].map((c) => `[${code(c)}](#${anchorOf(c)})`).join(', '), cell(hintWords(k))]),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------
// http-api.md

interface OpenApiSchema {
  $ref?: string;
  type?: string;
}
interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
}
interface OpenApiMedia {
  schema?: OpenApiSchema;
}
interface OpenApiResponse {
  description: string;
  content?: Record<string, OpenApiMedia>;
}
interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
  [extension: `x-${string}`]: unknown;
}
export interface OpenApiDocument {
  info: { description?: string };
  servers?: Array<{ url: string; description?: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
  'x-svc-budgets'?: { description?: string; directPerMinute?: number } & Record<string, unknown>;
}

export function readOpenapi(root: string = REPO_ROOT): OpenApiDocument {
  return JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')) as OpenApiDocument;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** What an x-svc-budget-<case> extension is about, in words; another case shows its own name. */
const BUDGET_CASES: Readonly<Record<string, string>> = { 'did-webvh': 'for a did:webvh', 'without-query': 'without a query' };

function budgetOf(op: OpenApiOperation): string {
  const main = typeof op['x-svc-budget'] === 'string' ? (op['x-svc-budget'] as string) : 'none';
  const cases = Object.keys(op)
    .filter((k) => k.startsWith('x-svc-budget-'))
    .sort()
    .map((k) => `${code(String(op[k as `x-${string}`]))} ${inline(BUDGET_CASES[k.slice('x-svc-budget-'.length)] ?? k.slice('x-svc-budget-'.length))}`);
  return [code(main), ...cases].join('; ');
}

function schemaName(schema: OpenApiSchema | undefined): string {
  if (schema === undefined) return '';
  if (schema.$ref !== undefined) return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  return schema.type ?? 'schema';
}

/** A body: its schema's name, with the media type unless it is JSON (or a problem). */
function bodyOf(content: Record<string, OpenApiMedia> | undefined): string {
  if (content === undefined) return '–';
  return Object.entries(content)
    .map(([media, m]) => {
      const name = schemaName(m.schema);
      if (media === 'application/problem+json') return 'problem';
      if (media === 'application/json') return code(name);
      return name === 'string' ? code(media) : `${code(name)} (${code(media)})`;
    })
    .join(', ');
}

/** A route's result in the overview: its schemas' names (a page or stream: its media type), each once. */
function resultOf(content: Record<string, OpenApiMedia> | undefined): string {
  if (content === undefined) return '–';
  const names = Object.entries(content).map(([media, m]) => (schemaName(m.schema) === 'string' ? media : schemaName(m.schema)));
  return [...new Set(names)].map((n) => code(n)).join(', ');
}

/** The problem codes a text names (a response's description), in the order it names them. */
function problemCodesIn(text: string): ProblemCode[] {
  const names = new RegExp(`(?<![A-Z_])(?:${Object.keys(PROBLEMS).join('|')})(?![A-Z_])`, 'g');
  return [...text.matchAll(names)].map((m) => m[0] as ProblemCode);
}

interface Route {
  method: string;
  path: string;
  op: OpenApiOperation;
  heading: string;
  /** Its heading's anchor. */
  anchor: string;
}

function routes(doc: OpenApiDocument): Route[] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => {
      const method = m.toUpperCase();
      return { method, path: p, op: item[m]!, heading: `${method} ${p}`, anchor: '' };
    }),
  );
}

/** The parameters of a route (name, where, required, what); of a webhook, its headers. */
function parametersTable(parameters: readonly OpenApiParameter[] | undefined, headers = false): string | null {
  if (parameters === undefined || parameters.length === 0) return null;
  const required = (p: OpenApiParameter) => (p.required === true ? 'yes' : 'no');
  if (headers)
    return table(
      ['Header', 'Required', 'Description'],
      parameters.map((p) => [code(p.name), required(p), cell(p.description ?? '')]),
    );
  return table(
    ['Parameter', 'In', 'Required', 'Description'],
    parameters.map((p) => [code(p.name), p.in, required(p), cell(p.description ?? '')]),
  );
}

function responsesTable(responses: Record<string, OpenApiResponse>): string {
  return table(
    ['Status', 'Body', 'Meaning'],
    Object.entries(responses).map(([status, r]) => [code(status), bodyOf(r.content), cell(r.description)]),
  );
}

function routeSection(route: Route): string[] {
  const { op } = route;
  const problems = [...new Set(Object.values(op.responses).flatMap((r) => problemCodesIn(r.description)))];
  const facts = [`Budget: ${budgetOf(op)}`, ...(op.operationId === undefined ? [] : [`operation ${code(op.operationId, false)}`])];
  return [
    `### ${route.heading}`,
    `${op.summary === undefined ? '' : `**${inline(op.summary)}.** `}${facts.join(' · ')}.`,
    op.description === undefined ? null : paragraph(op.description),
    parametersTable(op.parameters),
    op.requestBody === undefined ? null : `Request body: ${bodyOf(op.requestBody.content)}.`,
    responsesTable(op.responses),
    problems.length === 0 ? null : `Problem codes: ${problems.map((c) => `[${code(c, false)}](problems.md#${anchorOf(c)})`).join(', ')}.`,
  ].filter((b): b is string => b !== null);
}

function webhookSection(name: string, method: string, op: OpenApiOperation): string[] {
  return [
    `### ${name}`,
    `${op.summary === undefined ? '' : `**${inline(op.summary)}.** `}${code(method.toUpperCase(), false)} to the URL the daemon was given.`,
    op.description === undefined ? null : paragraph(op.description),
    parametersTable(op.parameters, true),
    op.requestBody === undefined ? null : `Body: ${bodyOf(op.requestBody.content)}.`,
    responsesTable(op.responses),
  ].filter((b): b is string => b !== null);
}

function budgetsBlocks(doc: OpenApiDocument): string[] {
  const budgets = doc['x-svc-budgets'];
  if (budgets === undefined) return [];
  const names = Object.keys(budgets).filter((k) => typeof budgets[k] === 'object' && budgets[k] !== null);
  const direct = budgets.directPerMinute;
  return [
    '## Budgets',
    budgets.description === undefined ? null : paragraph(budgets.description),
    table(
      ['Budget', 'Public profile (per client)', 'Direct profile (per client)'],
      names.map((n) => {
        const perMinute = (budgets[n] as { publicPerMinute?: number }).publicPerMinute;
        return [
          code(n),
          perMinute === undefined ? 'not limited' : `${perMinute} a minute`,
          perMinute === undefined ? 'not limited' : direct === undefined ? '' : `${direct} a minute, one bucket for every budgeted route`,
        ];
      }),
    ),
  ].filter((b): b is string => b !== null);
}

export function httpApiPage(doc: OpenApiDocument = readOpenapi()): string {
  const all = routes(doc);
  const tagOf = (r: Route) => r.op.tags?.[0] ?? 'other';
  const tags = [...new Set(all.map(tagOf))];
  const webhooks = Object.entries(doc.webhooks ?? {}).flatMap(([name, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => ({ name, method: m, op: item[m]! })),
  );
  // The headings in page order, so each route's anchor (and a -1 suffix, were one repeated) is GitHub's.
  const anchors = new Anchors();
  for (const h of ['HTTP API', 'Budgets', 'Routes']) anchors.add(h);
  for (const t of tags) {
    anchors.add(t);
    for (const r of all.filter((x) => tagOf(x) === t)) r.anchor = anchors.add(r.heading);
  }
  const server = doc.servers?.[0];
  return page('openapi.json', [
    '# HTTP API',
    [
      `The routes \`svc serve\` answers${server === undefined ? '' : ` (by default at ${inline(server.url)})`}, from openapi.json, which the`,
      'daemon also serves at `GET /openapi.json` with the schema of every body. Errors are problems (`application/problem+json`):',
      'their codes are in [problems.md](problems.md). Each route draws on a budget, below.',
    ].join(' '),
    ...budgetsBlocks(doc),
    '## Routes',
    ...tags.flatMap((t) => [
      `**${inline(t)}**`,
      table(
        ['Method', 'Path', 'Summary', 'Budget', 'Result'],
        all
          .filter((r) => tagOf(r) === t)
          .map((r) => {
            const ok = Object.entries(r.op.responses).find(([status]) => status.startsWith('2'));
            return [r.method, `[${code(r.path)}](#${r.anchor})`, cell(r.op.summary ?? ''), budgetOf(r.op), ok === undefined ? '–' : resultOf(ok[1].content)];
          }),
      ),
    ]),
    ...tags.flatMap((t) => [`## ${t}`, ...all.filter((r) => tagOf(r) === t).flatMap(routeSection)]),
    ...(webhooks.length === 0
      ? []
      : [
          '## Webhooks',
          'What the daemon POSTs to the URLs it was given (openapi.json, webhooks).',
          ...webhooks.flatMap((w) => webhookSection(w.name, w.method, w.op)),
        ]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The pages, and main

export interface GeneratedPage {
  /** Path from the repository's root. */
  file: string;
  render: () => string;
}

/** Every generated page; the command tree is built once for the pages that read it. */
export function generatedPages(root: string = REPO_ROOT): GeneratedPage[] {
  let program: Command | undefined;
  const tree = () => (program ??= docsProgram());
  return [
    { file: 'docs/reference/commands.md', render: () => commandsPage(tree()) },
    { file: 'docs/reference/environment.md', render: () => environmentPage() },
    { file: 'docs/reference/http-api.md', render: () => httpApiPage(readOpenapi(root)) },
    { file: 'docs/reference/problems.md', render: () => problemsPage() },
    { file: 'docs/reference/exit-codes.md', render: () => exitCodesPage(tree()) },
    { file: 'docs/reference/configuration.md', render: () => configurationPage() },
    { file: 'svc.config.schema.json', render: () => configSchemaText() },
  ];
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  let stale = 0;
  for (const { file, render } of generatedPages()) {
    const full = path.join(REPO_ROOT, file);
    const text = render();
    let current: string | null = null;
    try {
      current = readFileSync(full, 'utf8');
    } catch {
      current = null;
    }
    if (current === text) continue;
    if (check) {
      process.stderr.write(`${file} is stale: run npm run docs\n`);
      stale++;
    } else {
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, text);
      process.stdout.write(`wrote ${file}\n`);
    }
  }
  return stale === 0 ? 0 : 1;
}

const runDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (runDirectly) process.exitCode = main(process.argv.slice(2));
