/**
 * One rule for bad arguments (docs/cli.md#exit-codes), over every command `svc --help` lists: a
 * usage error or an option value that cannot be used exits 2 — USAGE_ERROR, or INVALID_OPTIONS when
 * the core judged the value (its problem object is printed with --json, as the daemon answers it) —
 * and 4 stays for no answer: the identifier or input a command examines is malformed, or the work
 * could not be done. Every row runs the CLI in this process (svcIn), a daemon's row the built CLI;
 * the last test checks that every command has rows.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, parseCliError, svc, svcIn } from '../support/cli.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH';

let dir: string;
let env: Record<string, string | undefined>;
/** Files the rows name: `{dir}/…` in a row is replaced by the directory. */
let keyDid: string;

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-bad-args-'));
  mkdirSync(path.join(dir, 'state'));
  // The CLI's own state (history database) and no daemon: nothing here reaches the network.
  env = { ...cleanEnv({ XDG_STATE_HOME: path.join(dir, 'state') }), SVC_DAEMON_URL: undefined, SVC_ADMIN_TOKEN: undefined };
  writeFileSync(path.join(dir, 'existing'), 'precious');
  writeFileSync(path.join(dir, 'not-json.txt'), 'not json\n');
  writeFileSync(path.join(dir, 'no-rules.json'), '{}\n');
  writeFileSync(path.join(dir, 'policy.json'), '{"name": "p", "rules": {"didResolution": "required"}}\n');
  writeFileSync(path.join(dir, 'wrong-shape.json'), '{"receipts": []}\n');
  const keygen = await svcIn(['keygen', '--out', path.join(dir, 'key.jwk'), '--json'], env);
  expect(keygen.exitCode, keygen.stderr).toBe(0);
  keyDid = JSON.parse(keygen.stdout).didKey as string;
  // A database to back up.
  expect((await svcIn(['resolve', DID, '--quiet'], env)).exitCode).toBe(0);
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Row {
  /** The command line; `{dir}` stands for the test directory, `{key}` for the key file's did:key. */
  args: string[];
  exit: 2 | 4;
  code: string;
  detail: RegExp;
}

const usage = (args: string[], detail: RegExp): Row => ({ args, exit: 2, code: 'USAGE_ERROR', detail });
const badOption = (args: string[], detail: RegExp): Row => ({ args, exit: 2, code: 'INVALID_OPTIONS', detail });
const noAnswer = (args: string[], code: string, detail: RegExp): Row => ({ args, exit: 4, code, detail });

/** The bad-value cases of each command; exit 4 rows mark where the rule's other side begins. */
const TABLE: Row[] = [
  usage(['resolve', DID, '--version-number', 'abc'], /^--version-number must be a positive whole number/),
  usage(['resolve', DID, '--version-time', 'yesterday'], /^--version-time must be an RFC 3339 date-time/),
  usage(['resolve', DID, '--egress-allow', '10.0.0.0/33'], /^--egress-allow: bad allow-list entry "10\.0\.0\.0\/33"/),
  usage(['resolve', DID, '--html', '{dir}/no-such-dir/page.html'], /^--html: cannot write .*page\.html: its directory does not exist$/),
  usage(['resolve', DID, '--html', '{dir}'], /^--html must name a file to write, not the directory /),
  usage(['resolve', DID, '--no-such-option'], /^unknown option '--no-such-option'/),
  usage(['resolve'], /^missing required argument 'did'/),
  badOption(['resolve', DID, '--version-id', '1-x'], /^did:key has no versions; versionId, versionTime and versionNumber do not apply\.$/),
  noAnswer(['resolve', 'not-a-did'], 'INVALID_DID', /^Not a valid DID: /),

  usage(['dereference', `${DID}#x`, '--egress-allow', 'intranet'], /^--egress-allow: bad allow-list entry "intranet"/),
  noAnswer(['dereference', 'not-a-did-url'], 'INVALID_DID_URL', /^Not a valid DID URL/),

  usage(['graph', DID, '--egress-allow', '::1/129'], /^--egress-allow: bad allow-list entry "::1\/129"/),
  noAnswer(['graph', 'did:example:123'], 'METHOD_NOT_SUPPORTED', /^The DID method "example" is not supported/),

  usage(['verify-credential', '{dir}/missing.json'], /^cannot read the credential .*missing\.json: no such file$/),
  usage(['verify-credential', '{dir}/no-rules.json', '--audience', ''], /^--audience must not be empty$/),

  usage(['verify-presentation', '{dir}/missing.json'], /^cannot read the presentation .*missing\.json: no such file$/),
  usage(['verify-presentation', '{dir}/no-rules.json', '--challenge', ''], /^--challenge must not be empty$/),
  usage(['verify-presentation', '{dir}/no-rules.json', '--nonce', ' '], /^--nonce must not be empty$/),
  usage(['verify-presentation', '{dir}/no-rules.json', '--trusted-issuer', 'did:key:*'], /^--trusted-issuer: trusted issuer 1 \("did:key:\*"\) is refused: /),

  usage(['verify-jws', 'abc', '--relationship', 'owner'], /^--relationship must be one of authentication, /),
  usage(['verify-jws', 'not a jws'], /^no such file and not a compact JWS: not a jws$/),

  usage(['evaluate-policy', DID, '--policy', '{dir}/missing.json'], /^cannot read the policy .*: no such file$/),
  usage(['evaluate-policy', DID], /^required option '--policy <file>' not specified$/),
  badOption(['evaluate-policy', DID, '--policy', '{dir}/not-json.txt'], /^The policy file is not valid JSON/),
  badOption(['evaluate-policy', DID, '--policy', '{dir}/no-rules.json'], /^The policy has no "rules" member/),
  noAnswer(['evaluate-policy', 'not-a-did', '--policy', '{dir}/policy.json'], 'INVALID_DID', /^Not a valid DID: /),

  usage(['delegate', '--key', '{dir}/key.jwk', '--iss', '{key}', '--aud', OTHER, '--cap', 'read', '--ttl', 'forever'], /^--ttl must be a duration/),
  usage(['delegate', '--key', '{dir}/missing.jwk', '--iss', '{key}', '--aud', OTHER, '--cap', 'read'], /^cannot read the private key file .*: no such file$/),
  badOption(['delegate', '--key', '{dir}/not-json.txt', '--iss', '{key}', '--aud', OTHER, '--cap', 'read'], /^The private key file is not valid JSON/),
  badOption(['delegate', '--key', '{dir}/key.jwk', '--iss', 'not-a-did', '--aud', OTHER, '--cap', 'read'], /^The issuer \(iss\) must be a bare DID/),
  badOption(['delegate', '--key', '{dir}/key.jwk', '--iss', '{key}', '--aud', '{key}', '--cap', 'read'], /^The issuer and the audience are the same DID/),
  badOption(['delegate', '--key', '{dir}/key.jwk', '--iss', DID, '--aud', OTHER, '--cap', 'read'], /not the key of/),

  usage(['verify-delegation', '{dir}/missing.txt'], /^cannot read the delegation chain .*: no such file$/),
  usage(['verify-delegation', '{dir}/not-json.txt', '--trusted-root', 'root'], /^--trusted-root must be a bare DID: root is not/),
  noAnswer(['verify-delegation', '{dir}/wrong-shape.json'], 'INVALID_REQUEST', /neither an array of receipts nor an object with a "chain" array/),

  usage(['authorize', '--chain', '{dir}/not-json.txt', '--tool', ''], /^--tool must not be empty$/),
  usage(['authorize', '--chain', '{dir}/missing.txt', '--tool', 'read'], /^cannot read the delegation chain .*: no such file$/),

  usage(['verify-tool', '--agent', 'agent-7', '--tool', 'read'], /^--agent must be a DID: agent-7 is not/),
  usage(['verify-tool', '--agent', DID, '--tool', 'read', '--root', `${DID}/path`], /^--root must be a DID, not a DID URL with a path or query/),

  usage(['keygen', '--curve', 'X25519', '--out', '{dir}/k.jwk'], /Allowed choices are Ed25519, P-256, secp256k1/),
  usage(['keygen', '--out', '{dir}/existing'], /existing: it already exists; svc keygen never overwrites a file/),
  usage(['key', 'show', '{dir}/not-json.txt'], /^the key file: .*not-json\.txt is not a JSON object \(a JWK, as svc keygen writes\)$/),
  badOption(['key', 'show', '{dir}/policy.json'], /^The key file holds no usable key: the JWK has no "kty" member\.$/),
  usage(['sign-credential', '{dir}/policy.json', '--key', '{dir}/missing.jwk'], /^--key: cannot read .*missing\.jwk: no such file$/),
  usage(
    ['sign-credential', '{dir}/policy.json', '--key', '{dir}/key.jwk', '--out', '{dir}/existing'],
    /existing: it already exists; svc sign-credential never overwrites a file$/,
  ),
  noAnswer(['sign-credential', '{dir}/not-json.txt', '--key', '{dir}/key.jwk'], 'INVALID_REQUEST', /^The credential file is not valid JSON/),
  usage(['sign-presentation', '{dir}/policy.json', '--key', '{dir}/key.jwk'], /^--challenge is required/),
  noAnswer(['sign-presentation', '{dir}/policy.json', '--key', '{dir}/key.jwk', '--challenge', 'c'], 'INVALID_REQUEST', /^Credential 1 has no proof/),

  usage(['inspect-mcp', 'https://tools.example/mcp', '--egress-allow', 'all'], /^--egress-allow: bad allow-list entry "all"/),
  noAnswer(['inspect-mcp', 'tools.example'], 'INVALID_REQUEST', /^The MCP endpoint must be an absolute URL/),

  usage(['inspect-a2a', 'https://agent.example', '--egress-allow', '1.2.3.4/40'], /^--egress-allow: bad allow-list entry "1\.2\.3\.4\/40"/),
  noAnswer(['inspect-a2a', 'agent.example'], 'INVALID_REQUEST', /^The agent URL is not an absolute URL/),
  usage(['inspect-mcp', 'https://tools.example/mcp', '--baseline', '{dir}/no-such-baseline.json'], /^--baseline .*no-such-baseline\.json: no such file$/),
  badOption(['inspect-mcp', 'https://tools.example/mcp', '--baseline', '{dir}/not-json.txt'], /^The baseline .*not-json\.txt is not valid JSON/),
  badOption(['inspect-a2a', 'https://agent.example', '--baseline', '{dir}/policy.json'], /^The baseline .*policy\.json is not an svc-a2a-baseline file/),

  usage(['mcp', 'approve', 'https://tools.example/mcp'], /^required option '--baseline <file>' not specified/),
  usage(['mcp', 'approve', 'https://tools.example/mcp', '--baseline', '{dir}/b.json'], /^standard input is not a terminal, so svc cannot ask before it writes/),
  usage(['a2a', 'approve', 'https://agent.example', '--baseline', '{dir}/b.json', '--stdio'], /^unknown option '--stdio'/),
  usage(['verify-bundle', '{dir}/no-such.bundle.json'], /no-such\.bundle\.json: no such file$/),
  usage(['verify-bundle', '{dir}/b.json', '--now', 'yesterday'], /^--now yesterday is not an RFC 3339 time$/),
  noAnswer(['verify-bundle', '{dir}/not-json.txt'], 'INVALID_BUNDLE', /not-json\.txt is not valid JSON/),

  usage(['history', DID, '--limit', '0'], /^--limit must be a whole number 1\.\.1000, not "0"$/),
  noAnswer(['history', 'not-a-did'], 'INVALID_DID', /^Not a valid DID: /),

  badOption(['diff', DID, '--from', 'abc'], /^"from" is too short: a document hash prefix needs at least 8 hexadecimal characters \(3 given\)\.$/),
  badOption(['diff', DID, '--to', 'not-hex-at-all'], /^"to" must be a document hash \(64 lower-case hexadecimal characters\) or a unique prefix of one/),
  noAnswer(['diff', 'not-a-did'], 'INVALID_DID', /^Not a valid DID: /),

  usage(['backup', '{dir}/existing'], /existing already exists; a backup never overwrites a file$/),
  usage(['backup', '{dir}/no-such-dir/copy.db'], /^cannot back up to .*copy\.db: its directory .*no-such-dir does not exist$/),
  usage(['backup'], /^missing required argument 'dest'/),

  usage(['serve', '--port', '99999'], /^--port must be a port number 0\.\.65535/),
  usage(['serve', '--memory', '--production'], /^production mode requires a database file; drop --memory$/),
  usage(['serve', '--gateway-port', 'x'], /^--gateway-port must be a port number/),

  usage(['monitor', 'watch', 'list', '--daemon', 'not-a-url'], /^--daemon must be an http\(s\) URL of the daemon/),
  usage(['monitor', 'watch', 'add', DID, 'https://hooks.example/svc', '--interval', 'hourly'], /^--interval must be a whole number of seconds, not hourly$/),
  usage(['monitor', 'events', '--limit', '5'], /^unknown option '--limit'/),

  usage(['owner', 'tenants', '--daemon', 'ftp://daemon.example'], /^--daemon must be an http\(s\) URL of the daemon/),
  usage(['owner', 'usage'], /^required option '--project <id>' not specified$/),

  usage(['claim', DID, '--method', 'email'], /^--method must be one of signature, well-known, dns, not email$/),
  usage(['claim', DID, '--method', 'dns', '--expires-in', '999999'], /^--expires-in must be a whole number of seconds from 1 to 86400 for the dns method/),
  usage(['claim', DID, '--list', '--unlist', '--method', 'dns'], /^--list and --unlist exclude each other$/),
  usage(['claim', DID, '--method', 'well-known'], /^--method well-known: did:key has no host to publish on/),

  usage(['claims', DID, '--daemon', 'ftp://x'], /^--daemon must be an http\(s\) URL of the daemon/),

  usage(['directory', '--limit', '51'], /^--limit must be a whole number from 1 to 50, not 51$/),
  usage(['directory', '--method', 'example'], /^--method must be one of web, key, jwk, webvh, not example$/),

  usage(['webhook', 'listen', '--port', '99999'], /^--port must be a port number 0\.\.65535/),

  usage(['config', 'show', '--config', '{dir}/missing.json'], /^config file .+missing\.json \(from --config\) does not exist$/),
  usage(['config', 'path', '--config', '{dir}/not-json.txt'], /not-json\.txt:1:\d+: not valid JSON: /),
  usage(['config', 'show', '--config', '{dir}/wrong-shape.json'], /wrong-shape\.json: unknown key receipts$/),

  usage(['completion', 'powershell'], /Allowed choices are bash, zsh, fish/),
  usage(['version', '--yaml'], /^unknown option '--yaml'/),
  usage(['help', 'no-such-topic'], /^no command or help topic 'no-such-topic'/),
];

/** The commands that start a daemon. */
const DAEMONS = new Set(['serve', 'webhook']);

function expand(args: string[]): string[] {
  return args.map((a) => a.replaceAll('{dir}', dir).replaceAll('{key}', keyDid));
}

describe('bad arguments: exit 2 for the command line, 4 for no answer', () => {
  it.concurrent.each(TABLE.map((row) => [row.args.join(' '), row] as const))('svc %s', async (_, row) => {
    const args = expand(row.args);
    // The daemons' rows run the built CLI: a daemon owns its process (svcIn refuses them).
    const run = DAEMONS.has(row.args[0]!) ? svc : svcIn;
    const r = await run(args, env);
    expect({ exitCode: r.exitCode, stdout: r.stdout }, r.stderr).toEqual({ exitCode: row.exit, stdout: '' });
    // One error block, after any warning line (a key file readable by others is warned about).
    const block = r.stderr.slice(r.stderr.indexOf('svc: ' + row.code));
    const error = parseCliError(block);
    expect(error.code).toBe(row.code);
    expect(error.detail).toMatch(row.detail);
    if (row.code === 'INVALID_OPTIONS') {
      // The core's problem: printed as the problem object with --json, and still exit 2.
      const json = await run([...args, '--json'], env);
      expect(json.exitCode).toBe(2);
      expect(JSON.parse(json.stdout)).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });
    }
  });

  it('every command that svc --help lists has rows', async () => {
    const help = await svcIn(['--help'], env);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z0-9-]*)(?: \[options\])?(?: [<[]|\s{2,}|$)/gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThan(20);
    const covered = new Set(TABLE.map((row) => row.args[0]));
    expect(commands.filter((c) => !covered.has(c))).toEqual([]);
  });
});
