// Preloaded with `node --import` by the CLI tests: makes importing ink or react fail loudly,
// so a test can show that a code path never loads them.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'ink' || specifier === 'react' || specifier.startsWith('react/')) {
    throw new Error('forbidden import: ' + specifier);
  }
  return next(specifier, context);
}`),
);
