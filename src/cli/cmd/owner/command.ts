/**
 * `svc owner`: the commercial control routes of a running daemon (`svc serve` with
 * SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on and SVC_COMMERCIAL_ORIGIN), for the operator, through the
 * TypeScript client (loaded only when one runs: action.ts).
 *
 *   tenants                                  GET /v1/commercial/tenants
 *   tenant-create --name N --owner DID       POST /v1/commercial/tenants
 *   project-create --tenant T --name N       POST /v1/commercial/tenants/{tenant}/projects
 *   attach --tenant T --subject DID          POST /v1/commercial/tenants/{tenant}/owners
 *   detach --tenant T --subject DID          DELETE /v1/commercial/tenants/{tenant}/owners/{subject}
 *   usage --project P                        GET /v1/commercial/projects/{project}/usage
 *
 * The token and the daemon are read as `svc monitor` reads them (SVC_ADMIN_TOKEN only; --daemon,
 * SVC_DAEMON_URL). Exit: 0 done; 2 usage (no token, a missing option, a bad URL); 4 the daemon
 * could not be reached or answered a problem (`svc: CODE: detail`, the problem on stdout with --json).
 * The owners' own subcommands (login, logout, projects, keys: session-command.ts) join
 * them under the same `owner`.
 */
import type { Command } from 'commander';
import { NO_PAGER_HELP } from '../../cmdutil/output-options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { DEFAULT_DAEMON_URL, type DaemonOptions } from '../../cmdutil/daemon-options.js';
import { addOwnerSessionCommands, SESSION_NOTE } from './session-command.js';

const EXIT_STATUS = `Exit status: 0 done; 2 a usage error (no SVC_ADMIN_TOKEN, a missing option, a bad --daemon, or the
daemon's INVALID_OPTIONS); 4 the daemon could not be reached or answered another problem (UNAUTHORIZED,
NOT_FOUND, INVALID_REQUEST, COMMERCIAL_DISABLED …).`;

const ENVIRONMENT_NOTE = `The operator token is read from SVC_ADMIN_TOKEN only, never from the command line
(arguments show in ps), and is never printed. The daemon is --daemon, else SVC_DAEMON_URL,
else ${DEFAULT_DAEMON_URL}; it must run with SVC_COMMERCIAL=on and SVC_COMMERCIAL_ORIGIN set
(otherwise every call is COMMERCIAL_DISABLED, exit 4).`;

function daemonOptions(cmd: Command, json: string): Command {
  return cmd
    .option('--daemon <url>', `the daemon's URL (default: $SVC_DAEMON_URL, else ${DEFAULT_DAEMON_URL})`)
    .option('--json', json)
    .option('-q, --quiet', 'print nothing on success (--json output and errors still print); rely on the exit code')
    .option('--no-pager', NO_PAGER_HELP)
    .addHelpText('after', `\n${EXIT_STATUS}`);
}

const action = () => import('./action.js');

export function registerOwner(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const owner = program
    .command('owner')
    .helpCommand(false)
    .description(
      'Owner accounts (commercial mode): the operator manages tenants, projects, owners and usage; owners sign in at the cookie gateway and manage their keys',
    )
    .addHelpText(
      'after',
      `
Operator subcommands (tenants … usage): ${ENVIRONMENT_NOTE}

${EXIT_STATUS}

Owner subcommands (login, logout, projects, keys, watches, events, webhook, schedule): ${SESSION_NOTE}

Examples:
  $ export SVC_ADMIN_TOKEN=...   # the token the daemon was started with (24+ characters)
  $ svc owner tenant-create --name Acme --owner did:web:alice.example
  $ svc owner project-create --tenant ten_… --name website
  $ svc owner attach --tenant ten_… --subject did:web:bob.example
  $ svc owner tenants --json
  $ svc owner usage --project prj_…
  $ svc owner detach --tenant ten_… --subject did:web:bob.example
  $ svc owner login --gateway http://127.0.0.1:8081 --did did:key:z6Mk… --key owner.jwk
  $ svc owner keys issue --project prj_… --label ci
  $ svc owner watches add --project prj_… --did did:web:example.com`,
    );

  daemonOptions(owner.command('tenants').description('List the tenants with their owners and projects'), "print the daemon's answer, {tenants}, as JSON")
    .addHelpText('after', "\nExamples:\n  $ svc owner tenants\n  $ svc owner tenants --json | jq -r '.tenants[].id'")
    .action(async (options: DaemonOptions) => (await action()).tenantsAction(io, setExit, options));

  daemonOptions(
    owner
      .command('tenant-create')
      .description('Create a tenant with its first owner')
      .requiredOption('--name <name>', 'the tenant name (1..100 characters)')
      .requiredOption('--owner <did>', 'the first owner: the DID that signs in to the owner console'),
    "print the daemon's answer, {tenant}, as JSON",
  )
    .addHelpText(
      'after',
      '\nWith -q only the tenant id is printed.\n\nExamples:\n  $ svc owner tenant-create --name Acme --owner did:web:alice.example\n  $ TENANT=$(svc owner tenant-create --name Acme --owner did:web:alice.example -q)',
    )
    .action(async (options: DaemonOptions & { name: string; owner: string }) => (await action()).tenantCreateAction(io, setExit, options));

  daemonOptions(
    owner
      .command('project-create')
      .description("Create a project of a tenant (its owners then issue the project's API keys)")
      .requiredOption('--tenant <id>', 'the tenant id (ten_…, svc owner tenants)')
      .requiredOption('--name <name>', 'the project name (1..100 characters, unique within the tenant)'),
    "print the daemon's answer, {project}, as JSON",
  )
    .addHelpText(
      'after',
      '\nA name the tenant already uses is INVALID_REQUEST; an unknown tenant NOT_FOUND (exit 4). With -q only the project id is printed.\n\nExamples:\n  $ svc owner project-create --tenant ten_… --name website',
    )
    .action(async (options: DaemonOptions & { tenant: string; name: string }) => (await action()).projectCreateAction(io, setExit, options));

  daemonOptions(
    owner
      .command('attach')
      .description('Attach an owner (a DID) to a tenant; attaching one again changes nothing')
      .requiredOption('--tenant <id>', 'the tenant id (ten_…)')
      .requiredOption('--subject <did>', 'the DID to attach'),
    "print the daemon's answer, {tenantId, owners}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner attach --tenant ten_… --subject did:web:bob.example')
    .action(async (options: DaemonOptions & { tenant: string; subject: string }) => (await action()).attachAction(io, setExit, options));

  daemonOptions(
    owner
      .command('detach')
      .description('Detach an owner from a tenant (its sessions are revoked when it owns no other tenant)')
      .requiredOption('--tenant <id>', 'the tenant id (ten_…)')
      .requiredOption('--subject <did>', 'the DID to detach'),
    'print {tenantId, subject, detached: true} as JSON (the daemon answers no body)',
  )
    .addHelpText(
      'after',
      '\nA subject that is not an owner of the tenant is NOT_FOUND (exit 4).\n\nExamples:\n  $ svc owner detach --tenant ten_… --subject did:web:bob.example',
    )
    .action(async (options: DaemonOptions & { tenant: string; subject: string }) => (await action()).detachAction(io, setExit, options));

  daemonOptions(
    owner
      .command('usage')
      .description("Show a project's usage counters (keyed requests by month; nothing is charged)")
      .requiredOption('--project <id>', 'the project id (prj_…)'),
    "print the daemon's answer, {projectId, usage}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner usage --project prj_…\n  $ svc owner usage --project prj_… --json')
    .action(async (options: DaemonOptions & { project: string }) => (await action()).usageAction(io, setExit, options));

  addOwnerSessionCommands(owner, io, setExit);
}
