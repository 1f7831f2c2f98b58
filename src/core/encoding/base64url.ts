/** Strict base64url (RFC 4648 §5) without padding, as used by JOSE and did:jwk. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Decodes unpadded base64url. Returns null for padding, characters outside the alphabet, an
 * impossible length, or a non-canonical encoding (trailing bits set), so that one value has
 * exactly one textual form.
 */
export function base64urlDecode(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return null;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function base64urlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}
