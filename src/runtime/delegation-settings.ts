/**
 * The delegation registry's settings, read from the environment alike by the daemon
 * (src/server/limits.ts) and by `svc verify-delegation --register` (the CLI's local registry):
 * one reading, so both follow the same roots and the same longest registration.
 */
import { parseDid } from '../core/did/syntax.js';
import { DEFAULT_REGISTRATION_MAX_DAYS } from '../core/delegation/registry.js';
import { ConfigError, intFromEnv } from './node.js';

/** SVC_DELEGATION_ROOTS: comma-separated bare DIDs; unset or blank → null (any root). */
export function delegationRootsFromEnv(env: NodeJS.ProcessEnv): string[] | null {
  const raw = env['SVC_DELEGATION_ROOTS'];
  if (raw === undefined || raw.trim() === '') return null;
  const roots = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (roots.length === 0) throw new ConfigError('SVC_DELEGATION_ROOTS must list DIDs separated by commas');
  for (const root of roots) {
    try {
      parseDid(root);
    } catch (err) {
      throw new ConfigError(`SVC_DELEGATION_ROOTS: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return [...new Set(roots)];
}

/** SVC_REGISTRATION_MAX_DAYS (1..3660, default 366): read by the daemon and by `svc verify-delegation --register`. */
export function registrationMaxDaysFromEnv(env: NodeJS.ProcessEnv): number {
  return intFromEnv(env, 'SVC_REGISTRATION_MAX_DAYS', DEFAULT_REGISTRATION_MAX_DAYS, 1, 3_660);
}
