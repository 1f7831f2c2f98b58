/**
 * Bodies: JSON only, parsed strictly (duplicate members are ambiguous → 400 INVALID_REQUEST);
 * an empty body is no body. Any other content type is refused by Fastify and answered 400
 * INVALID_REQUEST by the error handler (http.ts problemFromError).
 */
import type { FastifyInstance } from 'fastify';
import { parseJsonStrict, StrictJsonError } from '../../core/encoding/json.js';
import { ProblemError } from '../../core/problems.js';

export function bodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonStrict(text));
    } catch (err) {
      const reason = err instanceof StrictJsonError ? err.message : 'not JSON';
      done(new ProblemError('INVALID_REQUEST', `The request body is not acceptable JSON: ${reason}.`), undefined);
    }
  });
}
