/**
 * Schemas of the proofs of control and the directory: a challenge asked
 * for and its terms, a proof submitted and what its check found, the claims of a DID, and a page
 * of the opt-in directory. The shapes are svc's own;
 * docs/daemon.md#proofs-of-control-and-the-directory describes them for users.
 */
import Type, { type TLiteral, type TSchema } from 'typebox';
import {
  CHALLENGE_ATTEMPTS,
  CHALLENGE_TTL,
  CLAIM_METHODS,
  CLAIM_PURPOSES,
  CLAIM_REFUSALS,
  DIRECTORY_LIMIT,
  DIRECTORY_METHODS,
  DIRECTORY_Q_MAX,
} from '../../core/claims/types.js';
import { Nullable, StoredText } from './common.js';

/** One literal schema per value, keeping each value's type (so Static<> is the union of the values). */
const literals = <const T extends readonly string[]>(values: T) =>
  values.map((v) => Type.Literal(v)) as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> };

export const ClaimMethodSchema = Type.Union(literals(CLAIM_METHODS), {
  $id: 'ClaimMethod',
  description:
    'signature: a compact JWS by a key under authentication; well-known: the token at https://<host>/.well-known/svc-claim.txt; dns: the token in a TXT record _svc-claim.<host>.',
});

export const ClaimPurposeSchema = Type.Union(literals(CLAIM_PURPOSES), {
  $id: 'ClaimPurpose',
  description: 'claim: prove control only; list: prove control and opt in to the directory; unlist: prove control and leave the directory.',
});

export const ClaimRefusalCodeSchema = Type.Union(literals(CLAIM_REFUSALS), { $id: 'ClaimRefusalCode' });

const time = (description: string) => Type.String({ description: `${description} RFC 3339 UTC.` });

export const ClaimChallengeRequestSchema = Type.Object(
  {
    did: StoredText({ minLength: 1, maxLength: 2_048, description: 'The DID whose control is to be shown.' }),
    method: Type.Ref('ClaimMethod'),
    purpose: Type.Optional(Type.Ref('ClaimPurpose')),
    expiresInSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CHALLENGE_TTL['well-known'].max,
        description: `How long the challenge holds: signature ${CHALLENGE_TTL.signature.default} s by default (at most ${CHALLENGE_TTL.signature.max}), well-known and dns ${CHALLENGE_TTL.dns.default} s (at most ${CHALLENGE_TTL.dns.max}).`,
      }),
    ),
  },
  { $id: 'ClaimChallengeRequest', additionalProperties: false },
);

export const ClaimChallengeSchema = Type.Object(
  {
    did: Type.String(),
    method: Type.Ref('ClaimMethod'),
    purpose: Type.Ref('ClaimPurpose'),
    token: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: '32 random bytes, base64url: what is signed, hosted or published, and what the proof is submitted with.',
    }),
    createdAt: time('When the challenge was made.'),
    expiresAt: time('After this the challenge cannot be used.'),
    attemptsAllowed: Type.Integer({
      minimum: 1,
      description: `Verification attempts the challenge allows (${CHALLENGE_ATTEMPTS}); it is used up by the first success.`,
    }),
    instructions: Type.String({ description: 'What to do, then how to submit the proof.' }),
    signature: Nullable(
      Type.Object(
        {
          statement: Type.Record(Type.String(), Type.Unknown(), {
            description: 'What the signature states: {aud: "svc-claim", did, token, purpose, iat, exp}.',
          }),
          payload: Type.String({ description: 'The exact JWS payload: base64url of the statement in RFC 8785 form.' }),
          relationship: Type.Literal('authentication'),
        },
        { additionalProperties: false },
      ),
    ),
    wellKnown: Nullable(
      Type.Object({ url: Type.String(), content: Type.String({ description: 'A line the file must hold.' }) }, { additionalProperties: false }),
    ),
    dns: Nullable(
      Type.Object(
        { name: Type.String(), type: Type.Literal('TXT'), value: Type.String({ description: 'Any one TXT record at the name may hold it.' }) },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'ClaimChallenge', additionalProperties: false },
);

export const ClaimProofRequestSchema = Type.Object(
  {
    did: StoredText({ minLength: 1, maxLength: 2_048, description: 'The DID of the challenge.' }),
    token: StoredText({ minLength: 1, maxLength: 128, description: 'The challenge token.' }),
    jws: Type.Optional(StoredText({ minLength: 1, maxLength: 65_536, description: 'signature: the compact JWS over the challenge payload.' })),
  },
  { $id: 'ClaimProofRequest', additionalProperties: false },
);

export const ClaimSchema = Type.Object(
  {
    method: Type.Ref('ClaimMethod'),
    subject: Type.String({ description: 'What acted: the key id (signature), the file URL (well-known), the TXT record name (dns).' }),
    proves: Type.String(),
    doesNotProve: Type.Array(Type.String()),
    verifiedAt: time('When the proof was first verified.'),
    lastCheckedAt: time('The last successful check (the proof or a re-check).'),
    expiresAt: time('When the claim lapses unless a re-check holds it.'),
    nextCheckAt: Nullable(time('The next re-check (well-known and dns); null for signatures, which nothing can re-check.')),
  },
  { $id: 'Claim', additionalProperties: false },
);

export const LapsedClaimSchema = Type.Object(
  {
    method: Type.Ref('ClaimMethod'),
    subject: Type.String(),
    verifiedAt: Type.String(),
    lapsedAt: Type.String(),
    reason: Type.String({ description: 'Why the claim lapsed: the proof disappeared, it expired unchecked, a newer proof replaced it.' }),
  },
  { $id: 'LapsedClaim', additionalProperties: false },
);

export const ClaimRefusalSchema = Type.Object(
  { code: Type.Ref('ClaimRefusalCode'), reason: Type.String() },
  { $id: 'ClaimRefusal', additionalProperties: false },
);

export const ClaimVerificationSchema = Type.Object(
  {
    did: Type.String(),
    token: Type.String(),
    method: Nullable(Type.Ref('ClaimMethod')),
    purpose: Nullable(Type.Ref('ClaimPurpose')),
    status: Type.Union([Type.Literal('VERIFIED'), Type.Literal('REFUSED')]),
    verified: Type.Boolean(),
    refusal: Nullable(Type.Ref('ClaimRefusal')),
    claim: Nullable(Type.Ref('Claim')),
    listed: Nullable(Type.Boolean({ description: 'Whether the DID is in the directory after this proof; null when refused.' })),
    checkedAt: Type.String(),
  },
  { $id: 'ClaimVerification', additionalProperties: false },
);

export const ClaimListSchema = Type.Object(
  {
    did: Type.String(),
    claims: Type.Array(Type.Ref('Claim'), { description: 'Current, unexpired claims, newest first.' }),
    lapsed: Type.Array(Type.Ref('LapsedClaim'), { description: 'The latest claims that lapsed (at most 10), newest first.' }),
    listed: Type.Boolean({ description: 'Whether the DID is in the directory (its controller opted in and a claim holds).' }),
    limitations: Type.Array(Type.String()),
  },
  { $id: 'ClaimList', additionalProperties: false },
);

export const DirectoryEntrySchema = Type.Object(
  {
    did: Type.String(),
    method: Type.String({ description: 'The DID method: web, key, jwk or webvh.' }),
    listedAt: time('When the controller opted in.'),
    claims: Type.Array(Type.Object({ method: Type.Ref('ClaimMethod'), verifiedAt: Type.String(), expiresAt: Type.String() }, { additionalProperties: false }), {
      description: 'The current claims behind the listing.',
    }),
  },
  { $id: 'DirectoryEntry', additionalProperties: false },
);

export const DirectoryPageSchema = Type.Object(
  {
    entries: Type.Array(Type.Ref('DirectoryEntry')),
    nextCursor: Nullable(Type.String({ description: 'The cursor of the next page (with the same q and method); null on the last page.' })),
  },
  { $id: 'DirectoryPage', additionalProperties: false },
);

export const DirectoryQuerySchema = Type.Object(
  {
    q: Type.Optional(
      StoredText({
        maxLength: DIRECTORY_Q_MAX,
        description: `Free text (at most ${DIRECTORY_Q_MAX} characters): entries whose DID contains it, case-insensitively.`,
      }),
    ),
    method: Type.Optional(Type.Union(literals(DIRECTORY_METHODS), { description: 'The DID method.' })),
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]|[1-4][0-9]|50)$',
        description: `Entries per page, ${DIRECTORY_LIMIT.min} to ${DIRECTORY_LIMIT.max} (default ${DIRECTORY_LIMIT.default}).`,
      }),
    ),
    cursor: Type.Optional(StoredText({ minLength: 1, maxLength: 256, description: 'The nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);

/** The `$id` of each resource of this file, for `Static<typeof X, typeof CLAIM_REFS>`. */
export const CLAIM_REFS = {
  ClaimMethod: ClaimMethodSchema,
  ClaimPurpose: ClaimPurposeSchema,
  ClaimRefusalCode: ClaimRefusalCodeSchema,
  ClaimChallengeRequest: ClaimChallengeRequestSchema,
  ClaimChallenge: ClaimChallengeSchema,
  ClaimProofRequest: ClaimProofRequestSchema,
  Claim: ClaimSchema,
  LapsedClaim: LapsedClaimSchema,
  ClaimRefusal: ClaimRefusalSchema,
  ClaimVerification: ClaimVerificationSchema,
  ClaimList: ClaimListSchema,
  DirectoryEntry: DirectoryEntrySchema,
  DirectoryPage: DirectoryPageSchema,
};

export const CLAIM_SCHEMAS: TSchema[] = Object.values(CLAIM_REFS);
