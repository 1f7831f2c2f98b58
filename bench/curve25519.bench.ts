/**
 * Curve25519 micro-benchmarks against @noble/curves, in the same process, samples interleaved:
 *
 *  - the field inversion of the X25519 derivation: svc's Lehmer extended Euclid against noble's
 *    Fp.inv, and against the plain extended Euclid svc used before (kept here as the baseline);
 *  - the Legendre symbol of the point check, (y² − 1)(d·y² + 1) mod p: svc's Jacobi symbol along
 *    Lehmer's Euclid against noble's FpLegendre (Euler's criterion, a^((p−1)/2)), and against the
 *    binary Jacobi algorithm svc used before;
 *  - an Ed25519 public key checked and converted to X25519, as an uncached did:key resolution
 *    does: svc's Jacobi-symbol check and map against noble's decoding, small-order test and map.
 *
 * The keys walk a pool larger than the key-check memo, so no call is answered from it. Each
 * side's answers are compared on the whole pool before timing; a disagreement throws.
 */
import { FpLegendre } from '@noble/curves/abstract/modular.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { checkEd25519, invert, invertEuclid as euclid, jacobi, jacobiBinary, KEY_CHECK_MEMO, P25519, x25519FromEd25519Y } from '../src/core/keys/curves.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const POOL = 8 * KEY_CHECK_MEMO;
const Fp = ed25519.Point.Fp;
const D = Fp.div(Fp.neg(121665n), 121666n);

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
  // The value whose symbol the point check takes, for the y of each key: half squares, half not
  // (valid keys alone would all be squares).
  const curveValues = keys.map((k, i) => {
    const y = (BigInt(`0x${Buffer.from(k).reverse().toString('hex')}`) & ((1n << 255n) - 1n)) + BigInt(i & 1);
    const y2 = Fp.sqr(y);
    return Fp.mul(Fp.sub(y2, 1n), Fp.add(Fp.mul(D, y2), 1n));
  });
  for (const w of curveValues) {
    const expected = FpLegendre(Fp, w);
    if (jacobi(w, P25519) !== expected || jacobiBinary(w, P25519) !== expected) throw new Error(`the Legendre symbols disagree on ${w}`);
  }
  const [lehmerJacobi, nobleLegendre, binaryJacobi] = await compareThroughput([
    (i) => jacobi(curveValues[i % POOL]!, P25519),
    (i) => FpLegendre(Fp, curveValues[i % POOL]!),
    (i) => jacobiBinary(curveValues[i % POOL]!, P25519),
  ]);
  const [lehmer, noble, plain] = await compareThroughput([
    (i) => invert(elements[i % POOL]!),
    (i) => Fp.inv(elements[i % POOL]!),
    (i) => euclid(elements[i % POOL]!),
  ]);
  const [svcKey, nobleKey] = await compareThroughput([(i) => svcCheckAndConvert(keys[i % POOL]!), (i) => nobleCheckAndConvert(keys[i % POOL]!)]);
  return [
    {
      operation: 'Legendre symbol of the Ed25519 point check, Jacobi along Lehmer’s Euclid',
      unit: 'ops/s',
      svc: median(lehmerJacobi!),
      peer: '@noble/curves FpLegendre (Euler’s criterion)',
      peerValue: median(nobleLegendre!),
      goal: { op: '>=', ratio: 1.0 },
      status: 'ok',
      note: `the binary Jacobi algorithm used before: ${Math.round(median(binaryJacobi!))} ops/s (${(median(lehmerJacobi!) / median(binaryJacobi!)).toFixed(2)}x faster now)`,
      samples: { svc: lehmerJacobi!, peer: nobleLegendre! },
    },
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
