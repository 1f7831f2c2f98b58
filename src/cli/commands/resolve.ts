/** `svc resolve <did>`: resolve one DID and show the evidence. */
import type { Command } from 'commander';
import { decodeIdentifier } from '../../core/did/syntax.js';
import type { ResolveOptions } from '../../core/methods/types.js';
import { parseDateTime } from '../../core/proofs/datetime.js';
import { resolve } from '../../core/resolve/resolve.js';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { exitForResolution } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { addOutputOptions, emitResult, type OutputOptions } from '../output/emit.js';

interface ResolveCommandOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
  cache: boolean;
  versionId?: string;
  versionTime?: string;
  versionNumber?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** A value quoted in a usage message: one line, and short (main makes it printable). */
function quoted(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

/**
 * The did:webvh version selectors, checked before anything runs: a malformed value is a usage
 * error (exit 2). Whether they apply to the method, or agree with each other, is the core's
 * answer (INVALID_OPTIONS, NOT_FOUND).
 */
export function versionOptions(options: Pick<ResolveCommandOptions, 'versionId' | 'versionTime' | 'versionNumber'>): ResolveOptions {
  const selected: ResolveOptions = {};
  if (options.versionId !== undefined) {
    if (options.versionId === '') throw new ConfigError('--version-id must not be empty');
    selected.versionId = options.versionId;
  }
  if (options.versionTime !== undefined) {
    if (parseDateTime(options.versionTime) === null) {
      throw new ConfigError(
        `--version-time must be an RFC 3339 date-time with an offset, e.g. 2025-01-01T00:00:00Z, not ${quoted(options.versionTime)}`,
      );
    }
    selected.versionTime = options.versionTime;
  }
  if (options.versionNumber !== undefined) {
    const text = options.versionNumber;
    const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ConfigError(`--version-number must be a positive whole number (1 is the first version), not ${quoted(text)}`);
    }
    selected.versionNumber = value;
  }
  return selected;
}

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
    )
    .option('--version-id <id>', 'did:webvh: serve the version with this versionId (e.g. 2-Qm…)')
    .option('--version-time <time>', 'did:webvh: serve the version in force at this RFC 3339 time (e.g. 2025-01-01T00:00:00Z)')
    .option('--version-number <n>', 'did:webvh: serve this version (1 is the first entry of the log)');
  addOutputOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Examples:
  $ svc resolve did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK
  $ svc resolve did:web:example.com
  $ svc resolve did:web:intranet.example%3A8443:users:alice --egress-allow 10.0.0.0/8
  $ svc resolve did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:domain.example --version-number 1
  $ svc resolve did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9 --json

The version options apply to did:webvh only; several may be given, and must then agree.`,
  );
  cmd.action(async (did: string, options: ResolveCommandOptions) => {
    const selected = versionOptions(options);
    const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
    await emitResult(io, options, runtime, async () => {
      const result = await resolve(decodeIdentifier(did), runtime, selected);
      return { result, exitCode: exitForResolution(result, options.strict) };
    }, setExit);
  });
}
