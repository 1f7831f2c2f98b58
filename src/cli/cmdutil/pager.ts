/**
 * The pager of long terminal reports (paging.ts decides when; this loads only then).
 *
 * Which program: SVC_PAGER, else PAGER (as git and man read it), else `less -FRX` — quit at
 * once when the report fits after all (-F), pass the report's colours (-R), leave the report on
 * the screen after quitting (-X). The value is a program and its arguments separated by spaces
 * (no shell); `cat` means no pager. A `less` named without options gets LESS=FRX unless LESS is
 * set, as git does. A pager that cannot be started (not installed) costs nothing: the report is
 * written as it would have been without one.
 *
 * While the pager runs, svc waits for it and ignores Ctrl-C (the pager handles the key; svc
 * ending under it would leave the terminal to two readers); its exit code stays the command's.
 */
import { spawn } from 'node:child_process';

/** The pager's command line for this environment; null: no pager. An empty variable counts as unset. */
export function pagerCommand(env: NodeJS.ProcessEnv): { program: string; args: string[]; env: NodeJS.ProcessEnv } | null {
  const chosen = [env['SVC_PAGER'], env['PAGER']].find((v) => v !== undefined && v.trim() !== '');
  const words = chosen === undefined ? ['less', '-FRX'] : chosen.trim().split(/\s+/);
  const [program = 'less', ...args] = words;
  if (program === 'cat') return null;
  const isLess = program === 'less' || program.endsWith('/less');
  return { program, args, env: isLess && args.length === 0 && !env['LESS'] ? { ...env, LESS: 'FRX' } : env };
}

/** Terminal controls that are not colours (ink's cursor and synchronised-output codes): a pager would show them as text. */
const NOT_COLOUR = /\u001b\[(?![0-9;]*m)[0-9;?]*[A-Za-z]/g;

/**
 * Shows `text` in the pager on this process's terminal and waits until it is closed. False when
 * no pager applies or it could not be started: the caller writes the text itself.
 */
export async function pageText(text: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const command = pagerCommand(env);
  if (command === null) return false;
  const child = spawn(command.program, command.args, { stdio: ['pipe', 'inherit', 'inherit'], env: command.env });
  const ended = new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('close', () => resolve(true));
  });
  if (child.pid === undefined) return ended.then(() => false);
  const interrupts = process.rawListeners('SIGINT');
  process.removeAllListeners('SIGINT');
  const ignore = () => {};
  process.on('SIGINT', ignore);
  try {
    // Quitting the pager early closes its input: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(text.replace(NOT_COLOUR, ''));
    return await ended;
  } finally {
    process.removeListener('SIGINT', ignore);
    for (const listener of interrupts) process.on('SIGINT', listener as () => void);
  }
}
