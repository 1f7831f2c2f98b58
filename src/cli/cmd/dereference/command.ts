/**
 * `svc dereference <did-url>`: one DID URL → the resource it names (a verification method or
 * service by fragment, the service endpoint URLs with `?service=`, a did:webvh version's
 * document with `?versionId=` …), through the same core function as GET /v1/dereference.
 * Nothing is recorded in the history: that is what `svc resolve` does.
 */
import type { Command } from 'commander';
import type { DereferenceCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions } from '../../cmdutil/output-options.js';
import { addEgressOption } from '../../cmdutil/store-options.js';

export function registerDereference(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('dereference')
    .description('Dereference a DID URL: the verification method or service a fragment names, a service endpoint, a document version')
    .argument('<did-url>', 'the DID URL: raw (did:key:z6Mk…#z6Mk…) or fully percent-encoded (did%3Akey%3A…%23…)');
  addEgressOption(cmd);
  addOutputOptions(cmd);
  cmd.addHelpText(
    'after',
    `
What a DID URL selects:
  did#fragment                    the verification method or service with that id
  did?service=name                every endpoint URL of the service
  did?service=name&relativeRef=…  an endpoint URL joined with a relative reference
  did?versionId=… (or versionTime, versionNumber)  that did:webvh version's document
  did                             the DID document

--json prints the dereferencing result: {@context, dereferencingMetadata, contentStream,
contentMetadata}, as GET /v1/dereference answers. Quote DID URLs with ? or & for the shell.

Exit status: 0 found; 1 found, but the DID is deactivated; 4 no answer (nothing has that id, an
invalid DID URL, an unreachable host); 2 usage.

Examples:
  $ svc dereference 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK#z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
  $ svc dereference 'did:web:example.com?service=files&relativeRef=/reports/2025.pdf'
  $ svc dereference 'did:web:example.com#key-1' --json`,
  );
  cmd.action(async (input: string, options: DereferenceCommandOptions) => (await import('./action.js')).dereferenceAction(io, setExit, input, options));
}
