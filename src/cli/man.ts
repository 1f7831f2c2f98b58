/**
 * The manual page svc(1), generated from the command tree (the same help text `--help` shows),
 * the environment table and the exit codes, so it cannot drift from them. `npm run man` writes
 * man/svc.1; a test checks the committed page is the generated one and renders without warnings.
 */
import type { Argument, Command, Help, Option } from 'commander';
import { ENVIRONMENT, ENVIRONMENT_RULE, type EnvironmentScope } from './cmdutil/environment.js';
import { exitCodeDescriptions } from './cmdutil/exit-codes.js';
import { VERSION } from '../version.js';

/** Text as roff reads it: backslashes and minus signs escaped, non-ASCII as \[uXXXX], no control lines. */
export function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
    .replace(/^([.'])/gm, '\\&$1');
}

/** Filled text: a blank line becomes a paragraph break. */
function paragraphs(text: string): string[] {
  return text
    .trim()
    .split(/\n\s*\n/)
    .flatMap((p, i) => [...(i > 0 ? ['.PP'] : []), roff(p.replace(/\s*\n\s*/g, ' '))]);
}

/** Preformatted text (examples, aligned lists), kept line for line. */
function verbatim(text: string): string[] {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  return ['.PP', '.nf', ...lines.map((l) => (l.trim() === '' ? '.sp' : roff(l))), '.fi'];
}

/** `--egress-allow <cidr>`: the flags in bold, the value in italics. */
function term(text: string): string {
  if (/^[<[]/.test(text)) return `\\fI${roff(text)}\\fR`;
  const space = text.search(/ [<[]/);
  if (space < 0) return `\\fB${roff(text)}\\fR`;
  return `\\fB${roff(text.slice(0, space))}\\fR \\fI${roff(text.slice(space + 1))}\\fR`;
}

/**
 * The text a command adds after its help (examples, exit status notes). commander prints it from
 * its 'afterHelp' event; the same event is asked for it here.
 */
function afterHelp(cmd: Command): string {
  let text = '';
  // A Command is an EventEmitter at run time; its typings leave that out.
  (cmd as unknown as NodeJS.EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => ((text += s), true) });
  return text;
}

/** `<did>`, `[topic...]`: as the usage line writes an argument. */
function argumentUsage(a: Argument): string {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${name}>` : `[${name}]`;
}

function commandSection(cmd: Command, help: Help): string[] {
  const out = [`.SS "${roff(help.commandUsage(cmd))}"`, ...paragraphs(help.commandDescription(cmd))];
  const items: Array<[string, string]> = [
    ...cmd.registeredArguments.map((a: Argument): [string, string] => [argumentUsage(a), help.argumentDescription(a)]),
    ...help.visibleOptions(cmd).map((o: Option): [string, string] => [help.optionTerm(o), help.optionDescription(o)]),
  ];
  for (const [name, description] of items) out.push('.TP', term(name), roff(description));
  const after = afterHelp(cmd);
  if (after.trim() !== '') out.push(...verbatim(after));
  return out;
}

const SCOPES: ReadonlyArray<[EnvironmentScope, string]> = [
  ['every command', 'Every command'],
  ['output', 'Output'],
  ['svc serve', 'svc serve'],
  ['svc monitor', 'svc serve, svc monitor and svc webhook (operator monitoring)'],
];

function environmentSection(): string[] {
  const out = ['.SH ENVIRONMENT', roff(ENVIRONMENT_RULE)];
  for (const [scope, title] of SCOPES) {
    out.push(`.SS "${roff(title)}"`);
    for (const v of ENVIRONMENT.filter((e) => e.scope === scope)) out.push('.TP', `.B ${v.name}`, roff(`${v.description}. Default: ${v.default}.`));
  }
  return out;
}

/** EXIT STATUS from the same text as `svc --help` (exitCodeDescriptions reads it). */
function exitStatusSection(): string[] {
  const { codes, notes } = exitCodeDescriptions();
  return [
    '.SH "EXIT STATUS"',
    'The same for every command, so scripts and CI gates can rely on them:',
    ...codes.flatMap(({ code, text }) => ['.TP', `.B ${code}`, roff(text)]),
    ...(notes.length > 0 ? ['.PP', ...paragraphs(notes.join('\n'))] : []),
  ];
}

/** The page, from the program `buildProgram` returns. */
export function manPage(program: Command, description: { output: string }): string {
  const help = program.createHelp();
  const commands = help.visibleCommands(program);
  const lines = [
    `.\\" svc(1), generated from the command tree by \`npm run man\`: edit the help text, not this file.`,
    `.TH SVC 1 "" "svc ${roff(VERSION)}" "User Commands"`,
    '.SH NAME',
    `svc \\- ${roff('identity evidence for decentralized identifiers: resolve, verify, inspect, serve')}`,
    '.SH SYNOPSIS',
    '.B svc',
    '.I command',
    '.RI [ options ]',
    '.RI [ arguments ]',
    '.br',
    '.B svc help',
    '.RI [ command | environment ]',
    '.br',
    `.B svc \\-\\-version`,
    '.SH DESCRIPTION',
    ...paragraphs(program.description()),
    '.PP',
    ...paragraphs(description.output),
    '.PP',
    roff(`Every command prints its help with --help; svc help environment lists the environment variables svc reads.`),
    '.SH COMMANDS',
    ...commands.flatMap((c) => commandSection(c, help)),
    '.SH "GLOBAL OPTIONS"',
    ...help.visibleOptions(program).flatMap((o) => ['.TP', term(help.optionTerm(o)), roff(help.optionDescription(o))]),
    ...environmentSection(),
    ...exitStatusSection(),
    '.SH FILES',
    '.TP',
    '.I $XDG_STATE_HOME/svc/svc.db',
    roff(
      'The database of observations, MCP inventories and registered delegation chains, shared by the commands and the daemon (--db chooses another). Without XDG_STATE_HOME: $HOME/.local/state/svc/svc.db.',
    ),
    '.TP',
    '.I completions/svc.bash, completions/_svc, completions/svc.fish',
    roff('Shell completion scripts in the package; svc completion <shell> prints the same.'),
    '.SH "SEE ALSO"',
    roff(
      'svc --help, svc <command> --help, svc help environment; the guides and the reference under docs/ in the svc repository (docs/README.md is their index), and its README.',
    ),
  ];
  return `${lines.join('\n')}\n`;
}
