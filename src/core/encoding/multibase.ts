/** Multibase: the base58btc (`z`) and base64url (`u`) encodings svc reads and writes. */
import { base58Decode, base58Encode } from './base58.js';
import { base64urlDecode, base64urlEncode } from './base64url.js';

export type MultibaseEncoding = 'base58btc' | 'base64url';

export interface MultibaseDecoded {
  encoding: MultibaseEncoding;
  bytes: Uint8Array;
}

/** Returns null for an unknown prefix or malformed data. */
export function multibaseDecode(text: string): MultibaseDecoded | null {
  const prefix = text[0];
  const body = text.slice(1);
  if (body.length === 0) return null;
  if (prefix === 'z') {
    const bytes = base58Decode(body);
    return bytes ? { encoding: 'base58btc', bytes } : null;
  }
  if (prefix === 'u') {
    const bytes = base64urlDecode(body);
    return bytes ? { encoding: 'base64url', bytes } : null;
  }
  return null;
}

export function multibaseEncode(bytes: Uint8Array, encoding: MultibaseEncoding = 'base58btc'): string {
  return encoding === 'base58btc' ? `z${base58Encode(bytes)}` : `u${base64urlEncode(bytes)}`;
}
