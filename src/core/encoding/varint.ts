/** Unsigned LEB128 varint as used by multicodec (at most 9 bytes, minimal encoding). */
export interface Varint {
  value: number;
  length: number;
}

/** Returns null for a truncated, over-long or non-minimal varint. */
export function readVarint(bytes: Uint8Array, offset = 0): Varint | null {
  let value = 0;
  let shift = 0;
  for (let i = offset; i < bytes.length && i - offset < 9; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) {
      const length = i - offset + 1;
      // Minimal encoding: a multi-byte varint must not end with a zero byte.
      if (length > 1 && b === 0) return null;
      if (!Number.isSafeInteger(value)) return null;
      return { value, length };
    }
    shift += 7;
  }
  return null;
}

export function writeVarint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}
