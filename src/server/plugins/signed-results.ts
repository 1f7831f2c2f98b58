/**
 * Signed results (docs/daemon.md#signed-results): when a request asked `signed=true` (signing.ts
 * marked it), its answer — a result, never a problem — carries `svc-signature`, a compact detached
 * JWS over the RFC 8785 form of the body exactly as sent (parsed back from the bytes the route's
 * schema serialised, so the signed value is the one a client reads). A cached resolution is signed
 * now, at answer time. A body that cannot be signed fails the request (500): a signed request never
 * gets an unsigned result.
 */
import type { FastifyInstance } from 'fastify';
import { compactDetached, RESULT_SIGNATURE_TYP, SIGNATURE_HEADER } from '../../core/signing/index.js';
import type { ServerContext } from '../context.js';
import { isSignedRequest } from '../signing.js';

/** onSend: signs the answer of a request marked signed. */
export function signedResults(app: FastifyInstance, ctx: ServerContext): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isSignedRequest(request)) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    // A problem is no result: it is not signed (the client sees the error as such).
    if (!type.startsWith('application/json')) return payload;
    if (typeof payload !== 'string' || ctx.signer === undefined) throw new Error('a signed answer could not be signed: its body is not JSON text');
    const jws = ctx.signer.sign(JSON.parse(payload) as unknown, RESULT_SIGNATURE_TYP);
    reply.header(SIGNATURE_HEADER, compactDetached(jws));
    return payload;
  });
}
