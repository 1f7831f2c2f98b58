/** The DID methods svc resolves. Methods are added here and nowhere else. */
import { didJwk } from './jwk.js';
import { didKey } from './key.js';
import { ProblemError } from '../problems.js';
import type { MethodDriver } from './types.js';
import { didWeb } from './web.js';
import { didWebvh } from './webvh.js';

const DRIVERS: ReadonlyMap<string, MethodDriver> = new Map([didKey, didJwk, didWeb, didWebvh].map((d) => [d.method, d]));

/** Methods named by the SPEC; those without a driver yet answer METHOD_NOT_SUPPORTED too. */
export const SUPPORTED_METHODS: readonly string[] = [...DRIVERS.keys()];

export function driverFor(method: string): MethodDriver | undefined {
  return DRIVERS.get(method);
}

/**
 * METHOD_NOT_SUPPORTED unless svc resolves the method of `did` (a parsed, bare DID); `consequence`
 * says what that means for the request ("so it cannot be watched").
 */
export function requireResolvable(did: string, consequence: string): void {
  const method = did.split(':', 2)[1]!;
  if (!driverFor(method)) throw new ProblemError('METHOD_NOT_SUPPORTED', `did:${method} is not a method svc resolves, ${consequence}.`);
}
