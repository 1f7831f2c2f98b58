/** CLI entry (bundled to dist/cli.js, launched by bin/svc.js). Returns the exit code. */
import { CommanderError } from 'commander';
import { configState } from './cmdutil/config-lookup.js';
import { ENVIRONMENT } from './cmdutil/environment.js';
import { CLI_ERROR_CODES, CliError, commanderDetail, errorText, helpHint, reportError, runningCommand, type ErrorReport } from './cmdutil/errors.js';
import { EXIT } from './cmdutil/exit-codes.js';
import { processIo, type CliIo } from './cmdutil/io.js';
import { manPage as renderManPage } from './man.js';
import { plainStyle } from './cmdutil/layout.js';
import { buildProgram, OUTPUT_HELP } from './program.js';

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  if (io.stdout === process.stdout) quietOnBrokenPipe();
  let exitCode: number = EXIT.PASS;
  const program = buildProgram(
    io,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  const onSigint = () => {
    io.stderr.write('\nsvc: interrupted\n');
    process.exit(EXIT.INTERRUPTED);
  };
  process.once('SIGINT', onSigint);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    return failed(io, err, argv.includes('--no-color'));
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** The man page, for `npm run man` (see man.ts). */
export function manPage(): string {
  return renderManPage(
    buildProgram(processIo(), () => {}),
    { output: OUTPUT_HELP },
  );
}

/** A usage error about an environment variable points at their list; any other, at the command's help. */
function usageHint(io: CliIo, detail: string): string {
  const setting = /^([A-Z][A-Z0-9_]*)\b/.exec(detail)?.[1];
  return setting !== undefined && ENVIRONMENT.some((v) => v.name === setting) ? "see 'svc help environment'" : helpHint(runningCommand(io));
}

/** Prints why the run failed, in the one error style (cmdutil/errors.ts), and returns its exit code. */
async function failed(io: CliIo, err: unknown, noColor: boolean): Promise<number> {
  const report = async (r: ErrorReport, code: number) => {
    await reportError(io, r, { noColor });
    return code;
  };
  if (err instanceof CommanderError) {
    // `svc --help`, `svc --version`: done. Bare `svc`: commander printed the help on stderr
    // (exit code 1 from commander), a usage error like any other (clig.dev).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.PASS;
    if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.PASS : EXIT.USAGE;
    const hint = helpHint(runningCommand(io));
    return report({ code: CLI_ERROR_CODES.USAGE_ERROR, detail: commanderDetail(err.message), hint }, EXIT.USAGE);
  }
  if (err instanceof CliError) {
    const hint = err.hint ?? helpHint(runningCommand(io));
    return report({ code: err.code, detail: err.message, hint }, err.exitCode);
  }
  // runtime/node.js is loaded by every command that reaches a ConfigError, so this costs nothing then.
  const { ConfigError } = await import('../runtime/node.js');
  if (err instanceof ConfigError) {
    // A value from the config file: its reader (loaded already) names the file and the key.
    const state = configState(io);
    const detail = state?.file != null ? (await import('./cmdutil/config-file.js')).withConfigSource(state, err.message) : err.message;
    return report({ code: CLI_ERROR_CODES.USAGE_ERROR, detail, hint: usageHint(io, err.message) }, EXIT.USAGE);
  }
  const message = err instanceof Error ? err.message : String(err);
  const code = await report(
    { code: 'INTERNAL_ERROR', detail: message.split('\n')[0]!, hint: 'this is a bug in svc; SVC_DEBUG=1 prints where it happened' },
    EXIT.NO_ANSWER,
  );
  if (io.env['SVC_DEBUG'] && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return code;
}

let pipesGuarded = false;

/**
 * A reader that goes away early (`svc … | head -1`) closes the pipe. That is not an error: the
 * rest of the output is dropped, nothing is printed about it, and svc ends with the exit code of
 * what it did (a failed check still exits 1), never an EPIPE stack trace. Any other failure to
 * write the output ends the run at once: one error line, exit 4.
 */
function quietOnBrokenPipe(): void {
  if (pipesGuarded) return;
  pipesGuarded = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return;
    const report = {
      code: CLI_ERROR_CODES.OUTPUT_FAILED,
      detail: `cannot write the output: ${err.code ?? err.message}`,
      hint: 'check where standard output goes',
    };
    process.stderr.write(errorText(report, plainStyle));
    process.exit(EXIT.NO_ANSWER);
  });
  // Nowhere is left to report a failure of stderr itself.
  process.stderr.on('error', () => {});
}
