/**
 * did:webvh v1.0 "DID-to-HTTPS transformation": `did:webvh:<scid>:<domain>[:path…]` →
 * `https://<domain>[/<path>]/did.jsonl` (`/.well-known/did.jsonl` without a path), and the
 * witness file beside it. Domain and path rules are those of did:web (src/core/methods/
 * web-location.ts); the SCID is 46 base58btc characters. The host and path are checked before
 * the SCID, so a hostile location is reported as such whatever the SCID says.
 */
import { ProblemError } from '../problems.js';
import { webLocation, type WebLocation } from '../methods/web-location.js';

const SCID = /^[1-9A-HJ-NP-Za-km-z]{46}$/;

export interface DidWebvhLocation extends WebLocation {
  scid: string;
  /** The DID log (`did.jsonl`). */
  logUrl: string;
  /** The witness proofs file (`did-witness.json`); its absence means no approvals. */
  witnessUrl: string;
}

export function didWebvhLocation(id: string): DidWebvhLocation {
  const [scid = '', authority, ...segments] = id.split(':');
  if (authority === undefined || authority === '') {
    throw new ProblemError('INVALID_DID', 'Not a valid did:webvh: a domain must follow the SCID (did:webvh:<scid>:<domain>).');
  }
  const location = webLocation('webvh', authority, segments);
  if (!SCID.test(scid)) {
    throw new ProblemError('INVALID_DID', `Not a valid did:webvh: the SCID "${scid}" is not 46 base58btc characters.`);
  }
  return { ...location, scid, logUrl: location.fileUrl('did.jsonl'), witnessUrl: location.fileUrl('did-witness.json') };
}
