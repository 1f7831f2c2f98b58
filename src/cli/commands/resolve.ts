/** `svc resolve <did>`: resolve one DID and show the evidence. */
import type { Command } from 'commander';
import { decodeIdentifier } from '../../core/did/syntax.js';
import { resolve } from '../../core/resolve/resolve.js';
import { createRuntime } from '../../runtime/node.js';
import { exitForResolution } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { addOutputOptions, emitResult, type OutputOptions } from '../output/emit.js';

interface ResolveCommandOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
  cache: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerResolve(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('resolve')
    .description('Resolve a DID and report the evidence, dimension by dimension')
    .argument('<did>', 'the DID to resolve: raw (did:key:z6Mk…) or fully percent-encoded (did%3Akey%3A…)')
    .option('--strict', 'exit 1 instead of 3 when something needs attention')
    .option(
      '--egress-allow <cidr>',
      'also fetch from these non-public addresses (e.g. 10.0.0.0/8 for intranet DIDs); repeatable, adds to SVC_EGRESS_ALLOW',
      collect,
      [],
    );
  addOutputOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Examples:
  $ svc resolve did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK
  $ svc resolve did:web:example.com
  $ svc resolve did:web:intranet.example%3A8443:users:alice --egress-allow 10.0.0.0/8
  $ svc resolve did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9 --json`,
  );
  cmd.action(async (did: string, options: ResolveCommandOptions) => {
    const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
    await emitResult(io, options, runtime, async () => {
      const result = await resolve(decodeIdentifier(did), runtime);
      return { result, exitCode: exitForResolution(result, options.strict) };
    }, setExit);
  });
}
