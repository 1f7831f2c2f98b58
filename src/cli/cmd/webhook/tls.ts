/**
 * `svc webhook listen --tls`: the receiver's throw-away self-signed certificate, and what a daemon
 * needs to post to it. The daemon delivers only over HTTPS, to addresses its egress policy allows,
 * trusting Node's CA store plus NODE_EXTRA_CA_CERTS (read once, when the daemon starts). So:
 *
 * - the certificate (P-256, 30 days, CA:TRUE so that OpenSSL takes it as its own trust anchor;
 *   names localhost, 127.0.0.1, ::1 and --host) and its key are kept in
 *   $XDG_STATE_HOME/svc/webhook-listen/ (cert.pem 0644, key.pem 0600, the folder 0700) and reused
 *   while they cover the host for a day more: a daemon started once with the file keeps trusting
 *   the receiver across its restarts. Where the state folder cannot be written, a temporary
 *   folder holds them for this run only;
 * - trust.pem there is the file for the daemon's NODE_EXTRA_CA_CERTS: this certificate, plus the
 *   certificates of the NODE_EXTRA_CA_CERTS this command was started with (a daemon that trusts a
 *   private CA for its did:web hosts must keep trusting it: the variable names one file);
 * - the egress allowance: the receiver's address as a /32 or /128 (SVC_EGRESS_ALLOW or
 *   --egress-allow), none for a public address.
 *
 * The key never leaves the folder; nothing here weakens the daemon's TLS checks.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertificate } from '../../../net/certificate.js';
import { classifyAddress, parseIp } from '../../../net/ip.js';
import { defaultStorePath } from '../../../store/schema/paths.js';

/** The certificate's subject: how a bundle tells this receiver's certificates from others. */
export const LISTENER_CN = 'svc webhook listen';
const VALID_DAYS = 30;
const DAY_MS = 86_400_000;

export interface ListenerTls {
  certPem: string;
  keyPem: string;
  /** SHA-256 fingerprint, colon-separated hex (as openssl and browsers show it). */
  fingerprint: string;
  notAfter: Date;
  /** The names the certificate holds. */
  names: string[];
  /** Where cert.pem is. */
  certFile: string;
  /** The file for the daemon's NODE_EXTRA_CA_CERTS. */
  trustFile: string;
  /** How many certificates of the caller's NODE_EXTRA_CA_CERTS trust.pem carries too, and from where. */
  carried: number;
  carriedFrom: string | null;
  /** Made now (false: reused from an earlier run). */
  fresh: boolean;
  /** Kept for later runs (false: a temporary folder). */
  kept: boolean;
  /** The host of the webhook URL: --host, or 127.0.0.1 for a wildcard address. */
  urlHost: string;
  /** CIDRs the daemon must be allowed to reach (empty: a public address). */
  allow: string[];
}

/** The host a daemon posts to: --host, or loopback for a wildcard address. */
export function urlHostOf(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/** `https://host:port/`, IPv6 in brackets; `<port>` when the port is not known yet. */
export function webhookUrl(host: string, port: number | null): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port === null ? '<port>' : port}/`;
}

/** The non-public addresses a daemon reaches `host` by, as CIDRs. */
async function allowanceFor(host: string): Promise<string[]> {
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      addresses = [];
    }
  }
  const cidrs: string[] = [];
  for (const address of addresses) {
    const ip = parseIp(address);
    if (ip === null || classifyAddress(ip).kind === 'public') continue;
    const cidr = `${ip.text}/${ip.family === 4 ? 32 : 128}`;
    if (!cidrs.includes(cidr)) cidrs.push(cidr);
  }
  return cidrs;
}

/** The kept certificate and key, when they match, cover `host` and are valid for a day more. */
function reusable(dir: string, host: string, now: number): { certPem: string; keyPem: string; cert: X509Certificate } | null {
  try {
    const certPem = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    const keyPem = readFileSync(path.join(dir, 'key.pem'), 'utf8');
    const cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return null;
    if (Date.parse(cert.validTo) - now < DAY_MS || Date.parse(cert.validFrom) > now) return null;
    const covers = isIP(host) !== 0 ? cert.checkIP(host) !== undefined : cert.checkHost(host) !== undefined;
    return covers ? { certPem, keyPem, cert } : null;
  } catch {
    return null;
  }
}

/** Writes `text` to `file` whole (a temporary file renamed over it), with `mode`. */
function writeWhole(file: string, text: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, file);
}

/** PEM certificates of `text`, less those of this receiver (an earlier trust.pem given back). */
function otherCertificates(text: string): string[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.filter((block) => {
    try {
      return !new X509Certificate(block).subject.split('\n').includes(`CN=${LISTENER_CN}`);
    } catch {
      return false;
    }
  });
}

/**
 * The receiver's certificate (reused or made), its trust file and the daemon's allowance.
 * `env`: the state folder (XDG_STATE_HOME, HOME) and the caller's NODE_EXTRA_CA_CERTS.
 */
export async function listenerTls(env: NodeJS.ProcessEnv, host: string, now = Date.now()): Promise<ListenerTls> {
  const urlHost = urlHostOf(host);
  const names = ['localhost', '127.0.0.1', '::1'];
  if (!names.includes(urlHost)) names.push(urlHost);
  let dir = path.join(path.dirname(defaultStorePath(env)), 'webhook-listen');
  let kept = true;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-webhook-listen-'));
    kept = false;
  }
  let made = reusable(dir, urlHost, now);
  const fresh = made === null;
  if (made === null) {
    const certified = selfSignedCertificate({
      commonName: LISTENER_CN,
      dnsNames: names.filter((n) => isIP(n) === 0),
      ipAddresses: names.filter((n) => isIP(n) !== 0),
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + VALID_DAYS * DAY_MS),
    });
    made = { certPem: certified.certPem, keyPem: certified.keyPem, cert: certified.cert };
    try {
      writeWhole(path.join(dir, 'key.pem'), made.keyPem, 0o600);
      writeWhole(path.join(dir, 'cert.pem'), made.certPem, 0o644);
    } catch {
      dir = mkdtempSync(path.join(tmpdir(), 'svc-webhook-listen-'));
      kept = false;
      writeWhole(path.join(dir, 'key.pem'), made.keyPem, 0o600);
      writeWhole(path.join(dir, 'cert.pem'), made.certPem, 0o644);
    }
  }
  // The daemon's NODE_EXTRA_CA_CERTS names one file: this certificate and the caller's others.
  let carried: string[] = [];
  const extra = env['NODE_EXTRA_CA_CERTS'];
  if (extra !== undefined && extra !== '') {
    try {
      carried = otherCertificates(readFileSync(extra, 'utf8'));
    } catch {
      carried = [];
    }
  }
  const trustFile = path.join(dir, 'trust.pem');
  writeWhole(trustFile, [made.certPem.trimEnd(), ...carried].join('\n') + '\n', 0o644);
  const held = (made.cert.subjectAltName ?? '').split(', ').map((n) => n.replace(/^(DNS|IP Address):/, '').replace(/^0:0:0:0:0:0:0:1$/, '::1'));
  return {
    certPem: made.certPem,
    keyPem: made.keyPem,
    fingerprint: made.cert.fingerprint256,
    notAfter: new Date(made.cert.validTo),
    names: held,
    certFile: path.join(dir, 'cert.pem'),
    trustFile,
    carried: carried.length,
    carriedFrom: carried.length > 0 ? extra! : null,
    fresh,
    kept,
    urlHost,
    allow: await allowanceFor(urlHost),
  };
}

/** What the receiver prints about its TLS on standard error, before it says it listens. */
export function tlsSetupText(tls: ListenerTls, port: number | null): string {
  const url = webhookUrl(tls.urlHost, port);
  const shell = (text: string) => (/^[A-Za-z0-9_./:=,+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
  const allowEnv = tls.allow.length > 0 ? ` SVC_EGRESS_ALLOW=${tls.allow.join(',')}` : '';
  const allowFlags = tls.allow.map((c) => ` --egress-allow ${c}`).join('');
  const made = tls.fresh ? 'made now' : 'reused';
  const keptFor = tls.kept ? `kept for the next runs until ${tls.notAfter.toISOString().replace('.000Z', 'Z')}` : 'in a temporary folder, for this run only';
  return [
    `svc: TLS with a throw-away self-signed certificate (${made}, ${keptFor}):`,
    `  certificate  ${tls.certFile}`,
    `  SHA-256      ${tls.fingerprint}`,
    `  names        ${tls.names.join(', ')}`,
    `The daemon posts here once it trusts this certificate${tls.allow.length > 0 ? ` and may reach ${tls.allow.join(', ')}` : ''}. Start it with:`,
    `  NODE_EXTRA_CA_CERTS=${shell(tls.trustFile)}${allowEnv} svc serve`,
    ...(tls.allow.length > 0 ? [`  (or NODE_EXTRA_CA_CERTS as above and: svc serve${allowFlags})`] : []),
    `  trust.pem holds this certificate${tls.carried > 0 ? ` and the ${tls.carried} of NODE_EXTRA_CA_CERTS (${tls.carriedFrom})` : ''}; Node reads it only when the daemon starts.`,
    'Then watch a DID with this URL (the secret it prints is SVC_WEBHOOK_SECRET here):',
    `  svc monitor watch add <did> ${url}`,
    '',
  ].join('\n');
}
