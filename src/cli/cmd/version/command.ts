/**
 * `svc version` (and `svc --version`): svc's version first, so scripts can take the first word
 * (`svc --version | cut -d' ' -f1`), then the resolver its results name and the Node.js running it.
 */
import type { Command } from 'commander';
import { RESOLVER, VERSION } from '../../../version.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';

export interface VersionInfo {
  version: string;
  /** As every result names it (`resolver`). */
  resolver: { name: string; version: string };
  node: string;
}

export function versionInfo(): VersionInfo {
  return { version: VERSION, resolver: { name: RESOLVER.name, version: RESOLVER.version }, node: process.version };
}

/** `0.1.0 (resolver svc/0.1.0, node v20.20.2)`. */
export function versionLine(info: VersionInfo = versionInfo()): string {
  return `${info.version} (resolver ${info.resolver.name}/${info.resolver.version}, node ${info.node})`;
}

export function registerVersion(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('version')
    .description("Print svc's version, the resolver its results name, and the Node.js version (as svc --version)")
    .option('--json', 'print {version, resolver: {name, version}, node} as JSON')
    .addHelpText(
      'after',
      `
Output: one line, <svc version> (resolver <name>/<version>, node <Node.js version>), e.g.
  1.2.0 (resolver svc/1.2.0, node v20.19.0)

Example:
  $ svc --version | cut -d' ' -f1`,
    )
    .action((options: { json?: boolean }) => {
      io.stdout.write(options.json ? `${JSON.stringify(versionInfo(), null, 2)}\n` : `${versionLine()}\n`);
      setExit(EXIT.PASS);
    });
}
