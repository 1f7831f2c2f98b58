/** base58btc (Bitcoin alphabet), the `z` multibase. Strict: any other character is an error. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // log(256)/log(58) ≈ 1.366: upper bound of output digits.
  const size = (((bytes.length - zeros) * 138) / 100 + 1) | 0;
  const digits = new Uint8Array(size);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    let j = 0;
    for (let k = size - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 256 * digits[k]!;
      digits[k] = carry % 58;
      carry = (carry / 58) | 0;
    }
    length = j;
  }
  let start = size - length;
  while (start < size && digits[start] === 0) start++;
  let out = '1'.repeat(zeros);
  for (let i = start; i < size; i++) out += ALPHABET[digits[i]!];
  return out;
}

const LIMB = 0x1000000; // 2^24: limb × 58^4 + carry stays below 2^53

/**
 * Decodes base58btc; returns null when the text holds a character outside the alphabet. The
 * number is built in 24-bit limbs, four digits at a time (58^4 < 2^24): a 64-byte signature
 * takes some 500 limb steps instead of 5,600 byte steps.
 */
export function base58Decode(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // log(58)/log(256) ≈ 0.733 bytes per digit: an upper bound of the limbs needed.
  const limbs = new Float64Array(((((text.length - zeros) * 733) / 1000 + 1) / 3 + 2) | 0);
  let used = 0;
  let i = zeros;
  while (i < text.length) {
    let multiplier = 1;
    let carry = 0;
    for (let g = 0; g < 4 && i < text.length; g++, i++) {
      const c = text.charCodeAt(i);
      const value = c < 128 ? DECODE[c]! : -1;
      if (value < 0) return null;
      carry = carry * 58 + value;
      multiplier *= 58;
    }
    for (let k = 0; k < used; k++) {
      const x = limbs[k]! * multiplier + carry;
      carry = Math.floor(x / LIMB);
      limbs[k] = x - carry * LIMB;
    }
    while (carry > 0) {
      const high = Math.floor(carry / LIMB);
      limbs[used++] = carry - high * LIMB;
      carry = high;
    }
  }
  // Big-endian bytes of the number without leading zero bytes, after `zeros` zero bytes.
  let significant = used * 3;
  if (used > 0) {
    const top = limbs[used - 1]!;
    significant -= top >= 0x10000 ? 0 : top >= 0x100 ? 1 : 2;
  }
  const out = new Uint8Array(zeros + significant);
  let at = out.length - 1;
  for (let k = 0; k < used && at >= zeros; k++) {
    let limb = limbs[k]!;
    for (let b = 0; b < 3 && at >= zeros; b++) {
      out[at--] = limb & 0xff;
      limb = limb >>> 8;
    }
  }
  return out;
}
