/**
 * Which resolutions the daemon records in the observation history
 * (docs/operations.md#bounded-history). On the public profile a self-certifying DID (did:key,
 * did:jwk) is not recorded: its document is a pure function of the identifier and can never change,
 * so its history says nothing, while anyone can mint fresh identifiers without end. The direct
 * profile and the CLI record them.
 */
import { driverFor } from '../core/methods/registry.js';
import type { EnrichedResolution } from '../core/resolve/types.js';
import type { Profile } from './limits.js';

export function shouldRecord(ctx: { readonly profile: Profile }, result: Pick<EnrichedResolution, 'method'>): boolean {
  return ctx.profile !== 'public' || driverFor(result.method)?.selfCertifying !== true;
}
