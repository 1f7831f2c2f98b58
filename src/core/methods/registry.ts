/** The DID methods svc resolves. Methods are added here and nowhere else. */
import { didJwk } from './jwk.js';
import { didKey } from './key.js';
import { ProblemError } from '../problems.js';
import type { MethodDriver } from './types.js';
import { didWebLocation } from './web-location.js';
import { didWebvhLocation } from '../webvh/location.js';

/**
 * A driver whose code (fetching, DID configuration checks, log verification) loads on its first
 * resolution: resolving a did:key never compiles did:web's or did:webvh's (the CLI's cold start).
 * What is read before that — the flags and the syntax check — is given here and is the loaded
 * driver's own (test/unit/method-registry.test.ts compares them).
 */
function lazyDriver(known: Omit<MethodDriver, 'resolve'>, load: () => Promise<MethodDriver>): MethodDriver {
  let loading: Promise<MethodDriver> | undefined;
  return { ...known, resolve: async (did, context) => (await (loading ??= load())).resolve(did, context) };
}

/** did:web (core/methods/web.ts). */
export const lazyDidWeb = lazyDriver(
  { method: 'web', selfCertifying: false, acceptsVersionOptions: false, checkIdentifier: (parsed) => void didWebLocation(parsed.id) },
  async () => (await import('./web.js')).didWeb,
);

/** did:webvh (core/methods/webvh.ts). */
export const lazyDidWebvh = lazyDriver(
  { method: 'webvh', selfCertifying: false, acceptsVersionOptions: true, checkIdentifier: (parsed) => void didWebvhLocation(parsed.id) },
  async () => (await import('./webvh.js')).didWebvh,
);

const DRIVERS: ReadonlyMap<string, MethodDriver> = new Map([didKey, didJwk, lazyDidWeb, lazyDidWebvh].map((d) => [d.method, d]));

/** The methods svc resolves, one driver each; any other answers METHOD_NOT_SUPPORTED. */
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
