/** The DID methods svc resolves. Methods are added here and nowhere else. */
import { didJwk } from './jwk.js';
import { didKey } from './key.js';
import type { MethodDriver } from './types.js';
import { didWeb } from './web.js';
import { didWebvh } from './webvh.js';

const DRIVERS: ReadonlyMap<string, MethodDriver> = new Map([didKey, didJwk, didWeb, didWebvh].map((d) => [d.method, d]));

/** Methods named by the SPEC; those without a driver yet answer METHOD_NOT_SUPPORTED too. */
export const SUPPORTED_METHODS: readonly string[] = [...DRIVERS.keys()];

export function driverFor(method: string): MethodDriver | undefined {
  return DRIVERS.get(method);
}
