/**
 * Delegation receipts for tests: a did:key principal from a fresh Ed25519 key, and one receipt
 * (svc-delegation+jwt, docs/delegation.md#receipts) signed by its issuer with jose — an independent
 * signer, so the verifier is not checked against itself.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { generateTestKey } from './signing.js';

export interface Principal {
  did: string;
  kid: string;
  privateKey: KeyObject;
}

/** A did:key principal from a fresh Ed25519 key. */
export function didKeyPrincipal(): Principal {
  const key = generateTestKey('EdDSA');
  const did = `did:key:${key.multikey!}`;
  return { did, kid: `${did}#${key.multikey!}`, privateKey: key.privateKey };
}

export interface ReceiptOptions {
  cap?: string[];
  /** Seconds; default a minute before `now`. */
  nbf?: number;
  /** Seconds; default an hour after `now`. */
  exp?: number;
  /** The parent receipt (its digest becomes `prf`). */
  parent?: string;
  /** Seconds; default the wall clock. */
  now?: number;
}

/** One receipt from `iss` to `aud` (`cap: ['*']` unless given). */
export async function mintReceipt(iss: Principal, aud: Principal, options: ReceiptOptions = {}): Promise<string> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: iss.did,
    aud: aud.did,
    cap: options.cap ?? ['*'],
    nbf: options.nbf ?? now - 60,
    exp: options.exp ?? now + 3600,
    jti: `urn:uuid:${crypto.randomUUID()}`,
    ...(options.parent ? { prf: createHash('sha256').update(options.parent).digest('hex') } : {}),
  })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: iss.kid })
    .sign(iss.privateKey);
}
