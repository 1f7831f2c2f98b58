/** Kept for the shells' imports (`store/errors.js`): the errors live in schema/errors.ts. */
export * from './schema/errors.js';
