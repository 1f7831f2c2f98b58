/**
 * The W3C VC-API verifier binding: POST /credentials/verify (w3c-ccg/vc-api verifier.yml), the
 * path and bodies VC-API test suites call. The credential goes through the same core
 * verifyCredential as POST /v1/credentials/verify; the answer is VC-API's VerificationResult:
 * 200 `{verified: true, …}` only when svc's status is VALID, otherwise 400 `{verified: false, …}`
 * with the reasons in `errors` (VC-API allows 400 or 422; svc answers 400).
 *
 * A request svc cannot read (not a JSON object, a duplicate or unknown member, a
 * verifiableCredential that is not an object, options that are not an object, a requested
 * check svc does not run, `challenge` or `domain`) is 400 problem+json like every other body of the
 * daemon; a credential that was read and did not verify — an EnvelopedVerifiableCredential with a
 * malformed data: URL included — is a VC-API result. EnvelopedVerifiableCredential (VC-JOSE-COSE):
 * the JWT or SD-JWT in its data: URL is verified as /v1 verifies the compact string.
 */
import { CHECK_IDS, type CredentialCheck, type CredentialVerification } from '../../core/credentials/types.js';
import { hasType, readEnvelope } from '../../core/credentials/envelope.js';
import { verifyCredential } from '../../core/credentials/verify.js';
import { isJsonObject, type JsonObject } from '../../core/encoding/json.js';
import { ProblemError } from '../../core/problems.js';
import { truncate } from '../../core/text.js';
import { outboundWork, type RouteDef, type ServerContext } from '../context.js';
import { objectBody } from '../http.js';
import { bodyRouteProblems, json, ProblemSchema, ref, type ContentResponse } from '../schemas/common.js';
import { VcApiVerificationResultSchema, VcApiVerifyCredentialRequestSchema } from '../schemas/vc-api.js';

/** A ProblemDetails entry of a VC-API result. */
export interface VcApiProblemDetails {
  type: string;
  title: string;
  detail: string;
}

/** VC-API's VerificationResult as svc answers it. */
export interface VcApiVerificationResult {
  verified: boolean;
  checks: string[];
  warnings: VcApiProblemDetails[];
  errors: VcApiProblemDetails[];
}

/** The option members svc refuses rather than ignore: they ask for a check of a proof svc does not make here. */
const REFUSED_OPTIONS: Readonly<Record<string, string>> = {
  challenge: 'svc does not check a proof challenge on /credentials/verify (it is a presentation option)',
  domain: 'svc does not check a proof domain on /credentials/verify (it is a presentation option)',
};

function invalid(detail: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', detail);
}

/** The options as svc reads them: names of requested checks svc does not run and options it does not know are refused or reported. */
function readOptions(options: JsonObject | undefined): string[] {
  if (options === undefined) return [];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (name === 'checks') {
      const unknown = (value as string[]).filter((c) => !(CHECK_IDS as readonly string[]).includes(c));
      if (unknown.length > 0) {
        throw new ProblemError(
          'INVALID_OPTIONS',
          `"options.checks" names ${unknown.map((c) => JSON.stringify(truncate(c))).join(', ')}, which svc does not run; its checks are ${CHECK_IDS.join(', ')} (svc runs them all).`,
        );
      }
      continue;
    }
    const refused = REFUSED_OPTIONS[name];
    if (refused !== undefined) throw new ProblemError('INVALID_OPTIONS', `"options.${name}" cannot be honoured: ${refused}.`);
    warnings.push(`"options.${truncate(name)}" is not an option svc knows; it was not applied.`);
  }
  return warnings;
}

/** svc's CredentialVerification as VC-API's VerificationResult. */
export function vcApiResult(verification: CredentialVerification, problemsBase: string, optionWarnings: readonly string[] = []): VcApiVerificationResult {
  const checkType = (check: CredentialCheck) => `${problemsBase}#credential-check:${check.id}`;
  const entry = (check: CredentialCheck): VcApiProblemDetails => ({ type: checkType(check), title: `${check.label}: ${check.status}`, detail: check.detail });
  const verified = verification.status === 'VALID';
  const checks = verification.checks.filter((c) => c.status === 'PASS').map((c) => c.id);
  const errors = verification.checks.filter((c) => c.status === 'FAIL' || c.status === 'INDETERMINATE' || c.status === 'UNSUPPORTED').map(entry);
  if (!verified && errors.length === 0) {
    errors.push({ type: `${problemsBase}#credential-status:${verification.status}`, title: verification.status, detail: verification.headline });
  }
  const warnings = [
    ...verification.checks.filter((c) => c.status === 'WARN').map(entry),
    ...verification.limitations.map((detail) => ({ type: `${problemsBase}#limitation`, title: 'Limitation', detail })),
    ...optionWarnings.map((detail) => unknownOption(detail, problemsBase)),
  ];
  return { verified, checks, warnings, errors };
}

function unknownOption(detail: string, problemsBase: string): VcApiProblemDetails {
  return { type: `${problemsBase}#unknown-option`, title: 'Unknown option', detail };
}

/** The VC-API result of a refused envelope: not verified, the reason in errors. */
function envelopeRefused(reason: string, problemsBase: string, optionWarnings: readonly string[]): VcApiVerificationResult {
  return {
    verified: false,
    checks: [],
    warnings: optionWarnings.map((detail) => unknownOption(detail, problemsBase)),
    errors: [{ type: `${problemsBase}#malformed-envelope`, title: 'Malformed EnvelopedVerifiableCredential', detail: reason }],
  };
}

function vcApiNotVerified(description: string): ContentResponse {
  return {
    description,
    content: {
      'application/json': { schema: ref(VcApiVerificationResultSchema) },
      'application/problem+json': { schema: ref(ProblemSchema) },
    },
  };
}

export function vcApiRoutes(ctx: ServerContext): RouteDef[] {
  const problemsBase = ctx.runtime.config.problemsBase;
  return [
    {
      method: 'POST',
      url: '/credentials/verify',
      budget: 'intensive',
      schema: {
        summary: 'Verify a verifiable credential (W3C VC-API binding)',
        operationId: 'verifyCredentialVcApi',
        description:
          "VC-API's verifyCredential: the same verification as /v1/credentials/verify, answered as a VerificationResult. 200 only when verified (svc status VALID); a credential that does not verify is 400 with verified false and the reasons in errors.",
        tags: ['verification'],
        body: ref(VcApiVerifyCredentialRequestSchema),
        response: {
          200: json(ref(VcApiVerificationResultSchema), 'Verified: svc verified the credential as VALID.'),
          400: vcApiNotVerified(
            'application/json: the credential did not verify (verified false, the reasons in errors), or an EnvelopedVerifiableCredential could not be read. application/problem+json: INVALID_REQUEST (the body is not a JSON object, has a duplicate or unknown member, verifiableCredential is missing or not an object, options is not an object) or INVALID_OPTIONS (a check svc does not run, challenge or domain).',
          ),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        // The schema has checked the shape: verifiableCredential an object, options an object with checks a string array.
        const body = objectBody(request) as { verifiableCredential: JsonObject; options?: JsonObject };
        const credential = body.verifiableCredential;
        if (!isJsonObject(credential)) throw invalid('"verifiableCredential" must be a credential object.');
        const optionWarnings = readOptions(body.options);
        let input: unknown = credential;
        if (hasType(credential, 'EnvelopedVerifiableCredential')) {
          const envelope = readEnvelope(credential);
          if (envelope.kind === 'malformed')
            return reply
              .code(400)
              .type('application/json')
              .send(envelopeRefused(envelope.reason, problemsBase, optionWarnings));
          input = envelope.text;
        }
        const verification = await outboundWork(ctx, request, reply, ({ runtime, keys, signal }) =>
          verifyCredential(input, { runtime, keySource: keys, signal }),
        );
        const result = vcApiResult(verification, problemsBase, optionWarnings);
        return reply
          .code(result.verified ? 200 : 400)
          .type('application/json')
          .send(result);
      },
    },
  ];
}
