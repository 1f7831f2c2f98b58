/**
 * `svc owner`, the owner's side (docs/daemon.md#owner-accounts-and-the-cookie-gateway): sign in at
 * a daemon's loopback cookie gateway with a key of your DID, then manage your projects' keys
 * through it (session-action.ts, loaded only when one runs).
 *
 *   login --gateway URL --did DID --key FILE   challenge → sign → session cookie kept in a 0600 file
 *   logout                                     POST /sign-out, the file removed
 *   projects                                   GET /v1/session/projects
 *   keys list|issue|revoke|rotate --project P  the project's keys (a secret printed once)
 *
 * The session cookie lives in $XDG_STATE_HOME/svc/owner-session.json (mode 0600) and is never
 * printed. Exit: 0 done; 2 usage (a bad URL or key file, no session); 4 the gateway could not be
 * reached or answered a problem.
 */
import type { Command } from 'commander';
import { NO_PAGER_HELP } from '../../cmdutil/output-options.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { GatewayOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';

const SESSION_EXIT_STATUS = `Exit status: 0 done; 2 a usage error (a bad --gateway, --origin or key file, no stored session, or
the gateway's INVALID_OPTIONS); 4 the gateway could not be reached or answered another problem (UNAUTHORIZED,
FORBIDDEN, NOT_FOUND …).`;

export const SESSION_NOTE = `The session cookie is kept in $XDG_STATE_HOME/svc/owner-session.json (mode 0600; else
~/.local/state/svc/) and never printed. Writes carry Origin: the gateway URL's origin (--origin
overrides; it must be the daemon's SVC_COMMERCIAL_ORIGIN).`;

function gatewayOptions(cmd: Command, json: string): Command {
  return cmd
    .option('--gateway <url>', "the cookie gateway's URL (default: the one of the stored session)")
    .option('--origin <origin>', "the Origin writes carry (default: the gateway URL's origin)")
    .option('--json', json)
    .option('-q, --quiet', 'print nothing on success (--json output and errors still print)')
    .option('--no-pager', NO_PAGER_HELP)
    .addHelpText('after', `\n${SESSION_EXIT_STATUS}`);
}

/**
 * Adds the owner's own subcommands (login, logout, projects, keys) to `svc owner` (registered by
 * command.ts with the operator's subcommands).
 */
export function addOwnerSessionCommands(owner: Command, io: CliIo, setExit: (code: number) => void): void {
  const action = async () => import('./session-action.js');

  const login = gatewayOptions(
    owner
      .command('login')
      .description('Sign in: fetch a challenge, sign its statement with your key, keep the session cookie')
      .requiredOption('--did <did>', 'your DID (it must own a project on the daemon)')
      .requiredOption('--key <file>', 'a private JWK (Ed25519, P-256 or secp256k1) of a key your DID lists under authentication')
      .option('--kid <id>', 'the verification method that signs (derived for did:key and did:jwk)'),
    'print {subject, projects, expiresAt, absoluteExpiresAt} as JSON (never the cookie)',
  ).addHelpText('after', `\n${SESSION_NOTE}\n\nExamples:\n  $ svc owner login --gateway http://127.0.0.1:8081 --did did:key:z6Mk… --key owner.jwk`);
  completeFiles(login, '--key');
  login.action(async (options: GatewayOptions & { did: string; key: string; kid?: string }) => (await action()).loginAction(io, setExit, options));

  gatewayOptions(owner.command('logout').description('Sign out: end the session at the gateway and forget it here'), 'print {signedOut: true} as JSON')
    .addHelpText('after', '\nExamples:\n  $ svc owner logout')
    .action(async (options: GatewayOptions) => (await action()).logoutAction(io, setExit, options));

  gatewayOptions(owner.command('projects').description('List the projects you own'), "print the gateway's answer, {subject, projects}, as JSON")
    .addHelpText('after', '\nExamples:\n  $ svc owner projects\n  $ svc owner projects --json')
    .action(async (options: GatewayOptions) => (await action()).projectsAction(io, setExit, options));

  const keys = owner
    .command('keys')
    .helpCommand(false)
    .description("List, issue, revoke and rotate a project's API keys")
    .addHelpText(
      'after',
      `\n${SESSION_EXIT_STATUS}\n\nExamples:\n  $ svc owner keys list --project prj_…\n  $ svc owner keys issue --project prj_… --label ci`,
    );
  type KeyOptions = GatewayOptions & { project: string; key?: string; label?: string };
  gatewayOptions(
    keys.command('list').description("The project's keys (metadata, never a secret)").requiredOption('--project <id>', 'the project'),
    "print the gateway's answer as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner keys list --project prj_…')
    .action(async (options: KeyOptions) => (await action()).keysListAction(io, setExit, options));
  gatewayOptions(
    keys
      .command('issue')
      .description('Issue a key; its secret is printed this once')
      .requiredOption('--project <id>', 'the project')
      .option('--label <text>', 'a label for the key'),
    "print the gateway's answer (with the secret) as JSON",
  )
    .addHelpText(
      'after',
      '\nThe secret is shown only now. With -q only the secret is printed.\n\nExamples:\n  $ svc owner keys issue --project prj_… --label ci',
    )
    .action(async (options: KeyOptions) => (await action()).keysIssueAction(io, setExit, options));
  gatewayOptions(
    keys.command('revoke').description('Revoke a key').requiredOption('--project <id>', 'the project').requiredOption('--key <id>', 'the key'),
    'print {project, key, revoked: true} as JSON',
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner keys revoke --project prj_… --key key_…')
    .action(async (options: KeyOptions) => (await action()).keysRevokeAction(io, setExit, options));
  gatewayOptions(
    keys
      .command('rotate')
      .description('Rotate a key atomically; the new secret is printed this once')
      .requiredOption('--project <id>', 'the project')
      .requiredOption('--key <id>', 'the key'),
    "print the gateway's answer (with the new secret) as JSON",
  )
    .addHelpText('after', '\nThe new secret is shown only now; the old key stops working.\n\nExamples:\n  $ svc owner keys rotate --project prj_… --key key_…')
    .action(async (options: KeyOptions) => (await action()).keysRotateAction(io, setExit, options));

  const watches = owner
    .command('watches')
    .helpCommand(false)
    .description("List, add and remove a project's watches (checked hourly; changes go to the project's webhook)")
    .addHelpText(
      'after',
      `\n${SESSION_EXIT_STATUS}\n\nExamples:\n  $ svc owner watches add --project prj_… --did did:web:example.com\n  $ svc owner watches list --project prj_…`,
    );
  type WatchOptions = GatewayOptions & { project: string; watch?: string; did?: string; mcp?: string; a2a?: string; baseline?: string };
  gatewayOptions(
    watches.command('list').description("The project's watches").requiredOption('--project <id>', 'the project'),
    "print the gateway's answer as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner watches list --project prj_…')
    .action(async (options: WatchOptions) => (await action()).watchesListAction(io, setExit, options));
  gatewayOptions(
    watches
      .command('add')
      .description('Watch a did:key, did:jwk or did:web, an MCP endpoint or an A2A agent card for the project')
      .requiredOption('--project <id>', 'the project')
      .option('--did <did>', 'the identifier (or --mcp, or --a2a: exactly one)')
      .option('--mcp <url>', 'a Streamable HTTP MCP endpoint: its tools, prompts and resources are watched')
      .option('--a2a <url>', "an A2A agent's origin or card URL: its card is watched")
      .option('--baseline <file>', 'with --mcp or --a2a: the approved baseline file (svc mcp approve / svc a2a approve) the first check compares with'),
    "print the gateway's answer as JSON",
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc owner watches add --project prj_… --did did:web:example.com\n  $ svc owner watches add --project prj_… --mcp https://tools.example/mcp --baseline mcp-baseline.json\n  $ svc owner watches add --project prj_… --a2a https://agent.example',
    )
    .action(async (options: WatchOptions) => (await action()).watchesAddAction(io, setExit, options));
  gatewayOptions(
    watches
      .command('remove')
      .description('Stop watching (queued deliveries are cancelled)')
      .requiredOption('--project <id>', 'the project')
      .requiredOption('--watch <id>', 'the watch (wch_…)'),
    'print {project, watch, removed: true} as JSON',
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner watches remove --project prj_… --watch wch_…')
    .action(async (options: WatchOptions) => (await action()).watchesRemoveAction(io, setExit, options));

  gatewayOptions(
    owner
      .command('events')
      .description("A watch's events of the last 30 days, newest first (all of them, paged from one snapshot)")
      .requiredOption('--project <id>', 'the project')
      .requiredOption('--watch <id>', 'the watch (wch_…)')
      .option('--report', 'ask for the 30-day report instead (refused above 1000 events or 8 MiB)'),
    'print {events} (or the report) as JSON',
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner events --project prj_… --watch wch_…\n  $ svc owner events --project prj_… --watch wch_… --report --json')
    .action(async (options: WatchOptions & { report?: boolean }) => (await action()).eventsAction(io, setExit, options));

  const webhook = owner
    .command('webhook')
    .helpCommand(false)
    .description("Show, set and disable the project's webhook (signed: X-SVC-Signature)")
    .addHelpText(
      'after',
      `\n${SESSION_EXIT_STATUS}\n\nExamples:\n  $ svc owner webhook set --project prj_… --url https://hooks.example.com/svc\n  $ svc owner webhook deliveries --project prj_…`,
    );
  type HookOptions = GatewayOptions & { project: string; url?: string };
  gatewayOptions(
    webhook.command('show').description('The active webhook (never its secret)').requiredOption('--project <id>', 'the project'),
    "print the gateway's answer as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner webhook show --project prj_…')
    .action(async (options: HookOptions) => (await action()).webhookShowAction(io, setExit, options));
  gatewayOptions(
    webhook
      .command('set')
      .description('Set (or replace) the webhook; its signing secret is printed this once')
      .requiredOption('--project <id>', 'the project')
      .requiredOption('--url <url>', 'an https URL'),
    "print the gateway's answer (with the secret) as JSON",
  )
    .addHelpText(
      'after',
      '\nThe secret is shown only now. With -q only the secret is printed.\n\nExamples:\n  $ svc owner webhook set --project prj_… --url https://hooks.example.com/svc',
    )
    .action(async (options: HookOptions) => (await action()).webhookSetAction(io, setExit, options));
  gatewayOptions(
    webhook.command('disable').description('Disable the webhook; queued deliveries are cancelled').requiredOption('--project <id>', 'the project'),
    'print {project, disabled: true} as JSON',
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner webhook disable --project prj_…')
    .action(async (options: HookOptions) => (await action()).webhookDisableAction(io, setExit, options));
  gatewayOptions(
    webhook.command('deliveries').description('The newest 100 deliveries (metadata only)').requiredOption('--project <id>', 'the project'),
    "print the gateway's answer as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner webhook deliveries --project prj_…')
    .action(async (options: HookOptions) => (await action()).webhookDeliveriesAction(io, setExit, options));
  gatewayOptions(
    webhook
      .command('replay')
      .description('Deliver a dead-lettered or cancelled delivery again, to the active webhook; never done automatically')
      .requiredOption('--project <id>', 'the project')
      .option('--delivery <id>', 'the delivery to replay: dlv_<webhook>_<event> (webhook deliveries --json lists them)')
      .option('--watch <id>', "replay every dead letter of this watch's events instead (needs --since)")
      .option('--since <instant>', 'with --watch: only events created at or after this RFC 3339 instant (seconds and an offset)'),
    "print the gateway's answer, {delivery} or {replayed, count}, as JSON",
  )
    .addHelpText(
      'after',
      `
The event goes to the project's active webhook with the same id and body bytes, five fresh
attempts: the same delivery when it was that webhook's, else a new one signed with its secret.
Only DEAD_LETTER or CANCELLED deliveries; anything else is CONFLICT (exit 4) with a line naming the
state (no active webhook: set one first).

Examples:
  $ svc owner webhook replay --project prj_… --delivery dlv_3_42
  $ svc owner webhook replay --project prj_… --watch wch_7 --since 2026-11-01T00:00:00Z`,
    )
    .action(async (options: HookOptions & { delivery?: string; watch?: string; since?: string }) => (await action()).webhookReplayAction(io, setExit, options));

  gatewayOptions(
    owner.command('schedule').description('The scheduled monitor usage of your projects: allowance, attempts used, skipped, next due'),
    "print the gateway's answer as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc owner schedule')
    .action(async (options: GatewayOptions) => (await action()).usageAction(io, setExit, options));
}
