/** `svc completion <shell>`: print a completion script generated from the command tree. */
import { Argument, type Command } from 'commander';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { completionScript, SHELLS, type Shell } from '../../cmdutil/completion.js';

export function registerCompletion(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `
Install:
  bash  $ svc completion bash > ~/.local/share/bash-completion/completions/svc
  zsh   $ svc completion zsh > "\${fpath[1]}/_svc"
  fish  $ svc completion fish > ~/.config/fish/completions/svc.fish`,
    )
    .action((shell: Shell) => {
      io.stdout.write(completionScript(program, shell));
      setExit(EXIT.PASS);
    });
}
