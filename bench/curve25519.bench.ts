/**
 * Curve25519 micro-benchmarks against @noble/curves, in the same process, samples interleaved:
 *
 *  - the field inversion of the X25519 derivation: svc's Lehmer extended Euclid against noble's
 *    Fp.inv, and against the plain extended Euclid svc used before (kept here as the baseline);
 *  - an Ed25519 public key checked and converted to X25519, as an uncached did:key resolution
 *    does: svc's Jacobi-symbol check and map against noble's decoding, small-order test and map.
 *
 * The keys walk a pool larger than the key-check memo, so no call is answered from it. Each
 * side's answers are compared on the whole pool before timing; a disagreement throws.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { checkEd25519, invert, invertEuclid as euclid, KEY_CHECK_MEMO, P25519, x25519FromEd25519Y } from '../src/core/keys/curves.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const POOL = 8 * KEY_CHECK_MEMO;
const Fp = ed25519.Point.Fp;

function le(value: bigint): Uint8Array {
  return new Uint8Array(Buffer.from(value.toString(16).padStart(64, '0'), 'hex')).reverse();
}

function nobleCheckAndConvert(bytes: Uint8Array): Uint8Array {
  const point = ed25519.Point.fromBytes(bytes);
  if (point.is0() || point.isSmallOrder()) throw new Error('small order');
  const y = point.y;
  return le(Fp.mul(Fp.add(1n, y), Fp.inv(Fp.sub(1n, y))));
}

async function svcCheckAndConvert(bytes: Uint8Array): Promise<Uint8Array> {
  const check = await checkEd25519(bytes);
  if (!check.ok) throw new Error(check.reason);
  return x25519FromEd25519Y(check.y);
}

export async function run(): Promise<BenchRow[]> {
  const keys = Array.from({ length: POOL }, () => ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
  const elements = keys.map((k) => (BigInt(`0x${Buffer.from(k).reverse().toString('hex')}`) % (P25519 - 1n)) + 1n);
  for (const [i, k] of keys.entries()) {
    const e = elements[i]!;
    if (invert(e) !== Fp.inv(e) || euclid(e) !== Fp.inv(e)) throw new Error(`the inversions disagree on ${e}`);
    if (Buffer.compare(await svcCheckAndConvert(k), nobleCheckAndConvert(k)) !== 0) throw new Error('the X25519 conversions disagree');
  }
  const [lehmer, noble, plain] = await compareThroughput([
    (i) => invert(elements[i % POOL]!),
    (i) => Fp.inv(elements[i % POOL]!),
    (i) => euclid(elements[i % POOL]!),
  ]);
  const [svcKey, nobleKey] = await compareThroughput([(i) => svcCheckAndConvert(keys[i % POOL]!), (i) => nobleCheckAndConvert(keys[i % POOL]!)]);
  return [
    {
      operation: 'Curve25519 field inversion (X25519 derivation), Lehmer',
      unit: 'ops/s',
      svc: median(lehmer!),
      peer: '@noble/curves Fp.inv',
      peerValue: median(noble!),
      goal: { op: '>=', ratio: 1.0 },
      status: 'ok',
      note: `the plain extended Euclid used before: ${Math.round(median(plain!))} ops/s`,
      samples: { svc: lehmer!, peer: noble! },
    },
    {
      operation: 'Ed25519 public key checked and converted to X25519 (uncached)',
      unit: 'ops/s',
      svc: median(svcKey!),
      peer: '@noble/curves fromBytes + isSmallOrder + map',
      peerValue: median(nobleKey!),
      goal: { op: '>=', ratio: 1.0 },
      status: 'ok',
      samples: { svc: svcKey!, peer: nobleKey! },
    },
  ];
}
