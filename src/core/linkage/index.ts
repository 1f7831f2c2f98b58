/** Domain linkage: DIF Well Known DID Configuration, verified from fetched bytes. */
export { unfetchedBinding, verifyDidConfiguration } from './verify.js';
export {
  DID_CONFIGURATION_CONTEXT,
  DOMAIN_BINDING_STATUSES,
  LINKAGE_CREDENTIAL_FORMATS,
  MAX_LINKED_DIDS,
  type DomainBindingEvidence,
  type DomainBindingStatus,
  type LinkageCredentialEvidence,
  type LinkageCredentialFormat,
  type LinkageCredentialStatus,
  type LinkageInput,
} from './types.js';
