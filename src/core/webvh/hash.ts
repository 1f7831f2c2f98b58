/**
 * The hashes of did:webvh v1.0 (spec §"The DID Log File", "SCID Generation and Verification",
 * "Entry Hash Generation and Verification", "Pre-Rotation Key Hash Generation"):
 *
 *   H(x) = base58btc( multihash_sha2-256( JCS(x) ) )      — no multibase prefix, starts "Qm"
 *
 * v1.0 allows only SHA-256 (multihash code 0x12, length 0x20).
 */
import { canonicalize, sha256 } from '../canonical.js';
import { base58Encode } from '../encoding/base58.js';

/** The literal the SCID is replaced with while it is computed. */
export const SCID_PLACEHOLDER = '{SCID}';

const MULTIHASH_SHA256 = [0x12, 0x20] as const;

function multihashSha256(data: string | Uint8Array): Uint8Array {
  const digest = sha256(data);
  const out = new Uint8Array(2 + digest.length);
  out.set(MULTIHASH_SHA256, 0);
  out.set(digest, 2);
  return out;
}

/** H(x) of a JSON value: base58btc of the SHA-256 multihash of its JCS form. */
export function webvhHash(value: unknown): string {
  return webvhHashOfJcs(canonicalize(value));
}

/** H(x) given the JCS text of x. */
export function webvhHashOfJcs(jcs: string): string {
  return base58Encode(multihashSha256(jcs));
}

/** Pre-rotation hash of a multikey: base58btc(multihash_sha256(the multikey string)), no JCS. */
export function preRotationHash(multikey: string): string {
  return base58Encode(multihashSha256(multikey));
}

function withoutProof(entry: Record<string, unknown>): Record<string, unknown> {
  const { proof: _proof, ...rest } = entry;
  return rest;
}

/**
 * The SCID a first log entry commits to: the entry without its proof, `versionId` set to
 * "{SCID}", and every occurrence of the SCID text replaced by "{SCID}" (the spec's text
 * replacement, done on the JSON text so that nested occurrences — in `state.id`, in keys'
 * controllers — are all covered).
 */
export function computeScid(firstEntry: Record<string, unknown>, scid: string): string {
  if (scid === '') return '';
  const preliminary = { ...withoutProof(firstEntry), versionId: SCID_PLACEHOLDER };
  const text = JSON.stringify(preliminary).split(scid).join(SCID_PLACEHOLDER);
  return webvhHash(JSON.parse(text));
}

/**
 * The entry hash of a log entry: the entry without its proof, with `versionId` set to the
 * previous entry's versionId (the SCID for the first entry).
 */
export function computeEntryHash(entry: Record<string, unknown>, previousVersionId: string): string {
  return webvhHash({ ...withoutProof(entry), versionId: previousVersionId });
}
