/** Strict base64url (RFC 4648 §5) without padding, as used by JOSE and did:jwk. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The 6-bit value of each base64url character, by char code. */
const SEXTET: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

export function base64urlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/**
 * Decodes unpadded base64url. Returns null for padding, characters outside the alphabet, an
 * impossible length, or a non-canonical encoding (trailing bits set), so that one value has
 * exactly one textual form.
 */
export function base64urlDecode(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  return base64urlDecodeAlphabetChecked(text);
}

/** base64urlDecode of text already known to hold only `[A-Za-z0-9_-]`. */
export function base64urlDecodeAlphabetChecked(text: string): Uint8Array | null {
  const rest = text.length % 4;
  if (rest === 1) return null;
  // Canonical: the bits of the last character that encode no byte are zero (4 of them after
  // 2 characters of a group, 2 after 3). With the alphabet checked, that is exactly "encoding
  // the bytes again gives the same text", without encoding them again.
  if (rest !== 0 && (SEXTET[text.charCodeAt(text.length - 1)]! & (rest === 2 ? 0x0f : 0x03)) !== 0) return null;
  const bytes = Buffer.from(text, 'base64url');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
