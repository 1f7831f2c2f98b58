/** `svc verify-bundle <file>`'s work (loaded when it runs; registered by command.ts). */
import { readFileSync } from 'node:fs';
import { stat, readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { decodeBundle, MAX_BUNDLE_BYTES } from '../../../core/bundle/format.js';
import { anchorsFor } from '../../../core/bundle/tls.js';
import { verifyBundle, type BundleVerification } from '../../../core/bundle/verify.js';
import { ProblemError } from '../../../core/problems.js';
import { printable } from '../../../present/text.js';
import { createRuntime } from '../../../runtime/node.js';
import { emitReport } from '../../cmdutil/emit.js';
import { usageError } from '../../cmdutil/errors.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import type { VerifyBundleCommandOptions } from './command.js';
import { bundleText } from './render.js';

export function exitForBundle(result: BundleVerification, strict = false): number {
  if (result.outcome === 'VERIFIED') return EXIT.PASS;
  if (result.outcome === 'FAILED') return EXIT.CHECK_FAILED;
  return strict ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
}

/** The certificates this machine trusts: Node's store plus NODE_EXTRA_CA_CERTS, as a fetch would. */
function machineAnchors(env: NodeJS.ProcessEnv): string[] {
  const anchors = [...rootCertificates];
  const extra = env['NODE_EXTRA_CA_CERTS'];
  if (extra) {
    try {
      anchors.push(readFileSync(extra, 'utf8'));
    } catch {
      // Node warns about an unreadable NODE_EXTRA_CA_CERTS itself; it adds nothing here either.
    }
  }
  return anchors;
}

function nowOption(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(at.getTime())) {
    throw usageError(`--now ${printable(value)} is not an RFC 3339 time`, 'e.g. --now 2027-01-01T00:00:00Z');
  }
  return at;
}

async function readBundleFile(file: string): Promise<Uint8Array> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!code) throw err;
    throw usageError(`${printable(file)}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`}`);
  }
  // (Outside the try: a directory said "cannot be read (USAGE_ERROR)", its own refusal caught.)
  if (!info.isFile()) throw usageError(`${printable(file)}: not a file`);
  const size = info.size;
  // Refused on its size before a byte is read: a bundle holds at most 16 MiB.
  if (size > MAX_BUNDLE_BYTES) {
    throw new ProblemError('PAYLOAD_TOO_LARGE', `${printable(file)} is ${size} bytes; svc reads at most ${MAX_BUNDLE_BYTES} bytes (16 MiB) of a bundle.`);
  }
  return new Uint8Array(await readFile(file));
}

export async function verifyBundleAction(io: CliIo, setExit: (code: number) => void, file: string, options: VerifyBundleCommandOptions): Promise<void> {
  const at = nowOption(options.now);
  const base = createRuntime(io.env);
  const runtime = at ? { ...base, clock: { now: () => new Date(at.getTime()), monotonicUs: () => base.clock.monotonicUs() } } : base;
  await emitReport(
    io,
    options,
    runtime,
    async () => {
      const bundle = decodeBundle(await readBundleFile(file), printable(file));
      const { checkBundleSignature } = await import('../../../core/bundle/signature.js');
      const result = await verifyBundle(bundle, {
        runtime,
        trustAnchors: anchorsFor(
          bundle.resources.flatMap((r) => (r.tls ? [r.tls.chain] : [])),
          machineAnchors(io.env),
        ),
        checkSignature: (b) => checkBundleSignature(b, runtime),
      });
      return { value: result, exitCode: exitForBundle(result, options.strict), text: (style, width) => bundleText(result, style, width) };
    },
    setExit,
  );
}
