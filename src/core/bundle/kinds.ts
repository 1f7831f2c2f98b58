/**
 * What each kind of bundle re-runs: the same core function as the command that made it, on a
 * Runtime that answers from the bundle. A run that ends in a problem is a result too (`{ problem }`):
 * a bundle may record a host that served something svc could not use.
 */
import type { JsonObject } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { resolve } from '../resolve/resolve.js';
import type { Runtime } from '../runtime.js';
import type { BundleCommand, BundleKind } from './format.js';
import { MCP_HISTORY_INPUT, replayMcpStore } from './mcp-history.js';

/** The inputs of a bundle by name, decoded. */
export type BundleInputs = ReadonlyMap<string, Uint8Array>;

export interface BundleKindSpec {
  /** Runs the work again on `runtime` (which answers from the bundle) and returns its result as JSON. */
  rerun(runtime: Runtime, command: BundleCommand, inputs: BundleInputs): Promise<JsonObject>;
}

/** A result as a bundle keeps it: the JSON of what the work returned. */
export function asRecordedResult(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** The result of a run that ended without an answer. */
export function problemResult(err: ProblemError): JsonObject {
  return { problem: { code: err.code, detail: err.detail } };
}

async function settle(work: () => Promise<unknown>): Promise<JsonObject> {
  try {
    return asRecordedResult(await work());
  } catch (err) {
    if (err instanceof ProblemError) return problemResult(err);
    throw err;
  }
}

function stringOption(options: JsonObject, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** The name of the input that holds a credential's bytes. */
export const CREDENTIAL_INPUT = 'credential';

/** A credential file's bytes as the verifier reads them: UTF-8 text (the CLI and the re-run decode them alike). */
export function credentialInputText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * What `verifyCredential` is given besides the credential, as a bundle keeps it (`command.options`):
 * only what shapes the result.
 */
export interface CredentialBundleOptions {
  expectedAudience?: string;
  expectedNonce?: string;
  /** The trusted issuers the result's issuerTrust was decided against. */
  trustedIssuers?: string[];
}

/**
 * What `inspectMcp` is given besides the endpoint: whether the inventory history was on (its
 * answers are the `mcp-history` input), off, or unavailable and why.
 */
export interface McpBundleOptions {
  storage: 'on' | 'off' | 'unavailable';
  storageUnavailable?: string;
}

const KINDS: Partial<Record<BundleKind, BundleKindSpec>> = {
  resolve: {
    rerun: (runtime, command) =>
      settle(() => {
        const versionId = stringOption(command.options, 'versionId');
        const versionTime = stringOption(command.options, 'versionTime');
        const versionNumber = command.options.versionNumber;
        // Not noCache: the replaying Runtime's cache starts empty, and a did:webvh log verified by
        // the re-run at the bundle's time is resumed by the one now (verify.ts).
        return resolve(command.subject, runtime, {
          ...(versionId !== undefined ? { versionId } : {}),
          ...(versionTime !== undefined ? { versionTime } : {}),
          ...(typeof versionNumber === 'number' ? { versionNumber } : {}),
        });
      }),
  },
  'verify-credential': {
    rerun: (runtime, command, inputs) =>
      settle(async () => {
        const bytes = inputs.get(CREDENTIAL_INPUT);
        if (!bytes) throw new ProblemError('INVALID_BUNDLE', `The bundle holds no intact "${CREDENTIAL_INPUT}" input to verify again.`);
        const { verifyCredential } = await import('../credentials/verify.js');
        const expectedAudience = stringOption(command.options, 'expectedAudience');
        const expectedNonce = stringOption(command.options, 'expectedNonce');
        const trustedIssuers = command.options['trustedIssuers'];
        if (trustedIssuers !== undefined && !(Array.isArray(trustedIssuers) && trustedIssuers.every((entry) => typeof entry === 'string'))) {
          throw new ProblemError('INVALID_BUNDLE', 'The bundle\'s "trustedIssuers" option is not an array of strings.');
        }
        return verifyCredential(credentialInputText(bytes), {
          runtime,
          ...(expectedAudience !== undefined ? { expectedAudience } : {}),
          ...(expectedNonce !== undefined ? { expectedNonce } : {}),
          ...(trustedIssuers !== undefined ? { trustedIssuers: trustedIssuers as string[] } : {}),
        });
      }),
  },
  'inspect-mcp': {
    rerun: (runtime, command, inputs) =>
      settle(async () => {
        const { inspectMcp } = await import('../mcp/inspect.js');
        const storage = stringOption(command.options, 'storage');
        const storageUnavailable = stringOption(command.options, 'storageUnavailable');
        const history = inputs.get(MCP_HISTORY_INPUT);
        if (storage === 'on' && !history)
          throw new ProblemError('INVALID_BUNDLE', `The bundle holds no intact "${MCP_HISTORY_INPUT}" input to compare drift with.`);
        const replayed = storage === 'on' && history ? { ...runtime, store: replayMcpStore(history) } : runtime;
        return inspectMcp(command.subject, {
          runtime: replayed,
          ...(storage === 'unavailable' && storageUnavailable !== undefined ? { storageUnavailable } : {}),
        });
      }),
  },
  'inspect-a2a': {
    rerun: (runtime, command) =>
      settle(async () => {
        const { inspectA2a } = await import('../a2a/inspect.js');
        return inspectA2a(command.subject, { runtime });
      }),
  },
};

/** The version selectors a resolve bundle keeps, to resolve the same version again. */
export function bundleResolveOptions(selected: { versionId?: string; versionTime?: string; versionNumber?: number }): JsonObject {
  const kept: JsonObject = {};
  if (selected.versionId !== undefined) kept['versionId'] = selected.versionId;
  if (selected.versionTime !== undefined) kept['versionTime'] = selected.versionTime;
  if (selected.versionNumber !== undefined) kept['versionNumber'] = selected.versionNumber;
  return kept;
}

/** The kind's re-run, or null when this svc cannot re-run it. */
export function bundleKind(kind: BundleKind): BundleKindSpec | null {
  return KINDS[kind] ?? null;
}

/** Registers how a kind re-runs (the commands whose core lives elsewhere add theirs here). */
export function defineBundleKind(kind: BundleKind, spec: BundleKindSpec): void {
  KINDS[kind] = spec;
}

/** The work of a kind with its result kept as a bundle keeps it: a problem is a result too. */
export { settle as settleForBundle };
