/**
 * The W3C VC-API binding's pure parts (src/server/routes/vc-api.ts): reading an
 * EnvelopedVerifiableCredential's data: URL, and svc's CredentialVerification as VC-API's
 * VerificationResult. The schemas agree with the route's types (checked by tsc). The daemon's
 * answers are tested in test/integration/daemon-vc-api.test.ts.
 */
import type { Static } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import type { JsonObject, JsonValue } from '../../src/core/encoding/json.js';
import { readEnvelope } from '../../src/core/credentials/envelope.js';
import { vcApiResult, type VcApiVerificationResult } from '../../src/server/routes/vc-api.js';
import { VC_API_REFS } from '../../src/server/schemas/vc-api.js';

type S<T extends (typeof VC_API_REFS)[keyof typeof VC_API_REFS]> = Static<T, typeof VC_API_REFS>;

const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJpc3MiOiJkaWQ6ZXhhbXBsZToxIn0.c2ln';
const envelope = (id: JsonValue): JsonObject => ({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiableCredential', id });

describe('readEnvelope', () => {
  it('unwraps vc+jwt, ;base64 and SD-JWT media types', () => {
    expect(readEnvelope(envelope(`data:application/vc+jwt,${JWT}`))).toEqual({ kind: 'compact', text: JWT });
    expect(readEnvelope(envelope(`DATA:Application/VC+JWT;base64,${Buffer.from(JWT).toString('base64')}`))).toEqual({ kind: 'compact', text: JWT });
    expect(readEnvelope(envelope(`data:application/dc+sd-jwt,${JWT}~WyJhIiwiYiIsImMiXQ~`))).toEqual({ kind: 'compact', text: `${JWT}~WyJhIiwiYiIsImMiXQ~` });
  });

  it('refuses what is not a JWT of the media type it names', () => {
    const reason = (id: JsonValue) => {
      const read = readEnvelope(envelope(id));
      expect(read.kind).toBe('malformed');
      return read.kind === 'malformed' ? read.reason : '';
    };
    expect(reason(`data:application/vc+sd-jwt,${JWT}`)).toMatch(/does not hold an SD-JWT/);
    expect(reason(`data:application/vc+jwt,${JWT}~`)).toMatch(/compact JWT/);
    expect(reason(`data:application/vc+jwt;foo=bar,${JWT}`)).toMatch(/parameter/);
    expect(reason('data:application/vc+jwt,%E0%A4%A')).toMatch(/percent-encoding/);
    expect(reason('data:application/vc+jwt;base64,***')).toMatch(/not base64/);
    expect(reason(null)).toMatch(/no "id" string/);
  });
});

describe('vcApiResult', () => {
  const base: CredentialVerification = {
    status: 'VALID',
    headline: 'Valid.',
    format: 'DATA_INTEGRITY',
    dataModel: '2.0',
    issuer: 'did:example:issuer',
    subject: null,
    types: ['VerifiableCredential'],
    validFrom: null,
    validUntil: null,
    claims: null,
    checks: [
      { id: 'structure', label: 'Well-formed credential', status: 'PASS', detail: 'ok' },
      { id: 'issuer', label: 'Issuer', status: 'PASS', detail: 'ok' },
      { id: 'proof', label: 'Proof', status: 'PASS', detail: 'ok' },
      { id: 'validity', label: 'Validity', status: 'WARN', detail: 'no validUntil' },
      { id: 'status', label: 'Status', status: 'SKIP', detail: 'no status' },
    ],
    proof: null,
    statusList: [],
    issuerResolution: null,
    limitations: ['A limitation.'],
    valid: true,
    errors: [],
  };

  it('VALID → verified, the PASS checks, WARN checks, limitations and unknown options as warnings', () => {
    const result = vcApiResult(base, 'urn:p', ['"options.x" is not an option svc knows; it was not applied.']);
    expect(result).toEqual({
      verified: true,
      checks: ['structure', 'issuer', 'proof'],
      errors: [],
      warnings: [
        { type: 'urn:p#credential-check:validity', title: 'Validity: WARN', detail: 'no validUntil' },
        { type: 'urn:p#limitation', title: 'Limitation', detail: 'A limitation.' },
        { type: 'urn:p#unknown-option', title: 'Unknown option', detail: '"options.x" is not an option svc knows; it was not applied.' },
      ],
    });
  });

  it('anything but VALID → not verified; FAIL, INDETERMINATE and UNSUPPORTED checks are errors; a status no check explains is one error', () => {
    const failed = vcApiResult(
      { ...base, status: 'INVALID', valid: false, checks: [{ ...base.checks[0]!, id: 'proof', label: 'Proof', status: 'FAIL', detail: 'bad signature' }] },
      'urn:p',
    );
    expect(failed).toMatchObject({
      verified: false,
      checks: [],
      errors: [{ type: 'urn:p#credential-check:proof', title: 'Proof: FAIL', detail: 'bad signature' }],
    });
    const unexplained = vcApiResult({ ...base, status: 'INDETERMINATE', valid: false, headline: 'Could not tell.' }, 'urn:p');
    expect(unexplained.verified).toBe(false);
    expect(unexplained.errors).toEqual([{ type: 'urn:p#credential-status:INDETERMINATE', title: 'INDETERMINATE', detail: 'Could not tell.' }]);
  });

  it('the schemas and the route types agree (type-level, checked by tsc)', () => {
    expectTypeOf<VcApiVerificationResult>().toExtend<S<typeof VC_API_REFS.VcApiVerificationResult>>();
    expectTypeOf<S<typeof VC_API_REFS.VcApiVerificationResult>>().toExtend<VcApiVerificationResult>();
    expect((VC_API_REFS.VcApiVerificationResult as { additionalProperties?: unknown }).additionalProperties).toBe(false);
  });
});
