/**
 * `svc verify-credential`, `svc verify-presentation`, `svc verify-jws` and `svc evaluate-policy`:
 * the verification core as CI gates. Each prints a report (or exactly the documented result with --json) and exits by the
 * contract: 0 VALID/PASS, 1 a check failed (INVALID, EXPIRED, REVOKED, MALFORMED, UNSUPPORTED,
 * FAIL …), 3 INDETERMINATE, 4 no answer (a problem), 2 usage (including an unreadable file, and a
 * --policy that holds no valid policy: INVALID_OPTIONS).
 */
import type { Command } from 'commander';
import { RELATIONSHIPS } from '../../../core/resolve/types.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { VerifyCommandOptions, VerifyCredentialCommandOptions, VerifyPresentationCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { addOutputOptions } from '../../cmdutil/output-options.js';
import { addAllowNetworkOption, addEgressOption, addPairOption, collect } from '../../cmdutil/store-options.js';
import { addBundleOption } from '../../cmdutil/bundle.js';

const egressOption = (cmd: Command): Command => addEgressOption(cmd, 'DID hosts, status lists');

/** --jsonld: the opt-in JSON-LD processing (SVC_JSONLD=on does the same). */
const addJsonLdOption = (cmd: Command): Command =>
  cmd.option(
    '--jsonld',
    "also verify eddsa-rdfc-2022, ecdsa-rdfc-2019 and Ed25519Signature2020 proofs, over RDFC-1.0 with svc's pinned JSON-LD contexts (never fetched), and JWT credentials signed with RS256 or PS256 (RSA, 2048 bits or more); as SVC_JSONLD=on",
  );

export function registerVerify(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const credential = program
    .command('verify-credential')
    .description(
      'Verify a verifiable credential: Data Integrity (eddsa-jcs-2022, ecdsa-jcs-2019), vc+jwt, VC-JWT 1.1 or SD-JWT VC, with its issuer key and status list',
    )
    .argument('<file>', 'the credential: a JSON file, a file holding a compact JWT or an SD-JWT VC, or - for standard input')
    .option('--audience <aud>', 'the audience you identify as: a JWT credential (an SD-JWT VC: its KB-JWT) must name it in "aud"')
    .option('--nonce <nonce>', 'the nonce you chose for this exchange: an SD-JWT VC\'s KB-JWT must carry it in "nonce" (replay protection)')
    .option(
      '--trusted-issuer <did>',
      'accept credentials of this issuer only: a DID, did:web:*.example.com (its subdomains) or did:web:example.com:* (it and the paths below); repeatable; replaces SVC_TRUSTED_ISSUERS',
      collect,
      [],
    );
  completeFiles(credential, 'file');
  addPairOption(
    credential,
    '--issuer-document',
    'did',
    'file',
    "verify from files: this file as the DID's document (a did:web's did.json, a did:webvh's did.jsonl) instead of fetching it; repeatable",
  );
  addPairOption(credential, '--status-list', 'url', 'file', 'verify from files: this file as the status list credential (or token) at the URL; repeatable');
  addJsonLdOption(credential);
  addAllowNetworkOption(credential);
  egressOption(credential);
  addBundleOption(credential);
  addOutputOptions(credential);
  credential.addHelpText(
    'after',
    `
Exit status: 0 VALID; 1 INVALID, EXPIRED, NOT_YET_VALID, REVOKED, SUSPENDED, UNSUPPORTED or MALFORMED;
3 INDETERMINATE (e.g. the issuer is unreachable or not a DID); 4 no answer; 2 usage or unreadable file.
With --trusted-issuer, the trust decision is reported beside the verification (issuerTrust in
--json; the status is unchanged) and the exit is the worse of the two: an issuer not listed
exits 1 even when the credential is VALID, an issuer that could not be read 3.

--jsonld (or SVC_JSONLD=on) also verifies RDF-canonicalised proofs (eddsa-rdfc-2022, ecdsa-rdfc-2019
on P-256 or P-384, Ed25519Signature2020: Open Badges 3.0, CLR 2.0): a context outside svc's pinned set
(and SVC_JSONLD_CONTEXTS) is UNSUPPORTED, never fetched. Without it they are UNSUPPORTED.

Verify from files: --issuer-document and --status-list supply what svc would fetch; svc then fetches
nothing else (--allow-network: what was not supplied), and a key or list that was not supplied makes
its check INDETERMINATE. Give these options after the credential file.

--bundle <file> also writes an evidence bundle: the credential's bytes, every issuer document and
status list fetched (bytes, TLS chain) and the result, re-checked offline by svc verify-bundle
(not with the file options: those files are already the record).

Examples:
  $ svc verify-credential credential.json
  $ svc verify-credential - --audience did:web:verifier.example --json < credential.jwt
  $ svc verify-credential presentation.sd-jwt --audience https://verifier.example --nonce "$NONCE"
  $ svc verify-credential open-badge.json --jsonld
  $ svc verify-credential credential.json --trusted-issuer 'did:web:*.example.com' --trusted-issuer did:key:z6Mk…
  $ svc verify-credential credential.json --bundle credential.bundle.json && svc verify-bundle credential.bundle.json
  $ svc verify-credential credential.json --issuer-document did:web:issuer.example did.json \\
      --status-list https://issuer.example/status/1 status-1.json`,
  );
  credential.action(async (file: string, options: VerifyCredentialCommandOptions) =>
    (await import('./action.js')).verifyCredentialAction(io, setExit, file, options),
  );

  const presentation = program
    .command('verify-presentation')
    .description(
      'Verify a verifiable presentation (Data Integrity, vp+jwt or a VC-JWT 1.1 vp token): its holder, proof, challenge and domain, and every credential it carries',
    )
    .argument('<file>', 'the presentation: a JSON file, a file holding a compact JWT, or - for standard input')
    .option('--challenge <c>', 'the challenge you gave the holder: the proof must carry exactly it (a JWT: "nonce"); without it, replay is not excluded')
    .option('--domain <d>', 'the domain you verify for: the proof must name it (a JWT: "aud"); without it, misdirection is not excluded')
    .option('--audience <aud>', 'passed to each SD-JWT VC in it: its KB-JWT must name this audience in "aud"')
    .option('--nonce <n>', 'passed to each SD-JWT VC in it: its KB-JWT must carry this nonce in "nonce"')
    .option(
      '--trusted-issuer <did>',
      'accept credentials of this issuer only: a DID, did:web:*.example.com (its subdomains) or did:web:example.com:* (it and the paths below); repeatable, replaces SVC_TRUSTED_ISSUERS; exit 1 when a credential is of another',
      collect,
      [],
    )
    .option(
      '--require-holder-binding',
      'each credential must be about the holder (a subject id equal to the holder, or an SD-JWT VC bound to its key): INVALID otherwise',
    );
  completeFiles(presentation, 'file');
  addJsonLdOption(presentation);
  egressOption(presentation);
  addOutputOptions(presentation);
  presentation.addHelpText(
    'after',
    `
Exit status: 0 VALID (the presentation and every credential in it; with --trusted-issuer, every issuer
trusted); 1 INVALID, EXPIRED, NOT_YET_VALID, REVOKED, SUSPENDED, UNSUPPORTED or MALFORMED, or an issuer
not trusted; 3 INDETERMINATE (e.g. the holder or an issuer is unreachable, or trust could not be
decided); 4 no answer; 2 usage or unreadable file.

--challenge and --domain are what you asked the holder to sign: given, a proof without them (or with
others) is INVALID; not given, their checks are SKIP and the report says replay or misdirection was
not excluded. --audience and --nonce are for the SD-JWT VCs inside (their KB-JWT); the presentation's
challenge and domain bind the other credentials.

Examples:
  $ svc verify-presentation presentation.json --challenge 6f1c0e2a --domain verifier.example
  $ svc verify-presentation - --challenge 6f1c0e2a --json < presentation.jwt
  $ svc verify-presentation presentation.json --trusted-issuer did:web:university.example \\
      --trusted-issuer did:web:employer.example --require-holder-binding`,
  );
  presentation.action(async (file: string, options: VerifyPresentationCommandOptions) =>
    (await import('./action.js')).verifyPresentationAction(io, setExit, file, options),
  );

  const jws = program
    .command('verify-jws')
    .description('Verify a compact JWS against the DID named in its kid (resolved, key authorised for the relationship)')
    .argument('<jws>', 'the compact JWS, a file holding it, or - to read it from standard input')
    .option(
      '--relationship <r>',
      `the relationship the key must be authorised for (${RELATIONSHIPS.join(', ')}); default assertionMethod, then authentication`,
    );
  completeFiles(jws, 'jws');
  egressOption(jws);
  addOutputOptions(jws);
  jws.addHelpText(
    'after',
    `
An argument naming an existing file is read from it (surrounding whitespace dropped); otherwise it
must be the compact JWS itself (header.payload.signature).

Exit status: 0 VALID; 1 INVALID, MALFORMED or UNSUPPORTED; 3 INDETERMINATE (kid not a DID URL, DID
unreachable); 4 no answer; 2 usage (neither a file nor a compact JWS) or unreadable file.

Examples:
  $ svc verify-jws token.jws
  $ svc verify-jws eyJhbGciOiJFZERTQSIsImtpZCI6ImRpZDprZXk6… --relationship authentication
  $ curl -s https://example.com/signed | svc verify-jws - --json`,
  );
  jws.action(async (token: string, options: VerifyCommandOptions & { relationship?: string }) =>
    (await import('./action.js')).verifyJwsAction(io, setExit, token, options),
  );

  const policy = program
    .command('evaluate-policy')
    .description('Evaluate a declarative policy against the evidence about a DID (and optionally a credential)')
    .argument('<did>', 'the DID to evaluate, raw or percent-encoded')
    .requiredOption('--policy <file>', 'the policy: a JSON file {"name": …, "rules": {…}}, or - for standard input')
    .option('--credential <file>', 'a credential to verify for the credentialStatus, credentialIssuerMustBeSubject and trustedIssuers rules');
  completeFiles(policy, '--policy', '--credential');
  egressOption(policy);
  addOutputOptions(policy);
  policy.addHelpText(
    'after',
    `
Rules: didResolution, allowedMethods, allowedCurves, allowedKeySuites, minKeyBits, requireKeyRelationship,
domainBinding, tlsMinDaysRemaining, verifiableHistory, maxCacheAgeSeconds, credentialStatus,
credentialIssuerMustBeSubject, trustedIssuers. A rule that lacks evidence is INDETERMINATE, never PASS.

Exit status: 0 PASS; 1 FAIL; 3 INDETERMINATE; 4 no answer (an invalid DID); 2 usage, an unreadable file or
a policy that is not one (INVALID_OPTIONS).

Example:
  $ echo '{"name":"agents","rules":{"didResolution":"required","allowedMethods":["web","webvh"]}}' > policy.json
  $ svc evaluate-policy did:web:example.com --policy policy.json`,
  );
  policy.action(async (did: string, options: VerifyCommandOptions & { policy: string; credential?: string }) =>
    (await import('./action.js')).evaluatePolicyAction(io, setExit, did, options),
  );
}
