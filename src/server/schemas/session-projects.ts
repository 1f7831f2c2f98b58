/**
 * GET /v1/session/projects (svc's addition to the session routes): the projects of every tenant the
 * session's owner owns. Reached through the cookie gateway only (the verified-session bridge).
 */
import Type from 'typebox';

export const OwnerProjectSchema = Type.Object(
  {
    /** `prj_` + 16 random bytes, base64url. */
    id: Type.String(),
    tenantId: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const OwnerProjectsSchema = Type.Object(
  {
    /** The session's owner (its DID). */
    subject: Type.String(),
    /** Oldest first. */
    projects: Type.Array(OwnerProjectSchema),
  },
  { additionalProperties: false },
);
