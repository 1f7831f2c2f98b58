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

const KINDS: Partial<Record<BundleKind, BundleKindSpec>> = {
  resolve: {
    rerun: (runtime, command) =>
      settle(() => {
        const versionId = stringOption(command.options, 'versionId');
        const versionTime = stringOption(command.options, 'versionTime');
        const versionNumber = command.options.versionNumber;
        return resolve(command.subject, runtime, {
          noCache: true,
          ...(versionId !== undefined ? { versionId } : {}),
          ...(versionTime !== undefined ? { versionTime } : {}),
          ...(typeof versionNumber === 'number' ? { versionNumber } : {}),
        });
      }),
  },
};

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
