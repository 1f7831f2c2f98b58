/** DID URL dereferencing (docs/evidence.md#dereferencing-and-the-graph). */
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
