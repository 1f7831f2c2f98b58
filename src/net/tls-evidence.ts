/**
 * TLS evidence (`evidence.tls` of a resolution) read from the socket that carried the response: the
 * leaf certificate, the trust anchor the chain was validated against, the protocol and whether the
 * host name is in the subjectAltName. The handshake already refused anything untrusted, expired or
 * issued for another name; this records what was shown.
 */
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { CertificateEvidence, TlsEvidence } from '../core/net.js';
import { parseIp } from './ip.js';

const DAY_MS = 86_400_000;

/** `CN=x\nO=y` (Node's X509Certificate text) → `CN=x, O=y`. */
function distinguishedName(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}

function nameOf(subject: Record<string, string | string[]> | undefined): string {
  if (!subject) return '(unknown)';
  return Object.entries(subject)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');
}

function isoSeconds(text: string): string {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : `${date.toISOString().slice(0, 19)}Z`;
}

/** subjectAltName as Node prints it (`DNS:a, IP Address:1.2.3.4`) → entries. */
function altNames(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(', ')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Whole days from `now` until an RFC 3339 time (negative once past). */
export function daysUntil(time: string, now: Date): number {
  return Math.floor((new Date(time).getTime() - now.getTime()) / DAY_MS);
}

/**
 * The chain as the handshake validated it, leaf first, each certificate as DER (the Buffers Node
 * already holds, not copies: this runs on every handshake), up to the trust anchor it chained to,
 * which is also what `validatedBy` names. An evidence bundle keeps the chain to re-check offline.
 */
function chainOf(peer: DetailedPeerCertificate): { chain: Uint8Array[]; anchor: DetailedPeerCertificate } {
  const chain: Uint8Array[] = [];
  const seen = new Set<string>();
  let anchor = peer;
  let current: DetailedPeerCertificate | undefined = peer;
  while (current && !seen.has(current.fingerprint256)) {
    seen.add(current.fingerprint256);
    if (current.raw) chain.push(current.raw);
    anchor = current;
    current = current.issuerCertificate;
  }
  return { chain, anchor };
}

/** The TLS evidence of a connection and its certificate chain (DER, leaf first). */
export function readTlsEvidence(socket: TLSSocket, host: string, now: Date): { evidence: TlsEvidence; chain: Uint8Array[] } {
  // Order matters on Node 20: after getPeerX509Certificate(), getPeerCertificate(true)
  // returns an empty object, so the detailed chain is read first.
  const detailed = socket.getPeerCertificate(true);
  const { chain, anchor } = chainOf(detailed);
  const leaf = socket.getPeerX509Certificate();
  if (!leaf) throw new Error('TLS socket without a peer certificate');
  const certificate: CertificateEvidence = {
    subject: distinguishedName(leaf.subject),
    issuer: distinguishedName(leaf.issuer),
    validFrom: isoSeconds(leaf.validFrom),
    validTo: isoSeconds(leaf.validTo),
    serialNumber: leaf.serialNumber.toUpperCase(),
    sha256Fingerprint: leaf.fingerprint256,
    subjectAltNames: altNames(leaf.subjectAltName),
  };
  const literal = parseIp(host);
  // `subject: 'never'` so that only subjectAltName counts, never a CN fallback.
  const hostnameInSan = literal ? leaf.checkIP(literal.text) !== undefined : leaf.checkHost(host, { subject: 'never' }) !== undefined;
  const cipher = socket.getCipher();
  const evidence: TlsEvidence = {
    host,
    validatedBy: nameOf(anchor.subject as unknown as Record<string, string | string[]>),
    protocol: socket.getProtocol() ?? 'unknown',
    cipher: cipher.standardName ?? cipher.name,
    certificate,
    daysUntilExpiry: daysUntil(certificate.validTo, now),
    hostnameInSan,
  };
  return { evidence, chain };
}
