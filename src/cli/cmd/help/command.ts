/**
 * `svc help [command]` and `svc help environment`: help on stdout, exit 0. It replaces
 * commander's own help command, which knows no topics and exits like an error.
 */
import { Argument, type Command } from 'commander';
import { completeWords } from '../../cmdutil/completion.js';
import { environmentHelp } from '../../cmdutil/environment.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import { helpHint, usageError } from '../../cmdutil/errors.js';
import type { CliIo } from '../../cmdutil/io.js';
import { outputWidth } from '../../cmdutil/layout.js';

/** Help that belongs to no one command. */
export const HELP_TOPICS: Readonly<Record<string, (width: number) => string>> = {
  environment: environmentHelp,
};

export function registerHelp(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program.helpCommand(false);
  const topics = Object.keys(HELP_TOPICS);
  program
    .command('help')
    .description(`Show the help of svc or of a command, or a topic: ${topics.join(', ')}`)
    .addArgument(
      completeWords(new Argument('[topic...]', `a command (e.g. resolve), or ${topics.join(', ')}`), () => [
        ...program.commands.map((c) => c.name()).filter((name) => name !== 'help'),
        ...topics,
      ]),
    )
    .action((words: string[]) => {
      const topic = words.length === 1 ? HELP_TOPICS[words[0]!] : undefined;
      if (topic) {
        io.stdout.write(topic(outputWidth(io.stdout, io.env)));
        setExit(EXIT.PASS);
        return;
      }
      let target = program;
      for (const word of words) {
        const next = target.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next) {
          throw usageError(`no command or help topic '${words.join(' ')}' (the topics: ${topics.join(', ')})`, helpHint('svc'));
        }
        target = next;
      }
      target.outputHelp();
      setExit(EXIT.PASS);
    });
}
