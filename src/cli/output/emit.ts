/**
 * How every command turns a result or a problem into output and an exit code:
 *   --json   exactly one JSON document on stdout (the SPEC result, or the problem object)
 *   TTY      the ink dossier (ink is imported only here, only then)
 *   piped    the plain-text dossier
 * Diagnostics go to stderr; --quiet silences everything but --json output.
 */
import type { Command } from 'commander';
import { asProblemError, type ProblemError } from '../../core/problems.js';
import type { Runtime } from '../../core/runtime.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, CliStream } from '../io.js';
import { colorLevel, type ColorLevel } from './color.js';
import { dossierText, plainStyle, printable, problemText, type Style } from './dossier.js';

export interface OutputOptions {
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
}

export function addOutputOptions(cmd: Command): Command {
  return cmd
    .option('--json', 'print the result as JSON (exactly the SPEC result object, or a problem object)')
    .option('--no-color', 'never colour the output (NO_COLOR is honoured too)')
    .option('-q, --quiet', 'print nothing but --json output; rely on the exit code');
}

export async function styleFor(level: ColorLevel): Promise<Style> {
  if (level === 0) return plainStyle;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level });
  return { bold: c.bold, dim: c.dim, green: c.green, yellow: c.yellow, red: c.red, cyan: c.cyan };
}

/**
 * ink only for a real terminal with a known size: a pseudo-terminal reporting 0 rows (some
 * CI runners, editors' shells) would make ink clear the screen and redraw; plain text it is.
 */
function useInk(stream: CliStream, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && env['TERM'] !== 'dumb' && (stream.rows ?? 0) > 0 && (stream.columns ?? 0) > 0;
}

export interface CommandOutcome {
  result: EnrichedResolution;
  exitCode: number;
}

export async function emitResult(
  io: CliIo,
  options: OutputOptions,
  runtime: Runtime,
  run: () => Promise<CommandOutcome>,
  setExit: (code: number) => void,
): Promise<void> {
  await emitReport(
    io,
    options,
    runtime,
    async () => {
      const { result, exitCode } = await run();
      return { value: result, exitCode, text: (style) => dossierText(result, style), dossier: result };
    },
    setExit,
  );
}

export interface ReportOutcome<T> {
  /** The SPEC result, printed as is with --json. */
  value: T;
  exitCode: number;
  /** The plain-text (coloured) report. */
  text: (style: Style) => string;
  /** A resolution shown as the ink dossier instead of `text` on a real terminal. */
  dossier?: EnrichedResolution;
}

/**
 * How every command prints: the result as JSON, or its report (the ink dossier of a resolution
 * on a terminal, text otherwise); a problem as a problem, exit 4.
 */
export async function emitReport<T>(
  io: CliIo,
  options: OutputOptions,
  runtime: Runtime,
  run: () => Promise<ReportOutcome<T>>,
  setExit: (code: number) => void,
): Promise<void> {
  let outcome: ReportOutcome<T>;
  try {
    outcome = await run();
  } catch (err) {
    await emitProblem(io, options, runtime, asProblemError(err));
    setExit(EXIT.NO_ANSWER);
    return;
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(outcome.value, null, 2)}\n`);
  } else if (!options.quiet) {
    const level = colorLevel(io.stdout, io.env, options.color === false);
    if (outcome.dossier && useInk(io.stdout, io.env)) {
      const { renderDossier } = await import('../ui/dossier.js');
      await renderDossier(outcome.dossier, { colorLevel: level, stdout: io.stdout as NodeJS.WriteStream });
    } else {
      io.stdout.write(outcome.text(await styleFor(level)));
    }
  }
  setExit(outcome.exitCode);
}

/** A problem (no answer): the problem object with --json, else one styled block on stderr. */
export async function emitProblem(io: CliIo, options: OutputOptions, runtime: Runtime, problem: ProblemError): Promise<void> {
  const style = await styleFor(colorLevel(io.stderr, io.env, options.color === false));
  const body = problem.toProblem(runtime.config.problemsBase);
  if (options.json) io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  if (options.quiet) return;
  // A detail may quote hostile input (a method name with escape codes): never raw to a terminal.
  if (options.json) io.stderr.write(`svc: ${body.code}: ${printable(body.detail)}\n`);
  else io.stderr.write(problemText(body, style));
}
