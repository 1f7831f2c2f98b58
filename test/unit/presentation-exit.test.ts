/**
 * The exit code of `svc verify-presentation` (src/cli/cmd/verify/action.ts exitForPresentation):
 * the presentation's status as a credential's (0 VALID, 3 INDETERMINATE, 1 the rest), and with
 * trusted issuers each credential's issuer trust — FAIL 1, INDETERMINATE 3, none at all 3 (fail
 * closed), a failure before what is undecided — with the note that says why when trust changed it.
 */
import { describe, expect, it } from 'vitest';
import { exitForPresentation } from '../../src/cli/cmd/verify/action.js';
import type { CredentialStatus, CredentialVerification } from '../../src/core/credentials/types.js';
import type { IssuerTrust } from '../../src/core/policy/trusted-issuers.js';
import type { PresentationVerification } from '../../src/core/presentations/types.js';

function credential(status: CredentialStatus, trust?: IssuerTrust['status']): CredentialVerification {
  return {
    status,
    headline: status,
    format: 'DATA_INTEGRITY',
    dataModel: '2.0',
    issuer: 'did:example:issuer',
    subject: null,
    types: ['VerifiableCredential'],
    validFrom: null,
    validUntil: null,
    claims: null,
    checks: [],
    proof: null,
    statusList: [],
    issuerResolution: null,
    limitations: [],
    valid: status === 'VALID',
    errors: [],
    ...(trust === undefined
      ? {}
      : { issuerTrust: { status: trust, issuer: 'did:example:issuer', matched: null, trustedIssuers: ['did:example:trusted'], detail: trust } }),
  };
}

function presentation(status: CredentialStatus, credentials: CredentialVerification[]): PresentationVerification {
  return {
    status,
    headline: status,
    format: 'DATA_INTEGRITY',
    dataModel: '2.0',
    id: null,
    holder: 'did:example:holder',
    types: ['VerifiablePresentation'],
    challenge: null,
    domain: null,
    checks: [],
    proof: null,
    holderResolution: null,
    credentials: credentials.map((verification, index) => ({ index, form: 'OBJECT', holderBinding: 'BOUND', holderBindingDetail: '', verification })),
    limitations: [],
    valid: status === 'VALID',
    errors: [],
  };
}

describe('exitForPresentation', () => {
  it('without trusted issuers: the status alone (0 VALID, 3 INDETERMINATE, 1 any other)', () => {
    expect(exitForPresentation(presentation('VALID', [credential('VALID')]), false)).toEqual({ exitCode: 0, notes: [] });
    expect(exitForPresentation(presentation('INDETERMINATE', [credential('INDETERMINATE')]), false).exitCode).toBe(3);
    for (const status of ['INVALID', 'EXPIRED', 'NOT_YET_VALID', 'REVOKED', 'SUSPENDED', 'UNSUPPORTED', 'MALFORMED'] as const)
      expect(exitForPresentation(presentation(status, [credential(status)]), false).exitCode).toBe(1);
  });

  it('with trusted issuers: every issuer PASS → the status; a FAIL → 1 even when VALID or INDETERMINATE, naming the credentials from 1', () => {
    expect(exitForPresentation(presentation('VALID', [credential('VALID', 'PASS'), credential('VALID', 'PASS')]), true)).toEqual({ exitCode: 0, notes: [] });
    expect(exitForPresentation(presentation('VALID', [credential('VALID', 'PASS'), credential('VALID', 'FAIL')]), true)).toEqual({
      exitCode: 1,
      notes: ['the issuer of credential 2 is not among the trusted issuers (--trusted-issuer)'],
    });
    expect(exitForPresentation(presentation('INDETERMINATE', [credential('INDETERMINATE', 'FAIL'), credential('VALID', 'FAIL')]), true)).toEqual({
      exitCode: 1,
      notes: ['the issuers of credentials 1, 2 are not among the trusted issuers (--trusted-issuer)'],
    });
  });

  it('trust undecided, or not decided at all → 3 on a VALID presentation (fail closed); a failed presentation stays 1', () => {
    expect(exitForPresentation(presentation('VALID', [credential('VALID', 'INDETERMINATE')]), true)).toEqual({
      exitCode: 3,
      notes: ['needs attention: whether the issuer of credential 1 is trusted could not be decided'],
    });
    expect(exitForPresentation(presentation('VALID', [credential('VALID')]), true).exitCode).toBe(3);
    expect(exitForPresentation(presentation('INVALID', [credential('INVALID', 'FAIL')]), true)).toEqual({ exitCode: 1, notes: [] });
    expect(exitForPresentation(presentation('INDETERMINATE', [credential('INDETERMINATE', 'INDETERMINATE')]), true)).toEqual({ exitCode: 3, notes: [] });
  });
});
