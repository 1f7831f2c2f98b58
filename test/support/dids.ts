/** DIDs shared by several tests. */

/** The Ed25519 did:key of the did:key specification's example (README's embedded default). */
export const ED25519_DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

/** did:jwk of a P-256 "point" (0, 0), which is not on the curve (Wycheproof tcId 331). */
export const OFF_CURVE_DID = `did:jwk:${Buffer.from(
  JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', y: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
).toString('base64url')}`;
