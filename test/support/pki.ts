/**
 * A throw-away PKI for tests: a minimal DER writer and an X.509 v3 certificate builder on top of
 * node:crypto (ECDSA P-256, ecdsa-with-SHA256). No openssl CLI, no extra packages.
 *
 *   const ca = createTestCa();
 *   const leaf = ca.issue({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
 *   https.createServer({ key: leaf.keyPem, cert: leaf.certPem + ca.certPem }, ...);
 *   https.get({ ..., ca: ca.certPem, servername: 'localhost' });
 *
 * Only what certificates need is implemented; it is not a general ASN.1 library.
 */
import type crypto from 'node:crypto';
import { buildCertificate, certifiedKey, encodeName, freshKeyPair, keyIdentifier, OID, randomSerial, type CertifiedKey } from '../../src/net/certificate.js';

// The DER writer and the certificate builder live in src (svc webhook listen --tls makes its
// certificate with them); the tests import them from here as before.
export {
  buildCertificate,
  der,
  derToPem,
  encodeName,
  ipAddressBytes,
  KEY_USAGE,
  keyIdentifier,
  OID,
  randomSerial,
  readDer,
  readDerChildren,
  spkiPublicKeyBits,
  TAG,
  type CertificateSpec,
  type CertifiedKey,
  type DerElement,
} from '../../src/net/certificate.js';

// ---------------------------------------------------------------------------------------------
// Test CA
// ---------------------------------------------------------------------------------------------

export interface LeafOptions {
  /** Subject CN; defaults to the first DNS name, else the first IP, else 'svc test leaf'. */
  commonName?: string;
  /** Defaults to ['localhost'] when neither dnsNames nor ipAddresses is given. */
  dnsNames?: string[];
  /** Defaults to ['127.0.0.1'] when neither dnsNames nor ipAddresses is given. */
  ipAddresses?: string[];
  /** Default now − 1 hour. */
  notBefore?: Date;
  /** Default now + 10 days. */
  notAfter?: Date;
  /** Default random positive 64-bit. */
  serial?: bigint;
}

export interface TestCa extends CertifiedKey {
  name: string;
  /** The CA's encoded subject Name (CN=<name>, O=svc tests). */
  subjectDer: Uint8Array;
  /** Issues a leaf (server) certificate signed by this CA. */
  issue(options?: LeafOptions): CertifiedKey;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function newKeyPair(): crypto.KeyPairKeyObjectResult {
  // Not generateKeyPairSync's KeyObjects: exporting them can deadlock Node 20 (see freshKeyPair).
  return freshKeyPair('ec', 'P-256');
}

/** A self-signed CA (default valid now − 1 day … now + 30 days). */
export function createTestCa(name = 'svc test CA', options: { notBefore?: Date; notAfter?: Date } = {}): TestCa {
  const now = Date.now();
  const { publicKey, privateKey } = newKeyPair();
  const subject = encodeName([
    [OID.commonName, name],
    [OID.organizationName, 'svc tests'],
  ]);
  const caKeyId = keyIdentifier(publicKey);
  const caDer = buildCertificate({
    serial: randomSerial(),
    issuer: subject,
    subject,
    notBefore: options.notBefore ?? new Date(now - DAY),
    notAfter: options.notAfter ?? new Date(now + 30 * DAY),
    subjectPublicKey: publicKey,
    signingKey: privateKey,
    authorityKeyId: caKeyId,
    isCa: true,
  });
  return {
    ...certifiedKey(caDer, privateKey),
    name,
    subjectDer: subject,
    issue(leaf: LeafOptions = {}): CertifiedKey {
      const t = Date.now();
      const noNames = leaf.dnsNames === undefined && leaf.ipAddresses === undefined;
      const dnsNames = noNames ? ['localhost'] : (leaf.dnsNames ?? []);
      const ipAddresses = noNames ? ['127.0.0.1'] : (leaf.ipAddresses ?? []);
      const keys = newKeyPair();
      const leafDer = buildCertificate({
        serial: leaf.serial ?? randomSerial(),
        issuer: subject,
        subject: encodeName([
          [OID.commonName, leaf.commonName ?? dnsNames[0] ?? ipAddresses[0] ?? 'svc test leaf'],
          [OID.organizationName, 'svc tests'],
        ]),
        notBefore: leaf.notBefore ?? new Date(t - HOUR),
        notAfter: leaf.notAfter ?? new Date(t + 10 * DAY),
        subjectPublicKey: keys.publicKey,
        signingKey: privateKey,
        authorityKeyId: caKeyId,
        isCa: false,
        dnsNames,
        ipAddresses,
      });
      return certifiedKey(leafDer, keys.privateKey);
    },
  };
}
