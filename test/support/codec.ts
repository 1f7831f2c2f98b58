/**
 * Small reference codecs for tests, written independently of src/core/encoding (BigInt
 * arithmetic rather than the byte-carry loops of the implementation), so a fixture can be
 * decoded without trusting the code under test.
 */
import { createHash } from 'node:crypto';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** base58btc decoding by BigInt; throws on a character outside the alphabet. */
export function refBase58Decode(text: string): Uint8Array {
  let n = 0n;
  for (const ch of text) {
    const v = B58.indexOf(ch);
    if (v < 0) throw new Error(`not base58btc: ${JSON.stringify(ch)}`);
    n = n * 58n + BigInt(v);
  }
  const body: number[] = [];
  while (n > 0n) {
    body.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
}

/** base58btc encoding by BigInt. */
export function refBase58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)]! + out;
    n /= 58n;
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  return '1'.repeat(zeros) + out;
}

/** Unsigned LEB128 (multicodec varint). */
export function refVarint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return Uint8Array.from(out);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** `z` + base58btc(varint(code) ‖ key): a Multikey / did:key method-specific id. */
export function multikey(code: number, key: Uint8Array): string {
  return `z${refBase58Encode(concatBytes(refVarint(code), key))}`;
}

/** Splits a Multikey value into its multicodec code and key bytes (reference decoder). */
export function splitMultikey(value: string): { code: number; key: Uint8Array } {
  if (!value.startsWith('z')) throw new Error(`not a base58btc multibase value: ${value}`);
  const bytes = refBase58Decode(value.slice(1));
  let code = 0;
  let i = 0;
  for (let shift = 1; ; shift *= 128, i++) {
    const b = bytes[i];
    if (b === undefined) throw new Error('truncated varint');
    code += (b & 0x7f) * shift;
    if ((b & 0x80) === 0) break;
  }
  return { code, key: bytes.subarray(i + 1) };
}

export function b64url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64url');
}

export function fromB64url(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64url'));
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/** `did:jwk:` + base64url of the JSON text of `jwk` (members in the given order). */
export function didJwkOf(jwk: Record<string, unknown> | string): string {
  const text = typeof jwk === 'string' ? jwk : JSON.stringify(jwk);
  return `did:jwk:${b64url(text)}`;
}

/**
 * RFC 7638 §3 thumbprint, written out member by member: the required members in
 * lexicographic order, no whitespace, SHA-256, base64url.
 */
export function rfc7638Thumbprint(jwk: { kty: string; crv?: string; x?: string; y?: string; n?: string; e?: string }): string {
  let text: string;
  if (jwk.kty === 'EC') text = `{"crv":"${jwk.crv}","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`;
  else if (jwk.kty === 'OKP') text = `{"crv":"${jwk.crv}","kty":"OKP","x":"${jwk.x}"}`;
  else if (jwk.kty === 'RSA') text = `{"e":"${jwk.e}","kty":"RSA","n":"${jwk.n}"}`;
  else throw new Error(`no RFC 7638 members for kty ${jwk.kty}`);
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}
