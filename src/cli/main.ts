/** CLI entry (bundled to dist/cli.js, launched by bin/svc.js). Returns the exit code. */
import { CommanderError } from 'commander';
import { ConfigError } from '../runtime/node.js';
import { printable } from './output/dossier.js';
import { EXIT } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';
import { buildProgram } from './program.js';

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let exitCode: number = EXIT.PASS;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  const onSigint = () => {
    io.stderr.write('\nsvc: interrupted\n');
    process.exit(EXIT.INTERRUPTED);
  };
  process.once('SIGINT', onSigint);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version requests end successfully; every other parse failure (unknown option,
      // missing argument, bare `svc`) is a usage error, never commander's default 1.
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.PASS : EXIT.USAGE;
    }
    if (err instanceof ConfigError) {
      io.stderr.write(`svc: ${printable(err.message)}\n`);
      return EXIT.USAGE;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`svc: internal error: ${message.split('\n')[0]}\n`);
    if (io.env['SVC_DEBUG'] && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT.NO_ANSWER;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
