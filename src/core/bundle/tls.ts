/**
 * A recorded TLS chain checked offline, at a given time: each certificate parses, each is signed
 * by the next, the last is the anchor (self-signed, and whether this machine trusts it), every
 * certificate is within its validity window at that time, and the leaf names the host. What the
 * handshake did live, done again on the DER the bundle kept — so a bundle read a year later says
 * "valid at observation, expired now" instead of nothing.
 */
import { X509Certificate } from 'node:crypto';
import { sha256Hex } from '../canonical.js';
import type { CertificateEvidence } from '../net.js';
import { fromBase64 } from './format.js';

/** `CN=x\nO=y` (Node's X509Certificate text) → `CN=x, O=y`. */
function distinguishedName(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}

function isoSeconds(text: string): string {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : `${date.toISOString().slice(0, 19)}Z`;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function namesHost(cert: X509Certificate, host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (IPV4.test(bare) || bare.includes(':')) return cert.checkIP(bare) !== undefined;
  return cert.checkHost(bare, { subject: 'never' }) !== undefined;
}

/*
 * Certificates parsed, by their base64 DER: parsing one costs ~0.6 ms, and a bundle names the same
 * few again and again (every resource from one host carries its chain, and each re-run reads each
 * leaf again). An X509Certificate is immutable, so the memo is a pure function of its key; it is
 * bounded (cleared when full).
 */
const PARSED_MAX = 256;
const parsed = new Map<string, X509Certificate | null>();

function parse(der: string | undefined): X509Certificate | null {
  if (der === undefined) return null;
  const known = parsed.get(der);
  if (known !== undefined) return known;
  const bytes = fromBase64(der);
  let cert: X509Certificate | null = null;
  if (bytes !== null) {
    try {
      cert = new X509Certificate(bytes);
    } catch {
      cert = null;
    }
  }
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(der, cert);
  return cert;
}

/** The leaf's evidence as a live fetch reports it (a leaf that does not parse: placeholders naming that). */
export function describeLeaf(der: string | undefined, host: string): { certificate: CertificateEvidence; hostnameInSan: boolean } {
  const leaf = parse(der);
  if (!leaf) {
    const unknown = '(the recorded certificate does not parse)';
    return {
      certificate: { subject: unknown, issuer: unknown, validFrom: '', validTo: '', serialNumber: '', sha256Fingerprint: '', subjectAltNames: [] },
      hostnameInSan: false,
    };
  }
  return {
    certificate: {
      subject: distinguishedName(leaf.subject),
      issuer: distinguishedName(leaf.issuer),
      validFrom: isoSeconds(leaf.validFrom),
      validTo: isoSeconds(leaf.validTo),
      serialNumber: leaf.serialNumber.toUpperCase(),
      sha256Fingerprint: leaf.fingerprint256,
      subjectAltNames: (leaf.subjectAltName ?? '')
        .split(', ')
        .map((e) => e.trim())
        .filter(Boolean),
    },
    hostnameInSan: namesHost(leaf, host),
  };
}

/** A chain's state at one time. */
export interface ChainCheck {
  /** Every check below held. */
  valid: boolean;
  /** What failed, one line each (empty when valid). */
  problems: string[];
  /** When the leaf expires (RFC 3339), if it parses. */
  leafValidTo: string | null;
}

/** What does not depend on the time: parsing, signatures, the anchor, the host name. */
export interface ChainStructure {
  certificates: Array<X509Certificate | null>;
  problems: string[];
  /** Subject of the last certificate. */
  anchor: string | null;
  /** The anchor is in the trust store given (null: no store was given). */
  anchorTrusted: boolean | null;
}

/**
 * The time-free checks of a chain (base64 DER, leaf first): each parses and is signed by the next,
 * the last is self-signed, the leaf names `host`; and whether `anchors` (PEM or DER certificates
 * this machine trusts) hold the last one or its issuer.
 */
export function chainStructure(chain: readonly string[], host: string, anchors: readonly X509Certificate[] | null): ChainStructure {
  const certificates = chain.map((der) => parse(der));
  const problems: string[] = [];
  certificates.forEach((cert, i) => {
    if (!cert) problems.push(`certificate ${i + 1} of the chain is not a DER X.509 certificate (truncated or damaged)`);
  });
  if (problems.length > 0) return { certificates, problems, anchor: null, anchorTrusted: null };
  const certs = certificates as X509Certificate[];
  for (let i = 0; i + 1 < certs.length; i += 1) {
    const ok = certs[i]!.checkIssued(certs[i + 1]!) && certs[i]!.verify(certs[i + 1]!.publicKey);
    if (!ok) problems.push(`certificate ${i + 1} (${distinguishedName(certs[i]!.subject)}) is not signed by certificate ${i + 2} of the chain`);
  }
  const last = certs[certs.length - 1]!;
  const selfSigned = last.checkIssued(last) && last.verify(last.publicKey);
  let anchorTrusted: boolean | null = null;
  if (anchors) {
    anchorTrusted = anchors.some(
      (anchor) => anchor.fingerprint256 === last.fingerprint256 || (!selfSigned && last.checkIssued(anchor) && last.verify(anchor.publicKey)),
    );
  }
  if (!selfSigned && anchorTrusted !== true)
    problems.push(`the chain ends in ${distinguishedName(last.subject)}, which is not self-signed nor issued by a trusted anchor`);
  if (!namesHost(certs[0]!, host)) problems.push(`the leaf certificate does not name ${host} in its subjectAltName`);
  return { certificates, problems, anchor: distinguishedName(last.subject), anchorTrusted };
}

/** The chain at `at`: the structure's problems plus every certificate outside its validity window. */
export function chainAt(structure: ChainStructure, at: Date): ChainCheck {
  const problems = [...structure.problems];
  let leafValidTo: string | null = null;
  structure.certificates.forEach((cert, i) => {
    if (!cert) return;
    const from = new Date(cert.validFrom);
    const to = new Date(cert.validTo);
    if (i === 0) leafValidTo = isoSeconds(cert.validTo);
    const name = i === 0 ? 'the leaf certificate' : `certificate ${i + 1} (${distinguishedName(cert.subject)})`;
    if (at.getTime() > to.getTime()) problems.push(`${name} expired at ${isoSeconds(cert.validTo)}`);
    else if (at.getTime() < from.getTime()) problems.push(`${name} is not valid before ${isoSeconds(cert.validFrom)}`);
  });
  return { valid: problems.length === 0, problems, leafValidTo };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** PEM text (one or more certificates) → certificates; what does not parse is left out. */
export function parseAnchors(pems: readonly string[]): X509Certificate[] {
  return anchorBlocks(pems, () => true);
}

function anchorBlocks(pems: readonly string[], wanted: (der: Uint8Array) => boolean): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const text of pems) {
    for (const [block, body] of text.matchAll(PEM_BLOCK)) {
      if (!wanted(new Uint8Array(Buffer.from(body!, 'base64')))) continue;
      try {
        out.push(new X509Certificate(block));
      } catch {
        // A store entry that does not parse trusts nothing.
      }
    }
  }
  return out;
}

/**
 * The anchors among `pems` that the chains can use, parsing only those: `chainStructure` trusts a
 * chain whose last certificate is an anchor (the same DER), or — only when that certificate is not
 * self-signed — one an anchor issued. So when every chain ends self-signed, as the chains a
 * handshake records do, the anchors are found by the SHA-256 of their DER and only they are
 * parsed; otherwise all are. The same answer as `parseAnchors(pems)`, without parsing this
 * machine's ~140 roots (~0.5 ms each) for every bundle.
 */
export function anchorsFor(chains: ReadonlyArray<readonly string[]>, pems: readonly string[]): X509Certificate[] {
  const lasts = chains.filter((chain) => chain.length > 0).map((chain) => chain[chain.length - 1]!);
  const issuedElsewhere = lasts.some((der) => {
    const cert = parse(der);
    return cert !== null && !(cert.checkIssued(cert) && cert.verify(cert.publicKey));
  });
  if (issuedElsewhere) return parseAnchors(pems);
  const digests = new Set(lasts.map((der) => fromBase64(der)).flatMap((bytes) => (bytes ? [sha256Hex(bytes)] : [])));
  if (digests.size === 0) return [];
  return anchorBlocks(pems, (der) => digests.has(sha256Hex(der)));
}
