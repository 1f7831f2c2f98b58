/**
 * Files a command writes beside its report: --html <file> (svc resolve, svc inspect-mcp: one
 * self-contained page) and --bundle <file> (an evidence bundle). Each is written whole or not at
 * all — a temporary file beside the target, renamed into place. A file that cannot be written is
 * OUTPUT_FAILED (exit 4) with nothing left behind.
 */
import nodePath from 'node:path';
import { ConfigError } from '../../runtime/node.js';
import { CLI_ERROR_CODES, CliError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { printable } from '../../present/text.js';

/** Writes `text` to `file`; `what` names the page in the messages ("dossier", "inspection page"). */
export function writeHtmlFile(io: CliIo, file: string, quiet: boolean, what: string, text: string): Promise<void> {
  return writeOutputFile(io, file, quiet, `HTML ${what}`, what, text);
}

/**
 * Writes `data` to `file` whole or not at all; `what` names it in an error ("HTML dossier",
 * "evidence bundle"), `done` in the line saying where it is.
 */
export async function writeOutputFile(io: CliIo, file: string, quiet: boolean, what: string, done: string, data: string | Uint8Array): Promise<void> {
  const { writeFileSync, renameSync, rmSync } = await import('node:fs');
  const target = nodePath.resolve(file);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { flag: 'wx' });
    renameSync(temporary, target);
  } catch (err) {
    rmSync(temporary, { force: true });
    const reason = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new CliError(
      CLI_ERROR_CODES.OUTPUT_FAILED,
      `cannot write the ${what} to ${printable(file)} (${reason})`,
      EXIT.NO_ANSWER,
      'check that the folder exists and can be written',
    );
  }
  if (!quiet) io.stderr.write(`svc: the ${done} is in ${printable(file)}\n`);
}

/**
 * --html names a file to write: its directory must exist and the name must not be a directory —
 * checked before anything runs, as a usage error (exit 2); a write that fails later is OUTPUT_FAILED.
 */
export function htmlDestination(file: string): Promise<void> {
  return outputDestination(file, '--html');
}

/** `flag` names a file to write: checked as --html's is, before anything runs (exit 2). */
export async function outputDestination(file: string, flag: string): Promise<void> {
  const { statSync } = await import('node:fs');
  const target = nodePath.resolve(file);
  const kind = (at: string) => {
    try {
      return statSync(at).isDirectory() ? 'directory' : 'file';
    } catch {
      return null;
    }
  };
  if (file === '' || kind(target) === 'directory')
    throw new ConfigError(`${flag} must name a file to write, not ${file === '' ? 'nothing' : `the directory ${printable(file)}`}`);
  if (kind(nodePath.dirname(target)) !== 'directory') throw new ConfigError(`${flag}: cannot write ${printable(file)}: its directory does not exist`);
}
