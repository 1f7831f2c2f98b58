/**
 * `svc webhook listen`: a local receiver of the daemon's monitoring deliveries, for development
 * and checks. Plain HTTP (meant for loopback); each POST is verified with the client's
 * verifyWebhook (X-Svc-Timestamp, X-Svc-Signature-256 over "<ts>.<raw body>"): 204 when valid,
 * 401 when not, and one line per delivery on stdout (--json: one object per line).
 *
 * The secret is --secret or SVC_WEBHOOK_SECRET (preferred: arguments show in `ps`); never printed.
 * Exit: 0 stopped by SIGTERM, 130 by SIGINT, 2 usage, 4 cannot listen.
 */
import type { Command } from 'commander';
import type { ListenOptions } from '../actions/webhook.js';
import type { CliIo } from '../io.js';

export function registerWebhook(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const webhook = program
    .command('webhook')
    .helpCommand(false)
    .description("Receive the daemon's monitoring webhooks locally and verify their signatures")
    .addHelpText(
      'after',
      `
Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT; 2 a usage error; 4 cannot listen.

Examples:
  $ SVC_WEBHOOK_SECRET=whsec_... svc webhook listen --port 9000`,
    );

  webhook
    .command('listen')
    .description('Run a local HTTP receiver that verifies each delivery (204 valid, 401 invalid) and prints it')
    .option('--host <address>', 'address to listen on (plain HTTP: keep it on loopback)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '9000')
    .option('--secret <secret>', "the watch's secret (default: $SVC_WEBHOOK_SECRET; prefer it, arguments show in ps)")
    .option('--tolerance <seconds>', 'largest accepted distance between the signed time and now (default 300; 1800 with --customer)')
    .option('--customer', "verify a project's customer webhook (X-SVC-Event-ID, X-SVC-Signature: t=…,v1=…) instead of an operator watch's")
    .option('--json', 'print one JSON object per delivery and line: {receivedAt, id, type, did, verified, data, reason?}')
    .addHelpText(
      'after',
      `
Each POST is verified as the daemon signs it: X-Svc-Signature-256 is sha256=<hex HMAC-SHA256>
keyed with the secret over "<X-Svc-Timestamp>.<raw body>", the timestamp within --tolerance.
A valid delivery is answered 204, an invalid one 401 (other methods 405, a body over 1 MiB 413),
and each prints one line: time, event id, type, DID, and "verified" or "REJECTED: why". The data
of a rejected delivery is never printed. Deliveries are at least once: deduplicate on the id.

With --customer it verifies a project's webhook (svc owner webhook set): X-SVC-Signature is
t=<creation time>,v1=<hex HMAC-SHA256> over "<t>.<raw body>", the same on every retry, so the
window is 1800 s; check the body's projectId is yours.

The daemon posts only to https URLs it may reach (its egress policy): put a TLS proxy in front
of this receiver, or use it to check deliveries you replay by hand.

Ready when "svc: listening for webhooks on http://…" is printed on standard error.

Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT; 2 a usage error (no secret, a bad
option, a --host that does not resolve); 4 cannot listen (the port is in use, no permission).

Examples:
  $ export SVC_WEBHOOK_SECRET=whsec_...   # printed once by svc monitor watch add
  $ svc webhook listen --port 9000
  $ svc webhook listen --port 0 --json | jq -c 'select(.verified)'
  $ SVC_WEBHOOK_SECRET=whsec_... svc webhook listen --customer   # printed once by svc owner webhook set`,
    )
    .action(async (options: ListenOptions) => (await import('../actions/webhook.js')).webhookListenAction(io, setExit, options));
}
