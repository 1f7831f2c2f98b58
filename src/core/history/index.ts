/** Observation history and semantic diff (docs/history.md). */
export { semanticDiff } from './diff.js';
export {
  DEFAULT_HISTORY_LIMIT,
  HISTORY_NOTE,
  MAX_HISTORY_LIMIT,
  diffOf,
  observedChanges,
  historyOf,
  observationOf,
  recordObservation,
  type DiffSelection,
  type RecordOptions,
} from './history.js';
export {
  checkHashPrefix,
  documentHashes,
  expandHashPrefix,
  historyPrefixLength,
  HASH_LENGTH,
  MIN_HASH_PREFIX,
  SHOWN_HASH_PREFIX,
  uniquePrefixLength,
  type HashOption,
} from './prefix.js';
export type { ObservationHistory, RelationshipChange, SemanticDiff } from './types.js';
