/** `svc owner login|logout|projects|keys …`: their work, loaded when one runs (their options: options.ts, registered by session-command.ts). */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OwnerProject, SvcClient } from '../../../client/index.js';
import { signClaimPayload } from '../../../core/delegation/mint.js';
import { parseJsonText } from '../../../core/encoding/json.js';
import { retentionCutoff } from '../../../core/monitoring/rules.js';
import { ProblemError } from '../../../core/problems.js';
import { ConfigError } from '../../../runtime/node.js';
import { defaultStorePath } from '../../../store/schema/paths.js';
import { CLI_ERROR_CODES, CliError, helpHint, runningCommand, usageError } from '../../cmdutil/errors.js';
import { EXIT, exitForProblem } from '../../cmdutil/exit-codes.js';
import { writeReport } from '../../cmdutil/paging.js';
import type { CliIo } from '../../cmdutil/io.js';
import { loadA2aBaseline, loadMcpBaseline } from '../inspect/baseline.js';
import { printable } from '../../../present/text.js';
import { table } from '../../cmdutil/table.js';
import { readSource } from '../../cmdutil/source.js';
import type { GatewayOptions } from './options.js';

const CALL_TIMEOUT_MS = 60_000;

/** What `svc owner login` keeps (mode 0600): never printed. */
interface StoredSession {
  gateway: string;
  origin: string;
  did: string;
  cookie: string;
  expiresAt: string;
  absoluteExpiresAt: string;
}

/** $XDG_STATE_HOME/svc/owner-session.json (beside the default database). */
export function sessionFile(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(defaultStorePath(env)), 'owner-session.json');
}

function readSession(env: NodeJS.ProcessEnv): StoredSession | null {
  let text: string;
  try {
    text = readFileSync(sessionFile(env), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<StoredSession>;
    if (typeof value.gateway === 'string' && typeof value.origin === 'string' && typeof value.cookie === 'string' && typeof value.did === 'string')
      return value as StoredSession;
  } catch {
    // A damaged file is no session.
  }
  return null;
}

function writeSession(env: NodeJS.ProcessEnv, session: StoredSession): void {
  const file = sessionFile(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify(session)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
}

/** An http(s) URL without credentials, path or query: the gateway's base. */
function gatewayOf(text: string): string {
  let url: URL | null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw usageError(`--gateway must be the cookie gateway's http(s) URL, such as http://127.0.0.1:8081, not ${printable(text.slice(0, 80))}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function originOf(text: string): string {
  let url: URL | null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text.replace(/\/$/, '')) {
    throw usageError(`--origin must be an origin (scheme://host[:port]), not ${printable(text.slice(0, 80))}`);
  }
  return url.origin;
}

/** The gateway's failure as the CLI reports it: exit 4 (2 for INVALID_OPTIONS: exitForProblem), the problem on stdout with --json. */
async function gatewayFailure(io: CliIo, err: unknown, base: string, json: boolean): Promise<never> {
  const { SvcError, CLIENT_NETWORK_ERROR } = await import('../../../client/index.js');
  if (!(err instanceof SvcError)) throw err;
  if (err.code === CLIENT_NETWORK_ERROR) {
    throw new CliError(
      CLI_ERROR_CODES.DAEMON_UNREACHABLE,
      `cannot reach the cookie gateway at ${base}: ${err.detail}`,
      EXIT.NO_ANSWER,
      'is svc serve running with --gateway-port? --gateway names another',
    );
  }
  if (json && err.problem) io.stdout.write(`${JSON.stringify(err.problem, null, 2)}\n`);
  const hint = err.code === 'UNAUTHORIZED' ? 'sign in again: svc owner login --gateway <url> --did <did> --key <file>' : helpHint(runningCommand(io));
  throw new CliError(err.code, err.detail || err.title || `the gateway answered ${err.status}`, exitForProblem(err.code), hint);
}

/** The stored session (with --gateway / --origin applied), or a usage error. */
function sessionFor(io: CliIo, options: GatewayOptions): StoredSession {
  const stored = readSession(io.env);
  if (stored === null) throw usageError('no owner session here', 'sign in first: svc owner login --gateway <url> --did <did> --key <file>');
  const gateway = options.gateway !== undefined ? gatewayOf(options.gateway) : stored.gateway;
  if (gateway !== stored.gateway)
    throw usageError(`the stored session is for ${printable(stored.gateway)}, not ${printable(gateway)}`, 'svc owner login at that gateway');
  return { ...stored, origin: options.origin !== undefined ? originOf(options.origin) : stored.origin };
}

async function withGateway<T>(
  io: CliIo,
  options: GatewayOptions,
  setExit: (code: number) => void,
  client: { base: string; origin: string; cookie?: string },
  call: (client: SvcClient) => Promise<T>,
  text: (value: T) => string,
): Promise<void> {
  const { SvcClient } = await import('../../../client/index.js');
  const svc = new SvcClient({
    baseUrl: client.base,
    origin: client.origin,
    ...(client.cookie !== undefined ? { sessionCookie: client.cookie } : {}),
    timeoutMs: CALL_TIMEOUT_MS,
  });
  let value: T;
  try {
    value = await call(svc);
  } catch (err) {
    return gatewayFailure(io, err, client.base, options.json === true);
  }
  if (options.json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (!options.quiet) await writeReport(io, text(value), options);
  setExit(EXIT.PASS);
}

function projectsText(subject: string, projects: readonly OwnerProject[]): string {
  const head = `owner  ${printable(subject)}\n`;
  if (projects.length === 0) return `${head}no projects\n`;
  return (
    head +
    table(
      ['PROJECT', 'NAME', 'TENANT', 'CREATED'],
      projects.map((p) => [p.id, p.name, p.tenantId, p.createdAt]),
    )
  );
}

export async function loginAction(
  io: CliIo,
  setExit: (code: number) => void,
  options: GatewayOptions & { did: string; key: string; kid?: string },
): Promise<void> {
  if (options.gateway === undefined) throw usageError('svc owner login needs --gateway <url>: the cookie gateway (svc serve --gateway-port)');
  const base = gatewayOf(options.gateway);
  const origin = options.origin !== undefined ? originOf(options.origin) : new URL(base).origin;
  const keyText = await readSource(options.key, 'private key file');
  const sign = (payload: string): string => {
    // Parse errors are not quoted: they could show a piece of the key.
    const parsed = parseJsonText(keyText.trim(), 'the private key file');
    if ('error' in parsed) throw new ConfigError('the private key file is not valid JSON: it must hold one private JWK');
    try {
      return signClaimPayload({ privateJwk: parsed.value, did: options.did, payload, ...(options.kid !== undefined ? { kid: options.kid } : {}) }).jws;
    } catch (err) {
      if (err instanceof ProblemError) throw new ConfigError(err.detail);
      throw err;
    }
  };
  // The key is checked before the gateway is asked: a key that cannot sign wastes no challenge.
  sign('e30');
  await withGateway(
    io,
    options,
    setExit,
    { base, origin },
    async (client) => {
      const challenge = await client.signInChallenge(options.did);
      const signed = await client.signIn({
        did: options.did,
        challenge: challenge.challenge,
        jws: sign(Buffer.from(challenge.statement, 'utf8').toString('base64url')),
      });
      writeSession(io.env, {
        gateway: base,
        origin,
        did: signed.subject,
        cookie: signed.sessionCookie,
        expiresAt: signed.expiresAt,
        absoluteExpiresAt: signed.absoluteExpiresAt,
      });
      // Never the cookie.
      return { subject: signed.subject, projects: signed.projects, expiresAt: signed.expiresAt, absoluteExpiresAt: signed.absoluteExpiresAt };
    },
    (answer) =>
      `signed in as ${printable(answer.subject)} at ${printable(base)} (session until ${answer.expiresAt} idle, ${answer.absoluteExpiresAt} at most)\n` +
      projectsText(answer.subject, answer.projects),
  );
}

export async function logoutAction(io: CliIo, setExit: (code: number) => void, options: GatewayOptions): Promise<void> {
  const stored = readSession(io.env);
  if (stored === null) {
    if (options.json) io.stdout.write(`${JSON.stringify({ signedOut: true, session: false }, null, 2)}\n`);
    else if (!options.quiet) io.stdout.write('no owner session here\n');
    setExit(EXIT.PASS);
    return;
  }
  const session = sessionFor(io, options);
  try {
    await withGateway(
      io,
      options,
      setExit,
      { base: session.gateway, origin: session.origin, cookie: session.cookie },
      async (client) => {
        await client.signOut();
        return { signedOut: true, session: true };
      },
      () => `signed out of ${printable(session.gateway)}\n`,
    );
  } finally {
    rmSync(sessionFile(io.env), { force: true });
  }
}

export async function projectsAction(io: CliIo, setExit: (code: number) => void, options: GatewayOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.listOwnerProjects(),
    (list) => projectsText(list.subject, list.projects),
  );
}

type KeyOptions = GatewayOptions & { project: string; key?: string; label?: string };

const SECRET_LINE = 'The secret is shown only now: the daemon keeps only its digest. Store it where your client reads it.';

/** The secret of an issue/rotate answer, wherever the answer puts it. */
function secretOf(answer: Record<string, unknown>): string | undefined {
  const secret = answer['secret'];
  return typeof secret === 'string' ? secret : undefined;
}

function keyAnswerText(answer: Record<string, unknown>, quiet: boolean | undefined): string {
  const secret = secretOf(answer);
  if (quiet) return secret !== undefined ? `${printable(secret)}\n` : '';
  const rest = Object.entries(answer).filter(([name]) => name !== 'secret');
  const lines = rest.map(([name, value]) => `${name.padEnd(9)} ${printable(typeof value === 'string' ? value : JSON.stringify(value))}`);
  if (secret !== undefined) lines.push(`secret    ${printable(secret)}`, '', SECRET_LINE);
  return `${lines.join('\n')}\n`;
}

export async function keysListAction(io: CliIo, setExit: (code: number) => void, options: KeyOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.listProjectKeys(options.project),
    (answer) => {
      const keys = Array.isArray(answer['keys']) ? (answer['keys'] as Array<Record<string, unknown>>) : [];
      if (keys.length === 0) return 'no keys\n';
      return table(
        ['KEY', 'STATUS', 'PREFIX', 'LABEL', 'CREATED'],
        keys.map((k) => ['id', 'status', 'prefix', 'label', 'createdAt'].map((m) => (typeof k[m] === 'string' ? (k[m] as string) : '-'))),
      );
    },
  );
}

export async function keysIssueAction(io: CliIo, setExit: (code: number) => void, options: KeyOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    { ...options, quiet: false },
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.issueProjectKey(options.project, options.label !== undefined ? { label: options.label } : {}),
    (answer) => keyAnswerText(answer, options.quiet),
  );
}

function requireKey(options: KeyOptions): string {
  if (options.key === undefined) throw usageError('--key <id> names the key');
  return options.key;
}

export async function keysRevokeAction(io: CliIo, setExit: (code: number) => void, options: KeyOptions): Promise<void> {
  const key = requireKey(options);
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    async (client) => {
      await client.revokeProjectKey(options.project, key);
      return { project: options.project, key, revoked: true };
    },
    () => `key ${printable(key)} of ${printable(options.project)} revoked\n`,
  );
}

export async function keysRotateAction(io: CliIo, setExit: (code: number) => void, options: KeyOptions): Promise<void> {
  const key = requireKey(options);
  const s = sessionFor(io, options);
  await withGateway(
    io,
    { ...options, quiet: false },
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.rotateProjectKey(options.project, key),
    (answer) => keyAnswerText(answer, options.quiet),
  );
}

type WatchOptions = GatewayOptions & { project: string; watch?: string; did?: string; mcp?: string; a2a?: string; baseline?: string; report?: boolean };
type HookOptions = GatewayOptions & { project: string; url?: string };

/** A cell: a string member as it is, anything else as JSON, absent or null as "-". */
const cell = (row: Record<string, unknown>, member: string): string => {
  const value = row[member];
  return value === undefined || value === null ? '-' : typeof value === 'string' ? value : JSON.stringify(value);
};
const rows = (answer: Record<string, unknown>, member: string): Array<Record<string, unknown>> =>
  Array.isArray(answer[member]) ? (answer[member] as Array<Record<string, unknown>>) : [];
const WORKER_OFF = 'note: this daemon does not run the customer monitor worker (SVC_CUSTOMER_MONITOR=off): nothing is checked or delivered by it\n';

export async function watchesListAction(io: CliIo, setExit: (code: number) => void, options: WatchOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.listProjectWatches(options.project),
    (answer) => {
      const list = rows(answer, 'watches');
      const worker = answer['workerActive'] === false ? WORKER_OFF : '';
      if (list.length === 0) return `no watches\n${worker}`;
      return (
        table(
          ['WATCH', 'SUBJECT', 'STATUS', 'CHECKED', 'NEXT'],
          list.map((w) => ['id', subjectMember(w), 'lastStatus', 'lastCheckedAt', 'nextDueAt'].map((m) => cell(w, m))),
        ) + worker
      );
    },
  );
}

/** The member naming a project watch's subject in an answer: did, mcpEndpoint or a2aCard. */
const subjectMember = (w: Record<string, unknown>): string => (w['mcpEndpoint'] !== undefined ? 'mcpEndpoint' : w['a2aCard'] !== undefined ? 'a2aCard' : 'did');

export async function watchesAddAction(io: CliIo, setExit: (code: number) => void, options: WatchOptions): Promise<void> {
  const given = [options.did, options.mcp, options.a2a].filter((v) => v !== undefined).length;
  if (given !== 1) throw usageError('give exactly one of --did, --mcp and --a2a');
  if (options.baseline !== undefined && options.did !== undefined)
    throw usageError('--baseline is for --mcp and --a2a watches (a DID watch takes its first check as its baseline)');
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    async (client) => {
      if (options.did !== undefined) return client.addProjectWatch(options.project, options.did);
      const file = options.baseline;
      const baseline =
        file === undefined ? undefined : options.mcp !== undefined ? (await loadMcpBaseline(file)).baseline : (await loadA2aBaseline(file)).baseline;
      return client.addProjectWatch(options.project, {
        ...(options.mcp !== undefined ? { mcpEndpoint: options.mcp } : { a2aCard: options.a2a! }),
        ...(baseline === undefined ? {} : { baseline: baseline as unknown as Record<string, unknown> }),
      });
    },
    (answer) => {
      const watch = (answer['watch'] ?? {}) as Record<string, unknown>;
      return `watching ${printable(cell(watch, subjectMember(watch)))} as ${printable(cell(watch, 'id'))}; first check due ${printable(cell(watch, 'nextDueAt'))}\n${answer['workerActive'] === false ? WORKER_OFF : ''}`;
    },
  );
}

export async function watchesRemoveAction(io: CliIo, setExit: (code: number) => void, options: WatchOptions): Promise<void> {
  const watch = options.watch ?? '';
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    async (client) => {
      await client.removeProjectWatch(options.project, watch);
      return { project: options.project, watch, removed: true };
    },
    () => `watch ${printable(watch)} of ${printable(options.project)} removed\n`,
  );
}

/** Every event of the window through event-page (100 at a time, one snapshot), or the report. */
export async function eventsAction(io: CliIo, setExit: (code: number) => void, options: WatchOptions): Promise<void> {
  const watch = options.watch ?? '';
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    async (client) => {
      if (options.report) return (await client.watchReport(options.project, watch)) as unknown as Record<string, unknown>;
      const events: unknown[] = [];
      let page = await client.watchEventPage(options.project, watch, { limit: 100 });
      events.push(...page.events);
      while (page.hasMore && page.next !== null) {
        page = await client.watchEventPage(options.project, watch, { limit: 100, ...page.next });
        events.push(...page.events);
      }
      return { events, snapshotEventId: events.length > 0 ? (events[0] as { id: string }).id : null };
    },
    (answer) => {
      const list = rows(answer, 'events');
      if (list.length === 0) return 'no events in the last 30 days\n';
      return table(
        ['EVENT', 'TYPE', 'CREATED'],
        list.map((e) => ['id', 'type', 'createdAt'].map((m) => cell(e, m))),
      );
    },
  );
}

export async function webhookShowAction(io: CliIo, setExit: (code: number) => void, options: HookOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.getProjectWebhook(options.project),
    (answer) => {
      const config = answer['config'] as Record<string, unknown> | null;
      const worker = answer['workerActive'] === false ? WORKER_OFF : '';
      if (config === null) return `no webhook\n${worker}`;
      const line = `webhook ${printable(cell(config, 'id'))} → ${printable(cell(config, 'url'))} (since ${printable(cell(config, 'createdAt'))})\n`;
      // A receiver that answered 410 Gone disabled it: say why, and the fix.
      const reason = config['active'] === false && typeof config['disabledReason'] === 'string' ? config['disabledReason'] : null;
      return reason === null
        ? `${line}${worker}`
        : `${line}DISABLED: ${printable(reason)}\nNothing is delivered until a webhook is set again: svc owner webhook set --project ${printable(options.project)} --url <https URL>\n${worker}`;
    },
  );
}

export async function webhookSetAction(io: CliIo, setExit: (code: number) => void, options: HookOptions): Promise<void> {
  const url = options.url ?? '';
  const s = sessionFor(io, options);
  await withGateway(
    io,
    { ...options, quiet: false },
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.setProjectWebhook(options.project, url),
    (answer) => {
      const secret = secretOf(answer);
      if (options.quiet) return secret !== undefined ? `${printable(secret)}\n` : '';
      const config = (answer['config'] ?? {}) as Record<string, unknown>;
      return `webhook ${printable(cell(config, 'id'))} → ${printable(cell(config, 'url'))}\nsecret    ${printable(secret ?? '-')}\n\nThe secret is shown only now. Verify X-SVC-Signature with it (svc webhook listen --customer, or the clients' verifyCustomerWebhook).\n`;
    },
  );
}

export async function webhookDisableAction(io: CliIo, setExit: (code: number) => void, options: HookOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    async (client) => {
      await client.disableProjectWebhook(options.project);
      return { project: options.project, disabled: true };
    },
    () => `the webhook of ${printable(options.project)} is disabled\n`,
  );
}

export async function webhookDeliveriesAction(io: CliIo, setExit: (code: number) => void, options: HookOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.listWebhookDeliveries(options.project),
    (answer) => {
      const list = rows(answer, 'deliveries');
      if (list.length === 0) return 'no deliveries in the last 30 days\n';
      // The newest attempt's decision and why (decisions are newest first).
      const last = (d: Record<string, unknown>) => {
        const decisions = Array.isArray(d['decisions']) ? (d['decisions'] as Array<Record<string, unknown>>) : [];
        return decisions[0] === undefined ? '-' : `${cell(decisions[0], 'decision')}: ${cell(decisions[0], 'detail')}`;
      };
      return table(
        ['EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'CREATED', 'LAST DECISION'],
        list.map((d) => [...['eventId', 'eventType', 'status', 'attempts', 'createdAt'].map((m) => cell(d, m)), last(d)]),
      );
    },
  );
}

export async function webhookReplayAction(
  io: CliIo,
  setExit: (code: number) => void,
  options: HookOptions & { delivery?: string; watch?: string; since?: string },
): Promise<void> {
  const { delivery, watch, since } = options;
  if (watch === undefined && since !== undefined) throw usageError('--since needs --watch <id> (the watch whose dead letters to replay)');
  if (delivery !== undefined && watch !== undefined) throw usageError('give either --delivery <id> or --watch <id> --since <instant>, not both');
  if (delivery === undefined && watch === undefined) throw usageError('name the delivery to replay (--delivery dlv_…), or --watch <id> --since <instant>');
  if (watch !== undefined && since === undefined)
    throw usageError('--watch needs --since <instant>: the dead letters of events created at or after it are replayed');
  if (since !== undefined && retentionCutoff(since) === null) {
    throw usageError(`--since must be an RFC 3339 date-time with seconds and an offset, such as 2026-01-01T00:00:00Z, not ${printable(since.slice(0, 64))}`);
  }
  const s = sessionFor(io, options);
  const target = { base: s.gateway, origin: s.origin, cookie: s.cookie };
  if (delivery !== undefined) {
    await withGateway(
      io,
      options,
      setExit,
      target,
      (client) => client.replayWebhookDelivery(options.project, delivery),
      (answer) => `${printable(delivery)} replayed as ${printable(answer.delivery.id)}: ${answer.delivery.status}, five fresh attempts\n`,
    );
    return;
  }
  await withGateway(
    io,
    options,
    setExit,
    target,
    (client) => client.replayProjectWatch(options.project, watch!, since!),
    (answer) =>
      answer.count === 0
        ? `${printable(watch!)}: no dead letter since that instant, nothing replayed\n`
        : `${printable(watch!)}: ${answer.count} replayed (${answer.replayed.map(printable).join(', ')})\n`,
  );
}

export async function usageAction(io: CliIo, setExit: (code: number) => void, options: GatewayOptions): Promise<void> {
  const s = sessionFor(io, options);
  await withGateway(
    io,
    options,
    setExit,
    { base: s.gateway, origin: s.origin, cookie: s.cookie },
    (client) => client.scheduledUsage(),
    (answer) => {
      const list = rows(answer, 'projects');
      const worker = answer['workerActive'] === false ? WORKER_OFF : '';
      if (list.length === 0) return `no projects\n${worker}`;
      return (
        table(
          ['PROJECT', 'USED', 'REMAINING', 'SKIPPED', 'WATCHES', 'NEXT DUE'],
          list.map((p) => ['projectId', 'used', 'remaining', 'skipped', 'activeWatches', 'nextDueAt'].map((m) => cell(p, m))),
        ) + worker
      );
    },
  );
}
