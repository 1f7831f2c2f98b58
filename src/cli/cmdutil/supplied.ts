/**
 * Verify from files, the CLI side (docs/credentials.md#verify-from-files): the file options of
 * `svc resolve`, `svc verify-credential` and `svc inspect-a2a` read here, then handed to the core as
 * supplied resources (core/supplied/). Loaded only when a file option is given.
 *
 *   exit 2 (usage)   the command line is wrong: a file that cannot be read, a file option that does
 *                    not fit the DID (--document for a did:webvh …), a file larger than svc reads
 *                    of what it stands in for, the DID document or log missing while the network
 *                    is not allowed, --allow-network without a file option
 *   exit 4 (problem) the file's content cannot be what it stands in for (not JSON, another DID's
 *                    document or log): the problem a fetched one would get, naming the file
 *
 * Whatever the verification finds in a file is its result, as for a fetched resource.
 */
import { open, stat } from 'node:fs/promises';
import { supplyResource, suppliedLimit, type SuppliedKind } from '../../core/supplied/inputs.js';
import { withSuppliedResources, type SuppliedResource } from '../../core/supplied/resources.js';
import type { Runtime } from '../../core/runtime.js';
import { CliError, usageError } from './errors.js';
import { printable } from '../../present/text.js';

/** One file option as given: what it stands in for, for which DID or URL. */
export interface SuppliedFileOption {
  kind: SuppliedKind;
  /** The DID or URL it is for. */
  target: string;
  file: string;
  /** The option that named it, for messages (`--document`). */
  flag: string;
}

export interface SuppliedFile extends SuppliedFileOption {
  body: Uint8Array;
}

/**
 * Reads each file whole, refusing (exit 2) what cannot be read or is larger than svc reads of
 * what it stands in for — checked on its size before any byte is read.
 */
export async function readSuppliedFiles(options: readonly SuppliedFileOption[], config: Runtime['config']): Promise<SuppliedFile[]> {
  const files: SuppliedFile[] = [];
  for (const option of options) {
    const named = `${option.flag} ${printable(option.file)}`;
    let size: number;
    try {
      const info = await stat(option.file);
      if (!info.isFile()) throw usageError(`${named}: not a file`);
      size = info.size;
    } catch (err) {
      if (err instanceof CliError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw usageError(`${named}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'unreadable'})`}`);
    }
    const { maxBytes, setting, purpose } = suppliedLimit(option.kind, config);
    if (size > maxBytes) {
      throw usageError(`${named} is ${size} bytes; svc reads at most ${maxBytes} bytes of a ${purpose}${setting ? ` (${setting})` : ''}`);
    }
    files.push({ ...option, body: await readWhole(option.file, size, named) });
  }
  return files;
}

/** The file's bytes, read through one handle (never more than `size` + 1: a file that grew is refused). */
async function readWhole(file: string, size: number, named: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(size + 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
      if (read > size) throw usageError(`${named} grew while it was read`);
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, read);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw usageError(`${named}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  } finally {
    await handle?.close();
  }
}

/**
 * The Runtime that answers each file's URL with its bytes and, unless `allowNetwork`, fetches
 * nothing else. Each file is checked for what it stands in for first (core/supplied/inputs.ts):
 * a ProblemError naming the file, reported as a problem (exit 4).
 */
export function suppliedRuntime(runtime: Runtime, files: readonly SuppliedFile[], allowNetwork: boolean): Runtime {
  const resources: SuppliedResource[] = files.map((f) => supplyResource({ kind: f.kind, target: f.target, body: f.body, source: f.file }, runtime.config));
  return withSuppliedResources(runtime, resources, { allowNetwork });
}

/** `--allow-network` means something only beside a file option. */
export function requireFileOptionFor(allowNetwork: boolean | undefined, fileOptions: readonly unknown[], names: string): void {
  if (allowNetwork && fileOptions.length === 0) throw usageError(`--allow-network applies only with a file option (${names})`);
}

/**
 * The pairs of a two-value option (`--issuer-document <did> <file>`, repeatable): commander
 * collects the values of every occurrence in one list, read here two by two.
 */
export function pairsOf(values: readonly string[] | undefined, flag: string, first: string, second: string): Array<[string, string]> {
  if (!values || values.length === 0) return [];
  if (values.length % 2 !== 0) {
    throw usageError(
      `${flag} takes two values, ${first} and ${second}, each time (got ${values.length} value${values.length === 1 ? '' : 's'}); give these options after the credential file`,
    );
  }
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < values.length; i += 2) pairs.push([values[i]!, values[i + 1]!]);
  return pairs;
}
