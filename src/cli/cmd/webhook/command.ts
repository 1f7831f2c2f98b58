/**
 * `svc webhook listen`: a local receiver of the daemon's monitoring deliveries, for development
 * and checks. Plain HTTP (meant for loopback), or HTTPS with --tls — a throw-away self-signed
 * certificate, printed with its fingerprint and the daemon's settings (tls.ts),
 * since the daemon posts only over HTTPS; each POST is verified with the client's
 * verifyWebhook (X-Svc-Timestamp, X-Svc-Signature-256 over "<ts>.<raw body>"): 204 when valid,
 * 401 when not, and one line per delivery on stdout (--json: one object per line).
 *
 * The secret is --secret or SVC_WEBHOOK_SECRET (preferred: arguments show in `ps`); never printed.
 * Exit: 0 stopped by SIGTERM, 130 by SIGINT, 2 usage, 4 cannot listen.
 */
import type { Command } from 'commander';
import type { ListenOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';

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
  $ svc webhook listen --tls --port 9000   # prints the certificate and the daemon's settings
  $ SVC_WEBHOOK_SECRET=whsec_... svc webhook listen --tls --port 9000`,
    );

  webhook
    .command('listen')
    .description('Run a local HTTP(S) receiver that verifies each delivery (204 valid, 401 invalid) and prints it')
    .option('--host <address>', 'address to listen on (keep it on loopback)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '9000')
    .option('--secret <secret>', "the watch's secret (default: $SVC_WEBHOOK_SECRET; prefer it, arguments show in ps)")
    .option('--tolerance <seconds>', 'largest accepted distance between the signed time and now (default 300; 1800 with --customer)')
    .option('--customer', "verify a project's customer webhook (X-SVC-Event-ID, X-SVC-Signature: t=…,v1=…) instead of an operator watch's")
    .option('--json', 'print one JSON object per delivery and line: {receivedAt, id, type, did, verified, data, reason?}')
    .option('--tls', "serve HTTPS with a throw-away self-signed certificate, as the daemon delivers; prints its fingerprint and the daemon's settings")
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

The daemon posts only to https URLs it may reach (its egress policy). With --tls this receiver
serves HTTPS itself, with a self-signed certificate (P-256, 30 days; names localhost, 127.0.0.1,
::1 and --host) kept with its key in $XDG_STATE_HOME/svc/webhook-listen/ and reused by later
runs, so a daemon started once keeps trusting it. It prints the certificate's SHA-256 fingerprint
and what the daemon needs, before it listens:
  NODE_EXTRA_CA_CERTS=<state>/svc/webhook-listen/trust.pem   the certificate (and those of the
      NODE_EXTRA_CA_CERTS given to this command, which the daemon must keep trusting); Node reads
      it only when the daemon starts
  SVC_EGRESS_ALLOW=127.0.0.1/32 (or svc serve --egress-allow 127.0.0.1/32)   the receiver's address
  svc monitor watch add <did> https://127.0.0.1:<port>/   the URL to watch with
Without a secret yet, --tls prints all this and exits 2: start the daemon, add the watch, and run
it again with the secret the watch printed.

Ready when "svc: listening for webhooks on http(s)://…" is printed on standard error.

Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT; 2 a usage error (no secret, a bad
option, a --host that does not resolve); 4 cannot listen (the port is in use, no permission).

Examples:
  $ svc webhook listen --tls --port 9000   # 1. the certificate and the daemon's settings (exit 2: no secret yet)
  $ NODE_EXTRA_CA_CERTS=~/.local/state/svc/webhook-listen/trust.pem SVC_EGRESS_ALLOW=127.0.0.1/32 svc serve &   # with SVC_ADMIN_TOKEN
  $ export SVC_WEBHOOK_SECRET=$(svc monitor watch add did:web:example.com https://127.0.0.1:9000/ -q)
  $ svc webhook listen --tls --port 9000   # 2. receives, verifies and prints each delivery
  $ svc webhook listen --port 0 --json | jq -c 'select(.verified)'
  $ SVC_WEBHOOK_SECRET=whsec_... svc webhook listen --customer   # printed once by svc owner webhook set`,
    )
    .action(async (options: ListenOptions) => (await import('./action.js')).webhookListenAction(io, setExit, options));
}
