/** DID URL dereferencing (SPEC §4.4). */
export {
  checkRelativeRef,
  dereference,
  DID_PARAMETERS,
  DID_RESOLUTION_CONTEXT,
  parseDidParameters,
  readDidUrl,
  type DereferenceOptions,
  type DereferencedContentType,
  type DereferencingResult,
  type DidParameter,
  type DidUrlRequest,
} from './dereference.js';
