/**
 * Shell completion scripts generated from the commander tree, so they cannot drift from the
 * real commands. `svc completion <shell>` prints one; completions/ holds the generated files.
 *
 * What a value completes to is marked on the tree itself: `completeFiles` tags the options and
 * arguments that take a file name (the scripts offer files there), `completeWords` those whose
 * values are known words; commander's own `.choices()` count as words too.
 */
import type { Argument, Command, Option } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const FILE_VALUES = new WeakSet<Option | Argument>();
const WORD_VALUES = new WeakMap<Option | Argument, () => readonly string[]>();

/**
 * Marks the options (by flag: '--db') and arguments (by name: 'file') of `cmd` whose value is a
 * file name. A name the command does not have throws, so a renamed option cannot lose its mark
 * silently.
 */
export function completeFiles(cmd: Command, ...names: string[]): Command {
  for (const name of names) {
    const target = name.startsWith('-') ? cmd.options.find((o) => o.long === name || o.short === name) : cmd.registeredArguments.find((a) => a.name() === name);
    if (!target) throw new Error(`completeFiles: '${cmd.name()}' has no option or argument ${name}`);
    FILE_VALUES.add(target);
  }
  return cmd;
}

/** Marks an option or argument whose values are these words (read when a script is generated). */
export function completeWords<T extends Option | Argument>(target: T, words: () => readonly string[]): T {
  WORD_VALUES.set(target, words);
  return target;
}

/** What a value completes to: files, known words, or anything (nothing is offered). */
export type ValueKind = { kind: 'file' } | { kind: 'words'; words: readonly string[] } | { kind: 'free' };

function valueKind(target: Option | Argument): ValueKind {
  if (FILE_VALUES.has(target)) return { kind: 'file' };
  const words = WORD_VALUES.get(target)?.() ?? target.argChoices;
  return words ? { kind: 'words', words } : { kind: 'free' };
}

interface OptionInfo {
  flags: string[];
  description: string;
  /** null: a switch, it takes no value. */
  value: ValueKind | null;
}

interface ArgumentInfo {
  name: string;
  variadic: boolean;
  value: ValueKind;
}

interface CommandInfo {
  name: string;
  description: string;
  options: OptionInfo[];
  args: ArgumentInfo[];
}

function optionInfo(o: Option): OptionInfo {
  const flags = [o.short, o.long].filter((f): f is string => typeof f === 'string');
  return { flags, description: o.description, value: o.required || o.optional ? valueKind(o) : null };
}

/** The visible commands with their visible options (help included) and arguments, in help order. */
export function describe(program: Command): { global: OptionInfo[]; commands: CommandInfo[] } {
  const help = program.createHelp();
  const global = help.visibleOptions(program).map(optionInfo);
  const commands = help.visibleCommands(program).map((c) => ({
    name: c.name(),
    description: c.description(),
    options: help.visibleOptions(c).map(optionInfo),
    args: c.registeredArguments.map((a) => ({ name: a.name(), variadic: a.variadic, value: valueKind(a) })),
  }));
  return { global, commands };
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function bash(program: Command): string {
  const { global, commands } = describe(program);
  const compgen = (words: readonly string[]) => `COMPREPLY=( $(compgen -W ${quote(words.join(' '))} -- "$cur") )`;
  const flagCases = commands.map((c) => {
    const flags = c.options.flatMap((o) => o.flags).join(' ');
    const valued = c.options
      .filter((o) => o.value !== null)
      .flatMap((o) => o.flags)
      .join(' ');
    return `    ${c.name}) flags=${quote(flags)}; valued=${quote(valued)} ;;`;
  });
  // Option values: files, or words; any other value is free text.
  const fileOptions: string[] = [];
  const wordOptions: string[] = [];
  for (const c of commands) {
    for (const o of c.options) {
      const patterns = o.flags.map((f) => `${c.name}:${f}`).join('|');
      if (o.value?.kind === 'file') fileOptions.push(patterns);
      else if (o.value?.kind === 'words') wordOptions.push(`    ${patterns}) ${compgen(o.value.words)}; return ;;`);
    }
  }
  // Positional arguments by index (a variadic one takes every index from its own on).
  const fileArgs: string[] = [];
  const wordArgs: string[] = [];
  for (const c of commands) {
    c.args.forEach((a, i) => {
      const pattern = a.variadic ? `${c.name}:*` : `${c.name}:${i}`;
      if (a.value.kind === 'file') fileArgs.push(pattern);
      else if (a.value.kind === 'words') wordArgs.push(`    ${pattern}) ${compgen(a.value.words)} ;;`);
    });
  }
  const valueCase = [...(fileOptions.length > 0 ? [`    ${fileOptions.join('|')}) _svc_files "$cur"; return ;;`] : []), ...wordOptions].join('\n');
  const argCase = [...(fileArgs.length > 0 ? [`    ${fileArgs.join('|')}) _svc_files "$cur" ;;`] : []), ...wordArgs].join('\n');
  return `# bash completion for svc (generated by \`svc completion bash\`)

# File names (directories too, each completed with a slash), one per line: names with spaces survive.
_svc_files() {
  local IFS=$'\\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY=( $(compgen -f -- "$1") )
}

_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="\${COMP_WORDS[1]}"
  local flags='' valued='' i w n=0
  COMPREPLY=()
  # --option=value: bash splits the word at '='.
  if [ "$cur" = '=' ]; then cur=''; fi
  if [ "$prev" = '=' ] && [ "$COMP_CWORD" -ge 3 ]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  if [ "$COMP_CWORD" -eq 1 ]; then
    ${compgen([...commands.map((c) => c.name), ...global.flatMap((o) => o.flags)])}
    return
  fi
  case "$cmd" in
${flagCases.join('\n')}
  esac
  # The value of an option.
  case "$cmd:$prev" in
${valueCase}
  esac
  case " $valued " in *" $prev "*) return ;; esac
  case "$cur" in -*) COMPREPLY=( $(compgen -W "$flags" -- "$cur") ); return ;; esac
  # Which argument this word is: the words after the command, less options and their values.
  for (( i = 2; i < COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      -?*)
        case " $valued " in
          *" $w "*) if [ "\${COMP_WORDS[i+1]}" = '=' ]; then i=$((i + 2)); else i=$((i + 1)); fi ;;
        esac ;;
      *) n=$((n + 1)) ;;
    esac
  done
  case "$cmd:$n" in
${argCase}
    *) COMPREPLY=( $(compgen -W "$flags" -- "$cur") ) ;;
  esac
}
complete -F _svc svc
`;
}

function zsh(program: Command): string {
  const { commands } = describe(program);
  const esc = (s: string) => s.replace(/'/g, `'\\''`).replace(/:/g, '\\:').replace(/\[/g, '\\[').replace(/\]/g, '\\]');
  const action = (v: ValueKind) => (v.kind === 'file' ? '_files' : v.kind === 'words' ? `(${v.words.join(' ')})` : ' ');
  const list = commands.map((c) => `    '${c.name}:${esc(c.description)}'`).join('\n');
  const cases = commands
    .map((c) => {
      const specs = c.options.map((o) => {
        const names = o.flags.length > 1 ? `{${o.flags.join(',')}}` : o.flags[0]!;
        const excl = o.flags.length > 1 ? `'(${o.flags.join(' ')})'` : '';
        const value = o.value ? `:value:${action(o.value)}` : '';
        return `        ${excl}${names}'[${esc(o.description)}]${value}'`;
      });
      const args = c.args.map((a, i) => `        '${a.variadic ? '*' : i + 1}:${esc(a.name)}:${action(a.value)}'`);
      return `      ${c.name})\n        _arguments \\\n${[...specs, ...args].join(' \\\n')}\n        ;;`;
    })
    .join('\n');
  return `#compdef svc
# zsh completion for svc (generated by \`svc completion zsh\`)
_svc() {
  local -a commands
  commands=(
${list}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local cmd="$words[2]"
  # From here on the command is the first word, so its arguments count from 1.
  shift words
  (( CURRENT-- ))
  case "$cmd" in
${cases}
  esac
}
_svc "$@"
`;
}

function fish(program: Command): string {
  const { global, commands } = describe(program);
  const lines = [
    '# fish completion for svc (generated by `svc completion fish`)',
    '# Files are offered only where a command takes a file (-F).',
    'complete -c svc -f',
    ...commands.map((c) => `complete -c svc -n '__fish_use_subcommand' -a ${c.name} -d ${quote(c.description)}`),
  ];
  const optionLine = (condition: string, o: OptionInfo) => {
    const long = o.flags.find((f) => f.startsWith('--'));
    const short = o.flags.find((f) => /^-[^-]$/.test(f));
    const parts = [`complete -c svc -n ${quote(condition)}`];
    if (long) parts.push(`-l ${long.slice(2)}`);
    if (short) parts.push(`-s ${short.slice(1)}`);
    if (o.value?.kind === 'words') parts.push(`-x -a ${quote(o.value.words.join(' '))}`);
    else if (o.value?.kind === 'file') parts.push('-r -F');
    else if (o.value) parts.push('-x');
    parts.push(`-d ${quote(o.description)}`);
    return parts.join(' ');
  };
  for (const o of global) lines.push(optionLine('__fish_use_subcommand', o));
  for (const c of commands) {
    const condition = `__fish_seen_subcommand_from ${c.name}`;
    for (const o of c.options) lines.push(optionLine(condition, o));
    for (const a of c.args) {
      if (a.value.kind === 'file') lines.push(`complete -c svc -n ${quote(condition)} -F`);
      else if (a.value.kind === 'words') lines.push(`complete -c svc -n ${quote(condition)} -a ${quote(a.value.words.join(' '))}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: Shell): string {
  return shell === 'bash' ? bash(program) : shell === 'zsh' ? zsh(program) : fish(program);
}
