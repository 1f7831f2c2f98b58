/**
 * Schemas of the session core's key routes: list, issue, revoke,
 * rotate. Key metadata never carries a secret or a digest; the secret is in the answer that
 * issues it only.
 */
import Type, { type TSchema } from 'typebox';
import { Nullable, StoredText } from './common.js';

export const ApiKeyMetadataSchema = Type.Object(
  {
    id: Type.String({ description: 'key_ and 22 base64url characters.' }),
    projectId: Type.String(),
    prefix: Type.String({ description: 'The first 12 characters of the secret (svck_ and 7 more), to tell keys apart.' }),
    label: Nullable(Type.String()),
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('ROTATED'), Type.Literal('REVOKED')]),
    createdAt: Type.String(),
    lastUsedAt: Nullable(Type.String({ description: 'Stamped at most once a minute.' })),
    revokedAt: Nullable(Type.String({ description: 'When it stopped authenticating (revoked or rotated).' })),
    replacesKeyId: Nullable(Type.String({ description: 'The key this one replaced by a rotation.' })),
  },
  { $id: 'ApiKeyMetadata', additionalProperties: false },
);

export const ApiKeyListSchema = Type.Object(
  { keys: Type.Array(Type.Ref('ApiKeyMetadata'), { description: 'Newest first.' }) },
  { $id: 'ApiKeyList', additionalProperties: false },
);

export const KeyRequestSchema = Type.Object(
  { label: Type.Optional(StoredText({ minLength: 1, maxLength: 100, description: 'A label of the owner’s choice (1 to 100 characters).' })) },
  { $id: 'KeyRequest', additionalProperties: false },
);

const SecretSchema = Type.String({
  pattern: '^svck_[A-Za-z0-9_-]{43}$',
  description: 'The key (svck_ and 43 base64url characters), shown only in this answer: present it as Authorization: Bearer <key>.',
});

export const KeyIssuedSchema = Type.Object({ key: Type.Ref('ApiKeyMetadata'), secret: SecretSchema }, { $id: 'KeyIssued', additionalProperties: false });

export const KeyRotatedSchema = Type.Object(
  { key: Type.Ref('ApiKeyMetadata'), secret: SecretSchema, replaced: Type.Ref('ApiKeyMetadata') },
  { $id: 'KeyRotated', additionalProperties: false },
);

export const SESSION_KEY_SCHEMAS: TSchema[] = [ApiKeyMetadataSchema, ApiKeyListSchema, KeyRequestSchema, KeyIssuedSchema, KeyRotatedSchema];

// Request schemas of the routes (no `$id`: inlined where a route uses them; `{project}` is common.ts's).

/** `{project, key}`: a key of a project. */
export const ProjectKeyParamsSchema = Type.Object({ project: StoredText(), key: StoredText() }, { additionalProperties: false });
