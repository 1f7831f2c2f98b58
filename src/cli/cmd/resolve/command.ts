/** `svc resolve <did>`: resolve one DID and show the evidence. The work loads when it runs (action.ts). */
import type { Command } from 'commander';
import type { ResolveCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions } from '../../cmdutil/output-options.js';
import { completeFiles } from '../../cmdutil/completion.js';
import { addBundleOption } from '../../cmdutil/bundle.js';
import { addAllowNetworkOption, addDbOption, addEgressOption } from '../../cmdutil/store-options.js';

export function registerResolve(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('resolve')
    .description('Resolve a DID and report the evidence, dimension by dimension')
    .argument('<did>', 'the DID to resolve: raw (did:key:z6Mk…) or fully percent-encoded (did%3Akey%3A…)')
    .option('--strict', 'exit 1 instead of 3 when something needs attention')
    .option('--version-id <id>', 'did:webvh: serve the version with this versionId (e.g. 2-Qm…)')
    .option('--version-time <time>', 'did:webvh: serve the version in force at this RFC 3339 time (e.g. 2025-01-01T00:00:00Z)')
    .option('--version-number <n>', 'did:webvh: serve this version (1 is the first entry of the log)');
  cmd
    .option('--document <file>', 'did:web: verify this file as its did.json instead of fetching it (verify from files; nothing else is fetched)')
    .option('--log <file>', 'did:webvh: verify this file as its did.jsonl instead of fetching it (verify from files)')
    .option('--witness <file>', 'did:webvh: this file as its did-witness.json (with --log)')
    .option('--did-configuration <file>', "this file as the origin's /.well-known/did-configuration.json (with --document or --log)");
  completeFiles(cmd, '--document', '--log', '--witness', '--did-configuration');
  addAllowNetworkOption(cmd);
  addEgressOption(cmd);
  addDbOption(cmd);
  cmd.option('--no-store', 'do not record this resolution in the history (see svc history, svc diff); a resolution from files is never recorded');
  cmd.option('--html <file>', 'also write the dossier as one self-contained HTML page (opens offline; a problem is written as a problem page)');
  completeFiles(cmd, '--html');
  addBundleOption(cmd);
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
  $ svc resolve did:web:example.com --html dossier.html
  $ svc resolve did:web:example.com --bundle example.bundle.json && svc verify-bundle example.bundle.json
  $ svc resolve did:web:example.com --document did.json --did-configuration did-configuration.json
  $ svc resolve did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:domain.example --log did.jsonl --witness did-witness.json

A port in a did:web is written %3A (did:web:localhost%3A8443): did:web:localhost:8443 names the
path /8443 on port 443. The version options apply to did:webvh only; several may be given, and
must then agree (a selector a method has none of is INVALID_OPTIONS, exit 2).

Verify from files: --document (did:web) or --log (did:webvh, with --witness) is verified exactly as the
file svc would fetch; --did-configuration stands in for the origin's DID configuration. svc then fetches
nothing: what was not supplied is not established (origin binding without --did-configuration), and
transport security is never established from a file. --allow-network fetches what was not supplied.
Nothing from a file is recorded in the history.`,
  );
  cmd.action(async (did: string, options: ResolveCommandOptions) => (await import('./action.js')).resolveAction(io, setExit, did, options));
}
