/**
 * Signed results (docs/daemon.md#signed-results): when a request asked `signed=true` (signing.ts
 * marked it), its answer — a result, never a problem — carries `svc-signature`, a compact detached
 * JWS over the RFC 8785 form of the body exactly as sent (parsed back from the bytes the route's
 * schema serialised, so the signed value is the one a client reads). A cached resolution is signed
 * now, at answer time. A body that cannot be signed fails the request (500): a signed request never
 * gets an unsigned result.
 *
 * A cached result's body is the same text at every answer: its RFC 8785 form is prepared once and
 * kept by that text (the last PREPARED_ENTRIES bodies, PREPARED_BYTES of text at most), so each
 * answer costs only the signature.
 */
import type { FastifyInstance } from 'fastify';
import { canonicalPayload, compactDetached, RESULT_SIGNATURE_TYP, SIGNATURE_HEADER, type CanonicalPayload } from '../../core/signing/index.js';
import type { ServerContext } from '../context.js';
import { isSignedRequest } from '../signing.js';

const PREPARED_ENTRIES = 64;
const PREPARED_BYTES = 8 * 1024 * 1024;

/** Prepared payloads by body text, least recently used first. */
class PreparedPayloads {
  readonly #entries = new Map<string, CanonicalPayload>();
  #chars = 0;

  of(text: string): CanonicalPayload {
    const kept = this.#entries.get(text);
    if (kept !== undefined) {
      this.#entries.delete(text);
      this.#entries.set(text, kept);
      return kept;
    }
    const payload = canonicalPayload(JSON.parse(text) as unknown);
    // Characters count for bytes here (a JS string holds 1 or 2 bytes each): the bound is rough, and low.
    if (text.length > PREPARED_BYTES / 4) return payload;
    this.#entries.set(text, payload);
    this.#chars += text.length;
    for (const [oldest] of this.#entries) {
      if (this.#entries.size <= PREPARED_ENTRIES && this.#chars <= PREPARED_BYTES) break;
      this.#entries.delete(oldest);
      this.#chars -= oldest.length;
    }
    return payload;
  }
}

/** onSend: signs the answer of a request marked signed. Callback-style: no promise per request on the hot path. */
export function signedResults(app: FastifyInstance, ctx: ServerContext): void {
  const prepared = new PreparedPayloads();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isSignedRequest(request)) {
      done(null, payload);
      return;
    }
    // A problem is no result: it is not signed (the client sees the error as such).
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      done(null, payload);
      return;
    }
    try {
      // A cached result's body comes as its kept bytes (routes/resolution.ts), any other as text.
      const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
      if (typeof text !== 'string' || ctx.signer === undefined) throw new Error('a signed answer could not be signed: its body is not JSON text');
      const jws = ctx.signer.signPayload(prepared.of(text), RESULT_SIGNATURE_TYP);
      reply.header(SIGNATURE_HEADER, compactDetached(jws));
      done(null, payload);
    } catch (err) {
      done(err as Error);
    }
  });
}
