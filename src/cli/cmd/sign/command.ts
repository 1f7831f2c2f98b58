/**
 * `svc sign-credential` and `svc sign-presentation`: make what svc verifies (docs/credentials.md#make-what-you-verify),
 * as cosign pairs sign with verify. The signed credential or presentation goes to standard output
 * (or a new --out file); the private key stays in its file, which must not be open to group or
 * others, and is never printed. What the signer filled in or could not check is said on stderr.
 */
import { Option, type Command } from 'commander';
import { SIGNED_CREDENTIAL_FORMATS, SIGNED_PRESENTATION_FORMATS } from '../../../core/issue/types.js';
import { completeFiles } from '../../cmdutil/completion.js';
import type { CliIo } from '../../cmdutil/io.js';
import { collect } from '../../cmdutil/store-options.js';
import type { SignCredentialCommandOptions, SignPresentationCommandOptions } from './options.js';

const KEY = 'the private JWK file to sign with (Ed25519, P-256 or secp256k1, as svc keygen writes; mode 0600)';
const OUT = 'write to this new file (mode 0600, never overwritten) instead of standard output';

export function registerSign(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const credential = program
    .command('sign-credential')
    .description('Sign a credential: vc+jwt, VC-JWT 1.1, Data Integrity (eddsa-jcs-2022, ecdsa-jcs-2019) or SD-JWT VC')
    .argument('<file>', 'the credential without proof (VC Data Model JSON), or SD-JWT VC claims for --format sd-jwt; - for standard input')
    .requiredOption('--key <file>', KEY)
    .addOption(new Option('--format <format>', 'how to secure it').choices(SIGNED_CREDENTIAL_FORMATS).default('vc+jwt'))
    .option('--issuer <did>', "the issuer, when the input names none (default: the key's did:key)")
    .option('--kid <didurl>', 'the verification method <issuer>#<key>; derived for did:key and did:jwk, required otherwise')
    .option('--disclose <pointer>', 'sd-jwt: a JSON Pointer to a claim made selectively disclosable (/given_name); repeatable', collect, [])
    .option('--holder-key <file>', "sd-jwt: the holder's JWK (public or private), bound as cnf.jwk")
    .option('--out <file>', OUT);
  completeFiles(credential, 'file', '--key', '--holder-key', '--out');
  credential.addHelpText(
    'after',
    `
An input without "issuer" (sd-jwt: "iss") is issued by the key's did:key; a did:key or did:jwk
issuer must be the key's; another DID needs --kid, and its verifier checks that it lists the key.
vc+jwt and di-* sign a VC Data Model 2.0 credential; vc-jwt-1.1 (what did-jwt-vc and other 1.1
verifiers read) a 1.1 one. di-eddsa-jcs takes an Ed25519 key, di-ecdsa-jcs a P-256 one. sd-jwt
signs {"vct": …, claims} with typ dc+sd-jwt and prints <JWT>~<disclosure>~…~.

Exit status: 0 signed; 2 usage: an unreadable or exposed key file, a key, issuer, --kid or
--disclose that cannot sign this input (INVALID_OPTIONS), an --out file that exists; 4 the input
cannot be signed (INVALID_REQUEST: not JSON, a proof already, MALFORMED by the data model).

Examples:
  $ svc keygen && svc sign-credential claims.json --key svc-key.jwk > cred.jwt && svc verify-credential cred.jwt
  $ svc sign-credential credential.json --key issuer.jwk --format di-eddsa-jcs --out credential.signed.json
  $ svc sign-credential pid.json --key issuer.jwk --format sd-jwt --disclose /given_name --disclose /birthdate --holder-key holder.jwk`,
  );
  credential.action(async (file: string, options: SignCredentialCommandOptions) =>
    (await import('./action.js')).signCredentialAction(io, setExit, file, options),
  );

  const presentation = program
    .command('sign-presentation')
    .description("Sign a presentation of credentials for a verifier's challenge: vp+jwt, Data Integrity, or an SD-JWT VC with its KB-JWT")
    .argument('<credentials...>', 'the credentials: files holding a Data Integrity credential, a vc+jwt or an SD-JWT VC; - for standard input')
    .requiredOption('--key <file>', "the holder's private JWK file (mode 0600)")
    .option('--challenge <text>', "the verifier's challenge (required): proof challenge, JWT nonce")
    .option('--domain <text>', "the verifier's domain: proof domain, JWT aud (required for an SD-JWT VC that binds a key)")
    .addOption(new Option('--format <format>', 'default: sd-jwt for one SD-JWT VC, else vp+jwt').choices(SIGNED_PRESENTATION_FORMATS))
    .option('--holder <did>', "the holder (default: the key's did:key)")
    .option('--kid <didurl>', 'the verification method <holder>#<key>; derived for did:key and did:jwk, required otherwise')
    .option('--out <file>', OUT);
  completeFiles(presentation, 'credentials', '--key', '--out');
  presentation.addHelpText(
    'after',
    `
Data Integrity proofs have proofPurpose authentication; a vp+jwt carries nonce, aud, iat and an
exp 5 minutes on, its JWT credentials as EnvelopedVerifiableCredential data: URLs. An SD-JWT VC
that binds a holder key gets a KB-JWT (nonce, aud, sd_hash) by --key, which must be that key.

Exit status: 0 signed; 2 usage (as for sign-credential; also no --challenge); 4 a credential
cannot be presented (INVALID_REQUEST: no proof, VC-JWT 1.1, a presentation, a KB-JWT already).

Examples:
  $ svc sign-presentation cred.jwt --key holder.jwk --challenge "$NONCE" --domain https://verifier.example > vp.jwt
  $ svc sign-presentation a.json b.json --key holder.jwk --format di-eddsa-jcs --challenge "$NONCE"
  $ svc sign-presentation pid.sd-jwt --key holder.jwk --challenge "$NONCE" --domain https://verifier.example`,
  );
  presentation.action(async (files: string[], options: SignPresentationCommandOptions) =>
    (await import('./action.js')).signPresentationAction(io, setExit, files, options),
  );
}
