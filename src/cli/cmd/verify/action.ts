/** `svc verify-credential`, `svc verify-presentation`, `svc verify-jws` and `svc evaluate-policy`: their work, loaded when one runs (their options: options.ts, registered by command.ts). */
import { stat } from 'node:fs/promises';
import type { CredentialBundleOptions } from '../../../core/bundle/kinds.js';
import type { CredentialVerification } from '../../../core/credentials/types.js';
import { didKeySource } from '../../../core/credentials/keys.js';
import { verifyCredential } from '../../../core/credentials/verify.js';
import { decodeIdentifier, parseDid } from '../../../core/did/syntax.js';
import { parseJsonText } from '../../../core/encoding/json.js';
import { verifyJws, type JwsVerification } from '../../../core/jws/verify.js';
import type { PresentationVerification, VerifyPresentationOptions } from '../../../core/presentations/types.js';
import { MAX_PRESENTATION_LENGTH, verifyPresentation } from '../../../core/presentations/verify.js';
import { parsePolicy } from '../../../core/policy/index.js';
import { trustedIssuersProblem } from '../../../core/policy/trusted-issuers.js';
import { decidePolicy } from '../../../core/policy/run.js';
import type { PolicyEvaluation } from '../../../core/policy/types.js';
import { ProblemError } from '../../../core/problems.js';
import { sentence } from '../../../core/text.js';
import { RELATIONSHIPS, type Relationship } from '../../../core/resolve/types.js';
import { jsonLdSettings, withJsonLd } from '../../../runtime/jsonld.js';
import { ConfigError, createRuntime } from '../../../runtime/node.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { emitReport } from '../../cmdutil/emit.js';
import { credentialText, jwsText, policyText, presentationText } from './render.js';
import { optionProblem, readSource, readSourceBytes, readStdin } from '../../cmdutil/source.js';
import { bundleDestination, recordingFor, writeBundleFile } from '../../cmdutil/bundle.js';
import type { SuppliedFileOption } from '../../cmdutil/supplied.js';
import type { VerifyCommandOptions, VerifyCredentialCommandOptions, VerifyPresentationCommandOptions } from './options.js';

/**
 * The verification's exit, and with trusted issuers the worse of it and the trust decision's
 * (FAIL 1, INDETERMINATE 3; 1 is worse than 3): a gate never passes an issuer nobody trusted.
 */
export function exitForCredential(result: CredentialVerification): number {
  const verified = result.status === 'VALID' ? EXIT.PASS : result.status === 'INDETERMINATE' ? EXIT.INDETERMINATE : EXIT.CHECK_FAILED;
  const trust = result.issuerTrust;
  if (trust === undefined || verified === EXIT.CHECK_FAILED) return verified;
  if (trust.status === 'FAIL') return EXIT.CHECK_FAILED;
  return trust.status === 'INDETERMINATE' ? EXIT.INDETERMINATE : verified;
}

/** Why a VALID credential does not exit 0: its issuer was not found trusted (a line on stderr, also with --json and --quiet). */
function trustNotes(result: CredentialVerification): string[] {
  const trust = result.issuerTrust;
  if (trust === undefined || trust.status === 'PASS' || result.status !== 'VALID') return [];
  return [
    trust.status === 'FAIL'
      ? 'the credential is VALID, but its issuer is not among the trusted issuers (--trusted-issuer, SVC_TRUSTED_ISSUERS)'
      : 'needs attention: the credential is VALID, but whether its issuer is trusted could not be decided',
  ];
}

/**
 * --trusted-issuer values, else SVC_TRUSTED_ISSUERS (comma-separated; a team's list in
 * svc.config.json): each a DID or a domain form (core/policy/trusted-issuers.ts); none, no trust
 * decision.
 */
function trustedIssuersOption(values: readonly string[] | undefined, env: NodeJS.ProcessEnv): string[] | undefined {
  const setting = env['SVC_TRUSTED_ISSUERS'];
  const [given, name] =
    values !== undefined && values.length > 0
      ? [values, '--trusted-issuer']
      : setting !== undefined && setting.trim() !== ''
        ? [setting.split(',').map((v) => v.trim()), 'SVC_TRUSTED_ISSUERS']
        : [undefined, ''];
  if (given === undefined) return undefined;
  const problem = trustedIssuersProblem(given);
  if (problem !== null) throw new ConfigError(`${name}: ${printable(problem)}`);
  return [...given];
}

/**
 * The exit code of a presentation: its status as a credential's (0 VALID, 3 INDETERMINATE, 1 the
 * rest), and, when trusted issuers were given, each credential's issuer trust: FAIL makes 1,
 * INDETERMINATE 3 — and so does a credential whose trust was not decided at all (fail closed).
 * A failure outranks what is undecided. `notes` say why when trust changed the answer.
 */
export function exitForPresentation(result: PresentationVerification, trustGiven: boolean): { exitCode: number; notes: string[] } {
  const own = result.status === 'VALID' ? EXIT.PASS : result.status === 'INDETERMINATE' ? EXIT.INDETERMINATE : EXIT.CHECK_FAILED;
  if (!trustGiven || own === EXIT.CHECK_FAILED) return { exitCode: own, notes: [] };
  const untrusted: number[] = [];
  const undecided: number[] = [];
  for (const credential of result.credentials) {
    const trust = credential.verification.issuerTrust?.status;
    if (trust === 'FAIL') untrusted.push(credential.index);
    else if (trust !== 'PASS') undecided.push(credential.index);
  }
  // Numbered from 1, as the report and the checks' details name them.
  const of = (indexes: number[]) =>
    `the issuer${indexes.length > 1 ? 's' : ''} of credential${indexes.length > 1 ? 's' : ''} ${indexes.map((i) => i + 1).join(', ')}`;
  if (untrusted.length > 0) {
    const are = untrusted.length > 1 ? 'are' : 'is';
    return { exitCode: EXIT.CHECK_FAILED, notes: [`${of(untrusted)} ${are} not among the trusted issuers (--trusted-issuer)`] };
  }
  if (undecided.length > 0 && own === EXIT.PASS) {
    const are = undecided.length > 1 ? 'are' : 'is';
    return { exitCode: EXIT.INDETERMINATE, notes: [`needs attention: whether ${of(undecided)} ${are} trusted could not be decided`] };
  }
  return { exitCode: own, notes: [] };
}

export function exitForJws(result: JwsVerification): number {
  if (result.status === 'VALID') return EXIT.PASS;
  return result.status === 'INDETERMINATE' ? EXIT.INDETERMINATE : EXIT.CHECK_FAILED;
}

export function exitForPolicy(evaluation: PolicyEvaluation): number {
  if (evaluation.status === 'PASS') return EXIT.PASS;
  return evaluation.status === 'FAIL' ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
}

/** A compact JWS as typed: three base64url parts (the payload may be empty: detached). */
const COMPACT_JWS_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/**
 * The token of `svc verify-jws <jws|file|->`: standard input for `-`; an existing path is read as
 * a file (as verify-credential reads one, same size bound); otherwise the argument itself when it
 * has the shape of a compact JWS. Anything else is a usage error, so a mistyped file name is never
 * verified as a broken token. Surrounding whitespace (the file's trailing newline) is dropped.
 */
export async function jwsInput(argument: string): Promise<string> {
  if (argument === '-') return (await readStdin('JWS')).toString('utf8').trim();
  // stat fails for a token (ENOENT, or ENAMETOOLONG for a long one): then it is read as a token.
  const exists = await stat(argument).then(
    () => true,
    () => false,
  );
  if (exists) return (await readSource(argument, 'JWS file')).trim();
  const token = argument.trim();
  if (COMPACT_JWS_RE.test(token)) return token;
  const shown = argument.length > 60 ? `${argument.slice(0, 60)}…` : argument;
  throw new ConfigError(`no such file and not a compact JWS: ${printable(shown)}`);
}

/** The file options of verify-credential: each issuer's document (a did:web's did.json, a did:webvh's log) and each status list. */
async function credentialFileOptions(options: VerifyCredentialCommandOptions): Promise<SuppliedFileOption[]> {
  if (!options.issuerDocument?.length && !options.statusList?.length && !options.allowNetwork) return [];
  const { pairsOf, requireFileOptionFor } = await import('../../cmdutil/supplied.js');
  const given: SuppliedFileOption[] = [];
  for (const [did, file] of pairsOf(options.issuerDocument, '--issuer-document', '<did>', '<file>')) {
    const method = /^did:([a-z0-9]+):./.exec(did)?.[1];
    if (method === undefined) throw new ConfigError(`--issuer-document takes a DID, then a file; ${printable(did.slice(0, 80))} is not a DID`);
    if (method !== 'web' && method !== 'webvh')
      throw new ConfigError(
        `--issuer-document applies to did:web and did:webvh; the keys of a did:${printable(method.slice(0, 20))} are read without fetching anything`,
      );
    given.push({ kind: method === 'web' ? 'didDocument' : 'didLog', target: did, file, flag: '--issuer-document' });
  }
  for (const [url, file] of pairsOf(options.statusList, '--status-list', '<url>', '<file>'))
    given.push({ kind: 'statusList', target: url, file, flag: '--status-list' });
  requireFileOptionFor(options.allowNetwork, given, '--issuer-document, --status-list');
  return given;
}

export async function verifyCredentialAction(io: CliIo, setExit: (code: number) => void, file: string, options: VerifyCredentialCommandOptions): Promise<void> {
  if (options.audience !== undefined && options.audience === '') throw new ConfigError('--audience must not be empty');
  if (options.nonce !== undefined && options.nonce === '') throw new ConfigError('--nonce must not be empty');
  const trustedIssuers = trustedIssuersOption(options.trustedIssuer, io.env);
  const fileOptions = await credentialFileOptions(options);
  const jsonld = jsonLdSettings(io.env, options.jsonld === true);
  // svc verify-bundle re-runs a bundle without JSON-LD processing: its answer would not be the recorded one.
  if (jsonld.enabled && options.bundle !== undefined) throw new ConfigError('--bundle is not available with JSON-LD processing (--jsonld, SVC_JSONLD=on)');
  await bundleDestination(options.bundle, fileOptions.length > 0);
  const bytes = await readSourceBytes(file, 'credential');
  const text = bytes.toString('utf8');
  const runtime = await withJsonLd(createRuntime(io.env, { egressAllow: options.egressAllow }), jsonld);
  const supplied = fileOptions.length > 0 ? await import('../../cmdutil/supplied.js') : null;
  const files = supplied ? await supplied.readSuppliedFiles(fileOptions, runtime.config) : [];
  // What the verifier is given besides the credential: a bundle keeps it to verify again (JSON).
  const given: CredentialBundleOptions = {
    ...(options.audience ? { expectedAudience: options.audience } : {}),
    ...(options.nonce ? { expectedNonce: options.nonce } : {}),
    ...(trustedIssuers ? { trustedIssuers } : {}),
  };
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const recording = await recordingFor(runtime, options.bundle);
      // The bundle keeps the credential's bytes and what the verifier was given besides (audience, nonce, trusted issuers).
      const bundle = async (outcome: unknown) => {
        if (!recording.recorder || options.bundle === undefined) return;
        const { CREDENTIAL_INPUT } = await import('../../../core/bundle/kinds.js');
        await writeBundleFile(io, options.bundle, options.quiet === true, {
          command: { kind: 'verify-credential', subject: file, options: { ...given } },
          observedAt: recording.observedAt,
          recorder: recording.recorder,
          inputs: [{ name: CREDENTIAL_INPUT, mediaType: null, body: bytes }],
          result: outcome,
        });
      };
      const from = supplied ? supplied.suppliedRuntime(runtime, files, options.allowNetwork === true) : recording.runtime;
      let value: CredentialVerification;
      try {
        value = await verifyCredential(text, { runtime: from, hooks, ...given });
      } catch (err) {
        if (err instanceof ProblemError) await bundle({ problem: { code: err.code, detail: err.detail } });
        throw err;
      }
      await bundle(value);
      return { value, exitCode: exitForCredential(value), text: (style, width) => credentialText(value, style, width), notes: trustNotes(value) };
    },
    setExit,
  );
}

/** A value option given empty is a mistake, never "no constraint". */
function nonEmpty(name: string, value: string | undefined): void {
  if (value !== undefined && value.trim() === '') throw new ConfigError(`${name} must not be empty`);
}

export async function verifyPresentationAction(
  io: CliIo,
  setExit: (code: number) => void,
  file: string,
  options: VerifyPresentationCommandOptions,
): Promise<void> {
  nonEmpty('--challenge', options.challenge);
  nonEmpty('--domain', options.domain);
  nonEmpty('--audience', options.audience);
  nonEmpty('--nonce', options.nonce);
  const trusted = trustedIssuersOption(options.trustedIssuer, io.env);
  // A presentation carries its credentials: it may be larger than one credential (the core's bound, 4 MiB).
  const text = (await readSourceBytes(file, 'presentation', MAX_PRESENTATION_LENGTH)).toString('utf8');
  const runtime = await withJsonLd(createRuntime(io.env, { egressAllow: options.egressAllow }), jsonLdSettings(io.env, options.jsonld === true));
  const verifier: Omit<VerifyPresentationOptions, 'runtime' | 'hooks'> = {
    ...(options.challenge === undefined ? {} : { challenge: options.challenge }),
    ...(options.domain === undefined ? {} : { domain: options.domain }),
    ...(options.audience === undefined ? {} : { expectedAudience: options.audience }),
    ...(options.nonce === undefined ? {} : { expectedNonce: options.nonce }),
    ...(trusted === undefined ? {} : { trustedIssuers: trusted }),
    ...(options.requireHolderBinding ? { requireHolderBinding: true } : {}),
  };
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const value = await verifyPresentation(text, { runtime, hooks, ...verifier });
      const { exitCode, notes } = exitForPresentation(value, trusted !== undefined);
      return { value, exitCode, notes, text: (style, width) => presentationText(value, style, width) };
    },
    setExit,
  );
}

export async function verifyJwsAction(
  io: CliIo,
  setExit: (code: number) => void,
  token: string,
  options: VerifyCommandOptions & { relationship?: string },
): Promise<void> {
  if (options.relationship !== undefined && !(RELATIONSHIPS as readonly string[]).includes(options.relationship)) {
    throw new ConfigError(`--relationship must be one of ${RELATIONSHIPS.join(', ')}, not ${printable(options.relationship.slice(0, 64))}`);
  }
  const relationship = options.relationship as Relationship | undefined;
  const text = await jwsInput(token);
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const value = await verifyJws(text, { runtime, keySource: didKeySource(runtime, undefined, hooks), ...(relationship ? { relationship } : {}) });
      return { value, exitCode: exitForJws(value), text: (style, width) => jwsText(value, style, width) };
    },
    setExit,
  );
}

export async function evaluatePolicyAction(
  io: CliIo,
  setExit: (code: number) => void,
  did: string,
  options: VerifyCommandOptions & { policy: string; credential?: string },
): Promise<void> {
  if (options.policy === '-' && options.credential === '-') throw new ConfigError('--policy and --credential cannot both read standard input');
  const policySource = await readSource(options.policy, 'policy');
  const credentialSource = options.credential === undefined ? undefined : await readSource(options.credential, 'credential');
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const target = decodeIdentifier(did);
      parseDid(target);
      // The DID is what is examined (a malformed one: exit 4); the policy is an option's value (exit 2).
      const parsed = parseJsonText(policySource.trim(), 'the policy file');
      if ('error' in parsed) throw new ProblemError('INVALID_OPTIONS', sentence(parsed.error));
      let policy: ReturnType<typeof parsePolicy>;
      try {
        policy = parsePolicy(parsed.value);
      } catch (err) {
        throw optionProblem(err);
      }
      const value = await decidePolicy(target, policy, credentialSource, { runtime, hooks });
      return { value, exitCode: exitForPolicy(value.evaluation), text: (style, width) => policyText(value, style, width) };
    },
    setExit,
  );
}
