/**
 * The W3C VC-API verifier binding: POST /credentials/verify and POST /presentations/verify
 * (w3c-ccg/vc-api verifier.yml), the paths and bodies VC-API test suites call. A credential goes
 * through the same core verifyCredential as POST /v1/credentials/verify, a presentation through
 * the same verifyPresentation as POST /v1/presentations/verify; the answer is VC-API's
 * VerificationResult: 200 `{verified: true, …}` only when svc's status is VALID, otherwise 400
 * `{verified: false, …}` with the reasons in `errors` (VC-API allows 400 or 422; svc answers 400).
 *
 * A request svc cannot read (not a JSON object, a duplicate or unknown member, a
 * verifiableCredential or verifiablePresentation that is not an object, options that are not an
 * object, a requested check svc does not run, `challenge` or `domain` on a credential) is 400
 * problem+json like every other body of the daemon; what was read and did not verify — an
 * enveloped credential or presentation with a malformed data: URL included — is a VC-API result.
 * EnvelopedVerifiableCredential (VC-JOSE-COSE): the JWT or SD-JWT in its data: URL is verified as
 * /v1 verifies the compact string; EnvelopedVerifiablePresentation: the vp+jwt in its data: URL.
 */
import { CHECK_IDS, type CredentialCheck, type CredentialVerification } from '../../core/credentials/types.js';
import { hasType, readEnvelope, type EnvelopeContent } from '../../core/credentials/envelope.js';
import { verifyCredential } from '../../core/credentials/verify.js';
import { isJsonObject, type JsonObject } from '../../core/encoding/json.js';
import { PRESENTATION_CHECK_IDS, type PresentationCheck, type PresentationVerification } from '../../core/presentations/types.js';
import { verifyPresentation } from '../../core/presentations/verify.js';
import { ProblemError } from '../../core/problems.js';
import { truncate } from '../../core/text.js';
import { outboundWork, type RouteDef, type ServerContext } from '../context.js';
import { objectBody } from '../http.js';
import { bodyRouteProblems, json, ProblemSchema, ref, type ContentResponse } from '../schemas/common.js';
import { VcApiVerificationResultSchema, VcApiVerifyCredentialRequestSchema, VcApiVerifyPresentationRequestSchema } from '../schemas/vc-api.js';

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

/** The option members the credential binding refuses rather than ignore: they ask for a check of a proof svc does not make there. */
const REFUSED_CREDENTIAL_OPTIONS: Readonly<Record<string, string>> = {
  challenge: 'a challenge binds a presentation, not a credential: send the presentation to POST /presentations/verify with options.challenge',
  domain: 'a domain binds a presentation, not a credential: send the presentation to POST /presentations/verify with options.domain',
};

/** The option members the presentation binding applies (checked by its schema: non-empty strings). */
const PRESENTATION_OPTIONS = ['challenge', 'domain'] as const;

function invalid(detail: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', detail);
}

/**
 * The options as svc reads them: `checks` must name checks svc runs (`known`); a refused option is
 * 400; an applied one (`applied`, its value checked by the schema) is taken; any other is not
 * applied and comes back as a warning.
 */
function readOptions(
  options: JsonObject | undefined,
  known: readonly string[],
  refused: Readonly<Record<string, string>> = {},
  applied: readonly string[] = [],
): string[] {
  if (options === undefined) return [];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (name === 'checks') {
      const unknown = (value as string[]).filter((c) => !known.includes(c));
      if (unknown.length > 0) {
        throw new ProblemError(
          'INVALID_OPTIONS',
          `"options.checks" names ${unknown.map((c) => JSON.stringify(truncate(c))).join(', ')}, which svc does not run; its checks are ${known.join(', ')} (svc runs them all).`,
        );
      }
      continue;
    }
    if (applied.includes(name)) continue;
    const refusal = refused[name];
    if (refusal !== undefined) throw new ProblemError('INVALID_OPTIONS', `"options.${name}" cannot be honoured: ${refusal}.`);
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

/** The checks `options.checks` may name on /presentations/verify: the presentation's, and its credentials'. */
const PRESENTATION_BINDING_CHECKS: readonly string[] = [
  ...PRESENTATION_CHECK_IDS,
  ...CHECK_IDS.filter((id) => !(PRESENTATION_CHECK_IDS as readonly string[]).includes(id)),
];

const failing = (status: string) => status === 'FAIL' || status === 'INDETERMINATE' || status === 'UNSUPPORTED';

/**
 * svc's PresentationVerification as VC-API's VerificationResult. `checks`: the presentation's
 * checks that passed; `errors`: its checks that failed (`#presentation-check:<id>`), then, for each
 * credential that is not VALID, its checks that failed (`#credential-check:<id>`, the title naming
 * the credential's index) or its status when no check explains it; `warnings`: WARN checks of the
 * presentation and of its credentials, the limitations (each once), the unknown options.
 */
export function vcApiPresentationResult(
  verification: PresentationVerification,
  problemsBase: string,
  optionWarnings: readonly string[] = [],
): VcApiVerificationResult {
  const ofPresentation = (check: PresentationCheck): VcApiProblemDetails => ({
    type: `${problemsBase}#presentation-check:${check.id}`,
    title: `${check.label}: ${check.status}`,
    detail: check.detail,
  });
  const ofCredential = (index: number, check: CredentialCheck): VcApiProblemDetails => ({
    type: `${problemsBase}#credential-check:${check.id}`,
    title: `verifiableCredential[${index}] ${check.label}: ${check.status}`,
    detail: check.detail,
  });
  const verified = verification.status === 'VALID';
  const checks = verification.checks.filter((c) => c.status === 'PASS').map((c) => c.id);
  const errors = verification.checks.filter((c) => failing(c.status)).map(ofPresentation);
  const warnings = verification.checks.filter((c) => c.status === 'WARN').map(ofPresentation);
  const limitations = new Set(verification.limitations);
  for (const { index, verification: credential } of verification.credentials) {
    const failed = credential.checks.filter((c) => failing(c.status)).map((c) => ofCredential(index, c));
    if (credential.status !== 'VALID' && failed.length === 0) {
      failed.push({
        type: `${problemsBase}#credential-status:${credential.status}`,
        title: `verifiableCredential[${index}]: ${credential.status}`,
        detail: credential.headline,
      });
    }
    errors.push(...failed);
    warnings.push(...credential.checks.filter((c) => c.status === 'WARN').map((c) => ofCredential(index, c)));
    for (const limitation of credential.limitations) limitations.add(limitation);
  }
  if (!verified && errors.length === 0) {
    errors.push({ type: `${problemsBase}#presentation-status:${verification.status}`, title: verification.status, detail: verification.headline });
  }
  warnings.push(
    ...[...limitations].map((detail) => ({ type: `${problemsBase}#limitation`, title: 'Limitation', detail })),
    ...optionWarnings.map((detail) => unknownOption(detail, problemsBase)),
  );
  return { verified, checks, warnings, errors };
}

function unknownOption(detail: string, problemsBase: string): VcApiProblemDetails {
  return { type: `${problemsBase}#unknown-option`, title: 'Unknown option', detail };
}

/** The VC-API result of a refused envelope: not verified, the reason in errors. */
function envelopeRefused(
  reason: string,
  problemsBase: string,
  optionWarnings: readonly string[],
  content: EnvelopeContent = 'credential',
): VcApiVerificationResult {
  return {
    verified: false,
    checks: [],
    warnings: optionWarnings.map((detail) => unknownOption(detail, problemsBase)),
    errors: [
      {
        type: `${problemsBase}#malformed-envelope`,
        title: `Malformed ${content === 'credential' ? 'EnvelopedVerifiableCredential' : 'EnvelopedVerifiablePresentation'}`,
        detail: reason,
      },
    ],
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
        const optionWarnings = readOptions(body.options, CHECK_IDS, REFUSED_CREDENTIAL_OPTIONS);
        let input: unknown = credential;
        if (hasType(credential, 'EnvelopedVerifiableCredential')) {
          const envelope = readEnvelope(credential, 'credential');
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
    {
      method: 'POST',
      url: '/presentations/verify',
      budget: 'intensive',
      schema: {
        summary: 'Verify a verifiable presentation (W3C VC-API binding)',
        operationId: 'verifyPresentationVcApi',
        description:
          "VC-API's verifyPresentation: the same verification as /v1/presentations/verify (options.challenge and options.domain are the verifier's), answered as a VerificationResult. 200 only when verified (svc status VALID: the presentation and every credential in it); anything else is 400 with verified false and the reasons in errors.",
        tags: ['verification'],
        body: ref(VcApiVerifyPresentationRequestSchema),
        response: {
          200: json(ref(VcApiVerificationResultSchema), 'Verified: svc verified the presentation and its credentials as VALID.'),
          400: vcApiNotVerified(
            'application/json: the presentation did not verify (verified false, the reasons in errors), or an EnvelopedVerifiablePresentation could not be read. application/problem+json: INVALID_REQUEST (the body is not a JSON object, has a duplicate or unknown member, verifiablePresentation is missing or not an object, options is not an object, challenge or domain not a non-empty string) or INVALID_OPTIONS (a check svc does not run).',
          ),
          ...bodyRouteProblems(),
        },
      },
      handler: async (request, reply) => {
        // The schema has checked the shape: verifiablePresentation an object, options an object (checks a string array, challenge and domain non-empty strings).
        const body = objectBody(request) as { verifiablePresentation: JsonObject; options?: JsonObject };
        const presentation = body.verifiablePresentation;
        if (!isJsonObject(presentation)) throw invalid('"verifiablePresentation" must be a presentation object.');
        const optionWarnings = readOptions(body.options, PRESENTATION_BINDING_CHECKS, {}, PRESENTATION_OPTIONS);
        const { challenge, domain } = (body.options ?? {}) as { challenge?: string; domain?: string };
        let input: unknown = presentation;
        if (hasType(presentation, 'EnvelopedVerifiablePresentation')) {
          const envelope = readEnvelope(presentation, 'presentation');
          if (envelope.kind === 'malformed')
            return reply
              .code(400)
              .type('application/json')
              .send(envelopeRefused(envelope.reason, problemsBase, optionWarnings, 'presentation'));
          input = envelope.text;
        }
        const verification = await outboundWork(ctx, request, reply, ({ runtime, keys, signal }) =>
          verifyPresentation(input, {
            runtime,
            keySource: keys,
            signal,
            ...(challenge === undefined ? {} : { challenge }),
            ...(domain === undefined ? {} : { domain }),
          }),
        );
        const result = vcApiPresentationResult(verification, problemsBase, optionWarnings);
        return reply
          .code(result.verified ? 200 : 400)
          .type('application/json')
          .send(result);
      },
    },
  ];
}
