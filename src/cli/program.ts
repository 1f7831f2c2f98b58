/** The command tree. Completions and help are generated from this one definition. */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerCompletion } from './commands/completion.js';
import { registerDelegation } from './commands/delegation.js';
import { registerHistory } from './commands/history.js';
import { registerInspect } from './commands/inspect.js';
import { registerResolve } from './commands/resolve.js';
import { registerServe } from './commands/serve.js';
import { registerVerify } from './commands/verify.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import type { CliIo } from './io.js';

export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command();
  program
    .name('svc')
    .description(
      'svc reports what can actually be shown about a decentralized identifier (did:key, did:jwk, did:web, did:webvh):\n' +
        'evidence dimension by dimension, never a trust score.',
    )
    .version(VERSION, '-V, --version', 'print the svc version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .addHelpText(
      'after',
      `
Output: a coloured dossier on a terminal, plain text when piped, --json for scripts.
Colour follows --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb.

${EXIT_CODES_HELP}`,
    );
  registerResolve(program, io, setExit);
  registerVerify(program, io, setExit);
  registerDelegation(program, io, setExit);
  registerInspect(program, io, setExit);
  registerHistory(program, io, setExit);
  registerServe(program, io, setExit);
  registerCompletion(program, io, setExit);
  for (const cmd of program.commands) cmd.exitOverride().configureOutput(program.configureOutput());
  return program;
}
