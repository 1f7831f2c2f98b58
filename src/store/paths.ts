/** Kept for the shells' imports (`store/paths.js`): the default path lives in schema/paths.ts. */
export * from './schema/paths.js';
