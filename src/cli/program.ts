/** The command tree. Completions and help are generated from this one definition. */
import { Command, Help, Option } from 'commander';
import { registerCompletion } from './cmd/completion/command.js';
import { registerDelegation } from './cmd/delegation/command.js';
import { registerDereference } from './cmd/dereference/command.js';
import { registerGraph } from './cmd/graph/command.js';
import { registerHelp } from './cmd/help/command.js';
import { registerHistory } from './cmd/history/command.js';
import { registerInspect } from './cmd/inspect/command.js';
import { registerApprove } from './cmd/approve/command.js';
import { registerKeygen } from './cmd/keygen/command.js';
import { registerBundle } from './cmd/bundle/command.js';
import { registerClaims } from './cmd/claims/command.js';
import { registerConfig } from './cmd/config/command.js';
import { registerMonitor } from './cmd/monitor/command.js';
import { registerOwner } from './cmd/owner/command.js';
import { registerResolve } from './cmd/resolve/command.js';
import { registerServe } from './cmd/serve/command.js';
import { registerSign } from './cmd/sign/command.js';
import { registerVerify } from './cmd/verify/command.js';
import { registerVersion, versionLine } from './cmd/version/command.js';
import { registerWebhook } from './cmd/webhook/command.js';
import { completeFiles } from './cmdutil/completion.js';
import { applyConfigFile } from './cmdutil/config-lookup.js';
import { setRunningCommand } from './cmdutil/errors.js';
import { EXIT_CODES_HELP } from './cmdutil/exit-codes.js';
import type { CliIo } from './cmdutil/io.js';

/** How svc prints, in the overview's footer and the man page. */
export const OUTPUT_HELP = `Output: a coloured dossier on a terminal, plain text when piped, --json for scripts.
Colour follows --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb. A report taller than the terminal
goes through a pager (SVC_PAGER, else PAGER, else less -FRX); --no-pager prints it as it is.`;

/**
 * A repeatable option starts from [] (see `collect`): no default worth showing, so help leaves
 * out commander's "(default: [])". The option itself keeps its default.
 */
function optionDescription(option: Option): string {
  if (!(Array.isArray(option.defaultValue) && option.defaultValue.length === 0)) return new Help().optionDescription(option);
  return new Help().optionDescription(Object.assign(Object.create(Object.getPrototypeOf(option) as object) as Option, option, { defaultValue: undefined }));
}

type Registration = (program: Command, io: CliIo, setExit: (code: number) => void) => void;

/**
 * Every registration, in the overview's order, with the top-level commands it adds. `whole`:
 * the command reads the rest of the tree (help, completion), so it is never built alone.
 * test/integration/cli-help.e2e.test.ts holds the names to what each registration really adds.
 */
export const REGISTRATIONS: ReadonlyArray<{ names: readonly string[]; register: Registration; whole?: true }> = [
  { names: ['resolve'], register: registerResolve },
  { names: ['dereference'], register: registerDereference },
  { names: ['graph'], register: registerGraph },
  { names: ['verify-credential', 'verify-presentation', 'verify-jws', 'evaluate-policy'], register: registerVerify },
  { names: ['delegate', 'verify-delegation', 'authorize', 'verify-tool'], register: registerDelegation },
  { names: ['keygen', 'key'], register: registerKeygen },
  { names: ['sign-credential', 'sign-presentation'], register: registerSign },
  { names: ['inspect-mcp', 'inspect-a2a'], register: registerInspect },
  { names: ['verify-bundle'], register: registerBundle },
  { names: ['mcp', 'a2a'], register: registerApprove },
  { names: ['history', 'diff', 'backup'], register: registerHistory },
  { names: ['serve'], register: registerServe },
  { names: ['monitor'], register: registerMonitor },
  { names: ['owner'], register: registerOwner },
  { names: ['claim', 'claims', 'directory'], register: registerClaims },
  { names: ['webhook'], register: registerWebhook },
  { names: ['config'], register: registerConfig },
  { names: ['completion'], register: registerCompletion, whole: true },
  { names: ['version'], register: registerVersion },
  { names: ['help'], register: registerHelp, whole: true },
];

/**
 * The registration a command line needs alone: the one that adds its first word, when that word
 * names a command that does not read the tree. undefined (build the whole tree): no command,
 * an option first, a word that names no command (commander's suggestion needs every name),
 * help or completion.
 */
function soleRegistration(argv: readonly string[] | undefined): Registration | undefined {
  const first = argv?.[0];
  if (first === undefined || first.startsWith('-')) return undefined;
  const entry = REGISTRATIONS.find((r) => r.names.includes(first));
  return entry === undefined || entry.whole ? undefined : entry.register;
}

/**
 * The command tree. With `argv`, only what that command line can reach: a run of `svc resolve`
 * registers resolve alone (building every command costs some 5 ms of each start); the command
 * and its help are the same either way.
 */
export function buildProgram(io: CliIo, setExit: (code: number) => void, argv?: readonly string[]): Command {
  const program = new Command();
  program
    .name('svc')
    .description(
      'svc reports what can actually be shown about a decentralized identifier (did:key, did:jwk, did:web, did:webvh):\n' +
        'evidence dimension by dimension, never a trust score.',
    )
    .version(versionLine(), '-V, --version', "print svc's version (the line svc version prints)")
    .helpOption('-h, --help', 'show help')
    .configureHelp({ optionDescription })
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `
${OUTPUT_HELP}

${EXIT_CODES_HELP}

Environment variables: svc help environment. Shell completion: svc completion --help.
Manual: man svc once installed with npm install -g (npm links it); the page is man/svc.1 in the package.`,
    )
    // Options before the command are svc's own (--config), after it the command's: so
    // `svc --config team.json inspect-mcp --config .vscode/mcp.json` means both.
    .enablePositionalOptions()
    .addOption(configOption())
    .hook('preAction', async (_program, action) => {
      // The command an error's hint names: the one about to run.
      setRunningCommand(io, action);
      if (!READS_NO_SETTING.has(action.name())) await applyConfigFile(io, configOptionValue(program, action));
    });
  completeFiles(program, '--config');
  const sole = soleRegistration(argv);
  for (const { register } of REGISTRATIONS) if (sole === undefined || register === sole) register(program, io, setExit);
  addConfigOption(program);
  configureErrors(program, io);
  return program;
}

/** Commands that read no setting, so that a broken config file never stops them. */
const READS_NO_SETTING = new Set(['help', 'completion', 'version']);

const CONFIG_OPTIONS = new WeakSet<Option>();

/** `--config <file>`, svc's own option: before the command, and after it on every command whose own options do not use the name. */
function configOption(): Option {
  const option = new Option(
    '--config <file>',
    'read settings from this svc.config.json (default: $SVC_CONFIG, else ~/.config/svc/config.json, else ./svc.config.json)',
  );
  CONFIG_OPTIONS.add(option);
  return option;
}

/** Every command that runs (a leaf of the tree) takes --config after its name too, unless it means something else there. */
function addConfigOption(cmd: Command): void {
  if (cmd.commands.length === 0) {
    if (READS_NO_SETTING.has(cmd.name()) || cmd.options.some((o) => o.long === '--config')) return;
    cmd.addOption(configOption());
    completeFiles(cmd, '--config');
    return;
  }
  for (const sub of cmd.commands) addConfigOption(sub);
}

/** The --config given after the command, else before it. */
function configOptionValue(program: Command, action: Command): string | undefined {
  const own = action.options.find((o) => o.long === '--config');
  const after = own !== undefined && CONFIG_OPTIONS.has(own) ? (action.getOptionValue('config') as string | undefined) : undefined;
  return after ?? (program.getOptionValue('config') as string | undefined);
}

/**
 * Every command (at any depth) throws instead of exiting, and prints no error of its own: main
 * prints commander's errors (unknown option, missing argument …) in the one error style, and
 * needs only to learn here whose command line it was, to name its --help.
 */
function configureErrors(cmd: Command, io: CliIo): void {
  cmd.exitOverride().configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    outputError: () => setRunningCommand(io, cmd),
  });
  for (const sub of cmd.commands) configureErrors(sub, io);
}
