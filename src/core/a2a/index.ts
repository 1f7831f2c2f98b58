/** A2A agent-card inspection (docs/agents.md#a2a-agent-cards). */
export { inspectA2a, specVersionOf, type A2aInspectOptions } from './inspect.js';
export { canonicalizeA2aCard, type A2aCanonicalForm } from './canonical.js';
export { fetchAgentCard, cardTarget, type FetchedCard } from './fetch.js';
export { A2A_V1_SCHEMA, A2A_V03_SCHEMA, validateCard, type SchemaReport } from './schema.js';
export * from './types.js';
