/**
 * Enveloped credentials and presentations (W3C VC-JOSE-COSE, "Enveloped verifiable
 * credentials"): an EnvelopedVerifiableCredential (or EnvelopedVerifiablePresentation) object
 * whose `id` is a data: URL holding the compact JWT or SD-JWT that secures it. The VC-API
 * binding and the presentation verifier read them here, then verify the compact form as a
 * credential (or presentation) handed over as a string.
 */
import type { JsonObject } from '../encoding/json.js';
import { truncate } from '../text.js';

export type Envelope = { kind: 'compact'; text: string } | { kind: 'malformed'; reason: string };

/** What an envelope may hold: its media types, and `sd` for an SD-JWT (with `~`). */
const MEDIA_TYPES = {
  credential: {
    'application/vc+jwt': { sd: false },
    'application/vc+sd-jwt': { sd: true },
    'application/dc+sd-jwt': { sd: true },
  },
  presentation: {
    'application/vp+jwt': { sd: false },
  },
} as const satisfies Record<string, Record<string, { sd: boolean }>>;

export type EnvelopeContent = keyof typeof MEDIA_TYPES;

/** True when `value`'s `type` is `name` or includes it. */
export function hasType(value: JsonObject, name: string): boolean {
  const type = value['type'];
  return type === name || (Array.isArray(type) && type.includes(name));
}

/** The compact JWT or SD-JWT of an envelope's `id` (`data:<media type>[;base64],<data>`). */
export function readEnvelope(envelope: JsonObject, content: EnvelopeContent = 'credential'): Envelope {
  const name = content === 'credential' ? 'EnvelopedVerifiableCredential' : 'EnvelopedVerifiablePresentation';
  const malformed = (reason: string): Envelope => ({ kind: 'malformed', reason });
  const id = envelope['id'];
  if (typeof id !== 'string') return malformed(`The ${name} has no "id" string; it must be a data: URL holding the ${content}.`);
  if (!/^data:/i.test(id)) return malformed(`The ${name} "id" is not a data: URL: ${JSON.stringify(truncate(id, 60))}.`);
  const comma = id.indexOf(',');
  if (comma < 0) return malformed(`The ${name} "id" is a data: URL without the comma before its data.`);
  const [mediaType = '', ...parameters] = id
    .slice('data:'.length, comma)
    .split(';')
    .map((p) => p.trim().toLowerCase());
  const types: Readonly<Record<string, { sd: boolean }>> = MEDIA_TYPES[content];
  const accepted = types[mediaType];
  if (accepted === undefined) {
    return malformed(
      `The data: URL's media type ${JSON.stringify(truncate(mediaType, 60))} is not one svc verifies in an envelope; it takes ${Object.keys(types).join(', ')}.`,
    );
  }
  const base64 = parameters.includes('base64');
  if (parameters.some((p) => p !== 'base64' && !p.startsWith('charset='))) return malformed('The data: URL has a parameter other than base64 or charset.');
  let data = id.slice(comma + 1);
  try {
    data = decodeURIComponent(data);
  } catch {
    return malformed("The data: URL's data has malformed percent-encoding.");
  }
  if (base64) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return malformed("The data: URL's base64 data is not base64.");
    data = Buffer.from(data, 'base64').toString('utf8');
  }
  if (data.length === 0) return malformed(`The data: URL holds no ${content}.`);
  const segment = '[A-Za-z0-9_-]+';
  const jwt = new RegExp(`^${segment}\\.${segment}\\.${segment}$`);
  if (accepted.sd) {
    if (!data.includes('~') || !jwt.test(data.slice(0, data.indexOf('~')))) {
      return malformed(`The data: URL of media type ${mediaType} does not hold an SD-JWT (<JWT>~<disclosure>~…).`);
    }
  } else if (!jwt.test(data)) {
    return malformed(`The data: URL of media type ${mediaType} does not hold a compact JWT (three base64url parts).`);
  }
  return { kind: 'compact', text: data };
}
